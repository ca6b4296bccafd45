/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flight.bpf.h - the lean engine's flight recorder: each CPU's ring of its
 * last switches, idle transitions and interrupts, and the judging of each
 * wakeup at its switch-in, which copies a slow one's evidence from the
 * rings into the ring buffer ahead of its own record.
 */
#ifndef WAKEPROBE_FLIGHT_BPF_H
#define WAKEPROBE_FLIGHT_BPF_H

#include "ring.bpf.h"
#include "lean_task.bpf.h"

/*
 * The flight recorder (lean_flight, fixed at load): each CPU keeps its
 * last LEAN_FLIGHT_LEN switches and idle transitions in a per-CPU ring,
 * written there and nowhere else, and copies them out only when a wakeup
 * it switches in took lean_flight_ns or more from its waking: what held
 * the CPU the wakee waited for is then there to explain it. The threshold
 * is in .bss, which wakeprobe maps: --threshold-us fixes it; without it,
 * wakeprobe moves it as the run goes to the running p99 of the times
 * lean_slowness counts (user/live/lean_adapt.c).
 */
__u64 lean_flight_ns[WP_SLOW_KINDS];	/* by the waker's kind, wp_slow_kind_of() */
/*
 * ... how many more wakeups of the kind may bring their records while its
 * threshold is the first one, before its p99 is known (a run of hundreds
 * of runnable tasks has most of its wakeups over it); WP_FLIGHT_UNBOUNDED
 * once it is known or fixed
 */
__s64 lean_flight_left[WP_SLOW_KINDS];

/* with the flight recorder: every recorded wakeup's waking to switch-in, by its waker's kind and wp_slow_bucket() */
struct lean_slowness {
	__u64 n[WP_SLOW_KINDS][WP_SLOW_BUCKETS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lean_slowness);
} lean_slowness SEC(".maps");

#define LEAN_FLIGHT_LEN	32	/* a power of two */
#define LEAN_FLIGHT_SWITCHES	4	/* ... and so is this */
_Static_assert(LEAN_FLIGHT_LEN > WP_LEAN_FLIGHT_MAX, "a flight copy is the ring's newest records");

struct lean_flight {
	__u32 head;			/* records written; the last LEAN_FLIGHT_LEN are kept */
	__u32 __pad;
	__u64 idle_since_ns;
	/*
	 * flight_copy()'s: the last switch, idle transition and interrupt entry
	 * not yet left before a waking, as positions plus one. Kept here, not in
	 * locals, so that the verifier does not follow every value they could
	 * take through the copy.
	 */
	__u32 last_switch;
	__u32 last_idle;
	__u32 last_irq;
	__u32 __pad2;
	/*
	 * lean_flight_softirq()'s: softirqs that follow one another with no
	 * other record between them are one entry and one exit, so that a
	 * CPU busy with them (a task sending on loopback runs NET_RX at each
	 * send) does not push its switches out of the ring.
	 */
	__u64 soft_since_ns;		/* the open softirq's entry */
	__u64 soft_run_ns;		/* the run's softirq time so far */
	__u32 soft_entry_head;		/* head right after the open one's entry was written */
	__u32 soft_run_head;		/* head right after the run's exit: the run is its last two; 0: none */
	__s32 soft_vec;			/* the open one's vector */
	__s32 soft_run_vec;
	__u32 soft_pending;		/* the open one's entry is not written: it may join the run */
	__u32 __pad3;
	/*
	 * The CPU's last LEAN_FLIGHT_SWITCHES switches, kept out of the ring
	 * too (sw_head counts them): a wait of a few milliseconds behind one
	 * task fills the ring with ticks and IPIs and pushes out the switch
	 * that says who held the CPU, before a kworker's turn or two and the
	 * wakee's own switch-in (flight_copy())
	 */
	struct wp_event sw[LEAN_FLIGHT_SWITCHES];
	__u32 sw_head;
	__u32 __pad4;
	struct wp_event ev[LEAN_FLIGHT_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lean_flight);
} lean_flights SEC(".maps");

static __always_inline struct lean_flight *lean_flight_ring(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&lean_flights, &zero);
}

/* flight_next - the next slot of this CPU's ring, taken, its header filled: a record of @type at @now */
static __always_inline struct wp_event *flight_next(struct lean_flight *f, __u32 type, __u64 now)
{
	struct wp_event *e = &f->ev[f->head & (LEAN_FLIGHT_LEN - 1)];

	f->head++;
	header_fill(e, type, now);
	return e;
}

