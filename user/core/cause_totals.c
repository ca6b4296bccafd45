// SPDX-License-Identifier: GPL-2.0
/* cause_totals.c - explained wakeups summed by cause and by the tasks in their way */
#include <string.h>
#include "cause_totals.h"

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
	if (a->nr_tasks == CAUSE_MAX_TASKS) {
		a->untabled_task_ns += (int64_t)iv->dur_ns;
		return;
	}
	a->tasks[a->nr_tasks].pid = iv->pid;
	memcpy(a->tasks[a->nr_tasks].comm, iv->name, sizeof(a->tasks[0].comm));
	a->tasks[a->nr_tasks++].ns = (int64_t)iv->dur_ns;
}

void cause_totals__sort_tasks(struct cause_totals *a)
{
	uint32_t i, j;

	for (i = 1; i < a->nr_tasks; i++)
		for (j = i; j > 0 && a->tasks[j - 1].ns < a->tasks[j].ns; j--) {
			struct task_share t = a->tasks[j];

			a->tasks[j] = a->tasks[j - 1];
			a->tasks[j - 1] = t;
		}
}

void cause_totals__add(struct cause_totals *c, const struct sample_result *r)
{
	int k;

	c->wakeups++;
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

int64_t cause_totals__grew_most(const struct histogram *hist, const struct sample_result *r, enum phase *worst)
{
	int64_t grew = INT64_MIN;
	int k;

	*worst = PHASE_NOTIFY_USER;
	for (k = 0; k < NR_PHASES; k++) {
		int64_t d = r->phase_ns[k] - (int64_t)histogram__percentile(&hist[k], 50);

		if (d > grew) {
			grew = d;
			*worst = k;
		}
	}
	return grew;
}
