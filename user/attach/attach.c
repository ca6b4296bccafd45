// SPDX-License-Identifier: GPL-2.0
/*
 * attach.c - the full engine (attach.h): the records kept in time order,
 * replayed through each thread's state (attach_threads.h) once the stream
 * is complete up to a time; a WAKER record paired with its waking
 * (attach_wakers.h), a wakeup put together mark by mark (attach_build.h)
 * and handed over, explained from the records around it, when it ends.
 */
#include <stdlib.h>
#include <string.h>
#include "attach.h"
#include "attach_build.h"
#include "attach_threads.h"
#include "attach_wakers.h"
#include "chain_hops.h"
#include "chain_stream.h"
#include "event_window.h"
#include "explain.h"

#define IDLE_WAITERS		8	/* wakeups waiting at once for one idle CPU's exit */

/* what the engine keeps per CPU */
struct cpu_slot {
	/* a WAKER record waiting for the WAKING that follows it on this CPU */
	struct held_waker waker;
	/* wakeups onto this idle CPU that wait for its idle exit */
	uint32_t idle_waiters[IDLE_WAITERS];
	uint32_t nr_idle_waiters;
	/* a thread that just died here: the BLOCK written with its last switch-out is not a new sleep */
	uint32_t dead_tid;
};

struct attach {
	struct attach_config cfg;
	attach_result_fn fn;
	void *ctx;

	struct event_window *events;
	uint64_t done_ns;		/* records stamped before it were replayed */
	uint64_t kept_from_ns;		/* the window was pruned up to here */
	uint64_t last_ns;		/* the last replayed record's stamp */

	struct attach_threads threads;

	struct cpu_slot *cpus;		/* WP_MAX_CPUS */
	struct waker_names names;	/* every task's last switch-in's, for a syscall waker's comm */
	/* --chains: each wakeup's links, from the stream; the wakeups explained, for the hops they are */
	struct chain_stream *chains;
	struct chain_hops *explained;
	uint64_t seq;
	struct attach_result result;	/* the one being handed over: too big for the stack of every path */
	struct attach_counters counters;
};

/* --------------------------------------------------------------- threads */

static struct thread *find(const struct attach *a, uint32_t tid)
{
	return attach_threads__find(&a->threads, tid);
}

/* drop_thread - @t forgotten: every pointer into the table is stale after */
static void drop_thread(struct attach *a, struct thread *t)
{
	attach_threads__remove(&a->threads, t);
	a->counters.threads = a->threads.count;
}

static void finish_build(struct attach *a, struct thread *t, struct build *b, enum outcome how, enum mark missing,
			 enum attach_absence resume, uint64_t decided_ns);

/* end_thread - the thread is gone (or its tid is another's now): hand over what it had open, drop it */
static void end_thread(struct attach *a, struct thread *t, enum outcome how, uint64_t ts)
{
	static const enum mark next_mark[] = {
		[STAGE_WOKEN] = MARK_WAKEUP,
		[STAGE_QUEUED] = MARK_SWITCH_IN,
		[STAGE_RESUMING] = MARK_WAIT_EXIT,
	};

	if (t->early.stage != STAGE_NONE)
		finish_build(a, t, &t->early, how, next_mark[t->early.stage], ATTACH_PRESENT, ts);
	if (t->cur.stage != STAGE_NONE)
		finish_build(a, t, &t->cur, how, next_mark[t->cur.stage], ATTACH_PRESENT, ts);
	drop_thread(a, t);
}

/* forget_one - the table is full: give up the thread seen least recently */
static void forget_one(struct attach *a, uint64_t ts)
{
	struct thread *oldest = attach_threads__least_recent(&a->threads);

	if (!oldest)
		return;
	a->counters.forgotten_threads++;
	end_thread(a, oldest, OUT_FORGOTTEN, ts);
}

/* get - the thread @tid, a new one in state RUN_UNKNOWN if it was not known; NULL for tid 0 */
static struct thread *get(struct attach *a, uint32_t tid, uint64_t ts)
{
	struct thread *t;

	if (!tid)
		return NULL;
	t = find(a, tid);
	if (t) {
		t->last_ns = ts;
		return t;
	}
	/* full, or out of memory to grow: the same */
	if (!attach_threads__has_room(&a->threads))
		forget_one(a, ts);
	t = attach_threads__add(&a->threads, tid, ts);
	a->counters.threads = a->threads.count;
	if (a->counters.threads > a->counters.threads_peak)
		a->counters.threads_peak = a->counters.threads;
	return t;
}