/*
 * flight_slot_at - the next slot of this CPU's ring, its header filled: a
 * record of @type at @now, this instant (flight_slot(): now). A STEAL
 * record goes first when the CPU's steal clock moved since its last flight
 * record (steal_look() for the ring buffer).
 */
static __always_inline struct wp_event *flight_slot_at(struct lean_flight *f, __u32 type, __u64 now)
{
	struct wp_steal s;

	/* a softirq that was to join the run has this record inside it: its entry goes first */
	if (f->soft_pending) {
		f->soft_pending = 0;
		irq_fill(flight_next(f, WP_EV_IRQ, f->soft_since_ns), WP_IRQ_SOFT, f->soft_vec, 0, NULL);
		f->soft_entry_head = f->head;
	}
	if (steal_moved(now, &s))
		flight_next(f, WP_EV_STEAL, now)->steal = s;
	return flight_next(f, type, now);
}

static __always_inline struct wp_event *flight_slot(struct lean_flight *f, __u32 type)
{
	return flight_slot_at(f, type, bpf_ktime_get_ns());
}

/* what flight_copy()'s two passes over a CPU's flight ring share, on its stack */
struct flight_pass {
	struct lean_flight *f;
	__u64 since_ns;		/* the wakeup's waking */
	int copied;
	__u32 first;		/* flight_take() leaves out the window's oldest this many */
};

/* flight_at - the @n-th oldest of the ring's newest WP_LEAN_FLIGHT_MAX records, and its position plus one */
static __always_inline const struct wp_event *flight_at(const struct lean_flight *f, __u64 n, __u32 *pos)
{
	__u32 i = LEAN_FLIGHT_LEN - WP_LEAN_FLIGHT_MAX + (__u32)n;

	*pos = i + 1;
	return &f->ev[(f->head + i) & (LEAN_FLIGHT_LEN - 1)];
}

/* flight_mark - bpf_loop()'s first pass: the newest switch, idle transition and open interrupt before the waking */
static long flight_mark(__u64 n, void *ctx)
{
	struct flight_pass *p = ctx;
	struct lean_flight *f = p->f;
	const struct wp_event *src;
	__u32 pos;

	src = flight_at(f, n, &pos);
	if (!src->ts_ns || src->ts_ns >= p->since_ns)
		return 0;
	if (src->type == WP_EV_SWITCH)
		f->last_switch = pos;
	else if (src->type == WP_EV_IDLE_ENTER || src->type == WP_EV_IDLE_EXIT)
		f->last_idle = pos;
	else if (src->type == WP_EV_IRQ)
		f->last_irq = src->irq.exit ? 0 : pos;
	return 0;
}

/* flight_send - flight record @src into the ring buffer, as it was kept; false, and a drop counted, when it is full */
static __always_inline bool flight_send(const struct wp_event *src)
{
	struct wp_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		count_drop(src->type);
		return false;
	}
	*e = *src;
	e->drops = (__u32)drops_total;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return true;
}

/* flight_take - bpf_loop()'s second pass: a record from the waking on, or one the first pass marked, copied */
static long flight_take(__u64 n, void *ctx)
{
	struct flight_pass *p = ctx;
	const struct lean_flight *f = p->f;
	const struct wp_event *src;
	__u32 pos;

	if (n < p->first)
		return 0;
	src = flight_at(f, n, &pos);
	if (!src->ts_ns ||
	    (src->ts_ns < p->since_ns && pos != f->last_switch && pos != f->last_idle && pos != f->last_irq))
		return 0;
	if (!flight_send(src))
		return 1;	/* the ring is full: the rest would not fit either */
	p->copied++;
	return 0;
}

/*
 * flight_copy - a slow wakeup, woken at @since_ns, is being switched in
 * here: this CPU's flight records from then on, of its newest
 * WP_LEAN_FLIGHT_MAX, oldest first, into the ring buffer, right before the
 * wakeup's own record, which says how many came. Of the ones before its
 * waking only the last switch, the last idle transition and the last
 * interrupt's entry, if it was still in it, go too: what the CPU was doing
 * then, all the explanation needs of that time. The two passes are
 * bpf_loop()'s, whose callbacks the verifier checks once rather than once
 * per record: unrolled, they were two thirds of what it checked in
 * lean_sched_switch. When no switch before the waking is left in the ring,
 * the newest of the CPU's last switches kept apart (sw) that came before
 * the waking goes first in its place, and the window's oldest record is
 * left out so that the count still fits. Returns the number copied.
 */
