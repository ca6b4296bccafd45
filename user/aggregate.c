// SPDX-License-Identifier: GPL-2.0
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

/* add_task_time - the time the task named by @iv held a CPU a wakeup needed */
static void add_task_time(struct cause_totals *a, const struct interval *iv)
{
	uint32_t i;

	for (i = 0; i < a->nr_tasks; i++) {
		if (a->tasks[i].pid == iv->pid) {
			a->tasks[i].ns += (int64_t)iv->dur_ns;
			/* the latest name: a task that exec'd or renamed itself goes by its new one */
			memcpy(a->tasks[i].comm, iv->name, sizeof(a->tasks[i].comm));
			return;
		}
	}
	if (a->nr_tasks == AGG_MAX_TASKS) {
		a->untabled_task_ns += (int64_t)iv->dur_ns;
		return;
	}
	a->tasks[a->nr_tasks].pid = iv->pid;
	memcpy(a->tasks[a->nr_tasks].comm, iv->name, sizeof(a->tasks[0].comm));
	a->tasks[a->nr_tasks++].ns = (int64_t)iv->dur_ns;
}

void aggregate__sort_tasks(struct cause_totals *a)
{
	uint32_t i, j;

	for (i = 1; i < a->nr_tasks; i++)
		for (j = i; j > 0 && a->tasks[j - 1].ns < a->tasks[j].ns; j--) {
			struct task_share t = a->tasks[j];

			a->tasks[j] = a->tasks[j - 1];
			a->tasks[j - 1] = t;
		}
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

void aggregate__add_causes(struct cause_totals *c, const struct sample_result *r)
{
	int k;

	for (k = 0; k < NR_CAUSES; k++)
		c->cause_ns[k] += r->why.by_cause[k];
	c->explained_total_ns += r->total_ns;
	c->migrations += r->why.migrations;
	for (k = 0; k < NR_PHASES; k++)
		histogram__add(&c->own_work[k], (uint64_t)r->why.by_phase_cause[k][CAUSE_OWN_WORK]);
	for (k = 0; k < (int)r->why.nr_iv; k++) {
		const struct interval *iv = &r->why.iv[k];

		if (iv->pid && (iv->cause == CAUSE_OTHER_TASK || iv->cause == CAUSE_WAKER_PREEMPTED ||
				iv->cause == CAUSE_WAKEE_PREEMPTED))
			add_task_time(c, iv);
	}
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
		/* a lean sample's user phases are not measured: no histogram of zeros */
		if (wakeup__phase_name_in(k, r->lean))
			histogram__add(&a->phase[k], (uint64_t)r->phase_ns[k]);
		sum += r->phase_ns[k];
	}
	if (sum != r->total_ns)
		a->phase_sum_mismatch++;
	if (r->lean) {
		/* nothing to explain it with; the wake's CPUs are known */
		keep_if_outlier(a, r);
		if (r->wakeup_cpu != r->waking_cpu)
			a->remote_wakeups++;
		return;
	}
	if (r->rewait_seen)
		histogram__add(&a->rewait, (uint64_t)r->rewait_ns);
	aggregate__add_causes(&a->causes, r);
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
	return aggregate__grew_most_in(a->phase, r, phase);
}

int64_t aggregate__grew_most_in(const struct histogram *hist, const struct sample_result *r, enum phase *phase)
{
	int64_t grew = INT64_MIN;
	int k;

	*phase = r->lean ? PHASE_NOTIFY_KERNEL : PHASE_NOTIFY_USER;
	for (k = 0; k < NR_PHASES; k++) {
		int64_t d = r->phase_ns[k] - (int64_t)histogram__percentile(&hist[k], 50);

		if (!wakeup__phase_name_in(k, r->lean))
			continue;
		if (d > grew) {
			grew = d;
			*phase = k;
		}
	}
	return grew;
}
