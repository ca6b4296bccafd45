/* SPDX-License-Identifier: GPL-2.0 */
/* test_attach.c - Criterion tests for the attach engine: every wakeup of a tracked thread from kernel records */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "attach.h"
#include "attach_aggregate.h"
#include "events.h"
#include "fd_kind_stub.h"

/*
 * The traced process PROC (fd_kind_stub.h, with its fds): WAKER (on
 * WAKER_CPU) wakes WAKEE (which last ran on WAKEE_CPU); WORKER is a third
 * thread of it. OUTSIDER is a thread of a process that is not traced,
 * KWORKER a kernel thread.
 */
#define WAKER		2001u
#define WAKEE		2002u
#define WORKER		2003u
#define OUTSIDER_PROC	3000u
#define OUTSIDER	3001u
#define OTHER_PROC	4000u
#define KWORKER		77u
#define IDLE_TID	0u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define SPARE_CPU	2u
#define TASK_INTERRUPTIBLE 1u
#define TASK_DEAD	0x80u

#define FUTEX_ADDR	0x7f12a0ull
#define SIGMASK_ADDR	0x7ffd1000ull

#define T0		1000000000ull	/* 1 s of uptime: nothing sits near zero */

/* offsets from the wakee's switch-out to sleep of every stamp on the standard path */
#define OFF_SINCE	500		/* the wait syscall was entered this long before */
#define OFF_IDLE_SINCE	100		/* the wakee's CPU went idle */
#define OFF_NOTIFY	9700		/* the waker's syscall entry */
#define OFF_WAKING	10000
#define OFF_WAKEUP	10800
#define OFF_IDLE_EXIT	11000
#define OFF_SWITCH_IN	14000
#define OFF_WAIT_EXIT	14700
#define PATH_SPAN	20000		/* every stamp of a path lies before this offset */

/* ---------------------------------------------------------------- fixture */

#define KEPT_MAX	16

struct collected {
	struct attach_result r[KEPT_MAX];
	size_t n;
	size_t by_label[NR_LABELS];
	struct attach_aggregate *agg;	/* fed too, when set */
};

static struct attach *a;
static struct collected got;

static void collect(const struct attach_result *r, void *ctx)
{
	struct collected *c = ctx;

	if (c->n < KEPT_MAX)
		c->r[c->n] = *r;
	c->n++;
	if (r->sr.label < NR_LABELS)
		c->by_label[r->sr.label]++;
	if (c->agg)
		attach_aggregate__add(c->agg, r);
}

/* Each Criterion test runs in its own process: one static engine, rebuilt by the fixture. */
static void setup(void)
{
	memset(&got, 0, sizeof(got));
	fd_kind_calls = 0;
	a = attach__new(&stub_cfg, collect, &got);
	cr_assert_not_null(a, "attach__new failed");
}

static void teardown(void)
{
	attach__free(a);
	a = NULL;
	attach_aggregate__free(got.agg);
	got.agg = NULL;
}

TestSuite(attach, .init = setup, .fini = teardown);

/* ---------------------------------------------------------------- builders */

static void add(struct wp_event e)
{
	attach__add_event(a, &e);
}

/* the stamps of one wakeup; a zero stamp (or record type) means that record never arrives */
struct path {
	uint64_t block;			/* the wakee's sleeping switch-out */
	struct wp_event blk;		/* its BLOCK, written with it */
	bool block_first;		/* the BLOCK before the switch-out in the ring */
	struct wp_event waker;		/* the WAKER record, on the waking's CPU before it */
	uint32_t waking_tid;		/* current at sched_waking */
	uint64_t waking;
	uint64_t target_idle_since;
	uint32_t target_curr;		/* the waking's hint: the task on the wakee's CPU then (0: idle) */
	const char *target_curr_comm;
	uint64_t wakeup;
	uint64_t idle_exit;
	uint64_t switch_in;
	uint64_t wait_exit;
	int64_t exit_nr;		/* the syscall whose exit ends the wait */
	uint32_t tgid;			/* the wakee's process, as its switch-in names it */
	uint64_t drops_from;		/* records from this stamp on carry drops + 1 */
	uint32_t drops;
};

/* standard_path - WAKEE sleeps in read(EFD) at @t; WAKER's write(EFD) wakes it onto its idle CPU */
static struct path standard_path(uint64_t t)
{
	return (struct path){
		.block = t,
		.blk = ev_block(t, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, t - OFF_SINCE),
		.waker = ev_waker_syscall(t + OFF_WAKING, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, EFD, 0,
					  t + OFF_NOTIFY),
		.waking_tid = WAKER,
		.waking = t + OFF_WAKING,
		.target_idle_since = t + OFF_IDLE_SINCE,
		.wakeup = t + OFF_WAKEUP,
		.idle_exit = t + OFF_IDLE_EXIT,
		.switch_in = t + OFF_SWITCH_IN,
		.wait_exit = t + OFF_WAIT_EXIT,
		.exit_nr = SYS_read,
		.tgid = PROC,
	};
}

/* with_waker - @p woken by @waker instead, which also names current at the waking */
static struct path with_waker(struct path p, struct wp_event waker)
{
	waker.ts_ns = p.waking;
	p.waker = waker;
	p.waking_tid = waker.tid;
	return p;
}

/* with_wait - @p's wakee sleeps in syscall @nr (@arg, @arg2) instead, entered OFF_SINCE before its sleep */
static struct path with_wait(struct path p, int64_t nr, uint64_t arg, uint64_t arg2)
{
	p.blk = ev_block(p.block, WAKEE_CPU, WAKEE, nr, arg, arg2, nr < 0 ? 0 : p.block - OFF_SINCE);
	p.exit_nr = nr;
	return p;
}

#define PATH_EVENTS	10

static size_t path_events(const struct path *p, struct wp_event *out)
{
	struct wp_event sw = ev_switch(p->block, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0);
	size_t n = 0, i;

	if (p->block && p->block_first)
		out[n++] = p->blk;
	if (p->block)
		out[n++] = sw;
	if (p->block && !p->block_first && p->blk.type)
		out[n++] = p->blk;
	if (p->waker.type)
		out[n++] = p->waker;
	if (p->waking) {
		out[n] = ev_waking(p->waking, WAKER_CPU, p->waking_tid, WAKEE, WAKEE_CPU, p->target_idle_since);
		out[n].wake.target_curr_pid = p->target_curr;
		if (p->target_curr_comm)
			snprintf(out[n].wake.target_curr_comm, sizeof(out[n].wake.target_curr_comm), "%s",
				 p->target_curr_comm);
		n++;
	}
	if (p->wakeup)
		out[n++] = ev_wakeup(p->wakeup, WAKEE_CPU, IDLE_TID, WAKEE, WAKEE_CPU);
	if (p->idle_exit)
		out[n++] = ev_idle_exit(p->idle_exit, WAKEE_CPU, p->target_idle_since);
	if (p->switch_in)
		out[n++] = with_next_tgid(with_next_comm(ev_switch(p->switch_in, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0),
							 "consumer"),
					  p->tgid);
	if (p->wait_exit)
		out[n++] = ev_sys_exit(p->wait_exit, WAKEE_CPU, WAKEE, p->exit_nr, 8);
	for (i = 0; i < n; i++)
		out[i].drops = p->drops + (p->drops_from && out[i].ts_ns >= p->drops_from);
	return n;
}

/* emit_path - add a path's records in time order (equal stamps keep the order above) */
static void emit_path(const struct path *p)
{
	struct wp_event evs[PATH_EVENTS];
	size_t n = path_events(p, evs), i, j;

	for (i = 1; i < n; i++) {
		struct wp_event e = evs[i];

		for (j = i; j > 0 && evs[j - 1].ts_ns > e.ts_ns; j--)
			evs[j] = evs[j - 1];
		evs[j] = e;
	}
	for (i = 0; i < n; i++)
		add(evs[i]);
}

