// SPDX-License-Identifier: GPL-2.0
/*
 * test_cause_totals.c - explained wakeups summed by cause: the causes, the
 * totals and the migrations added up, each phase's own work kept to judge
 * a stretch by, the tasks in a wakeup's way tabled by pid under their
 * latest name and sorted by time, what does not fit the table counted
 * apart, and the phase an outlier grew most in.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cause_totals.h"
#include "samples.h"

static struct cause_totals *c;

static void setup(void)
{
	/* a zeroed struct is an empty one: its histograms are valid empty ones */
	c = calloc(1, sizeof(*c));
	cr_assert_not_null(c);
}

static void teardown(void)
{
	free(c);
}

TestSuite(cause_totals, .init = setup, .fini = teardown);

/* with_interval - @r with one more stretch: @cause in @phase, by @pid named @name */
static void with_interval(struct sample_result *r, enum cause cause, enum phase phase, uint32_t pid, uint64_t dur,
			  const char *name)
{
	struct interval *iv = &r->why.iv[r->why.nr_iv++];

	memset(iv, 0, sizeof(*iv));
	iv->cause = (uint8_t)cause;
	iv->phase = (uint8_t)phase;
	iv->pid = pid;
	iv->dur_ns = dur;
	snprintf(iv->name, sizeof(iv->name), "%s", name);
}

Test(cause_totals, tasks_are_summed_by_pid_under_their_latest_name_and_sorted_by_time)
{
	struct sample_result r;
	uint32_t pid;

	r = task_sample(1, 1000, 42, "bash");
	cause_totals__add(c, &r);
	r = task_sample(2, 5000, 7, "kworker/1:0");
	cause_totals__add(c, &r);
	r = task_sample(3, 9000, 42, "wp-hog");	/* the same process after exec */
	cause_totals__add(c, &r);
	cause_totals__sort_tasks(c);

	cr_assert_eq(c->nr_tasks, 2);
	cr_assert_eq(c->tasks[0].pid, 42);
	cr_assert_eq(c->tasks[0].ns, 10000);
	cr_assert_str_eq(c->tasks[0].comm, "wp-hog");
	cr_assert_eq(c->tasks[1].pid, 7);
	cr_assert_eq(c->cause_ns[CAUSE_OTHER_TASK], 15000);

	/* a full table counts what does not fit, and drops no time */
	for (pid = 100; pid < 100 + CAUSE_MAX_TASKS; pid++) {
		r = task_sample(pid, 10, pid, "t");
		cause_totals__add(c, &r);
	}
	cr_assert_eq(c->nr_tasks, CAUSE_MAX_TASKS);
	cr_assert_eq(c->untabled_task_ns, 10 * 2, "the two tasks past the table's %d", CAUSE_MAX_TASKS);
}

Test(cause_totals, causes_totals_and_migrations_add_up_over_the_wakeups)
{
	struct sample_result r1 = task_sample(1, 10000, 0, NULL), r2 = task_sample(2, 4000, 0, NULL);

	r1.why.by_cause[CAUSE_IDLE] = 6000;
	r1.why.by_cause[CAUSE_UNEXPLAINED] = 4000;
	r1.why.migrations = 2;
	r2.why.by_cause[CAUSE_UNEXPLAINED] = 0;
	r2.why.by_cause[CAUSE_HOST] = 3000;
	r2.why.by_cause[CAUSE_IRQ] = 1000;
	r2.why.migrations = 1;
	cause_totals__add(c, &r1);
	cause_totals__add(c, &r2);

	cr_assert_eq(c->explained_total_ns, 14000);
	cr_assert_eq(c->migrations, 3);
	for (int k = 0; k < NR_CAUSES; k++) {
		int64_t want = r1.why.by_cause[k] + r2.why.by_cause[k];

		cr_assert_eq(c->cause_ns[k], want, "%s: %ld, want %ld", wakeup__cause_name(k), (long)c->cause_ns[k],
			     (long)want);
	}
	cr_assert_eq(c->nr_tasks, 0, "no task named: none tabled");
}

