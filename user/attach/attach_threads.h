/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_threads.h - the threads the full engine (attach.h) follows, by
 * tid: each one's state between records (on its CPU, preempted, asleep,
 * and in which wait) and the wakeups it is putting together
 * (attach_build.h).
 *
 * The table is open addressing with linear probing, kept at most half
 * full, growing by doubling up to twice its bound of threads; a removal
 * moves back the entries that probed past the freed slot (no tombstones),
 * so a lookup never walks further than the threads it holds. When there
 * is no room (the bound reached, or no memory to grow) the owner decides
 * which thread to give up (attach_threads__least_recent()).
 *
 * Pure code: memory and tids.
 */
#ifndef WAKEPROBE_ATTACH_THREADS_H
#define WAKEPROBE_ATTACH_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "attach_build.h"
#include "mechanism.h"
#include "wakeprobe.h"

enum run_state {
	RUN_UNKNOWN,	/* nothing seen of it yet but the record that named it */
	RUN_ON_CPU,
	RUN_PREEMPTED,	/* switched out, still runnable */
	RUN_ASLEEP,	/* its sleep began (a sleeping switch-out or its BLOCK), not run since */
	RUN_NEW,	/* a task that sched_wakeup_new woke, not run yet */
};

/*
 * One tracked thread. Its sleep has two halves, the sleeping switch-out and
 * the BLOCK record, which the BPF side writes together in either order; the
 * first to come begins the sleep, the second completes it.
 *
 * How a tid that comes back does not inherit an old thread's state:
 * - a switch-out in TASK_DEAD ends the thread: its state is dropped;
 * - a sched_wakeup with no sched_waking before it is sched_wakeup_new, a
 *   task that begins (a FORK's child, or a new thread: no record announces
 *   those), so any state under its tid belonged to another thread and is
 *   dropped; a FORK drops any state under the child's tid too;
 * - a switch-in naming another tgid than the one known is another thread;
 * - a BLOCK begins a new wait: the wait is replaced whole, never merged.
 * There is no timeout on silence: a thread asleep for an hour is still in
 * the same wait. Should an exit and a new thread's start both be lost, the
 * loss window of the old sleep (from its start) covers the gap, and the
 * wakeup is labelled lost_events.
 */
struct thread {
	uint32_t tid;		/* 0: a free slot */
	uint32_t tgid;		/* 0 until a switch-in names it */
	char comm[WP_TASK_COMM_LEN];
	enum run_state run;
	bool sleep_switch_seen;
	bool sleep_block_seen;
	uint64_t sleep_ns;
	struct wait_info wait;		/* the current (or last) sleep's */
	struct loss_window sleep_loss;	/* from the sleep's start until a waking takes it over */
	struct build cur;		/* the wakeup that ends the current sleep */
	/*
	 * A waking that found the thread not asleep: a wake of a task that had
	 * set its sleeping state but not left its CPU (its sched_wakeup follows
	 * while it runs: no_sleep), or one that caught it inside __schedule(),
	 * stamped before its switch-out (the sleep that follows is the one it
	 * ends: it becomes cur).
	 */
	struct build early;
	uint64_t last_ns;		/* the last record about it: the one forgotten first when the table is full */
};

/* every thread known, by tid: slots[0 .. nr_slots), a tid of 0 a free one; walk them for each thread */
struct attach_threads {
	struct thread *slots;
	size_t nr_slots;		/* a power of two */
	unsigned int slot_bits;
	size_t count;			/* threads held */
	size_t max;			/* the bound: at most this many at once */
};

/* attach_threads__init - an empty table of at most @max threads; 0, or -ENOMEM */
int attach_threads__init(struct attach_threads *th, size_t max);
void attach_threads__fini(struct attach_threads *th);

/* attach_threads__find - thread @tid; NULL when it is not known, and for tid 0 */
struct thread *attach_threads__find(const struct attach_threads *th, uint32_t tid);
/*
 * attach_threads__has_room - may one more thread be added? The table grows
 * first if it must; false at the bound, or when there was no memory to grow
 */
bool attach_threads__has_room(struct attach_threads *th);
/*
 * attach_threads__add - thread @tid (not known, not 0), new: nothing seen
 * of it yet (RUN_UNKNOWN), no wait, last seen at @ts_ns. Call it only with
 * room (attach_threads__has_room(), or a thread just removed).
 */
struct thread *attach_threads__add(struct attach_threads *th, uint32_t tid, uint64_t ts_ns);
/* attach_threads__remove - @t, a thread of the table, forgotten: every pointer into the table is stale after */
void attach_threads__remove(struct attach_threads *th, struct thread *t);
/* attach_threads__least_recent - the thread whose last record is the oldest; NULL when there is none */
struct thread *attach_threads__least_recent(const struct attach_threads *th);

#endif /* WAKEPROBE_ATTACH_THREADS_H */
