/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain.h - the chain behind a wakeup: its waker, what that waker did and
 * waited for before it woke it, who woke that waker, and so on back, each
 * hop with its share of the wakee's wait.
 *
 * The lean engine carries the links in each wakeup's record (--chains,
 * struct wp_lean_link): link 0 the wakeup's own waking, link i + 1 the one
 * that ended the sleep of link i's waker. chain__assemble() walks them back
 * from the wakee's waking and splits the wakee's blocked time (its sleep
 * to its waking) hop by hop: each waker's run up to the waking it made
 * (its own work, and the time it sat preempted), then its wait for a CPU
 * after its own waking (and whom it took the CPU from), then the time it
 * was blocked itself, which is the next hop back. The walk stops where the
 * wakee went to sleep, or where a link ends the chain; what it leaves is
 * the last waker's blocked time, named by the end. The parts add up to the
 * wait, as the phases add up to a wakeup.
 *
 * Pure code: no state outside the arguments.
 */
#ifndef WAKEPROBE_CHAIN_H
#define WAKEPROBE_CHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"
#include "wakeup.h"

#define CHAIN_HOPS	WP_CHAIN_LINKS

/* why a chain ends where it does */
enum chain_end {
	CHAIN_END_SLEEP,	/* it reached back to the wakee's sleep: the hops hold the whole wait */
	CHAIN_END_INTERRUPT,	/* a hard interrupt, or a timer's expiry, woke the last waker */
	CHAIN_END_SOFTIRQ,	/* a softirq that no thread raised woke it */
	CHAIN_END_UNSURE,	/* the context of the waking that woke it could not be read */
	CHAIN_END_UNTRACED,	/* the last waker is not traced: what it did before is not known */
	CHAIN_END_NOT_BLOCKED,	/* the last waker was not seen to come to run from a sleep: running all along */
	CHAIN_END_CYCLE,	/* the last waker was woken by a task already in the chain: a ping-pong */
	CHAIN_END_DEPTH,	/* the links the kernel carries ran out */
	CHAIN_END_LOST,		/* a link is missing, or does not join the one before it */
	NR_CHAIN_ENDS,
};

/* chain_hop - one waker on the chain, and its share of the wakee's wait */
struct chain_hop {
	uint32_t waker_tid;	/* the waker; in interrupt work, the task it came in on (0: idle) */
	uint32_t wakee_tid;
	uint8_t kind;		/* enum wp_link_kind: who ran the waking */
	uint8_t fd_kind;	/* enum fd_kind of nr's first argument */
	int16_t nr;		/* the waker's syscall at the waking (the mechanism); -1: none or not read */
	/*
	 * A thread's (THREAD, RAISED, NEW), where run_seen: its run up to the
	 * waking it made, on the wait's path (clipped: cut at the wakee's
	 * sleep, it had begun before); of that, the time it sat preempted,
	 * known where the run is whole; and its wait for a CPU before the run,
	 * after its own waking, with the task it took the CPU from (0: idle)
	 * and the CPU
	 */
	bool run_seen;
	bool clipped;
	uint64_t ran_ns;
	uint64_t preempted_ns;
	uint64_t runnable_ns;
	uint32_t holder_tid;
	uint16_t cpu;
	uint64_t blocked_ns;	/* the wakee of this hop had slept this long at the waking; 0: not seen */
	/* the names of the waker and the holder where the run knew them (the caller's to fill); "": not */
	char waker_comm[WP_TASK_COMM_LEN];
	char holder_comm[WP_TASK_COMM_LEN];
	/*
	 * Where the waker's own wakeup was slow enough to bring its CPU's
	 * flight records (the caller's to fill): its waking to its switch-in
	 * by cause (explain.h), whole, not cut at the wakee's sleep; and the
	 * task that held that CPU the longest in it (0: none did)
	 */
	bool runnable_explained;
	int64_t runnable_by_cause[NR_CAUSES];
	uint32_t runnable_task_tid;
	char runnable_task_comm[WP_TASK_COMM_LEN];
	uint64_t runnable_task_ns;
	/*
	 * --stacks (the caller's to fill): the waker's stacks where it made
	 * this hop's waking, by the ids of struct wp_lean_stacks, its user
	 * stack named by waker_tgid's mappings
	 */
	bool stacked;
	int32_t waker_kernel, waker_user;
	uint32_t waker_tgid;
};

struct chain {
	/* the wakee's sleep to its waking, which the hops split; not seen: the hops' times are whole */
	bool wait_seen;
	uint64_t wait_ns;
	uint32_t nr_hops;
	struct chain_hop hops[CHAIN_HOPS];
	enum chain_end end;
	/*
	 * The wait the hops leave, wait_seen: the last waker's own blocked time
	 * (woken by an interrupt, by a waker not traced, beyond the links), or
	 * what a waker running all along ran; 0 with CHAIN_END_SLEEP
	 */
	uint64_t rest_ns;
};

/*
 * chain__assemble - the chain of the wakeup of @wakee_tid from its @nr
 * links (a record's, link 0 first), into @c. Links after one that ends
 * the chain are not read. Returns the hops.
 */
uint32_t chain__assemble(const struct wp_lean_link *links, uint32_t nr, uint32_t wakee_tid, struct chain *c);

/* chain__on_path_ns - the part of @c's wait its hops hold: their runs and their waits for a CPU */
uint64_t chain__on_path_ns(const struct chain *c);

/* chain__end_name - @end as the reports and the JSON spell it */
const char *chain__end_name(enum chain_end end);

/* chain__end_meaning - @end in words, for a report's legend */
const char *chain__end_meaning(enum chain_end end);

#endif /* WAKEPROBE_CHAIN_H */
