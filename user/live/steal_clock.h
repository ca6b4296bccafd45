/* SPDX-License-Identifier: GPL-2.0 */
/*
 * steal_clock.h - where the BPF side finds the host's steal clock of a CPU
 * (WP_EV_STEAL in wakeprobe.h), or why it cannot.
 *
 * A KVM guest with the steal-time feature gets, per CPU, a struct
 * kvm_steal_time that the host updates: its steal field is the time the
 * vCPU was runnable and the host ran something else. The BPF side can reach
 * a CPU's struct rq (from a task, se.cfs_rq->rq) but no per-CPU variable by
 * name: kallsyms has no data symbols on many kernels. Per-CPU variables keep
 * their distances from one another on every CPU, and the kernel's BTF says
 * where each lies in the .data..percpu section, so the distance from
 * runqueues to steal_time.steal is the offset to add. cpu_number's distance
 * comes along, for each CPU to check the layout against its own number.
 */
#ifndef WAKEPROBE_STEAL_CLOCK_H
#define WAKEPROBE_STEAL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct steal_layout {
	bool on;
	int64_t steal_offset;		/* from a CPU's struct rq to its kvm_steal_time.steal */
	int64_t cpu_number_offset;	/* from a CPU's struct rq to its cpu_number; 0: not found */
	/*
	 * From a CPU's struct rq to its __preempt_count (x86), found whether
	 * or not the steal clock is: the lean engine tells an interrupt's wake from
	 * a task's by it. 0: not found (or cpu_number was not).
	 */
	int64_t preempt_count_offset;
	bool in_pcpu_hot;		/* ... both found in struct pcpu_hot (v6.2-v6.14), not variables of their own */
	char why_off[128];		/* one line, when not on */
};

struct btf;

/*
 * steal_clock__find - the offsets, from the running kernel's BTF @btf, on
 * when the machine is a KVM guest offered steal time; else @l->on false
 * and why (@btf NULL: the kernel's BTF could not be read, @why_no_btf).
 * kernel_features__get() keeps its answer for the process.
 */
void steal_clock__find(const struct btf *btf, const char *why_no_btf, struct steal_layout *l);

/* the pieces, for the tests: the hypervisor's say, and a BTF's */
enum steal_hypervisor {
	STEAL_HV_NONE,			/* no hypervisor: bare metal */
	STEAL_HV_OTHER,			/* one that is not KVM, or KVM without steal time */
	STEAL_HV_KVM_STEAL,		/* KVM, with the steal-time feature */
};

/* steal_clock__layout_from_btf - the offsets from @btf; false and @why when it lacks a piece */
bool steal_clock__layout_from_btf(const struct btf *btf, struct steal_layout *l);

#endif /* WAKEPROBE_STEAL_CLOCK_H */
