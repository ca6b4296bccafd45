// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_stacks.c - --stacks in the text reports (text_stacks.c), line
 * by line, over the stacks of stacks_fixture.h: a combination's wakeups
 * and times, its four stacks innermost frame first with where each frame
 * is, a stack the kernel did not keep saying why; the most frequent
 * combination and the costliest; the cost line; the objects that cut
 * stacks short; and attach mode's busiest pairs.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "memout.h"
#include "stack_combos_fixture.h"
#include "text_lines.h"
#include "text_stacks.h"

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

TestSuite(text_stacks, .init = setup, .fini = teardown);

Test(text_stacks, a_combination_gives_its_share_and_times_then_each_stack_innermost_first)
{
	static const char *const want[] = {
		"    the most frequent: 3 of 4 wakeups (75%), 30.0 us of wake -> run; p50 8.2, p99 8.2 (each within "
		"25% below), max 10.0 us",
		"      the waker, thread 10, where it woke it:",
		"      user: [stack not kept: the stack table was full]",
		"      kernel:",
		"        try_to_wake_up+0x10                             ",
		"        futex_wake+0x10                                 ",
		"      the wakee, thread 11, where it went to sleep:",
		"      kernel:",
		"        __schedule+0x100                                ",
		"        futex_wait+0x10                                 ",
		NULL,
	};
	/* a full table's user stack says why; a kernel thread's has no line at all */
	struct wp_lean_stacks st = lean_stack_ids(STACK_WAKER_KERNEL, -ENOMEM, STACK_WAIT_KERNEL, -EFAULT);

	add_wakeups(st, 3, 10000);
	text_stacks__combo(out, rs, "thread 10", "thread 11", top_combo(STACK_BY_COUNT), "the most frequent", 4);
	expect_lines(written(), want);
	cr_assert_null(strstr(strstr(written(), "the wakee,"), "user:"), "the wakee's is the kernel's alone: %s",
		       written());
}

Test(text_stacks, a_user_frame_says_its_file_and_line_and_its_object)
{
	struct wp_lean_stacks st = own_stack_ids(STACK_CUT_HERE, STACK_WHOLE);
	const char *line;

	add_wakeups(st, 1, 2000);
	text_stacks__combo(out, rs, "thread 10", "thread 11", top_combo(STACK_BY_COUNT), "the most frequent", 1);
	line = strstr(written(), "\n        waker_code+0x4");
	cr_assert_not_null(line, "%s", written());
	cr_assert(!strncmp(strchr(line + 1, '\n') - strlen(" (unit-tests)"), " (unit-tests)", 13),
		  "the object, by its name alone: %s", written());
	cr_assert_not_null(strstr(line, " stacks_fixture.h:"), "the file by its name alone, and the line: %s",
			   written());
	cr_assert_not_null(strstr(written(), "\n        _start"), "the walk out to the thread's start: %s", written());
}

Test(text_stacks, the_most_frequent_and_the_costliest_are_both_shown_when_they_differ)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 3, 1000);
	add_wakeups(own_stack_ids(STACK_CUT_LIBC, STACK_WHOLE), 1, 50000);
	text_stacks__combos(out, rs, "thread 10", "thread 11", &combos, 4);
	cr_assert(has_line(written(), "    the most frequent: 3 of 4 wakeups (75%), 3.0 us of wake -> run; p50 0.9, "
			   "p99 0.9 (each within 25% below), max 1.0 us"), "%s", written());
	cr_assert(has_line(written(), "    the costliest: 1 of 4 wakeups (25%), 50.0 us of wake -> run; p50 49.2, "
			   "p99 49.2 (each within 25% below), max 50.0 us"), "%s", written());
	cr_assert(has_line(written(), "    2 combinations of stacks in all"), "%s", written());
}

/* where some wakeups' user stacks were unwound, those are shown, and how many of the pair's they are */
Test(text_stacks, the_unwound_combinations_are_the_ones_shown)
{
	const uint64_t unwound[] = { code_at(waker_code), code_at(wakee_code), code_at(_start) };

	cr_assert_eq(run_stacks__add(rs, STACK_ID_UNWOUND, unwound, 3), 0);
	add_wakeups(own_stack_ids(STACK_CUT_LIBC, STACK_WHOLE), 5, 1000);
	add_wakeups(own_stack_ids(STACK_ID_UNWOUND, STACK_WHOLE), 2, 1000);
	text_stacks__combos(out, rs, "thread 10", "thread 11", &combos, 7);
	cr_assert(has_line(written(), "    user stacks unwound from copies in 2 of its 7 wakeups (the others' walked by "
			   "frame pointers alone; --unwind sets how many):"), "%s", written());
	cr_assert(!strncmp(strchr(written(), '\n') + 1, "    the most frequent and costliest: 2 of 2 wakeups (100%)", 58),
		  "%s", written());
	cr_assert_not_null(strstr(written(), "\n        _start"), "the unwound stack, whole: %s", written());
}