/* the waker's last switch-in, which names it: a syscall waker record has no room for a comm */
static void name_the_waker(uint64_t ts)
{
	add(with_next_tgid(with_next_comm(ev_switch(ts, WAKER_CPU, IDLE_TID, WAKER, 0, 0), "producer"), PROC));
}

static void assert_phases(const struct attach_result *r, int64_t notify_kernel, int64_t wake_enqueue,
			  int64_t runq_wait, int64_t resume_kernel)
{
	const struct sample_result *sr = &r->sr;

	cr_assert_eq(sr->label, LABEL_COMPLETE, "label %s", wakeup__label_name(sr->label));
	cr_assert(sr->phased);
	cr_assert_eq(sr->phase_ns[PHASE_NOTIFY_USER], 0);
	cr_assert_eq(sr->phase_ns[PHASE_NOTIFY_KERNEL], notify_kernel);
	cr_assert_eq(sr->phase_ns[PHASE_WAKE_ENQUEUE], wake_enqueue);
	cr_assert_eq(sr->phase_ns[PHASE_RUNQ_WAIT], runq_wait);
	cr_assert_eq(sr->phase_ns[PHASE_RESUME_KERNEL], resume_kernel);
	cr_assert_eq(sr->phase_ns[PHASE_RESUME_USER], 0);
	cr_assert_eq(sr->total_ns, notify_kernel + wake_enqueue + runq_wait + resume_kernel);
	cr_assert_eq(sr->t_woken_ns - sr->t_notify_ns, (uint64_t)sr->total_ns);
	cr_assert_eq(r->absent[PHASE_NOTIFY_USER], ATTACH_ABSENT_NO_USER_STAMP);
	cr_assert_eq(r->absent[PHASE_WAKE_ENQUEUE], ATTACH_PRESENT);
	cr_assert_eq(r->absent[PHASE_RUNQ_WAIT], ATTACH_PRESENT);
	cr_assert_eq(r->absent[PHASE_RESUME_USER], ATTACH_ABSENT_NO_USER_STAMP);
}

/* assert_not_phased - a labelled wakeup: no phase, no wake-to-run */
static void assert_not_phased(const struct attach_result *r, enum sample_label label)
{
	int k;

	cr_assert_eq(r->sr.label, label, "label %s, not %s", wakeup__label_name(r->sr.label),
		     wakeup__label_name(label));
	cr_assert_not(r->sr.phased);
	for (k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++) {
		cr_assert_eq(r->absent[k], ATTACH_ABSENT_LABELLED, "phase %s", wakeup__phase_name(k));
		cr_assert_eq(r->sr.phase_ns[k], 0);
	}
	cr_assert_eq(r->wake_to_run_ns, -1);
	cr_assert_eq(r->notify_to_return_ns, -1);
	cr_assert_eq(r->waited_ns, -1);
}

/* ---------------------------------------------------------------- the standard wakeup */

Test(attach, a_thread_in_a_syscall_waking_another_gives_every_kernel_phase_from_its_entry)
{
	struct path p = standard_path(T0);
	const struct attach_result *r = &got.r[0];
	const struct sample_result *sr = &r->sr;
	int k;

	name_the_waker(T0 - 2000);
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	/* notify_kernel runs from the waker's syscall entry, which its record carries, to sched_waking */
	assert_phases(r, OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP,
		      OFF_WAIT_EXIT - OFF_SWITCH_IN);
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(sr->t_notify_ns, T0 + OFF_NOTIFY);
	cr_assert_eq(sr->t_woken_ns, T0 + OFF_WAIT_EXIT);
	cr_assert_eq(sr->total_ns, 5000);
	for (k = 0; k < NR_MARKS; k++)
		cr_assert(r->mark_seen[k], "mark %s", wakeup__mark_name(k));
	cr_assert_eq(sr->mark_ns[MARK_NOTIFY_ENTER], T0 + OFF_NOTIFY);
	cr_assert_eq(sr->mark_ns[MARK_WAKING], T0 + OFF_WAKING);
	cr_assert_eq(sr->mark_ns[MARK_WAKEUP], T0 + OFF_WAKEUP);
	cr_assert_eq(sr->mark_ns[MARK_SWITCH_IN], T0 + OFF_SWITCH_IN);
	cr_assert_eq(sr->mark_ns[MARK_WAIT_EXIT], T0 + OFF_WAIT_EXIT);
	cr_assert_eq(r->wake_to_run_ns, OFF_SWITCH_IN - OFF_WAKING);
	cr_assert_eq(r->notify_to_return_ns, OFF_WAIT_EXIT - OFF_NOTIFY);
	cr_assert_eq(r->waited_ns, OFF_WAIT_EXIT + OFF_SINCE);

	/* runq_wait's idle part: the wakee's CPU was idle, and left idle 1 us after the waking */
	cr_assert(sr->target_was_idle);
	cr_assert(sr->idle_exit_seen);
	cr_assert_eq(sr->idle_exit_ns, OFF_IDLE_EXIT - OFF_WAKING);
	cr_assert_eq(sr->waking_cpu, WAKER_CPU);
	cr_assert_eq(sr->wakeup_cpu, WAKEE_CPU);
	cr_assert_eq(sr->target_cpu, WAKEE_CPU);

	/* who, in what */
	cr_assert_eq(sr->sample.seq, 1);
	cr_assert_eq(sr->sample.waker_tid, WAKER);
	cr_assert_eq(sr->sample.wakee_tid, WAKEE);
	cr_assert_eq(r->waker.cls, WP_WAKER_SYSCALL);
	cr_assert_eq(r->waker.tid, WAKER);
	cr_assert_eq(r->waker.tgid, PROC);
	cr_assert_str_eq(r->waker.comm, "producer");
	cr_assert_eq(r->waker.nr, SYS_write);
	cr_assert_eq(r->waker.arg, EFD);
	cr_assert_eq(r->waker.since_ns, T0 + OFF_NOTIFY);
	cr_assert_eq(sr->notify_nr, SYS_write);
	cr_assert_eq(sr->notify_arg, EFD);
	cr_assert(r->wait.known);
	cr_assert_eq(r->wait.nr, SYS_read);
	cr_assert_eq(r->wait.arg, EFD);
	cr_assert_eq(r->wait.since_ns, T0 - OFF_SINCE);
	cr_assert_eq(sr->wait_end_type, WP_EV_SYS_EXIT);
	cr_assert_eq(sr->wait_end_nr, SYS_read);
	cr_assert_eq(r->wakee_tgid, PROC);
	cr_assert_str_eq(r->wakee_comm, "consumer");
	cr_assert_eq(r->waker.fd_kind, FD_KIND_EVENTFD);
	cr_assert_eq(r->wait.fd_kind, FD_KIND_EVENTFD);
	cr_assert_eq(fd_kind_calls, 2, "one question per end");
	cr_assert_str_eq(r->mechanism, "eventfd write -> read");
	cr_assert_eq(r->family, MECH_EVENTFD);
	cr_assert_eq(attach__counters(a)->results, 1);
	cr_assert_eq(attach__counters(a)->threads, 2, "the waker and the wakee");
}

Test(attach, a_wakeup_is_handed_over_only_once_the_stream_is_complete_past_its_end)
{
	struct path p = standard_path(T0);

	emit_path(&p);
	attach__advance(a, T0 + OFF_WAIT_EXIT);
	cr_assert_eq(got.n, 0, "the wait's exit is stamped at the limit, not before it");
	attach__advance(a, T0 + OFF_WAIT_EXIT + 1);
	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].sr.label, LABEL_COMPLETE);
}

