// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end, every wakeup path under tracing: every sample accounted for,
 * the phases of each complete one adding up, and the bounding events the
 * path promises (docs/phases.md) actually the ones found. Needs root and
 * BTF; elsewhere these tests skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include "helpers.h"
#include "lean_adapt.h"

/* what a path's complete samples must have been bounded by */
struct path_case {
	char name[16];
	long notify_nr;		/* -1: no notify syscall (spin) */
	long wait_nr;		/* the wait's syscall, or the signal for a handler */
	unsigned int wait_end_type;
	int futex_private;	/* futex paths: 1 private ops, 0 shared, -1 n/a */
};

static struct path_case cases[] = {
	{ "eventfd", SYS_write, SYS_read, WP_EV_SYS_EXIT, -1 },
	{ "pipe", SYS_write, SYS_read, WP_EV_SYS_EXIT, -1 },
	{ "futex", SYS_futex, SYS_futex, WP_EV_SYS_EXIT, 1 },
	{ "sem", SYS_futex, SYS_futex, WP_EV_SYS_EXIT, 1 },
	{ "cond", SYS_futex, SYS_futex, WP_EV_SYS_EXIT, 1 },
	{ "shmsem", SYS_futex, SYS_futex, WP_EV_SYS_EXIT, 0 },
	{ "sigwait", SYS_tgkill, SYS_rt_sigtimedwait, WP_EV_SYS_EXIT, -1 },
	{ "signal-handler", SYS_tgkill, SIGUSR1, WP_EV_SIGNAL_DELIVER, -1 },
	{ "spin", -1, -1, 0, -1 },
	/* the new thread's own exit of its creator's clone3 ends its "wait" */
	{ "thread-start", SYS_clone3, SYS_clone3, WP_EV_SYS_EXIT, -1 },
};

