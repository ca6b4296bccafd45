/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc_tree.h - the processes a started command made, however far they
 * went: its descendants, and the orphans wakeprobe adopted as their
 * subreaper (PR_SET_CHILD_SUBREAPER) once their parents were gone. Found
 * in /proc with async-signal-safe calls only and no allocation, so that a
 * signal handler about to _exit() may end them too.
 */
#ifndef WAKEPROBE_PROC_TREE_H
#define WAKEPROBE_PROC_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* the most processes one look finds; more are left for the next look */
#define PROC_TREE_MAX		1024

struct proc_tree {
	pid_t pids[PROC_TREE_MAX];
	bool zombie[PROC_TREE_MAX];	/* exited, not yet reaped: nothing to signal */
	size_t n;
};

/*
 * proc_tree__start_ticks - when @pid started, in clock ticks since boot
 * (/proc/PID/stat's starttime); 0 if it cannot be read
 */
unsigned long long proc_tree__start_ticks(pid_t pid);
/* proc_tree__parent - @pid's parent (/proc/PID/stat's ppid); 0 if it cannot be read */
pid_t proc_tree__parent(pid_t pid);

/*
 * proc_tree__find - @root (when > 0) and its descendants, and this
 * process's children that started at @since_ticks or later, with theirs:
 * what a command started at @since_ticks left, when its orphans came to
 * this process. This process itself is never in it.
 */
void proc_tree__find(struct proc_tree *t, pid_t root, unsigned long long since_ticks);

#endif /* WAKEPROBE_PROC_TREE_H */
