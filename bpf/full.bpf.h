/* SPDX-License-Identifier: GPL-2.0 */
/*
 * full.bpf.h - the full engine (--engine full): a record for every event of
 * the tracked, which user space pairs into wakeups.
 *
 * Emits compact records for the scheduler and syscall events of the tracked
 * processes, plus the idle exits of CPUs that a tracked task is being woken
 * onto, and, on a CPU a tracked task is waiting for or notifying from,
 * everything else that runs there: other tasks, interrupts, idle. Everything
 * is filtered here so that untracked tasks pay a lookup or two and nothing
 * else.
 *
 * Attach mode (attach_mode, set by wakeprobe before load) traces a program
 * wakeprobe did not start, which takes no timestamps of its own, so the
 * kernel events must bound and explain each wakeup alone. On top of the
 * records above it emits:
 *
 * - WP_EV_WAKER right before every WAKING record, on the same CPU: who runs
 *   the waking. Each CPU keeps the interrupt context it is in (hard irq or
 *   APIC vector, softirq, expiring hrtimer; irq_context, maps.bpf.h) from
 *   the interrupt tracepoints, and the innermost open context is the waker:
 *   TIMER (with the hrtimer's function), IRQ or SOFTIRQ. Outside them the
 *   waker is current: a kernel thread, a thread of a tracked process inside
 *   a syscall (its number, first two arguments and entry time) or outside
 *   one, or another process.
 *   What this cannot see: interrupt work that has no tracepoint wakeprobe
 *   follows leaves the interrupted task as the apparent waker. That is x86's
 *   irq_work vector (its tracepoints exist but wp_irq_kind has no kind for
 *   it), posted interrupts and the other system vectors, and NMIs. Work the
 *   tick runs in its hrtimer (irq_work run from the tick, for one) shows as
 *   TIMER with the tick's function; timer_list timers run in the TIMER
 *   softirq and show as SOFTIRQ 1.
 * - WP_EV_BLOCK right before the SWITCH record that takes a tracked task off
 *   its CPU asleep: the syscall it sleeps in, from its entry.
 * - WP_EV_SYS_EXIT of every syscall in which a tracked task slept (a BLOCK
 *   since its entry), whatever its number: the wait's return.
 *
 * For that, every syscall entry of a tracked task stores its number,
 * arguments and time in the task's own storage (task_syscalls), and the
 * hrtimer_expire_entry/exit programs are loaded. In workload mode the
 * verifier prunes every attach-mode branch and those programs stay unloaded.
 * A task that entered its syscall before tracking began has no state yet:
 * a sleep in it shows as a BLOCK outside any syscall, with no SYS_EXIT.
 */
#ifndef WAKEPROBE_FULL_BPF_H
#define WAKEPROBE_FULL_BPF_H

#include "ring.bpf.h"
#include "fd_kind.bpf.h"

/*
 * emit_block - attach mode: tracked @prev leaves its CPU asleep; current is
 * still @prev. Its syscall state is not created here (it is made at a
 * syscall entry): a task without one made no syscall since it was tracked.
 * Without the syscall programs, the syscall is read from its registers.
 */
static __always_inline void emit_block(struct task_struct *prev)
{
	struct task_syscall from_regs, *ts = NULL;
	struct wp_event *e;

	if (syscall_phases) {
		ts = bpf_task_storage_get(&task_syscalls, prev, 0, 0);
		/* its syscall's exit, if it is in one, is now the end of a wait */
		if (ts)
			ts->slept = 1;
	} else if (syscall_from_regs(prev, &from_regs)) {
		ts = &from_regs;
	}
	e = event_reserve(WP_EV_BLOCK);
	if (!e)
		return;
	e->block.fd_kind = FD_KIND_UNKNOWN;
	if (ts && ts->nr >= 0) {
		e->block.nr = ts->nr;
		e->block.arg = ts->arg;
		e->block.arg2 = ts->arg2;
		e->block.since_ns = ts->since_ns;
		e->block.fd_kind = fd_kind_now(ts->nr, ts->arg);
	} else {
		e->block.nr = -1;
		e->block.arg = 0;
		e->block.arg2 = 0;
		e->block.since_ns = 0;
	}
	e->block.flags = syscall_phases ? 0 : WP_BLOCK_UNTIMED;
	__builtin_memset(e->block.__pad, 0, sizeof(e->block.__pad));
	event_submit(e);
}