ParameterizedTestParameters(paths, paced)
{
	return cr_make_param_array(struct path_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTestParameters(paths, back_to_back)
{
	return cr_make_param_array(struct path_case, cases, sizeof(cases) / sizeof(cases[0]));
}

static struct run_result result;

static void assert_bounded_as_promised(const struct path_case *pc, const struct sample_result *r)
{
	unsigned int cmd = (unsigned int)r->notify_arg2 & FUTEX_CMD_MASK;

	cr_assert_eq(r->notify_nr, pc->notify_nr, "%s seq %lu: notified by syscall %ld, want %ld", pc->name,
		     r->sample.seq, r->notify_nr, pc->notify_nr);
	cr_assert_eq(r->wait_end_type, pc->wait_end_type, "%s: wait ended by event type %u, want %u", pc->name,
		     r->wait_end_type, pc->wait_end_type);
	cr_assert_eq(r->wait_end_nr, pc->wait_nr, "%s: wait ended by %ld, want %ld", pc->name, r->wait_end_nr,
		     pc->wait_nr);
	if (pc->futex_private < 0)
		return;
	cr_assert(cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET, "%s: notify op %#lx does not wake", pc->name,
		  r->notify_arg2);
	cr_assert_eq(!!(r->notify_arg2 & FUTEX_PRIVATE_FLAG), pc->futex_private, "%s: op %#lx, want %s",
		     pc->name, r->notify_arg2, pc->futex_private ? "private" : "shared");
}

/* assert_accounted - the checks both tests make on a traced run of @n samples */
static void assert_accounted(const struct path_case *pc, const struct checks *c, uint64_t n)
{
	const struct aggregate *a = &result.agg;

	cr_assert_not(result.workload_failed, "%s: workload failed: %s", pc->name, result.workload_error);
	cr_assert_eq(result.samples_sent, n, "%s: %lu of %lu samples sent", pc->name, result.samples_sent, n);
	cr_assert_eq(c->seen, n, "%s: merged %lu of %lu samples", pc->name, c->seen, n);
	cr_assert_eq(c->seq_out_of_order, 0);
	cr_assert_eq(a->by_label[LABEL_COMPLETE] + labelled(a), n, "%s: complete + labelled != sent", pc->name);
	cr_assert_eq(result.drops_total, 0, "%s: %lu events dropped", pc->name, result.drops_total);
	cr_assert_eq(result.missed_runs, 0, "%s: %lu BPF runs skipped", pc->name, result.missed_runs);
	cr_assert_eq(a->by_label[LABEL_LOST_EVENTS], 0);
	cr_assert_eq(a->by_label[LABEL_OUT_OF_WINDOW], 0);
	cr_assert_eq(a->by_label[LABEL_COALESCED], 0);
	/*
	 * The one gap this kernel shows without a drop (docs/phases.md): rare,
	 * but it comes in bursts when the host is busy.
	 */
	cr_assert_eq(a->by_label[LABEL_MISSING_EVENT], a->missing_by_mark[MARK_SWITCH_IN], "%s: %s", pc->name,
		     describe_missing(a->by_label[LABEL_MISSING_EVENT], &c->first_missing));
	cr_assert_leq(a->by_label[LABEL_MISSING_EVENT], n / 20 + 3, "%s: %s", pc->name,
		      describe_missing(a->by_label[LABEL_MISSING_EVENT], &c->first_missing));
	cr_assert_eq(c->negative_phase, 0);
	cr_assert_eq(c->sum_off, 0, "%s: worst phase-sum error %ld ns", pc->name, c->worst_sum_error);
	if (pc->notify_nr < 0) {
		cr_assert_eq(c->phased, 0, "spin has no kernel phases");
		cr_assert_eq(c->waiter_syscalls, 0, "%s: the spinner made %lu syscalls inside its waits", pc->name,
			     c->waiter_syscalls);
		cr_assert_eq(a->wait_cpu.count, n, "every spin sample has its waiter CPU time");
		cr_assert_eq(a->by_label[LABEL_NO_SLEEP], 0, "a spinner never sleeps, so never no_sleep");
	} else {
		cr_assert_eq(c->phased, c->complete, "%s: a complete sample has phases", pc->name);
		cr_assert_eq(a->by_label[LABEL_PREEMPTED], 0, "preempted is for spinning waiters");
	}
}

ParameterizedTest(struct path_case *pc, paths, paced, .timeout = 120)
{
	const uint64_t n = 300;
	struct checks c = {};
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_workload(pc->name, true, n, 500, &c, &result, msg), 0, "%s: %s", pc->name, msg);
	assert_accounted(pc, &c, n);
	/* paced, the wakee is asleep at nearly every notify */
	cr_assert_geq(c.complete, n * 8 / 10, "%s: only %lu of %lu complete", pc->name, c.complete, n);
	if (pc->notify_nr >= 0) {
		assert_bounded_as_promised(pc, &c.first_phased);
		assert_bounded_as_promised(pc, &c.last_phased);
	}
}

ParameterizedTest(struct path_case *pc, paths, back_to_back, .timeout = 120)
{
	const uint64_t n = 2000;
	struct checks c = {};
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_workload(pc->name, true, n, 0, &c, &result, msg), 0, "%s: %s", pc->name, msg);
	/* back to back the wakee often has not slept yet: labelled, never forced into the table */
	assert_accounted(pc, &c, n);
}

