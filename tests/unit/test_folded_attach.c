// SPDX-License-Identifier: GPL-2.0
/*
 * test_folded_attach.c - --folded of an attach run (folded_attach.c): the
 * lines of every pair's combinations of stacks, from synthetic wakeups whose
 * kernel frames stacks_fixture.h names, exactly.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "attach_aggregate.h"
#include "attach_analysis.h"
#include "attach_session.h"
#include "folded_attach.h"
#include "memout.h"
#include "stacks_fixture.h"

TestSuite(folded_attach, .init = memout__open, .fini = memout__close);

/* a complete wakeup of thread 11 by thread 10 of process 100 through a futex, with stacks @st */
static struct attach_result wakeup(struct wp_lean_stacks st, int64_t wake_to_run_ns)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.sample.wakee_tid = 11;
	r.sr.sample.waker_tid = 10;
	r.waker.cls = WP_WAKER_SYSCALL;
	r.waker.tid = 10;
	r.waker.tgid = 100;
	snprintf(r.waker.comm, sizeof(r.waker.comm), "prod");
	r.wakee_tgid = 100;
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "cons;umer");
	snprintf(r.mechanism, sizeof(r.mechanism), "futex 0x10 wake -> wait");
	r.wake_to_run_ns = wake_to_run_ns;
	r.notify_to_return_ns = -1;
	r.sr.total_ns = wake_to_run_ns;
	r.sr.stacked = true;
	r.sr.stacks = st;
	return r;
}

Test(folded_attach, lines_join_the_wakee_root_first_and_the_waker_innermost_first)
{
	struct run_stacks *rs = stacks_with_kernel();
	const uint64_t waker_k[] = { 0xffffffff81002010, 0xffffffff81003010 };	/* try_to_wake_up <- futex_wake */
	const uint64_t wait_k[] = { 0xffffffff81000100, 0xffffffff81001010 };	/* __schedule <- futex_wait */
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct attach_result r;

	cr_assert_eq(run_stacks__add(rs, 1, waker_k, 2), 0);
	cr_assert_eq(run_stacks__add(rs, 2, wait_k, 2), 0);
	r = wakeup(lean_stack_ids(1, WP_STACK_NONE, 2, -EFAULT), 3000);
	attach_aggregate__add(g, &r);
	attach_aggregate__add(g, &r);
	r = wakeup(lean_stack_ids(1, WP_STACK_NONE, -EEXIST, -EFAULT), 500);
	attach_aggregate__add(g, &r);
	cr_assert_eq(folded_attach__print(out, &rep), 0);
	/* the costliest first; ';' in a name is no frame boundary; a stack not kept says so */
	cr_assert_str_eq(written(),
			 "cons:umer;futex_wait_[k];__schedule_[k];--;try_to_wake_up_[k];futex_wake_[k];"
			 "thread prod 10 6000\n"
			 "cons:umer;[stack not kept: another holds its slot];--;try_to_wake_up_[k];futex_wake_[k];"
			 "thread prod 10 500\n");
	attach_aggregate__free(g);
	run_stacks__free(rs);
}

Test(folded_attach, every_pair_has_its_lines_a_wakee_never_seen_named_by_a_question_mark)
{
	struct run_stacks *rs = stacks_with_kernel();
	const uint64_t waker_k[] = { 0xffffffff81002010 };
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct attach_result r;

	cr_assert_eq(run_stacks__add(rs, 1, waker_k, 1), 0);
	r = wakeup(lean_stack_ids(1, WP_STACK_NONE, WP_STACK_NONE, WP_STACK_NONE), 800);
	attach_aggregate__add(g, &r);
	/* another pair: thread 12, never seen switching in, so with no comm */
	r = wakeup(lean_stack_ids(1, WP_STACK_NONE, WP_STACK_NONE, WP_STACK_NONE), 900);
	r.sr.sample.wakee_tid = 12;
	r.wakee_comm[0] = '\0';
	attach_aggregate__add(g, &r);
	cr_assert_eq(g->nr_pairs, 2);
	cr_assert_eq(folded_attach__print(out, &rep), 0);
	cr_assert_str_eq(written(),
			 "cons:umer;--;try_to_wake_up_[k];thread prod 10 800\n"
			 "?;--;try_to_wake_up_[k];thread prod 10 900\n");
	attach_aggregate__free(g);
	run_stacks__free(rs);
}

Test(folded_attach, a_run_with_no_pair_writes_nothing_and_a_failed_stream_says_so)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_report rep = { .agg = g };
	FILE *full = fopen("/dev/full", "w");

	cr_assert_eq(folded_attach__print(out, &rep), 0);
	cr_assert_str_eq(written(), "");
	if (!full)
		cr_skip_test("no /dev/full here");
	setvbuf(full, NULL, _IONBF, 0);
	fputs("x", full);
	cr_assert_eq(folded_attach__print(full, &rep), -EIO, "an error before it stays the stream's");
	fclose(full);
	attach_aggregate__free(g);
}
