/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq.bpf.h - interrupt work: hard irqs, softirqs, the APIC timer and the
 * IPIs, hrtimer expiries. The programs are the full engine's (handle_*),
 * which the lean engine loads too for its flight recorder. On a watched
 * CPU they write IRQ records; in attach mode every CPU keeps the context
 * it is in (struct irq_context); with the flight recorder they go into
 * their CPU's flight ring instead.
 */
#ifndef WAKEPROBE_IRQ_BPF_H
#define WAKEPROBE_IRQ_BPF_H

#include "ring.bpf.h"
#include "flight.bpf.h"

/*
 * irq_context_note - attach mode: this CPU enters or leaves interrupt work.
 * Hard irqs and the APIC vectors do not nest in one another (they run with
 * interrupts off), so they share a slot; softirqs have theirs.
 */
static __always_inline void irq_context_note(struct irq_context *ic, __u32 kind, int nr, __u32 exit,
					     const char *name)
{
	if (kind == WP_IRQ_SOFT) {
		ic->soft_open = !exit;
		ic->soft_vec = nr;
		return;
	}
	if (exit) {
		ic->hard_since_ns = 0;
		return;
	}
	ic->hard_since_ns = bpf_ktime_get_ns();
	ic->hard_kind = kind;
	ic->hard_nr = nr;
	if (name)
		bpf_probe_read_kernel_str(ic->hard_name, sizeof(ic->hard_name), name);
	else
		ic->hard_name[0] = 0;
}

/* irq_context_kind - the innermost interrupt context, WP_IRQ_*, or 0 outside any */
static __always_inline __u8 irq_context_kind(const struct irq_context *ic)
{
	if (ic->hard_since_ns)
		return ic->hard_kind;
	return ic->soft_open ? WP_IRQ_SOFT : 0;
}

/*
 * emit_irq - interrupt work on a watched CPU; @name only for hard irqs. In
 * attach mode every CPU also keeps the context it is in. The lean engine's
 * flight recorder keeps it in its CPU's ring instead.
 */
