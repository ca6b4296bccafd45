/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_replay.h - an attach run of a record file through attach mode's
 * analysis again, offline and without privileges: the same kernel
 * records, watermarks and fd answers in the same order, so the wakeups,
 * the tables and the report are the live run's, with report options
 * (--outliers, --threshold-us, --tid, --pairs) chosen anew.
 *
 * replay.h reads the file and hands an attach run's records here.
 */
#ifndef WAKEPROBE_ATTACH_REPLAY_H
#define WAKEPROBE_ATTACH_REPLAY_H

#include <stddef.h>
#include "attach_recording.h"
#include "attach_run.h"
#include "recording.h"

/* the run, as it was traced and as the analysis now sees it */
struct attach_replay_run {
	struct attach_targets targets;		/* what was traced, as recorded: run.targets points into it */
	struct attach_run run;			/* how the run went, and once ended its analysis */
	uint64_t fd_unanswered;			/* fd lookups the recording held no answer for: 0 unless the
						   analysis asks otherwise than the one that recorded it */
};

struct attach_replay_opts {
	/*
	 * the outliers, their threshold, --tid, and where the wakeups
	 * (on_result) and the kernel records (on_event) go; the fd lookups
	 * are the replay's own, answered from the recording
	 */
	struct attach_analysis_opts analysis;
	/* optional: the run begins, its targets set; it may add outputs to @ao, this run's analysis options */
	void (*run_begin)(const struct attach_replay_run *run, struct attach_analysis_opts *ao, void *ctx);
	/* once ATTACH_END is in and the analysis ended; the callee owns @run (attach_replay_run__free) */
	int (*run_done)(struct attach_replay_run *run, void *ctx);
	void *ctx;
};

void attach_replay_run__free(struct attach_replay_run *run);

/* the replay of one attach run, fed its records in file order */
struct attach_replay;

/* attach_replay__begin - a replay of the run @b begins; 0 or a negative errno, and @rp */
int attach_replay__begin(struct attach_replay **rp, const struct attach_replay_opts *o,
			 const struct rec_attach_begin *b);
/*
 * attach_replay__record - the run's next record (FD_KIND, EVENT, ADVANCE or
 * ATTACH_END). Returns 0, run_done's value after ATTACH_END, or a negative
 * errno with one line in @msg.
 */
int attach_replay__record(struct attach_replay *rp, const struct rec_record *rec, char *msg, size_t len);
/* attach_replay__free - also a replay its ATTACH_END never reached */
void attach_replay__free(struct attach_replay *rp);

#endif /* WAKEPROBE_ATTACH_REPLAY_H */