static __noinline int flight_copy(__u64 since_ns)
{
	struct flight_pass p = { .f = lean_flight_ring(), .since_ns = since_ns };
	const struct wp_event *kept = NULL;
	__u32 i;

	if (!p.f)
		return 0;
	p.f->last_switch = 0;
	p.f->last_idle = 0;
	p.f->last_irq = 0;
	bpf_loop(WP_LEAN_FLIGHT_MAX, flight_mark, &p, 0);
	for (i = 1; i <= LEAN_FLIGHT_SWITCHES; i++) {
		kept = &p.f->sw[(p.f->sw_head - i) & (LEAN_FLIGHT_SWITCHES - 1)];
		if (kept->ts_ns && kept->ts_ns < since_ns)
			break;
	}
	if (!p.f->last_switch && kept->ts_ns && kept->ts_ns < since_ns) {
		if (!flight_send(kept))
			return 0;
		p.copied = 1;
		p.first = 1;
	}
	bpf_loop(WP_LEAN_FLIGHT_MAX, flight_take, &p, 0);
	return p.copied;
}

/* what flight_copy_back()'s pass over a CPU's ring shares, on its stack */
struct back_pass {
	const struct lean_flight *f;
	__u32 head;		/* the ring's head then: the records before it were whole */
	__u64 since_ns;
	int copied;
	bool reached;		/* a record older than since_ns was found: every one since came */
};

/* back_take - bpf_loop()'s pass back from the head: a record since since_ns copied; an older one ends it */
static long back_take(__u64 n, void *ctx)
{
	struct back_pass *p = ctx;
	const struct wp_event *src = &p->f->ev[(p->head - 1 - (__u32)n) & (LEAN_FLIGHT_LEN - 1)];

	if (!src->ts_ns || src->ts_ns < p->since_ns) {
		p->reached = true;
		return 1;
	}
	if (!flight_send(src))
		return 1;
	p->copied++;
	return 0;
}

/* at most this many records come back from a head, and only while as many more are between them and the ring's head */
#define BACK_FLIGHT_MAX		8
#define BACK_FLIGHT_ALL		0x100	/* flight_copy_back()'s word that none since since_ns was left out */

/*
 * flight_copy_back - a workload's slow wakeup: the records of @cpu's ring
 * written before its position @head, back to @since_ns, newest first, at
 * most BACK_FLIGHT_MAX: its waker's CPU's from its notify to its waking,
 * or its own CPU's from its switch-in to its wait's exit. The ring may be
 * another CPU's, read as that CPU goes on writing it: only records written
 * before @head are read, whole since, and none once the ring's head has
 * come within BACK_FLIGHT_MAX of writing over them. Returns the number
 * copied, plus BACK_FLIGHT_ALL when every one since @since_ns came.
 */
static __noinline int flight_copy_back(__u32 cpu, __u32 head, __u64 since_ns)
{
	struct back_pass p = { .head = head, .since_ns = since_ns };
	__u32 zero = 0;

	p.f = bpf_map_lookup_percpu_elem(&lean_flights, &zero, cpu);
	if (!p.f || !head || p.f->head - head > LEAN_FLIGHT_LEN - 2 * BACK_FLIGHT_MAX)
		return 0;
	bpf_loop(head < BACK_FLIGHT_MAX ? head : BACK_FLIGHT_MAX, back_take, &p, 0);
	/* the ring's first records: none older was written */
	if (head <= BACK_FLIGHT_MAX && p.copied == (int)head)
		p.reached = true;
	return p.copied + (p.reached ? BACK_FLIGHT_ALL : 0);
}

/*
 * lean_flight_softirq - a softirq enters (@exit 0) or leaves this CPU,
 * watched. One that follows the last with no record between them, of its
 * vector, joins it: the run's two records stay the ring's newest, its exit
 * moved to this one's and its entry to where the run's softirq time, summed,
 * would have begun had it been one. Its time stays whole and between the
 * same records, its place within them is lost (docs/phases.md).
 */
