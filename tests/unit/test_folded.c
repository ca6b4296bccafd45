// SPDX-License-Identifier: GPL-2.0
/*
 * test_folded.c - --folded's sink (folded.c): it writes at the end only,
 * each kind of run by its own part, byte for byte what that part writes;
 * an attach run without a report writes nothing, and a design, which
 * takes no stacks, is refused.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "folded_attach.h"
#include "folded_workload.h"
#include "memout.h"
#include "sink.h"
#include "stacks_fixture.h"

static struct run_stacks *rs;

static void setup(void)
{
	rs = stacks_with_user();
}

static void teardown(void)
{
	run_stacks__free(rs);
}

TestSuite(folded, .init = setup, .fini = teardown);

Test(folded, it_writes_at_the_end_only)
{
	cr_assert_str_eq(folded_sink.option, "--folded");
	cr_assert_not_null(folded_sink.write);
	cr_assert(!folded_sink.open && !folded_sink.begin && !folded_sink.sample && !folded_sink.wakeup &&
		  !folded_sink.event && !folded_sink.end && !folded_sink.close, "no hook of the stream");
}

Test(folded, an_attach_run_is_its_pairs_lines)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct results r = { .kind = RUN_ATTACH, .attach = { .report = &rep, .target = "pid 1" } };
	struct attach_result w;
	char *want, *got;

	cr_assert_not_null(g);
	memset(&w, 0, sizeof(w));
	w.sr.label = LABEL_COMPLETE;
	w.sr.sample.wakee_tid = 11;
	w.waker.cls = WP_WAKER_TIMER;
	w.wakee_tgid = (uint32_t)getpid();
	snprintf(w.wakee_comm, sizeof(w.wakee_comm), "sleeper");
	w.wake_to_run_ns = 3000;
	w.sr.total_ns = 3000;
	w.sr.stacked = true;
	w.sr.stacks = own_stack_ids(WP_STACK_NONE, STACK_WHOLE);
	attach_aggregate__add(g, &w);
	want = printed(cr_assert_eq(folded_attach__print(__f, &rep), 0));
	got = printed(cr_assert_eq(folded_sink.write(__f, &r), 0));
	cr_assert(!strncmp(want, "sleeper;_start;wakee_code;", 26), "%s", want);
	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	/* no report: nothing */
	r.attach.report = NULL;
	got = printed(cr_assert_eq(folded_sink.write(__f, &r), 0));
	cr_assert_str_eq(got, "");
	free(got);
	attach_aggregate__free(g);
}

Test(folded, a_workload_run_is_its_runs_lines)
{
	static struct stack_combos combos;
	static const struct workload_desc cond_wl = { .name = "cond" };
	const struct workload_desc *wl[] = { &cond_wl };
	struct run_result *res = calloc(1, sizeof(*res));
	const struct run_result *runs[] = { res };
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .wl = wl, .res = runs, .n = 1 } };
	struct wp_lean_stacks st = own_stack_ids(STACK_CUT_HERE, STACK_WHOLE);
	char *want, *got;

	cr_assert_not_null(res);
	res->stacks = rs;
	res->stack_combos = &combos;
	stack_combos__add(&combos, &st, (uint32_t)getpid(), 2500);
	want = printed(cr_assert_eq(folded_workload__print(__f, wl, runs, 1), 0));
	got = printed(cr_assert_eq(folded_sink.write(__f, &r), 0));
	cr_assert(!strncmp(want, "cond wakee;", 11), "%s", want);
	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	free(res);
}

Test(folded, a_design_takes_no_stacks_and_is_refused)
{
	struct results r = { .kind = RUN_DESIGN, .design = { .workload = "burst-queue" } };
	char *got = printed(cr_assert_eq(folded_sink.write(__f, &r), -EINVAL));

	cr_assert_str_eq(got, "");
	free(got);
}
