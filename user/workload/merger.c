// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "event_window.h"
#include "explain.h"
#include "futex_ops.h"
#include "merger.h"
#include "ring.h"

#define PENDING_INITIAL		1024
#define PENDING_MAX		(1u << 18)
/* the lean engine: how far before a sample its flight records are replayed for its CPU's state */
#define LEAN_FLIGHT_BACK_NS	(10ull * 1000 * 1000)
/* the lean engine: how long after t_woken a sample waits for the record of its wake */
#define MERGER_LEAN_SETTLE_NS	(20ull * 1000 * 1000)

struct pending_sample {
	struct wp_sample sample;
	uint64_t t_notify_ns;
	uint64_t t_woken_ns;
	uint64_t t_wait_start_ns;
};

struct merger {
	struct merger_config cfg;
	merger_sample_fn fn;
	void *ctx;
	uint64_t trace_start_ns;	/* tracing covers [trace_start_ns, trace_end_ns] */
	uint64_t trace_end_ns;

	/* the kernel events the unfinished samples may need, and where some were lost */
	struct event_window *events;

	/* samples not finished yet, in sequence order, as a ring (ring.h) */
	struct pending_sample *pending;
	size_t pend_cap, pend_head, pend_len;
	uint64_t last_seq_added;

	uint64_t prev_woken_ns;		/* t_woken of the last finished sample */
	bool have_prev;

	struct merger_stats stats;
};

struct merger *merger__new(const struct merger_config *cfg, merger_sample_fn fn, void *ctx)
{
	struct merger *m;

	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->cfg = *cfg;
	m->fn = fn;
	m->ctx = ctx;
	m->trace_end_ns = UINT64_MAX;
	m->events = event_window__new();
	m->pend_cap = PENDING_INITIAL;
	m->pending = calloc(m->pend_cap, sizeof(*m->pending));
	if (!m->events || !m->pending) {
		merger__free(m);
		return NULL;
	}
	return m;
}

void merger__free(struct merger *m)
{
	if (!m)
		return;
	event_window__free(m->events);
	free(m->pending);
	free(m);
}

void merger__set_window(struct merger *m, uint64_t start_ns, uint64_t end_ns)
{
	m->trace_start_ns = start_ns;
	m->trace_end_ns = end_ns;
}

void merger__set_fds(struct merger *m, int notify_fd, int wait_fd)
{
	m->cfg.notify_fd = notify_fd;
	m->cfg.wait_fd = wait_fd;
}

const struct merger_stats *merger__stats(const struct merger *m)
{
	return &m->stats;
}

static bool fd_matches(int want, uint64_t arg)
{
	return want < 0 || (uint64_t)(int64_t)want == arg;
}

/* is_notify_entry - the waker entering the path's notify syscall */
static bool is_notify_entry(const struct merger_config *cfg, const struct wp_event *e, uint32_t waker)
{
	if (e->type != WP_EV_SYS_ENTER || e->tid != waker || !syscall_list__has(&cfg->notify_syscalls, e->sys.nr))
		return false;
	if (e->sys.nr == SYS_futex)
		return futex_ops__wakes(e->sys.arg2);
	return fd_matches(cfg->notify_fd, e->sys.arg);
}

/* is_wait_end - the wakee leaving its wait: the syscall's exit, or a signal's delivery */
static bool is_wait_end(const struct merger_config *cfg, const struct wp_event *e, uint32_t wakee)
{
	if (e->tid != wakee)
		return false;
	if (cfg->wait_end == WAIT_END_SIGNAL_DELIVER)
		return e->type == WP_EV_SIGNAL_DELIVER;
	return e->type == WP_EV_SYS_EXIT && syscall_list__has(&cfg->wait_syscalls, e->sys.nr);
}

enum wakee_state {
	WAKEE_AWAKE,	/* on CPU, or preempted but runnable */
	WAKEE_ASLEEP,	/* switched out to sleep, not woken since */
	WAKEE_WOKEN,	/* switched out to sleep, then woken: runnable, waiting for a CPU */
};