Test(cause_totals, each_phase_keeps_every_wakeups_own_work_even_none)
{
	struct sample_result r1 = task_sample(1, 1000, 0, NULL), r2 = task_sample(2, 1000, 0, NULL);

	r1.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK] = 100;
	r1.why.by_phase_cause[PHASE_NOTIFY_USER][CAUSE_OWN_WORK] = 50;
	r1.why.by_phase_cause[PHASE_NOTIFY_USER][CAUSE_IRQ] = 700;	/* not own work */
	r2.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK] = 30;
	cause_totals__add(c, &r1);
	cause_totals__add(c, &r2);

	for (int k = 0; k < NR_PHASES; k++)
		cr_assert_eq(c->own_work[k].count, 2, "%s", wakeup__phase_name(k));
	cr_assert_eq(c->own_work[PHASE_RUNQ_WAIT].min, 30);
	cr_assert_eq(c->own_work[PHASE_RUNQ_WAIT].max, 100);
	cr_assert_eq(c->own_work[PHASE_RUNQ_WAIT].sum, 130);
	cr_assert_eq(c->own_work[PHASE_NOTIFY_USER].sum, 50);
	cr_assert_eq(c->own_work[PHASE_NOTIFY_USER].min, 0);
	cr_assert_eq(c->own_work[PHASE_RESUME_USER].max, 0);
}

Test(cause_totals, only_the_tasks_in_a_wakeups_way_are_tabled)
{
	struct sample_result r = task_sample(1, 100000, 0, NULL);

	with_interval(&r, CAUSE_OTHER_TASK, PHASE_RUNQ_WAIT, 10, 1000, "hog");
	with_interval(&r, CAUSE_WAKER_PREEMPTED, PHASE_NOTIFY_KERNEL, 11, 2000, "kworker/0:1");
	with_interval(&r, CAUSE_WAKEE_PREEMPTED, PHASE_RESUME_USER, 12, 3000, "migration/1");
	/* not a task's time, or no task to name */
	with_interval(&r, CAUSE_IRQ, PHASE_RUNQ_WAIT, 13, 4000, "eth0");
	with_interval(&r, CAUSE_OWN_WORK, PHASE_RESUME_KERNEL, 14, 5000, "eventfd");
	with_interval(&r, CAUSE_IDLE, PHASE_WAKE_ENQUEUE, 15, 6000, "swapper/1");
	with_interval(&r, CAUSE_OTHER_TASK, PHASE_RUNQ_WAIT, 0, 7000, "");
	/* past nr_iv: not part of the explanation */
	r.why.iv[r.why.nr_iv] = r.why.iv[0];
	r.why.iv[r.why.nr_iv].pid = 99;
	cause_totals__add(c, &r);
	cause_totals__sort_tasks(c);

	cr_assert_eq(c->nr_tasks, 3);
	cr_assert_eq(c->tasks[0].pid, 12);
	cr_assert_str_eq(c->tasks[0].comm, "migration/1");
	cr_assert_eq(c->tasks[0].ns, 3000);
	cr_assert_eq(c->tasks[1].pid, 11);
	cr_assert_eq(c->tasks[1].ns, 2000);
	cr_assert_eq(c->tasks[2].pid, 10);
	cr_assert_eq(c->tasks[2].ns, 1000);
	cr_assert_eq(c->untabled_task_ns, 0);
}

Test(cause_totals, tasks_of_equal_time_keep_the_order_they_came_in)
{
	static const struct {
		uint32_t pid;
		int64_t ns;
	} in[] = { { 1, 5 }, { 2, 10 }, { 3, 5 }, { 4, 10 }, { 5, 1 }, { 6, 10 } };
	static const uint32_t sorted[] = { 2, 4, 6, 1, 3, 5 };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct sample_result r = task_sample(i + 1, in[i].ns, in[i].pid, "t");

		cause_totals__add(c, &r);
	}
	cause_totals__sort_tasks(c);
	for (size_t i = 0; i < sizeof(sorted) / sizeof(sorted[0]); i++)
		cr_assert_eq(c->tasks[i].pid, sorted[i], "place %zu: pid %u, want %u", i, c->tasks[i].pid, sorted[i]);
	/* sorting again changes nothing */
	cause_totals__sort_tasks(c);
	for (size_t i = 0; i < sizeof(sorted) / sizeof(sorted[0]); i++)
		cr_assert_eq(c->tasks[i].pid, sorted[i]);
}

