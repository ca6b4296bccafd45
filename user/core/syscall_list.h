/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscall_list.h - the syscalls that bound a wakeup path's kernel phases:
 * the waker's notify syscalls, or the wakee's wait syscalls. One type for
 * the catalog, the merger, the collector and the record file, so a list
 * passes from one to the next by assignment and has one length.
 */
#ifndef WAKEPROBE_SYSCALL_LIST_H
#define WAKEPROBE_SYSCALL_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>

/*
 * The x86-64 numbers of the v5.16 and v6.7 futex calls (futex_waitv,
 * futex_wake, futex_wait, futex_requeue), which older libc headers do not
 * name yet: the futex paths' lists and attach mode's names take them.
 */
#ifndef SYS_futex_waitv
#define SYS_futex_waitv		449
#endif
#ifndef SYS_futex_wake
#define SYS_futex_wake		454
#endif
#ifndef SYS_futex_wait
#define SYS_futex_wait		455
#endif
#ifndef SYS_futex_requeue
#define SYS_futex_requeue	456
#endif

/*
 * The futex paths need three (futex, and the v5.16+ / v6.7+ calls that do
 * the same). It sizes the record file's RUN_BEGIN: a change is a new
 * REC_VERSION.
 */
#define SYSCALL_LIST_MAX	4

/*
 * Syscall numbers, a negative one (-1) ending a shorter list. What follows
 * the end is not part of the list: in a catalog entry it is zero, read().
 */
struct syscall_list {
	int32_t nr[SYSCALL_LIST_MAX];
};

/* syscall_list__len - how many numbers come before the end */
static inline int syscall_list__len(const struct syscall_list *l)
{
	int n = 0;

	while (n < SYSCALL_LIST_MAX && l->nr[n] >= 0)
		n++;
	return n;
}

static inline bool syscall_list__has(const struct syscall_list *l, int64_t nr)
{
	int i;

	for (i = 0; i < syscall_list__len(l); i++)
		if (l->nr[i] == nr)
			return true;
	return false;
}

#endif /* WAKEPROBE_SYSCALL_LIST_H */
