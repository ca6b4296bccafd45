/* SPDX-License-Identifier: GPL-2.0 */
/* test_merger.c - Criterion tests for the merger: samples joined with kernel events, split into phases */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "events.h"
#include "merger.h"

/*
 * The synthetic eventfd path: the waker (WAKER on WAKER_CPU) writes EFD, the
 * wakee (WAKEE, last ran on WAKEE_CPU) is blocked in read(EFD). OTHER is an
 * unrelated task that shows up in the same trace.
 */
#define WAKER		1001u
#define WAKEE		1002u
#define OTHER		1003u
#define IDLE_TID	0u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define SPARE_CPU	2u
#define EFD		5
#define OTHER_FD	7
#define NR_READ		0
#define NR_WRITE	1
#define NR_EPOLL_WAIT	232
#define TASK_INTERRUPTIBLE 1u
#define SLACK_NS	200u

#define T0		1000000000ull	/* 1 s of uptime: nothing sits near zero */
#define SAMPLE_GAP	100000ull	/* 100 us between consecutive notifies */

/* offsets from t_notify of every stamp on the standard path */
#define OFF_ENTER	300
#define OFF_WAKING	1100
#define OFF_WAKER_EXIT	1500
#define OFF_WAKEUP	1900
#define OFF_SWITCH_IN	5900
#define OFF_WAIT_EXIT	6600
#define OFF_WOKEN	6850

/* after taking t_woken the wakee reads again and blocks: read entry, then the switch-out */
#define OFF_REARM_ENTER	300
#define BLOCK_AFTER_ENTER 600

/* ---------------------------------------------------------------- fixture */

#define KEPT_MAX	64

/* what the callback saw: the first KEPT_MAX results in full, counters over all of them */
struct collected {
	struct sample_result r[KEPT_MAX];
	size_t n;
	size_t by_label[NR_LABELS];
	uint64_t last_seq;
	size_t out_of_order;		/* seq not above the previous one: reordered or repeated */
	size_t not_next;		/* seq not exactly previous + 1 */
	size_t sum_mismatch;		/* complete, but phases do not add up to total */
	uint64_t last_lost_seq;
	uint64_t first_complete_seq;
	bool expect_standard;		/* every complete result should have the standard phases */
	size_t standard_mismatch;
};

static const int64_t standard_phases[NR_PHASES] = {
	[PHASE_NOTIFY_USER] = OFF_ENTER,
	[PHASE_NOTIFY_KERNEL] = OFF_WAKING - OFF_ENTER,
	[PHASE_WAKE_ENQUEUE] = OFF_WAKEUP - OFF_WAKING,
	[PHASE_RUNQ_WAIT] = OFF_SWITCH_IN - OFF_WAKEUP,
	[PHASE_RESUME_KERNEL] = OFF_WAIT_EXIT - OFF_SWITCH_IN,
	[PHASE_RESUME_USER] = OFF_WOKEN - OFF_WAIT_EXIT,
};

static void collect(const struct sample_result *r, void *ctx)
{
	struct collected *c = ctx;
	int64_t sum = 0;
	int k;

	if (c->n < KEPT_MAX)
		c->r[c->n] = *r;
	c->n++;
	if (r->label < NR_LABELS)
		c->by_label[r->label]++;
	if (r->sample.seq <= c->last_seq)
		c->out_of_order++;
	if (r->sample.seq != c->last_seq + 1)
		c->not_next++;
	c->last_seq = r->sample.seq;
	if (r->label == LABEL_LOST_EVENTS)
		c->last_lost_seq = r->sample.seq;
	if (r->label != LABEL_COMPLETE)
		return;
	if (!c->first_complete_seq)
		c->first_complete_seq = r->sample.seq;
	for (k = 0; k < NR_PHASES; k++)
		sum += r->phase_ns[k];
	if (sum != r->total_ns)
		c->sum_mismatch++;
	if (c->expect_standard && memcmp(r->phase_ns, standard_phases, sizeof(standard_phases)))
		c->standard_mismatch++;
}

static const struct merger_config eventfd_cfg = {
	.notify_syscalls = { { NR_WRITE, -1, -1, -1 } },
	.wait_syscalls = { { NR_READ, -1, -1, -1 } },
	.notify_fd = EFD,
	.wait_fd = EFD,
	.clock_slack_ns = SLACK_NS,
};

/* Each Criterion test runs in its own process: one static merger, rebuilt by the fixture. */
static struct merger *m;
static struct collected got;

static void setup(void)
{
	memset(&got, 0, sizeof(got));
	m = merger__new(&eventfd_cfg, collect, &got);
	cr_assert_not_null(m, "merger__new failed");
}

static void teardown(void)
{
	merger__free(m);
	m = NULL;
}

TestSuite(merge, .init = setup, .fini = teardown);

/* ---------------------------------------------------------------- builders */

static void add(struct wp_event e)
{
	merger__add_event(m, &e);
}

/* the stamps of one wakeup; a zero stamp means that event never arrives */
struct path {
	uint64_t notify;
	uint64_t enter;		/* waker: write(EFD) entry */
	uint64_t waking;
	uint64_t waker_exit;	/* waker: write returns */
	uint64_t wakeup;
	uint64_t switch_in;
	uint64_t wait_exit;	/* wakee: read returns */
	uint64_t woken;
	uint32_t target_cpu;
	uint64_t target_idle_since;
};

static struct path standard_path(uint64_t t_notify)
{
	return (struct path){
		.notify = t_notify,
		.enter = t_notify + OFF_ENTER,
		.waking = t_notify + OFF_WAKING,
		.waker_exit = t_notify + OFF_WAKER_EXIT,
		.wakeup = t_notify + OFF_WAKEUP,
		.switch_in = t_notify + OFF_SWITCH_IN,
		.wait_exit = t_notify + OFF_WAIT_EXIT,
		.woken = t_notify + OFF_WOKEN,
		.target_cpu = WAKEE_CPU,
	};
}

#define PATH_EVENTS	6

static size_t path_events(const struct path *p, uint32_t drops, struct wp_event *out)
{
	size_t n = 0, i;

	if (p->enter)
		out[n++] = ev_sys_enter(p->enter, WAKER_CPU, WAKER, NR_WRITE, EFD);
	if (p->waking)
		out[n++] = ev_waking(p->waking, WAKER_CPU, WAKER, WAKEE, p->target_cpu, p->target_idle_since);
	if (p->waker_exit)
		out[n++] = ev_sys_exit(p->waker_exit, WAKER_CPU, WAKER, NR_WRITE, 8);
	if (p->wakeup)
		out[n++] = ev_wakeup(p->wakeup, p->target_cpu, IDLE_TID, WAKEE, p->target_cpu);
	if (p->switch_in)
		out[n++] = ev_switch(p->switch_in, p->target_cpu, IDLE_TID, WAKEE, 0, 0);
	if (p->wait_exit)
		out[n++] = ev_sys_exit(p->wait_exit, p->target_cpu, WAKEE, NR_READ, 8);
	for (i = 0; i < n; i++)
		out[i].drops = drops;
	return n;
}

/* emit_path_with - add a path's events and @extra ones, all in time order */
static void emit_path_with(const struct path *p, uint32_t drops, const struct wp_event *extra, size_t nr_extra)
{
	struct wp_event evs[PATH_EVENTS + 16];
	size_t n, i, j;

	cr_assert_leq(nr_extra, 16);
	n = path_events(p, drops, evs);
	for (i = 0; i < nr_extra; i++) {
		evs[n] = extra[i];
		evs[n++].drops = drops;
	}
	/* stable insertion sort: equal stamps keep the order given */
	for (i = 1; i < n; i++) {
		struct wp_event e = evs[i];

		for (j = i; j > 0 && evs[j - 1].ts_ns > e.ts_ns; j--)
			evs[j] = evs[j - 1];
		evs[j] = e;
	}
	for (i = 0; i < n; i++)
		add(evs[i]);
}

static void emit_path(const struct path *p, uint32_t drops)
{
	emit_path_with(p, drops, NULL, 0);
}

/* the wakee enters read(EFD) at @ts and blocks in it */
static void emit_block(uint64_t ts, uint32_t drops)
{
	add(with_drops(ev_sys_enter(ts, WAKEE_CPU, WAKEE, NR_READ, EFD), drops));
	add(with_drops(ev_switch(ts + BLOCK_AFTER_ENTER, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0), drops));
}

