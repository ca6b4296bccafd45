/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maps.bpf.h - what wakeprobe sets before load and reads after: the
 * load-time settings (.rodata, each fixed for the verifier), the maps and
 * counters both engines share, and the state each CPU keeps. The one
 * setting not here, fd_syscalls, is with the fd kinds it serves
 * (fd_kind.bpf.h).
 */
#ifndef WAKEPROBE_MAPS_BPF_H
#define WAKEPROBE_MAPS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "wakeprobe.h"

/*
 * Attach mode: see the top of full.bpf.h. Set by wakeprobe before load; in
 * rodata, so that with it false the verifier removes every attach-only path.
 */
const volatile bool attach_mode = false;

/*
 * Attach mode with --syscall-phases: programs on every syscall's entry and
 * exit time the waker's notify and the wakee's return. Without it (the
 * default) no program runs on syscalls: the waker's syscall and the
 * sleeper's are read from the registers they entered the kernel with
 * (syscall_from_regs()), and the sys_enter and sys_exit programs are not
 * loaded. In rodata: the verifier removes the path not taken.
 */
const volatile bool syscall_phases = true;

/*
 * The lean engine's flight recorder (flight.bpf.h), fixed at load: with
 * it, the interrupt programs keep their records in their CPU's flight ring.
 */
const volatile bool lean_flight = false;

/*
 * The lean engine, a workload: its threads' syscalls bound the notify and the
 * resume (lean_sys_enter, lean_sys_exit), and its wait ends at a signal's
 * delivery (lean_signal_deliver) rather than at the syscall's exit.
 */
const volatile bool lean_syscalls = false;
const volatile bool lean_wait_end_signal = false;

/*
 * --stacks (the lean engine): each wakeup's waker's stack at its waking
 * and its wakee's at the switch-out to the sleep it ended, kernel and user,
 * kept once each in the stacks map (sized by wakeprobe before load) and
 * sent as ids (struct wp_lean_stacks). The user stack is walked by frame
 * pointers, as perf's default does: code without them cuts it short.
 */
const volatile bool want_stacks = false;

/*
 * Lean attach mode, beyond processes: --all traces every task but
 * wakeprobe's own (self_tgid), --cgroup the tasks of the cgroups (v2) in
 * traced_cgroups and of every cgroup below them, made before the run or
 * during it. want_cgroups sends each wakeup's cgroups with it (struct
 * wp_lean_cgroups). In rodata: a run by pid has none of it to verify.
 */
const volatile bool trace_all = false;
const volatile bool trace_cgroups = false;
const volatile __u32 self_tgid = 0;
const volatile bool want_cgroups = false;

/*
 * --chains (lean attach mode): each wakeup carries the chain behind it,
 * WP_CHAIN_LINKS links back (struct wp_lean_link, chain.bpf.h)
 */
const volatile bool want_chains = false;
/*
 * --chains with the full engine: the lean engine's programs run beside its
 * own for the links alone, which the stream's are checked against. The
 * switches are the full engine's to write: no lean SWITCH of a preemption.
 */
const volatile bool lean_beside_full = false;

/*
 * The inode number of wakeprobe's pid namespace (/proc/self/ns/pid) when it
 * is not the initial one: each pid the records carry and each tgid tracked
 * is then that namespace's (WP_PID_OUTSIDE in wakeprobe.h). 0, in the
 * initial namespace: in rodata, so that the verifier removes every
 * translation and the kernel's own pids are read as they are.
 */
const volatile __u32 pidns_inum = 0;

/*
 * The host's steal clock (WP_EV_STEAL in wakeprobe.h): KVM's per-CPU struct
 * kvm_steal_time, whose steal field the host advances before it runs the
 * vCPU again, by the time the vCPU was runnable and not run. Per-CPU
 * variables lie at fixed distances from each other, so the CPU's own struct
 * rq (its current task's se.cfs_rq->rq) plus steal_offset is its
 * kvm_steal_time.steal; wakeprobe reads the distances from the kernel's BTF
 * (the .data..percpu section) and sets them before load, 0 for off. Each CPU
 * checks them once against its own number (the per-CPU cpu_number) before
 * it trusts them. Read only on its own CPU: the host writes it only while
 * that vCPU is not running, so a local read is never torn nor stale.
 */
const volatile __s64 steal_offset = 0;
const volatile __s64 cpu_number_offset = 0;
/* the same for the CPU's __preempt_count: the lean engine's waker context; 0 for off */
const volatile __s64 preempt_count_offset = 0;

/*
 * What the kernel has, where wakeprobe has an older way without it
 * (user/live/kernel_features.c reads them from the kernel's BTF before
 * load). Each guards its helper or argument with a constant the verifier
 * knows, so on a kernel without it the call is dead code, never checked.
 */