static __always_inline void emit_irq(__u32 kind, int nr, __u32 exit, const char *name)
{
	struct cpu_state *cs = this_cpu_state();
	struct wp_event *e;

	if (lean_flight) {
		lean_flight_irq(cs, kind, nr, exit, name);
		return;
	}
	if (attach_mode && cs)
		irq_context_note(&cs->irq, kind, nr, exit, name);
	if (!watched(cs))
		return;
	e = event_reserve(WP_EV_IRQ);
	if (!e)
		return;
	irq_fill(e, kind, nr, exit, name);
	event_submit(e);
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(handle_irq_entry, int irq, struct irqaction *action)
{
	count_run();
	emit_irq(WP_IRQ_HARD, irq, 0, action->name);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(handle_irq_exit, int irq, struct irqaction *action, int ret)
{
	count_run();
	emit_irq(WP_IRQ_HARD, irq, 1, NULL);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(handle_softirq_entry, unsigned int vec)
{
	count_run();
	emit_irq(WP_IRQ_SOFT, vec, 0, NULL);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(handle_softirq_exit, unsigned int vec)
{
	count_run();
	emit_irq(WP_IRQ_SOFT, vec, 1, NULL);
	return 0;
}

/*
 * Attach mode: who raised this CPU's last softirq, for softirq_raiser(). A
 * raise in a task's own context (bh disabled, no softirq served) is the
 * task's; one in an interrupt or a softirq is nobody's. It runs at every
 * raise of the machine, so wakeprobe attaches it only once a softirq has
 * woken a traced thread (user/live/collector.c).
 */
SEC("tp_btf/softirq_raise")
int BPF_PROG(handle_softirq_raise, unsigned int vec)
{
	struct cpu_state *cs = this_cpu_state();
	__s32 count;

	count_run();
	if (!cs)
		return 0;
	cs->irq.raise_vec = vec;
	cs->irq.raise_tid = preempt_count_now(&count) && !(count & (PREEMPT_HARD_MASK | PREEMPT_SOFTIRQ_SERVING)) ?
			    (__u32)bpf_get_current_pid_tgid() : 0;
	return 0;
}

/*
 * x86's system vectors do not pass through irq_handler_entry: the APIC
 * timer, the reschedule IPI, and the function-call IPIs that carry a
 * queued remote wakeup (the wake list) have tracepoints of their own.
 */
SEC("tp_btf/local_timer_entry")
int BPF_PROG(handle_timer_entry, int vector)
{
	count_run();
	emit_irq(WP_IRQ_TIMER, vector, 0, NULL);
	return 0;
}

SEC("tp_btf/local_timer_exit")
int BPF_PROG(handle_timer_exit, int vector)
{
	count_run();
	emit_irq(WP_IRQ_TIMER, vector, 1, NULL);
	return 0;
}

SEC("tp_btf/reschedule_entry")
int BPF_PROG(handle_resched_entry, int vector)
{
	count_run();
	emit_irq(WP_IRQ_RESCHED, vector, 0, NULL);
	return 0;
}

SEC("tp_btf/reschedule_exit")
int BPF_PROG(handle_resched_exit, int vector)
{
	count_run();
	emit_irq(WP_IRQ_RESCHED, vector, 1, NULL);
	return 0;
}

SEC("tp_btf/call_function_single_entry")
int BPF_PROG(handle_call_func_single_entry, int vector)
{
	count_run();
	emit_irq(WP_IRQ_CALL_FUNC, vector, 0, NULL);
	return 0;
}

SEC("tp_btf/call_function_single_exit")
int BPF_PROG(handle_call_func_single_exit, int vector)
{
	count_run();
	emit_irq(WP_IRQ_CALL_FUNC, vector, 1, NULL);
	return 0;
}

SEC("tp_btf/call_function_entry")
int BPF_PROG(handle_call_func_entry, int vector)
{
	count_run();
	emit_irq(WP_IRQ_CALL_FUNC, vector, 0, NULL);
	return 0;
}

SEC("tp_btf/call_function_exit")
int BPF_PROG(handle_call_func_exit, int vector)
{
	count_run();
	emit_irq(WP_IRQ_CALL_FUNC, vector, 1, NULL);
	return 0;
}

/*
 * Attach mode only (wakeprobe loads these two then): an hrtimer's expiry,
 * in the hard interrupt that runs the expired timers or in the HRTIMER
 * softirq. A sleep or a timed wait ends in hrtimer_wakeup.
 */
SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(handle_hrtimer_expire_entry, struct hrtimer *hrtimer, ktime_t *now)
{
	struct cpu_state *cs = this_cpu_state();
	struct irq_context *ic;
	int slot;

	count_run();
	if (!cs)
		return 0;
	ic = &cs->irq;
	slot = hrtimer->is_soft ? TIMER_SOFT : TIMER_HARD;
	ic->timer_since_ns[slot] = bpf_ktime_get_ns();
	ic->timer_fn[slot] = (__u64)hrtimer->function;
	ic->timer[slot] = (__u64)hrtimer;
	ic->timer_irq_kind[slot] = irq_context_kind(ic);
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(handle_hrtimer_expire_exit, struct hrtimer *hrtimer)
{
	struct cpu_state *cs = this_cpu_state();
	__u64 timer = (__u64)hrtimer;

	count_run();
	/* compared, not read: the expiry may have ended the timer's life (a sleeper's is on its stack) */
	if (!cs)
		return 0;
	if (cs->irq.timer[TIMER_HARD] == timer)
		cs->irq.timer_since_ns[TIMER_HARD] = 0;
	else if (cs->irq.timer[TIMER_SOFT] == timer)
		cs->irq.timer_since_ns[TIMER_SOFT] = 0;
	return 0;
}

#endif /* WAKEPROBE_IRQ_BPF_H */
