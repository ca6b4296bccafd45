/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_session.h - one live run of attach mode: trace processes that are
 * already running (--pid) or a command wakeprobe starts (-- COMMAND), until
 * the command ends, every target has exited, --duration or --timeout runs
 * out, or Ctrl-C; every kernel record goes to the caller as it arrives.
 */
#ifndef WAKEPROBE_ATTACH_SESSION_H
#define WAKEPROBE_ATTACH_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>
#include "host_steal.h"
#include "lean_sums.h"
#include "run_meta.h"
#include "trace_cost.h"
#include "wakeprobe.h"

struct attach_session_result;
struct collector;

struct attach_session_opts {
	const int32_t *pids;		/* --pid: processes already running */
	uint32_t nr_pids;
	char *const *argv;		/* -- COMMAND: started here, traced from its first instruction */
	const char *command_path;	/* ... the executable, as attach_session__check() found it */
	uint64_t duration_ms;		/* end after this long; 0: when the targets do */
	uint64_t timeout_ms;		/* as for workloads: end, and stop the command; 0: none */
	uint32_t ringbuf_bytes;
	bool lean;			/* the lean engine: one record per wakeup (attach_lean.h) */
	/* --syscall-phases: time the waker's syscall and the wakee's return (collector.h) */
	bool syscall_phases;
	uint64_t lean_flight_ns;	/* ... whose wakeups this slow bring their CPU's flight records; 0: off */
	bool lean_flight_adaptive;	/* ... on, its threshold the running p99 instead (lean_adapt.h) */
	bool lean_softirqs;		/* ... on, and keeping softirqs too (--softirqs) */
	bool stacks;			/* the lean engine's --stacks: each wakeup's stacks (collector.h) */
	bool unwind;			/* ... and copies of their user stacks to unwind (--unwind) */
	uint32_t unwind_per_s;
	bool debuginfod;		/* ... named with debug files from debuginfod servers too (symbolizer.h) */
	bool chains;			/* the lean engine's --chains: each wakeup's chain of wakers (core/chain.h) */
	/* lean: --all, every task; --cgroup, the tasks of these cgroups (v2) and below; each with cgroups */
	bool all;
	const uint64_t *cgroup_ids;
	uint32_t nr_cgroup_ids;
	const char *cgroups_given;	/* --cgroup as given, for the reports */
	bool cgroups;			/* each wakeup's cgroups (--listen, and with the two above) */
	bool sums;			/* ... summed in the kernel but the slow ones (--listen; hooks' on_sums) */
	uint32_t drain_every_ms;	/* how often the ring is taken; 0: COLLECTOR_DRAIN_EVERY_MS */
	bool verbose;
	bool drop_privileges;		/* run the command as uid:gid */
	uid_t uid;
	gid_t gid;
	/* the command writes its standard output into @stdout_fd, not wakeprobe's */
	bool capture_stdout;
	int stdout_fd;
};

/* where the session hands what it traces: attach_run.c, which feeds the analysis */
struct attach_session_hooks {
	/* optional: the command has started as @pid, under tracing; no record of it is handed over before */
	void (*on_command)(pid_t pid, void *ctx);
	/* optional: tracing has begun (@res holds the machine and trace_start_ns), no record is in yet */
	void (*on_begin)(const struct attach_session_result *res, void *ctx);
	/* every record, in ring-buffer order */
	void (*on_event)(const struct wp_event *e, void *ctx);
	/* every record stamped before @complete_ns has been handed over; @drops: the drop counter then */
	void (*on_advance)(uint64_t complete_ns, uint64_t drops, void *ctx);
	/* optional: after each on_advance while tracing, with the BPF side, for what a service does between */
	void (*on_tick)(struct collector *c, void *ctx);
	/*
	 * with sums (a service): what grew in them, about once a second while
	 * it traces (LEAN_SUMS_EVERY_NS) and once at its end, after the last
	 * record; the wakeups in them came as no record
	 */
	void (*on_sums)(const struct lean_sums_delta *d, void *ctx);
	/* ... optional: is cgroup @id gone? Its sums' entries are deleted after their last reading */
	bool (*cgroup_gone)(uint64_t id, void *ctx);
	void *ctx;
};

struct attach_session_result {
	struct run_meta meta;
	uint64_t trace_start_ns;	/* CLOCK_MONOTONIC */
	uint64_t trace_end_ns;
	struct wp_counters counters;
	struct wp_lean_counters lean;	/* the lean engine: the wakes that wrote no record */
	uint64_t lean_flight_ns[WP_SLOW_KINDS];	/* the lean engine's flight thresholds at the end; 0: none */
	uint64_t drops_total;
	/* CLOCK_MONOTONIC: the first and the last advance that found the drop counter grown; 0: none */
	uint64_t drops_first_ns;
	uint64_t drops_last_ns;
	uint64_t missed_runs;		/* BPF program runs the kernel skipped */
	uint32_t targets_exited;	/* --pid targets gone before the end */
	uint32_t descendants;		/* --pid: processes descending from the targets, traced with them */
	pid_t command_pid;		/* -- COMMAND: its pid; 0 without one */
	bool command_exited;		/* on its own, before the run ended */
	int command_status;		/* waitpid() status */
	char command_exit[96];		/* "exited with status 0", "killed by SIGTERM" */
	bool interrupted;		/* SIGINT, SIGTERM or SIGHUP */
	int stop_signal;		/* ... which one; 0 in a recording from before it was kept */
	uint32_t others_stopped;	/* processes the command started that were still running, and stopped */
	bool timed_out;			/* --timeout */
	bool duration_reached;		/* --duration */
	struct host_steal steal;	/* the host's steal on every CPU over the run */
	struct trace_cost cost;		/* what tracing cost */
	/* --stacks: the stacks, and the mappings of the processes that took them; free with attach_session__release() */
	struct run_stacks *stacks;
};

/*
 * attach_session__check - what can be found wrong with @o's targets before
 * anything is loaded: a wakeprobe in a pid namespace of its own, a --pid
 * that is not a live process wakeprobe may trace, a command that cannot be
 * run (its executable goes into @path). 0, or a negative errno and @msg.
 */
int attach_session__check(const struct attach_session_opts *o, char *path, size_t pathlen, char *msg,
			  size_t len);

/*
 * attach_session__run - trace @o's targets, which attach_session__check()
 * passed, to the end, every record handed to @hooks. Returns 0 when there is a result to report (@res says
 * how the run ended), or a negative errno with a one-line reason in @msg
 * (nothing was traced, nothing is left running): -EINTR when a signal came
 * before tracing began.
 */
int attach_session__run(const struct attach_session_opts *o, const struct attach_session_hooks *hooks,
			struct attach_session_result *res, char *msg, size_t len);
/* attach_session__release - what attach_session__run() left in @res for the report (its stacks) */
void attach_session__release(struct attach_session_result *res);

#endif /* WAKEPROBE_ATTACH_SESSION_H */
