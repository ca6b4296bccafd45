/* SPDX-License-Identifier: GPL-2.0 */
/* perfetto_cpus.h - the timeline's thread per CPU: a track, which perfetto_timeline.c hands its inputs */
#ifndef WAKEPROBE_PERFETTO_CPUS_H
#define WAKEPROBE_PERFETTO_CPUS_H

#include "perfetto_trace.h"

void perfetto_cpus__begin_run(struct perfetto_cpus *c);
/* perfetto_cpus__thread - CPU @cpu's thread in the run's CPU process, both named the first time */
uint32_t perfetto_cpus__thread(struct perfetto_timeline *t, uint32_t cpu);
/* perfetto_cpus__event - one kernel event, in ring-buffer order */
void perfetto_cpus__event(struct perfetto_timeline *t, const struct wp_event *e);

#endif /* WAKEPROBE_PERFETTO_CPUS_H */
