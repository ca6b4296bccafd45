/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_totals.h - where the waits of a pair's wakeups went, over every
 * wakeup that came with its chain (--chains, chain.h): the hops' runs, the
 * time they sat preempted, their waits for a CPU by the task that held it,
 * the time each hop's waker spent on the path, and what the chains left
 * to their ends (a waker blocked on an interrupt, one not traced, ...).
 *
 * The tasks are kept by a Space-Saving sketch weighted by time
 * (CHAIN_TOTALS_TASKS rows): a task without a row takes the row with the
 * least time t, its time starts at t plus its own and its error at t. A
 * row's true time lies between ns - error and ns; what the replaced tasks
 * had themselves goes to other_ns, so that
 *
 *   sum over the rows of (ns - error) + other_ns = the time summed
 *
 * (runnable_ns for the holders, ran_ns + runnable_ns for the wakers).
 */
#ifndef WAKEPROBE_CHAIN_TOTALS_H
#define WAKEPROBE_CHAIN_TOTALS_H

#include <stddef.h>
#include <stdint.h>
#include "chain.h"

#define CHAIN_TOTALS_TASKS	6

struct chain_task_time {
	uint32_t tid;			/* 0 with a holder: an idle CPU */
	char comm[WP_TASK_COMM_LEN];	/* "": not named */
	uint64_t ns;
	uint64_t error;
};

struct chain_task_times {
	struct chain_task_time rows[CHAIN_TOTALS_TASKS];
	uint32_t nr;
	uint64_t other_ns;
};

struct chain_totals {
	uint64_t chained;		/* wakeups that came with a chain */
	uint64_t ends[NR_CHAIN_ENDS];	/* ... by how their chain ended */
	/* of those whose wait's start was seen, which the hops split: */
	uint64_t waits;
	uint64_t wait_ns;
	uint64_t ran_ns;		/* the hops' runs on the path, preempted time included */
	uint64_t preempted_ns;		/* ... of which they sat preempted (where a run was whole on the path) */
	uint64_t runnable_ns;		/* the hops' waits for a CPU */
	uint64_t rest_ns[NR_CHAIN_ENDS];	/* what the chains left, by their end */
	struct chain_task_times holders;	/* runnable_ns by the task that held the CPU */
	struct chain_task_times wakers;		/* ran_ns + runnable_ns by the hop's waker */
};

/* chain_totals__add - @c, a wakeup's chain, into @t */
void chain_totals__add(struct chain_totals *t, const struct chain *c);

/* chain_totals__tasks - @tt's rows, the most time first (ties: tid), into @out; how many */
size_t chain_totals__tasks(const struct chain_task_times *tt, const struct chain_task_time **out, size_t max);

#endif /* WAKEPROBE_CHAIN_TOTALS_H */