Test(text_stacks, one_combination_both_most_frequent_and_costliest_is_shown_once)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 2, 1000);
	text_stacks__combos(out, rs, "thread 10", "thread 11", &combos, 2);
	cr_assert(!strncmp(written(), "    the most frequent and costliest: 2 of 2 wakeups (100%)", 58), "%s",
		  written());
	cr_assert_null(strstr(written(), "the costliest:"), "%s", written());
	cr_assert_null(strstr(written(), "combinations of stacks in all"), "one combination: %s", written());
}

Test(text_stacks, wakeups_past_the_combinations_kept_are_said_to_be_in_folded)
{
	for (int i = 0; i < STACK_COMBOS_MAX + 1; i++)
		add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, WP_STACK_NONE, 100 + i, WP_STACK_NONE), 1, 1000);
	text_stacks__combos(out, rs, "thread 10", "thread 11", &combos, STACK_COMBOS_MAX + 1);
	cr_assert(has_line(written(), "    64 combinations of stacks in all, and more past those kept (--folded has "
			   "their time)"), "%s", written());
}

Test(text_stacks, no_combination_says_no_stacks_came)
{
	text_stacks__combos(out, rs, "thread 10", "thread 11", &combos, 5);
	cr_assert_str_eq(written(), "    no stacks came with these wakeups\n");
}

Test(text_stacks, the_cost_line_says_the_time_per_wakeup_and_the_stacks_not_kept)
{
	struct run_stacks *kernel = stacks_with_kernel();
	const uint64_t ips[] = { 0xffffffff81000100 };
	struct wp_stack_cost cost = { .ns = 30000, .taken = 12, .not_kept = 3 };

	cr_assert_eq(run_stacks__add(kernel, 1, ips, 1), 0);
	run_stacks__note_cost(kernel, 2 << 20, &cost);
	text_stacks__cost(out, kernel, 4);
	cr_assert_str_eq(written(),
			 "  stacks     1 distinct kept, in 2.0 MiB of kernel memory; taking them: 7.50 us of program time "
			 "per wakeup (12 stacks, 2.50 us each, timed in the programs), 64 bytes more per wakeup's record\n"
			 "WARNING    3 of the 12 stacks were not kept: another stack held the slot its hash gave it, or "
			 "the map was full; their wakeups say so where a stack would be\n");
	run_stacks__free(kernel);
}

/* --unwind's line: how many wakeups' stacks were unwound, and what the copies and the unwinding cost */
Test(text_stacks, the_unwound_line_says_how_many_and_what_it_cost)
{
	struct run_stacks *kernel = stacks_with_kernel();
	struct wp_stack_cost cost = { .ns = 30000, .taken = 12, .copy_ns = 8000, .copies = 8, .copied_bytes = 8 * 4096,
				      .sent_slow = 1, .sent_budget = 2, .sent_bytes = 3 * 8392, .over_budget = 1,
				      .lost = 1 };

	run_stacks__note_cost(kernel, 2 << 20, &cost);
	text_stacks__unwound(out, kernel, 4);
	cr_assert_str_eq(written(),
			 "  unwound    0 of 4 wakeups' user stacks, by the objects' call frame information from copies of "
			 "the stacks: 1 slow wakeups', 2 within --unwind's budget, 1 over it; 0 distinct\n"
			 "             copying: 2.00 us of program time per wakeup (8 copies, 4.0 KiB each), 8.2 KiB to the "
			 "ring per wakeup that sent them; unwinding: 0.0 ms of wakeprobe's time, 0.0 us a stack\n"
			 "WARNING    1 copies found the ring full and 0 came without their wakeup: those wakeups' user "
			 "stacks are the frame pointers' walk\n");
	run_stacks__free(kernel);
}

/* --unwind off, or a kernel that takes no copies: no line */
Test(text_stacks, without_copies_there_is_no_unwound_line)
{
	struct run_stacks *kernel = stacks_with_kernel();
	struct wp_stack_cost cost = { .ns = 30000, .taken = 12 };

	run_stacks__note_cost(kernel, 2 << 20, &cost);
	text_stacks__unwound(out, kernel, 4);
	cr_assert_str_eq(written(), "");
	run_stacks__free(kernel);
}

