// SPDX-License-Identifier: GPL-2.0
/* replay.c - the analysis of each run in a record file, again */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "parse.h"
#include "rec_reader.h"
#include "replay.h"

struct replay {
	const struct replay_opts *ro;
	struct replay_run *run;		/* the run being read, NULL between runs */
	struct analysis analysis;
	struct attach_replay *attach;	/* an attach run being read, NULL outside one */
};

static int begin_run(struct replay *rp, const struct rec_run_begin *b)
{
	const struct replay_opts *ro = rp->ro;
	struct replay_run *run = calloc(1, sizeof(*run));
	struct analysis_opts ao = ro->analysis;
	int err;

	if (!run)
		return -ENOMEM;
	run_recording__decode_begin(b, &run->cfg, &run->workload, &run->res.meta, &run->res.trace_start_ns);
	if (ro->run_begin)
		ro->run_begin(run, &ao, ro->ctx);
	err = analysis__begin(&rp->analysis, &run->cfg, &ao, &run->res);
	if (err) {
		analysis__free(&rp->analysis);
		free(run);
		return err;
	}
	rp->run = run;
	return 0;
}

static int end_run(struct replay *rp, const struct rec_run_end *e)
{
	struct replay_run *run = rp->run;

	run_recording__decode_end(e, &run->res);
	analysis__end(&rp->analysis);
	analysis__free(&rp->analysis);
	rp->run = NULL;
	if (!rp->ro->run_done) {
		free(run);
		return 0;
	}
	return rp->ro->run_done(run, rp->ro->ctx);
}

/*
 * attach_record - a record of an attach run, ATTACH_BEGIN to ATTACH_END: the
 * reader lets only FD_KIND, EVENT and ADVANCE between them. Any error
 * leaves one line in @why.
 */
static int attach_record(struct replay *rp, const struct rec_record *rec, char *why, size_t len)
{
	int err;

	if (rec->type == REC_ATTACH_BEGIN) {
		if (!rp->ro->attach) {
			snprintf(why, len, "an attach run at byte offset %llu, which this reader does not replay",
				 (unsigned long long)rec->offset);
			return -ENOTSUP;
		}
		err = attach_replay__begin(&rp->attach, rp->ro->attach, &rec->attach_begin);
		if (err)
			snprintf(why, len, "out of memory");
		return err;
	}
	err = attach_replay__record(rp->attach, rec, why, len);
	if (rec->type == REC_ATTACH_END) {
		attach_replay__free(rp->attach);
		rp->attach = NULL;
		if (err > 0 || (err < 0 && err != -ENOMEM))
			snprintf(why, len, "stopped after the run that ends at byte offset %llu",
				 (unsigned long long)rec->offset);
	}
	return err;
}

int replay__file(FILE *in, const char *name, const struct replay_opts *ro, char *msg, size_t len)
{
	struct replay rp = { .ro = ro };
	struct rec_reader *reader = NULL;
	struct rec_record *rec;
	char why[256];
	int err;

	rec = malloc(sizeof(*rec));
	if (!rec) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	err = rec_reader__open(&reader, in, why, sizeof(why));
	while (!err && (err = rec_reader__next(reader, rec, why, sizeof(why))) > 0) {
		err = 0;
		if (rec->type == REC_ATTACH_BEGIN || rp.attach) {
			err = attach_record(&rp, rec, why, sizeof(why));
			continue;
		}
		switch (rec->type) {
		case REC_RUN_BEGIN:
			err = begin_run(&rp, &rec->run_begin);
			break;
		case REC_CLOCK_PAIR: {
			struct tsc_pair p = { .tsc = rec->clock_pair.tsc, .mono_ns = rec->clock_pair.mono_ns,
					      .width = rec->clock_pair.width };

			analysis__clock_pair(&rp.analysis, &p);
			break;
		}
		case REC_EVENT:
			analysis__event(&rp.analysis, &rec->event);
			break;
		case REC_SAMPLE:
			analysis__sample(&rp.analysis, &rec->sample.sample, rec->sample.t_notify_ns,
					 rec->sample.t_woken_ns, rec->sample.t_wait_start_ns);
			break;
		case REC_FDS:
			analysis__fds(&rp.analysis, rec->fds.notify_fd, rec->fds.wait_fd);
			break;
		case REC_ADVANCE:
			analysis__advance(&rp.analysis, rec->advance.complete_ns, rec->advance.drops);
			break;
		case REC_RUN_END:
			err = end_run(&rp, &rec->run_end);
			break;
		default:
			break;
		}
		if (err == -ENOMEM)
			snprintf(why, sizeof(why), "out of memory");
		else if (err)
			snprintf(why, sizeof(why), "stopped after the run that ends at byte offset %llu",
				 (unsigned long long)rec->offset);
	}
	if (err)
		snprintf(msg, len, "%s: %s", parse__shown(name), why);
	if (rp.run) {
		analysis__free(&rp.analysis);
		free(rp.run);
	}
	attach_replay__free(rp.attach);
	rec_reader__free(reader);
	free(rec);
	return err;
}
