/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - run the analysis again over a record file: the merge, the
 * attribution and the aggregate of each run in it, offline and without
 * privileges, with report options (outliers, threshold) chosen anew.
 */
#ifndef WAKEPROBE_REPLAY_H
#define WAKEPROBE_REPLAY_H

#include <stdio.h>
#include "catalog.h"
#include "recording.h"
#include "run_config.h"
#include "session.h"

/* one run of the file, as it was measured and as the analysis now sees it */
struct replay_run {
	struct recorded_workload workload;	/* from RUN_BEGIN */
	struct run_config cfg;			/* from RUN_BEGIN, its workload the one above */
	struct session_opts opts;
	struct run_result res;
};

struct replay_opts {
	uint32_t outliers;
	uint64_t outlier_threshold_ns;
	/* optional, as in session_opts */
	merger_sample_fn on_sample;
	void *on_sample_ctx;
	void (*on_event)(const struct wp_event *e, void *ctx);
	void *on_event_ctx;
	/*
	 * optional: a run begins; its opts and workload are set, its result is
	 * not yet. It may set the hooks of run->opts, which the analysis uses.
	 */
	void (*run_begin)(struct replay_run *run, void *ctx);
	/* each run once its RUN_END is in; the callee owns @run (free()) and may stop with nonzero */
	int (*run_done)(struct replay_run *run, void *ctx);
	void *ctx;
};

/*
 * replay__file - read @in (named @name in messages) to its end. Returns 0,
 * or a negative errno with one line in @msg naming the problem and its byte
 * offset; runs already handed to run_done stay the callee's.
 */
int replay__file(FILE *in, const char *name, const struct replay_opts *ro, char *msg, size_t len);

#endif /* WAKEPROBE_REPLAY_H */
