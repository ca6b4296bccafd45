/* SPDX-License-Identifier: GPL-2.0 */
/*
 * full_syscalls.bpf.h - the full engine's records of a tracked task's
 * syscalls and signal deliveries, and attach mode's state of the syscall
 * it is in; first, its moves to another CPU, whose program comes after the
 * interrupts' in the object's order (wakeprobe.bpf.c).
 */
#ifndef WAKEPROBE_FULL_SYSCALLS_BPF_H
#define WAKEPROBE_FULL_SYSCALLS_BPF_H

#include "ring.bpf.h"

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(handle_sched_migrate_task, struct task_struct *p, int dest_cpu)
{
	struct cpu_state *from, *to;
	struct wp_event *e;
	__u32 orig;

	count_run();
	if (!tgid_tracked(task_tgid(p)))
		return 0;
	orig = task_cpu(p);
	/* a task waiting for a CPU now waits for another */
	from = cpu_state_of(orig);
	to = cpu_state_of(dest_cpu);
	if (from && from->runnable_tid == p->pid) {
		from->runnable_tid = 0;
		if (to)
			to->runnable_tid = p->pid;
	}
	e = event_reserve(WP_EV_MIGRATE);
	if (!e)
		return 0;
	e->migrate.pid = task_tid(p);
	e->migrate.orig_cpu = orig;
	e->migrate.dest_cpu = dest_cpu;
	event_submit(e);
	return 0;
}

static __always_inline bool syscall_is_wanted(long nr, __u8 end)
{
	if (nr < 0 || nr >= WP_MAX_SYSCALLS)
		return false;
	return syscall_wanted[nr] & end;
}

/*
 * syscall_state_enter - attach mode: current, tracked, enters syscall @id.
 * Every one is kept, not only the wanted ones: any of them may block, and
 * any may wake a tracked task.
 */
static __always_inline void syscall_state_enter(struct pt_regs *regs, long id)
{
	struct task_syscall *ts;

	ts = bpf_task_storage_get(&task_syscalls, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts)
		return;
	ts->nr = id;
	ts->arg = PT_REGS_PARM1_SYSCALL(regs);
	ts->arg2 = PT_REGS_PARM2_SYSCALL(regs);
	ts->since_ns = bpf_ktime_get_ns();
	ts->slept = 0;
}

/*
 * syscall_state_exit - attach mode: current, tracked, leaves its syscall.
 * Returns whether it slept in it: then its exit ends a wait.
 */
static __always_inline bool syscall_state_exit(void)
{
	struct task_syscall *ts;
	bool slept;

	ts = bpf_task_storage_get(&task_syscalls, bpf_get_current_task_btf(), 0, 0);
	if (!ts)
		return false;
	slept = ts->slept;
	ts->nr = -1;
	ts->slept = 0;
	return slept;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(handle_sys_enter, struct pt_regs *regs, long id)
{
	struct cpu_state *cs;
	struct wp_event *e;
	__u64 arg2;

	count_run();
	if (attach_mode) {
		if (!current_tracked())
			return 0;
		syscall_state_enter(regs, id);
		if (!syscall_is_wanted(id, WP_SYSCALL_ENTER))
			return 0;
	} else if (!syscall_is_wanted(id, WP_SYSCALL_ENTER) || !current_tracked()) {
		return 0;
	}
	arg2 = PT_REGS_PARM2_SYSCALL(regs);
	/* a notify in progress: watch the waker's CPU until the syscall returns */
	if ((syscall_wanted[id] & WP_SYSCALL_NOTIFY) && (id != SYS_FUTEX || wp_futex_op_wakes(arg2)) &&
	    (cs = this_cpu_state()))
		cs->notify_tid = (__u32)bpf_get_current_pid_tgid();
	e = event_reserve(WP_EV_SYS_ENTER);
	if (!e)
		return 0;
	e->sys.nr = id;
	e->sys.arg = PT_REGS_PARM1_SYSCALL(regs);
	e->sys.arg2 = arg2;
	event_submit(e);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(handle_sys_exit, struct pt_regs *regs, long ret)
{
	struct cpu_state *cs = this_cpu_state();
	struct wp_event *e;
	long id;

	count_run();
	if (cs && cs->notify_tid && cs->notify_tid == (__u32)bpf_get_current_pid_tgid())
		cs->notify_tid = 0;
	id = regs->orig_ax;	/* x86: the number survives in orig_ax */
	if (attach_mode) {
		if (!current_tracked())
			return 0;
		/* in attach mode the exit of every syscall that slept: the wait's return */
		if (!syscall_state_exit() && !syscall_is_wanted(id, WP_SYSCALL_EXIT))
			return 0;
	} else if (!syscall_is_wanted(id, WP_SYSCALL_EXIT) || !current_tracked()) {
		return 0;
	}
	e = event_reserve(WP_EV_SYS_EXIT);
	if (!e)
		return 0;
	e->sys.nr = id;
	e->sys.arg = ret;
	e->sys.arg2 = 0;
	event_submit(e);
	return 0;
}

/*
 * The signal paths end their wait in a handler: signal_deliver fires on the
 * way back to user space, after the interrupted syscall's sys_exit.
 */
SEC("tp_btf/signal_deliver")
int BPF_PROG(handle_signal_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct wp_event *e;

	count_run();
	if (!current_tracked())
		return 0;
	e = event_reserve(WP_EV_SIGNAL_DELIVER);
	if (!e)
		return 0;
	e->signal.sig = sig;
	event_submit(e);
	return 0;
}

#endif /* WAKEPROBE_FULL_SYSCALLS_BPF_H */
