// SPDX-License-Identifier: GPL-2.0
/* test_futex_ops.c - which futex(2) ops wake, which wait, by uapi linux/futex.h's names */
#include <criterion/criterion.h>
#include <linux/futex.h>
#include "futex_ops.h"

TestSuite(futex_ops);

/* every command uapi linux/futex.h defines, and what it does to its caller and its waiters */
static const struct {
	unsigned int cmd;
	const char *name;
	bool wakes;
	bool waits;
} ops[] = {
	{ FUTEX_WAIT, "wait", false, true },
	{ FUTEX_WAKE, "wake", true, false },
	{ FUTEX_FD, "fd", false, false },
	{ FUTEX_REQUEUE, "requeue", true, false },
	{ FUTEX_CMP_REQUEUE, "cmp_requeue", true, false },
	{ FUTEX_WAKE_OP, "wake_op", true, false },
	{ FUTEX_LOCK_PI, "lock_pi", false, true },
	{ FUTEX_UNLOCK_PI, "unlock_pi", true, false },
	{ FUTEX_TRYLOCK_PI, "trylock_pi", false, false },
	{ FUTEX_WAIT_BITSET, "wait_bitset", false, true },
	{ FUTEX_WAKE_BITSET, "wake_bitset", true, false },
	{ FUTEX_WAIT_REQUEUE_PI, "wait_requeue_pi", false, true },
	{ FUTEX_CMP_REQUEUE_PI, "cmp_requeue_pi", true, false },
	{ FUTEX_LOCK_PI2, "lock_pi2", false, true },
};

#define NR_OPS (sizeof(ops) / sizeof(ops[0]))

Test(futex_ops, the_ops_that_hand_a_waiter_on_wake_and_only_they)
{
	for (size_t i = 0; i < NR_OPS; i++)
		cr_assert_eq(futex_ops__wakes(ops[i].cmd), ops[i].wakes, "%s", ops[i].name);
}

Test(futex_ops, the_ops_that_block_their_caller_wait_and_only_they)
{
	for (size_t i = 0; i < NR_OPS; i++)
		cr_assert_eq(futex_ops__waits(ops[i].cmd), ops[i].waits, "%s", ops[i].name);
}

Test(futex_ops, no_op_both_wakes_and_waits_and_an_unknown_command_does_neither)
{
	for (unsigned int cmd = 0; cmd < 32; cmd++)
		cr_assert_not(futex_ops__wakes(cmd) && futex_ops__waits(cmd), "command %u", cmd);
	cr_assert_not(futex_ops__wakes(NR_OPS));
	cr_assert_not(futex_ops__waits(NR_OPS));
	cr_assert_not(futex_ops__wakes(31));
	cr_assert_not(futex_ops__waits(31));
}

Test(futex_ops, the_private_and_clock_realtime_flags_change_no_answer)
{
	static const unsigned int flags[] = { FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME,
					      FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME };

	for (size_t i = 0; i < NR_OPS; i++) {
		for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			uint64_t op = ops[i].cmd | flags[f];

			cr_assert_eq(futex_ops__cmd(op), ops[i].cmd, "%s with flags 0x%x", ops[i].name, flags[f]);
			cr_assert_eq(futex_ops__wakes(op), ops[i].wakes, "%s with flags 0x%x", ops[i].name, flags[f]);
			cr_assert_eq(futex_ops__waits(op), ops[i].waits, "%s with flags 0x%x", ops[i].name, flags[f]);
			cr_assert_str_eq(futex_ops__name(op), ops[i].name, "with flags 0x%x", flags[f]);
		}
	}
	cr_assert_str_eq(futex_ops__name(FUTEX_WAKE_PRIVATE), "wake");
	cr_assert_str_eq(futex_ops__name(FUTEX_WAIT_BITSET_PRIVATE), "wait_bitset");
}

Test(futex_ops, every_command_is_named_and_one_past_them_is_op_unknown)
{
	for (size_t i = 0; i < NR_OPS; i++)
		cr_assert_str_eq(futex_ops__name(ops[i].cmd), ops[i].name);
	cr_assert_str_eq(futex_ops__name(FUTEX_LOCK_PI2 + 1), "op?");
	cr_assert_str_eq(futex_ops__name(FUTEX_CMD_MASK), "op?");
}