/*
 * wakee_state_at - where was the wakee at @ts_ns?
 *
 * Replays the wakee's context switches and wakings since the previous
 * sample ended: a switch-out with a sleeping state puts it to sleep, a
 * sched_waking of it wakes it, a switch-in makes it run (wp_switch_slept():
 * a preempted task has not slept, whatever state it had set).
 *
 * One race needs a look past @ts_ns, up to @until_ns: try_to_wake_up() can
 * catch a wakee that is already off its run queue but still on its CPU
 * inside __schedule(). Its sched_waking is then stamped before the
 * sched_switch that shows it leaving, and the wake is finished later by
 * the target CPU (the wake list), whose sched_wakeup follows the switch.
 * A waking while the wakee ran, then a sleeping switch-out, then a
 * sched_wakeup, is that wake.
 */
static enum wakee_state wakee_state_at(const struct merger *m, uint32_t wakee, uint64_t from_ns, uint64_t ts_ns,
				       uint64_t until_ns)
{
	enum wakee_state state = WAKEE_AWAKE;
	bool waking_while_running = false, woken_as_it_left = false;
	const struct wp_event *e;
	size_t i;

	for (i = event_window__first_at(m->events, from_ns); (e = event_window__at(m->events, i)); i++) {
		if (e->ts_ns >= ts_ns)
			break;
		if (e->type == WP_EV_SWITCH && e->sw.prev_tid == wakee) {
			state = wp_switch_slept(e->sw.prev_state, e->sw.preempt) ? WAKEE_ASLEEP : WAKEE_AWAKE;
			woken_as_it_left = state == WAKEE_ASLEEP && waking_while_running;
			waking_while_running = false;
		} else if (e->type == WP_EV_SWITCH && e->sw.next_tid == wakee) {
			state = WAKEE_AWAKE;
			waking_while_running = woken_as_it_left = false;
		} else if (e->type == WP_EV_WAKING && e->wake.pid == wakee) {
			if (state == WAKEE_ASLEEP)
				state = WAKEE_WOKEN;
			else if (state == WAKEE_AWAKE)
				waking_while_running = true;
		} else if (e->type == WP_EV_WAKEUP && e->wake.pid == wakee && woken_as_it_left) {
			state = WAKEE_WOKEN;
		}
	}
	if (state != WAKEE_ASLEEP || !woken_as_it_left)
		return state;
	for (; (e = event_window__at(m->events, i)); i++) {
		if (e->ts_ns > until_ns || (e->type == WP_EV_SWITCH && e->sw.next_tid == wakee))
			break;
		if (e->type == WP_EV_WAKEUP && e->wake.pid == wakee)
			return WAKEE_WOKEN;
	}
	return state;
}

/*
 * label_unwoken - a sample whose wake was not found: why, from the wakee's
 * state at @ts_ns (up to @until_ns for the race above)
 */
static bool label_unwoken(const struct merger *m, uint32_t wakee, uint64_t ts_ns, uint64_t until_ns,
			  struct sample_result *r)
{
	switch (wakee_state_at(m, wakee, m->have_prev ? m->prev_woken_ns : 0, ts_ns, until_ns)) {
	case WAKEE_AWAKE:
		r->label = LABEL_NO_SLEEP;
		return true;
	case WAKEE_WOKEN:
		r->label = LABEL_WOKEN_EARLY;
		return true;
	default:
		return false;	/* asleep: the wake is missing */
	}
}

/*
 * merge_user_only - a path with no kernel in it (spin): the sample keeps its
 * total, and is labelled preempted when the waiter lost its CPU between the
 * start of its wait (or the notify, if that was not taken) and t_woken. Every
 * syscall of the waiter there is counted: the path promises there are none.
 */
