// SPDX-License-Identifier: GPL-2.0
/*
 * test_folded_workload.c - --folded of wakeprobe's own workloads
 * (folded_workload.c): each run's combinations of stacks, its wakee and
 * waker named by its path, run after run; a run without stacks writes
 * nothing, and a stream that failed says so.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "folded_workload.h"
#include "memout.h"
#include "stacks_fixture.h"

static struct run_stacks *rs;
static struct stack_combos combos[2];
static struct run_result *res[2];
static const struct workload_desc cond_wl = { .name = "cond" }, pipe_wl = { .name = "pipe" };
static const struct workload_desc *const wl[] = { &cond_wl, &pipe_wl };

static void setup(void)
{
	memout__open();
	rs = stacks_with_user();
	memset(combos, 0, sizeof(combos));
	for (int i = 0; i < 2; i++) {
		res[i] = calloc(1, sizeof(*res[i]));
		cr_assert_not_null(res[i]);
		res[i]->stacks = rs;
		res[i]->stack_combos = &combos[i];
	}
}

static void teardown(void)
{
	for (int i = 0; i < 2; i++)
		free(res[i]);
	run_stacks__free(rs);
	memout__close();
}

TestSuite(folded_workload, .init = setup, .fini = teardown);

/* add - @times wakeups of run @i of @ns each, with the stacks @st */
static void add(int i, struct wp_lean_stacks st, int times, uint64_t ns)
{
	for (int k = 0; k < times; k++)
		stack_combos__add(&combos[i], &st, (uint32_t)getpid(), ns);
}

Test(folded_workload, each_runs_lines_name_its_wakee_and_waker_by_its_path)
{
	add(0, own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 2, 1000);
	add(1, lean_stack_ids(STACK_WAKER_KERNEL, WP_STACK_NONE, STACK_WAIT_KERNEL, WP_STACK_NONE), 1, 4000);
	cr_assert_eq(folded_workload__print(out, wl, (const struct run_result *const *)res, 2), 0);
	cr_assert_str_eq(written(),
			 "cond wakee;_start;wakee_code;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];"
			 "futex_wake_[k];waker_code;wakee_code;cond waker 2000\n"
			 "pipe wakee;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];futex_wake_[k];pipe waker 4000\n");
}

Test(folded_workload, a_run_without_stacks_writes_nothing)
{
	res[0]->stacks = NULL;
	res[0]->stack_combos = NULL;
	add(1, own_stack_ids(STACK_WHOLE, STACK_WHOLE), 1, 500);
	cr_assert_eq(folded_workload__print(out, wl, (const struct run_result *const *)res, 2), 0);
	cr_assert(!strncmp(written(), "pipe wakee;", 11), "the first run had none: %s", written());
	cr_assert_null(strstr(written(), "cond "), "%s", written());
}

Test(folded_workload, a_stream_that_failed_says_so)
{
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		cr_skip_test("no /dev/full here");
	setvbuf(full, NULL, _IONBF, 0);
	add(0, own_stack_ids(STACK_WHOLE, STACK_WHOLE), 1, 500);
	cr_assert_eq(folded_workload__print(full, wl, (const struct run_result *const *)res, 1), -EIO);
	fclose(full);
}