Test(attach, records_a_little_out_of_order_give_the_same_wakeup_and_late_ones_are_counted)
{
	struct path p = standard_path(T0);
	struct wp_event evs[PATH_EVENTS], late;
	size_t n = path_events(&p, evs), i;

	/* arrival: the wakee's CPU's records first and backwards, then the waker's: 15 us out of order */
	for (i = n; i-- > 0;)
		if (evs[i].cpu == WAKEE_CPU)
			add(evs[i]);
	for (i = 0; i < n; i++)
		if (evs[i].cpu != WAKEE_CPU)
			add(evs[i]);
	attach__advance(a, T0 + PATH_SPAN);
	cr_assert_eq(got.n, 1);
	assert_phases(&got.r[0], OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP,
		      OFF_WAIT_EXIT - OFF_SWITCH_IN);

	late = ev_idle_exit(T0 + PATH_SPAN - 1, SPARE_CPU, T0);
	attach__add_event(a, &late);
	cr_assert_eq(attach__counters(a)->late_events, 1);
	cr_assert_eq(attach__counters(a)->events, n + 1);
}

Test(attach, the_block_record_may_come_before_or_after_its_switch_out)
{
	struct path p = standard_path(T0);
	struct collected after;
	int k;

	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);
	cr_assert_eq(got.n, 1);
	after = got;

	attach__free(a);
	memset(&got, 0, sizeof(got));
	a = attach__new(&stub_cfg, collect, &got);
	cr_assert_not_null(a);
	p.block_first = true;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);
	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].sr.label, LABEL_COMPLETE);
	for (k = 0; k < NR_PHASES; k++)
		cr_assert_eq(got.r[0].sr.phase_ns[k], after.r[0].sr.phase_ns[k]);
	cr_assert_eq(got.r[0].wait.nr, SYS_read);
	cr_assert_eq(got.r[0].waited_ns, after.r[0].waited_ns);
	cr_assert_str_eq(got.r[0].mechanism, after.r[0].mechanism);
}

/* ---------------------------------------------------------------- waker classes */

/* arrays, not pointers: Criterion copies parameters into each test's process */
struct class_case {
	enum wp_waker_class cls;
	enum wp_irq_kind kind;
	int32_t nr;
	uint32_t current;		/* the task the waking found on its CPU */
	uint32_t tgid;
	char comm[WP_TASK_COMM_LEN];	/* the task's, or the irq handler's */
	char mechanism[MECHANISM_NAME_LEN];
	enum mech_family family;
	enum attach_absence notify;	/* why notify_kernel is absent */
	uint32_t waker_id;
	bool raised;			/* SOFTIRQ: raised by current in its own context (WP_WAKER_RAISED) */
	char waker_name[MECHANISM_NAME_LEN];
};

ParameterizedTestParameters(attach, every_waker_class_is_named_and_says_why_notify_kernel_is_absent)
{
	static struct class_case cases[] = {
		{ WP_WAKER_TRACKED, 0, -1, WORKER, PROC, "worker", "thread worker 2003 -> eventfd read",
		  MECH_EVENTFD, ATTACH_ABSENT_WAKER_NO_SYSCALL, WORKER, false, "thread worker 2003" },
		/* an untracked waker: its syscalls are not traced */
		{ WP_WAKER_PROCESS, 0, -1, OUTSIDER, OUTSIDER_PROC, "bash", "process bash 3000 -> eventfd read",
		  MECH_PROCESS, ATTACH_ABSENT_WAKER_UNTRACKED, OUTSIDER_PROC, false, "process bash 3000" },
		{ WP_WAKER_KTHREAD, 0, -1, KWORKER, KWORKER, "kworker/1:2",
		  "kernel thread kworker/1:2 -> eventfd read", MECH_KTHREAD, ATTACH_ABSENT_WAKER_UNTRACKED, KWORKER, false,
		  "kernel thread kworker/1:2" },
		{ WP_WAKER_IRQ, WP_IRQ_HARD, 24, OUTSIDER, OUTSIDER_PROC, "eth0", "irq 24 eth0 -> eventfd read",
		  MECH_IRQ, ATTACH_ABSENT_WAKER_INTERRUPT, 24, false, "irq 24 eth0" },
		{ WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, OUTSIDER, OUTSIDER_PROC, "", "softirq NET_RX -> eventfd read",
		  MECH_SOFTIRQ, ATTACH_ABSENT_WAKER_INTERRUPT, 3, false, "softirq NET_RX" },
		/* its send on loopback raised it and ran it: the mechanism stays, the sender is the waker */
		{ WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, OUTSIDER, OUTSIDER_PROC, "client", "softirq NET_RX -> eventfd read",
		  MECH_SOFTIRQ, ATTACH_ABSENT_WAKER_INTERRUPT, MECHANISM_RAISER_ID | OUTSIDER_PROC, true,
		  "process client 3000" },
		{ WP_WAKER_TIMER, WP_IRQ_TIMER, -1, OUTSIDER, OUTSIDER_PROC, "", "timer -> eventfd read", MECH_TIMER,
		  ATTACH_ABSENT_WAKER_INTERRUPT, 0, false, "timer" },
	};

	return cr_make_param_array(struct class_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct class_case *c, attach, every_waker_class_is_named_and_says_why_notify_kernel_is_absent)
{
	uint64_t waking = T0 + OFF_WAKING;
	const struct attach_result *r = &got.r[0];
	struct wp_event w;
	struct path p;

	switch (c->cls) {
	case WP_WAKER_IRQ:
	case WP_WAKER_SOFTIRQ:
		w = ev_waker_irq(waking, WAKER_CPU, c->current, WAKEE, c->cls, c->kind, c->nr, waking - 2000, c->comm);
		w.waker.waker_tgid = c->tgid;
		if (c->raised)
			w.waker.flags |= WP_WAKER_RAISED;
		break;
	case WP_WAKER_TIMER:
		w = ev_waker_timer(waking, WAKER_CPU, c->current, WAKEE, waking - 2000, 0xffffffff81234560ull);
		w.waker.waker_tgid = c->tgid;
		break;
	default:
		w = ev_waker_named(waking, WAKER_CPU, c->current, c->tgid, WAKEE, c->cls, c->comm);
		break;
	}
	p = with_waker(standard_path(T0), w);
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_phases(r, 0, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP, OFF_WAIT_EXIT - OFF_SWITCH_IN);
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], c->notify, "notify_kernel: %s",
		     attach__absence_name(r->absent[PHASE_NOTIFY_KERNEL]));
	cr_assert_not(r->mark_seen[MARK_NOTIFY_ENTER]);
	cr_assert_eq(r->sr.t_notify_ns, waking, "no syscall entry: the wakeup begins at sched_waking");
	cr_assert_eq(r->sr.notify_nr, -1);
	cr_assert_eq(r->notify_to_return_ns, -1);
	cr_assert_eq(r->wake_to_run_ns, OFF_SWITCH_IN - OFF_WAKING);
	cr_assert_eq(r->waited_ns, OFF_WAIT_EXIT + OFF_SINCE);
	cr_assert_eq(r->waker.cls, c->cls);
	cr_assert_eq(r->waker.tid, c->current);
	cr_assert_eq(r->waker.tgid, c->tgid);
	cr_assert_eq(mechanism__waker_id(&r->waker), c->waker_id);
	cr_assert_str_eq(r->mechanism, c->mechanism);
	cr_assert_eq(r->family, c->family);
	if (c->cls == WP_WAKER_TIMER)
		cr_assert_eq(r->waker.timer_fn, 0xffffffff81234560ull);
	else if (c->cls != WP_WAKER_SOFTIRQ || c->raised)
		cr_assert_str_eq(r->waker.comm, c->comm);
	cr_assert_eq(r->waker.raised, c->raised);
	if (c->waker_name[0]) {
		char name[MECHANISM_NAME_LEN];

		mechanism__waker_name(&r->waker, name, sizeof(name));
		cr_assert_str_eq(name, c->waker_name);
	}
}

