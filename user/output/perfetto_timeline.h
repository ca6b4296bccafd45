/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_timeline.h - samples and kernel events as a timeline in the Chrome
 * trace-event JSON format (its "JSON Object Format"), which ui.perfetto.dev
 * and chrome://tracing open.
 *
 * Per run, one process holds the waker and wakee threads: each wakeup as a
 * slice split into its phases, with an arrow from the notify to the wakee.
 * A second process has a thread per CPU that the events touched: the tasks,
 * interrupts and idle periods of the CPUs wakeprobe watched, and the wakes
 * and migrations of the tracked tasks. docs/outputs.md describes the tracks.
 *
 * An attach run (perfetto_timeline__begin_attach()) draws the traced
 * programs' own processes and threads instead of the first process: each
 * wakeup on its wakee's thread, split into the kernel phases it has, with
 * an arrow from its waker's thread or CPU. The CPU process is drawn as for
 * a workload.
 *
 * Written as it comes: only per-CPU and per-thread state is kept, in one
 * block allocated at open (and one more at the first attach run), so
 * memory does not grow with the run. perfetto_timeline.c writes the
 * document, perfetto_workload.c the first process's tracks,
 * perfetto_cpus.c the second's, perfetto_attach.c the traced threads of an
 * attach run.
 */
#ifndef WAKEPROBE_PERFETTO_TIMELINE_H
#define WAKEPROBE_PERFETTO_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "wakeprobe.h"
#include "wakeup.h"

struct perfetto_timeline;
struct attach_result;

/* perfetto_timeline__open - start the JSON document on @out; NULL on ENOMEM */
struct perfetto_timeline *perfetto_timeline__open(FILE *out);
/* perfetto_timeline__begin_run - runs follow one another in one file (--workload all); ends a run still open */
void perfetto_timeline__begin_run(struct perfetto_timeline *t, const char *workload, bool traced);
/* perfetto_timeline__event - one kernel event, in ring-buffer order */
void perfetto_timeline__event(struct perfetto_timeline *t, const struct wp_event *e);
/* perfetto_timeline__sample - one merged sample, in sequence order, after the events around it */
void perfetto_timeline__sample(struct perfetto_timeline *t, const struct sample_result *r);
void perfetto_timeline__end_run(struct perfetto_timeline *t);
/*
 * perfetto_timeline__begin_attach - an attach-mode run of @target ("pid
 * 1234", "./server --port 80"), after any run still open; 0, or -ENOMEM
 * when its state could not be had (nothing of the run is drawn then). Its
 * records go to perfetto_timeline__attach_event(), its wakeups to
 * perfetto_timeline__attach_result(), a live run's and a replay's alike;
 * perfetto_timeline__end_run() ends it.
 */
int perfetto_timeline__begin_attach(struct perfetto_timeline *t, const char *target);
/* perfetto_timeline__attach_event - one kernel record of the attach run, in ring-buffer order */
void perfetto_timeline__attach_event(struct perfetto_timeline *t, const struct wp_event *e);
/* perfetto_timeline__attach_result - one wakeup of a traced thread, as the engine hands it over */
void perfetto_timeline__attach_result(struct perfetto_timeline *t, const struct attach_result *r);
/*
 * perfetto_timeline__close - end the JSON document, flush and free; 0, -EIO
 * if the stream failed, or json_writer__finish()'s error for a document it
 * cut short. Never fcloses @out.
 */
int perfetto_timeline__close(struct perfetto_timeline *t);

#endif /* WAKEPROBE_PERFETTO_TIMELINE_H */
