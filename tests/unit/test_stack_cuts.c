// SPDX-License-Identifier: GPL-2.0
/*
 * test_stack_cuts.c - where frame pointers cut user stacks short
 * (stack_cuts.c), over combinations of the stacks of stacks_fixture.h,
 * which this process's own mappings name: a walk that reached the
 * thread's start is whole, one that stopped is cut in the last object it
 * reached, each object counted once a stack and weighed by its wakeups;
 * the objects the most stacks end in first; over every pair of an attach
 * run alike.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "stack_combos_fixture.h"
#include "stack_cuts.h"

static struct stack_cuts cuts;

static void setup(void)
{
	stack_combos_fixture__open();
	memset(&cuts, 0, sizeof(cuts));
}

TestSuite(stack_cuts, .init = setup, .fini = stack_combos_fixture__close);

/* add - @times wakeups whose waker's user stack is @waker_user and the wakee's @wait_user */
static void add(int32_t waker_user, int32_t wait_user, int times)
{
	add_wakeups(own_stack_ids(waker_user, wait_user), times, 1000);
}

/* cut_of - the row of @object among the objects counted; NULL if it has none */
static const struct stack_cut *cut_of(const char *object)
{
	for (size_t i = 0; i < cuts.n; i++)
		if (!strcmp(cuts.all[i].object, object))
			return &cuts.all[i];
	return NULL;
}

Test(stack_cuts, a_walk_that_reached_the_threads_start_is_whole)
{
	struct stack_cut top[STACK_CUTS_MAX];
	const struct stack_cut *binary;

	add(STACK_WHOLE, STACK_WHOLE, 2);
	stack_cuts__count(&cuts, rs, &combos);
	/* the kernel's stacks are not walked by frame pointers: only the test binary is counted */
	cr_assert_eq(cuts.n, 1);
	binary = cut_of(object_of(rs, STACK_WHOLE, 0));
	cr_assert_not_null(binary);
	cr_assert_eq(binary->of, 4, "two wakeups, two user stacks each");
	cr_assert_eq(binary->stacks, 0);
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 0, "nothing was cut");
}

Test(stack_cuts, a_walk_that_stopped_is_cut_in_the_last_object_it_reached)
{
	const char *binary = object_of(rs, STACK_CUT_HERE, 0), *libc = object_of(rs, STACK_CUT_LIBC, 1);
	const struct stack_cut *b, *l;

	cr_assert_str_neq(binary, libc);
	add(STACK_CUT_LIBC, STACK_WHOLE, 3);
	add(STACK_CUT_HERE, STACK_WHOLE, 1);
	stack_cuts__count(&cuts, rs, &combos);
	b = cut_of(binary);
	l = cut_of(libc);
	cr_assert(b && l);
	/* each stack has a frame in the binary: 3 + 3 + 1 + 1 wakeups' stacks; only getppid's 3 in libc */
	cr_assert_eq(b->of, 8);
	cr_assert_eq(b->stacks, 1);
	cr_assert_eq(l->of, 3);
	cr_assert_eq(l->stacks, 3);
}

Test(stack_cuts, the_objects_most_stacks_end_in_come_first_as_many_as_asked)
{
	struct stack_cut top[STACK_CUTS_MAX];

	add(STACK_CUT_HERE, STACK_WHOLE, 1);
	add(STACK_CUT_LIBC, STACK_CUT_LIBC, 2);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 2);
	cr_assert_str_eq(top[0].object, object_of(rs, STACK_CUT_LIBC, 1));
	cr_assert_eq(top[0].stacks, 4, "two wakeups, both of their stacks cut in libc");
	cr_assert_str_eq(top[1].object, object_of(rs, STACK_CUT_HERE, 1));
	cr_assert_eq(top[1].stacks, 1);
	cr_assert_eq(stack_cuts__top(&cuts, top, 1), 1);
	cr_assert_str_eq(top[0].object, object_of(rs, STACK_CUT_LIBC, 1));
}

Test(stack_cuts, frames_in_no_object_past_the_last_are_a_walk_gone_astray)
{
	const struct stack_cut *b;

	add(STACK_ASTRAY, STACK_WHOLE, 1);
	stack_cuts__count(&cuts, rs, &combos);
	b = cut_of(object_of(rs, STACK_ASTRAY, 0));
	cr_assert_not_null(b);
	cr_assert_eq(b->stacks, 1, "cut where the objects end, in the binary");
	cr_assert_null(cut_of(""), "no row for what nothing maps");
}

Test(stack_cuts, an_attach_run_counts_every_pairs_stacks_and_none_without_stacks)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct stack_cut top[STACK_CUTS_MAX];

	cr_assert_not_null(g);
	/* two pairs: the wakee of one is thread 11, of the other thread 12 */
	for (uint32_t wakee = 11; wakee <= 12; wakee++) {
		int32_t waker_user = wakee == 11 ? STACK_CUT_LIBC : STACK_CUT_HERE;
		struct attach_result r = stacked_wakeup(wakee, 1000, own_stack_ids(waker_user, STACK_WHOLE));

		attach_aggregate__add(g, &r);
	}
	cr_assert_eq(g->nr_pairs, 2);
	cr_assert_eq(stack_cuts__find(&rep, top, STACK_CUTS_MAX), 2, "each pair's cut, libc's and the binary's");
	run.stacks = NULL;
	cr_assert_eq(stack_cuts__find(&rep, top, STACK_CUTS_MAX), 0, "a run without --stacks cut nothing");
	attach_aggregate__free(g);
}
