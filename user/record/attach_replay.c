// SPDX-License-Identifier: GPL-2.0
/* attach_replay.c - an attach run of a record file through the analysis again */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_replay.h"

/*
 * FD_KIND answers written before one input: a live analysis asks a few per
 * wakeup it pairs, so this bounds only what a damaged file could make the
 * replay hold.
 */
#define MAX_PENDING_ANSWERS	(1u << 20)

struct fd_answer {
	uint32_t tgid;
	int32_t fd;
	enum fd_kind kind;
	bool used;
};

struct attach_replay {
	const struct attach_replay_opts *opts;
	struct attach_replay_run *run;		/* NULL once handed to run_done */
	/* the answers to the lookups of the next input, in the order they were asked */
	struct fd_answer *answers;
	uint32_t nr_answers, cap_answers;
	uint32_t first_unused;
};

void attach_replay_run__free(struct attach_replay_run *run)
{
	if (!run)
		return;
	attach_run__free(&run->run);
	free(run);
}

/*
 * replayed_fd_kind - the answer the live lookup gave at this point of the
 * input: the first not yet taken for this fd. The same analysis asks the
 * same questions in the same order, so that is the next one; a wakeprobe
 * whose analysis asks otherwise still gets the answer recorded for the fd.
 */
static enum fd_kind replayed_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	struct attach_replay *rp = ctx;

	for (uint32_t i = rp->first_unused; i < rp->nr_answers; i++) {
		struct fd_answer *a = &rp->answers[i];

		if (a->used || a->tgid != tgid || a->fd != fd)
			continue;
		a->used = true;
		while (rp->first_unused < rp->nr_answers && rp->answers[rp->first_unused].used)
			rp->first_unused++;
		return a->kind;
	}
	rp->run->fd_unanswered++;
	return FD_KIND_UNKNOWN;
}

int attach_replay__begin(struct attach_replay **out, const struct attach_replay_opts *o,
			 const struct rec_attach_begin *b)
{
	struct attach_replay *rp = calloc(1, sizeof(*rp));
	struct attach_analysis_opts ao = o->analysis;
	struct attach_session_result res;

	*out = NULL;
	if (!rp)
		return -ENOMEM;
	rp->opts = o;
	rp->run = calloc(1, sizeof(*rp->run));
	if (!rp->run) {
		free(rp);
		return -ENOMEM;
	}
	attach_recording__decode_begin(b, &rp->run->targets, &rp->run->run.res);
	/* the records are the lean engine's when the run was */
	ao.lean = rp->run->targets.opts.lean;
	ao.chains = rp->run->targets.opts.chains;
	if (o->run_begin)
		o->run_begin(rp->run, &ao, o->ctx);
	ao.fd_kind = replayed_fd_kind;
	ao.fd_kind_ctx = rp;
	res = rp->run->run.res;
	if (attach_run__init(&rp->run->run, &rp->run->targets.opts, &ao, NULL)) {
		attach_replay__free(rp);
		return -ENOMEM;
	}
	rp->run->run.res = res;
	attach_run__begin(&rp->run->run);
	*out = rp;
	return 0;
}

static int add_answer(struct attach_replay *rp, const struct rec_fd_kind *k, uint64_t offset, char *msg,
		      size_t len)
{
	if (rp->nr_answers == rp->cap_answers) {
		uint32_t cap = rp->cap_answers ? rp->cap_answers * 2 : 64;
		struct fd_answer *grown;

		if (cap > MAX_PENDING_ANSWERS) {
			snprintf(msg, len, "bad FD_KIND record at byte offset %" PRIu64 ": more than %u in a row",
				 offset, MAX_PENDING_ANSWERS);
			return -EINVAL;
		}
		grown = realloc(rp->answers, cap * sizeof(*grown));
		if (!grown) {
			snprintf(msg, len, "out of memory");
			return -ENOMEM;
		}
		rp->answers = grown;
		rp->cap_answers = cap;
	}
	rp->answers[rp->nr_answers++] = (struct fd_answer){ .tgid = k->tgid, .fd = k->fd, .kind = k->kind };
	return 0;
}

/* input_taken - the answers written before an input were for it alone */
static void input_taken(struct attach_replay *rp)
{
	rp->nr_answers = 0;
	rp->first_unused = 0;
}

int attach_replay__record(struct attach_replay *rp, const struct rec_record *rec, char *msg, size_t len)
{
	struct attach_replay_run *run = rp->run;

	switch (rec->type) {
	case REC_FD_KIND:
		return add_answer(rp, &rec->fd_kind, rec->offset, msg, len);
	case REC_EVENT:
		host_steal__add_event(&run->run.res.steal, &rec->event);
		attach_run__event(&run->run, &rec->event);
		break;
	case REC_ADVANCE:
		attach_run__advance(&run->run, rec->advance.complete_ns, rec->advance.drops);
		break;
	case REC_ATTACH_END:
		attach_recording__decode_end(&rec->attach_end, &run->run.res);
		attach_run__end(&run->run);
		input_taken(rp);
		rp->run = NULL;
		if (!rp->opts->run_done) {
			attach_replay_run__free(run);
			return 0;
		}
		return rp->opts->run_done(run, rp->opts->ctx);
	default:
		/* the reader lets no other record into an attach run */
		snprintf(msg, len, "%s record at byte offset %" PRIu64 " inside an attach run",
			 recording__type_name(rec->type), rec->offset);
		return -EINVAL;
	}
	input_taken(rp);
	return 0;
}

void attach_replay__free(struct attach_replay *rp)
{
	if (!rp)
		return;
	attach_replay_run__free(rp->run);
	free(rp->answers);
	free(rp);
}
