/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_attach.h - the timeline's traced processes and threads of an
 * attach run: a track, which perfetto_timeline.c hands its inputs
 */
#ifndef WAKEPROBE_PERFETTO_ATTACH_H
#define WAKEPROBE_PERFETTO_ATTACH_H

#include "perfetto_trace.h"

struct attach_result;

/* perfetto_attach__new - the attach state, a fixed block; NULL on ENOMEM */
struct perfetto_attach *perfetto_attach__new(void);
void perfetto_attach__free(struct perfetto_attach *a);
/* perfetto_attach__begin_run - a run's tracks are its own */
void perfetto_attach__begin_run(struct perfetto_attach *a);
/* perfetto_attach__note - what a kernel record says of a thread: its process and comm */
void perfetto_attach__note(struct perfetto_timeline *t, const struct wp_event *e);
/* perfetto_attach__draw - one wakeup of a traced thread */
void perfetto_attach__draw(struct perfetto_timeline *t, const struct attach_result *r);

#endif /* WAKEPROBE_PERFETTO_ATTACH_H */
