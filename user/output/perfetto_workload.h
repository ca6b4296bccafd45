/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_workload.h - the timeline's waker and wakee threads: a track,
 * which perfetto_timeline.c hands its inputs
 */
#ifndef WAKEPROBE_PERFETTO_WORKLOAD_H
#define WAKEPROBE_PERFETTO_WORKLOAD_H

#include "perfetto_trace.h"

/* perfetto_workload__begin_run - a run's threads are its own; arrow ids go on across runs */
void perfetto_workload__begin_run(struct perfetto_workload *s);
/* perfetto_workload__draw - one merged sample, in sequence order, after the events around it */
void perfetto_workload__draw(struct perfetto_timeline *t, const struct sample_result *r);

#endif /* WAKEPROBE_PERFETTO_WORKLOAD_H */
