// SPDX-License-Identifier: GPL-2.0
/* attach_session.c - a live run of attach mode: the targets, the BPF side, the loop, the end */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "attach_session.h"
#include "collector.h"
#include "launch.h"
#include "parse.h"
#include "proc_tree.h"
#include "run_stacks.h"
#include "runner.h"
#include "targets.h"

/* how long a command gets to end after SIGTERM before SIGKILL */
#define COMMAND_GRACE_MS	500

struct attach_session {
	const struct attach_session_opts *opts;
	const struct attach_session_hooks *hooks;
	struct attach_session_result *res;
	struct collector *collector;
	struct runner runner;
	bool raisers_followed;	/* collector__follow_raisers() was asked */
	uint64_t next_sums_ns;	/* CLOCK_MONOTONIC: the next take of the sums while tracing */
	bool sums_failed;	/* a take failed and said so: the run's tables lack what it did not read */
};

/* woke_by_softirq - is @e the record of a wake a softirq made? */
static bool woke_by_softirq(const struct wp_event *e)
{
	if (e->type == WP_EV_WAKER)
		return e->waker.waker_class == WP_WAKER_SOFTIRQ;
	return e->type == WP_EV_LEAN && !(e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_NAME)) &&
	       (e->lean.flags & WP_LEAN_WAKER_SOFTIRQ);
}

/*
 * keep_mappings - --stacks: a record that names a process whose user
 * stacks may be shown (a thread first seen or renamed, a waker's process)
 * has its mappings kept now, while it lives
 */
static void keep_mappings(struct run_stacks *rs, const struct wp_event *e)
{
	const struct wp_lean *l = &e->lean;

	if (e->type != WP_EV_LEAN)
		return;
	if ((l->flags & (WP_LEAN_NAMES | WP_LEAN_STACKS)) == (WP_LEAN_NAMES | WP_LEAN_STACKS))
		run_stacks__process(rs, (pid_t)e->lean_stacks.waker_tgid, NULL);
	else if ((l->flags & (WP_LEAN_NAME | WP_LEAN_FUTEX_KEY | WP_LEAN_KTHREAD)) == WP_LEAN_NAME)
		run_stacks__process(rs, (pid_t)l->tgid, l->comm);
}

static int on_record(const struct wp_event *e, void *ctx)
{
	struct attach_session *s = ctx;
	struct wp_event resolved;

	/* the first softirq wakeup: who raises them matters from now on (one try) */
	if (!s->raisers_followed && woke_by_softirq(e)) {
		int err;

		s->raisers_followed = true;
		err = collector__follow_raisers(s->collector);
		if (err)
			fprintf(stderr, "wakeprobe: cannot attach to softirq_raise (%s): a softirq is named by its "
				"vector, never by the task that raised it\n", strerror(-err));
	}
	if (s->res->stacks) {
		keep_mappings(s->res->stacks, e);
		e = run_stacks__resolve(s->res->stacks, e, &resolved);
	}
	host_steal__add_event(&s->res->steal, e);
	s->hooks->on_event(e, s->hooks->ctx);
	return 0;
}

/* on_copy - --unwind: a copy of a user stack, kept until its wakeup's record comes */
static void on_copy(const struct wp_stack_copy *copy, void *ctx)
{
	struct attach_session *s = ctx;

	run_stacks__copy(s->res->stacks, copy);
}

/*
 * take_sums - with sums: what grew in them, to the hooks, now (@now_ns 0)
 * or when one is due; a taker between (a service's rendering) makes the
 * next one find less
 */
