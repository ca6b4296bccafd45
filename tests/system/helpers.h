/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - what the end-to-end tests share: run one workload through a
 * session and check every merged sample on the way.
 */
#ifndef WAKEPROBE_TEST_HELPERS_H
#define WAKEPROBE_TEST_HELPERS_H

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include "session.h"

struct checks {
	uint64_t seen;
	uint64_t complete;
	uint64_t phased;		/* complete with phases */
	uint64_t negative_phase;
	uint64_t sum_off;		/* phased samples whose phases miss the total by > 50 ns */
	int64_t worst_sum_error;
	uint64_t seq_out_of_order;
	uint64_t last_seq;
	uint64_t waiter_syscalls;
	struct sample_result first_missing;
	struct sample_result first_phased;
	struct sample_result last_phased;
	/* optional: sees every merged sample too */
	merger_sample_fn hook;
	void *hook_ctx;
};

/* skip_unless_traceable - skip the calling test, saying why, without root and BTF */
void skip_unless_traceable(void);

/* a run and how the session carries it out, for session__run() */
struct test_session {
	struct run_config cfg;
	struct session_opts opts;
};

/* test_session - the session run_workload() runs: CPUs 0 and 1, every sample into @c */
struct test_session test_session(const char *name, bool trace, uint64_t samples, uint64_t interval_us,
				 struct checks *c);

/*
 * run_workload - @name for @samples wakeups, every merged sample checked into
 * @c; the result lands in @res. Returns session__run()'s value, @msg its reason.
 */
int run_workload(const char *name, bool trace, uint64_t samples, uint64_t interval_us, struct checks *c,
		 struct run_result *res, char msg[256]);

/* wakeprobe_path - the binary under test ($WAKEPROBE); skips the calling test when unset */
const char *wakeprobe_path(void);

/* read_to_end - read @fd to its end, or until @buf is full; always terminated */
void read_to_end(int fd, char *buf, size_t len);

/* what a spawned child does before it runs its program */
struct child_setup {
	int uid;			/* >= 0: become this uid (and gid) */
	const cpu_set_t *cpus;		/* run only there */
};

/*
 * spawn_piped - start @args[0] with its stdout and stderr on pipes, their
 * read ends into @out and @err; @setup may be NULL. The pipes are
 * close-on-exec: the child holds only its own ends, as 1 and 2.
 */
pid_t spawn_piped(char *const args[], const struct child_setup *setup, int *out, int *err);

/* labelled - samples kept out of the phase table, whatever the reason */
uint64_t labelled(const struct aggregate *a);

/* describe_missing - one line on the first sample that missed a bounding event */
const char *describe_missing(uint64_t n, const struct sample_result *r);

#endif /* WAKEPROBE_TEST_HELPERS_H */