static struct cpu_slot *cpu_slot(struct attach *a, uint32_t cpu)
{
	if (cpu >= WP_MAX_CPUS) {
		a->counters.cpu_out_of_range++;
		return NULL;
	}
	return &a->cpus[cpu];
}

/* ---------------------------------------------------------------- results */

/*
 * explain_result - split a complete wakeup's time by cause, from the records
 * of its span the window still holds; what they do not cover stays
 * unexplained, which is what it then is.
 */
static void explain_result(struct attach *a, struct attach_result *r)
{
	struct sample_result *sr = &r->sr;
	const struct wp_event *evs;
	size_t n;

	if (sr->t_notify_ns < a->kept_from_ns)
		a->counters.explained_cut++;
	if (event_window__span(a->events, sr->t_notify_ns, sr->t_woken_ns, &evs, &n)) {
		memset(&sr->why, 0, sizeof(sr->why));
		sr->why.by_cause[CAUSE_UNEXPLAINED] = sr->total_ns;
		sr->why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_UNEXPLAINED] = sr->total_ns;
		return;
	}
	explain__sample(&sr->why, sr, evs, n);
}

/* comm_of - the name the run knows @tid by, into @comm; "" when it knows none */
static void comm_of(const struct attach *a, uint32_t tid, char comm[WP_TASK_COMM_LEN])
{
	const struct thread *t = find(a, tid);
	const char *name = t && t->comm[0] ? t->comm : attach_wakers__comm(&a->names, tid);

	memset(comm, 0, WP_TASK_COMM_LEN);
	if (name)
		memcpy(comm, name, strnlen(name, WP_TASK_COMM_LEN));
}

/*
 * chain_of - --chains: the chain of @t's wakeup @b into @r, from the links
 * the stream gave it, its hops named and explained; then @r remembered for
 * the chains it will be a hop of
 */
static void chain_of(struct attach *a, const struct thread *t, const struct build *b, struct attach_result *r)
{
	struct wp_lean_link links[CHAIN_HOPS];
	uint64_t waking_ns = b->seen[MARK_WAKING] ? b->mark_ns[MARK_WAKING] : 0;
	uint32_t n = chain_stream__links(a->chains, t->tid, waking_ns, links);

	if (n) {
		r->chained = true;
		chain__assemble(links, n, t->tid, &r->chain);
		chain_hops__explain(a->explained, links, waking_ns, &r->chain);
		if (a->cfg.chained)
			a->cfg.chained(r, waking_ns, a->cfg.chained_ctx);
		for (uint32_t i = 0; i < r->chain.nr_hops; i++) {
			struct chain_hop *h = &r->chain.hops[i];

			if (h->kind <= WP_LINK_UNTRACED)
				comm_of(a, h->waker_tid, h->waker_comm);
			if (h->holder_tid)
				comm_of(a, h->holder_tid, h->holder_comm);
		}
	}
	if (r->sr.label == LABEL_COMPLETE && waking_ns)
		chain_hops__remember(a->explained, t->tid, waking_ns, &r->sr, true);
}

/*
 * finish_build - the wakeup @b of @t ended (@how, decided at @decided_ns):
 * label it, fill its result and hand it over; @b is free again after.
 * @missing names the absent mark of OUT_MISSING, @resume what became of
 * resume_kernel in OUT_COMPLETE.
 */
static void finish_build(struct attach *a, struct thread *t, struct build *b, enum outcome how, enum mark missing,
			 enum attach_absence resume, uint64_t decided_ns)
{
	struct attach_result *r = &a->result;
	struct sample_result *sr = &r->sr;
	/* the wait is the one this wakeup ended: not for a thread that never slept, nor for a sleep not seen */
	bool with_wait = b == &t->cur && !b->sleep_unseen && how != OUT_NO_SLEEP;

	loss_window__check(&b->loss, a->events, decided_ns);
	attach_build__begin_result(r, b);
	if (with_wait)
		r->wait = t->wait;
	else
		r->wait.nr = -1;
	r->wakee_tgid = t->tgid;
	memcpy(r->wakee_comm, t->comm, sizeof(r->wakee_comm));
	sr->sample.seq = ++a->seq;
	sr->sample.wakee_tid = t->tid;
	sr->label = attach_build__label(b, how, with_wait && t->wait.known, &missing);
	if (sr->label == LABEL_MISSING_EVENT)
		sr->missing = missing;