const volatile bool have_task_pt_regs = true;		/* bpf_task_pt_regs(), v5.15 */
const volatile bool have_find_vma = true;		/* bpf_find_vma(), v5.17 */
const volatile bool have_switch_prev_state = true;	/* sched_switch's 4th argument, v5.18 */

/*
 * v6.2+: a pointer the verifier lets the program load through, each load
 * guarded like a probe read but inline. The helper call instead, on older
 * kernels, cost 75 ns a record here, a third of the programs' time.
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* libbpf 1.2's, for older headers: a weak kfunc the kernel lacks is a null address */
#ifndef bpf_ksym_exists
#define bpf_ksym_exists(sym) (!!(sym))
#endif

/*
 * kernel_u64, kernel_s32 - the word at kernel address @at, loaded inline
 * where bpf_rdonly_cast() is (the caller checks): the address cast to a
 * kernel type whose first member is such a word, timespec64's tv_sec and
 * refcount_t's counter, for a word whose own type has no name (an array's
 * element, a per-CPU int) or cannot be moved to. A load that faults reads 0.
 */
static __always_inline __u64 kernel_u64(__u64 at)
{
	return ((struct timespec64 *)bpf_rdonly_cast((void *)at, bpf_core_type_id_kernel(struct timespec64)))->tv_sec;
}

static __always_inline __s32 kernel_s32(__u64 at)
{
	return ((struct refcount_struct *)bpf_rdonly_cast((void *)at,
							  bpf_core_type_id_kernel(struct refcount_struct)))->refs.counter;
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);	/* resized by wakeprobe before load */
} events SEC(".maps");

/* --stacks: what taking them cost (struct wp_stack_cost), read by wakeprobe at the end */
struct wp_stack_cost stack_cost;

/* stack_kept - count a stack the map did not keep (bpf_get_stackid()'s -EEXIST, -ENOMEM); @id as it is */
static __always_inline __s32 stack_kept(long id)
{
	if (id == -17 || id == -12)	/* EEXIST, ENOMEM */
		__sync_fetch_and_add(&stack_cost.not_kept, 1);
	return (__s32)id;
}

/* --stacks: every distinct stack once, by the id bpf_get_stackid() gives it; sized before load */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, WP_STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, 1);
} stacks SEC(".maps");

/* tgids to trace; filled by wakeprobe, grown here when a tracked task forks */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WP_MAX_TRACKED);
	__type(key, __u32);
	__type(value, __u8);
} tracked_tgids SEC(".maps");

/* --cgroup: the ids of the cgroups given, filled by wakeprobe */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WP_MAX_CGROUPS);
	__type(key, __u64);
	__type(value, __u8);
} traced_cgroups SEC(".maps");

/* --cgroup: each cgroup met, by id: 1 when it lies under a traced one, 2 when not; looked up once a cgroup */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WP_CGROUP_VERDICTS);
	__type(key, __u64);
	__type(value, __u8);
} cgroup_verdicts SEC(".maps");

/* the slots of irq_context's expiring hrtimers: which context runs them */
enum {
	TIMER_HARD,		/* in hard interrupt context, the usual one */
	TIMER_SOFT,		/* in the HRTIMER softirq (hrtimer.is_soft) */
	NR_TIMER_SLOTS,
};

/*
 * irq_context - attach mode: the interrupt work this CPU is inside now, kept
 * by the interrupt tracepoints of its own CPU (and read only there, at
 * sched_waking). A *_since_ns of 0 means not inside. Softirqs run in irq
 * exit or in ksoftirqd, and hard interrupts can come in on top of them, so
 * each kind has its slot. They nest one way only: a hard interrupt (a
 * timer's expiry in it too) on top of a softirq, a soft hrtimer's expiry
 * inside the HRTIMER softirq, never a softirq inside a hard interrupt (it
 * runs once the handler has left). So a softirq needs no clock to tell it
 * is the innermost, and takes none: a loopback server runs a dozen a
 * wakeup, on every CPU, and the clock read was half their programs' time.
 */