static void merge_user_only(const struct merger *m, const struct pending_sample *p, struct sample_result *r)
{
	uint32_t wakee = p->sample.wakee_tid;
	uint64_t from = p->t_wait_start_ns ? p->t_wait_start_ns : p->t_notify_ns;
	const struct wp_event *e;
	size_t i;

	r->label = LABEL_COMPLETE;
	r->lean = m->cfg.lean;
	for (i = event_window__first_at(m->events, from); (e = event_window__at(m->events, i)); i++) {
		if (e->ts_ns > p->t_woken_ns)
			break;
		if (e->type == WP_EV_SWITCH && e->sw.prev_tid == wakee)
			r->label = LABEL_PREEMPTED;
		if ((e->type == WP_EV_SYS_ENTER || e->type == WP_EV_SYS_EXIT) && e->tid == wakee)
			r->waiter_syscalls++;
	}
}

/*
 * explain - hand the events of [@lo, @hi] to explain__sample() in one piece,
 * or in the lean engine, where they are flight records of @lean_cpu (and of the
 * waker's CPU) reaching the phases @lean_reach says, to
 * explain__sample_lean().
 * Should they not fit in memory, the sample keeps an empty explanation whose
 * time is all unexplained, which is what it then is.
 */
static void explain(struct merger *m, uint64_t lo, uint64_t hi, struct sample_result *r, uint32_t lean_cpu,
		    unsigned int lean_reach)
{
	const struct wp_event *evs;
	size_t n;

	if (event_window__span(m->events, lo, hi, &evs, &n)) {
		memset(&r->why, 0, sizeof(r->why));
		r->why.by_cause[CAUSE_UNEXPLAINED] = r->total_ns;
		return;
	}
	if (m->cfg.lean)
		explain__sample_lean(&r->why, r, evs, n, lean_cpu, lean_reach);
	else
		explain__sample(&r->why, r, evs, n);
}

/*
 * split_phases - the six phases of @r, whose t_notify, t_woken and five
 * marks are in, each from one bound to the next; false, and @r labelled
 * clock_order, when one is negative (merge_sample() says when that is)
 */
static bool split_phases(struct sample_result *r)
{
	bool ordered = true;

	for (int k = 0; k < NR_PHASES; k++) {
		uint64_t from = k == PHASE_NOTIFY_USER ? r->t_notify_ns : r->mark_ns[k - 1];
		uint64_t to = k == PHASE_RESUME_USER ? r->t_woken_ns : r->mark_ns[k];

		r->phase_ns[k] = (int64_t)(to - from);
		ordered &= r->phase_ns[k] >= 0;
	}
	if (!ordered)
		r->label = LABEL_CLOCK_ORDER;
	return ordered;
}

/*
 * explain_lean - a lean sample whose wake brought flight records: of @cpu,
 * the CPU that switched the wakee in, from its waking on if it was slow to
 * be switched in (WP_LEAN_FLIGHT count), and then its waker's CPU's from
 * the notify on (WP_LEAN_NOTIFY_SEEN); of @cpu from the switch-in to the
 * wait's exit if it was slow by then (WP_LEAN_RESUME_SEEN). The phases they
 * reach are split by cause as in the full engine; resume_user, after the
 * exit, and any other they do not reach, are unexplained.
 */
static void explain_lean(struct merger *m, uint64_t lo, uint64_t hi, struct sample_result *r, uint32_t cpu,
			 uint16_t flags)
{
	unsigned int reach = (wp_lean_flight(flags) ? EXPLAIN_REACH_WAKE : 0) |
			     (flags & WP_LEAN_NOTIFY_SEEN ? EXPLAIN_REACH_NOTIFY : 0) |
			     (flags & WP_LEAN_RESUME_SEEN ? EXPLAIN_REACH_RESUME : 0);

	/* the ring's oldest records may reach back before the sample: they set its CPU's state */
	explain(m, lo > LEAN_FLIGHT_BACK_NS ? lo - LEAN_FLIGHT_BACK_NS : 0, hi, r, cpu, reach);
	r->lean_flight = true;
}

/*
 * stacks_of - --stacks: the record in front of wakeup record @e (at @i in
 * the window), with its header, holds its stacks (wp_lean_stacks)
 */
