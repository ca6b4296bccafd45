// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_cgroups.c - attach mode's text by cgroup (text_cgroups.c),
 * line by line, from the five wakeups of cgroup_run.h: the cgroups whose
 * wakeups took the most time, who held the CPUs they waited for, who woke
 * whom, each table most time first with "other" last when it had any, at
 * most TEXT_CGROUPS_ROWS rows; and a run with no wakeup in a cgroup saying
 * so in one line.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "cgroup_run.h"
#include "memout.h"
#include "text_cgroups.h"
#include "text_lines.h"

static void setup(void)
{
	cgroup_run__setup();
	memout__open();
}

static void teardown(void)
{
	memout__close();
	cgroup_run__teardown();
}

TestSuite(text_cgroups, .init = setup, .fini = teardown);

Test(text_cgroups, the_cgroups_table_gives_each_ones_wake_to_run_and_whose_tasks_it_waited_on)
{
	/* web: 10, 10, 20, 90 us, each percentile the floor of its bucket; 80 of its 103 us queued behind batch */
	static const char *const want[] = {
		"Cgroups, the 2 whose wakeups took the most time (2 with a series of their own, at most 20 (--top); the "
		"rest in \"other\"); times in us, percentiles within 25% below:",
		"                                               wake -> run                               run-queue "
		"held by    CPU",
		"cgroup                                 wakeups       p50      p99      max     total        wait "
		"others   idle",
		"web.service                                  4       8.2     81.9     90.0     130.0       103.0    78%  "
		"   8%",
		"batch.service                                1       4.1      4.1      5.0       5.0         1.0   100%  "
		"   0%",
		"of the run-queue wait of every cgroup (104.0 us), tasks of another cgroup held the CPU for 78%",
		NULL,
	};

	cgroup_run__make(20);
	text_cgroups__print(out, cg_stats);
	expect_lines(written(), want);
	cr_assert_not(strstr(written(), "\nother "), "other had no wakeup: no row\n%s", written());
}

Test(text_cgroups, the_holders_come_longest_wait_first_with_idle_for_a_cpu_none_held)
{
	static const char *const want[] = {
		"Who held the CPU they waited for: the task each wakee took it from, by cgroup (idle: none ran, the CPU "
		"was idle); the 4 longest:",
		"wakee's cgroup                       held by                                wakeups    wait (us)",
		"web.service                          batch.service                                1         80.0",
		"web.service                          web.service                                  1         15.0",
		"web.service                          idle                                         2          8.0",
		"batch.service                        web.service                                  1          1.0",
		NULL,
	};

	cgroup_run__make(20);
	text_cgroups__print(out, cg_stats);
	expect_lines(written(), want);
}

Test(text_cgroups, who_woke_whom_comes_most_time_first_an_interrupt_named_as_such)
{
	static const char *const want[] = {
		"Who woke whom, by cgroup (interrupt: interrupt work, none's doing); the 3 with the most wake -> run time:",
		"waker's cgroup                   wakee's cgroup                   mechanism        wakeups   total (us)",
		"interrupt                        web.service                      futex                  1         90.0",
		"web.service                      web.service                      futex                  3         40.0",
		"web.service                      batch.service                    futex                  1          5.0",
		NULL,
	};

	cgroup_run__make(20);
	text_cgroups__print(out, cg_stats);
	expect_lines(written(), want);
}

Test(text_cgroups, past_the_series_limit_the_rest_are_one_other_row_last)
{
	static const char *const want[] = {
		"Cgroups, the 1 whose wakeups took the most time (1 with a series of their own, at most 1 (--top); the "
		"rest in \"other\"); times in us, percentiles within 25% below:",
		"web.service                                  4       8.2     81.9     90.0     130.0       103.0    78%  "
		"   8%",
		"other                                        1       4.1      4.1      5.0       5.0         1.0   100%  "
		"   0%",
		NULL,
	};

	cgroup_run__make(1);
	text_cgroups__print(out, cg_stats);
	expect_lines(written(), want);
	/*
	 * the first holder and pair met took the one series of their kind, the
	 * rest are other's: 5 wakeups and 104 us of queueing, 135 us in all
	 */
	cr_assert(has_line(written(), "web.service                          idle                                   "
			   "      2          8.0"), "%s", written());
	cr_assert(has_line(written(), "other                                other                                  "
			   "      3         96.0"), "%s", written());
	cr_assert(has_line(written(), "web.service                      web.service                      futex       "
			   "           3         40.0"), "%s", written());
	cr_assert(has_line(written(), "other                            other                            other       "
			   "           2         95.0"), "%s", written());
}

Test(text_cgroups, of_more_cgroups_each_table_shows_the_ten_with_the_most_time)
{
	char rel[64], label[16];
	size_t rows = 0;

	uint64_t ids[TEXT_CGROUPS_ROWS + 2];

	cg_stats = cgroup_stats__new(cg_names, 20);
	cr_assert_not_null(cg_stats);
	/* app1 .. app12, all made before the first is named: a tree that is not kernfs is walked once in a while */
	for (int i = 0; i < TEXT_CGROUPS_ROWS + 2; i++) {
		snprintf(rel, sizeof(rel), "system.slice/app%d.service", i + 1);
		ids[i] = cgroup_run__dir(rel);
	}
	/* app12's wakeup the longest, and the longest queued */
	for (int i = 0; i < TEXT_CGROUPS_ROWS + 2; i++) {
		struct attach_result r = cgroup_run__wakeup(ids[i], ids[i], 0, 1000 * (uint64_t)(i + 1),
							    100 * (uint64_t)(i + 1));

		cgroup_stats__add(cg_stats, &r);
	}
	text_cgroups__print(out, cg_stats);
	cr_assert(strstr(written(), "Cgroups, the 10 whose wakeups took the most time (12 with a series of their own"),
		  "%s", written());
	for (int i = 1; i <= TEXT_CGROUPS_ROWS + 2; i++) {
		snprintf(label, sizeof(label), "app%d.service ", i);
		rows += strstr(written(), label) != NULL;
	}
	/* in each table, the ten longest: app3 .. app12; app1 and app2 have series, but are past them */
	cr_assert_eq(rows, TEXT_CGROUPS_ROWS, "%s", written());
	cr_assert_null(strstr(written(), "app1.service "), "%s", written());
	cr_assert_null(strstr(written(), "app2.service "), "%s", written());
	cr_assert_not_null(strstr(written(), "app12.service "), "%s", written());
}

Test(text_cgroups, a_run_with_no_wakeup_in_a_cgroup_says_so_and_none_taken_says_nothing)
{
	cg_stats = cgroup_stats__new(cg_names, 20);
	cr_assert_not_null(cg_stats);
	text_cgroups__print(out, cg_stats);
	cr_assert_str_eq(written(), "\nCgroups: no complete wakeup came with its cgroups\n");
	memout__close();
	memout__open();
	text_cgroups__print(out, NULL);
	cr_assert_str_eq(written(), "");
}
