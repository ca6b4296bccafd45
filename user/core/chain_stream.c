// SPDX-License-Identifier: GPL-2.0
/*
 * chain_stream.c - a wakeup's chain links from the full engine's stream
 * (chain_stream.h), by bpf/chain.bpf.h's rules, step for step: the
 * functions below are named for the kernel's, and do what they do.
 */
#include <stdlib.h>
#include <string.h>
#include "chain_stream.h"

/* the tasks, by tid, in pages made as they are needed: a tid is below PID_MAX_LIMIT, 2^22 */
#define TID_BITS	22
#define PAGE_BITS	10
#define PAGE_TASKS	(1u << PAGE_BITS)
#define NR_PAGES	(1u << (TID_BITS - PAGE_BITS))

enum task_state { TASK_UNKNOWN, TASK_RUNNING, TASK_PREEMPTED, TASK_ASLEEP };
enum task_pending { PENDING_NONE, PENDING_WOKEN, PENDING_QUEUED };

/* one task, as bpf/lean_task.bpf.h keeps it for --chains */
struct stream_task {
	bool known;
	uint8_t state;			/* enum task_state */
	uint8_t pending;		/* enum task_pending */
	uint8_t cur;			/* links[cur & 1]: the chain that brought it to run */
	uint16_t run_cpu;
	uint32_t run_holder;
	uint32_t run_runnable;		/* span */
	uint32_t preempted_ns;
	uint64_t sleep_ns;
	uint64_t waking_ns;
	uint64_t run_ns;		/* its switch-in after its last wakeup; 0: not seen */
	uint64_t preempted_at;
	uint64_t ran_waking_ns;		/* the waking of the wakeup links[cur] brought */
	struct wp_lean_link links[2][WP_CHAIN_LINKS];
};

/* the WAKER record before a WAKING on its CPU */
struct stream_waker {
	bool held;
	uint8_t cls;			/* enum wp_waker_class */
	uint8_t fd_kind;
	uint16_t flags;			/* WP_WAKER_* */
	int32_t nr;
	uint32_t wakee_tid;
};

struct chain_stream {
	struct stream_task *pages[NR_PAGES];
	struct stream_waker wakers[WP_MAX_CPUS];
	struct chain_stream_counters counters;
};

struct chain_stream *chain_stream__new(void)
{
	return calloc(1, sizeof(struct chain_stream));
}

void chain_stream__free(struct chain_stream *cs)
{
	if (!cs)
		return;
	for (uint32_t i = 0; i < NR_PAGES; i++)
		free(cs->pages[i]);
	free(cs);
}

/* at - @tid's place where its page was made; NULL for tid 0, past the tids, or a page not made */
static struct stream_task *at(const struct chain_stream *cs, uint32_t tid)
{
	if (!tid || tid >> TID_BITS || !cs->pages[tid >> PAGE_BITS])
		return NULL;
	return &cs->pages[tid >> PAGE_BITS][tid & (PAGE_TASKS - 1)];
}

/* slot - @tid's place, made with its page when @make; NULL for tid 0, past the tids, or with no memory */
static struct stream_task *slot(struct chain_stream *cs, uint32_t tid, bool make)
{
	struct stream_task *t = at(cs, tid);

	if (t || !make || !tid || tid >> TID_BITS)
		return t;
	cs->pages[tid >> PAGE_BITS] = calloc(PAGE_TASKS, sizeof(struct stream_task));
	if (!cs->pages[tid >> PAGE_BITS]) {
		cs->counters.full++;
		return NULL;
	}
	return at(cs, tid);
}

/* find - @tid, when a record has said it is traced; else NULL */
static struct stream_task *find(struct chain_stream *cs, uint32_t tid)
{
	struct stream_task *t = slot(cs, tid, false);

	return t && t->known ? t : NULL;
}

/* get - @tid, traced: known from now on (as lean_task_of() makes a traced task's storage) */
static struct stream_task *get(struct chain_stream *cs, uint32_t tid)
{
	struct stream_task *t = slot(cs, tid, true);

	if (t && !t->known) {
		memset(t, 0, sizeof(*t));
		t->known = true;
	}
	return t;
}

/* forget - @t's task ended: a task that comes under its tid is another, with nothing of it */
static void forget(struct stream_task *t)
{
	memset(t, 0, sizeof(*t));
}

/*
 * chain_waker - the kind of the link a waking makes, run by @waker_tid
 * (@w, the WAKER record before it; NULL: none came), and into @wt the
 * waker's state where a traced thread woke it and has some
 */
