// SPDX-License-Identifier: GPL-2.0
/*
 * test_stacks.c - --stacks after the kernel: a pair's combinations of
 * stacks counted and ordered, stacks named from a kernel symbol table
 * with the BPF side's own frames cut, and a frame's name where no symbol
 * covers it (a stripped object's). What the outputs write of them is
 * test_folded_*.c's, test_text_stacks.c's and test_json_stacks.c's.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_analysis.h"
#include "attach_session.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "stacks_fixture.h"

TestSuite(stack_combos);

Test(stack_combos, each_combination_is_counted_and_the_tops_are_ordered)
{
	static struct stack_combos c;
	const struct stack_combo *top[4];
	struct wp_lean_stacks a = lean_stack_ids(1, 2, 3, 4), b = lean_stack_ids(1, 2, 3, 5);

	/* a: three quick wakeups; b: one slow one */
	for (int i = 0; i < 3; i++)
		stack_combos__add(&c, &a, 100, 1000);
	stack_combos__add(&c, &b, 100, 50000);
	cr_assert_eq(c.n, 2);
	cr_assert_eq(stack_combos__top(&c, STACK_BY_COUNT, top, 4), 2);
	cr_assert_eq(top[0]->count, 3, "the most frequent first");
	cr_assert_eq(top[0]->wait_user, 4);
	cr_assert_eq(stack_combos__top(&c, STACK_BY_COST, top, 4), 2);
	cr_assert_eq(top[0]->wait_user, 5, "the costliest first: 50 us against 3 us");
	cr_assert_eq(top[0]->total_ns, 50000);
	cr_assert_eq(top[1]->total_ns, 3000);
	/* the same ids in another process are another combination: its addresses mean other code */
	stack_combos__add(&c, &a, 101, 1000);
	cr_assert_eq(c.n, 3);
}

/* the combinations with a user stack unwound from a copy are told apart, and ranked among themselves */
Test(stack_combos, the_unwound_ones_are_ranked_apart)
{
	static struct stack_combos c;
	const struct stack_combo *top[4];
	struct wp_lean_stacks walked = lean_stack_ids(1, 2, 3, 4);
	struct wp_lean_stacks waker = lean_stack_ids(1, STACK_ID_UNWOUND, 3, 4);
	struct wp_lean_stacks wait = lean_stack_ids(1, 2, 3, STACK_ID_UNWOUND + 1);

	for (int i = 0; i < 5; i++)
		stack_combos__add(&c, &walked, 100, 1000);
	stack_combos__add(&c, &waker, 100, 1000);
	stack_combos__add(&c, &wait, 100, 1000);
	stack_combos__add(&c, &wait, 100, 1000);
	cr_assert_eq(stack_combos__count_unwound(&c), 3);
	cr_assert_eq(stack_combos__top_unwound(&c, STACK_BY_COUNT, top, 4), 2);
	cr_assert_eq(top[0]->wait_user, STACK_ID_UNWOUND + 1, "the most frequent of the unwound");
	cr_assert_eq(top[1]->waker_user, STACK_ID_UNWOUND);
	cr_assert(!stack_combo__unwound(&c.rows[0]));
	cr_assert_eq(stack_combos__top(&c, STACK_BY_COUNT, top, 4), 3);
	cr_assert_eq(top[0]->count, 5, "all of them: the walked first");
}

Test(stack_combos, a_percentile_is_the_floor_of_its_bucket)
{
	static struct stack_combos c;
	const struct stack_combo *top;
	struct wp_lean_stacks a = lean_stack_ids(1, 2, 3, 4);

	for (int i = 0; i < 99; i++)
		stack_combos__add(&c, &a, 1, 10000);
	stack_combos__add(&c, &a, 1, 1000000);
	stack_combos__top(&c, STACK_BY_COUNT, &top, 1);
	/* 10000 is in [8192, 10240): four buckets to a power of two */
	cr_assert_eq(stack_combo__percentile(top, 50), 8192);
	cr_assert_eq(stack_combo__percentile(top, 99), 8192);
	cr_assert_eq(stack_combo__percentile(top, 100), 917504, "1 ms is in [917504, 1048576)");
	cr_assert_eq(top->max_ns, 1000000);
	cr_assert(stack_combo__percentile(top, 50) <= 10000 && stack_combo__percentile(top, 50) >= 10000 * 3 / 4,
		  "within 25%% below");
}