Test(attach, a_waking_without_its_waker_record_is_missing_its_notify_end)
{
	struct path p = standard_path(T0);
	const struct attach_result *r = &got.r[0];

	memset(&p.waker, 0, sizeof(p.waker));
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(r, LABEL_MISSING_EVENT);
	cr_assert_eq(r->sr.missing, MARK_NOTIFY_ENTER);
	cr_assert_eq(r->waker.cls, 0);
	cr_assert_eq(r->waker.tid, WAKER, "current at the waking is still known");
	cr_assert_str_eq(r->mechanism, "unknown waker -> eventfd read");
	cr_assert(r->mark_seen[MARK_WAIT_EXIT]);
	cr_assert_eq(r->sr.t_notify_ns, T0 + OFF_WAKING);
	cr_assert_eq(r->sr.t_woken_ns, T0 + OFF_WAIT_EXIT);
}

Test(attach, a_waker_record_for_another_wakee_is_not_taken_and_is_counted)
{
	struct path p = standard_path(T0);

	p.waker.waker.wakee_pid = WORKER;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].waker.cls, 0);
	cr_assert_eq(attach__counters(a)->unpaired_wakers, 1);
}

/* ---------------------------------------------------------------- phases absent */

Test(attach, a_wakee_that_slept_outside_a_syscall_has_no_resume_kernel)
{
	struct path p = with_wait(standard_path(T0), -1, 0, 0);
	const struct attach_result *r = &got.r[0];

	p.wait_exit = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_phases(r, OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP, 0);
	cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_NO_WAIT_SYSCALL);
	cr_assert_str_eq(attach__absence_name(r->absent[PHASE_RESUME_KERNEL]), "no_wait_syscall");
	cr_assert_not(r->mark_seen[MARK_WAIT_EXIT]);
	cr_assert_eq(r->sr.mark_ns[MARK_WAIT_EXIT], T0 + OFF_SWITCH_IN, "zero wide: it takes the switch-in's time");
	cr_assert_eq(r->sr.t_woken_ns, T0 + OFF_SWITCH_IN);
	cr_assert_eq(r->notify_to_return_ns, -1);
	cr_assert_eq(r->waited_ns, -1);
	cr_assert_eq(r->wake_to_run_ns, OFF_SWITCH_IN - OFF_WAKING);
	cr_assert_str_eq(r->mechanism, "eventfd write -> sleep outside a syscall");
}

/* untimed - @p as traced without --syscall-phases: both syscalls from the registers, no exit record */
static struct path untimed(struct path p)
{
	p.waker.waker.since_ns = 0;
	p.waker.waker.flags = WP_WAKER_UNTIMED;
	p.blk.block.since_ns = 0;
	p.blk.block.flags = WP_BLOCK_UNTIMED;
	p.wait_exit = 0;
	return p;
}

Test(attach, without_syscall_phases_a_wakeup_ends_at_its_switch_in_with_its_syscalls_named_not_timed)
{
	struct path p = untimed(standard_path(T0));
	const struct attach_result *r = &got.r[0];

	emit_path(&p);
	/* nothing waits for an exit that no program records: it is handed over at once */
	attach__advance(a, T0 + OFF_SWITCH_IN + 1);

	cr_assert_eq(got.n, 1);
	assert_phases(r, 0, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP, 0);
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], ATTACH_ABSENT_UNTIMED);
	cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_UNTIMED);
	cr_assert_str_eq(attach__absence_name(r->absent[PHASE_NOTIFY_KERNEL]), "untimed");
	cr_assert(strstr(attach__absence_describe(ATTACH_ABSENT_UNTIMED), "--syscall-phases"));
	cr_assert_not(r->mark_seen[MARK_NOTIFY_ENTER]);
	cr_assert_not(r->mark_seen[MARK_WAIT_EXIT]);
	cr_assert_eq(r->sr.t_notify_ns, T0 + OFF_WAKING, "it begins at sched_waking");
	cr_assert_eq(r->sr.t_woken_ns, T0 + OFF_SWITCH_IN, "and ends at the switch-in");
	cr_assert_eq(r->wake_to_run_ns, OFF_SWITCH_IN - OFF_WAKING);
	cr_assert_eq(r->notify_to_return_ns, -1);
	cr_assert_eq(r->waited_ns, -1);
	/* named all the same, from the registers */
	cr_assert_str_eq(r->mechanism, "eventfd write -> read");
	cr_assert_eq(r->waker.nr, SYS_write);
	cr_assert(r->waker.untimed);
	cr_assert_eq(r->wait.nr, SYS_read);
	cr_assert_eq(r->wait.arg, EFD);
	cr_assert(r->wait.untimed);
}

Test(attach, without_syscall_phases_a_sleep_outside_a_syscall_is_still_told_apart)
{
	struct path p = untimed(with_wait(standard_path(T0), -1, 0, 0));
	const struct attach_result *r = &got.r[0];

	emit_path(&p);
	attach__advance(a, T0 + OFF_SWITCH_IN + 1);

	cr_assert_eq(got.n, 1);
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], ATTACH_ABSENT_UNTIMED);
	cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_NO_WAIT_SYSCALL);
	cr_assert_str_eq(r->mechanism, "eventfd write -> sleep outside a syscall");
}

Test(attach, a_wakee_that_sleeps_again_before_its_syscall_returns_has_no_resume_kernel_until_it_does)
{
	uint64_t again = T0 + OFF_WAIT_EXIT;
	struct path p = standard_path(T0), q;

	p.wait_exit = 0;
	emit_path(&p);
	/* woken, and no data after all: back to sleep in the same read, from the same entry */
	add(ev_switch(again, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_block(again, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, T0 - OFF_SINCE));
	q = standard_path(again);
	q.block = 0;
	emit_path(&q);
	attach__advance(a, again + PATH_SPAN);

	cr_assert_eq(got.n, 2);
	assert_phases(&got.r[0], OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP, 0);
	cr_assert_eq(got.r[0].absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_SLEPT_AGAIN);
	cr_assert_eq(got.r[0].notify_to_return_ns, -1);
	cr_assert_eq(got.r[0].waited_ns, -1, "the wait is not over");

	assert_phases(&got.r[1], OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP,
		      OFF_WAIT_EXIT - OFF_SWITCH_IN);
	cr_assert_eq(got.r[1].absent[PHASE_RESUME_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(got.r[1].waited_ns, (int64_t)(again + OFF_WAIT_EXIT - (T0 - OFF_SINCE)),
		     "the whole read, from its one entry");
}

Test(attach, a_waker_syscall_entered_before_its_entry_could_be_seen_has_no_notify_kernel)
{
	struct path p = standard_path(T0);
	const struct attach_result *r = &got.r[0];

	p.waker.waker.since_ns = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_phases(r, 0, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP, OFF_WAIT_EXIT - OFF_SWITCH_IN);
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], ATTACH_ABSENT_ENTRY_UNSEEN);
	cr_assert_not(r->mark_seen[MARK_NOTIFY_ENTER]);
	cr_assert_eq(r->notify_to_return_ns, -1);
	cr_assert_str_eq(r->mechanism, "eventfd write -> read", "the waker's syscall is still known");
}

Test(attach, an_idle_exit_is_taken_only_when_the_target_cpu_was_idle_at_the_waking)
{
	struct path p = standard_path(T0);

	p.target_idle_since = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].sr.label, LABEL_COMPLETE);
	cr_assert_not(got.r[0].sr.target_was_idle);
	cr_assert_not(got.r[0].sr.idle_exit_seen);
	cr_assert_eq(got.r[0].sr.idle_exit_ns, 0);
}