static uint8_t chain_waker(struct chain_stream *cs, const struct stream_waker *w, uint32_t waker_tid,
			   struct stream_task **wt)
{
	*wt = NULL;
	if (!w)
		return WP_LINK_UNSURE;
	switch (w->cls) {
	case WP_WAKER_IRQ:
	case WP_WAKER_TIMER:
		return WP_LINK_IRQ;
	case WP_WAKER_SOFTIRQ:
		if (!(w->flags & WP_WAKER_RAISED))
			return WP_LINK_SOFTIRQ;
		*wt = find(cs, waker_tid);
		return *wt ? WP_LINK_RAISED : WP_LINK_UNTRACED;
	case WP_WAKER_SYSCALL:
	case WP_WAKER_TRACKED:
		*wt = get(cs, waker_tid);
		return WP_LINK_THREAD;
	default:
		return WP_LINK_UNTRACED;
	}
}

/* lean_nr - a syscall number as a link keeps it: past 16 bits it stays past any table */
static int16_t lean_nr(int32_t nr)
{
	return nr < 0x7fff ? (int16_t)nr : 0x7fff;
}

/*
 * chain_take - @p (@wakee_tid) is woken now by @waker_tid, whose WAKER
 * record is @hw (NULL: none came), @new_task: made, its first run to come
 */
static void chain_take(struct chain_stream *cs, struct stream_task *p, uint32_t wakee_tid, uint32_t waker_tid,
		       const struct stream_waker *hw, uint64_t now, bool new_task)
{
	struct wp_lean_link *l = p->links[(p->cur & 1) ^ 1];
	struct stream_task *w;
	uint8_t kind;

	kind = chain_waker(cs, hw, waker_tid, &w);
	if (new_task && kind == WP_LINK_THREAD)
		kind = WP_LINK_NEW;
	memset(l, 0, WP_CHAIN_LINKS * sizeof(*l));
	l->waker_tid = waker_tid;
	l->wakee_tid = wakee_tid;
	if (!new_task && p->state == TASK_ASLEEP && p->sleep_ns && now > p->sleep_ns)
		l->blocked = wp_lean_span(now - p->sleep_ns);
	l->kind = kind;
	l->nr = -1;
	l->fd_kind = FD_KIND_UNKNOWN;
	if (kind == WP_LINK_THREAD && hw->cls == WP_WAKER_SYSCALL) {
		l->nr = lean_nr(hw->nr);
		l->fd_kind = hw->fd_kind;
	}
	if (!w || !w->run_ns || now < w->run_ns)
		return;
	l->ran = wp_lean_span(now - w->run_ns);
	l->preempted = w->preempted_ns;
	l->runnable = w->run_runnable;
	l->holder_tid = w->run_holder;
	l->cpu = w->run_cpu;
	memcpy(&l[1], w->links[w->cur & 1], (WP_CHAIN_LINKS - 1) * sizeof(*l));
}

/* chain_ran - @t's wakeup ended: switched in now on @cpu, taking it from @prev_tid (@seen false: not seen) */
static void chain_ran(struct chain_stream *cs, struct stream_task *t, uint64_t now, bool seen, uint32_t prev_tid,
		      uint32_t cpu)
{
	t->cur = (t->cur & 1) ^ 1;
	t->ran_waking_ns = t->waking_ns;
	t->pending = PENDING_NONE;
	t->preempted_ns = 0;
	t->preempted_at = 0;
	if (!seen) {
		t->run_ns = 0;
		return;
	}
	t->run_ns = now;
	t->run_runnable = now > t->waking_ns ? wp_lean_span(now - t->waking_ns) : 0;
	t->run_holder = prev_tid;
	t->run_cpu = (uint16_t)cpu;
	cs->counters.wakeups++;
}

static void chain_switched_out(struct stream_task *t, uint64_t now, bool slept)
{
	if (slept) {
		t->sleep_ns = now;
		t->preempted_at = 0;
	} else {
		t->preempted_at = now;
	}
}

static void chain_switched_in(struct stream_task *t, uint64_t now)
{
	uint64_t sum;

	if (!t->preempted_at || now < t->preempted_at)
		return;
	sum = t->preempted_ns + (now - t->preempted_at);
	t->preempted_ns = sum < 0xffffffffull ? (uint32_t)sum : 0xffffffffu;
	t->preempted_at = 0;
}

/* take_waker - the WAKER record held on @e's CPU for its wakee, taken; NULL when none was */
static const struct stream_waker *take_waker(struct chain_stream *cs, const struct wp_event *e, struct stream_waker *w)
{
	struct stream_waker *h = e->cpu < WP_MAX_CPUS ? &cs->wakers[e->cpu] : NULL;

	if (!h || !h->held || h->wakee_tid != e->wake.pid) {
		cs->counters.no_waker++;
		return NULL;
	}
	*w = *h;
	h->held = false;
	return w;
}

