/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - run the analysis again over a record file: the merge, the
 * attribution and the aggregate of each run in it, offline and without
 * privileges, with report options (outliers, threshold) chosen anew.
 */
#ifndef WAKEPROBE_REPLAY_H
#define WAKEPROBE_REPLAY_H

#include <stdio.h>
#include "analysis.h"
#include "attach_replay.h"
#include "run_config.h"
#include "run_recording.h"
#include "run_result.h"

/* one run of the file, as it was measured and as the analysis now sees it */
struct replay_run {
	struct recorded_workload workload;	/* from RUN_BEGIN */
	struct run_config cfg;			/* from RUN_BEGIN, its workload the one above */
	struct run_result res;
};

struct replay_opts {
	struct analysis_opts analysis;		/* for every run: the outliers, where samples go */
	/*
	 * optional: a run begins; its cfg is set, its result is not yet. It
	 * may add outputs to @ao, the analysis options of this run alone.
	 */
	void (*run_begin)(const struct replay_run *run, struct analysis_opts *ao, void *ctx);
	/* each run once its RUN_END is in; the callee owns @run (free()) and may stop with nonzero */
	int (*run_done)(struct replay_run *run, void *ctx);
	void *ctx;
	/* an attach recording's run goes there; NULL: such a file is refused */
	const struct attach_replay_opts *attach;
};

/*
 * replay__file - read @in (named @name in messages) to its end. Returns 0,
 * or a negative errno with one line in @msg naming the problem and its byte
 * offset; runs already handed to run_done stay the callee's.
 */
int replay__file(FILE *in, const char *name, const struct replay_opts *ro, char *msg, size_t len);

#endif /* WAKEPROBE_REPLAY_H */
