/* SPDX-License-Identifier: GPL-2.0 */
/*
 * targets.h - the programs attach mode traces: a process given by its pid,
 * or a command that wakeprobe starts. What can be checked before any BPF is
 * loaded is checked here, each problem one line naming the fix.
 */
#ifndef WAKEPROBE_TARGETS_H
#define WAKEPROBE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * targets__check_pid - @pid is a process wakeprobe can trace: it exists, it
 * is a process and not one of its threads (the message then names the
 * process and --tid), a user process and not a kernel thread, and signals
 * reach it. 0, or a negative errno and @msg.
 */
int targets__check_pid(pid_t pid, char *msg, size_t len);

/*
 * targets__find_command - the executable @name names, as execvp() would
 * find it: @name itself when it holds a '/', else the first match on $PATH.
 * 0 with @path set, -ENOENT when there is none, -EACCES when it is not
 * executable.
 */
int targets__find_command(const char *name, char *path, size_t len);

/* targets__alive - does process @pid still exist (a zombie counts as gone)? */
bool targets__alive(pid_t pid);

#endif /* WAKEPROBE_TARGETS_H */