	if (sr->label == LABEL_COMPLETE) {
		attach_build__fill_phases(r, b, resume);
		explain_result(a, r);
	} else
		attach_build__fill_marks(r, b, decided_ns < a->last_ns ? decided_ns : a->last_ns);

	attach__name_mechanism(&a->cfg, r, NULL);
	if (a->chains)
		chain_of(a, t, b, r);

	memset(b, 0, sizeof(*b));
	a->counters.results++;
	if (a->fn)
		a->fn(r, a->ctx);
}

/* -------------------------------------------------------------- the replay */

static void want_idle_exit(struct attach *a, uint32_t cpu, uint32_t tid)
{
	struct cpu_slot *c = cpu_slot(a, cpu);
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_idle_waiters; i++)
		if (c->idle_waiters[i] == tid)
			return;
	/* more wakeups onto one idle CPU at once than this: the last ones go without their idle exit */
	if (c->nr_idle_waiters < IDLE_WAITERS)
		c->idle_waiters[c->nr_idle_waiters++] = tid;
}

static void idle_exit_to(struct build *b, uint32_t cpu, uint64_t ts)
{
	if ((b->stage == STAGE_WOKEN || b->stage == STAGE_QUEUED) && b->target_was_idle && !b->idle_exit_seen &&
	    b->target_cpu == cpu) {
		b->idle_exit_seen = true;
		b->idle_exit_at_ns = ts;
	}
}

static void on_idle_exit(struct attach *a, const struct wp_event *e)
{
	struct cpu_slot *c = cpu_slot(a, e->cpu);
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_idle_waiters; i++) {
		struct thread *t = find(a, c->idle_waiters[i]);

		if (!t)
			continue;
		idle_exit_to(&t->cur, e->cpu, e->ts_ns);
		idle_exit_to(&t->early, e->cpu, e->ts_ns);
	}
	c->nr_idle_waiters = 0;
}

/*
 * running - @t is on a CPU at @ts (a record of its own, or one that names it
 * current). What waited for it to run ends here: a wake from an unknown state
 * that never switched it in found it running (no_sleep); a wakeup still
 * waiting for its sched_wakeup or its switch-in lost that mark; a sleep that
 * nothing woke lost its waking.
 */
static void running(struct attach *a, struct thread *t, uint64_t ts)
{
	t->last_ns = ts;
	if (t->early.stage == STAGE_QUEUED)
		finish_build(a, t, &t->early, OUT_NO_SLEEP, MARK_NOTIFY_ENTER, ATTACH_PRESENT, ts);
	switch (t->cur.stage) {
	case STAGE_NONE:
		if (t->run == RUN_ASLEEP) {
			t->cur.loss = t->sleep_loss;
			t->sleep_loss.open = false;
			finish_build(a, t, &t->cur, OUT_MISSING, MARK_WAKING, ATTACH_PRESENT, ts);
		}
		break;
	case STAGE_WOKEN:
		finish_build(a, t, &t->cur, OUT_MISSING, MARK_WAKEUP, ATTACH_PRESENT, ts);
		break;
	case STAGE_QUEUED:
		finish_build(a, t, &t->cur, OUT_MISSING, MARK_SWITCH_IN, ATTACH_PRESENT, ts);
		break;
	default:
		break;
	}
	t->run = RUN_ON_CPU;
}

/* wait_of - the wait a BLOCK record tells */
static struct wait_info wait_of(const struct wp_block *blk)
{
	return (struct wait_info){ .known = true, .untimed = blk->flags & WP_BLOCK_UNTIMED, .nr = blk->nr,
				   .arg = blk->arg, .arg2 = blk->arg2, .since_ns = blk->since_ns,
				   .fd_kind = blk->nr >= 0 ? blk->fd_kind : FD_KIND_UNKNOWN };
}