Test(text_stacks, without_stacks_there_is_no_cost_line)
{
	text_stacks__cost(out, NULL, 4);
	cr_assert_str_eq(written(), "");
}

Test(text_stacks, each_object_that_cut_stacks_has_a_line_after_a_blank_one)
{
	const struct stack_cut cuts[] = {
		{ .object = "/usr/lib/x86_64-linux-gnu/libfoo.so.1", .stacks = 7, .of = 9 },
		{ .object = "/opt/app/bin/server", .stacks = 2, .of = 40 },
	};

	text_stacks__cuts(out, cuts, 2);
	cr_assert_str_eq(written(),
			 "\n  libfoo.so.1 has no frame pointers, it seems: 7 of the 9 user stacks through it end there, "
			 "short of the thread's start; their callers are cut (docs/attach.md: frame pointers)\n"
			 "  server has no frame pointers, it seems: 2 of the 40 user stacks through it end there, short of "
			 "the thread's start; their callers are cut (docs/attach.md: frame pointers)\n");
	memout__close();
	memout__open();
	text_stacks__cuts(out, cuts, 0);
	cr_assert_str_eq(written(), "");
}

/* one stack in more than a hundred ending in an object says nothing of its frame pointers: said as a count */
Test(text_stacks, a_rare_early_end_is_counted_not_blamed_on_frame_pointers)
{
	const struct stack_cut cuts[] = {
		{ .object = "/opt/app/bin/gochan", .stacks = 1, .of = 7946 },
		{ .object = "/opt/app/bin/edge", .stacks = 1, .of = 100 },
	};

	text_stacks__cuts(out, cuts, 2);
	cr_assert_str_eq(written(),
			 "\n  gochan: 1 of the 7946 user stacks through it end there, short of the thread's start, too "
			 "few to say it lacks frame pointers\n"
			 "  edge has no frame pointers, it seems: 1 of the 100 user stacks through it end there, short of "
			 "the thread's start; their callers are cut (docs/attach.md: frame pointers)\n");
}

/* pair_wakeup - a complete wakeup of thread @wakee by thread 10, with the stacks @st */
static struct attach_result pair_wakeup(uint32_t wakee, struct wp_lean_stacks st)
{
	struct attach_result r = stacked_wakeup(wakee, 2000, st);

	snprintf(r.waker.comm, sizeof(r.waker.comm), "prod");
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "cons");
	snprintf(r.mechanism, sizeof(r.mechanism), "futex 0x10 wake -> wait");
	return r;
}

Test(text_stacks, attach_mode_shows_the_busiest_pairs_stacks_and_where_they_were_cut)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g, .pairs = 10, .order = ATTACH_ORDER_COUNT };
	struct attach_result r;
	static const char *const want[] = {
		"Stacks of the 2 busiest pairs (6 distinct stacks kept by the kernel; innermost frame first):",
		"  thread prod 10 -> cons 11 via futex 0x10 wake -> wait",
		"    the most frequent and costliest: 2 of 2 wakeups (100%), 4.0 us of wake -> run; p50 1.8, p99 1.8 "
		"(each within 25% below), max 2.0 us",
		"  thread prod 10 -> cons 12 via futex 0x10 wake -> wait",
		"    the most frequent and costliest: 1 of 1 wakeups (100%), 2.0 us of wake -> run; p50 1.8, p99 1.8 "
		"(each within 25% below), max 2.0 us",
		NULL,
	};

	cr_assert_not_null(g);
	r = pair_wakeup(11, own_stack_ids(STACK_CUT_LIBC, STACK_WHOLE));
	attach_aggregate__add(g, &r);
	attach_aggregate__add(g, &r);
	r = pair_wakeup(12, own_stack_ids(STACK_WHOLE, STACK_WHOLE));
	attach_aggregate__add(g, &r);
	text_stacks__print(out, &rep);
	expect_lines(written(), want);
	cr_assert_not_null(strstr(written(), " has no frame pointers, it seems: 2 of the 2 user stacks through it end "
				  "there"), "libc cut the first pair's waker stacks: %s", written());
	/* one pair asked: one shown */
	memout__close();
	memout__open();
	rep.pairs = 1;
	text_stacks__print(out, &rep);
	cr_assert(!strncmp(written(), "\nStacks of the 1 busiest pairs", 30), "%s", written());
	cr_assert_null(strstr(written(), "cons 12"), "%s", written());
	/* a run without --stacks: nothing */
	memout__close();
	memout__open();
	run.stacks = NULL;
	text_stacks__print(out, &rep);
	cr_assert_str_eq(written(), "");
	attach_aggregate__free(g);
}
