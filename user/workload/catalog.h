/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalog.h - the wakeup paths wakeprobe knows: which workload binary runs
 * each, and which syscalls bound its kernel phases.
 */
#ifndef WAKEPROBE_CATALOG_H
#define WAKEPROBE_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include "syscall_list.h"

#define CATALOG_MAX_WORKLOADS 16

/* what ends the wakee's wait in the kernel: the resume_kernel phase's end */
enum wait_end {
	WAIT_END_SYSCALL_EXIT,		/* the wait syscall returns */
	WAIT_END_SIGNAL_DELIVER,	/* signal:signal_deliver, on the way to a handler */
};

struct workload_desc {
	const char *name;
	const char *summary;
	/* the waker's notify syscall(s), ended by -1: their entry starts notify_kernel */
	struct syscall_list notify_syscalls;
	/* the wakee's wait syscall(s), ended by -1: their exit ends resume_kernel */
	struct syscall_list wait_syscalls;
	/* the notify and wait syscalls take the path's fd as first argument */
	int match_fd;
	enum wait_end wait_end;
	/*
	 * No kernel in the path: kernel events only explain interference. Every
	 * syscall of the workload is traced, to show that the wait makes none.
	 */
	bool user_only;
	/* the notify is decided in user space: see merger_config */
	bool notify_optional;
	/* the notify makes the wakee, a new thread each time: see merger_config */
	bool new_task;
};

const struct workload_desc *catalog__find(const char *name);
const struct workload_desc *catalog__at(size_t index);
size_t catalog__count(void);

#endif /* WAKEPROBE_CATALOG_H */
