/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lean.bpf.h - the lean engine, wakeprobe's default.
 *
 * The lean engine (--engine lean): the four scheduler tracepoints a wakeup's
 * kernel phases need, and the fork tracker, load, and in a workload two
 * programs on syscalls. The stamps of one wakeup are paired here, in the
 * wakee's own storage, and leave as one WP_EV_LEAN record when it is
 * switched in; in a workload, whose notify and resume split at the
 * syscalls, when the wakee leaves the syscall it slept in (the record held
 * in its storage until then, LEAN_RESUMED). Only the slow ones bring
 * evidence (the flight recorder, flight.bpf.h).
 *
 * A wake that finds its task not asleep writes nothing; lean_counters
 * counts it. A tracked task that loses its CPU runnable gets its SWITCH
 * record, as in the full engine. Whether the task sleeps is known from its
 * own switches: the wakeup of a task last switched out to sleep will
 * switch it in, any other (on its CPU, or preempted with its sleeping
 * state set) will not. In attach mode the names of the tasks come along
 * (WP_LEAN_NAME), and each wake says whether an interrupt made it. A task
 * woken inside __schedule(), dequeued but not yet switched out, has its
 * sched_waking before that switch-out and its sched_wakeup after it (the
 * waker waits for it to leave its CPU, or queues the wake on that CPU), so
 * the decision is taken at sched_wakeup.
 */
#ifndef WAKEPROBE_LEAN_BPF_H
#define WAKEPROBE_LEAN_BPF_H

#include "lean_task.bpf.h"
#include "chain.bpf.h"
#include "flight.bpf.h"
#include "futex.bpf.h"
#include "fd_kind.bpf.h"
#include "unwind.bpf.h"
#include "sums.bpf.h"

/* lean_name - attach mode: a WP_LEAN_NAME record for @p, named @comm; @tracked: WP_LEAN_TRACKED (and ENDED) or 0 */
static __always_inline void lean_name(struct task_struct *p, const char *comm, __u16 tracked)
{
	struct wp_event *e = ring_reserve(WP_EV_LEAN, bpf_ktime_get_ns());

	if (!e)
		return;
	__builtin_memcpy(e->lean.comm, comm, sizeof(e->lean.comm));
	e->lean.tgid = task_tgid(p);
	e->lean.__pad = 0;
	e->lean.pid = task_tid(p);
	e->lean.waker_tid = 0;
	e->lean.waking_cpu = 0;
	e->lean.wakeup_cpu = 0;
	e->lean.target_cpu = 0;
	e->lean.flags = WP_LEAN_NAME | tracked | ((p->flags & PF_KTHREAD) ? WP_LEAN_KTHREAD : 0);
	event_submit(e);
}

/*
 * lean_name_if_new - attach mode, at @p's switch-in: its name, when it is
 * not the one last written (a thread names itself after it starts)
 */
static __always_inline void lean_name_if_new(struct task_struct *p, struct lean_task *lt)
{
	__u64 comm[WP_TASK_COMM_LEN / 8];

	if (!attach_mode)
		return;
	__builtin_memcpy(comm, p->comm, sizeof(comm));
	if (comm[0] == lt->comm[0] && comm[1] == lt->comm[1])
		return;
	lt->comm[0] = comm[0];
	lt->comm[1] = comm[1];
	lean_name(p, (const char *)comm, WP_LEAN_TRACKED);
}

/*
 * lean_name_waker - attach mode: @curr, a task of no tracked process, woke
 * a tracked one. A task of a tracked process is named at its own
 * switch-ins; any other gets a name record when it is not the last one
 * this CPU named.
 */
static __always_inline void lean_name_waker(struct task_struct *curr)
{
	struct cpu_state *cs = this_cpu_state();
	char comm[WP_TASK_COMM_LEN];

	if (!cs || cs->lean_named_pid == (__u32)curr->pid)
		return;
	cs->lean_named_pid = curr->pid;
	__builtin_memcpy(comm, curr->comm, sizeof(comm));
	lean_name(curr, comm, 0);
}

/*
 * lean_waker_context - WP_LEAN_WAKER_* for the context sched_waking runs
 * in now: a hard interrupt (a timer's expiry too) or a softirq, whose
 * current is only the task it came in on, or a task; read from this CPU's
 * preempt count, found from its run queue as the steal clock is.
 */
