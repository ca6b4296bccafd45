/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_combos_fixture.h - the combinations of stacks a test of what
 * writes or counts them fills (test_folded_common.c, test_text_stacks.c,
 * test_json_stacks.c, test_stack_cuts.c): rs, stacks_fixture.h's stacks
 * of this process, and combos, which add_wakeups() fills and top_combo()
 * reads. stack_combos_fixture__open() and stack_combos_fixture__close()
 * go in the suite's .init and .fini, beside what the test writes to.
 */
#ifndef WAKEPROBE_TEST_STACK_COMBOS_FIXTURE_H
#define WAKEPROBE_TEST_STACK_COMBOS_FIXTURE_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "stack_combos.h"
#include "stacks_fixture.h"

static struct run_stacks *rs;
static struct stack_combos combos;

/* stack_combos_fixture__open - stacks_with_user()'s stacks in rs, no combination yet */
static inline void stack_combos_fixture__open(void)
{
	rs = stacks_with_user();
	memset(&combos, 0, sizeof(combos));
}

static inline void stack_combos_fixture__close(void)
{
	run_stacks__free(rs);
}

/* add_wakeups - @times wakeups of this process of @ns each, with the stacks @st, into combos */
static inline void add_wakeups(struct wp_lean_stacks st, int times, uint64_t ns)
{
	for (int i = 0; i < times; i++)
		stack_combos__add(&combos, &st, (uint32_t)getpid(), ns);
}

/* top_combo - the combination of combos first by @order */
static inline const struct stack_combo *top_combo(enum stack_order order)
{
	const struct stack_combo *s;

	cr_assert_eq(stack_combos__top(&combos, order, &s, 1), 1);
	return s;
}

#endif /* WAKEPROBE_TEST_STACK_COMBOS_FIXTURE_H */
