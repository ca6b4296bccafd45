/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - samples and kernel events as a timeline in the Chrome
 * trace-event JSON format (its "JSON Object Format"), which ui.perfetto.dev
 * and chrome://tracing open.
 *
 * Per run, one process holds the waker and wakee threads: each wakeup as a
 * slice split into its phases, with an arrow from the notify to the wakee.
 * A second process has a thread per CPU that the events touched: the tasks,
 * interrupts and idle periods of the CPUs wakeprobe watched, and the wakes
 * and migrations of the tracked tasks. docs/outputs.md describes the tracks.
 *
 * An attach run (timeline__begin_attach()) draws the traced programs' own
 * processes and threads instead of the first process: each wakeup on its
 * wakee's thread, split into the kernel phases it has, with an arrow from
 * its waker's thread or CPU. The CPU process is drawn as for a workload.
 *
 * Written as it comes: only per-CPU and per-thread state is kept, in one
 * block allocated at open (and one more at the first attach run), so
 * memory does not grow with the run. timeline.c writes the document,
 * timeline_workload.c the first process's tracks, timeline_cpus.c the
 * second's, timeline_attach.c the traced threads of an attach run.
 */
#ifndef WAKEPROBE_TIMELINE_H
#define WAKEPROBE_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "wakeprobe.h"
#include "wakeup.h"

struct timeline;
struct attach_result;

/* timeline__open - start the JSON document on @out; NULL on ENOMEM */
struct timeline *timeline__open(FILE *out);
/* timeline__begin_run - runs follow one another in one file (--workload all); ends a run still open */
void timeline__begin_run(struct timeline *t, const char *workload, bool traced);
/* timeline__event - one kernel event, in ring-buffer order */
void timeline__event(struct timeline *t, const struct wp_event *e);
/* timeline__sample - one merged sample, in sequence order, after the events around it */
void timeline__sample(struct timeline *t, const struct sample_result *r);
void timeline__end_run(struct timeline *t);
/*
 * timeline__begin_attach - an attach-mode run of @target ("pid 1234",
 * "./server --port 80"), after any run still open; 0, or -ENOMEM when its
 * state could not be had (nothing of the run is drawn then). Its records go
 * to timeline__attach_event(), its wakeups to timeline__attach_result(), a
 * live run's and a replay's alike; timeline__end_run() ends it.
 */
int timeline__begin_attach(struct timeline *t, const char *target);
/* timeline__attach_event - one kernel record of the attach run, in ring-buffer order */
void timeline__attach_event(struct timeline *t, const struct wp_event *e);
/* timeline__attach_result - one wakeup of a traced thread, as the engine hands it over */
void timeline__attach_result(struct timeline *t, const struct attach_result *r);
/*
 * timeline__close - end the JSON document, flush and free; 0, -EIO if the
 * stream failed, or json_writer__finish()'s error for a document it cut
 * short. Never fcloses @out.
 */
int timeline__close(struct timeline *t);

#endif /* WAKEPROBE_TIMELINE_H */