static __always_inline __u16 lean_waker_context(void)
{
	__s32 count;

	if (!preempt_count_now(&count))
		return WP_LEAN_WAKER_UNSURE;
	if (count & PREEMPT_HARD_MASK)
		return WP_LEAN_WAKER_IRQ;
	if (count & PREEMPT_SOFTIRQ_SERVING)
		return WP_LEAN_WAKER_SOFTIRQ;
	return 0;
}

/* lean_nr - a syscall number as a wp_lean_names keeps it: one past 16 bits is out of any table, and stays so */
static __always_inline __s16 lean_nr(long nr)
{
	return nr < 0x7fff ? (__s16)nr : 0x7fff;
}

/*
 * lean_waker - attach mode: who runs this waking, into @n, and a name
 * record for a waker of no tracked process. @context is
 * lean_waker_context()'s: interrupt work is the waker, not the task it came
 * in on. A thread of a tracked process is in a syscall when its registers
 * say so (syscall_from_regs()): the one it wakes from.
 */
static __always_inline void lean_waker(struct wp_lean_names *n, __u16 context)
{
	struct task_struct *curr = bpf_get_current_task_btf();
	struct task_syscall sc;
	__s32 vec;

	n->waker_nr = -1;
	n->waker_fd_kind = FD_KIND_UNKNOWN;
	n->waker_arg = 0;
	n->waker_arg2 = 0;
	n->seen &= ~WP_SEEN_RAISED;
	if (context & WP_LEAN_WAKER_IRQ) {
		n->waker_class = WP_WAKER_IRQ;
	} else if (context & WP_LEAN_WAKER_SOFTIRQ) {
		n->waker_class = WP_WAKER_SOFTIRQ;
		/* raised by current in its own context: it is named, as any waker of no tracked process */
		if (softirq_raiser(this_cpu_state(), &vec)) {
			n->seen |= WP_SEEN_RAISED;
			n->waker_nr = vec;
			if (!task_traced(curr))
				lean_name_waker(curr);
		}
	} else if (context & WP_LEAN_WAKER_UNSURE) {
		n->waker_class = 0;
	} else if (!task_traced(curr)) {
		n->waker_class = curr->flags & PF_KTHREAD ? WP_WAKER_KTHREAD : WP_WAKER_PROCESS;
		lean_name_waker(curr);
	} else if (syscall_from_regs(curr, &sc)) {
		n->waker_class = WP_WAKER_SYSCALL;
		n->waker_nr = lean_nr(sc.nr);
		n->waker_fd_kind = fd_kind_now(sc.nr, sc.arg);
		n->waker_arg = sc.arg;
		n->waker_arg2 = sc.arg2;
		lean_futex_key(sc.nr, sc.arg, sc.arg2);
	} else {
		n->waker_class = WP_WAKER_TRACKED;
	}
}

/* lean_wait - attach mode: @prev, tracked, leaves its CPU asleep: in which syscall, into @n */
static __always_inline void lean_wait(struct task_struct *prev, struct wp_lean_names *n)
{
	struct task_syscall sc;

	n->seen |= WP_SEEN_WAIT;
	if (syscall_from_regs(prev, &sc)) {
		n->wait_nr = lean_nr(sc.nr);
		n->wait_fd_kind = fd_kind_now(sc.nr, sc.arg);
		n->wait_arg = sc.arg;
		n->wait_arg2 = sc.arg2;
		lean_futex_key(sc.nr, sc.arg, sc.arg2);
	} else {
		n->wait_nr = -1;
		n->wait_fd_kind = FD_KIND_UNKNOWN;
		n->wait_arg = 0;
		n->wait_arg2 = 0;
	}
}

/*
 * lean_stacks_of_waker - --stacks: current's stacks at its waking of a
 * tracked task (@context, lean_waker_context()'s), into @st. In interrupt
 * work, or where the context could not be read, the user stack is that of
 * the task it came in on, no waker's: not taken.
 */