static void stacks_of(const struct merger *m, size_t i, const struct wp_event *e, struct sample_result *r)
{
	/* records of one time keep their order in the window, but others of that time may come between */
	for (size_t back = 1; back <= 4 && back <= i; back++) {
		const struct wp_event *s = event_window__at(m->events, i - back);

		if (!s || s->ts_ns != e->ts_ns)
			return;
		if (s->type == WP_EV_LEAN && s->cpu == e->cpu &&
		    (s->lean.flags & (WP_LEAN_NAMES | WP_LEAN_STACKS)) == (WP_LEAN_NAMES | WP_LEAN_STACKS)) {
			r->stacked = true;
			r->stacks = s->lean_stacks;
			return;
		}
	}
}

/*
 * merge_lean - the lean engine: the wakee's WP_EV_LEAN record whose wake falls in
 * the sample gives the six marks: waking, wakeup and switch-in, and the
 * notify's entry and the wait's end as spans from the waking and the
 * switch-in (wp_lean_span()). The record of a wakeup held until its wakee
 * left its syscall, or of a wake whose switch-in went untraced (written
 * at the wakee's next switch-out), can come well after t_woken:
 * merger__advance() waits for it.
 */
static void merge_lean(struct merger *m, const struct pending_sample *p, struct sample_result *r,
		       uint64_t lo)
{
	const struct merger_config *cfg = &m->cfg;
	uint32_t wakee = p->sample.wakee_tid;
	const struct wp_event *e;
	const struct wp_lean *l;
	size_t i;

	r->lean = true;
	for (i = event_window__first_at(m->events, lo); (e = event_window__at(m->events, i)); i++) {
		if (e->type != WP_EV_LEAN || (e->lean.flags & (WP_LEAN_NAME | WP_LEAN_NAMES)) || e->lean.pid != wakee ||
		    !(e->lean.flags & WP_LEAN_NEW) != !cfg->new_task)
			continue;
		l = &e->lean;
		/* a later wake of the wakee: this sample's is not coming */
		if (l->waking_ns > p->t_woken_ns)
			break;
		if (l->waking_ns + cfg->clock_slack_ns >= p->t_notify_ns)
			goto found;
		/* an earlier wake: the end of the previous sample's, or one that woke this wait before its notify */
		if (!(l->flags & WP_LEAN_NO_SWITCH_IN) && e->ts_ns > p->t_notify_ns) {
			r->label = LABEL_WOKEN_EARLY;
			return;
		}
	}
	/* nothing woke it: the notify found the wakee awake. A thread being made has no such excuse. */
	if (cfg->new_task) {
		r->label = LABEL_MISSING_EVENT;
		r->missing = MARK_WAKING;
	} else {
		r->label = LABEL_NO_SLEEP;
	}
	return;

found:
	stacks_of(m, i, e, r);
	r->waking_cpu = l->waking_cpu;
	r->wakeup_cpu = l->wakeup_cpu;
	r->target_cpu = l->target_cpu;
	r->mark_ns[MARK_WAKING] = l->waking_ns;
	r->mark_ns[MARK_WAKEUP] = l->wakeup_ns;
	if (l->flags & WP_LEAN_NO_SWITCH_IN) {
		r->label = LABEL_MISSING_EVENT;
		r->missing = MARK_SWITCH_IN;
		return;
	}
	r->mark_ns[MARK_SWITCH_IN] = e->ts_ns;
	/* a waker in no syscall (an interrupt), or a wakee that woke again, or ended, before it left its own */
	if (!l->notify_before || !l->exit_after) {
		r->label = LABEL_MISSING_EVENT;
		r->missing = !l->notify_before ? MARK_NOTIFY_ENTER : MARK_WAIT_EXIT;
		return;
	}
	r->mark_ns[MARK_NOTIFY_ENTER] = l->waking_ns - wp_lean_span_ns(l->notify_before);
	r->mark_ns[MARK_WAIT_EXIT] = e->ts_ns + wp_lean_span_ns(l->exit_after);
	if (!split_phases(r))
		return;
	r->label = LABEL_COMPLETE;
	r->phased = true;
	/* the BPF side judged it slow, and says which of its CPUs' records came with it */
	if (wp_lean_flight(l->flags) || (l->flags & WP_LEAN_RESUME_SEEN))
		explain_lean(m, lo, p->t_woken_ns + cfg->clock_slack_ns, r, e->cpu, l->flags);
}