/* long before T0 the wakee slept in read, then ran again: it is running at T0 */
static void emit_awake_wakee(void)
{
	emit_block(T0 - 40000, 0);
	add(ev_switch(T0 - 10000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
}

/* after a wakeup, the wakee goes back to read and sleeps until the next notify */
static void emit_rearm(const struct path *p, uint32_t drops)
{
	emit_block(p->woken + OFF_REARM_ENTER, drops);
}

static struct wp_sample make_sample(uint64_t seq, uint32_t flags)
{
	struct wp_sample s;

	memset(&s, 0, sizeof(s));
	s.seq = seq;
	s.tsc_notify = 3000 * seq;	/* unused by the merger: the ns stamps are passed alongside */
	s.tsc_woken = 3000 * seq + 1000;
	s.waker_tid = WAKER;
	s.wakee_tid = WAKEE;
	s.waker_cpu = WAKER_CPU;
	s.wakee_cpu = WAKEE_CPU;
	s.flags = flags;
	s.value = 1;
	return s;
}

static void add_sample_at(uint64_t seq, uint64_t t_notify, uint64_t t_woken, uint32_t flags)
{
	struct wp_sample s = make_sample(seq, flags);
	int err = merger__add_sample(m, &s, t_notify, t_woken, 0);

	cr_assert_eq(err, 0, "merger__add_sample(seq %" PRIu64 ") = %d", seq, err);
}

static void add_sample(uint64_t seq, const struct path *p)
{
	add_sample_at(seq, p->notify, p->woken, 0);
}

/* ---------------------------------------------------------------- checks */

#define assert_ns(got_, want_, what)                                                                      \
	cr_assert_eq((int64_t)(got_), (int64_t)(want_), "%s: got %" PRId64 ", want %" PRId64, (what),      \
		     (int64_t)(got_), (int64_t)(want_))

static void assert_label(const struct sample_result *r, enum sample_label want)
{
	cr_assert_eq(r->label, want, "seq %" PRIu64 ": label %s, want %s", r->sample.seq, wakeup__label_name(r->label),
		     wakeup__label_name(want));
}

/* assert_missing - @r is missing_event, and the mark it lacks is @want */
static void assert_missing(const struct sample_result *r, enum mark want)
{
	assert_label(r, LABEL_MISSING_EVENT);
	cr_assert_eq(r->missing, want, "seq %" PRIu64 ": missing %s, want %s", r->sample.seq,
		     wakeup__mark_name(r->missing), wakeup__mark_name(want));
}

/* assert_causes_add_up - each phase of @r, explained, is the sum of its causes */
static void assert_causes_add_up(const struct sample_result *r)
{
	for (int k = 0; k < NR_PHASES; k++) {
		int64_t sum = 0;

		for (int c = 0; c < NR_CAUSES; c++)
			sum += r->why.by_phase_cause[k][c];
		assert_ns(sum, r->phase_ns[k], wakeup__phase_name(k));
	}
}

static void assert_phases_add_up(const struct sample_result *r)
{
	int64_t sum = 0;
	int k;

	for (k = 0; k < NR_PHASES; k++) {
		cr_assert_geq(r->phase_ns[k], 0, "%s is negative", wakeup__phase_name(k));
		sum += r->phase_ns[k];
	}
	assert_ns(sum, r->total_ns, "sum of phases");
	assert_ns(r->total_ns, (int64_t)(r->t_woken_ns - r->t_notify_ns), "total");
}

/* assert_complete_along - complete, every mark on its event, phases the differences between them */
static void assert_complete_along(const struct sample_result *r, const struct path *p)
{
	assert_label(r, LABEL_COMPLETE);
	assert_ns(r->t_notify_ns, p->notify, "t_notify");
	assert_ns(r->t_woken_ns, p->woken, "t_woken");
	assert_ns(r->mark_ns[MARK_NOTIFY_ENTER], p->enter, "notify entry mark");
	assert_ns(r->mark_ns[MARK_WAKING], p->waking, "waking mark");
	assert_ns(r->mark_ns[MARK_WAKEUP], p->wakeup, "wakeup mark");
	assert_ns(r->mark_ns[MARK_SWITCH_IN], p->switch_in, "switch-in mark");
	assert_ns(r->mark_ns[MARK_WAIT_EXIT], p->wait_exit, "wait exit mark");
	assert_ns(r->phase_ns[PHASE_NOTIFY_USER], p->enter - p->notify, "notify_user");
	assert_ns(r->phase_ns[PHASE_NOTIFY_KERNEL], p->waking - p->enter, "notify_kernel");
	assert_ns(r->phase_ns[PHASE_WAKE_ENQUEUE], p->wakeup - p->waking, "wake_enqueue");
	assert_ns(r->phase_ns[PHASE_RUNQ_WAIT], p->switch_in - p->wakeup, "runq_wait");
	assert_ns(r->phase_ns[PHASE_RESUME_KERNEL], p->wait_exit - p->switch_in, "resume_kernel");
	assert_ns(r->phase_ns[PHASE_RESUME_USER], p->woken - p->wait_exit, "resume_user");
	assert_phases_add_up(r);
}

/* ---------------------------------------------------------------- 1. the normal case */

Test(merge, a_complete_wakeup_splits_into_six_phases_that_add_up_to_the_total)
{
	struct path p = standard_path(T0);
	const struct merger_stats *st;
	const struct sample_result *r;
	int k;

	emit_block(T0 - 20000, 0);
	emit_path(&p, 0);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_label(r, LABEL_COMPLETE);
	cr_assert_eq(r->sample.seq, 1);
	cr_assert_eq(r->sample.waker_tid, WAKER);
	cr_assert_eq(r->sample.wakee_tid, WAKEE);
	assert_ns(r->t_notify_ns, T0, "t_notify");
	assert_ns(r->t_woken_ns, T0 + 6850, "t_woken");
	assert_ns(r->total_ns, 6850, "total");

	assert_ns(r->phase_ns[PHASE_NOTIFY_USER], 300, "notify_user");
	assert_ns(r->phase_ns[PHASE_NOTIFY_KERNEL], 800, "notify_kernel");
	assert_ns(r->phase_ns[PHASE_WAKE_ENQUEUE], 800, "wake_enqueue");
	assert_ns(r->phase_ns[PHASE_RUNQ_WAIT], 4000, "runq_wait");
	assert_ns(r->phase_ns[PHASE_RESUME_KERNEL], 700, "resume_kernel");
	assert_ns(r->phase_ns[PHASE_RESUME_USER], 250, "resume_user");
	assert_phases_add_up(r);

	for (k = 0; k < NR_MARKS; k++)
		cr_assert_neq(r->mark_ns[k], 0, "%s not set", wakeup__mark_name(k));
	assert_complete_along(r, &p);

	cr_assert_eq(r->waking_cpu, WAKER_CPU);
	cr_assert_eq(r->wakeup_cpu, WAKEE_CPU);
	cr_assert_eq(r->target_cpu, WAKEE_CPU);
	cr_assert_not(r->target_was_idle);
	cr_assert_not(r->idle_exit_seen);
	cr_assert_not(r->waker_preempted);
	assert_ns(r->waker_preempted_ns, 0, "waker_preempted_ns");

	st = merger__stats(m);
	cr_assert_eq(st->events, 8);
	cr_assert_eq(st->samples, 1);
	cr_assert_eq(st->late_events, 0);
	cr_assert_eq(st->evicted_events, 0);
	cr_assert_eq(st->drops_seen, 0);
}

/* ---------------------------------------------------------------- 2. no sleep vs. a missing wake */

Test(merge, a_notify_that_finds_the_wakee_running_is_labelled_no_sleep)
{
	uint64_t n1 = T0, n3 = T0 + 2 * SAMPLE_GAP;
	struct path p2 = standard_path(T0 + SAMPLE_GAP);

	emit_awake_wakee();

	/* 1: the write finds nobody waiting and returns; the wakee's read finds the count at once */
	add(ev_sys_enter(n1 + 300, WAKER_CPU, WAKER, NR_WRITE, EFD));
	add(ev_sys_exit(n1 + 700, WAKER_CPU, WAKER, NR_WRITE, 8));
	add(ev_sys_enter(n1 + 1000, WAKEE_CPU, WAKEE, NR_READ, EFD));
	add(ev_sys_exit(n1 + 1300, WAKEE_CPU, WAKEE, NR_READ, 8));
	add_sample_at(1, n1, n1 + 1500, 0);

	/* 2: the wakee blocks again, and this time is woken */
	emit_block(n1 + 1500 + OFF_REARM_ENTER, 0);
	emit_path(&p2, 0);
	add_sample(2, &p2);

	/* 3: the wakee is preempted, not blocked (prev_state 0): still runnable when the notify comes */
	add(ev_switch(p2.woken + 500, WAKEE_CPU, WAKEE, OTHER, 0, 1));
	add(ev_sys_enter(n3 + 300, WAKER_CPU, WAKER, NR_WRITE, EFD));
	add(ev_sys_exit(n3 + 700, WAKER_CPU, WAKER, NR_WRITE, 8));
	add(ev_switch(n3 + 2000, WAKEE_CPU, OTHER, WAKEE, TASK_INTERRUPTIBLE, 0));
	add(ev_sys_enter(n3 + 2500, WAKEE_CPU, WAKEE, NR_READ, EFD));
	add(ev_sys_exit(n3 + 2800, WAKEE_CPU, WAKEE, NR_READ, 8));
	add_sample_at(3, n3, n3 + 3000, 0);

	merger__finish(m, 0);
	cr_assert_eq(got.n, 3);

	assert_label(&got.r[0], LABEL_NO_SLEEP);
	assert_ns(got.r[0].mark_ns[MARK_NOTIFY_ENTER], n1 + 300, "notify entry mark");
	assert_ns(got.r[0].total_ns, 1500, "total");

	assert_complete_along(&got.r[1], &p2);

	assert_label(&got.r[2], LABEL_NO_SLEEP);
	assert_ns(got.r[2].mark_ns[MARK_NOTIFY_ENTER], n3 + 300, "notify entry mark");
}

Test(merge, a_missing_wake_after_the_wakee_blocked_is_labelled_missing_event)
{
	struct path p1 = standard_path(T0);
	struct path p2 = standard_path(T0 + SAMPLE_GAP);
	const struct sample_result *r;

	emit_block(T0 - 20000, 0);
	emit_path(&p1, 0);
	add_sample(1, &p1);
	emit_rearm(&p1, 0);	/* SWITCH prev=WAKEE prev_state=1 before the second notify */

	p2.waking = 0;		/* sched_waking vanished without a drop being counted */
	emit_path(&p2, 0);
	add_sample(2, &p2);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_complete_along(&got.r[0], &p1);
	r = &got.r[1];
	assert_missing(r, MARK_WAKING);
	assert_ns(r->mark_ns[MARK_NOTIFY_ENTER], p2.enter, "notify entry mark");
	assert_ns(r->mark_ns[MARK_WAKING], 0, "waking mark");
}

Test(merge, a_missing_wake_in_the_first_sample_after_the_wakee_blocked_is_labelled_missing_event)
{
	struct path p = standard_path(T0);
	const struct sample_result *r;

	/* the wakee went to sleep in read 20 us before the first notify: far more than the slack */
	emit_block(T0 - 20000, 0);
	p.waking = 0;
	emit_path(&p, 0);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_missing(r, MARK_WAKING);
	assert_ns(r->mark_ns[MARK_NOTIFY_ENTER], p.enter, "notify entry mark");
}

/*
 * The wake that catches the wakee inside __schedule(): dequeued, not yet
 * switched out. sched_waking is stamped before the switch-out, sched_wakeup
 * after it, and the wakee has to be switched in again to run: a switch-in
 * that never arrives is a missing event, not a wakee that never slept.
 */
Test(merge, a_wakee_that_left_its_cpu_after_the_waking_and_has_no_switch_in_is_missing_event)
{
	struct path p = standard_path(T0);
	struct wp_event leaving = ev_switch(T0 + OFF_WAKING + 100, WAKEE_CPU, WAKEE, OTHER, TASK_INTERRUPTIBLE, 0);
	const struct sample_result *r;

	emit_awake_wakee();
	/* it enters read just before the notify */
	add(ev_sys_enter(T0 + OFF_ENTER - 100, WAKEE_CPU, WAKEE, NR_READ, EFD));
	p.switch_in = 0;	/* the kernel traced no switch to the wakee */
	emit_path_with(&p, 0, &leaving, 1);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_missing(r, MARK_SWITCH_IN);
	assert_ns(r->mark_ns[MARK_WAKEUP], p.wakeup, "wakeup mark");
}

/*
 * The switch-in that resumed the wakee went untraced, it left its read, and
 * was preempted and switched in again before its timestamp: that later
 * switch-in is not the wakeup's, and the wait's exit before it says so.
 */
Test(merge, a_wait_exit_before_any_switch_in_means_the_switch_in_is_missing_not_the_exit)
{
	struct path p = standard_path(T0);
	struct wp_event later[] = {
		ev_switch(T0 + OFF_WAIT_EXIT + 50, WAKEE_CPU, WAKEE, OTHER, 0, 1),
		ev_switch(T0 + OFF_WOKEN - 100, WAKEE_CPU, OTHER, WAKEE, 0, 0),
	};
	const struct sample_result *r;

	emit_block(T0 - 20000, 0);
	p.switch_in = 0;
	emit_path_with(&p, 0, later, 2);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_missing(r, MARK_SWITCH_IN);
}

/* the same wake with no switch-out after it: the wakee carried on, it never slept */
Test(merge, a_wakee_woken_before_it_left_its_cpu_that_carried_on_is_no_sleep)
{
	struct path p = standard_path(T0);

	emit_awake_wakee();
	add(ev_sys_enter(T0 + OFF_ENTER - 100, WAKEE_CPU, WAKEE, NR_READ, EFD));
	p.switch_in = 0;
	emit_path(&p, 0);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_label(&got.r[0], LABEL_NO_SLEEP);
}

/*
 * A task preempted between setting its sleeping state and calling schedule()
 * is switched out with that state (the raw prev_state of tp_btf) and the
 * preempt flag: it stays runnable, so it has not slept.
 */
Test(merge, a_wakee_preempted_with_its_sleeping_state_set_has_not_slept)
{
	uint64_t n = T0;

	emit_awake_wakee();
	add(ev_sys_enter(n - 2000, WAKEE_CPU, WAKEE, NR_READ, EFD));
	add(ev_switch(n - 1500, WAKEE_CPU, WAKEE, OTHER, TASK_INTERRUPTIBLE, 1));
	/* the write finds the reader runnable, not waiting: no sched_waking */
	add(ev_sys_enter(n + 300, WAKER_CPU, WAKER, NR_WRITE, EFD));
	add(ev_sys_exit(n + 700, WAKER_CPU, WAKER, NR_WRITE, 8));
	add(ev_switch(n + 2000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
	add(ev_sys_exit(n + 2500, WAKEE_CPU, WAKEE, NR_READ, 8));
	add_sample_at(1, n, n + 3000, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_label(&got.r[0], LABEL_NO_SLEEP);
}

/* ---------------------------------------------------------------- 3. lost events */

Test(merge, a_drop_inside_a_sample_marks_it_lost_and_spares_samples_after_the_gap)
{
	struct path p[4];
	struct wp_event evs[PATH_EVENTS];
	size_t n, i;

	for (i = 0; i < 4; i++)
		p[i] = standard_path(T0 + i * SAMPLE_GAP);

	emit_block(T0 - 20000, 0);
	/* 1: the counter moves between sched_waking and the waker's syscall exit */
	n = path_events(&p[0], 0, evs);
	for (i = 0; i < n; i++)
		add(with_drops(evs[i], evs[i].ts_ns > p[0].waking ? 1 : 0));
	add_sample(1, &p[0]);
	emit_rearm(&p[0], 1);

	/* 2: entirely after that gap */
	emit_path(&p[1], 1);
	add_sample(2, &p[1]);
	emit_rearm(&p[1], 1);

	/* 3: the counter moves at its first event: something between sample 2's end and it was lost */
	emit_path(&p[2], 2);
	add_sample(3, &p[2]);
	emit_rearm(&p[2], 2);

	/* 4: after both gaps */
	emit_path(&p[3], 2);
	add_sample(4, &p[3]);

	merger__finish(m, 2);	/* nothing lost after the last event */

	cr_assert_eq(got.n, 4);
	assert_label(&got.r[0], LABEL_LOST_EVENTS);
	assert_complete_along(&got.r[1], &p[1]);
	assert_label(&got.r[2], LABEL_LOST_EVENTS);
	assert_complete_along(&got.r[3], &p[3]);
	cr_assert_eq(merger__stats(m)->drops_seen, 2);
}

Test(merge, drops_counted_after_the_last_event_mark_the_samples_still_open_as_lost)
{
	struct path p1 = standard_path(T0);
	struct path p2 = standard_path(T0 + SAMPLE_GAP);

	emit_block(T0 - 20000, 0);
	emit_path(&p1, 0);
	emit_rearm(&p1, 0);
	emit_path(&p2, 0);
	add_sample(1, &p1);
	add_sample(2, &p2);

	merger__advance(m, p1.woken + SLACK_NS + 1);
	cr_assert_eq(got.n, 1);
	assert_complete_along(&got.r[0], &p1);

	/* every event of sample 2 arrived, but the BPF side counted 3 drops after the last one */
	merger__finish(m, 3);
	cr_assert_eq(got.n, 2);
	assert_label(&got.r[1], LABEL_LOST_EVENTS);
	cr_assert_eq(got.r[1].sample.seq, 2);
	cr_assert_eq(merger__stats(m)->drops_seen, 3);
}

/*
 * A ring buffer that stays full between two drains: the records stop, so no
 * record carries the new count before the watermark passes the samples of
 * the gap. The counter read at the drain must mark them, not let them
 * finish as missing_event, and the first record after the gap bounds it.
 */
Test(merge, drops_noted_at_a_drain_mark_the_samples_after_the_last_record_until_a_record_bounds_them)
{
	struct path p[5];
	size_t i;

	for (i = 0; i < 5; i++)
		p[i] = standard_path(T0 + i * SAMPLE_GAP);
	emit_block(T0 - 20000, 0);
	emit_path(&p[0], 0);
	emit_rearm(&p[0], 0);
	/* samples 2 and 3: every event dropped */
	for (i = 0; i < 3; i++)
		add_sample(i + 1, &p[i]);

	merger__note_drops(m, 12);
	merger__advance(m, p[2].woken + SLACK_NS + 1);
	cr_assert_eq(got.n, 3);
	assert_complete_along(&got.r[0], &p[0]);
	assert_label(&got.r[1], LABEL_LOST_EVENTS);
	assert_label(&got.r[2], LABEL_LOST_EVENTS);

	/*
	 * The next drain finds records again; the first carries the count, so
	 * the gap ends there. Sample 4 still reaches into it (the wakee's block
	 * before its notify is part of it); sample 5 is clear of it.
	 */
	emit_block(p[3].notify - 5000, 12);
	emit_path(&p[3], 12);
	emit_rearm(&p[3], 12);
	emit_path(&p[4], 12);
	add_sample(4, &p[3]);
	add_sample(5, &p[4]);
	merger__note_drops(m, 12);
	merger__finish(m, 12);
	cr_assert_eq(got.n, 5);
	assert_label(&got.r[3], LABEL_LOST_EVENTS);
	assert_complete_along(&got.r[4], &p[4]);
	cr_assert_eq(got.by_label[LABEL_MISSING_EVENT], 0);
	cr_assert_eq(merger__stats(m)->drops_seen, 12);
}

Test(merge, a_final_drop_count_equal_to_the_last_seen_leaves_open_samples_complete)
{
	struct path p1 = standard_path(T0);

	emit_block(T0 - 20000, 1);
	emit_path(&p1, 1);
	add_sample(1, &p1);
	merger__finish(m, 1);

	cr_assert_eq(got.n, 1);
	assert_complete_along(&got.r[0], &p1);
	cr_assert_eq(merger__stats(m)->drops_seen, 1);
}

/* ---------------------------------------------------------------- 4. idle target */

Test(merge, an_idle_target_cpu_reports_when_it_left_idle_after_the_wake)
{
	struct path p = standard_path(T0);
	const struct wp_event extra[] = {
		ev_idle_exit(T0 + 1400, SPARE_CPU, T0 - 90000),	/* another CPU: not the target */
		ev_idle_exit(T0 + 1700, WAKEE_CPU, T0 - 400000),	/* the target, kicked by the wake */
	};
	const struct sample_result *r;

	p.target_idle_since = T0 - 400000;
	emit_block(T0 - 400600, 0);
	emit_path_with(&p, 0, extra, 2);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_complete_along(r, &p);
	cr_assert(r->target_was_idle);
	cr_assert(r->idle_exit_seen);
	assert_ns(r->idle_exit_ns, 1700 - 1100, "idle_exit_ns (idle exit - waking)");
	cr_assert_eq(r->target_cpu, WAKEE_CPU);
	cr_assert_eq(r->wakeup_cpu, WAKEE_CPU);
	cr_assert_eq(r->waking_cpu, WAKER_CPU);
}

Test(merge, a_busy_target_cpu_is_not_reported_idle)
{
	struct path p = standard_path(T0);
	const struct wp_event extra[] = {
		ev_idle_exit(T0 + 1700, WAKEE_CPU, T0 + 1200),	/* unrelated: the CPU was busy at the wake */
	};
	const struct sample_result *r;

	p.target_idle_since = 0;
	emit_block(T0 - 20000, 0);
	emit_path_with(&p, 0, extra, 1);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_complete_along(r, &p);
	cr_assert_not(r->target_was_idle);
	cr_assert_not(r->idle_exit_seen);
	assert_ns(r->idle_exit_ns, 0, "idle_exit_ns");
}

/* ---------------------------------------------------------------- 5. preempted waker */

Test(merge, a_waker_preempted_inside_the_notify_reports_its_time_off_cpu)
{
	struct path p1 = {
		.notify = T0,
		.enter = T0 + 300,
		.waking = T0 + 3900,
		.waker_exit = T0 + 4300,
		.wakeup = T0 + 4700,
		.switch_in = T0 + 8700,
		.wait_exit = T0 + 9400,
		.woken = T0 + 9650,
		.target_cpu = WAKEE_CPU,
	};
	const struct wp_event preempted[] = {
		ev_switch(T0 + 500, WAKER_CPU, WAKER, OTHER, 0, 1),
		ev_switch(T0 + 3500, WAKER_CPU, OTHER, WAKER, TASK_INTERRUPTIBLE, 0),
	};
	struct path p2 = standard_path(T0 + SAMPLE_GAP);
	/* after sched_waking the wake is decided: being preempted then does not delay it */
	const struct wp_event preempted_after_wake[] = {
		ev_switch(p2.waking + 100, WAKER_CPU, WAKER, OTHER, 0, 1),
		ev_switch(p2.waking + 350, WAKER_CPU, OTHER, WAKER, TASK_INTERRUPTIBLE, 0),
	};
	const struct sample_result *r;

	emit_block(T0 - 20000, 0);
	emit_path_with(&p1, 0, preempted, 2);
	add_sample(1, &p1);
	emit_rearm(&p1, 0);
	emit_path_with(&p2, 0, preempted_after_wake, 2);
	add_sample(2, &p2);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	r = &got.r[0];
	assert_complete_along(r, &p1);
	cr_assert(r->waker_preempted);
	assert_ns(r->waker_preempted_ns, 3000, "waker_preempted_ns");
	assert_ns(r->phase_ns[PHASE_NOTIFY_KERNEL], 3600, "notify_kernel (includes the 3000 ns off CPU)");

	r = &got.r[1];
	assert_complete_along(r, &p2);
	cr_assert_not(r->waker_preempted);
	assert_ns(r->waker_preempted_ns, 0, "waker_preempted_ns");
}

/* ---------------------------------------------------------------- 6. a stream */

Test(merge, pending_samples_finish_in_order_only_once_the_watermark_passes_their_end_plus_slack)
{
	struct path p[4];
	struct wp_event evs[PATH_EVENTS];
	size_t n, i;

	for (i = 0; i < 4; i++)
		p[i] = standard_path(T0 + i * SAMPLE_GAP);
	got.expect_standard = true;

	emit_block(T0 - 20000, 0);
	for (i = 0; i < 4; i++) {
		if (i == 2) {
			/* sample 3 reaches the ring buffer back to front, spread over 6.3 us */
			n = path_events(&p[i], 0, evs);
			while (n--)
				add(evs[n]);
		} else {
			emit_path(&p[i], 0);
		}
		emit_rearm(&p[i], 0);
		add_sample(i + 1, &p[i]);
	}

	merger__advance(m, p[0].woken + SLACK_NS);
	cr_assert_eq(got.n, 0, "t_woken + slack is not below the watermark yet");
	merger__advance(m, p[0].woken + SLACK_NS + 1);
	cr_assert_eq(got.n, 1);
	merger__advance(m, p[2].woken + SLACK_NS);
	cr_assert_eq(got.n, 2);
	merger__advance(m, p[2].woken + SLACK_NS + 1);
	cr_assert_eq(got.n, 3);

	/* a straggler stamped before what is finished: counted, and it changes nothing */
	add(ev_switch(p[2].woken - 1000, SPARE_CPU, OTHER, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	cr_assert_eq(merger__stats(m)->late_events, 1);

	merger__finish(m, 0);
	cr_assert_eq(got.n, 4);
	for (i = 0; i < 4; i++) {
		cr_assert_eq(got.r[i].sample.seq, i + 1);
		assert_complete_along(&got.r[i], &p[i]);
	}
	cr_assert_eq(got.out_of_order, 0);
	cr_assert_eq(got.not_next, 0);
	cr_assert_eq(got.standard_mismatch, 0);
	cr_assert_eq(merger__stats(m)->samples, 4);
}

/* ---------------------------------------------------------------- 7-9. labels without phases */

Test(merge, samples_outside_the_tracing_window_are_labelled_out_of_window)
{
	struct path p[3];
	size_t i;

	emit_block(T0 - 20000, 0);
	for (i = 0; i < 3; i++) {
		p[i] = standard_path(T0 + i * SAMPLE_GAP);
		emit_path(&p[i], 0);
		emit_rearm(&p[i], 0);
		add_sample(i + 1, &p[i]);
	}
	/* tracing covered exactly [t_notify, t_woken] of the second sample, both ends included */
	merger__set_window(m, p[1].notify, p[1].woken);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 3);
	assert_label(&got.r[0], LABEL_OUT_OF_WINDOW);
	assert_complete_along(&got.r[1], &p[1]);
	assert_label(&got.r[2], LABEL_OUT_OF_WINDOW);
}

Test(merge, a_notify_entry_stamped_before_t_notify_within_the_slack_is_labelled_clock_order)
{
	struct path p = standard_path(T0);
	const struct sample_result *r;

	p.enter = T0 - 100;
	emit_block(T0 - 20000, 0);
	emit_path(&p, 0);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_label(r, LABEL_CLOCK_ORDER);
	assert_ns(r->mark_ns[MARK_NOTIFY_ENTER], T0 - 100, "notify entry mark");
	assert_ns(r->mark_ns[MARK_WAIT_EXIT], p.wait_exit, "wait exit mark");
}

Test(merge, a_wait_exit_stamped_after_t_woken_within_the_slack_is_labelled_clock_order)
{
	struct path p = standard_path(T0);
	const struct sample_result *r;

	p.wait_exit = p.woken + 100;
	emit_block(T0 - 20000, 0);
	emit_path(&p, 0);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_label(r, LABEL_CLOCK_ORDER);
	assert_ns(r->mark_ns[MARK_WAIT_EXIT], p.woken + 100, "wait exit mark");
}

Test(merge, a_wait_that_consumed_several_notifies_is_labelled_coalesced)
{
	struct path p = standard_path(T0);

	emit_block(T0 - 20000, 0);
	emit_path(&p, 0);
	add_sample_at(1, p.notify, p.woken, WP_SAMPLE_COALESCED);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_label(&got.r[0], LABEL_COALESCED);
	cr_assert_eq(got.r[0].sample.flags, WP_SAMPLE_COALESCED);
	assert_ns(got.r[0].total_ns, OFF_WOKEN, "total");
}

/* ---------------------------------------------------------------- 10. other tasks and fds */

Test(merge, events_of_other_tasks_and_other_fds_do_not_bound_the_phases)
{
	struct path p = standard_path(T0);
	const struct wp_event noise[] = {
		ev_sys_enter(T0 + 100, SPARE_CPU, OTHER, NR_WRITE, EFD),	/* another task writes the eventfd */
		ev_sys_enter(T0 + 150, WAKER_CPU, WAKER, NR_WRITE, OTHER_FD),	/* the waker writes another fd */
		ev_sys_exit(T0 + 250, WAKER_CPU, WAKER, NR_WRITE, 1),
		ev_waking(T0 + 900, WAKER_CPU, WAKER, OTHER, SPARE_CPU, 0),	/* the waker wakes someone else */
		ev_wakeup(T0 + 1700, SPARE_CPU, IDLE_TID, OTHER, SPARE_CPU),
		ev_switch(T0 + 3000, SPARE_CPU, IDLE_TID, OTHER, 0, 0),
		ev_sys_exit(T0 + 6200, SPARE_CPU, OTHER, NR_READ, 8),	/* another reader returns */
		ev_sys_exit(T0 + 6300, SPARE_CPU, OTHER, NR_EPOLL_WAIT, 1),
	};

	emit_block(T0 - 20000, 0);
	emit_path_with(&p, 0, noise, sizeof(noise) / sizeof(noise[0]));
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_complete_along(&got.r[0], &p);
	cr_assert_eq(got.r[0].waking_cpu, WAKER_CPU);
	cr_assert_eq(got.r[0].target_cpu, WAKEE_CPU);
	cr_assert_eq(merger__stats(m)->events, 2 + PATH_EVENTS + sizeof(noise) / sizeof(noise[0]));
}

/* ---------------------------------------------------------------- 11. bounded memory */

#define STREAM_SAMPLES	200000u
#define STREAM_GAP	20000ull	/* 20 us apart: the rearm block ends 7.75 us after t_notify */
#define STREAM_BATCH	1500u		/* samples pending between two advances */
#define STREAM_EVENTS_PER_SAMPLE (PATH_EVENTS + 2)

Test(merge, a_long_stream_through_advance_evicts_nothing_and_completes_every_sample, .timeout = 60)
{
	const struct merger_stats *st = merger__stats(m);
	uint64_t i;

	got.expect_standard = true;
	emit_block(T0 - 20000, 0);
	for (i = 1; i <= STREAM_SAMPLES; i++) {
		struct path p = standard_path(T0 + (i - 1) * STREAM_GAP);

		emit_path(&p, 0);
		emit_rearm(&p, 0);
		add_sample(i, &p);
		if (i % STREAM_BATCH == 0) {
			merger__advance(m, p.woken + SLACK_NS + 1);
			cr_assert_eq(got.n, i);
			cr_assert_eq(st->events, 2 + i * STREAM_EVENTS_PER_SAMPLE);
		}
	}
	merger__finish(m, 0);

	cr_assert_eq(got.n, STREAM_SAMPLES);
	cr_assert_eq(got.by_label[LABEL_COMPLETE], STREAM_SAMPLES, "%zu of %u complete",
		     got.by_label[LABEL_COMPLETE], STREAM_SAMPLES);
	cr_assert_eq(got.out_of_order, 0);
	cr_assert_eq(got.not_next, 0);
	cr_assert_eq(got.sum_mismatch, 0);
	cr_assert_eq(got.standard_mismatch, 0);
	cr_assert_eq(st->events, 2 + (uint64_t)STREAM_SAMPLES * STREAM_EVENTS_PER_SAMPLE);
	cr_assert_eq(st->evicted_events, 0);
	cr_assert_eq(st->late_events, 0);
	cr_assert_eq(st->samples, STREAM_SAMPLES);
}

#define LAG_SAMPLES	300000u

Test(merge, samples_are_delivered_once_each_in_order_however_far_the_events_lag, .timeout = 60)
{
	uint64_t i;

	/* no event and no advance: the pending queue must finish its oldest rather than grow without end */
	for (i = 1; i <= LAG_SAMPLES; i++) {
		struct path p = standard_path(T0 + (i - 1) * STREAM_GAP);

		add_sample(i, &p);
	}
	merger__finish(m, 0);

	cr_assert_eq(got.n, LAG_SAMPLES);
	cr_assert_eq(got.out_of_order, 0, "%zu results out of order or repeated", got.out_of_order);
	cr_assert_eq(got.not_next, 0, "%zu results skipped a sequence number", got.not_next);
	cr_assert_eq(got.last_seq, LAG_SAMPLES);
	cr_assert_eq(got.by_label[LABEL_MISSING_EVENT], LAG_SAMPLES);
	cr_assert_eq(got.r[0].missing, MARK_NOTIFY_ENTER);
}

#define FLOOD_SAMPLES	80000u

Test(merge, events_pushed_out_of_a_full_queue_mark_their_samples_lost, .timeout = 60)
{
	const struct merger_stats *st = merger__stats(m);
	uint64_t k, must_lose = 0, must_complete = 0;
	int64_t last_evicted;

	/* no advance: every event stays in flight until the queue bound pushes the oldest out */
	emit_block(T0 - 20000, 0);
	for (k = 1; k <= FLOOD_SAMPLES; k++) {
		struct path p = standard_path(T0 + (k - 1) * STREAM_GAP);

		emit_path(&p, 0);
		emit_rearm(&p, 0);
		add_sample(k, &p);
	}
	cr_assert_eq(st->events, 2 + (uint64_t)FLOOD_SAMPLES * STREAM_EVENTS_PER_SAMPLE);
	cr_assert_gt(st->evicted_events, 0, "640k events in flight should not all be kept");
	cr_assert_lt(st->evicted_events, st->events);

	/*
	 * Events arrived in time order, two block events first and then eight
	 * per sample (six on the path, two for the rearm), so the evicted ones
	 * are the first evicted_events of that layout.
	 */
	last_evicted = (int64_t)st->evicted_events - 1;
	for (k = 1; k <= FLOOD_SAMPLES; k++) {
		int64_t first = 2 + (int64_t)(k - 1) * STREAM_EVENTS_PER_SAMPLE;

		if (first <= last_evicted)
			must_lose++;		/* one of its own events is gone */
		else if (first - 2 > last_evicted)
			must_complete++;	/* everything from the previous t_woken on was kept */
	}
	merger__finish(m, 0);

	cr_assert_eq(got.n, FLOOD_SAMPLES);
	cr_assert_eq(got.out_of_order, 0);
	cr_assert_eq(got.by_label[LABEL_LOST_EVENTS] + got.by_label[LABEL_COMPLETE], FLOOD_SAMPLES);
	cr_assert_geq(got.by_label[LABEL_LOST_EVENTS], must_lose, "%zu lost, %" PRIu64 " had an evicted event",
		      got.by_label[LABEL_LOST_EVENTS], must_lose);
	cr_assert_geq(got.by_label[LABEL_COMPLETE], must_complete, "%zu complete, %" PRIu64 " had all events kept",
		      got.by_label[LABEL_COMPLETE], must_complete);
	cr_assert_lt(got.last_lost_seq, got.first_complete_seq, "the lost samples are the oldest ones");
	assert_label(&got.r[0], LABEL_LOST_EVENTS);
}

/* ---------------------------------------------------------------- 12. sequence numbers */

Test(merge, add_sample_rejects_a_repeated_or_decreasing_sequence_number)
{
	struct wp_sample s;

	s = make_sample(0, 0);
	cr_assert_eq(merger__add_sample(m, &s, T0, T0 + 1000, 0), -EINVAL, "sequence numbers start at 1");
	s = make_sample(1, 0);
	cr_assert_eq(merger__add_sample(m, &s, T0, T0 + 1000, 0), 0);
	cr_assert_eq(merger__add_sample(m, &s, T0, T0 + 1000, 0), -EINVAL, "repeated");
	s = make_sample(3, 0);
	cr_assert_eq(merger__add_sample(m, &s, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + 1000, 0), 0);
	s = make_sample(2, 0);
	cr_assert_eq(merger__add_sample(m, &s, T0 + 2 * SAMPLE_GAP, T0 + 2 * SAMPLE_GAP + 1000, 0), -EINVAL,
		     "decreasing");

	merger__finish(m, 0);
	cr_assert_eq(got.n, 2, "rejected samples must not be queued");
	cr_assert_eq(got.r[0].sample.seq, 1);
	cr_assert_eq(got.r[1].sample.seq, 3);
	cr_assert_eq(merger__stats(m)->samples, 2);
}

/* ---------------------------------------------------------------- names */

Test(merge, every_phase_label_and_mark_has_a_name_and_out_of_range_values_read_as_a_question_mark)
{
	int i;

	cr_assert_str_eq(wakeup__phase_name(PHASE_NOTIFY_USER), "notify_user");
	cr_assert_str_eq(wakeup__phase_name(PHASE_RUNQ_WAIT), "runq_wait");
	cr_assert_str_eq(wakeup__phase_name(PHASE_RESUME_USER), "resume_user");
	cr_assert_str_eq(wakeup__label_name(LABEL_COMPLETE), "complete");
	cr_assert_str_eq(wakeup__label_name(LABEL_NO_SLEEP), "no_sleep");
	for (i = 0; i < NR_PHASES; i++)
		cr_assert(wakeup__phase_name(i) && *wakeup__phase_name(i) && strcmp(wakeup__phase_name(i), "?"));
	for (i = 0; i < NR_LABELS; i++) {
		cr_assert(wakeup__label_name(i) && *wakeup__label_name(i) && strcmp(wakeup__label_name(i), "?"));
		cr_assert(wakeup__label_describe(i) && *wakeup__label_describe(i) &&
			  strcmp(wakeup__label_describe(i), "?"));
	}
	for (i = 0; i < NR_MARKS; i++)
		cr_assert(wakeup__mark_name(i) && *wakeup__mark_name(i) && strcmp(wakeup__mark_name(i), "?"));
	cr_assert_str_eq(wakeup__phase_name(NR_PHASES), "?");
	cr_assert_str_eq(wakeup__label_name(NR_LABELS), "?");
	cr_assert_str_eq(wakeup__label_describe(NR_LABELS), "?");
	cr_assert_str_eq(wakeup__mark_name(NR_MARKS), "?");
}

/* ---------------------------------------------------------------- other paths */

#define NR_FUTEX	202
#define NR_TGKILL	234
#define NR_RT_SIGTIMEDWAIT 128
#define NR_RT_SIGSUSPEND 130
#define NR_FUTEX_WAITV	449
#define FUTEX_ADDR	0x7f0000001000ull
#define MUTEX_ADDR	0x7f0000002000ull
/* futex(2) ops as glibc issues them: private, bitset variants */
#define OP_WAIT_PRIVATE		(0 | 128)
#define OP_WAKE_PRIVATE		(1 | 128)
#define OP_WAIT_BITSET_PRIVATE	(9 | 128)
#define OP_WAKE_BITSET_SHARED_RT (10 | 256)

static const struct merger_config futex_cfg = {
	.notify_syscalls = { { NR_FUTEX, -1, -1, -1 } },
	.wait_syscalls = { { NR_FUTEX, NR_FUTEX_WAITV, -1, -1 } },
	.notify_fd = -1,
	.wait_fd = -1,
	.notify_optional = true,
	.clock_slack_ns = SLACK_NS,
};

static void use_config(const struct merger_config *cfg)
{
	merger__free(m);
	memset(&got, 0, sizeof(got));
	m = merger__new(cfg, collect, &got);
	cr_assert_not_null(m, "merger__new failed");
}

static struct wp_event ev_futex_enter(uint64_t ts, uint32_t cpu, uint32_t tid, uint64_t addr, uint64_t op)
{
	struct wp_event e = ev_sys_enter(ts, cpu, tid, NR_FUTEX, addr);

	e.sys.arg2 = op;
	return e;
}

/* the wakee waits on the futex at @ts, the kernel switches it out */
static void emit_futex_block(uint64_t ts, uint64_t op)
{
	add(ev_futex_enter(ts, WAKEE_CPU, WAKEE, FUTEX_ADDR, op));
	add(ev_switch(ts + BLOCK_AFTER_ENTER, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
}

/* a futex wakeup on the standard offsets, @wait_nr returning */
static void emit_futex_path(const struct path *p, uint64_t wake_op, int64_t wait_nr)
{
	add(ev_futex_enter(p->enter, WAKER_CPU, WAKER, FUTEX_ADDR, wake_op));
	add(ev_waking(p->waking, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_sys_exit(p->waker_exit, WAKER_CPU, WAKER, NR_FUTEX, 1));
	add(ev_wakeup(p->wakeup, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU));
	add(ev_switch(p->switch_in, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(ev_sys_exit(p->wait_exit, WAKEE_CPU, WAKEE, wait_nr, 0));
}

Test(merge, a_futex_wake_op_starts_notify_kernel_and_a_waiting_op_by_the_waker_does_not)
{
	struct path p = standard_path(T0);

	use_config(&futex_cfg);
	emit_futex_block(T0 - 20000, OP_WAIT_BITSET_PRIVATE);
	/* the waker first blocks on a mutex: a futex entry, but not a waking op */
	add(ev_futex_enter(T0 + 100, WAKER_CPU, WAKER, MUTEX_ADDR, OP_WAIT_PRIVATE));
	emit_futex_path(&p, OP_WAKE_PRIVATE, NR_FUTEX);
	add_sample(1, &p);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_complete_along(&got.r[0], &p);
	cr_assert(got.r[0].phased);
	cr_assert_not(got.r[0].rewait_seen, "no second wait here");
}

Test(merge, every_waking_futex_op_counts_with_its_private_and_clock_flags)
{
	static const uint64_t wake_ops[] = { 1, 3, 4, 5, 7, 10, 12, 1 | 128, 10 | 128 | 256 };
	size_t i;

	for (i = 0; i < sizeof(wake_ops) / sizeof(wake_ops[0]); i++) {
		struct path p = standard_path(T0);

		use_config(&futex_cfg);
		emit_futex_block(T0 - 20000, OP_WAIT_BITSET_PRIVATE);
		emit_futex_path(&p, wake_ops[i], NR_FUTEX);
		add_sample(1, &p);
		merger__finish(m, 0);
		cr_assert_eq(got.n, 1);
		cr_assert_eq(got.r[0].label, LABEL_COMPLETE, "op %#" PRIx64 ": %s", wake_ops[i],
			     wakeup__label_name(got.r[0].label));
	}
}

Test(merge, a_futex_waitv_exit_ends_the_wait)
{
	struct path p = standard_path(T0);

	use_config(&futex_cfg);
	emit_futex_block(T0 - 20000, OP_WAIT_BITSET_PRIVATE);
	emit_futex_path(&p, OP_WAKE_BITSET_SHARED_RT, NR_FUTEX_WAITV);
	add_sample(1, &p);
	merger__finish(m, 0);
	assert_complete_along(&got.r[0], &p);
}

Test(merge, an_optional_notify_that_skipped_the_kernel_is_no_sleep_only_if_the_wakee_was_awake)
{
	use_config(&futex_cfg);
	/* 1: the wakee ran all along: sem_post found no waiter and made no syscall */
	add(ev_switch(T0 - 10000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add_sample_at(1, T0, T0 + 900, 0);
	/* 2: the wakee was asleep, yet no futex wake came: that event is missing */
	emit_futex_block(T0 + SAMPLE_GAP - 20000, OP_WAIT_BITSET_PRIVATE);
	add_sample_at(2, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + 9000, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_NO_SLEEP);
	assert_label(&got.r[1], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[1].missing, MARK_NOTIFY_ENTER);
}

/* sample 1 at T0: a complete futex wakeup of a wakee that waited since before it */
static void emit_first_futex_wakeup(void)
{
	emit_futex_block(T0 - 20000, OP_WAIT_BITSET_PRIVATE);
	emit_futex_path(&(struct path){ .enter = T0 + 300, .waking = T0 + 900, .waker_exit = T0 + 1000,
					.wakeup = T0 + 1500, .switch_in = T0 + 4000, .wait_exit = T0 + 4500 },
			OP_WAKE_PRIVATE, NR_FUTEX);
	add_sample_at(1, T0, T0 + 4800, 0);
}

/* sample 2 at @n2: its post finds nobody queued, yet the wakee, already woken, runs */
static void emit_post_finding_nobody(uint64_t n2, uint64_t wakeup)
{
	add(ev_futex_enter(n2 + 300, WAKER_CPU, WAKER, FUTEX_ADDR, OP_WAKE_PRIVATE));
	if (wakeup > n2)
		add(ev_wakeup(wakeup, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU));
	add(ev_switch(n2 + 6000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(ev_sys_exit(n2 + 6500, WAKEE_CPU, WAKEE, NR_FUTEX, 0));
	add_sample_at(2, n2, n2 + 6800, 0);
}

Test(merge, a_wait_already_woken_by_the_previous_notify_is_labelled_woken_early)
{
	uint64_t n2 = T0 + 12000;

	use_config(&futex_cfg);
	/* 1: sem_post's FUTEX_WAKE wakes the wakee */
	emit_first_futex_wakeup();
	/* the wakee's next sem_wait sleeps, and a wake still in flight from post 1 reaches it */
	add(ev_futex_enter(T0 + 6000, WAKEE_CPU, WAKEE, FUTEX_ADDR, OP_WAIT_BITSET_PRIVATE));
	add(ev_switch(T0 + 6500, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_waking(T0 + 7000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	/* 2: post 2 finds nobody queued: no waking follows its FUTEX_WAKE */
	emit_post_finding_nobody(n2, n2 + 5000);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_COMPLETE);
	assert_label(&got.r[1], LABEL_WOKEN_EARLY);
}

Test(merge, a_wake_that_caught_the_wakee_leaving_its_cpu_counts_as_woken_early)
{
	use_config(&futex_cfg);
	emit_first_futex_wakeup();
	/*
	 * The next wait: post 1's wake, still in flight, catches the wakee off
	 * its run queue but still in __schedule(): sched_waking is stamped
	 * before the switch-out, sched_wakeup (from the wake list) after it.
	 */
	add(ev_futex_enter(T0 + 6000, WAKEE_CPU, WAKEE, FUTEX_ADDR, OP_WAIT_BITSET_PRIVATE));
	add(ev_waking(T0 + 6200, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_switch(T0 + 6500, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	emit_post_finding_nobody(T0 + 12000, T0 + 12000 + 5000);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_COMPLETE);
	assert_label(&got.r[1], LABEL_WOKEN_EARLY);
}

Test(merge, the_same_race_with_the_wakeup_done_before_the_next_notify_is_woken_early_too)
{
	uint64_t n2 = T0 + 12000;

	use_config(&futex_cfg);
	emit_first_futex_wakeup();
	add(ev_futex_enter(T0 + 6000, WAKEE_CPU, WAKEE, FUTEX_ADDR, OP_WAIT_PRIVATE));
	add(ev_waking(T0 + 6200, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_switch(T0 + 6500, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_wakeup(n2 - 200, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU));
	/* the wakeup came before this notify */
	emit_post_finding_nobody(n2, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_COMPLETE);
	assert_label(&got.r[1], LABEL_WOKEN_EARLY);
}

Test(merge, a_wait_on_the_mutex_after_the_condvar_wait_is_the_reacquire_sub_phase)
{
	struct path p = standard_path(T0);
	uint64_t lock_enter = p.wait_exit + 100, lock_exit = p.wait_exit + 2100;

	p.woken = lock_exit + 150;
	use_config(&futex_cfg);
	emit_futex_block(T0 - 20000, OP_WAIT_BITSET_PRIVATE);
	emit_futex_path(&p, OP_WAKE_PRIVATE, NR_FUTEX);
	/* the waker still holds the mutex: the wakee blocks on it, then gets it */
	add(ev_futex_enter(lock_enter, WAKEE_CPU, WAKEE, MUTEX_ADDR, OP_WAIT_PRIVATE));
	add(ev_switch(lock_enter + 300, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_futex_enter(lock_enter + 900, WAKER_CPU, WAKER, MUTEX_ADDR, OP_WAKE_PRIVATE));
	add(ev_switch(lock_exit - 200, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(ev_sys_exit(lock_exit, WAKEE_CPU, WAKEE, NR_FUTEX, 0));
	add_sample(1, &p);
	merger__finish(m, 0);

	assert_complete_along(&got.r[0], &p);
	cr_assert(got.r[0].rewait_seen);
	assert_ns(got.r[0].rewait_ns, lock_exit - lock_enter, "mutex reacquire");
	cr_assert_leq(got.r[0].rewait_ns, got.r[0].phase_ns[PHASE_RESUME_USER], "a part of resume_user");
}

Test(merge, a_signal_handler_wait_ends_at_signal_deliver_not_at_the_syscall_exit)
{
	static const struct merger_config cfg = {
		.notify_syscalls = { { NR_TGKILL, -1, -1, -1 } },
		.wait_syscalls = { { -1, -1, -1, -1 } },
		.wait_end = WAIT_END_SIGNAL_DELIVER,
		.notify_fd = -1,
		.wait_fd = -1,
		.clock_slack_ns = SLACK_NS,
	};
	struct path p = standard_path(T0);
	struct wp_event deliver = ev(p.wait_exit, WP_EV_SIGNAL_DELIVER, WAKEE_CPU, WAKEE);

	deliver.signal.sig = 10;
	use_config(&cfg);
	add(ev_sys_enter(T0 - 20000, WAKEE_CPU, WAKEE, NR_RT_SIGSUSPEND, 0));
	add(ev_switch(T0 - 19000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_sys_enter(p.enter, WAKER_CPU, WAKER, NR_TGKILL, 4242));
	add(ev_waking(p.waking, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_wakeup(p.wakeup, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU));
	add(ev_switch(p.switch_in, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	/* sigsuspend returns -EINTR first; the handler is entered after */
	add(ev_sys_exit(p.switch_in + 200, WAKEE_CPU, WAKEE, NR_RT_SIGSUSPEND, -4));
	add(deliver);
	add_sample(1, &p);
	merger__finish(m, 0);

	assert_complete_along(&got.r[0], &p);
}

Test(merge, a_sigwait_wait_ends_at_the_rt_sigtimedwait_exit)
{
	static const struct merger_config cfg = {
		.notify_syscalls = { { NR_TGKILL, -1, -1, -1 } },
		.wait_syscalls = { { NR_RT_SIGTIMEDWAIT, -1, -1, -1 } },
		.notify_fd = -1,
		.wait_fd = -1,
		.clock_slack_ns = SLACK_NS,
	};
	struct path p = standard_path(T0);

	use_config(&cfg);
	add(ev_sys_enter(T0 - 20000, WAKEE_CPU, WAKEE, NR_RT_SIGTIMEDWAIT, 0));
	add(ev_switch(T0 - 19000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_sys_enter(p.enter, WAKER_CPU, WAKER, NR_TGKILL, 4242));
	add(ev_waking(p.waking, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_wakeup(p.wakeup, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU));
	add(ev_switch(p.switch_in, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(ev_sys_exit(p.wait_exit, WAKEE_CPU, WAKEE, NR_RT_SIGTIMEDWAIT, 10));
	add_sample(1, &p);
	merger__finish(m, 0);

	assert_complete_along(&got.r[0], &p);
}

Test(merge, a_spinning_waiter_has_a_total_and_no_phases_and_is_labelled_when_switched_out)
{
	static const struct merger_config cfg = {
		.notify_syscalls = { { -1, -1, -1, -1 } },
		.wait_syscalls = { { -1, -1, -1, -1 } },
		.user_only = true,
		.notify_fd = -1,
		.wait_fd = -1,
		.clock_slack_ns = SLACK_NS,
	};
	struct wp_sample s1 = make_sample(1, 0), s2 = make_sample(2, 0), s3 = make_sample(3, 0);
	uint64_t n2 = T0 + SAMPLE_GAP, n3 = T0 + 2 * SAMPLE_GAP;

	use_config(&cfg);
	/* 1: spins from T0 - 5000; preempted before it began to wait: does not count */
	add(ev_switch(T0 - 8000, WAKEE_CPU, WAKEE, OTHER, 0, 1));
	add(ev_switch(T0 - 7000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
	cr_assert_eq(merger__add_sample(m, &s1, T0, T0 + 400, T0 - 5000), 0);
	/* 2: a timer tick's kworker takes the spinner's CPU inside its wait */
	add(ev_switch(n2 - 2000, WAKEE_CPU, WAKEE, OTHER, 0, 1));
	add(ev_switch(n2 - 1000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
	cr_assert_eq(merger__add_sample(m, &s2, n2, n2 + 1400, n2 - 5000), 0);
	/* a syscall by the spinner inside sample 2's wait is counted */
	add(ev_sys_enter(n2 - 500, WAKEE_CPU, WAKEE, NR_READ, 3));
	/* 3: no wait start taken: the window opens at the notify */
	add(ev_switch(n3 - 2000, WAKEE_CPU, WAKEE, OTHER, 0, 1));
	add(ev_switch(n3 - 1000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
	cr_assert_eq(merger__add_sample(m, &s3, n3, n3 + 300, 0), 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 3);
	assert_label(&got.r[0], LABEL_COMPLETE);
	cr_assert_not(got.r[0].phased, "no kernel in the path: no phases");
	assert_ns(got.r[0].total_ns, 400, "total");
	assert_ns(got.r[0].t_wait_start_ns, T0 - 5000, "wait start");
	cr_assert_eq(got.r[0].waiter_syscalls, 0);
	assert_label(&got.r[1], LABEL_PREEMPTED);
	cr_assert_eq(got.r[1].waiter_syscalls, 1, "the spinner's read() inside its wait");
	assert_label(&got.r[2], LABEL_COMPLETE);
}

/* ---------------------------------------------------------------- a thread's start */

#define NR_CLONE3	435
#define CHILD		1100u

static const struct merger_config thread_start_cfg = {
	.notify_syscalls = { { NR_CLONE3, -1, -1, -1 } },
	.wait_syscalls = { { NR_CLONE3, -1, -1, -1 } },
	.new_task = true,
	.notify_fd = -1,
	.wait_fd = -1,
	.clock_slack_ns = SLACK_NS,
};

/* add_start_sample - the waker's pthread_create() at @t_notify, the new thread @child's first stamp at @t_woken */
static void add_start_sample(uint64_t seq, uint32_t child, uint64_t t_notify, uint64_t t_woken)
{
	struct wp_sample s = make_sample(seq, 0);

	s.wakee_tid = child;
	cr_assert_eq(merger__add_sample(m, &s, t_notify, t_woken, 0), 0);
}

Test(merge, a_thread_start_is_a_wakeup_whose_wakeup_new_is_both_its_waking_and_its_wakeup)
{
	use_config(&thread_start_cfg);
	add(ev_sys_enter(T0 + 2000, WAKER_CPU, WAKER, NR_CLONE3, 0x7ffc0000));
	add(ev_wakeup_new(T0 + 14000, WAKER_CPU, WAKER, CHILD, WAKEE_CPU, T0 - 50000));
	add(ev_sys_exit(T0 + 15000, WAKER_CPU, WAKER, NR_CLONE3, CHILD));
	add(ev_switch(T0 + 19000, WAKEE_CPU, IDLE_TID, CHILD, 0, 0));
	add(ev_sys_exit(T0 + 19800, WAKEE_CPU, CHILD, NR_CLONE3, 0));
	add_start_sample(1, CHILD, T0, T0 + 21600);
	/* the next thread: another tid, and its sample must not reach back into the first one's events */
	add(ev_sys_enter(T0 + SAMPLE_GAP + 1500, WAKER_CPU, WAKER, NR_CLONE3, 0x7ffc0000));
	add(ev_wakeup_new(T0 + SAMPLE_GAP + 11000, WAKER_CPU, WAKER, CHILD + 1, WAKER_CPU, 0));
	add(ev_sys_exit(T0 + SAMPLE_GAP + 12000, WAKER_CPU, WAKER, NR_CLONE3, CHILD + 1));
	add(ev_switch(T0 + SAMPLE_GAP + 20000, WAKER_CPU, WAKER, CHILD + 1, TASK_INTERRUPTIBLE, 0));
	add(ev_sys_exit(T0 + SAMPLE_GAP + 21000, WAKER_CPU, CHILD + 1, NR_CLONE3, 0));
	add_start_sample(2, CHILD + 1, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + 23000);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_COMPLETE);
	assert_ns(got.r[0].phase_ns[PHASE_NOTIFY_USER], 2000, "notify_user: pthread_create() up to clone3");
	assert_ns(got.r[0].phase_ns[PHASE_NOTIFY_KERNEL], 12000, "notify_kernel: clone3 up to sched_wakeup_new");
	assert_ns(got.r[0].phase_ns[PHASE_WAKE_ENQUEUE], 0, "wake_enqueue: no sched_waking, one record");
	assert_ns(got.r[0].phase_ns[PHASE_RUNQ_WAIT], 5000, "runq_wait");
	assert_ns(got.r[0].phase_ns[PHASE_RESUME_KERNEL], 800, "resume_kernel: the child's own clone3 exit");
	assert_ns(got.r[0].phase_ns[PHASE_RESUME_USER], 1800, "resume_user");
	assert_phases_add_up(&got.r[0]);
	cr_assert(got.r[0].target_was_idle, "the wakee's CPU was idle at its wakeup_new");
	cr_assert_eq(got.r[0].target_cpu, WAKEE_CPU);
	/* the waker's own clone3 exit (returning the child's tid) is not the wait's end */
	assert_ns(got.r[1].mark_ns[MARK_WAIT_EXIT], T0 + SAMPLE_GAP + 21000, "wait exit: the child's");
	assert_label(&got.r[1], LABEL_COMPLETE);
	assert_ns(got.r[1].phase_ns[PHASE_RUNQ_WAIT], 9000, "runq_wait: the creator held its CPU until it slept");
	assert_phases_add_up(&got.r[1]);
}

Test(merge, a_thread_start_without_its_flagged_wakeup_new_is_missing_its_waking_never_no_sleep)
{
	struct wp_event plain;

	use_config(&thread_start_cfg);
	/* a wakeup_new as a wakeprobe before recording format 4 saw it: no flag */
	plain = ev_wakeup_new(T0 + 14000, WAKER_CPU, WAKER, CHILD, WAKEE_CPU, 0);
	plain.wake.flags = 0;
	add(ev_sys_enter(T0 + 2000, WAKER_CPU, WAKER, NR_CLONE3, 0));
	add(plain);
	add(ev_switch(T0 + 19000, WAKEE_CPU, IDLE_TID, CHILD, 0, 0));
	add(ev_sys_exit(T0 + 19800, WAKEE_CPU, CHILD, NR_CLONE3, 0));
	add_start_sample(1, CHILD, T0, T0 + 21600);
	/* a waking of the new thread on an ordinary path is not its start either */
	add(ev_sys_enter(T0 + SAMPLE_GAP + 2000, WAKER_CPU, WAKER, NR_CLONE3, 0));
	add(ev_waking(T0 + SAMPLE_GAP + 3000, WAKER_CPU, WAKER, CHILD + 1, WAKEE_CPU, 0));
	add(ev_wakeup(T0 + SAMPLE_GAP + 4000, WAKER_CPU, WAKER, CHILD + 1, WAKEE_CPU));
	add(ev_switch(T0 + SAMPLE_GAP + 5000, WAKEE_CPU, IDLE_TID, CHILD + 1, 0, 0));
	add(ev_sys_exit(T0 + SAMPLE_GAP + 6000, WAKEE_CPU, CHILD + 1, NR_CLONE3, 0));
	add_start_sample(2, CHILD + 1, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + 7000);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_label(&got.r[i], LABEL_MISSING_EVENT);
		cr_assert_eq(got.r[i].missing, MARK_WAKING, "sample %zu: missing %s", i + 1,
			     wakeup__mark_name(got.r[i].missing));
	}
}

/* ---------------------------------------------------------------- the lean engine */

static const struct merger_config lean_cfg = {
	.notify_syscalls = { { NR_WRITE, -1, -1, -1 } },
	.wait_syscalls = { { NR_READ, -1, -1, -1 } },
	.lean = true,
	.notify_fd = EFD,
	.wait_fd = EFD,
	.clock_slack_ns = SLACK_NS,
};

/*
 * the standard path's lean record: its waking, wakeup and switch-in, the
 * waker's syscall entry before its waking and the wakee's exit after its
 * switch-in, as spans
 */
static struct wp_event lean_of(uint64_t t_notify, uint16_t flags)
{
	struct wp_event e = ev_lean(t_notify + OFF_SWITCH_IN, WAKEE_CPU, IDLE_TID, WAKEE, WAKER, WAKER_CPU,
				    t_notify + OFF_WAKING, t_notify + OFF_WAKEUP, flags);

	e.lean.notify_before = wp_lean_span(OFF_WAKING - OFF_ENTER);
	e.lean.exit_after = wp_lean_span(OFF_WAIT_EXIT - OFF_SWITCH_IN);
	return e;
}

Test(merge, a_lean_wakeup_has_the_six_phases_of_its_record_and_its_spans)
{
	const struct sample_result *r;

	use_config(&lean_cfg);
	add(lean_of(T0, 0));
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_label(r, LABEL_COMPLETE);
	cr_assert(r->lean && r->phased);
	for (int k = 0; k < NR_PHASES; k++)
		assert_ns(r->phase_ns[k], standard_phases[k], wakeup__phase_name(k));
	assert_ns(r->mark_ns[MARK_NOTIFY_ENTER], T0 + OFF_ENTER, "the waker's syscall entry");
	assert_ns(r->mark_ns[MARK_WAIT_EXIT], T0 + OFF_WAIT_EXIT, "the wakee's syscall exit");
	assert_phases_add_up(r);
	cr_assert_eq(r->waking_cpu, WAKER_CPU);
	cr_assert_eq(r->target_cpu, WAKEE_CPU);
}

/* a span of 0 is one not seen: a waker in no syscall, a wakee woken again before it left its own */
Test(merge, a_lean_record_without_a_span_is_missing_that_end)
{
	struct wp_event no_entry = lean_of(T0, 0), no_exit = lean_of(T0 + SAMPLE_GAP, 0);

	no_entry.lean.notify_before = 0;
	no_exit.lean.exit_after = 0;
	use_config(&lean_cfg);
	add(no_entry);
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	add(no_exit);
	add_sample_at(2, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + OFF_WOKEN, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[0].missing, MARK_NOTIFY_ENTER, "missing %s", wakeup__mark_name(got.r[0].missing));
	assert_label(&got.r[1], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[1].missing, MARK_WAIT_EXIT, "missing %s", wakeup__mark_name(got.r[1].missing));
}

/* the span's encoding: ns plus one, 0 for none and for one past what 32 bits hold */
Test(merge, a_lean_span_keeps_zero_for_not_seen)
{
	cr_assert_eq(wp_lean_span(0), 1);
	cr_assert_eq(wp_lean_span(4000), 4001);
	cr_assert_eq(wp_lean_span(0xfffffffeull), 0xffffffffu);
	cr_assert_eq(wp_lean_span(0xffffffffull), 0, "4.29 s: past what it keeps, not seen");
	cr_assert_eq(wp_lean_span(1ull << 40), 0);
}

/* no record: nothing woke a sleeping wakee, so it was awake; another task's records do not count */
Test(merge, a_lean_sample_without_a_record_of_its_wakee_is_no_sleep)
{
	use_config(&lean_cfg);
	add(ev_lean(T0 + OFF_SWITCH_IN, WAKEE_CPU, IDLE_TID, OTHER, WAKER, WAKER_CPU, T0 + OFF_WAKING,
		    T0 + OFF_WAKEUP, 0));
	add_sample_at(1, T0, T0 + 1500, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_label(&got.r[0], LABEL_NO_SLEEP);
}

/*
 * The switch-in went untraced: the record comes at the wakee's next
 * switch-out, after t_woken and after the next notify. The first sample
 * waits for it and is missing its switch-in; the second skips it as the
 * previous sample's.
 */
Test(merge, a_lean_record_of_a_lost_switch_in_comes_late_and_names_the_switch_in)
{
	struct wp_event late = lean_of(T0, WP_LEAN_NO_SWITCH_IN);

	use_config(&lean_cfg);
	late.ts_ns = T0 + SAMPLE_GAP + 200;
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	/* the stream is complete past t_woken + the slack, but not past the lean settle time */
	merger__advance(m, T0 + OFF_WOKEN + SLACK_NS + 1000);
	cr_assert_eq(got.n, 0, "a lean sample waits for a record that comes at the next switch-out");
	add(late);
	add(lean_of(T0 + SAMPLE_GAP, 0));
	add_sample_at(2, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + OFF_WOKEN, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[0].missing, MARK_SWITCH_IN, "missing %s", wakeup__mark_name(got.r[0].missing));
	assert_ns(got.r[0].mark_ns[MARK_WAKEUP], T0 + OFF_WAKEUP, "wakeup mark");
	assert_label(&got.r[1], LABEL_COMPLETE);
	assert_ns(got.r[1].mark_ns[MARK_WAKING], T0 + SAMPLE_GAP + OFF_WAKING, "its own waking");
}

/* got_late - the merger's count of records that came for a time already finished */
static uint64_t got_late(void)
{
	return merger__stats(m)->late_events;
}

/* merge_one_lean - the label of the standard path's one sample, merged in the lean engine with record @e alone */
static enum sample_label merge_one_lean(struct wp_event e)
{
	use_config(&lean_cfg);
	add(e);
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	merger__finish(m, 0);
	cr_assert_eq(got.n, 1);
	return got.r[0].label;
}

/* a wake before the notify, switched in after it: an earlier notify already woke this wait */
Test(merge, a_lean_wake_from_before_the_notify_is_woken_early)
{
	struct wp_event early = lean_of(T0, 0);

	early.lean.waking_ns = T0 - 3000;
	early.lean.wakeup_ns = T0 - 2500;
	cr_assert_eq(merge_one_lean(early), LABEL_WOKEN_EARLY);
}

Test(merge, a_lean_switch_in_after_t_woken_is_clock_order)
{
	struct wp_event late = lean_of(T0, 0);

	late.ts_ns = T0 + OFF_WOKEN + SLACK_NS / 2;
	cr_assert_eq(merge_one_lean(late), LABEL_CLOCK_ORDER);
}

Test(merge, a_lean_thread_start_needs_its_new_task_record)
{
	struct merger_config cfg = thread_start_cfg;
	struct wp_event start;

	cfg.lean = true;
	use_config(&cfg);
	start = ev_lean(T0 + 19000, WAKEE_CPU, IDLE_TID, CHILD, WAKER, WAKER_CPU, T0 + 14000, T0 + 14000,
			WP_LEAN_NEW);
	start.lean.notify_before = wp_lean_span(12000);	/* clone3 entered at +2000 */
	start.lean.exit_after = wp_lean_span(800);	/* the child's own clone3 exit */
	add(start);
	add_start_sample(1, CHILD, T0, T0 + 21600);
	/* a later, ordinary wake of the next thread is not its start */
	add(ev_lean(T0 + SAMPLE_GAP + 5000, WAKEE_CPU, IDLE_TID, CHILD + 1, WAKER, WAKER_CPU,
		    T0 + SAMPLE_GAP + 3000, T0 + SAMPLE_GAP + 4000, 0));
	add_start_sample(2, CHILD + 1, T0 + SAMPLE_GAP, T0 + SAMPLE_GAP + 7000);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 2);
	assert_label(&got.r[0], LABEL_COMPLETE);
	assert_ns(got.r[0].phase_ns[PHASE_WAKE_ENQUEUE], 0, "wake_enqueue: one stamp");
	assert_ns(got.r[0].phase_ns[PHASE_NOTIFY_USER], 2000, "notify_user: pthread_create() up to clone3");
	assert_ns(got.r[0].phase_ns[PHASE_NOTIFY_KERNEL], 12000, "notify_kernel: clone3 up to sched_wakeup_new");
	assert_ns(got.r[0].phase_ns[PHASE_RESUME_KERNEL], 800, "resume_kernel: the child's clone3 exit");
	assert_phases_add_up(&got.r[0]);
	assert_label(&got.r[1], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[1].missing, MARK_WAKING);
}

/*
 * merge_slow_lean - the standard path's one sample, its wake queued on the
 * target (whose wake list sched_wakeup ran from), its record flagged
 * @flags, merged with what the test added: complete, explained, each
 * phase the sum of its causes
 */
static const struct sample_result *merge_slow_lean(uint16_t flags)
{
	struct wp_event rec = lean_of(T0, flags);
	const struct sample_result *r;

	rec.lean.wakeup_cpu = WAKEE_CPU;
	add(rec);
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	merger__finish(m, 0);
	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_label(r, LABEL_COMPLETE);
	cr_assert(r->lean_flight, "it brought flight records: explained");
	assert_causes_add_up(r);
	return r;
}

/*
 * The flight recorder: a wake slow enough brings the records of the CPU
 * that switched the wakee in, the oldest from before the sample. They
 * split wake_enqueue (the CPU idle) and runq_wait (another task, then the
 * idle task on its way) there; the notify, on the waker's CPU, and the
 * resume, after the copy, have no record and stay unexplained.
 */
Test(merge, a_slow_lean_wake_is_split_on_its_cpu_by_the_flight_records_and_nowhere_else)
{
	const struct sample_result *r;

	use_config(&lean_cfg);
	/* before the sample: CPU 1 went idle, its idle task running */
	add(ev_switch(T0 - 5000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_idle_enter(T0 - 4900, WAKEE_CPU, 1));
	/* the wake at +1100, queued; the CPU leaves idle at +1900 and runs OTHER until +5000 */
	add(ev_idle_exit(T0 + OFF_WAKEUP, WAKEE_CPU, T0 - 4900));
	add(ev_switch(T0 + 2500, WAKEE_CPU, IDLE_TID, OTHER, 0, 0));
	add(ev_switch(T0 + 5000, WAKEE_CPU, OTHER, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_switch(T0 + OFF_SWITCH_IN, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	/* its CPU's six records came with it */
	r = merge_slow_lean(6 << WP_LEAN_FLIGHT_SHIFT);
	/* wake_enqueue, +1100 .. +1900: the target CPU idle */
	assert_ns(r->why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], OFF_WAKEUP - OFF_WAKING, "idle");
	/* runq_wait, +1900 .. +5900: idle task 600, OTHER 2500, idle task 900 */
	assert_ns(r->why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], 2500, "the other task");
	assert_ns(r->why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK], 600 + 900, "the idle task to the wakee");
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_UNEXPLAINED], OFF_WAKING - OFF_ENTER,
		  "no record on the waker's CPU");
	assert_ns(r->why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_UNEXPLAINED], OFF_WAIT_EXIT - OFF_SWITCH_IN,
		  "no record after the copy");
	cr_assert_eq(r->why.by_cause[CAUSE_IPI], 0, "no interrupt is traced in the lean engine: none is claimed");
	cr_assert_eq(got_late(), 0, "the flight records are old by design, not late");
}

/*
 * A workload's slow wakeup also brings its waker's CPU's records from its
 * notify on (WP_LEAN_NOTIFY_SEEN) and its own CPU's from its switch-in to
 * its wait's exit (WP_LEAN_RESUME_SEEN): an interrupt on the waker's CPU
 * inside notify_kernel, and one on the wakee's inside resume_kernel, are
 * named there; resume_user, after the exit, has no record.
 */
Test(merge, a_slow_lean_wake_is_split_from_its_notify_to_its_exit_when_those_records_came)
{
	const struct sample_result *r;

	use_config(&lean_cfg);
	/* the waker's CPU: an interrupt of 300 ns inside notify_kernel (+300 .. +1100) */
	add(ev_irq(T0 + 500, WAKER_CPU, WP_IRQ_HARD, 24, false, "eth0"));
	add(ev_irq(T0 + 800, WAKER_CPU, WP_IRQ_HARD, 24, true, "eth0"));
	/* the wakee's CPU: idle, then the wakee; an interrupt of 200 ns inside resume_kernel (+5900 .. +6600) */
	add(ev_switch(T0 - 5000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_idle_enter(T0 - 4900, WAKEE_CPU, 1));
	add(ev_idle_exit(T0 + OFF_WAKEUP, WAKEE_CPU, T0 - 4900));
	add(ev_switch(T0 + OFF_SWITCH_IN, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(ev_irq(T0 + 6100, WAKEE_CPU, WP_IRQ_HARD, 25, false, "nvme0q1"));
	add(ev_irq(T0 + 6300, WAKEE_CPU, WP_IRQ_HARD, 25, true, "nvme0q1"));
	r = merge_slow_lean((8 << WP_LEAN_FLIGHT_SHIFT) | WP_LEAN_NOTIFY_SEEN | WP_LEAN_RESUME_SEEN);
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_IRQ], 300, "the waker's CPU's interrupt");
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_UNEXPLAINED], 0, "its notify is reached");
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_USER][CAUSE_UNEXPLAINED], 0, "from t_notify on");
	assert_ns(r->why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], OFF_WAKEUP - OFF_WAKING, "idle");
	assert_ns(r->why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_IRQ], 200, "the wakee's CPU's interrupt");
	assert_ns(r->why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_UNEXPLAINED], 0, "its resume is reached");
	assert_ns(r->why.by_phase_cause[PHASE_RESUME_USER][CAUSE_UNEXPLAINED], OFF_WOKEN - OFF_WAIT_EXIT,
		  "nothing after the exit came");
}

/* without the flags those records are not claimed, whatever the window holds */
Test(merge, a_slow_lean_wake_without_its_notify_or_resume_records_leaves_them_unexplained)
{
	const struct sample_result *r;

	use_config(&lean_cfg);
	add(ev_irq(T0 + 500, WAKER_CPU, WP_IRQ_HARD, 24, false, "eth0"));
	add(ev_irq(T0 + 800, WAKER_CPU, WP_IRQ_HARD, 24, true, "eth0"));
	add(ev_switch(T0 + OFF_SWITCH_IN, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	add(lean_of(T0, 2 << WP_LEAN_FLIGHT_SHIFT));
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	r = &got.r[0];
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_UNEXPLAINED], OFF_WAKING - OFF_ENTER, "notify");
	assert_ns(r->why.by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_IRQ], 0, "not claimed");
	assert_ns(r->why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_UNEXPLAINED], OFF_WAIT_EXIT - OFF_SWITCH_IN,
		  "resume");
}

/* a wake that brought no flight records (not slow, or none came) is not explained */
Test(merge, a_fast_lean_wake_is_not_explained)
{
	use_config(&lean_cfg);
	add(lean_of(T0, 0));
	add_sample_at(1, T0, T0 + OFF_WOKEN, 0);
	merger__finish(m, 0);

	cr_assert_eq(got.n, 1);
	assert_label(&got.r[0], LABEL_COMPLETE);
	cr_assert_not(got.r[0].lean_flight);
	cr_assert_eq(got.r[0].why.by_cause[CAUSE_UNEXPLAINED] + got.r[0].why.by_cause[CAUSE_IDLE], 0);
}