static __always_inline void lean_stacks_of_waker(void *ctx, struct wp_lean_stacks *st, __u16 context)
{
	__u64 t0 = bpf_ktime_get_ns();

	st->waker_kernel = stack_kept(bpf_get_stackid(ctx, &stacks, 0));
	st->waker_user = WP_STACK_NONE;
	if (!(context & (WP_LEAN_WAKER_IRQ | WP_LEAN_WAKER_SOFTIRQ | WP_LEAN_WAKER_UNSURE))) {
		st->waker_user = stack_kept(bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK));
		__sync_fetch_and_add(&stack_cost.taken, 1);
	}
	st->waker_tgid = current_tgid();
	__sync_fetch_and_add(&stack_cost.taken, 1);
	__sync_fetch_and_add(&stack_cost.ns, bpf_ktime_get_ns() - t0);
}

/* lean_stacks_of_wait - --stacks: current, tracked, leaves its CPU asleep: its stacks, into @st */
static __always_inline void lean_stacks_of_wait(void *ctx, struct wp_lean_stacks *st)
{
	__u64 t0 = bpf_ktime_get_ns();

	st->wait_kernel = stack_kept(bpf_get_stackid(ctx, &stacks, 0));
	st->wait_user = stack_kept(bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK));
	st->wakee_tgid = current_tgid();
	__sync_fetch_and_add(&stack_cost.taken, 2);
	__sync_fetch_and_add(&stack_cost.ns, bpf_ktime_get_ns() - t0);
}

/*
 * lean_waker_cgroup - want_cgroups: the cgroup of the waker of @lt's
 * waking, now: current's, unless interrupt work woke it on the task it
 * came in on (a softirq that task raised in its own context is its own)
 */
static __always_inline __u64 lean_waker_cgroup(const struct lean_task *lt)
{
	if (lt->flags & (WP_LEAN_WAKER_IRQ | WP_LEAN_WAKER_UNSURE))
		return 0;
	if ((lt->flags & WP_LEAN_WAKER_SOFTIRQ) && !(lt->names.seen & WP_SEEN_RAISED))
		return 0;
	return task_cgroup_id(bpf_get_current_task_btf());
}

/*
 * lean_notify_before - a workload: the span from the entry of the syscall
 * current is in to @now, its waking of a tracked task (wp_lean.notify_before);
 * 0 when it is in none, or when an interrupt wakes (@context,
 * lean_waker_context()'s; one it could not read is taken for a thread's)
 */
static __always_inline __u32 lean_notify_before(__u16 context, __u64 now)
{
	struct lean_task *w;

	if (context & (WP_LEAN_WAKER_IRQ | WP_LEAN_WAKER_SOFTIRQ))
		return 0;
	w = bpf_task_storage_get(&lean_tasks, bpf_get_current_task_btf(), 0, 0);
	return w && w->sys_ns && now > w->sys_ns ? wp_lean_span(now - w->sys_ns) : 0;
}

/*
 * lean_idle_exit - attach mode: when the CPU @lt's task last ran on left the
 * idle it was in at the waking, as wp_lean_names.idle_exit says it. The CPU
 * keeps its last exit alone: one out of a later idle is not this one.
 */
static __always_inline __u32 lean_idle_exit(const struct lean_task *lt)
{
	struct cpu_state *cs;
	__u64 after;

	if (!lt->idle_since_ns)
		return 0;
	cs = cpu_state_of(lt->last_cpu);
	if (!cs || cs->lean_idle_exit_since_ns != lt->idle_since_ns || cs->lean_idle_exit_ns < lt->waking_ns)
		return WP_IDLE_EXIT_UNSEEN;
	after = cs->lean_idle_exit_ns - lt->waking_ns;
	return after < WP_IDLE_EXIT_UNSEEN - 1 ? (__u32)after + 1 : WP_IDLE_EXIT_UNSEEN - 1;
}

/*
 * lean_write - the record of @p's wakeup in @lt, switched in at @ts_ns on
 * @cpu (or, WP_LEAN_NO_SWITCH_IN, leaving it then), its flags @flags; its
 * wait ended @exit_after after that (wp_lean_span(), 0: not seen)
 */
