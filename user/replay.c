// SPDX-License-Identifier: GPL-2.0
/* replay.c - the analysis of each run in a record file, again */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "rec_reader.h"
#include "replay.h"

struct replay {
	const struct replay_opts *ro;
	struct replay_run *run;		/* the run being read, NULL between runs */
	struct analysis analysis;
};

static int begin_run(struct replay *rp, const struct rec_run_begin *b)
{
	const struct replay_opts *ro = rp->ro;
	struct replay_run *run = calloc(1, sizeof(*run));
	struct analysis_opts ao = ro->analysis;
	int err;

	if (!run)
		return -ENOMEM;
	run_config__decode(b, &run->cfg, &run->workload, &run->res.meta, &run->res.trace_start_ns);
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

	run_result__decode_end(e, &run->res);
	analysis__end(&rp->analysis);
	analysis__free(&rp->analysis);
	rp->run = NULL;
	if (!rp->ro->run_done) {
		free(run);
		return 0;
	}
	return rp->ro->run_done(run, rp->ro->ctx);
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
		snprintf(msg, len, "%s: %s", name, why);
	if (rp.run) {
		analysis__free(&rp.analysis);
		free(rp.run);
	}
	rec_reader__free(reader);
	free(rec);
	return err;
}