/*
 * scan_rewait - after its wait ended, did the wakee block again before
 * t_woken? cond's wakee takes the mutex back inside pthread_cond_wait(), and
 * waits on it when the waker still holds it. Sums every such futex wait.
 */
static void scan_rewait(const struct merger *m, const struct pending_sample *p, struct sample_result *r)
{
	uint32_t wakee = p->sample.wakee_tid;
	uint64_t entered = 0;
	const struct wp_event *e;
	size_t i;

	for (i = event_window__first_at(m->events, r->mark_ns[MARK_WAIT_EXIT] + 1);
	     (e = event_window__at(m->events, i)); i++) {
		if (e->ts_ns > p->t_woken_ns)
			break;
		if (e->tid != wakee || (e->type != WP_EV_SYS_ENTER && e->type != WP_EV_SYS_EXIT) ||
		    e->sys.nr != SYS_futex)
			continue;
		if (e->type == WP_EV_SYS_ENTER && futex_ops__waits(e->sys.arg2)) {
			entered = e->ts_ns;
		} else if (e->type == WP_EV_SYS_EXIT && entered) {
			r->rewait_seen = true;
			r->rewait_ns += (int64_t)(e->ts_ns - entered);
			entered = 0;
		}
	}
}

/*
 * begin_result - @r as the sample @p alone gives it, before any event is
 * looked at; the events that may bound it lie in [*@lo, *@hi]
 */
static void begin_result(const struct merger *m, const struct pending_sample *p, struct sample_result *r,
			 uint64_t *lo, uint64_t *hi)
{
	uint64_t slack = m->cfg.clock_slack_ns;

	memset(r, 0, sizeof(*r));
	r->sample = p->sample;
	r->t_notify_ns = p->t_notify_ns;
	r->t_woken_ns = p->t_woken_ns;
	r->t_wait_start_ns = p->t_wait_start_ns;
	r->total_ns = (int64_t)(p->t_woken_ns - p->t_notify_ns);

	*lo = p->t_notify_ns > slack ? p->t_notify_ns - slack : 0;
	/* the previous sample's events end where its wakee took its timestamp */
	if (m->have_prev && *lo < m->prev_woken_ns)
		*lo = m->prev_woken_ns;
	*hi = p->t_woken_ns + slack;
}

/*
 * label_untraceable - a sample whose events cannot be trusted, whatever
 * they are: coalesced with the next one, outside the traced window, or
 * with records lost around it. True when @r is labelled so.
 */
static bool label_untraceable(const struct merger *m, const struct pending_sample *p, struct sample_result *r,
			      uint64_t lo, uint64_t hi)
{
	if (p->sample.flags & WP_SAMPLE_COALESCED)
		r->label = LABEL_COALESCED;
	else if (p->t_notify_ns < m->trace_start_ns || p->t_woken_ns > m->trace_end_ns)
		r->label = LABEL_OUT_OF_WINDOW;
	else if (event_window__lost(m->events, m->have_prev ? m->prev_woken_ns : lo, hi))
		r->label = LABEL_LOST_EVENTS;
	else
		return false;
	return true;
}

/* the waker off its CPU between t_notify and the wake: since when */
struct waker_watch {
	bool off;
	uint64_t since_ns;
};

/* watch_waker - switch @e, at or after t_notify and before the wake: the waker leaving or taking its CPU */
static void watch_waker(struct waker_watch *w, const struct wp_event *e, uint32_t waker, struct sample_result *r)
{
	if (e->sw.prev_tid == waker && !w->off) {
		w->off = true;
		w->since_ns = e->ts_ns;
	} else if (e->sw.next_tid == waker && w->off) {
		w->off = false;
		r->waker_preempted = true;
		r->waker_preempted_ns += e->ts_ns - w->since_ns;
	}
}