static __always_inline void lean_write(struct task_struct *p, struct lean_task *lt, __u64 ts_ns, __u32 cpu,
				       __u16 flags, __u32 exit_after)
{
	struct wp_event *head, *e;
	__u16 copied = 0;

	/* the copies of its user stacks go first, when they go (unwind.bpf.h) */
	if (want_unwind)
		copied = unwind_send(p, lean_flight && ts_ns - lt->waking_ns >= lean_flight_ns[lean_slow_kind(lt)],
				     bpf_ktime_get_ns());
	/* a service's: summed here unless the flight recorder brings its evidence */
	if (want_sums && attach_mode && !wp_lean_flight(flags) &&
	    sums_add(p, lt, ts_ns, flags, lean_idle_exit(lt)))
		return;
	if (attach_mode) {
		/*
		 * its names first, in the same ring record, then with --stacks its
		 * stacks, with want_cgroups its cgroups and with want_chains its
		 * chain's links: two records to WP_RECORD_PARTS, one reservation
		 */
		__u32 parts = 2 + want_stacks + want_cgroups + (want_chains ? WP_CHAIN_LINKS : 0);

		head = bpf_ringbuf_reserve(&events, parts * sizeof(*e), 0);
		if (!head) {
			count_drop(WP_EV_LEAN);
			count_drop(WP_EV_LEAN);
			if (want_stacks)
				count_drop(WP_EV_LEAN);
			if (want_cgroups)
				count_drop(WP_EV_LEAN);
			if (want_chains)
				for (int i = 0; i < WP_CHAIN_LINKS; i++)
					count_drop(WP_EV_LEAN);
			return;
		}
		header_fill(head, WP_EV_LEAN, ts_ns);
		head->drops = (__u32)drops_total;
		head->lean_names = lt->names;
		head->lean_names.idle_exit = lean_idle_exit(lt);
		if (lean_flight)
			head->lean_names.seen |= WP_SEEN_IDLE;
		head->lean_names.flags = WP_LEAN_NAMES;
		e = head + 1;
		if (want_stacks) {
			*e = *head;	/* the header */
			e->lean_stacks = lt->stacks;
			e->lean_stacks.wakee_tid = task_tid(p);
			e->lean_stacks.copied = copied;
			e->lean_stacks.flags = WP_LEAN_NAMES | WP_LEAN_STACKS;
			e++;
		}
		if (want_cgroups) {
			*e = *head;	/* the header */
			e->lean_cgroups.wakee = task_cgroup_id(p);
			e->lean_cgroups.waker = lt->waker_cgroup;
			e->lean_cgroups.holder = lt->holder_cgroup;
			e->lean_cgroups.holder_tid = lt->holder_tid;
			e->lean_cgroups.__pad[0] = 0;
			e->lean_cgroups.__pad[1] = 0;
			e->lean_cgroups.__pad1 = 0;
			e->lean_cgroups.flags = WP_LEAN_NAMES | WP_LEAN_CGROUPS;
			e++;
		}
		if (want_chains) {
			struct wp_lean_link *l = lt->links[lt->chain_cur & 1];

			for (int i = 0; i < WP_CHAIN_LINKS; i++) {
				*e = *head;	/* the header */
				e->lean_link = l[i];
				e->lean_link.flags = WP_LEAN_NAMES | WP_LEAN_LINK;
				e++;
			}
		}
		*e = *head;	/* the header */
	} else if (want_stacks) {
		/* a workload's, with --stacks: its stacks first, in the same ring record */
		head = bpf_ringbuf_reserve(&events, 2 * sizeof(*e), 0);
		if (!head) {
			count_drop(WP_EV_LEAN);
			count_drop(WP_EV_LEAN);
			return;
		}
		header_fill(head, WP_EV_LEAN, ts_ns);
		head->drops = (__u32)drops_total;
		head->cpu = cpu;	/* a held record's is its switch-in's */
		head->lean_stacks = lt->stacks;
		head->lean_stacks.wakee_tid = task_tid(p);
		head->lean_stacks.copied = copied;
		head->lean_stacks.flags = WP_LEAN_NAMES | WP_LEAN_STACKS;
		e = head + 1;
		*e = *head;	/* the header */
	} else {
		/*
		 * One pointer to submit, held apart from the one written:
		 * computed as "e - attach_mode", the verifiers before 6.18's
		 * refuse the arithmetic on a ring buffer pointer.
		 */
		head = e = ring_reserve(WP_EV_LEAN, ts_ns);
		if (!e)
			return;
		e->cpu = cpu;	/* a held record's is its switch-in's */
	}
	e->lean.waking_ns = lt->waking_ns;
	e->lean.wakeup_ns = lt->wakeup_ns;
	e->lean.notify_before = lt->notify_before;
	e->lean.exit_after = exit_after;
	e->lean.pid = task_tid(p);
	e->lean.waker_tid = lt->waker_tid;
	e->lean.waking_cpu = lt->waking_cpu;
	e->lean.wakeup_cpu = lt->wakeup_cpu;
	e->lean.target_cpu = lt->target_cpu;
	e->lean.flags = flags;
	event_submit(head);
}

