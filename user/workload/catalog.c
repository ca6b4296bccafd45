// SPDX-License-Identifier: GPL-2.0
/*
 * catalog.c - one entry per wakeup path. The syscall lists say which events
 * bound the kernel phases (docs/phases.md has the same map in prose):
 * the notify syscall's entry by the waker, the wait syscall's exit by the
 * wakee. The futex paths list every futex syscall glibc or a program may
 * use: futex(2) with any of its wake and wait ops, private or shared, and the
 * v5.16+ futex_waitv and v6.7+ futex_wake / futex_wait / futex_requeue.
 */
#include <string.h>
#include <sys/syscall.h>
#include "catalog.h"
#include "summaries.h"

/* the syscalls that notify through a futex, and that wait on one (not <linux/futex.h>'s op codes) */
#define FUTEX_NOTIFY_SYSCALLS	{ { SYS_futex, SYS_futex_wake, SYS_futex_requeue, -1 } }
#define FUTEX_WAIT_SYSCALLS	{ { SYS_futex, SYS_futex_waitv, SYS_futex_wait, -1 } }

static const struct workload_desc workloads[] = {
	{
		.name = "cond",
		.summary = WP_SUMMARY_COND,
		.notify_syscalls = FUTEX_NOTIFY_SYSCALLS,
		.wait_syscalls = FUTEX_WAIT_SYSCALLS,
		.notify_optional = true,
	},
	{
		.name = "sem",
		.summary = WP_SUMMARY_SEM,
		.notify_syscalls = FUTEX_NOTIFY_SYSCALLS,
		.wait_syscalls = FUTEX_WAIT_SYSCALLS,
		.notify_optional = true,
	},
	{
		.name = "eventfd",
		.summary = WP_SUMMARY_EVENTFD,
		.notify_syscalls = { { SYS_write, -1 } },
		.wait_syscalls = { { SYS_read, -1 } },
		.match_fd = 1,
	},
	{
		.name = "pipe",
		.summary = WP_SUMMARY_PIPE,
		.notify_syscalls = { { SYS_write, -1 } },
		.wait_syscalls = { { SYS_read, -1 } },
		.match_fd = 1,
	},
	{
		.name = "signal-handler",
		.summary = WP_SUMMARY_SIGNAL_HANDLER,
		.notify_syscalls = { { SYS_tgkill, -1 } },
		.wait_syscalls = { { -1 } },
		.wait_end = WAIT_END_SIGNAL_DELIVER,
	},
	{
		.name = "sigwait",
		.summary = WP_SUMMARY_SIGWAIT,
		.notify_syscalls = { { SYS_tgkill, -1 } },
		.wait_syscalls = { { SYS_rt_sigtimedwait, -1 } },
	},
	{
		.name = "spin",
		.summary = WP_SUMMARY_SPIN,
		.notify_syscalls = { { -1 } },
		.wait_syscalls = { { -1 } },
		.user_only = true,
	},
	{
		.name = "shmsem",
		.summary = WP_SUMMARY_SHMSEM,
		.notify_syscalls = FUTEX_NOTIFY_SYSCALLS,
		.wait_syscalls = FUTEX_WAIT_SYSCALLS,
		.notify_optional = true,
	},
	{
		.name = "futex",
		.summary = WP_SUMMARY_FUTEX,
		.notify_syscalls = FUTEX_NOTIFY_SYSCALLS,
		.wait_syscalls = FUTEX_WAIT_SYSCALLS,
		.notify_optional = true,
	},
	{
		/* the creator's clone() is the notify; the new thread leaves it, returning 0, to run */
		.name = "thread-start",
		.summary = WP_SUMMARY_THREAD_START,
		.notify_syscalls = { { SYS_clone, SYS_clone3, -1 } },
		.wait_syscalls = { { SYS_clone, SYS_clone3, -1 } },
		.new_task = true,
	},
};

_Static_assert(sizeof(workloads) / sizeof(workloads[0]) <= CATALOG_MAX_WORKLOADS,
	       "raise CATALOG_MAX_WORKLOADS");

const struct workload_desc *catalog__find(const char *name)
{
	size_t i;

	for (i = 0; i < catalog__count(); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

const struct workload_desc *catalog__at(size_t index)
{
	return index < catalog__count() ? &workloads[index] : NULL;
}

size_t catalog__count(void)
{
	return sizeof(workloads) / sizeof(workloads[0]);
}
