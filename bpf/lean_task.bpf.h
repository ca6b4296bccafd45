/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lean_task.bpf.h - the lean engine's state of each traced task, in the
 * task's own storage: where its switches left it, and the stamps of the
 * wakeup it is in so far. lean.bpf.h says how the engine pairs them; the
 * flight recorder (flight.bpf.h) judges a wakeup by them.
 */
#ifndef WAKEPROBE_LEAN_TASK_BPF_H
#define WAKEPROBE_LEAN_TASK_BPF_H

#include "tasks.bpf.h"

enum lean_state {
	LEAN_UNKNOWN,		/* not seen to switch yet */
	LEAN_RUNNING,		/* switched in, and not out since */
	LEAN_PREEMPTED,		/* switched out runnable */
	LEAN_ASLEEP,		/* switched out to sleep */
};

enum lean_pending {
	LEAN_NONE,
	LEAN_WOKEN,		/* sched_waking seen: sched_wakeup next */
	LEAN_QUEUED,		/* sched_wakeup seen on a sleeping task: its switch-in next */
	LEAN_RESUMED,		/* a workload's: switched in, its record held until it leaves its syscall */
};

/* lean_task - one tracked task's state and the wakeup it is in, written under its pi_lock or on its CPU */
struct lean_task {
	__u64 waking_ns;
	__u64 wakeup_ns;
	/* lean_syscalls: the entry of the syscall it is in; 0: in none (or since before it had storage) */
	__u64 sys_ns;
	/* LEAN_RESUMED: its switch-in, and the CPU and the flight records of it */
	__u64 switch_in_ns;
	__u32 switch_in_cpu;
	__u32 notify_before;	/* wp_lean.notify_before, taken at its waking */
	__u32 waker_ring_head;	/* lean_syscalls, the flight recorder: its waking CPU's ring's head then */
	__u32 waker_tid;
	__u16 waking_cpu;
	__u16 wakeup_cpu;
	__u16 target_cpu;
	__u8 state;		/* enum lean_state */
	__u8 pending;		/* enum lean_pending */
	__u16 flags;		/* WP_LEAN_* so far */
	__u16 watch_cpu;	/* the flight recorder: the CPU its wake watches, plus one; 0: none */
	__u64 comm[WP_TASK_COMM_LEN / 8];	/* attach mode: the name last written for it */
	struct wp_lean_names names;		/* attach mode: its waker's and its wait's, so far */
	/* attach mode, with the flight recorder: the CPU it last ran on was idle at its waking, since then */
	__u64 idle_since_ns;
	__u32 last_cpu;		/* the CPU it last ran on, read at its waking */
	/*
	 * The flight recorder: the waking CPU's steal clock at the waking (0: not
	 * read), and when the waker enqueued it itself, that clock's advance to
	 * its sched_wakeup as wp_lean_span() keeps it (0: not measured)
	 */
	__u32 enqueue_steal;
	__u64 waking_steal_ns;
	struct wp_lean_stacks stacks;		/* --stacks: its waker's, and its wait's, so far */
	/* want_cgroups: its waker's cgroup at its waking, and the holder's at its switch-in (wp_lean_cgroups) */
	__u64 waker_cgroup;
	__u64 holder_cgroup;
	__u32 holder_tid;
	/* want_sums: the slots of its last two keys' sums, plus one (0: none), and which of them is the older */
	__u32 sum_slots[2];
	__u8 sum_older;
	/*
	 * trace_cgroups: the cgroup it was last judged in, and whether that
	 * one is outside the traced ones: a task moved out is traced no more,
	 * and again once it is moved back in
	 */
	__u8 cgroup_out;
	__u64 judged_cgroup;
	/*
	 * want_chains (chain.bpf.h): its last switch-out asleep, and how it last
	 * came to run (the switch-in that ended its last wakeup: when, where,
	 * whom it took the CPU from, after how long runnable), what it has spent
	 * preempted since, and the chain that brought it: links[chain_cur]; the
	 * other is its wakeup's so far
	 */
	__u64 sleep_ns;
	__u64 run_ns;
	__u64 preempted_at;		/* its switch-out runnable, while it waits to run again; 0: none */
	__u32 preempted_ns;
	__u32 run_runnable;
	__u32 run_holder;
	__u16 run_cpu;
	__u8 chain_cur;
	struct wp_lean_link links[2][WP_CHAIN_LINKS];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lean_task);
} lean_tasks SEC(".maps");

struct wp_lean_counters lean_counters;

/*
 * lean_task_out - --cgroup: has @p, whose state is @lt, left the traced
 * cgroups? Its cgroup's id is read each time, and judged again only when
 * it changed (cgroup_traced() keeps a verdict per cgroup); a wakeup it was
 * in when it left is dropped, not finished outside
 */
static __always_inline bool lean_task_out(struct task_struct *p, struct lean_task *lt)
{
	__u64 id;

	if (!trace_cgroups)
		return false;
	id = task_cgroup_id(p);
	if (id != lt->judged_cgroup) {
		lt->judged_cgroup = id;
		lt->cgroup_out = !cgroup_traced(p, id);
		if (lt->cgroup_out)
			lt->pending = LEAN_NONE;
	}
	return lt->cgroup_out;
}

/* lean_task_of - @p's lean state, made for a task to trace; NULL for any other, or one --cgroup no longer traces */
static __always_inline struct lean_task *lean_task_of(struct task_struct *p)
{
	struct lean_task *lt;

	if (!p->pid)
		return NULL;	/* an idle task */
	lt = bpf_task_storage_get(&lean_tasks, p, 0, 0);
	if (lt)
		return lean_task_out(p, lt) ? NULL : lt;
	if (!task_traced(p))
		return NULL;
	lt = bpf_task_storage_get(&lean_tasks, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!lt) {
		__sync_fetch_and_add(&lean_counters.no_storage, 1);
		return NULL;
	}
	/* made zeroed, and 0 is a stack's id: asleep since before tracking, its wait's were not taken */
	lt->stacks.waker_kernel = lt->stacks.waker_user = WP_STACK_NONE;
	lt->stacks.wait_kernel = lt->stacks.wait_user = WP_STACK_NONE;
	lt->stacks.wakee_tgid = task_tgid(p);
	if (trace_cgroups)
		lt->judged_cgroup = task_cgroup_id(p);
	return lt;
}

#endif /* WAKEPROBE_LEAN_TASK_BPF_H */