/* sleep_half - one half of a sleep of @t: its BLOCK (@blk), or its sleeping switch-out (@blk NULL) */
static void sleep_half(struct attach *a, struct thread *t, uint64_t ts, const struct wp_block *blk)
{
	bool other_half_seen = blk ? t->sleep_switch_seen && !t->sleep_block_seen :
				     t->sleep_block_seen && !t->sleep_switch_seen;

	if (t->run == RUN_ASLEEP && other_half_seen) {
		if (blk) {
			t->wait = wait_of(blk);
			t->sleep_block_seen = true;
		} else {
			t->sleep_switch_seen = true;
		}
		t->last_ns = ts;
		return;
	}
	/* a new sleep: what the thread was doing on its CPU ends here */
	running(a, t, ts);
	/* switched in after a wake, and asleep again before its wait syscall returned: still in it */
	if (t->cur.stage == STAGE_RESUMING)
		finish_build(a, t, &t->cur, OUT_COMPLETE, MARK_WAIT_EXIT, ATTACH_ABSENT_SLEPT_AGAIN, ts);
	t->run = RUN_ASLEEP;
	t->sleep_ns = ts;
	t->sleep_switch_seen = !blk;
	t->sleep_block_seen = blk != NULL;
	memset(&t->wait, 0, sizeof(t->wait));
	t->wait.nr = -1;
	if (blk)
		t->wait = wait_of(blk);
	loss_window__open(&t->sleep_loss, ts);
	if (t->early.stage == STAGE_WOKEN) {
		/* the waking caught it inside __schedule(), before this switch-out: it ends this sleep */
		t->cur = t->early;
		t->cur.sleep_unseen = false;
		memset(&t->early, 0, sizeof(t->early));
		t->sleep_loss.open = false;
	}
}

/* take_waker - the WAKER record that went before this WAKING on its CPU, into @w */
static void take_waker(struct attach *a, const struct wp_event *e, struct waker_info *w)
{
	struct cpu_slot *c = cpu_slot(a, e->cpu);
	const struct thread *waker = find(a, e->tid);

	if (attach_wakers__take(c ? &c->waker : NULL, &a->names, waker ? waker->comm : NULL, e, w) ==
	    WAKER_UNPAIRED)
		a->counters.unpaired_wakers++;
}

static void on_waker(struct attach *a, const struct wp_event *e)
{
	struct cpu_slot *c = cpu_slot(a, e->cpu);
	struct thread *t;

	if (!c)
		return;
	if (attach_wakers__hold(&c->waker, e))
		a->counters.unpaired_wakers++;
	if (e->waker.waker_class == WP_WAKER_TRACKED && (t = find(a, e->tid)))
		memcpy(t->comm, e->waker.comm, sizeof(t->comm));
	/* a waker not traced is named by its record: a chain's hop may end at it */
	if (e->waker.waker_class == WP_WAKER_PROCESS || e->waker.waker_class == WP_WAKER_KTHREAD)
		attach_wakers__name(&a->names, e->tid, e->waker.comm);
}

/* mark_waking - @e decided the wake of @t that @b, its waker already taken, is about */
static void mark_waking(struct attach *a, struct thread *t, struct build *b, const struct wp_event *e)
{
	b->stage = STAGE_WOKEN;
	if (b->waker.cls == WP_WAKER_SYSCALL && b->waker.since_ns) {
		b->seen[MARK_NOTIFY_ENTER] = true;
		b->mark_ns[MARK_NOTIFY_ENTER] = b->waker.since_ns;
	}
	b->seen[MARK_WAKING] = true;
	b->mark_ns[MARK_WAKING] = e->ts_ns;
	b->waking_cpu = e->cpu;
	b->target_cpu = e->wake.target_cpu;
	b->target_was_idle = e->wake.target_idle_since_ns != 0;
	if (b->target_was_idle)
		want_idle_exit(a, b->target_cpu, t->tid);
}

static void on_waking(struct attach *a, const struct wp_event *e)
{
	struct waker_info w;
	struct thread *t;
	struct build *b;

	take_waker(a, e, &w);
	t = get(a, e->wake.pid, e->ts_ns);
	if (!t)
		return;
	if (t->run == RUN_ASLEEP) {
		/* a second waking of one sleep: the first one's sched_wakeup never came */
		if (t->cur.stage == STAGE_WOKEN)
			finish_build(a, t, &t->cur, OUT_MISSING, MARK_WAKEUP, ATTACH_PRESENT, e->ts_ns);
		else if (t->cur.stage == STAGE_QUEUED)
			finish_build(a, t, &t->cur, OUT_MISSING, MARK_SWITCH_IN, ATTACH_PRESENT, e->ts_ns);
		b = &t->cur;
		memset(b, 0, sizeof(*b));
		b->loss = t->sleep_loss;
		t->sleep_loss.open = false;
	} else {
		/*
		 * A waking before this one: one whose sched_wakeup never came, or
		 * one that queued a thread of unknown state that was never switched
		 * in, so it ran all along, and set its sleeping state again
		 */
		if (t->early.stage == STAGE_WOKEN)
			finish_build(a, t, &t->early, OUT_MISSING, MARK_WAKEUP, ATTACH_PRESENT, e->ts_ns);
		else if (t->early.stage == STAGE_QUEUED)
			finish_build(a, t, &t->early, OUT_NO_SLEEP, MARK_NOTIFY_ENTER, ATTACH_PRESENT, e->ts_ns);
		b = &t->early;
		memset(b, 0, sizeof(*b));
		loss_window__open(&b->loss, e->ts_ns);
		b->sleep_unseen = t->run == RUN_UNKNOWN;
	}
	b->waker = w;
	mark_waking(a, t, b, e);
	t->last_ns = e->ts_ns;
}