ParameterizedTestParameters(paths, lean_paced)
{
	return cr_make_param_array(struct path_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTestParameters(paths, lean_back_to_back)
{
	return cr_make_param_array(struct path_case, cases, sizeof(cases) / sizeof(cases[0]));
}

/* run_lean - @name traced by the lean engine, every sample checked into @c */
static int run_lean(const char *name, uint64_t n, uint64_t interval_us, struct checks *c, char msg[256])
{
	struct test_session s = test_session(name, true, n, interval_us, c);

	s.cfg.lean = true;
	return session__run(&s.cfg, &s.opts, &result, msg, 256);
}

/* assert_lean - what a lean run adds to the accounting: one record per wakeup and nothing it does not trace */
static void assert_lean(const struct path_case *pc, const struct checks *c)
{
	const struct aggregate *a = &result.agg;

	cr_assert(a->lean, "%s: the aggregate says lean", pc->name);
	cr_assert_eq(a->causes.explained_total_ns, 0, "%s: nothing is explained by the lean engine", pc->name);
	cr_assert_eq(result.counters.dropped[WP_EV_SYS_ENTER] + result.counters.dropped[WP_EV_SYS_EXIT], 0);
	cr_assert_eq(result.merge.late_events, 0, "%s: %lu records came after their time", pc->name,
		     result.merge.late_events);
	if (pc->notify_nr >= 0) {
		/*
		 * One record a wakeup, and a sample has two or three: its own, the
		 * waker's from its pacing sleep, and a third on some paths (the
		 * creator's from pthread_join(), cond's wakee waiting on the mutex
		 * when the machine is slow), a few more under ASan (910 for 300
		 * thread starts); the full engine writes 15 (bench/NOTES.md).
		 */
		cr_assert_leq(result.merge.events, 4 * c->seen + 8, "%s: %lu records for %lu samples", pc->name,
			      result.merge.events, c->seen);
		/* the workload's syscalls split the notify and the resume, as in the full engine */
		for (int k = 0; k < NR_PHASES; k++)
			cr_assert_eq(a->phase[k].count, c->complete, "%s: %s", pc->name, wakeup__phase_name(k));
		cr_assert_gt(a->phase[PHASE_NOTIFY_USER].sum, 0, "%s", pc->name);
		cr_assert_gt(a->phase[PHASE_RESUME_USER].sum, 0, "%s", pc->name);
	}
}

ParameterizedTest(struct path_case *pc, paths, lean_paced, .timeout = 120)
{
	const uint64_t n = 300;
	struct checks c = {};
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_lean(pc->name, n, 500, &c, msg), 0, "%s: %s", pc->name, msg);
	assert_accounted(pc, &c, n);
	assert_lean(pc, &c);
	cr_assert_geq(c.complete, n * 8 / 10, "%s: only %lu of %lu complete", pc->name, c.complete, n);
}

ParameterizedTest(struct path_case *pc, paths, lean_back_to_back, .timeout = 120)
{
	const uint64_t n = 2000;
	struct checks c = {};
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_lean(pc->name, n, 0, &c, msg), 0, "%s: %s", pc->name, msg);
	assert_accounted(pc, &c, n);
	assert_lean(pc, &c);
}

/* the phases of every complete sample of a run, the first 1000 */
struct phase_values {
	size_t n;
	int64_t v[NR_PHASES][1000];
};