/* note_idle_exit - idle exit @e, after the wake decision: the target CPU leaving idle, if it was idle */
static void note_idle_exit(const struct wp_event *e, struct sample_result *r)
{
	if (!r->idle_exit_seen && r->target_was_idle && e->cpu == r->target_cpu) {
		r->idle_exit_seen = true;
		r->idle_exit_ns = (int64_t)(e->ts_ns - r->mark_ns[MARK_WAKING]);
	}
}

/* what take_mark() made of an event */
enum mark_take {
	MARK_PASSED,		/* not the mark searched for */
	MARK_TAKEN,		/* the mark, taken: the search goes on to the next */
	MARK_SEARCH_OVER,	/* the search can find nothing more (mark_search() says when) */
};

/*
 * take_mark - is @e the mark *@want that the search of @p waits for? If so
 * it is taken into @r, with what the event says besides its time, and
 * *@want moves on (by two for a new thread's wake: its one record is both
 * the waking and the wakeup).
 */
static enum mark_take take_mark(const struct merger_config *cfg, const struct pending_sample *p,
				const struct wp_event *e, enum mark *want, struct sample_result *r)
{
	uint32_t waker = p->sample.waker_tid, wakee = p->sample.wakee_tid;

	switch (*want) {
	case MARK_NOTIFY_ENTER:
		if (!is_notify_entry(cfg, e, waker))
			return MARK_PASSED;
		r->notify_nr = e->sys.nr;
		r->notify_arg = e->sys.arg;
		r->notify_arg2 = e->sys.arg2;
		break;
	case MARK_WAKING:
		/* a new thread's wake is decided by its sched_wakeup_new, any other by a sched_waking */
		if (!wp_wake_decides(e->type, e->wake.flags) || (e->type == WP_EV_WAKEUP) != cfg->new_task ||
		    e->wake.pid != wakee || e->tid != waker)
			return MARK_PASSED;
		r->waking_cpu = e->cpu;
		r->target_cpu = e->wake.target_cpu;
		r->target_was_idle = e->wake.target_idle_since_ns != 0;
		if (cfg->new_task) {
			/* the same record is the wakeup mark: the task was queued as it was made */
			r->wakeup_cpu = e->cpu;
			r->mark_ns[(*want)++] = e->ts_ns;
		}
		break;
	case MARK_WAKEUP:
		if (e->type != WP_EV_WAKEUP || e->wake.pid != wakee)
			return MARK_PASSED;
		r->wakeup_cpu = e->cpu;
		r->target_cpu = e->wake.target_cpu;
		break;
	case MARK_SWITCH_IN:
		/*
		 * The wakee left its wait, so it ran: a switch-in found
		 * after this is a later one (back from a preemption), and
		 * the one that resumed it went untraced.
		 */
		if (is_wait_end(cfg, e, wakee))
			return MARK_SEARCH_OVER;
		if (e->type != WP_EV_SWITCH || e->sw.next_tid != wakee)
			return MARK_PASSED;
		break;
	case MARK_WAIT_EXIT:
		if (!is_wait_end(cfg, e, wakee))
			return MARK_PASSED;
		r->wait_end_type = e->type;
		r->wait_end_nr = e->type == WP_EV_SIGNAL_DELIVER ? e->signal.sig : e->sys.nr;
		break;
	default:
		break;
	}
	r->mark_ns[*want] = e->ts_ns;
	(*want)++;
	return MARK_TAKEN;
}

/*
 * search_marks - the full engine's search of @p's marks among the events of
 * [@lo, @hi], each after the previous one, so kernel phases cannot be
 * negative; on the way, the waker's preemptions before the wake and the
 * target CPU's idle exit after it. Returns the first mark not found
 * (NR_MARKS: all were).
 */
