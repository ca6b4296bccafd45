/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate.h - streaming statistics over merged samples: one histogram per
 * phase and for the total, label counts. Fixed size whatever the run length.
 */
#ifndef WAKEPROBE_AGGREGATE_H
#define WAKEPROBE_AGGREGATE_H

#include "cause_totals.h"
#include "histogram.h"
#include "wakeup.h"


struct aggregate {
	bool lean;				/* measured lean: causes for the slow ones alone (wakeup.h) */
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

	struct cause_totals causes;		/* phased complete samples */

	/* the slowest phased complete samples at or over the threshold, slowest first */
	uint32_t outliers_wanted;
	uint64_t outlier_threshold_ns;
	uint32_t nr_outliers;
	uint64_t outlier_candidates;		/* samples at or over the threshold */
	struct sample_result outliers[AGG_MAX_OUTLIERS];
};

void aggregate__init(struct aggregate *a);
/* keep the @k slowest samples whose total is at least @threshold_ns (k <= AGG_MAX_OUTLIERS) */
void aggregate__want_outliers(struct aggregate *a, uint32_t k, uint64_t threshold_ns);
void aggregate__add(struct aggregate *a, const struct sample_result *r);
/*
 * aggregate__grew_most - the phase of @r furthest over its median in @a (the
 * first of equals) into @phase, and by how much in ns: what an outlier is
 * introduced with.
 */
int64_t aggregate__grew_most(const struct aggregate *a, const struct sample_result *r, enum phase *phase);
/* a sample measured without tracing: only its total is known */
void aggregate__add_untraced(struct aggregate *a, uint64_t t_notify_ns, uint64_t t_woken_ns,
			     uint64_t t_wait_start_ns);

#endif /* WAKEPROBE_AGGREGATE_H */