/*
 * emit_waker - attach mode: who runs this waking of tracked @p. Inside
 * interrupt work, the innermost context, the one begun last (an hrtimer
 * expires inside its interrupt, a hard irq can come in on top of a
 * softirq); the interrupted task only happens to be there. Outside, current.
 */
static __always_inline void emit_waker(struct task_struct *p)
{
	struct cpu_state *cs = this_cpu_state();
	__u64 since = 0;
	struct task_struct *curr;
	struct task_syscall from_regs, *ts;
	struct wp_waker *w;
	struct wp_event *e;
	__u8 class = 0;
	int slot = 0;
	__s32 raised_vec;

	e = event_reserve(WP_EV_WAKER);
	if (!e)
		return;
	w = &e->waker;
	w->wakee_pid = task_tid(p);
	w->irq_kind = 0;
	w->flags = 0;
	w->nr = -1;
	w->waker_tgid = current_tgid();
	w->since_ns = 0;
	w->arg = 0;
	w->arg2 = 0;
	if (cs) {
		struct irq_context *ic = &cs->irq;

		/* the innermost (irq_context): what is hard, then a soft timer, then the softirq (untimed) */
		if (ic->soft_open)
			class = WP_WAKER_SOFTIRQ;
		if (ic->timer_since_ns[TIMER_SOFT]) {
			since = ic->timer_since_ns[TIMER_SOFT];
			class = WP_WAKER_TIMER;
			slot = TIMER_SOFT;
		}
		if (ic->hard_since_ns) {
			since = ic->hard_since_ns;
			class = WP_WAKER_IRQ;
		}
		if (ic->timer_since_ns[TIMER_HARD] && ic->timer_since_ns[TIMER_HARD] >= ic->hard_since_ns) {
			since = ic->timer_since_ns[TIMER_HARD];
			class = WP_WAKER_TIMER;
			slot = TIMER_HARD;
		}
		w->since_ns = since;
		switch (class) {
		case WP_WAKER_SOFTIRQ:
			w->irq_kind = WP_IRQ_SOFT;
			w->nr = ic->soft_vec;
			/* raised by current in its own context: named by its comm */
			if (softirq_raiser(cs, &raised_vec)) {
				w->flags |= WP_WAKER_RAISED;
				bpf_get_current_comm(w->comm, sizeof(w->comm));
			}
			break;
		case WP_WAKER_IRQ:
			w->irq_kind = ic->hard_kind;
			w->nr = ic->hard_nr;
			__builtin_memcpy(w->comm, ic->hard_name, sizeof(w->comm));
			break;
		case WP_WAKER_TIMER:
			w->irq_kind = ic->timer_irq_kind[slot];
			w->timer_fn = ic->timer_fn[slot];
			break;
		}
	}
	if (!class) {
		curr = bpf_get_current_task_btf();
		if (curr->flags & PF_KTHREAD) {
			class = WP_WAKER_KTHREAD;
		} else if (!tgid_tracked(w->waker_tgid)) {
			class = WP_WAKER_PROCESS;
		} else {
			if (syscall_phases) {
				ts = bpf_task_storage_get(&task_syscalls, curr, 0, 0);
			} else {
				ts = syscall_from_regs(curr, &from_regs) ? &from_regs : NULL;
				w->flags = WP_WAKER_UNTIMED;
			}
			class = ts && ts->nr >= 0 ? WP_WAKER_SYSCALL : WP_WAKER_TRACKED;
			if (class == WP_WAKER_SYSCALL) {
				w->nr = ts->nr;
				w->since_ns = ts->since_ns;
				w->arg = ts->arg;
				w->arg2 = ts->arg2;
				w->fd_kind = fd_kind_now(ts->nr, ts->arg);
			}
		}
		if (class != WP_WAKER_SYSCALL)
			bpf_get_current_comm(w->comm, sizeof(w->comm));
	}
	w->waker_class = class;
	event_submit(e);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned int prev_state = switch_prev_state(ctx, prev);
	struct cpu_state *cs = this_cpu_state();
	bool prev_tracked, blocked;
	struct wp_event *e;

	count_run();
	if (cs) {
		cs->curr_pid = task_tid(next);
		cs->curr_prio = next->prio;
		__builtin_memcpy(cs->curr_comm, next->comm, sizeof(cs->curr_comm));
		if (attach_mode)
			irq_context_end_stale(&cs->irq, next);
	}
	prev_tracked = task_tracked(prev);
	if (!prev_tracked && !task_tracked(next) && !watched(cs))
		return 0;
	if (cs) {
		/* a tracked task preempted here waits for this CPU: watch it */
		if (prev_tracked && !wp_switch_slept(prev_state, preempt))
			cs->runnable_tid = prev->pid;
		else if (cs->runnable_tid == next->pid)
			cs->runnable_tid = 0;
	}
	blocked = attach_mode && prev_tracked && wp_switch_slept(prev_state, preempt);
	if (blocked)
		emit_block(prev);
	e = blocked ? event_reserve_second(WP_EV_SWITCH) : event_reserve(WP_EV_SWITCH);
	if (e)
		switch_submit(e, prev, next, prev_state, preempt);
	return 0;
}