Test(attach, a_signal_delivery_ends_a_wait_whose_syscall_exit_did_not_come)
{
	struct path p = with_wait(standard_path(T0), SYS_rt_sigsuspend, SIGMASK_ADDR, 8);
	const struct attach_result *r = &got.r[0];

	p.waker = ev_waker_syscall(p.waking, WAKER_CPU, WAKER, PROC, WAKEE, SYS_tgkill, PROC, WAKEE,
				   T0 + OFF_NOTIFY);
	p.wait_exit = 0;
	emit_path(&p);
	add(ev_signal_deliver(T0 + OFF_WAIT_EXIT, WAKEE_CPU, WAKEE, SIGUSR1));
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_phases(r, OFF_WAKING - OFF_NOTIFY, OFF_WAKEUP - OFF_WAKING, OFF_SWITCH_IN - OFF_WAKEUP,
		      OFF_WAIT_EXIT - OFF_SWITCH_IN);
	cr_assert_eq(r->sr.wait_end_type, WP_EV_SIGNAL_DELIVER);
	cr_assert_eq(r->sr.wait_end_nr, SIGUSR1);
	cr_assert_str_eq(r->mechanism, "signal tgkill -> sigsuspend");
}

Test(attach, migrations_of_the_wakee_during_its_wakeup_are_counted)
{
	struct path p = standard_path(T0);

	emit_path(&p);
	/* in its run queue wait: pulled to another CPU */
	add(ev_migrate(T0 + 12000, SPARE_CPU, IDLE_TID, WAKEE, WAKEE_CPU, SPARE_CPU));
	attach__advance(a, T0 + PATH_SPAN);
	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].migrations, 1);

	/* awake, between wakeups: the run's count only */
	add(ev_migrate(T0 + PATH_SPAN + 20, SPARE_CPU, IDLE_TID, WAKEE, SPARE_CPU, WAKEE_CPU));
	attach__advance(a, T0 + 2 * PATH_SPAN);
	cr_assert_eq(attach__counters(a)->migrations, 2);
}

/* ---------------------------------------------------------------- labels */

Test(attach, a_wakeup_with_records_lost_inside_it_is_lost_events_and_the_next_one_is_not)
{
	struct path p = standard_path(T0), q = standard_path(T0 + 100000);

	/* the drop count moves between the waking and the wakeup: something between them was lost */
	p.drops_from = T0 + OFF_WAKEUP;
	emit_path(&p);
	q.drops = 1;
	emit_path(&q);
	attach__advance(a, T0 + 100000 + PATH_SPAN);

	cr_assert_eq(got.n, 2);
	assert_not_phased(&got.r[0], LABEL_LOST_EVENTS);
	cr_assert(got.r[0].mark_seen[MARK_WAIT_EXIT], "its marks are kept, not trusted");
	cr_assert_str_eq(got.r[0].mechanism, "eventfd write -> read");
	cr_assert_eq(got.r[1].sr.label, LABEL_COMPLETE, "its sleep began after the loss");
	cr_assert_eq(attach__counters(a)->drops_seen, 1);
}

Test(attach, a_loss_while_the_wakee_slept_touches_its_wakeup)
{
	struct path p = standard_path(T0);

	/* the count moves on a record of another CPU long before the waking, the wakee asleep */
	emit_path(&(struct path){ .block = p.block, .blk = p.blk });
	add(with_drops(ev_idle_exit(T0 + 5000, SPARE_CPU, T0), 3));
	attach__advance(a, T0 + 6000);
	p.block = 0;
	p.drops = 3;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_LOST_EVENTS);
}

Test(attach, drops_noted_after_a_drain_reach_the_wakeups_still_open)
{
	struct path p = standard_path(T0);

	p.wait_exit = 0;
	emit_path(&p);
	attach__note_drops(a, 2);
	attach__advance(a, T0 + PATH_SPAN);
	add(with_drops(ev_sys_exit(T0 + PATH_SPAN + 100, WAKEE_CPU, WAKEE, SYS_read, 8), 2));
	attach__advance(a, T0 + 2 * PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_LOST_EVENTS);
}

Test(attach, a_missing_switch_in_is_missing_event_once_the_wakee_is_seen_running)
{
	struct path p = standard_path(T0);
	const struct attach_result *r = &got.r[0];

	p.switch_in = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(r, LABEL_MISSING_EVENT);
	cr_assert_eq(r->sr.missing, MARK_SWITCH_IN);
	cr_assert(r->mark_seen[MARK_NOTIFY_ENTER]);
	cr_assert(r->mark_seen[MARK_WAKING]);
	cr_assert(r->mark_seen[MARK_WAKEUP]);
	cr_assert_not(r->mark_seen[MARK_SWITCH_IN]);
	cr_assert_not(r->mark_seen[MARK_WAIT_EXIT]);
	cr_assert_eq(r->sr.mark_ns[MARK_SWITCH_IN], 0);
	cr_assert_eq(r->sr.t_notify_ns, T0 + OFF_NOTIFY);
	cr_assert_eq(r->sr.t_woken_ns, T0 + OFF_WAKEUP, "the last mark seen");
	cr_assert_eq(r->sr.total_ns, OFF_WAKEUP - OFF_NOTIFY);
}

Test(attach, the_exit_of_another_syscall_than_the_wait_is_missing_the_wait_exit)
{
	struct path p = standard_path(T0);

	p.exit_nr = SYS_write;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[0].sr.missing, MARK_WAIT_EXIT);
	cr_assert(got.r[0].mark_seen[MARK_SWITCH_IN]);
}

Test(attach, a_sleep_that_ends_with_no_waking_is_missing_its_waking)
{
	emit_path(&(struct path){ .block = T0, .blk = ev_block(T0, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, T0 - 1) });
	add(with_next_tgid(ev_switch(T0 + 5000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC));
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[0].sr.missing, MARK_WAKING);
	cr_assert(got.r[0].wait.known);
	cr_assert_eq(got.r[0].wait.nr, SYS_read);
}

