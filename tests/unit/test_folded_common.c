// SPDX-License-Identifier: GPL-2.0
/*
 * test_folded_common.c - --folded's lines (folded_common.c), exactly,
 * over the stacks of stacks_fixture.h: the wakee's stacks root first, a
 * "--", the waker's innermost first, kernel frames marked _[k], the
 * weight the wake-to-run summed; names a flame graph cannot split on; a
 * stack not kept or not found as one frame saying so; the costliest
 * combination first, none without time, and the time past the
 * combinations kept on a line of its own.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "folded_common.h"
#include "memout.h"
#include "stack_combos_fixture.h"

static void setup(void)
{
	memout__open();
	stack_combos_fixture__open();
}

static void teardown(void)
{
	stack_combos_fixture__close();
	memout__close();
}

TestSuite(folded_common, .init = setup, .fini = teardown);

Test(folded_common, a_line_is_the_wakees_stacks_root_first_then_the_wakers_innermost_first)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 2, 1500);
	folded_common__combo(out, rs, "cons", "thread prod 10", top_combo(STACK_BY_COUNT));
	cr_assert_str_eq(written(), "cons;_start;wakee_code;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];"
			 "futex_wake_[k];waker_code;wakee_code;thread prod 10 3000\n");
}

Test(folded_common, a_name_has_no_frame_boundary_newline_or_trailing_space_in_it)
{
	add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, WP_STACK_NONE, STACK_WAIT_KERNEL, WP_STACK_NONE), 1, 700);
	folded_common__combo(out, rs, "con;sum\ner  ", "softirq NET_RX ", top_combo(STACK_BY_COUNT));
	cr_assert_str_eq(written(), "con:sum:er;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];futex_wake_[k];"
			 "softirq NET_RX 700\n");
}

Test(folded_common, a_stack_not_kept_or_not_found_is_one_frame_that_says_so)
{
	/*
	 * the waker's user stack lost its slot, the wakee's kernel one is not in
	 * the map, and a kernel thread has no user stack at all
	 */
	add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, -EEXIST, 99, -EFAULT), 1, 400);
	folded_common__combo(out, rs, "kworker", "timer", top_combo(STACK_BY_COUNT));
	cr_assert_str_eq(written(), "kworker;[stack not found];--;try_to_wake_up_[k];futex_wake_[k];"
			 "[stack not kept: another holds its slot];timer 400\n");
}

Test(folded_common, the_costliest_comes_first_and_a_combination_without_time_has_no_line)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 3, 1000);
	add_wakeups(own_stack_ids(STACK_CUT_LIBC, STACK_WHOLE), 1, 50000);
	add_wakeups(own_stack_ids(STACK_WHOLE, STACK_WHOLE), 2, 0);
	folded_common__combos(out, rs, "cons", "prod", &combos);
	cr_assert_str_eq(written(),
			 "cons;_start;wakee_code;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];futex_wake_[k];"
			 "waker_code;getppid;prod 50000\n"
			 "cons;_start;wakee_code;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];futex_wake_[k];"
			 "waker_code;wakee_code;prod 3000\n");
}

Test(folded_common, the_time_past_the_combinations_kept_has_a_line_of_its_own)
{
	char want[160];

	for (int i = 0; i < STACK_COMBOS_MAX + 2; i++)
		add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, WP_STACK_NONE, 100 + i, WP_STACK_NONE), 1, 1000);
	folded_common__combos(out, rs, "cons", "prod", &combos);
	snprintf(want, sizeof(want), "\ncons;[stacks not kept: the %d combinations kept were taken];--;prod 2000\n",
		 STACK_COMBOS_MAX);
	cr_assert_not_null(strstr(written(), want), "%s", written());
	cr_assert_eq(strlen(strstr(written(), want)), strlen(want), "it is the last line");
}

Test(folded_common, no_combinations_make_no_line)
{
	folded_common__combos(out, rs, "cons", "prod", NULL);
	folded_common__combos(out, rs, "cons", "prod", &combos);
	cr_assert_str_eq(written(), "");
}