static void mark_wakeup(struct attach *a, struct thread *t, struct build *b, const struct wp_event *e)
{
	b->seen[MARK_WAKEUP] = true;
	b->mark_ns[MARK_WAKEUP] = e->ts_ns;
	b->wakeup_cpu = e->cpu;
	if (e->wake.target_cpu != b->target_cpu && b->target_was_idle && !b->idle_exit_seen)
		want_idle_exit(a, e->wake.target_cpu, t->tid);
	b->target_cpu = e->wake.target_cpu;
	b->stage = STAGE_QUEUED;
}

/* sleep_lost - were records lost since @t went to sleep? */
static bool sleep_lost(const struct attach *a, struct thread *t, uint64_t ts)
{
	loss_window__check(&t->sleep_loss, a->events, ts);
	return t->sleep_loss.open && t->sleep_loss.lost;
}

/*
 * begin_start - @t's sched_wakeup_new @e: a task's start, as a wakeup. Its
 * parent's clone() is the notify (the WAKER record before this one), the
 * record is the waking and the wakeup at once, and the "wait" ends where the
 * task leaves that clone() itself, at its first return to user space.
 */
static void begin_start(struct attach *a, struct thread *t, const struct wp_event *e)
{
	struct build *b = &t->cur;

	memset(b, 0, sizeof(*b));
	take_waker(a, e, &b->waker);
	loss_window__open(&b->loss, e->ts_ns);
	mark_waking(a, t, b, e);
	mark_wakeup(a, t, b, e);
	/* the syscall it leaves is its parent's; without the waker's record it is unknown */
	t->wait = (struct wait_info){ .known = b->waker.cls == WP_WAKER_SYSCALL, .start = true,
				      .untimed = b->waker.untimed,
				      .nr = b->waker.cls == WP_WAKER_SYSCALL ? b->waker.nr : -1 };
}

static void on_wakeup(struct attach *a, const struct wp_event *e)
{
	struct thread *t = find(a, e->wake.pid);

	if (t && t->cur.stage == STAGE_WOKEN) {
		mark_wakeup(a, t, &t->cur, e);
	} else if (t && t->early.stage == STAGE_WOKEN) {
		mark_wakeup(a, t, &t->early, e);
		/* known to be running or runnable: the wake found it before it left its CPU */
		if (t->run != RUN_UNKNOWN)
			finish_build(a, t, &t->early, OUT_NO_SLEEP, MARK_NOTIFY_ENTER, ATTACH_PRESENT, e->ts_ns);
	} else if (t && (t->cur.stage == STAGE_QUEUED || t->early.stage == STAGE_QUEUED)) {
		a->counters.stray_wakeups++;
	} else if (t && t->run == RUN_ASLEEP && sleep_lost(a, t, e->ts_ns)) {
		/* asleep, and records were lost since: its waking was among them */
		memset(&t->cur, 0, sizeof(t->cur));
		t->cur.loss = t->sleep_loss;
		t->sleep_loss.open = false;
		t->cur.target_cpu = e->wake.target_cpu;
		mark_wakeup(a, t, &t->cur, e);
	} else {
		/* sched_wakeup_new: a task begins, and anything known under its tid was another's */
		if (t)
			end_thread(a, t, OUT_MISSING, e->ts_ns);
		t = get(a, e->wake.pid, e->ts_ns);
		if (!t)
			return;
		t->run = RUN_NEW;
		a->counters.new_threads++;
		/* flagged (before recording format 4 it was not): its start is a wakeup of its own */
		if (e->wake.flags & WP_WAKE_NEW)
			begin_start(a, t, e);
	}
	if (t)
		t->last_ns = e->ts_ns;
}