Test(attach, a_wake_of_a_thread_still_on_its_cpu_is_no_sleep)
{
	const struct attach_result *r = &got.r[0];

	/* the wakee runs: it set its sleeping state, and the wake finds it before it leaves */
	add(with_next_tgid(ev_switch(T0, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC));
	add(ev_sys_exit(T0 + 100, WAKEE_CPU, WAKEE, SYS_read, 8));
	add(ev_waker_syscall(T0 + 1000, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, EFD, 0, T0 + 700));
	add(ev_waking(T0 + 1000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_wakeup(T0 + 1200, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(r, LABEL_NO_SLEEP);
	cr_assert_not(r->wait.known, "it never slept: there is no wait");
	cr_assert_str_eq(r->mechanism, "eventfd write");
	cr_assert_eq(r->waker.cls, WP_WAKER_SYSCALL);
	cr_assert(r->mark_seen[MARK_WAKEUP]);
}

Test(attach, a_waking_that_catches_the_wakee_on_its_way_to_sleep_ends_that_sleep)
{
	uint64_t t = T0 + 100000;
	struct path p = standard_path(T0);

	emit_path(&p);
	/* the waking is stamped before the switch-out; the wakeup after it, when the wakee is off its CPU */
	add(ev_waker_syscall(t, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, EFD, 0, t - 300));
	add(ev_waking(t, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	add(ev_switch(t + 300, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_block(t + 300, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, t + 100));
	add(ev_wakeup(t + 900, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
	add(with_next_tgid(ev_switch(t + 3000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC));
	add(ev_sys_exit(t + 3500, WAKEE_CPU, WAKEE, SYS_read, 8));
	attach__advance(a, t + PATH_SPAN);

	cr_assert_eq(got.n, 2);
	assert_phases(&got.r[1], 300, 900, 2100, 500);
	cr_assert_eq(got.r[1].wait.since_ns, t + 100);
	cr_assert_eq(got.r[1].waited_ns, 3400);
}

Test(attach, a_first_wakeup_of_a_thread_never_seen_asleep_is_out_of_window)
{
	struct path p = standard_path(T0);
	const struct attach_result *r = &got.r[0];

	p.block = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_not_phased(r, LABEL_OUT_OF_WINDOW);
	cr_assert(r->mark_seen[MARK_WAKING]);
	cr_assert(r->mark_seen[MARK_WAKEUP]);
	cr_assert(r->mark_seen[MARK_SWITCH_IN]);
	cr_assert_not(r->wait.known, "it slept before tracing began: its wait is not known");
	cr_assert_str_eq(r->mechanism, "eventfd write");
}

Test(attach, wakeups_open_at_the_end_are_out_of_window_or_lost_with_the_final_drops)
{
	struct path p = standard_path(T0);

	p.wait_exit = 0;
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);
	cr_assert_eq(got.n, 0, "still resuming");
	attach__finish(a, 0);
	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_OUT_OF_WINDOW);

	attach__free(a);
	memset(&got, 0, sizeof(got));
	a = attach__new(&stub_cfg, collect, &got);
	cr_assert_not_null(a);
	emit_path(&p);
	attach__finish(a, 1);
	cr_assert_eq(got.n, 1);
	assert_not_phased(&got.r[0], LABEL_LOST_EVENTS);
	cr_assert_eq(attach__counters(a)->drops_seen, 1);
}

/* ---------------------------------------------------------------- threads */

Test(attach, a_tid_reused_after_its_thread_exited_starts_with_a_wait_of_its_own)
{
	uint64_t t = T0 + 100000;
	struct path p = standard_path(T0), q;

	emit_path(&p);
	/* the wakee dies: its last switch-out, with the BLOCK of exit_group that comes with it */
	add(ev_switch(T0 + PATH_SPAN, WAKEE_CPU, WAKEE, IDLE_TID, TASK_DEAD, 0));
	add(ev_block(T0 + PATH_SPAN, WAKEE_CPU, WAKEE, SYS_exit_group, 0, 0, T0 + PATH_SPAN - 100));
	attach__advance(a, T0 + PATH_SPAN + 1);
	cr_assert_eq(attach__counters(a)->exited_threads, 1);
	cr_assert_eq(attach__counters(a)->threads, 1, "the waker only: the BLOCK of the dead is not a sleep");

	/* a new thread under the same tid: sched_wakeup_new, no waking */
	add(ev_wakeup(t - 3000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
	add(with_next_comm(with_next_tgid(ev_switch(t - 2000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC), "worker-2"));
	q = with_wait(standard_path(t), SYS_futex, FUTEX_ADDR, FUTEX_WAIT_PRIVATE);
	q.waker = ev_waker_syscall(q.waking, WAKER_CPU, WAKER, PROC, WAKEE, SYS_futex, FUTEX_ADDR,
				   FUTEX_WAKE_PRIVATE, t + OFF_NOTIFY);
	emit_path(&q);
	attach__advance(a, t + PATH_SPAN);

	cr_assert_eq(attach__counters(a)->new_threads, 1);
	cr_assert_eq(got.n, 2);
	cr_assert_eq(got.r[1].sr.label, LABEL_COMPLETE);
	cr_assert_eq(got.r[1].wait.nr, SYS_futex);
	cr_assert_eq(got.r[1].waited_ns, OFF_WAIT_EXIT + OFF_SINCE);
	cr_assert_str_eq(got.r[1].mechanism, "futex 0x7f12a0 wake -> wait");
}

Test(attach, a_tid_that_comes_back_as_a_new_thread_without_its_exit_seen_does_not_inherit_the_old_wait)
{
	uint64_t t = T0 + 100000;
	struct path q;

	/* the old thread sleeps in read(EFD) and is never seen again */
	emit_path(&(struct path){ .block = T0, .blk = ev_block(T0, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, T0 - 1) });
	/* a new thread under its tid */
	add(ev_wakeup(t - 3000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
	add(with_next_tgid(ev_switch(t - 2000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC));
	q = with_wait(standard_path(t), SYS_nanosleep, SIGMASK_ADDR, 0);
	q.waker = ev_waker_timer(q.waking, WAKER_CPU, IDLE_TID, WAKEE, q.waking - 100, 0xffffffff81234560ull);
	q.waking_tid = IDLE_TID;
	emit_path(&q);
	attach__advance(a, t + PATH_SPAN);

	cr_assert_eq(attach__counters(a)->new_threads, 1);
	cr_assert_eq(got.n, 1, "the old sleep ended with its thread: no wakeup to report");
	cr_assert_eq(got.r[0].sr.label, LABEL_COMPLETE);
	cr_assert_eq(got.r[0].wait.nr, SYS_nanosleep);
	cr_assert_str_eq(got.r[0].mechanism, "timer (sleep ended)");
}

/*
 * start_thread - WAKER's clone3() (entered at @t) makes @child: the WAKER
 * record and the flagged sched_wakeup_new at @t + 9000 on WAKER_CPU, the
 * child queued on WAKEE_CPU, switched in at + 15000, out of clone3 at + 15600
 */
static void start_thread(uint64_t t, uint32_t child, bool flagged, bool with_waker_record)
{
	struct wp_event wn = ev_wakeup_new(t + 9000, WAKER_CPU, WAKER, child, WAKEE_CPU, t - 1000);

	if (!flagged)
		wn.wake.flags = 0;
	if (with_waker_record)
		add(ev_waker_syscall(t + 9000, WAKER_CPU, WAKER, PROC, child, SYS_clone3, 0x7ffc2000, 88, t));
	add(wn);
	add(ev_sys_exit(t + 9500, WAKER_CPU, WAKER, SYS_clone3, child));
	add(with_next_tgid(with_next_comm(ev_switch(t + 15000, WAKEE_CPU, IDLE_TID, child, 0, 0), "producer"), PROC));
	add(ev_sys_exit(t + 15600, WAKEE_CPU, child, SYS_clone3, 0));
}

Test(attach, a_new_threads_start_is_a_wakeup_from_its_parents_clone_to_its_first_return)
{
	name_the_waker(T0 - 5000);
	start_thread(T0, WORKER, true, true);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(attach__counters(a)->new_threads, 1);
	cr_assert_eq(got.n, 1);
	assert_phases(&got.r[0], 9000, 0, 6000, 600);
	cr_assert_eq(got.r[0].absent[PHASE_NOTIFY_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(got.r[0].absent[PHASE_RESUME_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(got.r[0].sr.sample.waker_tid, WAKER);
	cr_assert_eq(got.r[0].sr.sample.wakee_tid, WORKER);
	cr_assert(got.r[0].sr.target_was_idle);
	cr_assert(got.r[0].wait.start);
	cr_assert_eq(got.r[0].wait.nr, SYS_clone3);
	cr_assert_eq(got.r[0].waited_ns, -1, "it waited for nothing: it did not exist");
	cr_assert_str_eq(got.r[0].mechanism, "clone3 -> first run");
	cr_assert_eq(got.r[0].family, MECH_START);
	cr_assert_str_eq(mechanism__family_name(got.r[0].family), "start");
}

Test(attach, a_thread_start_without_its_waker_record_is_missing_its_notify_and_an_unflagged_one_is_no_wakeup)
{
	start_thread(T0, WORKER, true, false);
	start_thread(T0 + 100000, WORKER + 1, false, false);
	attach__advance(a, T0 + 100000 + PATH_SPAN);

	cr_assert_eq(attach__counters(a)->new_threads, 2);
	cr_assert_eq(got.n, 1, "a wakeup_new of a recording before format 4 only begins a thread");
	assert_not_phased(&got.r[0], LABEL_MISSING_EVENT);
	cr_assert_eq(got.r[0].sr.missing, MARK_NOTIFY_ENTER);
	cr_assert_eq(got.r[0].sr.sample.wakee_tid, WORKER);
}

Test(attach, a_switch_in_naming_another_process_is_another_thread)
{
	uint64_t t = T0 + 100000;
	struct path p = standard_path(T0), q = standard_path(t);

	emit_path(&p);
	/* the tid now belongs to a thread of OTHER_PROC, whose fds the stub does not know */
	add(with_next_tgid(ev_switch(t - 2000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), OTHER_PROC));
	q.tgid = OTHER_PROC;
	emit_path(&q);
	attach__advance(a, t + PATH_SPAN);

	cr_assert_eq(attach__counters(a)->new_threads, 1);
	cr_assert_eq(got.n, 2);
	cr_assert_str_eq(got.r[0].mechanism, "eventfd write -> read");
	cr_assert_eq(got.r[1].sr.label, LABEL_COMPLETE);
	cr_assert_eq(got.r[1].wakee_tgid, OTHER_PROC);
	cr_assert_str_eq(got.r[1].mechanism, "eventfd write -> fd 5 read", "its fd asked of its own process");
}

Test(attach, a_fork_drops_what_was_known_under_the_childs_tid)
{
	emit_path(&(struct path){ .block = T0, .blk = ev_block(T0, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, T0 - 1) });
	attach__advance(a, T0 + 1);
	cr_assert_eq(attach__counters(a)->threads, 1);
	add(ev_fork(T0 + 1000, WAKER_CPU, WAKER, PROC, WAKEE));
	attach__advance(a, T0 + 2000);
	cr_assert_eq(attach__counters(a)->threads, 0);
	cr_assert_eq(got.n, 0);
}

Test(attach, the_thread_table_is_bounded_and_forgets_the_thread_seen_least_recently)
{
	uint32_t first = 100000, tid;
	const struct attach_counters *c = attach__counters(a);

	for (tid = first; tid < first + ATTACH_MAX_THREADS; tid++)
		add(ev_block(T0 + tid, WAKEE_CPU, tid, SYS_read, EFD, 0, T0));
	attach__advance(a, T0 + tid);
	cr_assert_eq(c->threads, ATTACH_MAX_THREADS);
	cr_assert_eq(c->forgotten_threads, 0);

	add(ev_block(T0 + tid, WAKEE_CPU, tid, SYS_read, EFD, 0, T0));
	attach__advance(a, T0 + tid + 1);
	cr_assert_eq(c->threads, ATTACH_MAX_THREADS);
	cr_assert_eq(c->forgotten_threads, 1);
	cr_assert_eq(c->threads_peak, ATTACH_MAX_THREADS);

	/* the forgotten one, woken: nothing is known of its sleep any more */
	add(ev_waker_syscall(T0 + tid + 10, WAKER_CPU, WAKER, PROC, first, SYS_write, EFD, 0, T0 + tid));
	add(ev_waking(T0 + tid + 10, WAKER_CPU, WAKER, first, WAKEE_CPU, 0));
	add(ev_wakeup(T0 + tid + 20, WAKEE_CPU, IDLE_TID, first, WAKEE_CPU));
	add(with_next_tgid(ev_switch(T0 + tid + 30, WAKEE_CPU, IDLE_TID, first, 0, 0), PROC));
	attach__advance(a, T0 + tid + 40);
	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].sr.label, LABEL_OUT_OF_WINDOW);
	cr_assert_eq(c->threads, ATTACH_MAX_THREADS, "still bounded");
}

Test(attach, a_long_busy_run_hands_over_every_wakeup_in_the_same_memory)
{
	const struct attach_counters *c = attach__counters(a);
	uint64_t t = T0;
	uint32_t i;

	for (i = 0; i < 50000; i++, t += PATH_SPAN + 10000) {
		struct path p = standard_path(t);

		emit_path(&p);
		if (i % 1000 == 999) {
			/* the wakee exits, and a new thread takes its tid */
			add(ev_switch(t + PATH_SPAN, WAKEE_CPU, WAKEE, IDLE_TID, TASK_DEAD, 0));
			add(ev_wakeup(t + PATH_SPAN + 1000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
			add(with_next_tgid(ev_switch(t + PATH_SPAN + 2000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0), PROC));
		}
		if (i % 100 == 99)
			attach__advance(a, t + PATH_SPAN + 5000);
	}
	attach__finish(a, 0);

	cr_assert_eq(c->results, 50000);
	cr_assert_eq(got.by_label[LABEL_COMPLETE], 50000);
	cr_assert_eq(c->exited_threads, 50);
	cr_assert_eq(c->new_threads, 50);
	cr_assert_eq(c->threads_peak, 2, "the waker and the wakee, whatever the length");
	cr_assert_eq(c->evicted_events, 0);
	cr_assert_eq(c->late_events, 0);
}

/* ---------------------------------------------------------------- into the aggregate */

Test(attach, the_wakeups_feed_the_pairs_and_the_futex_table)
{
	const struct attach_pair *pairs[4];
	const struct attach_futex *futexes[4];
	uint64_t t;
	size_t n;
	int i;

	got.agg = attach_aggregate__new();
	cr_assert_not_null(got.agg);
	/* three futex hand-offs, WAKER to WAKEE, waits of 15.2 us each */
	for (i = 0, t = T0; i < 3; i++, t += 100000) {
		struct path p = with_wait(standard_path(t), SYS_futex, FUTEX_ADDR, FUTEX_WAIT_BITSET_PRIVATE);

		p.waker = ev_waker_syscall(p.waking, WAKER_CPU, WAKER, PROC, WAKEE, SYS_futex, FUTEX_ADDR,
					   FUTEX_WAKE_PRIVATE, t + OFF_NOTIFY);
		emit_path(&p);
	}
	/* and one eventfd hand-off */
	{
		struct path p = standard_path(t);

		emit_path(&p);
	}
	attach__advance(a, t + PATH_SPAN);

	cr_assert_eq(got.n, 4);
	cr_assert_eq(got.agg->complete, 4);
	n = attach_aggregate__pairs(got.agg, ATTACH_ORDER_COUNT, pairs, 4);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(pairs[0]->mechanism, "futex 0x7f12a0 wake -> wait_bitset");
	cr_assert_eq(pairs[0]->count, 3);
	cr_assert_eq(pairs[0]->wakee_tid, WAKEE);
	cr_assert_eq(pairs[0]->waker_id, WAKER);
	cr_assert_eq(histogram__percentile(&pairs[0]->wake_to_run, 50), OFF_SWITCH_IN - OFF_WAKING);
	cr_assert_eq(pairs[0]->notify_to_return.max, OFF_WAIT_EXIT - OFF_NOTIFY);
	cr_assert_str_eq(pairs[1]->mechanism, "eventfd write -> read");
	cr_assert_eq(pairs[1]->count, 1);

	n = attach_aggregate__futexes(got.agg, ATTACH_ORDER_COUNT, futexes, 4);
	cr_assert_eq(n, 1);
	cr_assert_eq(futexes[0]->tgid, PROC);
	cr_assert_eq(futexes[0]->addr, FUTEX_ADDR);
	cr_assert_eq(futexes[0]->waits, 3);
	cr_assert_eq(futexes[0]->wakes, 3);
	cr_assert_eq(futexes[0]->waits_timed, 3);
	cr_assert_eq(futexes[0]->wait_total_ns, 3 * (OFF_WAIT_EXIT + OFF_SINCE));
	cr_assert_eq(futexes[0]->wait_max_ns, OFF_WAIT_EXIT + OFF_SINCE);
	cr_assert_eq(futexes[0]->nr_tids, 2);
	cr_assert_eq(futexes[0]->tids[0], WAKEE, "the waiter, counted first");
	cr_assert_eq(futexes[0]->tids[1], WAKER);
}

/* ---------------------------------------------------------------- explanations */

#define HOG_IN		5000	/* offset at which OUTSIDER takes the wakee's CPU, busy, not idle */

/* busy_path - the standard wakeup onto a CPU that OUTSIDER ('hog') holds from before the waking */
static struct path busy_path(uint64_t t)
{
	struct path p = standard_path(t);

	p.target_idle_since = 0;
	p.idle_exit = 0;
	p.target_curr = OUTSIDER;
	p.target_curr_comm = "hog";
	return p;
}

static void hog_takes_the_wakees_cpu(uint64_t t)
{
	add(with_next_tgid(with_next_comm(ev_switch(t + HOG_IN, WAKEE_CPU, IDLE_TID, OUTSIDER, 0, 0), "hog"),
			   OUTSIDER_PROC));
}

static void assert_hog_held_runq_wait(const struct attach_result *r)
{
	const struct explanation *x = &r->sr.why;
	uint32_t i;

	cr_assert_eq(r->sr.label, LABEL_COMPLETE);
	cr_assert_eq(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], OFF_SWITCH_IN - OFF_WAKEUP,
		     "runq_wait by other_task: %ld", (long)x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK]);
	for (i = 0; i < x->nr_iv; i++)
		if (x->iv[i].phase == PHASE_RUNQ_WAIT && x->iv[i].cause == CAUSE_OTHER_TASK)
			break;
	cr_assert_lt(i, x->nr_iv, "no interval names the task");
	cr_assert_eq(x->iv[i].pid, OUTSIDER);
	cr_assert_str_eq(x->iv[i].name, "hog");
	cr_assert_eq(x->iv[i].cpu, WAKEE_CPU);
}

Test(attach, a_task_holding_the_wakees_cpu_is_named_as_what_its_runq_wait_waited_for)
{
	struct path p = busy_path(T0);
	int64_t sum = 0;

	hog_takes_the_wakees_cpu(T0);
	emit_path(&p);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_hog_held_runq_wait(&got.r[0]);
	for (int c = 0; c < NR_CAUSES; c++)
		sum += got.r[0].sr.why.by_cause[c];
	cr_assert_eq(sum, got.r[0].sr.total_ns, "the causes and the unexplained rest add up to the total");
}

Test(attach, the_records_of_a_wakeup_that_spans_several_drains_are_kept_for_its_explanation)
{
	struct path p = busy_path(T0);
	struct wp_event evs[PATH_EVENTS];
	size_t n = path_events(&p, evs), i;

	/* the stream is complete up to just after the waking, then to the end: pruning must keep the hog */
	hog_takes_the_wakees_cpu(T0);
	for (i = 0; i < n && evs[i].ts_ns <= T0 + OFF_WAKEUP; i++)
		add(evs[i]);
	attach__advance(a, T0 + OFF_WAKEUP + 100);
	cr_assert_eq(got.n, 0);
	for (; i < n; i++)
		add(evs[i]);
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	assert_hog_held_runq_wait(&got.r[0]);
	cr_assert_eq(attach__counters(a)->explained_cut, 0);
}

Test(attach, a_timer_is_no_thread_and_the_task_it_interrupted_is_named_for_holding_the_cpu)
{
	/* the timer fires on the wakee's CPU, in on the hog, which keeps the CPU until the switch-in */
	struct path p = with_waker(busy_path(T0), ev_waker_timer(0, WAKEE_CPU, OUTSIDER, WAKEE, T0 + 9000,
								  0xffffffff81234560ull));
	struct wp_event evs[PATH_EVENTS];
	size_t n = path_events(&p, evs), i;

	hog_takes_the_wakees_cpu(T0);
	for (i = 0; i < n; i++) {
		/* the waking ran on the wakee's CPU: it enqueued the wakee itself */
		if (evs[i].type == WP_EV_WAKING || evs[i].type == WP_EV_WAKER)
			evs[i].cpu = WAKEE_CPU;
		add(evs[i]);
	}
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].waker.cls, WP_WAKER_TIMER);
	cr_assert_eq(got.r[0].waker.tid, OUTSIDER, "the record keeps whom the timer interrupted");
	cr_assert_eq(got.r[0].sr.sample.waker_tid, 0, "but no thread woke the wakee");
	assert_hog_held_runq_wait(&got.r[0]);
}

Test(attach, the_slowest_complete_wakeups_are_kept_with_their_explanation)
{
	static const uint64_t extra[] = { 0, 40000, 10000, 70000, 20000 };	/* added to runq_wait */
	uint64_t t = T0;
	size_t i;

	got.agg = attach_aggregate__new();
	cr_assert_not_null(got.agg);
	attach_aggregate__want_outliers(got.agg, 2, 15000 + 25000);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		struct path p = busy_path(t);

		p.switch_in += extra[i];
		p.wait_exit += extra[i];
		hog_takes_the_wakees_cpu(t);
		emit_path(&p);
		t += PATH_SPAN + 100000;
	}
	attach__advance(a, t);
	attach_aggregate__end(got.agg);

	cr_assert_eq(got.agg->complete, 5);
	cr_assert_eq(got.agg->outlier_candidates, 2, "those at or over the threshold: +40 us and +70 us");
	cr_assert_eq(got.agg->nr_outliers, 2);
	cr_assert_eq(got.agg->outliers[0].sr.phase_ns[PHASE_RUNQ_WAIT], OFF_SWITCH_IN - OFF_WAKEUP + 70000);
	cr_assert_eq(got.agg->outliers[1].sr.phase_ns[PHASE_RUNQ_WAIT], OFF_SWITCH_IN - OFF_WAKEUP + 40000);
	cr_assert_eq(got.agg->outliers[0].sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK],
		     OFF_SWITCH_IN - OFF_WAKEUP + 70000);
	cr_assert_str_eq(got.agg->outliers[0].mechanism, "eventfd write -> read");
	/* every complete wakeup's time is summed by cause, and the hog named */
	cr_assert_eq(got.agg->causes.cause_ns[CAUSE_OTHER_TASK],
		     5 * (OFF_SWITCH_IN - OFF_WAKING) + 40000 + 10000 + 70000 + 20000);
	cr_assert_eq(got.agg->causes.nr_tasks, 1);
	cr_assert_eq(got.agg->causes.tasks[0].pid, OUTSIDER);
}

Test(attach, a_waker_that_goes_on_running_on_the_wakees_cpu_is_named_for_holding_it)
{
	struct path p = busy_path(T0);
	struct wp_event evs[PATH_EVENTS];
	size_t n, i;
	uint32_t k;

	/* WAKER runs on the wakee's CPU, wakes WAKEE there and keeps the CPU until the switch-in */
	p.target_curr = WAKER;
	p.target_curr_comm = "producer";
	n = path_events(&p, evs);
	add(with_next_tgid(with_next_comm(ev_switch(T0 + HOG_IN, WAKEE_CPU, IDLE_TID, WAKER, 0, 0), "producer"),
			   PROC));
	for (i = 0; i < n; i++) {
		if (evs[i].type == WP_EV_WAKING || evs[i].type == WP_EV_WAKER)
			evs[i].cpu = WAKEE_CPU;
		add(evs[i]);
	}
	attach__advance(a, T0 + PATH_SPAN);

	cr_assert_eq(got.n, 1);
	cr_assert_eq(got.r[0].sr.sample.waker_tid, WAKER);
	cr_assert_eq(got.r[0].sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], OFF_SWITCH_IN - OFF_WAKEUP);
	for (k = 0; k < got.r[0].sr.why.nr_iv; k++)
		if (got.r[0].sr.why.iv[k].phase == PHASE_RUNQ_WAIT)
			break;
	cr_assert_lt(k, got.r[0].sr.why.nr_iv);
	cr_assert_eq(got.r[0].sr.why.iv[k].pid, WAKER, "the waker holding the CPU is named, not pid %u",
		     got.r[0].sr.why.iv[k].pid);
	cr_assert_str_eq(got.r[0].sr.why.iv[k].name, "producer");
}
