// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c - the least that a tracer of wakeprobe's design does.
 *
 * The overhead benchmark (bench/bench_overhead.c) runs it in place of
 * wakeprobe: tp_btf programs on the five tracepoints that bound the phases
 * (sched_waking, sched_wakeup, sched_switch, sys_enter, sys_exit), each
 * filtering to the tracked tgids, and for syscalls to the wanted ends, and
 * writing one record per event it keeps into a ring buffer; nothing else.
 * No per-CPU state, no watched CPUs, no interrupts or idle. What the
 * workload loses to it is what any tracer built this way costs on the
 * machine, and so how close to it wakeprobe is.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "wakeprobe.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 20);	/* drained every 200 ms by the benchmark */
} floor_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WP_MAX_TRACKED);
	__type(key, __u32);
	__type(value, __u8);
} floor_tgids SEC(".maps");

/* WP_SYSCALL_ENTER / WP_SYSCALL_EXIT by syscall number; set by the benchmark */
__u8 floor_syscalls[WP_MAX_SYSCALLS];
__u64 floor_drops;

static __always_inline bool tracked(__u32 tgid)
{
	return bpf_map_lookup_elem(&floor_tgids, &tgid) != NULL;
}

static __always_inline struct wp_event *reserve(__u32 type)
{
	struct wp_event *e = bpf_ringbuf_reserve(&floor_events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&floor_drops, 1);
		return NULL;
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->type = type;
	e->cpu = bpf_get_smp_processor_id();
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->drops = 0;
	return e;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct wp_event *e;

	if (!tracked(prev->tgid) && !tracked(next->tgid))
		return 0;
	e = reserve(WP_EV_SWITCH);
	if (!e)
		return 0;
	e->sw.prev_tid = prev->pid;
	e->sw.next_tid = next->pid;
	e->sw.prev_state = prev_state;
	e->sw.preempt = preempt;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline void wake(__u32 type, struct task_struct *p)
{
	struct wp_event *e;

	if (!tracked(p->tgid))
		return;
	e = reserve(type);
	if (!e)
		return;
	e->wake.pid = p->pid;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(floor_waking, struct task_struct *p)
{
	wake(WP_EV_WAKING, p);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_wakeup, struct task_struct *p)
{
	wake(WP_EV_WAKEUP, p);
	return 0;
}

static __always_inline void sys(__u32 type, long id, __u8 end, __u64 arg)
{
	struct wp_event *e;

	if (id < 0 || id >= WP_MAX_SYSCALLS || !(floor_syscalls[id] & end) ||
	    !tracked(bpf_get_current_pid_tgid() >> 32))
		return;
	e = reserve(type);
	if (!e)
		return;
	e->sys.nr = id;
	e->sys.arg = arg;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(floor_sys_enter, struct pt_regs *regs, long id)
{
	sys(WP_EV_SYS_ENTER, id, WP_SYSCALL_ENTER, PT_REGS_PARM1_SYSCALL(regs));
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(floor_sys_exit, struct pt_regs *regs, long ret)
{
	sys(WP_EV_SYS_EXIT, regs->orig_ax, WP_SYSCALL_EXIT, ret);
	return 0;
}