static void collect_phases(const struct sample_result *r, void *ctx)
{
	struct phase_values *f = ctx;

	if (r->label != LABEL_COMPLETE || f->n == 1000)
		return;
	for (int k = 0; k < NR_PHASES; k++)
		f->v[k][f->n] = r->phase_ns[k];
	f->n++;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t median_of(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	return v[n / 2];
}

/*
 * side_by_side - one full and one lean run of @name; the first phase whose
 * medians disagree, or -1, and in *@lean_higher which side was higher
 */
static int side_by_side(const char *name, char disagreement[160], bool *lean_higher)
{
	static struct phase_values full, lean;
	struct checks cf = { .hook = collect_phases, .hook_ctx = &full },
		      cl = { .hook = collect_phases, .hook_ctx = &lean };
	char msg[256] = "";

	full.n = lean.n = 0;
	cr_assert_eq(run_workload(name, true, 400, 1000, &cf, &result, msg), 0, "%s: %s", name, msg);
	cr_assert_eq(run_lean(name, 400, 1000, &cl, msg), 0, "%s: %s", name, msg);
	cr_assert_geq(full.n, 300, "%s", name);
	cr_assert_geq(lean.n, 300, "%s", name);
	for (int k = 0; k < NR_PHASES; k++) {
		int64_t f = median_of(full.v[k], full.n), l = median_of(lean.v[k], lean.n);
		int64_t d = f > l ? f - l : l - f, big = f > l ? f : l;

		cr_log_info("%s: %-14s full %8.2f us  lean %8.2f us", name, wakeup__phase_name(k), f / 1e3, l / 1e3);
		if (d > 10000 && d > big / 2) {
			snprintf(disagreement, 160, "%s: full median %ld ns, lean %ld ns", wakeup__phase_name(k), f, l);
			*lean_higher = l > f;
			return k;
		}
	}
	return -1;
}

/* the paths with kernel phases: all but spin */
ParameterizedTestParameters(paths, lean_phases_agree_with_the_full_modes_by_their_medians)
{
	static struct path_case kernel[sizeof(cases) / sizeof(cases[0])];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (cases[i].notify_nr >= 0)
			kernel[n++] = cases[i];
	return cr_make_param_array(struct path_case, kernel, n);
}

/*
 * The same kind of run, full and lean: each of the six phases against the
 * same phase in the full engine, by their medians. Tracing itself moves
 * them a little and the machine moves them more, so only a gross
 * disagreement counts, and only when it comes back the same: a stamp
 * taken at the wrong event is off by a phase, the same way, every time; a
 * burst of the host's steal or a neighbour's load moves a phase only in the
 * run it hits, either way (thread-start's runq_wait came out 23 us full
 * against 6 us lean, then 7 us against 21 us, on a loaded machine).
 */
ParameterizedTest(struct path_case *pc, paths, lean_phases_agree_with_the_full_modes_by_their_medians,
		  .timeout = 180)
{
	char why[160] = "";
	int runs = 0, same = 0, phase, last_phase = -1;
	bool lean_higher = false, last_higher = false;

	skip_unless_traceable();
	/* at most six runs: the machine's noise, whichever way it goes, does not make a failure */
	while (runs++ < 6 && (phase = side_by_side(pc->name, why, &lean_higher)) >= 0) {
		same = phase == last_phase && lean_higher == last_higher ? same + 1 : 1;
		last_phase = phase;
		last_higher = lean_higher;
		if (same == 3)
			break;
		cr_log_info("%s: run %d: %s; again", pc->name, runs, why);
	}
	cr_assert_lt(same, 3, "%s, three times in a row the same way: %s", pc->name, why);
}

/* new_wakees - a hook: each thread-start sample's wakee is another thread than the one before */
struct new_wakees {
	uint32_t last;
	uint64_t repeated;
	uint64_t cpus[2];	/* where the complete ones were placed: the creator's CPU 0, or CPU 1 */
};

static void count_new_wakees(const struct sample_result *r, void *ctx)
{
	struct new_wakees *w = ctx;

	w->repeated += r->sample.wakee_tid == w->last;
	w->last = r->sample.wakee_tid;
	if (r->label == LABEL_COMPLETE && r->target_cpu < 2)
		w->cpus[r->target_cpu]++;
}

Test(paths, a_threads_start_has_one_record_for_waking_and_wakeup_and_is_never_no_sleep, .timeout = 120)
{
	const uint64_t n = 300;
	struct new_wakees w = {};
	struct checks c = { .hook = count_new_wakees, .hook_ctx = &w };
	const struct aggregate *a = &result.agg;
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_workload("thread-start", true, n, 500, &c, &result, msg), 0, "%s", msg);
	cr_assert_eq(w.repeated, 0, "a new thread each time");
	cr_assert_eq(a->by_label[LABEL_NO_SLEEP] + a->by_label[LABEL_WOKEN_EARLY], 0,
		     "a thread being made cannot have been awake already");
	cr_assert_geq(c.complete, n * 9 / 10, "only %lu of %lu complete", c.complete, n);
	cr_assert_eq(a->phase[PHASE_WAKE_ENQUEUE].max, 0, "sched_wakeup_new is the waking and the wakeup");
	cr_assert_gt(a->phase[PHASE_NOTIFY_KERNEL].min, 0, "clone3 does work before it queues the thread");
	cr_assert_eq(w.cpus[0] + w.cpus[1], c.complete, "placed on one of the two CPUs it may use");
	cr_log_info("%lu complete; the kernel placed %lu on the creator's CPU and %lu on the other", c.complete,
		    w.cpus[0], w.cpus[1]);
}

/*
 * what the flight recorder explained: the samples it reached, wake_enqueue +
 * runq_wait by cause, and of the phases around them, the notify (the
 * waker's CPU's records) and resume_kernel (the wakee's up to its exit)
 * when they came, and never resume_user, which no record reaches
 */
struct flight_check {
	uint64_t complete, explained, sums_off, notify_explained, resume_user_explained;
	int64_t waiting_ns, waiting_unexplained_ns;
};

static void check_flight(const struct sample_result *r, void *ctx)
{
	struct flight_check *f = ctx;

	if (r->label != LABEL_COMPLETE)
		return;
	f->complete++;
	if (!r->lean_flight)
		return;
	f->explained++;
	for (int k = 0; k < NR_PHASES; k++) {
		int64_t sum = 0;

		for (int c = 0; c < NR_CAUSES; c++)
			sum += r->why.by_phase_cause[k][c];
		f->sums_off += sum != r->phase_ns[k];
		if (k == PHASE_WAKE_ENQUEUE || k == PHASE_RUNQ_WAIT) {
			f->waiting_ns += r->phase_ns[k];
			f->waiting_unexplained_ns += r->why.by_phase_cause[k][CAUSE_UNEXPLAINED];
		}
	}
	f->notify_explained += r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_UNEXPLAINED] !=
			       r->phase_ns[PHASE_NOTIFY_KERNEL];
	f->resume_user_explained += r->why.by_phase_cause[PHASE_RESUME_USER][CAUSE_UNEXPLAINED] !=
				    r->phase_ns[PHASE_RESUME_USER];
}

