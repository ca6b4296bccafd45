/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline_attach.h - the timeline's traced processes and threads of an
 * attach run: a track, which timeline.c hands its inputs
 */
#ifndef WAKEPROBE_TIMELINE_ATTACH_H
#define WAKEPROBE_TIMELINE_ATTACH_H

#include "timeline_trace.h"

struct attach_result;

/* timeline_attach__new - the attach state, a fixed block; NULL on ENOMEM */
struct timeline_attach *timeline_attach__new(void);
void timeline_attach__free(struct timeline_attach *a);
/* timeline_attach__begin_run - a run's tracks are its own */
void timeline_attach__begin_run(struct timeline_attach *a);
/* timeline_attach__note - what a kernel record says of a thread: its process and comm */
void timeline_attach__note(struct timeline *t, const struct wp_event *e);
/* timeline_attach__draw - one wakeup of a traced thread */
void timeline_attach__draw(struct timeline *t, const struct attach_result *r);

#endif /* WAKEPROBE_TIMELINE_ATTACH_H */