Test(stack_combos, past_the_rows_wakeups_are_counted_not_lost)
{
	static struct stack_combos c;
	uint64_t in_rows = 0;

	for (int i = 0; i < STACK_COMBOS_MAX + 10; i++) {
		struct wp_lean_stacks s = lean_stack_ids(i, -1, i, -EFAULT);

		stack_combos__add(&c, &s, 1, 100);
	}
	cr_assert_eq(c.n, STACK_COMBOS_MAX);
	for (uint32_t i = 0; i < c.n; i++)
		in_rows += c.rows[i].count;
	cr_assert_eq(c.other, 10);
	cr_assert_eq(c.other_ns, 1000);
	cr_assert_eq(in_rows + c.other, STACK_COMBOS_MAX + 10);
	stack_combos__clear(&c);
	cr_assert_eq(c.n + c.other, 0);
}

TestSuite(run_stacks);

Test(run_stacks, a_kernel_stack_is_named_without_the_bpf_sides_frames)
{
	struct run_stacks *rs = stacks_with_kernel();
	/* innermost first: the program, the trampoline's caller, then the kernel's own */
	const uint64_t ips[] = { 0xffffffffa0000040, 0xffffffff81005010, 0xffffffff81004020,
				 0xffffffff81000100, 0xffffffff81000410, 0xffffffff81001010 };
	const struct stack_frame *fr;
	char name[64];
	size_t n;

	cr_assert_eq(run_stacks__add(rs, 7, ips, 6), 0);
	n = run_stacks__frames(rs, 7, 0, &fr);
	cr_assert_eq(n, 3, "the three BPF frames are cut, the scheduler's kept");
	cr_assert_str_eq(fr[0].sym.function, "__schedule");
	cr_assert_eq(fr[0].sym.function_offset, 0x100, "the first frame is where it is");
	cr_assert_str_eq(fr[1].sym.function, "schedule");
	/* a return address is named by the call before it, and shown as it is */
	cr_assert_eq(fr[1].sym.function_offset, 0x10);
	stack_frame__name(&fr[2], name, sizeof(name));
	cr_assert_str_eq(name, "futex_wait+0x10");
	cr_assert(fr[2].kernel);
	cr_assert_eq(run_stacks__frames(rs, 8, 0, &fr), 0, "no such stack");
	cr_assert_eq(run_stacks__count(rs), 1);
	run_stacks__free(rs);
}

Test(run_stacks, a_walk_gone_astray_says_no_more_than_it_saw)
{
	struct run_stacks *rs = stacks_with_kernel();
	const uint64_t ips[] = { 0x1000, 0x2000, 0x2000, 0x2000, 0x2000 };
	const struct stack_frame *fr;
	char name[64];

	/* ... and one past any user address: text read as a frame pointer ("revr 127") */
	const uint64_t astray[] = { 0x1000, 0x3000, 0x3732312072657672, 0x4000 };

	cr_assert_eq(run_stacks__add(rs, 3, ips, 5), 0);
	/* process 1 has no mappings kept: nothing is named, and the loop is one frame */
	cr_assert_eq(run_stacks__frames(rs, 3, 1, &fr), 2);
	stack_frame__name(&fr[1], name, sizeof(name));
	cr_assert_str_eq(name, "0x2000");
	cr_assert_eq(run_stacks__add(rs, 4, astray, 4), 0);
	cr_assert_eq(run_stacks__frames(rs, 4, 1, &fr), 2, "the walk ends where it left user space");
	/* a kernel stack's addresses are all past it */
	run_stacks__free(rs);
}

