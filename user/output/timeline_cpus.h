/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline_cpus.h - the timeline's thread per CPU: a track, which timeline.c hands its inputs
 */
#ifndef WAKEPROBE_TIMELINE_CPUS_H
#define WAKEPROBE_TIMELINE_CPUS_H

#include "timeline_trace.h"

void timeline_cpus__begin_run(struct timeline_cpus *c);
/* timeline_cpus__thread - CPU @cpu's thread in the run's CPU process, both named the first time */
uint32_t timeline_cpus__thread(struct timeline *t, uint32_t cpu);
/* timeline_cpus__event - one kernel event, in ring-buffer order */
void timeline_cpus__event(struct timeline *t, const struct wp_event *e);

#endif /* WAKEPROBE_TIMELINE_CPUS_H */