static void take_sums(struct attach_session *s, uint64_t now_ns)
{
	const struct lean_sums_delta *d;
	int err;

	if (!s->opts->sums || !s->hooks->on_sums || (now_ns && now_ns < s->next_sums_ns))
		return;
	s->next_sums_ns = now_ns + LEAN_SUMS_EVERY_NS;
	err = collector__take_sums(s->collector, s->hooks->cgroup_gone, s->hooks->ctx, &d);
	if (!err) {
		s->hooks->on_sums(d, s->hooks->ctx);
	} else if (err != -ENOENT && !s->sums_failed) {
		s->sums_failed = true;
		fprintf(stderr, "wakeprobe: cannot read the sums of the wakeups (%s): the report lacks the wakeups "
			"summed since\n", strerror(-err));
	}
}

/* pump - hand over what arrived, and say up to when the stream is complete */
static void pump(struct attach_session *s, int timeout_ms)
{
	uint64_t drops = 0, complete_ns = collector__take(s->collector, timeout_ms, &drops);

	s->hooks->on_advance(complete_ns, drops, s->hooks->ctx);
	take_sums(s, collector__now_ns());
}

static int track_command(pid_t pid, void *ctx)
{
	struct attach_session *s = ctx;

	return collector__track(s->collector, pid);
}

int attach_session__check(const struct attach_session_opts *o, char *path, size_t pathlen, char *msg,
			  size_t len)
{
	int err;

	/* first: what it starts must get pids where wakeprobe looks */
	err = collector__check_pid_namespace(o->argv != NULL, msg, len);
	if (err)
		return err;
	for (uint32_t i = 0; i < o->nr_pids; i++) {
		err = targets__check_pid(o->pids[i], msg, len);
		if (err)
			return err;
	}
	if (o->argv) {
		err = targets__find_command(o->argv[0], path, pathlen);
		if (err) {
			snprintf(msg, len, "cannot run '%s': %s", parse__shown(o->argv[0]), err == -EACCES ?
				 "not an executable file" : "no such command (check the name and $PATH)");
			return err;
		}
	}
	return 0;
}

static int start_command(struct attach_session *s, char *msg, size_t len)
{
	const struct attach_session_opts *o = s->opts;
	const char *path = o->command_path;
	int err;

	s->runner.drop_privileges = o->drop_privileges;
	s->runner.uid = o->uid;
	s->runner.gid = o->gid;
	s->runner.capture_stdout = o->capture_stdout;
	s->runner.stdout_fd = o->stdout_fd;
	err = runner__start(&s->runner, path, o->argv, -1, track_command, s);
	if (err) {
		launch__describe_failure(&s->runner, s->collector, path, err, msg, len);
		return err;
	}
	s->res->command_pid = s->runner.pid;
	if (s->hooks->on_command)
		s->hooks->on_command(s->runner.pid, s->hooks->ctx);
	return 0;
}

/* targets_all_gone - every --pid target has exited; counts them into the result */
static bool targets_all_gone(struct attach_session *s)
{
	uint32_t gone = 0;

	for (uint32_t i = 0; i < s->opts->nr_pids; i++)
		gone += !targets__alive(s->opts->pids[i]);
	s->res->targets_exited = gone;
	return s->opts->nr_pids && gone == s->opts->nr_pids;
}

static bool is_target(const struct attach_session_opts *o, pid_t pid)
{
	for (uint32_t i = 0; i < o->nr_pids; i++)
		if (o->pids[i] == pid)
			return true;
	return false;
}

/* in_earlier_tree - does target @i descend from a target listed before it? */
static bool in_earlier_tree(const struct attach_session_opts *o, uint32_t i)
{
	pid_t pid = o->pids[i];

	/* up its parents, as far as /proc says: a chain of processes is short */
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		pid = proc_tree__parent(pid);
		for (uint32_t j = 0; j < i; j++)
			if (o->pids[j] == pid)
				return true;
	}
	return false;
}

/*
 * track_descendants - --pid: the processes the targets forked before the
 * attach, and theirs, traced with them (a server's master forks its
 * workers at its start; the BPF side follows only the forks from now on,
 * and the targets are tracked first, so none falls between). Counted in
 * res->descendants.
 */