static __always_inline void lean_flight_softirq(struct lean_flight *f, int vec, __u32 exit)
{
	__u64 now = bpf_ktime_get_ns();

	if (!exit) {
		f->soft_since_ns = now;
		f->soft_vec = vec;
		f->soft_pending = f->soft_run_head && f->soft_run_head == f->head && vec == f->soft_run_vec;
		if (!f->soft_pending) {
			irq_fill(flight_slot(f, WP_EV_IRQ), WP_IRQ_SOFT, vec, 0, NULL);
			f->soft_entry_head = f->head;
		}
		return;
	}
	if (f->soft_pending && f->soft_run_head == f->head) {
		f->soft_pending = 0;
		f->soft_run_ns += now - f->soft_since_ns;
		f->ev[(f->head - 2) & (LEAN_FLIGHT_LEN - 1)].ts_ns = now - f->soft_run_ns;
		f->ev[(f->head - 1) & (LEAN_FLIGHT_LEN - 1)].ts_ns = now;
		f->soft_since_ns = 0;
		return;
	}
	irq_fill(flight_slot(f, WP_EV_IRQ), WP_IRQ_SOFT, vec, 1, NULL);
	/* a run starts when its entry and exit are the ring's last two, the entry seen */
	if (f->soft_since_ns && f->soft_entry_head + 1 == f->head) {
		f->soft_run_ns = now - f->soft_since_ns;
		f->soft_run_head = f->head;
		f->soft_run_vec = vec;
	} else {
		f->soft_run_head = 0;
	}
	f->soft_since_ns = 0;
}

/*
 * lean_flight_irq - interrupt work on this CPU, into its flight ring while
 * a tracked task is being woken onto it or waits to run there: what may
 * take its time then, and the end of a softirq it saw begin. Elsewhere it
 * returns at once. (In attach mode the softirqs' programs load only with
 * --softirqs: user/live/collector.c says why.) cs->irq.soft_open, which
 * the lean engine does not use for attach mode's context, says that the ring
 * holds an open softirq's entry, or will.
 */
static __always_inline void lean_flight_irq(struct cpu_state *cs, __u32 kind, int nr, __u32 exit,
					    const char *name)
{
	struct lean_flight *f;

	if (!cs)
		return;
	if (kind == WP_IRQ_SOFT) {
		if (!(exit ? cs->irq.soft_open : cs->lean_waiting) || !(f = lean_flight_ring()))
			return;
		cs->irq.soft_open = !exit;
		lean_flight_softirq(f, nr, exit);
		return;
	}
	if (!cs->lean_waiting || !(f = lean_flight_ring()))
		return;
	irq_fill(flight_slot(f, WP_EV_IRQ), kind, nr, exit, name);
}

#define LEAN_UNWATCHED	(~0u)

/*
 * lean_watch - the wake in @lt now watches @cpu (LEAN_UNWATCHED: none)
 * for lean_flight_irq(): from its waking, on the CPU the task last ran on
 * (where a remote wake's IPI lands, mostly), then on the one it is queued
 * on, until its switch-in. A wake moved by load balancing while it waits
 * keeps watching the CPU it was queued on.
 */
static __always_inline void lean_watch(struct lean_task *lt, __u32 cpu)
{
	__u32 old = lt->watch_cpu, now = cpu == LEAN_UNWATCHED ? 0 : cpu + 1;
	struct cpu_state *cs;

	if (!lean_flight || old == now)
		return;
	if (old && (cs = cpu_state_of(old - 1)))
		__sync_fetch_and_add(&cs->lean_waiting, (__u32)-1);
	if (now && (cs = cpu_state_of(now - 1)))
		__sync_fetch_and_add(&cs->lean_waiting, 1);
	lt->watch_cpu = now;
}

/* the waker's CPU's flight records a workload's slow wakeup brings start this long before its notify's entry */
#define LEAN_NOTIFY_BACK_NS	(20 * 1000)

/* lean_slow_kind - the kind of @lt's waker, whose threshold judges it (wp_slow_kind_of()), in range */
static __always_inline __u32 lean_slow_kind(const struct lean_task *lt)
{
	__u32 kind = wp_slow_kind_of(lt->flags);

	return kind < WP_SLOW_KINDS ? kind : WP_SLOW_THREAD;	/* for the verifier */
}

/*
 * flight_enqueue_steal - a slow wakeup that its waker enqueued on its own
 * CPU, another than this one: a STEAL record of that CPU, stamped at the
 * wakeup, says how far its steal clock moved from the waking (0 too: it was
 * read), which no record of that CPU could tell from here. It goes before
 * the wakeup's record, not counted among its CPU's flight records.
 */
