/* SPDX-License-Identifier: GPL-2.0 */
/* test_aggregate.c - the slowest samples kept, causes summed over a run, and the tasks listed in the text */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "aggregate.h"
#include "samples.h"
#include "text_common.h"

static struct aggregate *a;

static void setup(void)
{
	a = malloc(sizeof(*a));
	cr_assert_not_null(a);
	aggregate__init(a);
}

static void teardown(void)
{
	free(a);
}

TestSuite(aggregate, .init = setup, .fini = teardown);

Test(aggregate, keeps_the_k_slowest_at_or_over_the_threshold_slowest_first)
{
	static const int64_t totals[] = { 5000, 90000, 12000, 70000, 3000, 88000, 40000, 91000 };
	size_t i;

	aggregate__want_outliers(a, 3, 10000);
	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++) {
		struct sample_result r = task_sample(i + 1, totals[i], 0, NULL);

		aggregate__add(a, &r);
	}
	cr_assert_eq(a->outlier_candidates, 6, "samples at or over 10 us");
	cr_assert_eq(a->nr_outliers, 3);
	cr_assert_eq(a->outliers[0].total_ns, 91000);
	cr_assert_eq(a->outliers[1].total_ns, 90000);
	cr_assert_eq(a->outliers[2].total_ns, 88000);
}

Test(aggregate, no_outliers_are_kept_unless_asked)
{
	struct sample_result r = task_sample(1, 50000, 0, NULL);

	aggregate__add(a, &r);
	cr_assert_eq(a->nr_outliers, 0);
	cr_assert_eq(a->causes.explained_total_ns, 50000);
	cr_assert_eq(a->causes.cause_ns[CAUSE_UNEXPLAINED], 50000);
}

/* the cause table lists five tasks, and what the others held in one line, so that the list adds up */
Test(aggregate, the_tasks_past_the_five_listed_and_past_the_table_are_summed_in_one_line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	uint32_t pid;
	struct sample_result r;

	/* 20 tasks, 1 us each but the first, 10 us: 15 past the five listed, 4 of them past the table */
	r = task_sample(1, 10000, 100, "big");
	aggregate__add(a, &r);
	for (pid = 101; pid < 120; pid++) {
		r = task_sample(pid, 1000, pid, "small");
		aggregate__add(a, &r);
	}
	cause_totals__sort_tasks(&a->causes);
	cr_assert_eq(a->causes.nr_tasks, CAUSE_MAX_TASKS);
	cr_assert_eq(a->causes.untabled_task_ns, 4 * 1000);

	out = open_memstream(&text, &len);
	cr_assert_not_null(out);
	text_common__print_causes(out, &a->causes, 20, 0, "the workload's");
	cr_assert_eq(fclose(out), 0);
	cr_assert(strstr(text, "tasks holding a CPU a wakeup needed: 'big' pid 100: 34.5%"), "%s", text);
	/* 15 of 29 us */
	cr_assert(strstr(text, "every other task: 51.7%, 0.75 us per wakeup\n"), "%s", text);
	free(text);
}
