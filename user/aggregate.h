/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate.h - streaming statistics over merged samples: one histogram per
 * phase and for the total, label counts. Fixed size whatever the run length.
 */
#ifndef WAKEPROBE_AGGREGATE_H
#define WAKEPROBE_AGGREGATE_H

#include "histogram.h"
#include "merge.h"

struct aggregate {
	uint64_t samples;			/* every sample seen */
	uint64_t by_label[NR_LABELS];
	uint64_t missing_by_mark[NR_MARKS];
	struct histogram all_total;		/* every sample's total, traced or not */
	struct histogram total;			/* complete samples only */
	struct histogram phase[NR_PHASES];	/* complete samples only */
	struct histogram idle_exit;		/* complete samples whose target CPU was idle */
	struct histogram rewait;		/* complete samples whose wakee blocked again */
	struct histogram wait_cpu;		/* waiters that spin: wait start -> woken */
	uint64_t target_idle;
	uint64_t remote_wakeups;		/* sched_wakeup ran on another CPU than sched_waking */
	uint64_t waker_preempted;
	uint64_t waiter_syscalls;		/* user_only paths: syscalls inside the waits */
	uint64_t phase_sum_mismatch;		/* complete samples whose phases do not add up */
	uint64_t first_notify_ns;
	uint64_t last_woken_ns;
};

void aggregate__init(struct aggregate *a);
void aggregate__add(struct aggregate *a, const struct sample_result *r);
/* a sample measured without tracing: only its total is known */
void aggregate__add_untraced(struct aggregate *a, uint64_t t_notify_ns, uint64_t t_woken_ns,
			     uint64_t t_wait_start_ns);

#endif /* WAKEPROBE_AGGREGATE_H */
