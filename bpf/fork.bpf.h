/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fork.bpf.h - the fork tracker, which both engines load: a process that a
 * tracked one forks is tracked from its start.
 */
#ifndef WAKEPROBE_FORK_BPF_H
#define WAKEPROBE_FORK_BPF_H

#include "ring.bpf.h"

SEC("tp_btf/sched_process_fork")
int BPF_PROG(handle_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 parent_tgid, child_tgid;
	struct wp_event *e;
	__u8 one = 1;

	count_run();
	/* a new thread shares its tgid, already tracked; only processes matter */
	if (child->tgid == parent->tgid)
		return 0;
	parent_tgid = task_tgid(parent);
	if (!tgid_tracked(parent_tgid))
		return 0;
	child_tgid = task_tgid(child);
	if (bpf_map_update_elem(&tracked_tgids, &child_tgid, &one, BPF_ANY)) {
		__sync_fetch_and_add(&counters.tracked_full, 1);
		return 0;
	}
	e = event_reserve(WP_EV_FORK);
	if (!e)
		return 0;
	e->fork.parent_tgid = parent_tgid;
	e->fork.child_tgid = child_tgid;
	event_submit(e);
	return 0;
}

#endif /* WAKEPROBE_FORK_BPF_H */