/*
 * lean_emit - the record of @p's wakeup in @lt, ended at @now, this
 * instant (flags added: @more, WP_LEAN_NO_SWITCH_IN or 0)
 */
static __always_inline void lean_emit(struct task_struct *p, struct lean_task *lt, __u16 more, __u64 now)
{
	__u16 flight = 0;

	lt->pending = LEAN_NONE;
	lean_watch(lt, LEAN_UNWATCHED);
	if (!more)
		flight = lean_judge(lt, now);
	lean_write(p, lt, now, bpf_get_smp_processor_id(), lt->flags | more | (flight << WP_LEAN_FLIGHT_SHIFT), 0);
}

/*
 * lean_hold - a workload's @lt, asleep in a syscall (a new thread: in its
 * clone), is switched in now: judged now, as any other, and its record
 * held until it leaves the syscall (lean_emit_held())
 */
static __always_inline void lean_hold(struct lean_task *lt)
{
	__u64 now = bpf_ktime_get_ns();
	__u16 flight;

	lt->pending = LEAN_RESUMED;
	lean_watch(lt, LEAN_UNWATCHED);
	flight = lean_judge(lt, now);	/* which may add to lt->flags */
	lt->flags |= flight << WP_LEAN_FLIGHT_SHIFT;
	lt->switch_in_ns = now;
	lt->switch_in_cpu = bpf_get_smp_processor_id();
}

static __always_inline void lean_emit_held(struct task_struct *p, struct lean_task *lt, __u64 exit_ns)
{
	lt->pending = LEAN_NONE;
	if (exit_ns)
		lean_judge_resume(lt, exit_ns);
	lean_write(p, lt, lt->switch_in_ns, lt->switch_in_cpu, lt->flags,
		   exit_ns ? wp_lean_span(exit_ns - lt->switch_in_ns) : 0);
}

/*
 * lean_emit_preempted - tracked @prev lost its CPU runnable: a SWITCH record,
 * rare on a path that blocks, and all a spinning waiter's wakeup has to say
 * it was not spent spinning
 */
