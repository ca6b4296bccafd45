/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tasks.bpf.h - who a task is: the CPU it is on and the state it leaves
 * it in, its ids in wakeprobe's pid namespace, its cgroup, whether it is
 * tracked (or, in lean attach mode, traced), and the syscall its
 * registers say it is in.
 */
#ifndef WAKEPROBE_TASKS_BPF_H
#define WAKEPROBE_TASKS_BPF_H

#include "maps.bpf.h"

#define SYS_FUTEX		202	/* x86-64 */

#define PF_KTHREAD		0x00200000	/* include/linux/sched.h: I am a kernel thread */

/*
 * task_cpu(): the CPU field moved from task_struct into thread_info in v5.16
 * ("sched: move CPU field back into thread_info if THREAD_INFO_IN_TASK").
 */
struct task_struct___pre516 {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_cpu(struct task_struct *p)
{
	struct task_struct___pre516 *old = (void *)p;

	/* tp_btf arguments are trusted pointers: plain loads, no probe reads */
	if (bpf_core_field_exists(old->cpu))
		return old->cpu;
	return p->thread_info.cpu;
}

/*
 * switch_prev_state - the state @prev leaves its CPU in, at sched_switch
 * (@ctx its arguments). Since v5.18 the tracepoint passes the state the
 * scheduler decided on ("sched/tracing: Don't re-read p->state when
 * emitting sched_switch event", fa2c3254d7cf); before, it re-read the
 * task's, as this does then: its __state since v5.14 ("sched: Change
 * task_struct::state", 2f064a59a11f), state before. A wakeup racing the
 * switch can show such a task running, as it showed every tracer then.
 */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int switch_prev_state(unsigned long long *ctx, struct task_struct *prev)
{
	struct task_struct___pre514 *old = (void *)prev;

	if (have_switch_prev_state)
		return (unsigned int)ctx[3];
	if (bpf_core_field_exists(old->state))
		return (unsigned int)old->state;
	return prev->__state;
}

/* a pid namespace nested deeper than this below the initial one is taken for another */
#define PIDNS_MAX_LEVEL		8

/*
 * pid_in_ns - the number @pid has in wakeprobe's pid namespace: the one of
 * its numbers, a level each from the initial namespace down to the task's
 * own, whose namespace is wakeprobe's; WP_PID_OUTSIDE | @global if none is
 */
static __noinline __u32 pid_in_ns(struct pid *pid, __u32 global)
{
	unsigned int level = BPF_CORE_READ(pid, level);

	for (unsigned int i = 0; i < PIDNS_MAX_LEVEL && i <= level; i++) {
		struct upid up;

		if (bpf_probe_read_kernel(&up, sizeof(up), &pid->numbers[i]))
			break;
		if (BPF_CORE_READ(up.ns, ns.inum) == pidns_inum)
			return up.nr;
	}
	return WP_PID_OUTSIDE | global;
}

/* a task's numbers in wakeprobe's pid namespace, kept with it from the first look (task_ns_ids()) */
struct ns_ids {
	__u32 tid;
	__u32 tgid;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ns_ids);
} task_ns_ids_kept SEC(".maps");

/*
 * task_ns_ids - @p's tgid (high half) and tid in wakeprobe's pid namespace.
 * A task of the namespace keeps them in task storage from the first look:
 * an exiting thread's struct pid is detached (thread_pid NULL) before its
 * last switch-out, which must carry the tid its switch-in did; and the
 * next look costs one storage lookup instead of two walks.
 */
static __noinline __u64 task_ns_ids(struct task_struct *p)
{
	struct ns_ids *kept = bpf_task_storage_get(&task_ns_ids_kept, p, 0, 0);
	__u32 tid, tgid;

	if (kept)
		return (__u64)kept->tgid << 32 | kept->tid;
	tid = pid_in_ns(BPF_CORE_READ(p, thread_pid), p->pid);
	tgid = pid_in_ns(BPF_CORE_READ(p, group_leader, thread_pid), p->tgid);
	if (!((tid | tgid) & WP_PID_OUTSIDE) &&
	    (kept = bpf_task_storage_get(&task_ns_ids_kept, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE))) {
		kept->tid = tid;
		kept->tgid = tgid;
	}
	return (__u64)tgid << 32 | tid;
}

/* task_tid - @p's thread id as wakeprobe's pid namespace numbers it; an idle task's is 0 */
static __always_inline __u32 task_tid(struct task_struct *p)
{
	if (!pidns_inum || !p->pid)
		return p->pid;
	return (__u32)task_ns_ids(p);
}

