// SPDX-License-Identifier: GPL-2.0
/*
 * wake_count.bpf.c - a witness for wakeprobe's counts: how many times a
 * wakeup put a task of the given processes on a run queue (sched_wakeup,
 * and sched_wakeup_new for a new task), with nothing else traced or
 * paired. A waking that finds its task still on its CPU has no
 * sched_wakeup, and is no wakeup of wakeprobe's either.
 * The processes are the kernel's tgids, as the initial pid namespace has
 * them: it is run on the host, beside a wakeprobe that may run anywhere.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u8);
} counted_tgids SEC(".maps");

__u64 wakeups;

static __always_inline void count(struct task_struct *p)
{
	__u32 tgid = p->tgid;

	if (bpf_map_lookup_elem(&counted_tgids, &tgid))
		__sync_fetch_and_add(&wakeups, 1);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(count_wakeup, struct task_struct *p)
{
	count(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(count_wakeup_new, struct task_struct *p)
{
	count(p);
	return 0;
}