static __always_inline void lean_emit_preempted(struct task_struct *prev, struct task_struct *next,
						unsigned int prev_state, bool preempt)
{
	struct wp_event *e = ring_reserve(WP_EV_SWITCH, bpf_ktime_get_ns());

	if (e)
		switch_submit(e, prev, next, prev_state, preempt);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(lean_sched_waking, struct task_struct *p)
{
	struct lean_task *lt = lean_task_of(p);
	struct lean_flight *f;
	struct cpu_state *cs;
	__u32 last_cpu;

	count_run();
	if (!lt)
		return 0;
	/* a workload's wakee woken again before it left its syscall: its last wakeup ends without that */
	if (lean_syscalls && lt->pending == LEAN_RESUMED)
		lean_emit_held(p, lt, 0);
	lt->waking_ns = bpf_ktime_get_ns();
	lt->waker_tid = current_tid();
	lt->waking_cpu = bpf_get_smp_processor_id();
	lt->pending = LEAN_WOKEN;
	last_cpu = task_cpu(p);
	lean_watch(lt, last_cpu);
	lt->flags = 0;
	lt->waking_steal_ns = 0;
	lt->enqueue_steal = 0;
	if (lean_flight)
		steal_read(cpu_state_of(lt->waking_cpu), lt->waking_cpu, &lt->waking_steal_ns);
	/* the waker's context: attach mode names the waker by it, the flight recorder sorts by it */
	if (attach_mode || lean_flight || lean_syscalls)
		lt->flags = lean_waker_context();
	lt->notify_before = lean_syscalls ? lean_notify_before(lt->flags, lt->waking_ns) : 0;
	/* where the waker's CPU's flight records stood: those before it are its notify's */
	if (lean_syscalls && lean_flight && (f = lean_flight_ring()))
		lt->waker_ring_head = f->head;
	if (attach_mode)
		lean_waker(&lt->names, lt->flags);
	if (want_chains)
		chain_take(p, lt, lt->waking_ns, false);
	if (want_cgroups)
		lt->waker_cgroup = lean_waker_cgroup(lt);
	if (want_stacks)
		lean_stacks_of_waker(ctx, &lt->stacks, lt->flags);
	if (want_unwind)
		unwind_take_waker(p, !(lt->flags & (WP_LEAN_WAKER_IRQ | WP_LEAN_WAKER_SOFTIRQ | WP_LEAN_WAKER_UNSURE)));
	/* the idle the CPU it last ran on is in, whose exit it may wait for */
	lt->idle_since_ns = 0;
	lt->last_cpu = last_cpu;
	if (attach_mode && lean_flight && (cs = cpu_state_of(last_cpu)))
		lt->idle_since_ns = cs->idle_since_ns;
	return 0;
}

/*
 * lean_enqueue_steal - @lt's wakeup is enqueued now: when its waker did it
 * on its own CPU, what that CPU's steal clock moved since the waking. In
 * try_to_wake_up() both run with interrupts off, so nothing else ran on the
 * CPU between them: that span was the wake's own work, or the host's.
 */
static __always_inline void lean_enqueue_steal(struct lean_task *lt)
{
	__u64 steal;

	if (lt->waking_steal_ns && lt->wakeup_cpu == lt->waking_cpu &&
	    steal_read(cpu_state_of(lt->wakeup_cpu), lt->wakeup_cpu, &steal) && steal >= lt->waking_steal_ns)
		lt->enqueue_steal = wp_lean_span(steal - lt->waking_steal_ns);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(lean_sched_wakeup, struct task_struct *p)
{
	struct lean_task *lt = bpf_task_storage_get(&lean_tasks, p, 0, 0);

	count_run();
	/* a task --cgroup traced once, since moved out: its waking was not traced, and it is none of ours */
	if (lt && lt->cgroup_out)
		return 0;
	if (!lt) {
		/*
		 * a tracked task whose waking went untraced before any event made
		 * its state: counted unpaired, not lost (a witness counts it), and
		 * no state is made for it here, under the run queue's lock
		 */
		if (p->pid && task_traced(p))
			__sync_fetch_and_add(&lean_counters.wakeup_unpaired, 1);
		return 0;
	}
	if (lt->pending != LEAN_WOKEN) {
		__sync_fetch_and_add(&lean_counters.wakeup_unpaired, 1);
		return 0;
	}
	/* a task not seen to switch yet is asleep when it is off its CPU */
	if (lt->state == LEAN_ASLEEP || (lt->state == LEAN_UNKNOWN && !p->on_cpu)) {
		lt->wakeup_ns = bpf_ktime_get_ns();
		lt->wakeup_cpu = bpf_get_smp_processor_id();
		lt->target_cpu = task_cpu(p);
		lean_enqueue_steal(lt);
		/* the wake chose another CPU than the one it last ran on: a migration */
		if (lt->target_cpu != lt->last_cpu)
			lt->flags |= WP_LEAN_MOVED;
		if (lt->state == LEAN_UNKNOWN)
			lt->flags |= WP_LEAN_STATE_UNKNOWN;
		lt->pending = LEAN_QUEUED;
		lean_watch(lt, lt->target_cpu);
	} else {
		lt->pending = LEAN_NONE;
		lean_watch(lt, LEAN_UNWATCHED);
		__sync_fetch_and_add(&lean_counters.woke_running, 1);
	}
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(lean_sched_wakeup_new, struct task_struct *p)
{
	struct lean_task *lt = lean_task_of(p);
	__u64 now;

	count_run();
	if (!lt)
		return 0;
	now = bpf_ktime_get_ns();
	lt->waking_ns = now;
	lt->wakeup_ns = now;
	/* its maker, in clone() */
	lt->notify_before = lean_syscalls ? lean_notify_before(0, now) : 0;
	lt->waker_tid = current_tid();
	lt->waking_cpu = bpf_get_smp_processor_id();
	lt->wakeup_cpu = lt->waking_cpu;
	lt->target_cpu = task_cpu(p);
	lt->flags = WP_LEAN_NEW;
	lt->idle_since_ns = 0;
	/* its parent, in clone(): no wait of its own */
	if (attach_mode) {
		lean_waker(&lt->names, 0);
		lt->names.seen &= ~WP_SEEN_WAIT;
	}
	if (want_chains)
		chain_take(p, lt, now, true);
	if (want_cgroups)
		lt->waker_cgroup = task_cgroup_id(bpf_get_current_task_btf());
	if (want_stacks) {
		lean_stacks_of_waker(ctx, &lt->stacks, 0);
		lt->stacks.wait_kernel = WP_STACK_NONE;
		lt->stacks.wait_user = WP_STACK_NONE;
	}
	if (want_unwind)
		unwind_take_waker(p, true);
	lt->state = LEAN_ASLEEP;
	lt->pending = LEAN_QUEUED;
	lean_watch(lt, lt->target_cpu);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(lean_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned int prev_state = switch_prev_state(ctx, prev);
	/* one clock read for the switch: its flight record, and both tasks' */
	__u64 now = lean_flight || want_chains ? bpf_ktime_get_ns() : 0;
	struct lean_flight *f;
	struct lean_task *lt;

	count_run();
	if (lean_flight && (f = lean_flight_ring())) {
		struct wp_event *e = flight_slot_at(f, WP_EV_SWITCH, now);

		switch_fill(e, prev, next, prev_state, preempt);
		f->sw[f->sw_head++ & (LEAN_FLIGHT_SWITCHES - 1)] = *e;
	}
	lt = lean_task_of(prev);
	if (lt) {
		/* woken while asleep, and leaving a CPU it was never seen to get */
		if (lt->pending == LEAN_QUEUED) {
			if (want_chains)
				chain_ran(lt, 0, NULL);
			lean_emit(prev, lt, WP_LEAN_NO_SWITCH_IN, now ?: bpf_ktime_get_ns());
		}
		if (prev_state & WP_TASK_DEAD) {
			if (want_unwind)
				unwind_forget(task_tid(prev));
			/* a workload's thread that ends in its wait's syscall: it never leaves it */
			if (lean_syscalls && lt->pending == LEAN_RESUMED)
				lean_emit_held(prev, lt, 0);
			/* its last switch-out: attach mode counts the threads that end */
			if (attach_mode) {
				char comm[WP_TASK_COMM_LEN];

				__builtin_memcpy(comm, prev->comm, sizeof(comm));
				lean_name(prev, comm, WP_LEAN_TRACKED | WP_LEAN_ENDED);
			}
		}
		if (want_chains)
			chain_switched_out(lt, now, wp_switch_slept(prev_state, preempt));
		if (wp_switch_slept(prev_state, preempt)) {
			lt->state = LEAN_ASLEEP;
			if (attach_mode)
				lean_wait(prev, &lt->names);
			if (want_stacks)
				lean_stacks_of_wait(ctx, &lt->stacks);
			if (want_unwind)
				unwind_take_wait();
		} else {
			lt->state = LEAN_PREEMPTED;
			if (!lean_beside_full)
				lean_emit_preempted(prev, next, prev_state, preempt);
		}
	}
	lt = lean_task_of(next);
	if (lt) {
		lean_name_if_new(next, lt);
		if (want_chains) {
			chain_switched_in(lt, now);
			if (lt->pending == LEAN_QUEUED) {
				chain_ran(lt, now, prev);
				/* the task it took the CPU from is named, as a waker of no tracked process is */
				if (prev->pid && !task_traced(prev))
					lean_name_waker(prev);
			}
		}
		if (lt->pending == LEAN_QUEUED) {
			/* what held the CPU until now: the task leaving it, or the idle task */
			if (want_cgroups) {
				lt->holder_tid = prev->pid;
				lt->holder_cgroup = prev->pid ? task_cgroup_id(prev) : 0;
			}
			/* a workload's wait ends when it leaves the syscall it slept in */
			if (lean_syscalls && (lt->sys_ns || (lt->flags & WP_LEAN_NEW)))
				lean_hold(lt);
			else
				lean_emit(next, lt, 0, now ?: bpf_ktime_get_ns());
		}
		lt->state = LEAN_RUNNING;
	}
	return 0;
}

/*
 * A workload's syscalls (lean_syscalls): the entry of each, which a wake
 * from it takes as its notify's, and the exit that ends a held wakeup.
 * Every syscall of the machine runs them; a task with no lean storage is
 * none of a tracked process's (lean_task_of() makes it for those alone),
 * and the one lookup that says so is all such a syscall pays.
 */
SEC("tp_btf/sys_enter")
int BPF_PROG(lean_sys_enter, struct pt_regs *regs, long id)
{
	struct lean_task *lt = bpf_task_storage_get(&lean_tasks, bpf_get_current_task_btf(), 0, 0);

	count_run();
	if (lt)
		lt->sys_ns = bpf_ktime_get_ns();
	return 0;
}

/* errno.h and include/linux/errno.h, which a BPF program cannot include */
#define WP_EINTR		4
#define WP_ERESTARTSYS		512
#define WP_ERESTART_RESTARTBLOCK 516

/*
 * syscall_interrupted - does a syscall returning @ret at sys_exit go on to
 * a signal's delivery? -EINTR, or a restart code (ERESTARTSYS ..
 * ERESTART_RESTARTBLOCK) that the delivery turns into one or a restart.
 */
static __always_inline bool syscall_interrupted(long ret)
{
	return ret == -WP_EINTR || (ret <= -WP_ERESTARTSYS && ret >= -WP_ERESTART_RESTARTBLOCK);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(lean_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *curr = bpf_get_current_task_btf();
	struct lean_task *lt = bpf_task_storage_get(&lean_tasks, curr, 0, 0);

	count_run();
	if (!lt)
		return 0;
	lt->sys_ns = 0;
	if (lt->pending != LEAN_RESUMED)
		return 0;
	if (!lean_wait_end_signal)
		lean_emit_held(curr, lt, bpf_ktime_get_ns());
	/*
	 * a signal path's: a syscall a signal interrupted goes on to the
	 * delivery; any other ended a wait that was not the signal's
	 */
	else if (!syscall_interrupted(ret))
		lean_emit_held(curr, lt, 0);
	return 0;
}

/* ... a signal path's wait ends on the way to its handler, after the syscall's exit */
SEC("tp_btf/signal_deliver")
int BPF_PROG(lean_signal_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct task_struct *curr = bpf_get_current_task_btf();
	struct lean_task *lt = bpf_task_storage_get(&lean_tasks, curr, 0, 0);

	count_run();
	if (lt && lt->pending == LEAN_RESUMED)
		lean_emit_held(curr, lt, bpf_ktime_get_ns());
	return 0;
}

/* the flight recorder's idle transitions: loaded only with it (lean_flight) */
SEC("tp_btf/cpu_idle")
int BPF_PROG(lean_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	struct lean_flight *f = lean_flight_ring();
	struct cpu_state *cs;
	struct wp_event *e;

	count_run();
	if (!f)
		return 0;
	e = flight_slot(f, state == PWR_EVENT_EXIT ? WP_EV_IDLE_EXIT : WP_EV_IDLE_ENTER);
	if (state != PWR_EVENT_EXIT)
		f->idle_since_ns = e->ts_ns;
	e->idle.idle_since_ns = f->idle_since_ns;
	e->idle.state = state;
	/* attach mode: whether a wake's CPU is idle, read at its waking, and when it left */
	if (attach_mode && (cs = this_cpu_state())) {
		if (state == PWR_EVENT_EXIT) {
			cs->lean_idle_exit_ns = e->ts_ns;
			cs->lean_idle_exit_since_ns = f->idle_since_ns;
			cs->idle_since_ns = 0;
		} else {
			cs->idle_since_ns = e->ts_ns;
		}
	}
	return 0;
}

#endif /* WAKEPROBE_LEAN_BPF_H */
