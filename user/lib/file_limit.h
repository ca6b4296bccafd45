/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file_limit.h - the soft limit on open files (RLIMIT_NOFILE) raised to
 * the hard one for a process that holds a socket per client, and put back
 * for the programs it starts: the soft limit stays low by default (1024)
 * for programs that pass descriptors to select(2), which takes none above
 * FD_SETSIZE; such a program started by wakeprobe gets the limit it would
 * have had without it.
 */
#ifndef WAKEPROBE_FILE_LIMIT_H
#define WAKEPROBE_FILE_LIMIT_H

#include <sys/resource.h>

/*
 * file_limit__raise - the soft limit raised as far as the hard limit
 * allows, the one it was kept for file_limit__restore(); the soft limit
 * now into @now. 0, or a negative errno (the limit as it was).
 */
int file_limit__raise(rlim_t *now);

/*
 * file_limit__restore - in a child about to exec: the soft limit the
 * process was started with, if file_limit__raise() raised it
 * (async-signal-safe, as the child of a threaded parent needs)
 */
void file_limit__restore(void);

#endif /* WAKEPROBE_FILE_LIMIT_H */
