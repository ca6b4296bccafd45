/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain.bpf.h - --chains: the chain behind each wakeup, built as the
 * wakeups happen. Each traced task keeps how it last came to run (the
 * switch-in that ended its last wakeup) and the chain of links that brought
 * it there. When it wakes another task, the wakee takes a link of its own
 * (who woke it, how long that waker had run, how long it had waited for
 * its CPU and behind whom) and the waker's chain after it, WP_CHAIN_LINKS
 * links at most: a copy, so a chain never asks for a task's state once that
 * task has moved on or ended. Where the chain ends, and how much of the
 * wakee's wait each link explains, user space tells (core/chain.c).
 */
#ifndef WAKEPROBE_CHAIN_BPF_H
#define WAKEPROBE_CHAIN_BPF_H

#include "lean_task.bpf.h"

/*
 * chain_waker - the kind of the link @lt's waking makes, run by @curr now
 * (its context in lt->flags, attach mode's names in lt->names), and into
 * @w the waker's storage where a traced thread woke it and has some
 */
static __always_inline __u8 chain_waker(struct lean_task *lt, struct task_struct *curr, struct lean_task **w)
{
	*w = NULL;
	if (lt->flags & WP_LEAN_WAKER_IRQ)
		return WP_LINK_IRQ;
	if (lt->flags & WP_LEAN_WAKER_UNSURE)
		return WP_LINK_UNSURE;
	if ((lt->flags & WP_LEAN_WAKER_SOFTIRQ) && !(lt->names.seen & WP_SEEN_RAISED))
		return WP_LINK_SOFTIRQ;
	if (!curr->pid || !task_traced(curr))
		return WP_LINK_UNTRACED;
	*w = bpf_task_storage_get(&lean_tasks, curr, 0, 0);
	if (*w && (*w)->cgroup_out) {
		*w = NULL;
		return WP_LINK_UNTRACED;
	}
	return (lt->flags & WP_LEAN_WAKER_SOFTIRQ) ? WP_LINK_RAISED : WP_LINK_THREAD;
}

/*
 * chain_take - @p, whose state is @lt, is woken now (@new_task: made, its
 * first run to come): its link, and the chain its waker came to run by,
 * into the links of its wakeup so far. Run after lt->flags and, in attach
 * mode, lt->names have the waking's context and its waker.
 */
static __always_inline void chain_take(struct task_struct *p, struct lean_task *lt, __u64 now, bool new_task)
{
	struct task_struct *curr = bpf_get_current_task_btf();
	struct wp_lean_link *l = lt->links[(lt->chain_cur & 1) ^ 1];
	struct lean_task *w;
	__u8 kind;

	kind = chain_waker(lt, curr, &w);
	if (new_task && kind == WP_LINK_THREAD)
		kind = WP_LINK_NEW;
	__builtin_memset(l, 0, sizeof(*l));
	l->waker_tid = task_tid(curr);
	l->wakee_tid = task_tid(p);
	if (!new_task && lt->state == LEAN_ASLEEP && lt->sleep_ns && now > lt->sleep_ns)
		l->blocked = wp_lean_span(now - lt->sleep_ns);
	l->kind = kind;
	l->nr = -1;
	if (attach_mode && kind == WP_LINK_THREAD) {
		l->nr = lt->names.waker_nr;
		l->fd_kind = lt->names.waker_fd_kind;
	}
	if (!w || !w->run_ns || now < w->run_ns) {
		/* a waker not seen to come to run from a sleep: the chain ends at it */
		__builtin_memset(&l[1], 0, (WP_CHAIN_LINKS - 1) * sizeof(*l));
		return;
	}
	l->ran = wp_lean_span(now - w->run_ns);
	l->preempted = w->preempted_ns;
	l->runnable = w->run_runnable;
	l->holder_tid = w->run_holder;
	l->cpu = w->run_cpu;
	__builtin_memcpy(&l[1], w->links[w->chain_cur & 1], (WP_CHAIN_LINKS - 1) * sizeof(*l));
}

/*
 * chain_ran - @lt's wakeup ended: switched in now, taking the CPU from
 * @prev (NULL: its switch-in was not seen, and when it came to run is not
 * known). The chain that brought it is its own from now on.
 */
static __always_inline void chain_ran(struct lean_task *lt, __u64 now, struct task_struct *prev)
{
	lt->chain_cur = (lt->chain_cur & 1) ^ 1;
	lt->preempted_ns = 0;
	lt->preempted_at = 0;
	if (!prev) {
		lt->run_ns = 0;
		return;
	}
	lt->run_ns = now;
	lt->run_runnable = now > lt->waking_ns ? wp_lean_span(now - lt->waking_ns) : 0;
	lt->run_holder = task_tid(prev);
	lt->run_cpu = bpf_get_smp_processor_id();
}

/* chain_switched_out - @lt's task left its CPU now, asleep (@slept) or runnable */
static __always_inline void chain_switched_out(struct lean_task *lt, __u64 now, bool slept)
{
	if (slept) {
		lt->sleep_ns = now;
		lt->preempted_at = 0;
	} else {
		lt->preempted_at = now;
	}
}

/* chain_switched_in - @lt's task is on a CPU again now: a wait it was preempted for ends */
static __always_inline void chain_switched_in(struct lean_task *lt, __u64 now)
{
	__u64 sum;

	if (!lt->preempted_at || now < lt->preempted_at)
		return;
	sum = lt->preempted_ns + (now - lt->preempted_at);
	lt->preempted_ns = sum < 0xffffffffull ? (__u32)sum : 0xffffffffu;
	lt->preempted_at = 0;
}

#endif /* WAKEPROBE_CHAIN_BPF_H */
