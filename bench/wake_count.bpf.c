// SPDX-License-Identifier: GPL-2.0
/*
 * wake_count.bpf.c - a witness for wakeprobe's counts: how many times a
 * wakeup put a task of the given processes on a run queue (sched_wakeup,
 * and sched_wakeup_new for a new task), with nothing else traced or
 * paired. A waking that finds its task still on its CPU has no
 * sched_wakeup, and is no wakeup of wakeprobe's either.
 * The processes are the kernel's tgids, as the initial pid namespace has
 * them: it is run on the host, beside a wakeprobe that may run anywhere.
 * The processes they fork are counted too, as wakeprobe traces them.
 *
 * Of those wakeups it also counts the ones queued from another CPU (the
 * sched_wakeup ran elsewhere than their sched_waking: the wake went to the
 * target's wake list, with an IPI where it had halted), and sorts each
 * wake's waking -> wakeup time into a log2 histogram: wake_enqueue, as
 * wakeprobe calls the phase.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} counted_tgids SEC(".maps");

/* processes forked by counted ones that the table had no room for: their wakeups go uncounted */
__u64 untracked_forks;

/* a counted task's last sched_waking: where, and when */
struct waking {
	__u64 ns;
	__u32 cpu;
	__u32 pending;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct waking);
} wakings SEC(".maps");

#define ENQUEUE_SLOTS	32

__u64 wakeups;
__u64 queued_remote;				/* sched_wakeup on another CPU than its sched_waking */
__u64 enqueue_log2[ENQUEUE_SLOTS];	/* waking -> wakeup in ns: slot k holds [2^k, 2^(k+1)) */

static __always_inline bool counted(struct task_struct *p)
{
	__u32 tgid = p->tgid;

	return bpf_map_lookup_elem(&counted_tgids, &tgid) != NULL;
}

static __always_inline void count(struct task_struct *p)
{
	if (counted(p))
		__sync_fetch_and_add(&wakeups, 1);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(note_waking, struct task_struct *p)
{
	struct waking *w;

	if (!counted(p))
		return 0;
	w = bpf_task_storage_get(&wakings, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!w)
		return 0;
	w->ns = bpf_ktime_get_ns();
	w->cpu = bpf_get_smp_processor_id();
	w->pending = 1;
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(count_wakeup, struct task_struct *p)
{
	struct waking *w;
	__u64 d, k = 0;

	if (!counted(p))
		return 0;
	__sync_fetch_and_add(&wakeups, 1);
	w = bpf_task_storage_get(&wakings, p, 0, 0);
	if (!w || !w->pending)
		return 0;
	w->pending = 0;
	if (w->cpu != bpf_get_smp_processor_id())
		__sync_fetch_and_add(&queued_remote, 1);
	d = bpf_ktime_get_ns() - w->ns;
	while (d > 1 && k < ENQUEUE_SLOTS - 1) {
		d >>= 1;
		k++;
	}
	__sync_fetch_and_add(&enqueue_log2[k & (ENQUEUE_SLOTS - 1)], 1);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(count_wakeup_new, struct task_struct *p)
{
	count(p);
	return 0;
}

/* a counted process forked: the child is counted too (a new thread shares its tgid already) */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = child->tgid;
	__u8 one = 1;

	if (child->tgid == parent->tgid || !counted(parent))
		return 0;
	if (bpf_map_update_elem(&counted_tgids, &tgid, &one, BPF_ANY))
		__sync_fetch_and_add(&untracked_forks, 1);
	return 0;
}