static void on_switch_in(struct attach *a, const struct wp_event *e)
{
	struct thread *t;

	attach_wakers__name(&a->names, e->sw.next_tid, e->sw.next_comm);
	t = find(a, e->sw.next_tid);
	if (!t)
		return;
	if (t->tgid && e->sw.next_tgid && t->tgid != e->sw.next_tgid) {
		/* another process's thread under a tid that was reused */
		end_thread(a, t, OUT_MISSING, e->ts_ns);
		t = get(a, e->sw.next_tid, e->ts_ns);
		if (!t)
			return;
		a->counters.new_threads++;
	}
	t->tgid = e->sw.next_tgid;
	memcpy(t->comm, e->sw.next_comm, sizeof(t->comm));
	t->last_ns = e->ts_ns;

	if (t->run == RUN_UNKNOWN && t->early.stage == STAGE_QUEUED) {
		/* woken before anything else was seen of it: asleep since before tracing, in a wait not seen */
		t->early.seen[MARK_SWITCH_IN] = true;
		t->early.mark_ns[MARK_SWITCH_IN] = e->ts_ns;
		t->early.prio = e->sw.next_prio;
		finish_build(a, t, &t->early, OUT_WINDOW, MARK_WAIT_EXIT, ATTACH_PRESENT, e->ts_ns);
	} else if (t->run == RUN_UNKNOWN && t->early.stage == STAGE_WOKEN) {
		finish_build(a, t, &t->early, OUT_MISSING, MARK_WAKEUP, ATTACH_PRESENT, e->ts_ns);
	}
	switch (t->cur.stage) {
	case STAGE_QUEUED:
		t->cur.seen[MARK_SWITCH_IN] = true;
		t->cur.mark_ns[MARK_SWITCH_IN] = e->ts_ns;
		t->cur.prio = e->sw.next_prio;
		/* nothing will return: it slept outside a syscall, or the syscall's exit is not traced */
		if (t->wait.known && (t->wait.nr < 0 || t->wait.untimed))
			finish_build(a, t, &t->cur, OUT_COMPLETE, MARK_WAIT_EXIT,
				     t->wait.nr < 0 ? ATTACH_ABSENT_NO_WAIT_SYSCALL : ATTACH_ABSENT_UNTIMED, e->ts_ns);
		else
			t->cur.stage = STAGE_RESUMING;
		t->run = RUN_ON_CPU;
		break;
	case STAGE_RESUMING:
		/* back from a preemption on the way out of its wait */
		t->run = RUN_ON_CPU;
		break;
	default:
		running(a, t, e->ts_ns);
		break;
	}
}

static void on_switch(struct attach *a, const struct wp_event *e)
{
	struct thread *t = find(a, e->sw.prev_tid);
	struct cpu_slot *c;

	if (t) {
		if (e->sw.prev_state & WP_TASK_DEAD) {
			a->counters.exited_threads++;
			end_thread(a, t, OUT_MISSING, e->ts_ns);
			c = cpu_slot(a, e->cpu);
			if (c)
				c->dead_tid = e->sw.prev_tid;
		} else if (wp_switch_slept(e->sw.prev_state, e->sw.preempt)) {
			sleep_half(a, t, e->ts_ns, NULL);
		} else {
			running(a, t, e->ts_ns);
			t->run = RUN_PREEMPTED;
		}
	}
	if (e->sw.next_tid)
		on_switch_in(a, e);
}

static void on_block(struct attach *a, const struct wp_event *e)
{
	struct cpu_slot *c = cpu_slot(a, e->cpu);
	struct thread *t;

	/* written with the switch-out that ended the thread, after it */
	if (c && c->dead_tid && c->dead_tid == e->tid)
		return;
	t = get(a, e->tid, e->ts_ns);
	if (t)
		sleep_half(a, t, e->ts_ns, &e->block);
}