/* task_tgid - @p's process id as wakeprobe's pid namespace numbers it */
static __always_inline __u32 task_tgid(struct task_struct *p)
{
	if (!pidns_inum || !p->pid)
		return p->tgid;
	return task_ns_ids(p) >> 32;
}

static __always_inline __u32 current_tid(void)
{
	if (!pidns_inum)
		return (__u32)bpf_get_current_pid_tgid();
	return task_tid(bpf_get_current_task_btf());
}

static __always_inline __u32 current_tgid(void)
{
	if (!pidns_inum)
		return bpf_get_current_pid_tgid() >> 32;
	return task_tgid(bpf_get_current_task_btf());
}

static __always_inline bool tgid_tracked(__u32 tgid)
{
	return bpf_map_lookup_elem(&tracked_tgids, &tgid) != NULL;
}

/*
 * task_cgroup_id - the id of @p's cgroup in the v2 hierarchy (the root's
 * is 1). @p is a BTF pointer (a tracepoint's argument, current): the chain
 * is walked by direct loads, which the verifier turns into guarded ones,
 * not by a bpf_probe_read_kernel() call each, a wakeup's path reads it
 * twice
 */
static __always_inline __u64 task_cgroup_id(struct task_struct *p)
{
	return p->cgroups->dfl_cgrp->kn->id;
}

/* how far up a cgroup's ancestors cgroup_traced() looks for a traced one: systemd and Kubernetes nest 5 or 6 */
#define CGROUP_DEPTH		16

/*
 * cgroup_traced - --cgroup: is the cgroup @p is in, @id, one of the traced
 * ones or below one? Its ancestors are walked once, and the answer kept by
 * id: a cgroup made during the run is met with an id not yet seen. A
 * cgroup's struct cgroup_subsys_state self is its first member, so its
 * parent's is the parent cgroup.
 */
static __noinline bool cgroup_traced(struct task_struct *p, __u64 id)
{
	struct cgroup *cgrp = BPF_CORE_READ(p, cgroups, dfl_cgrp);
	__u8 *verdict = bpf_map_lookup_elem(&cgroup_verdicts, &id), v = 2;

	if (verdict)
		return *verdict == 1;
	for (int depth = 0; depth < CGROUP_DEPTH && cgrp; depth++) {
		__u64 up = BPF_CORE_READ(cgrp, kn, id);

		if (bpf_map_lookup_elem(&traced_cgroups, &up)) {
			v = 1;
			break;
		}
		cgrp = (struct cgroup *)BPF_CORE_READ(cgrp, self.parent);
	}
	bpf_map_update_elem(&cgroup_verdicts, &id, &v, BPF_ANY);
	return v == 1;
}

/*
 * task_traced - lean attach mode: is @p a task to trace? One of a tracked
 * process (--pid, a command), or with --all any but wakeprobe's own, or
 * with --cgroup one of a traced cgroup but wakeprobe's own (its wakeups are
 * its takes of the ring). The idle tasks are never traced.
 */
static __always_inline bool task_traced(struct task_struct *p)
{
	if (trace_all)
		return task_tgid(p) != self_tgid;
	if (trace_cgroups)
		return task_tgid(p) != self_tgid && cgroup_traced(p, task_cgroup_id(p));
	return tgid_tracked(task_tgid(p));
}

/*
 * task_tracked - is @p a task of a tracked process? The idle tasks (pid 0,
 * on half the switches of a paced run) are not, without a map lookup.
 */
static __always_inline bool task_tracked(struct task_struct *p)
{
	return p->pid && tgid_tracked(task_tgid(p));
}

static __always_inline bool current_tracked(void)
{
	return tgid_tracked(current_tgid());
}

/*
 * syscall_from_regs - the syscall user task @t is in, read from the frame it
 * entered the kernel with, into @out (its entry untimed: since_ns 0); false
 * when it is in none. The x86-64 syscall entry saves the number in orig_ax
 * and sets ax to -ENOSYS, which holds until the syscall returns its value
 * there. An exception's frame has its error code or -1 in orig_ax and the
 * user's rax in ax; an interrupt's, the inverted vector.
 */
static __always_inline bool syscall_from_regs(struct task_struct *t, struct task_syscall *out)
{
	struct pt_regs *regs;
	long nr;

	if (!have_task_pt_regs)
		return false;
	regs = (struct pt_regs *)bpf_task_pt_regs(t);
	if (!regs)
		return false;
	nr = (long)regs->orig_ax;
	if (nr < 0 || regs->ax != (unsigned long)-38 /* -ENOSYS */)
		return false;
	out->nr = nr;
	out->arg = regs->di;	/* the first two syscall arguments on x86-64 */
	out->arg2 = regs->si;
	out->since_ns = 0;
	return true;
}

#endif /* WAKEPROBE_TASKS_BPF_H */
