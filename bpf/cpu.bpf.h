/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu.bpf.h - what each CPU knows of itself (struct cpu_state, maps.bpf.h):
 * whether it is watched, the host's steal clock, its preempt count, and
 * the interrupt context it is in.
 */
#ifndef WAKEPROBE_CPU_BPF_H
#define WAKEPROBE_CPU_BPF_H

#include "maps.bpf.h"

/* power:cpu_idle reports an exit as state PWR_EVENT_EXIT, i.e. (u32)-1 */
#define PWR_EVENT_EXIT ((__u32)-1)

static __always_inline struct cpu_state *cpu_state_of(__u32 cpu)
{
	return bpf_map_lookup_elem(&cpu_states, &cpu);
}

static __always_inline struct cpu_state *this_cpu_state(void)
{
	return cpu_state_of(bpf_get_smp_processor_id());
}

static __always_inline bool watched(const struct cpu_state *cs)
{
	return cs && (cs->runnable_tid || cs->notify_tid);
}

/* steal_check - find this CPU's rq, and check the distances from it against its number */
static __always_inline void steal_check(struct steal_clock *sc, __u32 cpu)
{
	struct task_struct *curr = bpf_get_current_task_btf();
	struct cfs_rq *cfs;
	__s32 number = -1;
	__u64 rq = 0;

	sc->state = STEAL_BAD;
	/* cfs_rq.rq exists with FAIR_GROUP_SCHED, which every distribution kernel has */
	if (!bpf_core_field_exists(struct cfs_rq, rq))
		return;
	cfs = BPF_CORE_READ(curr, se.cfs_rq);
	if (!cfs || bpf_core_read(&rq, sizeof(rq), &cfs->rq) || !rq)
		return;
	if (bpf_probe_read_kernel(&number, sizeof(number), (void *)(rq + cpu_number_offset)) || number != (__s32)cpu) {
		__sync_fetch_and_add(&counters.steal_bad_cpus, 1);
		return;
	}
	sc->rq = rq;
	sc->state = STEAL_GOOD;
}

/* cpu_rq - this CPU's struct rq, once its per-CPU distances checked out here (steal_check()); 0 if not */
static __always_inline __u64 cpu_rq(struct cpu_state *cs, __u32 cpu)
{
	if (cs->steal.state == STEAL_UNCHECKED)
		steal_check(&cs->steal, cpu);
	return cs->steal.state == STEAL_GOOD ? cs->steal.rq : 0;
}

/* include/linux/preempt.h: NMI_MASK | HARDIRQ_MASK, and SOFTIRQ_OFFSET while a softirq is served */
#define PREEMPT_HARD_MASK	0x00ff0000
#define PREEMPT_SOFTIRQ_SERVING	0x00000100

/* rq_at - the address @offset past this CPU's run queue (@cs its state); 0 when either is not known */
static __always_inline __u64 rq_at(struct cpu_state *cs, __u32 cpu, __u64 offset)
{
	__u64 rq;

	return offset && cs && (rq = cpu_rq(cs, cpu)) ? rq + offset : 0;
}

/*
 * preempt_count_now - this CPU's preempt count, found from its run queue as
 * the steal clock is: loaded inline where a cast can (v6.2+)
 */
static __always_inline bool preempt_count_now(__s32 *count)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 at = rq_at(cpu_state_of(cpu), cpu, preempt_count_offset);

	if (!at)
		return false;
	if (bpf_ksym_exists(bpf_rdonly_cast)) {
		*count = kernel_s32(at);
		return true;
	}
	return !bpf_probe_read_kernel(count, sizeof(*count), (void *)at);
}

/*
 * softirq_raiser - sched_waking runs in a softirq: the task that raised it
 * in its own context, current now, is the waker (a send on loopback runs
 * the receive in the sender's context), and its vector in @vec; 0 when an
 * interrupt or a softirq raised it, or another task (bcc's offwaketime
 * blames the task an interrupt came in on; this does not)
 */
static __always_inline __u32 softirq_raiser(struct cpu_state *cs, __s32 *vec)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!cs || !cs->irq.raise_tid || cs->irq.raise_tid != tid)
		return 0;
	*vec = cs->irq.raise_vec;
	return tid;
}

/* steal_read - this CPU's steal clock into @steal, from its state @cs: false when it cannot be read */
static __always_inline bool steal_read(struct cpu_state *cs, __u32 cpu, __u64 *steal)
{
	__u64 at = rq_at(cs, cpu, steal_offset);

	if (!at)
		return false;
	if (bpf_ksym_exists(bpf_rdonly_cast)) {
		*steal = kernel_u64(at);
		return true;
	}
	return !bpf_probe_read_kernel(steal, sizeof(*steal), (void *)at);
}

/*
 * steal_moved - this CPU's steal clock at @now, against its previous record:
 * true, with @s filled, when it moved since then. Either way @now is the
 * CPU's last record from here on.
 */
static __always_inline bool steal_moved(__u64 now, struct wp_steal *s)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_state *cs = cpu_state_of(cpu);
	struct steal_clock *sc;
	bool moved;
	__u64 steal;

	if (!steal_read(cs, cpu, &steal))
		return false;
	sc = &cs->steal;
	moved = steal != sc->steal_ns && sc->seen_ns;
	if (moved) {
		s->steal_ns = steal;
		s->delta_ns = steal - sc->steal_ns;
		s->since_ns = sc->seen_ns;
		s->__pad[0] = 0;
		s->__pad[1] = 0;
	}
	sc->steal_ns = steal;
	sc->seen_ns = now;
	return moved;
}

/*
 * PREEMPT_RT runs softirqs in preemptible threads; it is the one config
 * with task_struct.softirq_disable_cnt ("softirq: Make softirq control and
 * processing RT aware", v5.12).
 */
struct task_struct___rt {
	int softirq_disable_cnt;
} __attribute__((preserve_access_index));

/*
 * irq_context_end_stale - attach mode, at a task switch: no hard interrupt
 * can be open across one, nor a softirq but on PREEMPT_RT, so a context
 * still marked open here lost its exit (the programs were attached between
 * an entry and its exit, or a run was skipped). Forget it, or it would
 * take the blame for wakeups until the next interrupt of its kind.
 */
static __always_inline void irq_context_end_stale(struct irq_context *ic, struct task_struct *next)
{
	struct task_struct___rt *rt = (void *)next;

	if (ic->hard_since_ns || ic->timer_since_ns[TIMER_HARD]) {
		ic->hard_since_ns = 0;
		ic->timer_since_ns[TIMER_HARD] = 0;
	}
	if (bpf_core_field_exists(rt->softirq_disable_cnt))
		return;
	if (ic->soft_open || ic->timer_since_ns[TIMER_SOFT]) {
		ic->soft_open = 0;
		ic->timer_since_ns[TIMER_SOFT] = 0;
	}
}

#endif /* WAKEPROBE_CPU_BPF_H */