/*
 * The lean engine with --threshold-us 1: every wake brings its CPU's flight records,
 * which split wake_enqueue and runq_wait (an idle target CPU, the idle task
 * on its way, another task), and its waker's CPU's, which split its notify;
 * nothing reaches resume_user; every phase adds up.
 */
Test(paths, lean_flight_records_explain_the_wait_for_the_cpu_and_nothing_else, .timeout = 120)
{
	struct flight_check f = {};
	struct checks c = { .hook = check_flight, .hook_ctx = &f };
	struct test_session s = test_session("eventfd", true, 300, 1000, &c);
	char msg[256] = "";

	skip_unless_traceable();
	s.cfg.lean = true;
	s.opts.analysis.outliers = 5;
	s.opts.analysis.outlier_threshold_ns = 1000;
	cr_assert_eq(session__run(&s.cfg, &s.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(result.drops_total, 0, "%lu records dropped", result.drops_total);
	cr_assert_geq(f.complete, 250);
	cr_assert_eq(f.explained, f.complete, "every wake took a microsecond: %lu of %lu explained", f.explained,
		     f.complete);
	cr_assert_eq(f.sums_off, 0, "a phase's causes do not add up to it");
	cr_assert_eq(f.resume_user_explained, 0, "resume_user, which no record reaches, was explained");
	cr_assert_lt(f.waiting_unexplained_ns, f.waiting_ns / 2, "%ld of %ld ns of wake_enqueue and runq_wait "
		     "unexplained", f.waiting_unexplained_ns, f.waiting_ns);
	/* paced, the waker's CPU writes a few records between a notify and the next: they are still there */
	cr_assert_geq(f.notify_explained, f.explained / 2, "the notify of %lu of %lu explained", f.notify_explained,
		      f.explained);
	cr_assert_eq(result.merge.late_events, 0);
}

/*
 * The lean engine without --threshold-us: the flight threshold follows the running
 * p99 of waking to switch-in, so once 200 wakeups are counted only about
 * the slowest 1% bring their records, and the run says where it ended.
 */
Test(paths, lean_flight_records_without_a_threshold_come_with_about_the_slowest_percent, .timeout = 120)
{
	struct flight_check f = {};
	struct checks c = { .hook = check_flight, .hook_ctx = &f };
	struct test_session s = test_session("eventfd", true, 5000, 200, &c);
	char msg[256] = "";

	skip_unless_traceable();
	s.cfg.lean = true;
	s.opts.analysis.outliers = 5;
	cr_assert_eq(session__run(&s.cfg, &s.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(result.drops_total, 0, "%lu records dropped", result.drops_total);
	cr_assert(result.lean_flight_adaptive);
	/* the wakee's wakes are a thread's: 5000 of them, enough for its p99 */
	cr_assert(result.lean_flight_ns[WP_SLOW_THREAD] > 1000 && result.lean_flight_ns[WP_SLOW_THREAD] != LEAN_ADAPT_NONE,
		  "threshold %lu ns", result.lean_flight_ns[WP_SLOW_THREAD]);
	cr_log_info("%lu of %lu complete wakeups explained, over %lu ns at the end", f.explained, f.complete,
		    result.lean_flight_ns[WP_SLOW_THREAD]);
	cr_assert_gt(f.explained, 0, "none of the slowest was explained");
	/*
	 * The slowest few, not the bulk: the p99 is of every wakeup so far, so
	 * in a run whose wakeups grow slower it lags them (1.5% explained on
	 * the plain build, 12% once under ASan, 590 of 4994)
	 */
	cr_assert_leq(f.explained, f.complete / 4, "%lu of %lu explained: not the slowest few", f.explained,
		      f.complete);
	cr_assert_eq(f.sums_off, 0, "a phase's causes do not add up to it");
	cr_assert_eq(f.resume_user_explained, 0, "resume_user, which no record reaches, was explained");
}