static int track_descendants(struct attach_session *s, char *msg, size_t len)
{
	static struct proc_tree t;	/* 9 KiB: not on the stack */
	uint32_t n = 0;
	int err;

	for (uint32_t i = 0; i < s->opts->nr_pids; i++) {
		/* a target in an earlier one's tree: its own were counted with that one's */
		if (in_earlier_tree(s->opts, i))
			continue;
		/* ULLONG_MAX: none of wakeprobe's own children counts as adopted */
		proc_tree__find(&t, s->opts->pids[i], ULLONG_MAX);
		for (size_t k = 0; k < t.n; k++) {
			if (t.zombie[k] || is_target(s->opts, t.pids[k]))
				continue;
			err = collector__track(s->collector, t.pids[k]);
			if (err) {
				snprintf(msg, len, "cannot track pid %d, a child of pid %d: %s", (int)t.pids[k],
					 (int)s->opts->pids[i], strerror(-err));
				return err;
			}
			n++;
		}
	}
	s->res->descendants = n;
	return 0;
}

/*
 * trace_targets - the BPF side loaded for @s's targets and told what to
 * trace: the --pid targets and what they forked before, the cgroups; with
 * --stacks, the mappings of the processes whose stacks it takes
 */
static int trace_targets(struct attach_session *s, struct collector_opts *copts, char *msg, size_t len)
{
	const struct attach_session_opts *o = s->opts;
	struct attach_session_result *res = s->res;
	int err;

	err = collector__open(&s->collector, copts, msg, len);
	if (err)
		return err;
	if (copts->stacks && !(res->stacks = run_stacks__new_with("/proc/kallsyms", &(struct symbolizer_opts){
					       .debuginfod = o->debuginfod }))) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < o->nr_pids; i++)
		run_stacks__process(res->stacks, o->pids[i], NULL);
	run_stacks__follow(res->stacks, s->collector);
	for (uint32_t i = 0; i < o->nr_pids; i++) {
		err = collector__track(s->collector, o->pids[i]);
		if (err) {
			snprintf(msg, len, "cannot track pid %d: %s", (int)o->pids[i], strerror(-err));
			return err;
		}
	}
	err = track_descendants(s, msg, len);
	if (err)
		return err;
	for (uint32_t i = 0; i < o->nr_cgroup_ids; i++) {
		err = collector__trace_cgroup(s->collector, o->cgroup_ids[i]);
		if (err) {
			snprintf(msg, len, "cannot trace cgroup %" PRIu64 ": %s", o->cgroup_ids[i], strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * begin_tracing - tracing begins, and the command starts under it. A
 * signal that came while the BPF side loaded ends the run here, before
 * there is a command, with nothing traced (-EINTR)
 */
static int begin_tracing(struct attach_session *s, char *msg, size_t len)
{
	struct attach_session_result *res = s->res;
	sigset_t saved;
	int err;

	err = launch__begin_whole(&saved, msg, len);
	if (err)
		return err;
	res->trace_start_ns = collector__now_ns();
	host_steal__start(&res->steal, collector__steal(s->collector));
	trace_cost__start(&res->cost, collector__run_stats(s->collector));
	if (s->hooks->on_begin)
		s->hooks->on_begin(res, s->hooks->ctx);
	if (s->opts->argv)
		err = start_command(s, msg, len);
	launch__began(&saved);
	return err;
}

/* trace_until_done - take the ring until the command ends, the targets are gone, time is up or a signal came */
static void trace_until_done(struct attach_session *s)
{
	const struct attach_session_opts *o = s->opts;
	struct attach_session_result *res = s->res;
	uint64_t started_ns = collector__now_ns();

	while (!launch_stop_requested) {
		uint64_t ran_ms;

		pump(s, o->drain_every_ms ? (int)o->drain_every_ms : COLLECTOR_DRAIN_EVERY_MS);
		if (s->hooks->on_tick)
			s->hooks->on_tick(s->collector, s->hooks->ctx);
		if (o->argv && runner__poll(&s->runner)) {
			res->command_exited = true;
			break;
		}
		if (targets_all_gone(s))
			break;
		ran_ms = (collector__now_ns() - started_ns) / 1000000;
		if (o->duration_ms && ran_ms >= o->duration_ms) {
			res->duration_reached = true;
			break;
		}
		if (o->timeout_ms && ran_ms >= o->timeout_ms) {
			res->timed_out = true;
			break;
		}
	}
	if (launch_stop_requested) {
		res->interrupted = true;
		res->stop_signal = launch_stop_requested;
	}
}

/*
 * end_tracing - what wakeprobe started it also ends, with all the command
 * started; the last records handed over, the counters and costs read, the
 * stacks copied before the BPF side goes
 */
static void end_tracing(struct attach_session *s)
{
	struct attach_session_result *res = s->res;
	struct collector_prog_totals totals;

	runner__stop(&s->runner, COMMAND_GRACE_MS);
	res->others_stopped = s->runner.others_stopped;
	res->trace_end_ns = collector__now_ns();
	collector__detach(s->collector);
	collector__drain(s->collector);
	collector__counters(s->collector, &res->counters, &res->drops_total);
	collector__lean_counters(s->collector, &res->lean);
	collector__lean_flight_ns(s->collector, res->lean_flight_ns);
	host_steal__stop(&res->steal, res->counters.steal_bad_cpus);
	collector__prog_totals(s->collector, &totals);
	res->missed_runs = totals.missed_runs;
	trace_cost__stop(&res->cost, totals.counted_runs, totals.runs, totals.run_ns);
	s->hooks->on_advance(res->trace_end_ns, res->drops_total, s->hooks->ctx);
	/* the last of the sums, after the last record: the programs are detached, nothing adds to them */
	take_sums(s, 0);
	/* the stacks map goes with the BPF side: its stacks are copied first, to be named after */
	if (res->stacks) {
		run_stacks__refresh(res->stacks);
		run_stacks__take(res->stacks, s->collector);
	}
	targets_all_gone(s);
	if (s->opts->argv) {
		res->command_status = s->runner.status;
		runner__describe_exit(&s->runner, res->command_exit, sizeof(res->command_exit));
	}
}

int attach_session__run(const struct attach_session_opts *o, const struct attach_session_hooks *hooks,
			struct attach_session_result *res, char *msg, size_t len)
{
	struct attach_session s = { .opts = o, .hooks = hooks, .res = res, .runner = { .pid = -1 } };
	struct collector_opts copts = {
		.verbose = o->verbose,
		.ringbuf_bytes = o->ringbuf_bytes,
		.attach = true,
		.lean = o->lean,
		.syscall_phases = o->syscall_phases,
		.lean_flight_ns = o->lean_flight_ns,
		.lean_flight_adaptive = o->lean_flight_adaptive,
		.lean_softirqs = o->lean_softirqs,
		.stacks = o->stacks,
		.unwind = o->unwind,
		.unwind_per_s = o->unwind_per_s,
		.chains = o->chains,
		.trace_all = o->all,
		.trace_cgroups = o->nr_cgroup_ids > 0,
		.cgroups = o->cgroups,
		.sums = o->sums,
		.run_stats = true,
		.fn = on_record,
		.copy_fn = on_copy,
		.ctx = &s,
	};
	int err;

	memset(res, 0, sizeof(*res));
	run_meta__now(&res->meta);
	host_steal__init(&res->steal, HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS);
	err = trace_targets(&s, &copts, msg, len);
	if (!err)
		err = begin_tracing(&s, msg, len);
	if (!err) {
		trace_until_done(&s);
		end_tracing(&s);
	}
	runner__stop(&s.runner, 0);
	run_stacks__follow(res->stacks, NULL);
	collector__close(s.collector);
	if (err)
		attach_session__release(res);
	return err;
}

void attach_session__release(struct attach_session_result *res)
{
	run_stacks__free(res->stacks);
	res->stacks = NULL;
}