/* wait_ended - @t left its wait syscall (or went to a signal handler): the wakeup that resumed it is complete */
static void wait_ended(struct attach *a, struct thread *t, const struct wp_event *e, int64_t nr)
{
	struct build *b = &t->cur;

	if (b->stage != STAGE_RESUMING)
		return;
	if (e->type == WP_EV_SYS_EXIT && t->wait.known && t->wait.nr != nr) {
		/* the exit of another syscall: the wait's own never came */
		finish_build(a, t, b, OUT_MISSING, MARK_WAIT_EXIT, ATTACH_PRESENT, e->ts_ns);
		return;
	}
	b->seen[MARK_WAIT_EXIT] = true;
	b->mark_ns[MARK_WAIT_EXIT] = e->ts_ns;
	b->wait_end_type = e->type;
	b->wait_end_nr = nr;
	finish_build(a, t, b, OUT_COMPLETE, MARK_WAIT_EXIT, ATTACH_PRESENT, e->ts_ns);
}

static void on_migrate(struct attach *a, const struct wp_event *e)
{
	struct thread *t = find(a, e->migrate.pid);

	a->counters.migrations++;
	if (!t)
		return;
	if (t->cur.stage != STAGE_NONE)
		t->cur.migrations++;
	if (t->early.stage != STAGE_NONE)
		t->early.migrations++;
}

/*
 * note_current - the record's task (e->tid) is current on its CPU at the
 * record's time: it runs. The switch-out and the BLOCK are a task leaving
 * its CPU, dealt with by their handlers. Records only a tracked task
 * writes make its thread known; the others name only known ones (a watched
 * CPU records what any task does there).
 */
static void note_current(struct attach *a, const struct wp_event *e)
{
	struct thread *t;

	if (!e->tid)
		return;
	switch (e->type) {
	case WP_EV_SWITCH:
	case WP_EV_BLOCK:
		return;
	case WP_EV_SYS_ENTER:
	case WP_EV_SYS_EXIT:
	case WP_EV_SIGNAL_DELIVER:
		t = get(a, e->tid, e->ts_ns);
		break;
	case WP_EV_WAKER:
		if (e->waker.waker_class == WP_WAKER_SYSCALL || e->waker.waker_class == WP_WAKER_TRACKED)
			t = get(a, e->tid, e->ts_ns);
		else
			t = find(a, e->tid);
		break;
	default:
		t = find(a, e->tid);
		break;
	}
	if (t)
		running(a, t, e->ts_ns);
}

static void replay(struct attach *a, const struct wp_event *e)
{
	struct cpu_slot *c = e->cpu < WP_MAX_CPUS ? &a->cpus[e->cpu] : NULL;
	struct thread *t;

	a->last_ns = e->ts_ns;
	/* the chain's links first: a switch-in that ends a wakeup gives it its links */
	if (a->chains)
		chain_stream__add(a->chains, e);
	note_current(a, e);
	/* the dead thread's BLOCK comes right after its last switch-out on its CPU, or not at all */
	if (e->type == WP_EV_SWITCH) {
		if (c)
			c->dead_tid = 0;
		on_switch(a, e);
		return;
	}
	switch (e->type) {
	case WP_EV_WAKER:
		on_waker(a, e);
		break;
	case WP_EV_WAKING:
		on_waking(a, e);
		break;
	case WP_EV_WAKEUP:
		on_wakeup(a, e);
		break;
	case WP_EV_BLOCK:
		on_block(a, e);
		break;
	case WP_EV_SYS_EXIT:
		if ((t = find(a, e->tid)))
			wait_ended(a, t, e, e->sys.nr);
		break;
	case WP_EV_SIGNAL_DELIVER:
		if ((t = find(a, e->tid)))
			wait_ended(a, t, e, e->signal.sig);
		break;
	case WP_EV_MIGRATE:
		on_migrate(a, e);
		break;
	case WP_EV_FORK:
		/* the child's main thread has the child's tgid as its tid: whatever was known under it is gone */
		if ((t = find(a, e->fork.child_tgid)))
			end_thread(a, t, OUT_MISSING, e->ts_ns);
		break;
	case WP_EV_IDLE_EXIT:
		on_idle_exit(a, e);
		break;
	default:
		break;
	}
	if (c)
		c->dead_tid = 0;
}

/* ---------------------------------------------------------------- the API */

struct attach *attach__new(const struct attach_config *cfg, attach_result_fn fn, void *ctx)
{
	struct attach *a;

	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	if (cfg)
		a->cfg = *cfg;
	a->fn = fn;
	a->ctx = ctx;
	a->events = event_window__new();
	a->cpus = calloc(WP_MAX_CPUS, sizeof(*a->cpus));
	if (a->cfg.chains && (!(a->chains = chain_stream__new()) || !(a->explained = chain_hops__new()))) {
		attach__free(a);
		return NULL;
	}
	if (attach_threads__init(&a->threads, ATTACH_MAX_THREADS) || !a->events || !a->cpus) {
		attach__free(a);
		return NULL;
	}
	return a;
}

