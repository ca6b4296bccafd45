/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_workload.h - the timeline's waker and wakee threads, and the
 * phase slices attach mode draws as well: a track, which
 * perfetto_timeline.c hands its inputs
 */
#ifndef WAKEPROBE_PERFETTO_WORKLOAD_H
#define WAKEPROBE_PERFETTO_WORKLOAD_H

#include "perfetto_trace.h"

/* perfetto_workload__phase_bounds - t_notify, the marks and t_woken; false unless they run in time order */
bool perfetto_workload__phase_bounds(const struct sample_result *r, uint64_t b[NR_PHASES + 1]);
/* perfetto_workload__phase_args - a phase slice's args: seq, ns, its time by cause, its named intervals */
void perfetto_workload__phase_args(struct json_writer *w, const struct sample_result *r, int k);
/* perfetto_workload__interval_text - an interval as the reports word it, then its time: "CPU 1 idle: 650 ns" */
void perfetto_workload__interval_text(const struct interval *iv, char *buf, size_t len);

/* perfetto_workload__begin_run - a run's threads are its own; arrow ids go on across runs */
void perfetto_workload__begin_run(struct perfetto_workload *s);
/* perfetto_workload__draw - one merged sample, in sequence order, after the events around it */
void perfetto_workload__draw(struct perfetto_timeline *t, const struct sample_result *r);

#endif /* WAKEPROBE_PERFETTO_WORKLOAD_H */
