/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - start a workload process, let the caller register it for
 * tracing before it executes a single instruction of its own, and make sure
 * it is gone when wakeprobe is, with every process it started: wakeprobe
 * is their subreaper, so that what they leave running comes back to it.
 */
#ifndef WAKEPROBE_RUNNER_H
#define WAKEPROBE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "proc_tree.h"

#define RUNNER_RING_FD 3	/* where the workload finds its sample ring */

struct runner {
	pid_t pid;		/* -1 when no child */
	bool exited;
	int status;		/* waitpid() status once exited */
	/* set before runner__start(): the workload runs as this user, wakeprobe keeps its privileges */
	bool drop_privileges;
	uid_t uid;
	gid_t gid;
	/* set before runner__start(): the workload writes its standard output into @stdout_fd, not wakeprobe's */
	bool capture_stdout;
	int stdout_fd;
	/* what runner__stop() found of the child's processes */
	unsigned long long start_ticks;	/* the child's start: what started later and came back is its */
	uint32_t others_stopped;	/* processes besides the child that it signalled */
	struct proc_tree signalled;	/* every one it signalled, the child too */
	/* runner__start() failed: the step that did, "fork", ...; NULL when it was exec, or it started */
	const char *failed;
};

/* called in the parent between fork and exec, with the child's pid */
typedef int (*runner_ready_fn)(pid_t pid, void *ctx);

/*
 * runner__find_workload - the workload binary for @name: $WAKEPROBE_WORKLOAD_DIR,
 * else build/workloads beside the running binary, else ../libexec/wakeprobe
 * beside it (an installed tree, wherever it was put), else the install
 * directory it was built for.
 */
int runner__find_workload(const char *name, char *path, size_t len);

/*
 * runner__start - fork, run @ready with the child's pid, then exec @path
 * with @argv, its sample ring @ring_fd (-1: none) on RUNNER_RING_FD. 0, or
 * a negative errno, the child's own when it failed before its exec (which
 * step in @r->failed), and nothing left running.
 */
int runner__start(struct runner *r, const char *path, char *const argv[], int ring_fd,
		  runner_ready_fn ready, void *ctx);
/*
 * runner__describe_start - why runner__start() of @path failed, one line:
 * "cannot start PATH: STEP failed: WHY", or "cannot start PATH: WHY" when
 * exec itself did; @why says why (strerror(), or more)
 */
void runner__describe_start(const struct runner *r, const char *path, const char *why, char *buf, size_t len);
/* runner__poll - reap the child if it has exited; true once it has */
bool runner__poll(struct runner *r);
/*
 * runner__stop - end the child and every process it left, as timeout(1)
 * ends its child: SIGTERM (none when @grace_ms is 0), then SIGKILL to
 * what is left after @grace_ms; always reaps. The count of the others is
 * in @r->others_stopped.
 */
void runner__stop(struct runner *r, int grace_ms);
/*
 * runner__kill_all_now - from a signal handler about to _exit(): SIGKILL
 * to the running child and everything it left. Async-signal-safe.
 */
void runner__kill_all_now(void);
/* runner__describe_exit - "exited with status 1", "killed by SIGSEGV" */
void runner__describe_exit(const struct runner *r, char *buf, size_t len);

#endif /* WAKEPROBE_RUNNER_H */