static __always_inline void flight_enqueue_steal(const struct lean_task *lt)
{
	struct wp_event *e;

	if (!lt->enqueue_steal || lt->waking_cpu == bpf_get_smp_processor_id())
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(WP_EV_STEAL);
		return;
	}
	header_fill(e, WP_EV_STEAL, lt->wakeup_ns);
	e->cpu = lt->waking_cpu;
	e->tid = lt->waker_tid;
	e->steal.delta_ns = lt->enqueue_steal - 1;
	e->steal.steal_ns = lt->waking_steal_ns + e->steal.delta_ns;
	e->steal.since_ns = lt->waking_ns;
	e->steal.__pad[0] = 0;
	e->steal.__pad[1] = 0;
	e->drops = (__u32)drops_total;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/*
 * lean_judge - @lt's wake is switched in now (@now): counted by how long
 * it took from its waking, and when that is slow, this CPU's flight
 * records, which say what it ran meanwhile, go into the ring first; a
 * workload's, whose notify is timed, also bring its waker's CPU's from
 * its notify on (WP_LEAN_NOTIFY_SEEN). Returns how many went.
 */
static __always_inline __u16 lean_judge(struct lean_task *lt, __u64 now)
{
	__u32 kind = lean_slow_kind(lt), zero = 0;
	__u64 took = now - lt->waking_ns, since;
	struct lean_slowness *s;
	int copied, waker;

	if (!lean_flight)
		return 0;
	s = bpf_map_lookup_elem(&lean_slowness, &zero);
	if (s)
		s->n[kind][wp_slow_bucket(took) & (WP_SLOW_BUCKETS - 1)]++;
	if (took < lean_flight_ns[kind])
		return 0;
	if (__sync_fetch_and_add(&lean_flight_left[kind], -1) <= 0)
		return 0;
	flight_enqueue_steal(lt);
	if (!lean_syscalls || !lt->notify_before)
		return flight_copy(lt->waking_ns);
	/* a workload's: from its notify on, on the waker's CPU, this one or another */
	since = lt->waking_ns - (lt->notify_before - 1) - LEAN_NOTIFY_BACK_NS;
	if (lt->waking_cpu == bpf_get_smp_processor_id()) {
		lt->flags |= WP_LEAN_NOTIFY_SEEN;
		return flight_copy(since);
	}
	waker = flight_copy_back(lt->waking_cpu, lt->waker_ring_head, since);
	if (waker & BACK_FLIGHT_ALL)
		lt->flags |= WP_LEAN_NOTIFY_SEEN;
	copied = flight_copy(lt->waking_ns) + (waker & ~BACK_FLIGHT_ALL);
	return copied < WP_LEAN_FLIGHT_MAX ? copied : WP_LEAN_FLIGHT_MAX;
}

/*
 * lean_judge_resume - a workload's held wakeup, its wait left at @exit_ns
 * on the CPU it was switched in on: when it was slow to be switched in, or
 * its resume alone took the threshold, that CPU's flight records from the
 * switch-in on come too (WP_LEAN_RESUME_SEEN), which say what held it
 * between: a preemption, an interrupt. (Only the slow switch-ins count
 * into the running p99's buckets.)
 */
static __always_inline void lean_judge_resume(struct lean_task *lt, __u64 exit_ns)
{
	__u32 kind = lean_slow_kind(lt), cpu = bpf_get_smp_processor_id();
	struct lean_flight *f;
	struct wp_steal s;
	int back;

	if (!lean_flight || cpu != lt->switch_in_cpu || !(f = lean_flight_ring()))
		return;
	if (!wp_lean_flight(lt->flags) && exit_ns - lt->switch_in_ns < lean_flight_ns[kind])
		return;
	/* the host's hold on this CPU since its last record, which no record of the resume may have read */
	if (steal_moved(exit_ns, &s))
		flight_next(f, WP_EV_STEAL, exit_ns)->steal = s;
	/* the switch-in's own record, and what the CPU was doing, came with a slow switch-in */
	if (!wp_lean_flight(lt->flags)) {
		flight_copy(lt->switch_in_ns);
		lt->flags |= WP_LEAN_RESUME_SEEN;
		return;
	}
	back = flight_copy_back(cpu, f->head, lt->switch_in_ns);
	if (back & BACK_FLIGHT_ALL)
		lt->flags |= WP_LEAN_RESUME_SEEN;
}

/* lean_emit_held - @p's held record: its wait ended at @exit_ns; 0: it did not (woken again, or gone) */

#endif /* WAKEPROBE_FLIGHT_BPF_H */