void attach__free(struct attach *a)
{
	if (!a)
		return;
	event_window__free(a->events);
	chain_stream__free(a->chains);
	chain_hops__free(a->explained);
	attach_threads__fini(&a->threads);
	free(a->cpus);
	free(a);
}

void attach__add_event(struct attach *a, const struct wp_event *e)
{
	unsigned int what = event_window__add(a->events, e);

	a->counters.events++;
	if (e->drops > a->counters.drops_seen)
		a->counters.drops_seen = e->drops;
	/* the window is kept further back than the replay (ATTACH_EXPLAIN_KEEP_NS): late is before done_ns */
	if ((what & EVENT_WINDOW_LATE) || e->ts_ns < a->done_ns)
		a->counters.late_events++;
	if (what & EVENT_WINDOW_EVICTED)
		a->counters.evicted_events++;
}

void attach__note_drops(struct attach *a, uint64_t drops)
{
	if (event_window__note_drops(a->events, drops) && drops > a->counters.drops_seen)
		a->counters.drops_seen = drops;
}

/*
 * check_losses - every open loss window, up to @to_ns, before pruning
 * forgets the gaps there; returns the first mark of the oldest open wakeup
 */
static uint64_t check_losses(struct attach *a, uint64_t to_ns)
{
	uint64_t oldest = UINT64_MAX, start;
	size_t i;

	for (i = 0; i < a->threads.nr_slots; i++) {
		struct thread *t = &a->threads.slots[i];

		if (!t->tid)
			continue;
		loss_window__check(&t->sleep_loss, a->events, to_ns);
		if (t->cur.stage != STAGE_NONE) {
			loss_window__check(&t->cur.loss, a->events, to_ns);
			start = attach_build__first_mark_ns(&t->cur);
			oldest = start < oldest ? start : oldest;
		}
		if (t->early.stage != STAGE_NONE) {
			loss_window__check(&t->early.loss, a->events, to_ns);
			start = attach_build__first_mark_ns(&t->early);
			oldest = start < oldest ? start : oldest;
		}
	}
	return oldest;
}

void attach__advance(struct attach *a, uint64_t complete_ns)
{
	const struct wp_event *e;
	uint64_t oldest, keep_from;
	size_t i;

	if (complete_ns <= a->done_ns)
		return;
	for (i = event_window__first_at(a->events, a->done_ns); (e = event_window__at(a->events, i)); i++) {
		if (e->ts_ns >= complete_ns)
			break;
		replay(a, e);
	}
	oldest = check_losses(a, complete_ns);
	a->done_ns = complete_ns;
	/* what an open wakeup's explanation will need is kept, up to ATTACH_EXPLAIN_KEEP_NS back */
	keep_from = oldest < complete_ns ? oldest : complete_ns;
	if (complete_ns > ATTACH_EXPLAIN_KEEP_NS && keep_from < complete_ns - ATTACH_EXPLAIN_KEEP_NS)
		keep_from = complete_ns - ATTACH_EXPLAIN_KEEP_NS;
	if (keep_from > a->kept_from_ns) {
		event_window__prune(a->events, keep_from);
		a->kept_from_ns = keep_from;
	}
}

void attach__finish(struct attach *a, uint64_t final_drops)
{
	size_t i;

	event_window__note_final_drops(a->events, final_drops);
	if (final_drops > a->counters.drops_seen)
		a->counters.drops_seen = final_drops;
	attach__advance(a, UINT64_MAX);
	/* what is still open was cut off by the end of tracing, or by the drops at its end */
	for (i = 0; i < a->threads.nr_slots; i++) {
		struct thread *t = &a->threads.slots[i];

		if (!t->tid)
			continue;
		if (t->early.stage != STAGE_NONE)
			finish_build(a, t, &t->early, OUT_WINDOW, MARK_WAIT_EXIT, ATTACH_PRESENT, UINT64_MAX);
		if (t->cur.stage != STAGE_NONE)
			finish_build(a, t, &t->cur, OUT_WINDOW, MARK_WAIT_EXIT, ATTACH_PRESENT, UINT64_MAX);
	}
}

const struct attach_counters *attach__counters(const struct attach *a)
{
	return &a->counters;
}