static enum mark search_marks(const struct merger *m, const struct pending_sample *p, struct sample_result *r,
			      uint64_t lo, uint64_t hi)
{
	struct waker_watch watch = { 0 };
	enum mark want = MARK_NOTIFY_ENTER;
	const struct wp_event *e;
	size_t i;

	for (i = event_window__first_at(m->events, lo); want < NR_MARKS && (e = event_window__at(m->events, i)); i++) {
		if (e->ts_ns > hi)
			break;
		/*
		 * Only the wait's exit may sit past t_woken (by clock error); any
		 * earlier mark found there belongs to the next sample, whose
		 * notify can follow within the slack when running back to back.
		 */
		if (want < MARK_WAIT_EXIT && e->ts_ns > p->t_woken_ns)
			break;
		if (e->type == WP_EV_SWITCH && want <= MARK_WAKING && e->ts_ns >= p->t_notify_ns)
			watch_waker(&watch, e, p->sample.waker_tid, r);
		if (e->type == WP_EV_IDLE_EXIT && want > MARK_WAKING)
			note_idle_exit(e, r);
		if (take_mark(&m->cfg, p, e, &want, r) == MARK_SEARCH_OVER)
			break;
	}
	if (watch.off && want > MARK_WAKING) {
		r->waker_preempted = true;
		r->waker_preempted_ns += r->mark_ns[MARK_WAKING] - watch.since_ns;
	}
	return want;
}

/*
 * label_unfound - the search of @p stopped short of @missing: why, in @r's
 * label (always one).
 *
 * A notify that woke nobody is the expected outcome when the wakee had
 * not gone to sleep yet. So is a wake with no switch-in: try_to_wake_up()
 * caught the wakee after it set its sleeping state but before it left
 * the CPU, and it simply carried on. A notify also finds nobody when an
 * earlier one's wake already reached this wait (glibc's sem_post()
 * back to back: the previous post's FUTEX_WAKE finds the next sem_wait
 * queued). Had the wakee been asleep and unwoken, the event is missing.
 */
static void label_unfound(const struct merger *m, const struct pending_sample *p, struct sample_result *r,
			  enum mark missing, uint64_t hi)
{
	const struct merger_config *cfg = &m->cfg;
	uint32_t wakee = p->sample.wakee_tid;

	if (missing == MARK_NOTIFY_ENTER && cfg->notify_optional && label_unwoken(m, wakee, p->t_notify_ns, hi, r))
		return;
	/* a thread that is being made has no earlier state: only a missing event explains these */
	if (missing == MARK_WAKING && !cfg->new_task && label_unwoken(m, wakee, r->mark_ns[MARK_NOTIFY_ENTER], hi, r))
		return;
	/*
	 * Whether the wakee carried on is decided at sched_wakeup, not at
	 * sched_waking: a wake that caught it inside __schedule() is stamped
	 * before its switch-out to sleep, and that wakee needs a switch-in.
	 */
	if (missing == MARK_SWITCH_IN && !cfg->new_task &&
	    wakee_state_at(m, wakee, m->have_prev ? m->prev_woken_ns : 0, r->mark_ns[MARK_WAKEUP], hi) ==
		    WAKEE_AWAKE) {
		r->label = LABEL_NO_SLEEP;
		return;
	}
	r->label = LABEL_MISSING_EVENT;
	r->missing = missing;
}

/*
 * merge_sample - find the bounding events of one sample and split it.
 *
 * The marks are searched in order, each after the previous one, so kernel
 * phases cannot be negative. Only the two user phases can, when the TSC
 * mapping puts t_notify after the syscall entry or t_woken before the
 * syscall exit. Within clock_slack_ns that is clock error and the sample is
 * labelled clock_order; beyond it the event is outside the search window
 * and the sample is labelled missing_event.
 */
