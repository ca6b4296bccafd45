// SPDX-License-Identifier: GPL-2.0
/* futex_ops.c - which futex(2) ops wake, which wait, and their names (futex_ops.h) */
#include <linux/futex.h>
#include <linux/types.h>
#include "futex_ops.h"
#include "wakeprobe.h"

/* futex(2) ops by command (uapi linux/futex.h), without the PRIVATE and CLOCK_REALTIME flags */
static const char *const futex_cmd_names[] = {
	[FUTEX_WAIT] = "wait",
	[FUTEX_WAKE] = "wake",
	[FUTEX_FD] = "fd",
	[FUTEX_REQUEUE] = "requeue",
	[FUTEX_CMP_REQUEUE] = "cmp_requeue",
	[FUTEX_WAKE_OP] = "wake_op",
	[FUTEX_LOCK_PI] = "lock_pi",
	[FUTEX_UNLOCK_PI] = "unlock_pi",
	[FUTEX_TRYLOCK_PI] = "trylock_pi",
	[FUTEX_WAIT_BITSET] = "wait_bitset",
	[FUTEX_WAKE_BITSET] = "wake_bitset",
	[FUTEX_WAIT_REQUEUE_PI] = "wait_requeue_pi",
	[FUTEX_CMP_REQUEUE_PI] = "cmp_requeue_pi",
	[FUTEX_LOCK_PI2] = "lock_pi2",
};

unsigned int futex_ops__cmd(uint64_t op)
{
	return (unsigned int)op & FUTEX_CMD_MASK;
}

bool futex_ops__wakes(uint64_t op)
{
	return wp_futex_op_wakes(op);
}

bool futex_ops__waits(uint64_t op)
{
	switch (futex_ops__cmd(op)) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_LOCK_PI2:
		return true;
	default:
		return false;
	}
}

const char *futex_ops__name(uint64_t op)
{
	unsigned int cmd = futex_ops__cmd(op);

	return cmd < sizeof(futex_cmd_names) / sizeof(futex_cmd_names[0]) ? futex_cmd_names[cmd] : "op?";
}
