/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_wakers.h - who woke a thread, for the full engine (attach.h).
 *
 * The BPF side writes a WAKER record on the waking's CPU just before its
 * sched_waking: what the current task was doing (a syscall, with its
 * number and arguments; or outside one, another process, a kernel
 * thread, an interrupt, a softirq, a timer). The record is held on its
 * CPU until the waking it was written for takes it: the same wakee, the
 * same current task. One that no waking took (that waking was lost, or a
 * record came for another) is unpaired, for the owner to count.
 *
 * A waker in a syscall is a thread of a tracked process, and its record
 * has no room for its comm: the engine knows it from the thread's own
 * switch-ins, and otherwise the names every switch-in gave a task (a
 * watched CPU records them all) are kept here, the latest per slot.
 *
 * Pure code.
 */
#ifndef WAKEPROBE_ATTACH_WAKERS_H
#define WAKEPROBE_ATTACH_WAKERS_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "mechanism.h"
#include "wakeprobe.h"

#define WAKER_NAMES	1024	/* the names switch-ins gave: a cache, direct-mapped by tid */

/* a WAKER record waiting for the WAKING that follows it on its CPU */
struct held_waker {
	bool valid;
	uint32_t tid;		/* current when it was written */
	struct wp_waker rec;
};

/* what the last switch-in of a task named it */
struct waker_names {
	struct {
		uint32_t tid;
		char comm[WP_TASK_COMM_LEN];
	} slot[WAKER_NAMES];
};

/* attach_wakers__hold - WAKER record @e, held in its CPU's @h; true when it replaces one no waking took */
bool attach_wakers__hold(struct held_waker *h, const struct wp_event *e);
/* attach_wakers__name - a switch-in named task @tid @comm */
void attach_wakers__name(struct waker_names *names, uint32_t tid, const char comm[WP_TASK_COMM_LEN]);
/* attach_wakers__comm - the name of @tid kept, or NULL */
const char *attach_wakers__comm(const struct waker_names *names, uint32_t tid);

/* what attach_wakers__take() found */
enum waker_take {
	WAKER_NONE,		/* no record was held on the waking's CPU */
	WAKER_TAKEN,
	WAKER_UNPAIRED,		/* the record held was for another wake: dropped */
};

/*
 * attach_wakers__take - the waker of waking (or sched_wakeup_new) @e into
 * @w: from the record held in its CPU's @h (NULL: none can be), which is
 * then spent. Without one, @w says only who was current (its tid) and
 * has no class. A syscall waker's comm is @thread_comm when the engine
 * knows it (NULL or empty: not), else the last switch-in's in @names.
 */
enum waker_take attach_wakers__take(struct held_waker *h, const struct waker_names *names, const char *thread_comm,
				    const struct wp_event *e, struct waker_info *w);

#endif /* WAKEPROBE_ATTACH_WAKERS_H */
