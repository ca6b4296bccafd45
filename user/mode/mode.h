/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mode.h - a way of running wakeprobe, as one set of hooks: a workload of
 * its own (mode_workload.c), a program of the user's (mode_attach.c), a
 * throughput workload's design (mode_design.c), or a recording analysed
 * again (mode_replay.c). main.c parses the options, picks the mode that
 * wants them, and calls its hooks in this order:
 *
 *	check -> open -> measure -> report, then close whatever happened
 *
 * A hook returns 0 to go on, or the exit status to end with, having said
 * why in one line on stderr (docs/failures.md lists them). A NULL hook has
 * nothing to do. The outputs are the one place that decides what is
 * written, the recording included (outputs.h).
 */
#ifndef WAKEPROBE_MODE_H
#define WAKEPROBE_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "attach_analysis.h"
#include "options.h"
#include "outputs.h"

struct mode_run {
	struct wp_options *o;		/* as parsed; a mode may settle what was left to it (the CPUs) */
	struct output_paths paths;	/* the files the options name */
	struct outputs *out;		/* main's: the signal handler may reach its files */
	int status;			/* the exit status the run earned besides a hook's own (a workload failed) */
	void *state;			/* the mode's own, state_size bytes of zeroes at check */
};

struct mode {
	const char *name;
	size_t state_size;
	/* wants - is @o for this mode? main asks each in turn, and the first that wants it runs */
	bool (*wants)(const struct wp_options *o);
	/* check - what can be found wrong before anything is made or started */
	int (*check)(struct mode_run *m);
	/* open - the outputs made, and what the run needs */
	int (*open)(struct mode_run *m);
	/* measure - run and trace, or read the recording, through the analysis */
	int (*measure)(struct mode_run *m);
	/* report - the text report and the files, each whole or not at all */
	int (*report)(struct mode_run *m);
	/* close - free what the other hooks made */
	void (*close)(struct mode_run *m);
};

extern const struct mode replay_mode;
extern const struct mode attach_mode;
extern const struct mode design_mode;
extern const struct mode workload_mode;
extern const struct mode kernel_mode;

/*
 * mode__check_local - what a run of wakeprobe's own workloads (the paced
 * paths, the designs) needs of this machine: two CPUs it may use (chosen
 * unless --cpus named them: *@cpus_given), tracing allowed, --user's ids
 */
int mode__check_local(struct mode_run *m, bool *cpus_given, uid_t *uid, gid_t *gid);
/* mode__resolve_user - --user NAME (or a number) into the ids the workload or command runs with: 0, or 2 */
int mode__resolve_user(const char *name, uid_t *uid, gid_t *gid);
/*
 * mode__report - the finished run @r: the text report unless an output
 * took stdout, then every file in place. 0, or 1 with one line on stderr
 */
int mode__report(struct mode_run *m, const struct results *r);
/* mode__attach_view - how the options @o ask an attach run shown (--tid, --pairs, --order): live or replayed */
struct attach_view mode__attach_view(const struct wp_options *o);
struct attach_session_opts;
/* mode_attach__target - what an attach run traces, as its outputs name it: "pid 1234,1250", "./server -p 80" */
void mode_attach__target(const struct attach_session_opts *t, char *buf, size_t len);
/*
 * mode_attach__label - what the metrics call it, which are published:
 * @given (--target-label), else a command's name without its arguments,
 * else as mode_attach__target() names it
 */
void mode_attach__label(const struct attach_session_opts *t, const char *given, char *buf, size_t len);

struct session_opts;
/*
 * mode_design__lines - --workload all: one mode of each throughput
 * workload, a line each, under the paths' table, as @so (--user) asks
 */
int mode_design__lines(struct mode_run *m, const struct session_opts *so);
/* mode__fail - one line on stderr, every output begun removed: @status back */
int mode__fail(struct mode_run *m, int status, const char *msg);

#endif /* WAKEPROBE_MODE_H */