static void merge_sample(struct merger *m, const struct pending_sample *p, struct sample_result *r)
{
	uint64_t lo, hi;
	enum mark reached;

	begin_result(m, p, r, &lo, &hi);
	if (label_untraceable(m, p, r, lo, hi))
		return;
	if (m->cfg.user_only) {
		merge_user_only(m, p, r);
		return;
	}
	if (m->cfg.lean) {
		merge_lean(m, p, r, lo);
		return;
	}
	reached = search_marks(m, p, r, lo, hi);
	if (reached < NR_MARKS) {
		label_unfound(m, p, r, reached, hi);
		return;
	}
	if (!split_phases(r))
		return;
	scan_rewait(m, p, r);
	r->label = LABEL_COMPLETE;
	r->phased = true;
	explain(m, lo, hi, r, 0, 0);
}

void merger__add_event(struct merger *m, const struct wp_event *e)
{
	unsigned int what = event_window__add(m->events, e);

	m->stats.events++;
	if (e->drops > m->stats.drops_seen)
		m->stats.drops_seen = e->drops;
	if (e->type == WP_EV_MIGRATE)
		m->stats.migrations++;
	/* the lean engine's flight records come when a slow wakeup ends: old by design, not late */
	if ((what & EVENT_WINDOW_LATE) && !(m->cfg.lean && e->type != WP_EV_LEAN))
		m->stats.late_events++;
	if (what & EVENT_WINDOW_EVICTED)
		m->stats.evicted_events++;
}

int merger__add_sample(struct merger *m, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		       uint64_t t_wait_start_ns)
{
	struct pending_sample *p;

	if (s->seq <= m->last_seq_added)
		return -EINVAL;
	if (m->pend_len == m->pend_cap) {
		if (m->pend_cap >= PENDING_MAX)
			/* the event stream lags far behind: finish the oldest with what is known */
			merger__advance(m, m->pending[m->pend_head].t_woken_ns + m->cfg.clock_slack_ns + 1);
		else if (ring__grow((void **)&m->pending, &m->pend_cap, &m->pend_head, m->pend_len,
				   sizeof(*m->pending)))
			return -ENOMEM;
		if (m->pend_len == m->pend_cap)
			return -ENOSPC;
	}
	p = &m->pending[(m->pend_head + m->pend_len) & (m->pend_cap - 1)];
	p->sample = *s;
	p->t_notify_ns = t_notify_ns;
	p->t_woken_ns = t_woken_ns;
	p->t_wait_start_ns = t_wait_start_ns;
	m->pend_len++;
	m->last_seq_added = s->seq;
	return 0;
}

/* prune - forget the events and gaps that no unfinished sample can reach */
static void prune(struct merger *m)
{
	uint64_t keep_from = m->prev_woken_ns > m->cfg.clock_slack_ns ? m->prev_woken_ns - m->cfg.clock_slack_ns : 0;

	event_window__prune(m->events, keep_from);
}

void merger__advance(struct merger *m, uint64_t complete_ns)
{
	/*
	 * The wait-exit mark may sit up to clock_slack_ns after t_woken; a lean
	 * record of a lost switch-in comes at the wakee's next switch-out.
	 */
	uint64_t settle_ns = m->cfg.lean ? MERGER_LEAN_SETTLE_NS : m->cfg.clock_slack_ns;
	struct sample_result r;

	while (m->pend_len) {
		struct pending_sample *p = &m->pending[m->pend_head];

		if (p->t_woken_ns + settle_ns >= complete_ns)
			break;
		merge_sample(m, p, &r);
		m->stats.samples++;
		m->prev_woken_ns = p->t_woken_ns;
		m->have_prev = true;
		m->pend_head = (m->pend_head + 1) & (m->pend_cap - 1);
		m->pend_len--;
		if (m->fn)
			m->fn(&r, m->ctx);
	}
	prune(m);
}

void merger__note_drops(struct merger *m, uint64_t drops)
{
	if (event_window__note_drops(m->events, drops) && drops > m->stats.drops_seen)
		m->stats.drops_seen = drops;
}

void merger__finish(struct merger *m, uint64_t final_drops)
{
	event_window__note_final_drops(m->events, final_drops);
	if (final_drops > m->stats.drops_seen)
		m->stats.drops_seen = final_drops;
	merger__advance(m, UINT64_MAX);
}
