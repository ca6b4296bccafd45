/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring.bpf.h - records into the ring buffer: reserved with their header,
 * after a STEAL record when the CPU's steal clock moved, submitted without
 * waking the reader, a drop counted when it is full; and the fills of the
 * SWITCH and IRQ records, which both engines write, the flight recorder
 * into its own rings.
 */
#ifndef WAKEPROBE_RING_BPF_H
#define WAKEPROBE_RING_BPF_H

#include "tasks.bpf.h"
#include "cpu.bpf.h"

/*
 * count_drop - a record of @type did not fit in the ring: counted per type
 * and in drops_total. The next record that does get through carries the new
 * drops_total, which is how user space learns where in the stream the gap is.
 */
static __always_inline void count_drop(__u32 type)
{
	__sync_fetch_and_add(&drops_total, 1);
	if (type < WP_EV_TYPE_MAX)
		__sync_fetch_and_add(&counters.dropped[type], 1);
}

/* header_fill - @e is a record of @type, written now (@now) on this CPU by current */
static __always_inline void header_fill(struct wp_event *e, __u32 type, __u64 now)
{
	e->ts_ns = now;
	e->type = type;
	e->cpu = bpf_get_smp_processor_id();
	e->tid = current_tid();
}

/* ring_reserve - reserve a record and fill its common header; count_drop() when the ring is full */
static __always_inline struct wp_event *ring_reserve(__u32 type, __u64 now)
{
	struct wp_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(type);
		return NULL;
	}
	header_fill(e, type, now);
	e->drops = (__u32)drops_total;
	return e;
}

/*
 * steal_look - before a record of this CPU at @now: has its steal clock
 * moved since its previous record? Then a WP_EV_STEAL record goes first: the
 * host held the vCPU in the silence between the two. Every record is a
 * look, so a stolen stretch inside a wakeup is found at the next record of
 * the CPU that lost it; records lost to a full ring only widen the silence.
 * The look costs a few ns a record (bpf_rdonly_cast, maps.bpf.h).
 */
static __always_inline void steal_look(__u64 now)
{
	struct wp_steal s;
	struct wp_event *e;

	if (steal_moved(now, &s) && (e = ring_reserve(WP_EV_STEAL, now))) {
		e->steal = s;
		bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	}
}

/* event_reserve - ring_reserve(), after a look at this CPU's steal clock */
static __always_inline struct wp_event *event_reserve(__u32 type)
{
	__u64 now = bpf_ktime_get_ns();

	steal_look(now);
	return ring_reserve(type, now);
}

/*
 * event_reserve_second - the second record of a pair that one program
 * writes back to back, which must follow the first on its CPU with nothing
 * between (a WAKER and its WAKING, a BLOCK and its SWITCH): no look, so no
 * STEAL record, in between. What the host took in that instant is seen at
 * the CPU's next record.
 */
static __always_inline struct wp_event *event_reserve_second(__u32 type)
{
	return ring_reserve(type, bpf_ktime_get_ns());
}

/*
 * event_submit - commit a record without waking the reader. wakeprobe
 * shares the CPUs with the workload it measures; a wakeup per record would
 * put it on a CPU for every event. While one of its workloads runs, the
 * records wait in a ring sized to hold the run and are read once it is
 * done; in attach mode, and past the ring's mark, it drains the ring on a
 * 10 ms timer. The default ring holds over 100 ms of the densest stream
 * measured (a back-to-back flood, about a million records a second), so an
 * early wakeup would buy nothing; a reader that still falls behind shows
 * up as drops.
 */
static __always_inline void event_submit(struct wp_event *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* switch_fill - @e, a SWITCH record, holds the switch from @prev to @next */
static __always_inline void switch_fill(struct wp_event *e, struct task_struct *prev, struct task_struct *next,
					unsigned int prev_state, bool preempt)
{
	e->sw.prev_tid = task_tid(prev);
	e->sw.next_tid = task_tid(next);
	e->sw.prev_state = prev_state;
	e->sw.prev_prio = prev->prio;
	e->sw.next_prio = next->prio;
	e->sw.preempt = preempt;
	e->sw.next_tgid = task_tgid(next);
	__builtin_memcpy(e->sw.next_comm, next->comm, sizeof(e->sw.next_comm));
}

/* switch_submit - switch_fill(), and commit the record */
static __always_inline void switch_submit(struct wp_event *e, struct task_struct *prev, struct task_struct *next,
					  unsigned int prev_state, bool preempt)
{
	switch_fill(e, prev, next, prev_state, preempt);
	event_submit(e);
}

/* irq_fill - @e, an IRQ record, holds interrupt work of @kind; @name only for hard irqs */
static __always_inline void irq_fill(struct wp_event *e, __u32 kind, int nr, __u32 exit, const char *name)
{
	e->irq.kind = kind;
	e->irq.nr = nr;
	e->irq.exit = exit;
	e->irq.__pad = 0;
	e->irq.__pad2 = 0;
	e->irq.name[0] = 0;
	if (name)
		bpf_probe_read_kernel_str(e->irq.name, sizeof(e->irq.name), name);
}

#endif /* WAKEPROBE_RING_BPF_H */