struct irq_context {
	__u64 hard_since_ns;		/* a hard irq or an APIC vector */
	__u64 timer_since_ns[NR_TIMER_SLOTS];
	__u64 timer_fn[NR_TIMER_SLOTS];	/* the expiring hrtimer's function */
	/* the timer itself, only ever compared: at its expiry's end it may be gone */
	__u64 timer[NR_TIMER_SLOTS];
	__s32 hard_nr;			/* the irq, or the vector */
	__u32 soft_vec;
	__u32 soft_open;		/* inside a softirq (soft_vec) */
	__u8 hard_kind;			/* enum wp_irq_kind */
	__u8 timer_irq_kind[NR_TIMER_SLOTS];	/* the context the hrtimer expires in */
	__u8 __pad;
	char hard_name[WP_TASK_COMM_LEN];	/* the handler's, hard irqs only */
	/*
	 * handle_softirq_raise()'s: the task that raised the CPU's last softirq
	 * in its own context (a send on loopback raises NET_RX, which its bh
	 * enable then runs), by its kernel tid, only compared; 0 when an
	 * interrupt or a softirq raised it; and its vector
	 */
	__u32 raise_tid;
	__s32 raise_vec;
};

enum steal_state {
	STEAL_UNCHECKED,
	STEAL_GOOD,
	STEAL_BAD,		/* the distances did not check out here, or the CPU's rq was not found */
};

/* steal_clock - the steal clock of one CPU, as that CPU last read it */
struct steal_clock {
	__u64 rq;		/* the CPU's struct rq */
	__u64 steal_ns;
	__u64 seen_ns;		/* when it was read: the CPU's last record */
	__u32 state;		/* enum steal_state */
};

/*
 * Per-CPU idle state, indexed by CPU number. Read remotely by the waking CPU,
 * so it is a plain array rather than a per-CPU one; the races are benign (a
 * stale idle_since only shows up as a wrong "was idle" flag on one record).
 */
struct cpu_state {
	__u64 idle_since_ns;	/* 0 while the CPU is not idle */
	__u32 idle_exit_wanted;	/* a tracked task is being woken onto this idle CPU */
	/*
	 * The CPU is watched while either is set: everything that runs on it
	 * then is evidence for a slow wakeup (wp_irq in wakeprobe.h). Both,
	 * and lean_named_pid, are the kernel's pids (only compared, never
	 * written out); curr_pid is the one the records carry (task_tid()).
	 */
	__u32 runnable_tid;	/* a tracked task waits to run here: woken or preempted */
	__u32 notify_tid;	/* a tracked task is inside its notify syscall here */
	/*
	 * The task running here, kept by sched_switch: a waking record names
	 * what its wakee may have to wait for. (The run queue's own curr is a
	 * per-CPU variable, which needs data symbols in kallsyms to reach.)
	 */
	__u32 curr_pid;
	__u32 curr_prio;
	char curr_comm[WP_TASK_COMM_LEN];
	__u32 lean_named_pid;	/* lean, attach mode: the last untracked waker this CPU named */
	/* lean, the flight recorder: tracked wakes that watch this CPU (lean_watch()), from any CPU */
	__u32 lean_waiting;
	/* lean, with the flight recorder: its last idle exit, and since when that idle had lasted */
	__u64 lean_idle_exit_ns;
	__u64 lean_idle_exit_since_ns;
	/*
	 * Attach mode. A line of its own: every interrupt writes it, and only
	 * this CPU reads it, while the line above is read from other CPUs.
	 */
	struct irq_context irq __attribute__((aligned(64)));
	/* read and written by this CPU only */
	struct steal_clock steal __attribute__((aligned(64)));
} __attribute__((aligned(64)));	/* whole lines per CPU: no false sharing */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, WP_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

/*
 * task_syscall - attach mode: the syscall a tracked thread is in, kept in
 * the task's own storage (no tid reuse, no map to fill). Only the thread
 * itself writes it: at its syscall entry and exit and when it blocks.
 */
struct task_syscall {
	__s64 nr;		/* -1: not in a syscall */
	__u64 arg;
	__u64 arg2;
	__u64 since_ns;		/* the entry */
	__u32 slept;		/* it blocked since the entry: its exit ends a wait */
	__u32 __pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_syscall);
} task_syscalls SEC(".maps");

/*
 * Syscalls that bound a phase for the running workload, WP_SYSCALL_* bits;
 * set by wakeprobe. Only the end that bounds a phase is recorded: the
 * notify's entry and the wait's exit.
 */
__u8 syscall_wanted[WP_MAX_SYSCALLS];

struct wp_counters counters;
__u64 drops_total;

/*
 * Every program's runs, counted by the programs themselves: the kernel
 * counts them only while its run-time statistics are on, which wakeprobe
 * keeps to short windows (user/collector.c), for their own clock reads cost
 * more than the count. Per CPU, so that no two CPUs write one line.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} prog_runs SEC(".maps");

/* count_run - the first thing every program does */
static __always_inline void count_run(void)
{
	__u32 zero = 0;
	__u64 *runs = bpf_map_lookup_elem(&prog_runs, &zero);

	if (runs)
		(*runs)++;
}

#endif /* WAKEPROBE_MAPS_BPF_H */