/*
 * emit_wake - the waking or wakeup of @p, a tracked task; @flags WP_WAKE_NEW
 * for a new task's wakeup, which is its wake decision too
 */
static __always_inline void emit_wake(__u32 type, struct task_struct *p, __u16 flags)
{
	struct cpu_state *cs;
	struct wp_event *e;
	bool decides;
	__u32 cpu;

	cpu = task_cpu(p);
	cs = cpu_state_of(cpu);
	decides = wp_wake_decides(type, flags);
	if (cs) {
		/* from the wake decision to its switch-in, the task waits for this CPU */
		cs->runnable_tid = p->pid;
		/* only the idle exit that follows a tracked wakeup is worth a record */
		if (decides && cs->idle_since_ns)
			cs->idle_exit_wanted = 1;
	}
	/* in attach mode a wake decision comes right after its WAKER */
	e = attach_mode && decides ? event_reserve_second(type) : event_reserve(type);
	if (!e)
		return;
	e->wake.pid = task_tid(p);
	e->wake.target_cpu = cpu;
	e->wake.target_idle_since_ns = cs ? cs->idle_since_ns : 0;
	/* another CPU's state, read without its lock: right but for a switch in flight */
	e->wake.target_curr_pid = cs ? cs->curr_pid : 0;
	e->wake.target_curr_prio = cs ? cs->curr_prio : 0;
	e->wake.flags = flags;
	if (cs)
		__builtin_memcpy(e->wake.target_curr_comm, cs->curr_comm, sizeof(e->wake.target_curr_comm));
	else
		e->wake.target_curr_comm[0] = 0;
	event_submit(e);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(handle_sched_waking, struct task_struct *p)
{
	count_run();
	if (!tgid_tracked(task_tgid(p)))
		return 0;
	/* the waker first: sched_waking runs on the waker's CPU, unlike sched_wakeup */
	if (attach_mode)
		emit_waker(p);
	emit_wake(WP_EV_WAKING, p, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(handle_sched_wakeup, struct task_struct *p)
{
	count_run();
	if (tgid_tracked(task_tgid(p)))
		emit_wake(WP_EV_WAKEUP, p, 0);
	return 0;
}

/*
 * A task's start is a wakeup of its own: its parent's clone() is the notify,
 * and its first return to user space, through the exit of that clone() in
 * the child, ends the "wait". This runs in the parent, inside its clone().
 */
SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(handle_sched_wakeup_new, struct task_struct *p)
{
	struct task_syscall *ts;

	count_run();
	if (!tgid_tracked(task_tgid(p)))
		return 0;
	if (attach_mode) {
		emit_waker(p);
		/* its first sys_exit must be recorded like a wait's: it has slept since its "entry" */
		ts = bpf_task_storage_get(&task_syscalls, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (ts) {
			ts->nr = -1;
			ts->slept = 1;
		}
	}
	emit_wake(WP_EV_WAKEUP, p, WP_WAKE_NEW);
	return 0;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(handle_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	struct cpu_state *cs = cpu_state_of(cpu_id);
	struct wp_event *e;

	count_run();
	if (!cs)
		return 0;
	if (state != PWR_EVENT_EXIT) {
		cs->idle_since_ns = bpf_ktime_get_ns();
		if (watched(cs) && (e = event_reserve(WP_EV_IDLE_ENTER))) {
			e->idle.idle_since_ns = cs->idle_since_ns;
			e->idle.state = state;
			event_submit(e);
		}
		return 0;
	}
	if (cs->idle_exit_wanted || watched(cs)) {
		cs->idle_exit_wanted = 0;
		e = event_reserve(WP_EV_IDLE_EXIT);
		if (e) {
			e->idle.idle_since_ns = cs->idle_since_ns;
			event_submit(e);
		}
	}
	cs->idle_since_ns = 0;
	return 0;
}

#endif /* WAKEPROBE_FULL_BPF_H */