Test(run_stacks, each_stack_is_named_once_for_each_process_whatever_the_order_asked)
{
	struct run_stacks *rs = stacks_with_kernel();
	const int32_t ids[] = { 9, 2, 5, 2, 9, 1 };
	const struct stack_frame *first[6], *fr;

	for (int32_t id = 1; id <= 9; id++) {
		const uint64_t ips[] = { 0x1000 + (uint64_t)id, 0x2000 + (uint64_t)id };

		cr_assert_eq(run_stacks__add(rs, id, ips, 2), 0);
	}
	/* the same id for the kernel and for a process, asked in no order, each named from its first asking */
	for (size_t i = 0; i < 6; i++) {
		pid_t tgid = i % 2 ? 0 : 7;

		cr_assert_eq(run_stacks__frames(rs, ids[i], tgid, &first[i]), 2);
		cr_assert_eq(first[i][0].ip, 0x1000 + (uint64_t)ids[i], "stack %d", ids[i]);
		cr_assert_eq(first[i][0].kernel, !tgid);
	}
	for (size_t i = 0; i < 6; i++) {
		cr_assert_eq(run_stacks__frames(rs, ids[i], i % 2 ? 0 : 7, &fr), 2);
		cr_assert_eq(fr, first[i], "stack %d of %d is named once", ids[i], i % 2 ? 0 : 7);
	}
	run_stacks__free(rs);
}

/* a_frame - a user frame of @object at @offset, as the symbolizer names it */
static struct stack_frame a_frame(const char *function, const char *object, uint64_t offset, const char *build_id,
				  const char *why)
{
	struct stack_frame f = { .ip = 0x55d0a0000000 + offset };

	snprintf(f.sym.function, sizeof(f.sym.function), "%s", function);
	snprintf(f.sym.object, sizeof(f.sym.object), "%s", object);
	snprintf(f.sym.build_id, sizeof(f.sym.build_id), "%s", build_id);
	f.sym.object_offset = offset;
	f.sym.why_unnamed = why;
	return f;
}

/*
 * a frame no symbol covers, in an object read (a stripped one): its
 * object, the offset in its file and its build ID, what debuginfod or a
 * dbgsym package names it by; folded stacks keep the object and offset
 * alone, a flame graph's frame. A function named wins, and an object not
 * read says why.
 */
Test(run_stacks, a_frame_no_symbol_covers_is_named_by_its_objects_build_id_and_offset)
{
	static const char id[] = "b7ce702773d85243ebaf4886a7614bf38eed0279";
	struct stack_frame bare = a_frame("", "/usr/bin/app", 0x1296, id, NULL),
			   named = a_frame("producer_release", "/usr/bin/app", 0x1296, id, NULL),
			   unread = a_frame("", "/usr/bin/app", 0x1296, "", "not a regular file"),
			   none = a_frame("", "/usr/lib/libold.so", 0x8e2f0, "", NULL);
	char name[STACK_FRAME_NAME_MAX];

	stack_frame__name(&bare, name, sizeof(name));
	cr_assert_str_eq(name, "app+0x1296 [build-id b7ce702773d85243ebaf4886a7614bf38eed0279]");
	stack_frame__function(&bare, name, sizeof(name));
	cr_assert_str_eq(name, "app+0x1296");
	stack_frame__name(&named, name, sizeof(name));
	cr_assert_str_eq(name, "producer_release+0x0");
	stack_frame__name(&unread, name, sizeof(name));
	cr_assert_str_eq(name, "app+0x1296 [not named: not a regular file]");
	stack_frame__name(&none, name, sizeof(name));
	cr_assert_str_eq(name, "libold.so+0x8e2f0", "an object without a build ID: as it was");
}

/* the longest name there is, a 159-byte file name and a build ID of 64 bytes, fits whole */
Test(run_stacks, the_longest_frame_name_fits_its_room)
{
	char object[160], id[129], name[STACK_FRAME_NAME_MAX];
	struct stack_frame f;

	memset(object, 'o', sizeof(object) - 1);
	object[0] = '/';
	object[sizeof(object) - 1] = '\0';
	memset(id, 'f', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	f = a_frame("", object, UINT64_MAX, id, NULL);
	stack_frame__name(&f, name, sizeof(name));
	cr_assert_eq(strlen(name), strlen(object) - 1 + strlen("+0xffffffffffffffff [build-id ]") + strlen(id), "%s",
		     name);
	cr_assert_eq(name[strlen(name) - 1], ']');
}

Test(run_stacks, a_stack_the_kernel_did_not_keep_says_why)
{
	cr_assert_str_eq(run_stacks__why_none(WP_STACK_NONE), "", "not taken: nothing to say");
	cr_assert_str_eq(run_stacks__why_none(-EFAULT), "", "a kernel thread has no user stack");
	cr_assert(strstr(run_stacks__why_none(-EEXIST), "slot"));
	cr_assert(strstr(run_stacks__why_none(-ENOMEM), "full"));
}