Test(cause_totals, a_tabled_task_still_adds_up_once_the_table_is_full)
{
	struct sample_result r;

	for (uint32_t pid = 1; pid <= CAUSE_MAX_TASKS; pid++) {
		r = task_sample(pid, 100, pid, "t");
		cause_totals__add(c, &r);
	}
	r = task_sample(100, 50, 1000, "late");
	cause_totals__add(c, &r);
	r = task_sample(101, 70, 3, "renamed");
	cause_totals__add(c, &r);

	cr_assert_eq(c->nr_tasks, CAUSE_MAX_TASKS);
	cr_assert_eq(c->untabled_task_ns, 50, "only the task that came late");
	cr_assert_eq(c->tasks[2].pid, 3);
	cr_assert_eq(c->tasks[2].ns, 170);
	cr_assert_str_eq(c->tasks[2].comm, "renamed");
	cr_assert_eq(c->cause_ns[CAUSE_OTHER_TASK], CAUSE_MAX_TASKS * 100 + 50 + 70, "no time is dropped");
}

struct grew_case {
	char what[48];
	int64_t median[NR_PHASES];	/* 0: an empty histogram */
	int64_t phase[NR_PHASES];
	int worst;
	int64_t grew;
};

ParameterizedTestParameters(cause_totals, an_outlier_is_introduced_by_the_phase_furthest_over_its_median)
{
	/* medians and what the sample took, small enough for the histograms to hold them exactly */
	static struct grew_case cases[] = {
		{ "runq_wait grew most", { 30, 80, 80, 40, 70, 25 }, { 30, 90, 80, 100, 70, 25 }, PHASE_RUNQ_WAIT,
		  60 },
		{ "the last phase can be the one", { 30, 80, 80, 40, 70, 25 }, { 31, 80, 80, 40, 70, 125 },
		  PHASE_RESUME_USER, 100 },
		{ "the first of equals", { 10, 10, 10, 10, 10, 10 }, { 10, 60, 10, 60, 10, 10 }, PHASE_NOTIFY_KERNEL,
		  50 },
		{ "all under their medians: the least under", { 50, 50, 50, 50, 50, 50 }, { 40, 10, 49, 10, 10, 10 },
		  PHASE_WAKE_ENQUEUE, -1 },
		{ "an empty histogram: the phase itself", { 0, 0, 0, 0, 0, 0 }, { 5, 50, 7, 9, 1, 2 },
		  PHASE_NOTIFY_KERNEL, 50 },
	};

	return cr_make_param_array(struct grew_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct grew_case *g, cause_totals, an_outlier_is_introduced_by_the_phase_furthest_over_its_median)
{
	struct histogram *hist = calloc(NR_PHASES, sizeof(*hist));
	struct sample_result r;
	enum phase worst = NR_PHASES;
	int64_t grew;

	cr_assert_not_null(hist);
	memset(&r, 0, sizeof(r));
	for (int k = 0; k < NR_PHASES; k++) {
		histogram__init(&hist[k]);
		/* below, at and over the median: it stays the median */
		if (g->median[k]) {
			histogram__add(&hist[k], (uint64_t)g->median[k] / 2);
			histogram__add(&hist[k], (uint64_t)g->median[k]);
			histogram__add(&hist[k], (uint64_t)g->median[k] * 2);
		}
		r.phase_ns[k] = g->phase[k];
	}
	grew = cause_totals__grew_most(hist, &r, &worst);
	cr_assert_eq((int)worst, g->worst, "%s: %s, want %s", g->what, wakeup__phase_name(worst),
		     wakeup__phase_name(g->worst));
	cr_assert_eq(grew, g->grew, "%s: grew %ld, want %ld", g->what, (long)grew, (long)g->grew);
	free(hist);
}
