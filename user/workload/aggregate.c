// SPDX-License-Identifier: GPL-2.0
/* aggregate.c - a workload run's merged samples into its histograms, counts and outliers */
#include <string.h>
#include "aggregate.h"

void aggregate__init(struct aggregate *a)
{
	int k;

	memset(a, 0, sizeof(*a));
	histogram__init(&a->all_total);
	histogram__init(&a->total);
	histogram__init(&a->idle_exit);
	histogram__init(&a->rewait);
	histogram__init(&a->wait_cpu);
	for (k = 0; k < NR_PHASES; k++)
		histogram__init(&a->phase[k]);
}

void aggregate__want_outliers(struct aggregate *a, uint32_t k, uint64_t threshold_ns)
{
	a->outliers_wanted = k < AGG_MAX_OUTLIERS ? k : AGG_MAX_OUTLIERS;
	a->outlier_threshold_ns = threshold_ns;
}

/* keep_if_outlier - insert @r among the slowest kept, slowest first */
static void keep_if_outlier(struct aggregate *a, const struct sample_result *r)
{
	uint32_t i;

	if (!a->outliers_wanted || (uint64_t)r->total_ns < a->outlier_threshold_ns)
		return;
	a->outlier_candidates++;
	if (a->nr_outliers == a->outliers_wanted && r->total_ns <= a->outliers[a->nr_outliers - 1].total_ns)
		return;
	i = a->nr_outliers < a->outliers_wanted ? a->nr_outliers++ : a->nr_outliers - 1;
	for (; i > 0 && a->outliers[i - 1].total_ns < r->total_ns; i--)
		a->outliers[i] = a->outliers[i - 1];
	a->outliers[i] = *r;
}

void aggregate__add_untraced(struct aggregate *a, uint64_t t_notify_ns, uint64_t t_woken_ns,
			     uint64_t t_wait_start_ns)
{
	if (!a->samples || t_notify_ns < a->first_notify_ns)
		a->first_notify_ns = t_notify_ns;
	if (t_woken_ns > a->last_woken_ns)
		a->last_woken_ns = t_woken_ns;
	a->samples++;
	/* a woken stamp before the notify can only be clock error; count it as 0 */
	histogram__add(&a->all_total, t_woken_ns > t_notify_ns ? t_woken_ns - t_notify_ns : 0);
	/* a waiter that spins burns its CPU from the start of its wait to its wakeup */
	if (t_wait_start_ns && t_woken_ns > t_wait_start_ns)
		histogram__add(&a->wait_cpu, t_woken_ns - t_wait_start_ns);
}

void aggregate__add(struct aggregate *a, const struct sample_result *r)
{
	int64_t sum = 0;
	int k;

	aggregate__add_untraced(a, r->t_notify_ns, r->t_woken_ns, r->t_wait_start_ns);
	a->by_label[r->label]++;
	if (r->label == LABEL_MISSING_EVENT)
		a->missing_by_mark[r->missing]++;
	a->waiter_syscalls += r->waiter_syscalls;
	if (r->label != LABEL_COMPLETE)
		return;
	histogram__add(&a->total, (uint64_t)r->total_ns);
	if (!r->phased)
		return;

	for (k = 0; k < NR_PHASES; k++) {
		histogram__add(&a->phase[k], (uint64_t)r->phase_ns[k]);
		sum += r->phase_ns[k];
	}
	if (sum != r->total_ns)
		a->phase_sum_mismatch++;
	if (r->lean) {
		/* explained if it brought its flight records; the wake's CPUs are known */
		if (r->lean_flight)
			cause_totals__add(&a->causes, r);
		keep_if_outlier(a, r);
		if (r->wakeup_cpu != r->waking_cpu)
			a->remote_wakeups++;
		return;
	}
	if (r->rewait_seen)
		histogram__add(&a->rewait, (uint64_t)r->rewait_ns);
	cause_totals__add(&a->causes, r);
	keep_if_outlier(a, r);
	if (r->target_was_idle) {
		a->target_idle++;
		if (r->idle_exit_seen)
			histogram__add(&a->idle_exit, (uint64_t)r->idle_exit_ns);
	}
	if (r->wakeup_cpu != r->waking_cpu)
		a->remote_wakeups++;
	if (r->waker_preempted)
		a->waker_preempted++;
}

int64_t aggregate__grew_most(const struct aggregate *a, const struct sample_result *r, enum phase *phase)
{
	return cause_totals__grew_most(a->phase, r, phase);
}