static void on_waker(struct chain_stream *cs, const struct wp_event *e)
{
	struct stream_waker *h;

	if (e->cpu >= WP_MAX_CPUS)
		return;
	h = &cs->wakers[e->cpu];
	h->held = true;
	h->cls = e->waker.waker_class;
	h->flags = e->waker.flags;
	h->nr = e->waker.nr;
	h->fd_kind = h->cls == WP_WAKER_SYSCALL ? e->waker.fd_kind : FD_KIND_UNKNOWN;
	h->wakee_tid = e->waker.wakee_pid;
}

static void on_waking(struct chain_stream *cs, const struct wp_event *e)
{
	struct stream_waker w;
	const struct stream_waker *hw = take_waker(cs, e, &w);
	struct stream_task *p = get(cs, e->wake.pid);

	if (!p)
		return;
	p->waking_ns = e->ts_ns;
	p->pending = PENDING_WOKEN;
	chain_take(cs, p, e->wake.pid, e->tid, hw, e->ts_ns, false);
}

static void on_wakeup(struct chain_stream *cs, const struct wp_event *e)
{
	struct stream_task *p;

	if (e->wake.flags & WP_WAKE_NEW) {
		struct stream_waker w;
		const struct stream_waker *hw = take_waker(cs, e, &w);

		/* a task begins: whatever its tid held was another's */
		if ((p = find(cs, e->wake.pid)))
			forget(p);
		if (!(p = get(cs, e->wake.pid)))
			return;
		p->waking_ns = e->ts_ns;
		chain_take(cs, p, e->wake.pid, e->tid, hw, e->ts_ns, true);
		p->state = TASK_ASLEEP;
		p->pending = PENDING_QUEUED;
		return;
	}
	p = find(cs, e->wake.pid);
	if (!p || p->pending != PENDING_WOKEN)
		return;
	/* a task not seen to switch yet is taken as asleep, off its CPU */
	p->pending = p->state == TASK_ASLEEP || p->state == TASK_UNKNOWN ? PENDING_QUEUED : PENDING_NONE;
}

static void on_switch(struct chain_stream *cs, const struct wp_event *e)
{
	const struct wp_switch *sw = &e->sw;
	bool slept = wp_switch_slept(sw->prev_state, sw->preempt);
	struct stream_task *t;

	if ((t = find(cs, sw->prev_tid))) {
		/* woken while asleep, and leaving a CPU it was not seen to get */
		if (t->pending == PENDING_QUEUED)
			chain_ran(cs, t, e->ts_ns, false, 0, e->cpu);
		if (sw->prev_state & WP_TASK_DEAD) {
			forget(t);
		} else {
			chain_switched_out(t, e->ts_ns, slept);
			t->state = slept ? TASK_ASLEEP : TASK_PREEMPTED;
		}
	}
	if ((t = find(cs, sw->next_tid))) {
		chain_switched_in(t, e->ts_ns);
		if (t->pending == PENDING_QUEUED)
			chain_ran(cs, t, e->ts_ns, true, sw->prev_tid, e->cpu);
		t->state = TASK_RUNNING;
	}
}

void chain_stream__add(struct chain_stream *cs, const struct wp_event *e)
{
	switch (e->type) {
	case WP_EV_WAKER:
		on_waker(cs, e);
		if (e->waker.waker_class == WP_WAKER_SYSCALL || e->waker.waker_class == WP_WAKER_TRACKED)
			get(cs, e->tid);
		break;
	case WP_EV_WAKING:
		on_waking(cs, e);
		break;
	case WP_EV_WAKEUP:
		on_wakeup(cs, e);
		break;
	case WP_EV_SWITCH:
		on_switch(cs, e);
		break;
	case WP_EV_BLOCK:
		/* written before its switch-out, by a tracked task leaving its CPU asleep */
		get(cs, e->tid);
		break;
	default:
		break;
	}
}

uint32_t chain_stream__links(const struct chain_stream *cs, uint32_t tid, uint64_t waking_ns,
			     struct wp_lean_link links[WP_CHAIN_LINKS])
{
	const struct stream_task *t = at(cs, tid);

	if (!t || !t->known || !waking_ns || t->ran_waking_ns != waking_ns)
		return 0;
	memcpy(links, t->links[t->cur & 1], WP_CHAIN_LINKS * sizeof(*links));
	return WP_CHAIN_LINKS;
}

const struct chain_stream_counters *chain_stream__counters(const struct chain_stream *cs)
{
	return &cs->counters;
}
