/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakeprobe.h - every record that crosses the BPF <-> user boundary, and the
 * one rule (which futex ops wake) that both sides must apply alike.
 *
 * Fixed-width types only and no includes: the BPF side gets __u32 and friends
 * from vmlinux.h, the user side from <linux/types.h>.
 */
#ifndef WAKEPROBE_BPF_H
#define WAKEPROBE_BPF_H

/*
 * x86-64 only, on both sides: the workloads stamp time with rdtscp, and the
 * BPF side reads the x86-64 syscall numbers, the number a syscall exit finds
 * in orig_ax, and the tracepoints of the APIC's own vectors.
 */
#if defined(__bpf__) ? !defined(__TARGET_ARCH_x86) : !defined(__x86_64__)
#error "wakeprobe supports x86-64 only: build it for and on an x86-64 machine"
#endif

#define WP_MAX_CPUS		1024
#define WP_MAX_TRACKED		4096
#define WP_MAX_CGROUPS		64	/* --cgroup: the cgroups traced, each with what it holds */
/* --cgroup: the cgroups whose verdict (under a traced one, or not) is kept at once, an LRU */
#define WP_CGROUP_VERDICTS	4096
#define WP_MAX_SYSCALLS		512	/* the BPF tables by syscall number: only lower ones are traced */
#define WP_TASK_COMM_LEN	16

/*
 * Run in a pid namespace of its own (a container), wakeprobe gets every pid
 * and tgid as that namespace numbers them, the numbers its user sees. A
 * task outside it (the host's, a kernel thread) has none there: its records
 * carry WP_PID_OUTSIDE plus its pid in the initial namespace, which no
 * namespace's pid reaches (PID_MAX_LIMIT is 2^22). The idle tasks stay 0.
 */
#define WP_PID_OUTSIDE		(1u << 30)

enum wp_event_type {
	WP_EV_SWITCH = 1,	/* sched_switch with a tracked prev or next */
	WP_EV_WAKING,		/* sched_waking of a tracked task */
	WP_EV_WAKEUP,		/* sched_wakeup / sched_wakeup_new of a tracked task */
	WP_EV_SYS_ENTER,	/* wanted syscall entered by a tracked task */
	WP_EV_SYS_EXIT,		/* wanted syscall returned in a tracked task */
	WP_EV_IDLE_EXIT,	/* a watched CPU left idle (power:cpu_idle exit) */
	WP_EV_FORK,		/* a tracked process forked: the child is tracked too */
	WP_EV_SIGNAL_DELIVER,	/* a tracked task is about to run a signal handler */
	WP_EV_IRQ,		/* an interrupt handler entered or left on a watched CPU */
	WP_EV_IDLE_ENTER,	/* a watched CPU went idle (power:cpu_idle) */
	WP_EV_MIGRATE,		/* sched_migrate_task of a tracked task */
	WP_EV_WAKER,		/* attach mode: who woke a tracked task, just before its WAKING */
	WP_EV_BLOCK,		/* attach mode: a tracked task went to sleep, and in which syscall */
	WP_EV_STEAL,		/* the hypervisor's steal clock of this CPU moved since its last record */
	WP_EV_LEAN,		/* the lean engine: one wakeup of a tracked task, paired in the kernel */
	WP_EV_TYPE_MAX,
};

/* room for event types in the counters a recording keeps: more types are a new format version */
#define WP_EV_TYPE_ROOM		16

/*
 * sched_switch, recorded when prev or next is tracked, or on a watched CPU
 * (see wp_irq). prev_state as the kernel reports it; 0 means still runnable.
 */
struct wp_switch {
	__u32 prev_tid;
	__u32 next_tid;
	__u32 prev_state;
	__u16 prev_prio;
	__u16 next_prio;
	__u32 preempt;		/* prev was preempted, not blocking */
	__u32 next_tgid;
	char next_comm[WP_TASK_COMM_LEN];
};

/*
 * sched_waking and sched_wakeup. target_cpu is task_cpu(p): at sched_waking
 * the CPU the task last ran on, at sched_wakeup the CPU it was queued on.
 * target_idle_since_ns is when that CPU entered idle, 0 if it was not idle;
 * target_curr_* name the task running there at that moment (0: the idle
 * task), the one a slow runq_wait may have to wait for.
 */
struct wp_wake {
	__u32 pid;
	__u32 target_cpu;
	__u64 target_idle_since_ns;
	__u32 target_curr_pid;
	__u16 target_curr_prio;
	__u16 flags;		/* WP_WAKE_* */
	char target_curr_comm[WP_TASK_COMM_LEN];
};

/*
 * syscall entry: nr and the first two arguments (an fd, or a futex address
 * and its op); syscall exit: nr and the return value in arg
 */
/*
 * wp_wake.flags: a WP_EV_WAKEUP from sched_wakeup_new, the first run of a
 * task that clone() just made. It has no sched_waking: wake_up_new_task()
 * picks the CPU and queues the task in one step, in the parent's context,
 * so the event's tid is the thread that called clone().
 */
#define WP_WAKE_NEW		(1 << 0)

/*
 * wp_wake_decides - is this the record of a wake decision: a sched_waking,
 * or a new task's sched_wakeup_new, which is its waking and its wakeup in one?
 */
static inline __attribute__((always_inline)) int wp_wake_decides(__u32 type, __u16 flags)
{
	return type == WP_EV_WAKING || (type == WP_EV_WAKEUP && (flags & WP_WAKE_NEW));
}

struct wp_sys {
	__s64 nr;
	__u64 arg;
	__u64 arg2;
};

/* a watched CPU left idle (cpu is the event's own cpu field), or entered it */
struct wp_idle {
	__u64 idle_since_ns;	/* exit: since when it was idle */
	__u32 state;		/* enter: the cpuidle state index */
	__u32 __pad[7];
};

/* what kind of interrupt work a WP_EV_IRQ record is about */
enum wp_irq_kind {
	WP_IRQ_HARD = 1,	/* irq_handler_entry/exit: nr is the irq */
	WP_IRQ_SOFT,		/* softirq_entry/exit: nr is the vector */
	WP_IRQ_TIMER,		/* x86 local APIC timer */
	WP_IRQ_RESCHED,		/* x86 reschedule IPI */
	WP_IRQ_CALL_FUNC,	/* x86 function-call IPIs, single and many (the wake list) */
};

/*
 * Interrupt work on a watched CPU: one that a tracked task is runnable on
 * but not running (from its wakeup to its switch-in, or preempted), or that
 * a tracked waker is inside its notify on. Only watched CPUs emit, so the
 * cost is one array lookup per interrupt when nothing waits.
 */
struct wp_irq {
	__u32 kind;		/* enum wp_irq_kind */
	__s32 nr;
	__u32 exit;		/* 0 entry, 1 exit */
	__u32 __pad;
	char name[WP_TASK_COMM_LEN];	/* the handler's name, hard irqs only */
	__u64 __pad2;
};

/* sched_migrate_task of a tracked task */
struct wp_migrate {
	__u32 pid;
	__u32 orig_cpu;
	__u32 dest_cpu;
	__u32 __pad[7];
};

/* signal:signal_deliver: the signal whose handler the task enters */
struct wp_signal {
	__s32 sig;
	__u32 __pad;
	__u64 __pad2[2];
};

struct wp_fork {
	__u32 parent_tgid;
	__u32 child_tgid;
	__u64 __pad[2];
};

/*
 * What an fd is, as the BPF side finds it in the files of the task whose
 * syscall takes it, at that syscall's waking or sleep (wp_waker.fd_kind,
 * wp_block.fd_kind, wp_lean_names): from the file's inode mode and file
 * system, a socket's family and type, an anonymous inode's name. Only the
 * syscalls whose first argument is an fd are looked at (fd_syscalls[]).
 * The numbers are a recording's too (its FD_KIND answers): new kinds go
 * last.
 */
enum fd_kind {
	FD_KIND_UNKNOWN,	/* not looked at: no fd syscall, or a recording older than the lookup */
	FD_KIND_EVENTFD,
	FD_KIND_PIPE,
	FD_KIND_UNIX_STREAM,
	FD_KIND_TCP_SOCKET,
	FD_KIND_UDP_SOCKET,
	FD_KIND_SOCKET,		/* another family or protocol: packet, vsock, raw, ... */
	FD_KIND_EPOLL,
	FD_KIND_TIMERFD,
	FD_KIND_SIGNALFD,
	FD_KIND_FILE,		/* a regular file or a directory */
	FD_KIND_OTHER,		/* another anonymous inode or pseudo file (pidfd, perf, bpf, ...) */
	FD_KIND_UNIX_DGRAM,
	FD_KIND_UNIX_SEQPACKET,
	FD_KIND_NETLINK,
	FD_KIND_FIFO,		/* a named pipe */
	FD_KIND_INOTIFY,
	FD_KIND_MQUEUE,		/* a POSIX message queue */
	FD_KIND_IO_URING,
	FD_KIND_TTY,
	FD_KIND_BLOCK_DEVICE,
	FD_KIND_CHAR_DEVICE,
	FD_KIND_CLOSED,		/* no file at that fd when the syscall woke or slept */
	NR_FD_KINDS,
};

/*
 * Who ran the waking of a tracked task (attach mode), as sched_waking finds
 * it. In interrupt context the current task only happens to be there: the
 * waker is the innermost interrupt, softirq or timer the BPF side saw enter
 * on that CPU and not yet leave.
 */
enum wp_waker_class {
	WP_WAKER_SYSCALL = 1,	/* a thread of a tracked process, inside a syscall */
	WP_WAKER_TRACKED,	/* a thread of a tracked process, outside any syscall */
	WP_WAKER_PROCESS,	/* a user thread of a process that is not tracked */
	WP_WAKER_KTHREAD,	/* a kernel thread */
	WP_WAKER_IRQ,		/* a hard interrupt or a system vector (irq_kind says which) */
	WP_WAKER_SOFTIRQ,	/* a softirq, in interrupt context or in ksoftirqd */
	WP_WAKER_TIMER,		/* an hrtimer's expiry: a sleep or a timeout ended */
	WP_WAKER_CLASS_MAX,
};

/*
 * WP_EV_WAKER: the event's tid is current on the waking CPU (the waker, or
 * the task an interrupt came in on); the record precedes the WAKING record
 * of the same wakeup on the same CPU.
 */
struct wp_waker {
	__u32 wakee_pid;
	__u8 waker_class;	/* enum wp_waker_class */
	union {
		__u8 irq_kind;	/* IRQ, SOFTIRQ, TIMER: enum wp_irq_kind of that context */
		__u8 fd_kind;	/* SYSCALL: enum fd_kind of its first argument, if it takes an fd */
	};
	__u16 flags;		/* WP_WAKER_* */
	__s32 nr;		/* SYSCALL: the syscall; IRQ: the irq or vector; SOFTIRQ: the vector; else -1 */
	__u32 waker_tgid;	/* current's tgid */
	__u64 since_ns;		/* SYSCALL: its entry (0: not timed); IRQ, TIMER: when that context began;
				   else 0 (a softirq's start is not timed: a clock read on each of them) */
	union {
		/* SYSCALL: its first two arguments (an fd; a futex address and op; tgkill's tgid and tid) */
		struct {
			__u64 arg;
			__u64 arg2;
		};
		/* TIMER: the expiring hrtimer's function, a kernel text address */
		__u64 timer_fn;
		/* PROCESS, KTHREAD, TRACKED: current's comm; IRQ: the handler's name, if it has one */
		char comm[WP_TASK_COMM_LEN];
	};
};

/*
 * wp_waker.flags: the syscall was read from the waker's registers, not
 * from a program at its entry: attach mode without --syscall-phases, where
 * no program runs on syscalls. since_ns is 0: its entry was not timed.
 */
#define WP_WAKER_UNTIMED	(1 << 0)
/*
 * ... SOFTIRQ: the softirq was raised by current, in its own context (a
 * send on loopback raises NET_RX, which its bh enable runs): the event's
 * tid, waker_tgid and comm name that task, the waker behind it
 */
#define WP_WAKER_RAISED		(1 << 1)

/*
 * WP_EV_BLOCK, emitted with the sched_switch that takes a tracked task off
 * its CPU asleep (the event's tid): the syscall it sleeps in, from its entry,
 * or with WP_BLOCK_UNTIMED from its registers.
 */
struct wp_block {
	__s64 nr;		/* -1: it slept outside a syscall (a page fault, a lock in the kernel) */
	__u64 arg;
	__u64 arg2;
	__u64 since_ns;		/* the syscall's entry; 0 with nr -1, or untimed */
	__u32 flags;		/* WP_BLOCK_* */
	__u8 fd_kind;		/* enum fd_kind of arg, if the syscall takes an fd */
	__u8 __pad[3];
};

/*
 * wp_block.flags: the syscall was read from the task's registers at its
 * switch-out, and no program runs at its exit (attach mode without
 * --syscall-phases): the wakeup that ends this sleep ends at the switch-in.
 */
#define WP_BLOCK_UNTIMED	(1 << 0)

/*
 * WP_EV_STEAL, written on a CPU right before the first record after its
 * steal clock (KVM's paravirtual kvm_steal_time.steal, read on the CPU
 * itself) moved: the host held this vCPU, runnable, for delta_ns since
 * since_ns, the CPU's previous record. No record of the CPU can fall inside
 * a stolen stretch (the vCPU ran nothing), so it lies in the silence between
 * since_ns and this record; user space places it at the silence's end.
 */
struct wp_steal {
	__u64 steal_ns;		/* the clock now: the host's total for this vCPU */
	__u64 delta_ns;		/* its advance since since_ns */
	__u64 since_ns;		/* the CPU's previous record, when the clock was last read */
	__u64 __pad[2];
};

/*
 * wp_lean - the lean engine's one record per wakeup, written when the wakeup ends:
 * at the wakee's switch-in (the record's ts_ns, its cpu), or, when the
 * switch-in went untraced, at its next switch-out (WP_LEAN_NO_SWITCH_IN).
 * A workload's wakee that slept in a syscall (a new thread: in its clone)
 * is held until it leaves it, and written then: ts_ns and cpu are still
 * its switch-in's, and exit_after says when it left.
 */
struct wp_lean {
	union {
		struct {
			__u64 waking_ns;	/* sched_waking; a new task's sched_wakeup_new */
			__u64 wakeup_ns;	/* sched_wakeup; the same for a new task */
			/*
			 * A workload's syscalls around the wakeup, as wp_lean_span()
			 * keeps a span: the waker's syscall entry, this long before
			 * waking_ns; the wakee's wait's end (its syscall's exit, or
			 * a signal's delivery), this long after ts_ns. 0: not seen
			 * (attach mode, which loads no syscall program; a waker in
			 * an interrupt, or in no syscall; a wakee that slept outside
			 * one, or woke again before it left it).
			 */
			__u32 notify_before;
			__u32 exit_after;
		};
		/* WP_LEAN_NAME: a task's name, in attach mode, when it is first seen and when it changes */
		struct {
			char comm[WP_TASK_COMM_LEN];
			__u32 tgid;
			__u32 __pad;
		};
		/*
		 * WP_LEAN_NAME | WP_LEAN_FUTEX_KEY: the futex word at addr in
		 * process pid lies in a shared mapping of a file (a file in
		 * /dev/shm, shared anonymous memory's shmem): the kernel keys
		 * it by that inode and the word's place in the file, one lock
		 * for every process that maps it (get_futex_key())
		 */
		struct {
			__u64 addr;
			__u64 key_ino;		/* the inode's number, on the device key_dev */
			__u64 key_offset;	/* the word's byte offset in the file */
		};
	};
	__u32 pid;		/* the wakee; WP_LEAN_NAME: the task named; WP_LEAN_FUTEX_KEY: the process */
	union {
		__u32 waker_tid;	/* current at sched_waking: the waker, or the task an interrupt came in on */
		__u32 key_dev;		/* WP_LEAN_FUTEX_KEY: the inode's device (its super block's s_dev) */
	};
	__u16 waking_cpu;
	__u16 wakeup_cpu;	/* where sched_wakeup ran: the target's own for a queued wake */
	__u16 target_cpu;	/* where sched_wakeup placed it */
	__u16 flags;		/* WP_LEAN_* */
};

/* wp_lean_span - a span kept in a wp_lean: ns plus one, so that 0 is "not seen"; 0 too past 4.29 s */
static inline __attribute__((always_inline)) __u32 wp_lean_span(__u64 ns)
{
	return ns < 0xffffffffull ? (__u32)ns + 1 : 0;
}

/* wp_lean_span_ns - the ns a span kept by wp_lean_span() holds; 0 for one not seen */
static inline __attribute__((always_inline)) __u64 wp_lean_span_ns(__u32 span)
{
	return span ? (__u64)span - 1 : 0;
}

/*
 * wp_lean_names - attach mode: who woke a wakee and from which wait, read
 * from registers as full attach mode reads them (wp_waker, wp_block, with
 * WP_WAKER_UNTIMED and WP_BLOCK_UNTIMED), and the idle exit of the CPU it
 * was woken onto: written with WP_LEAN_NAMES in front of the wakeup's own
 * wp_lean, in one ring record of two, the same header on both. A second
 * argument is an op, a count or a tid, and keeps 32 bits.
 */
struct wp_lean_names {
	__u64 waker_arg;	/* SYSCALL: the waker's syscall's first argument */
	__u64 wait_arg;		/* the wait's, when WP_SEEN_WAIT and wait_nr >= 0 */
	__u32 waker_arg2;
	__u32 wait_arg2;
	/*
	 * Each number with the kind of the fd that is its first argument
	 * (enum fd_kind; 0 when it takes none). Before format version 11 the
	 * numbers were 32 bits: a -1 reads as -1 and kind 0xff, a syscall as
	 * itself and kind 0.
	 */
	__s16 waker_nr;		/* SYSCALL: the syscall; else -1 */
	__u8 waker_fd_kind;
	__u8 __pad0;
	__s16 wait_nr;		/* -1: it slept outside a syscall, or its sleep was not seen */
	__u8 wait_fd_kind;
	__u8 __pad1;
	/*
	 * WP_SEEN_IDLE: the CPU the task last ran on was idle at its sched_waking,
	 * and left idle this many ns after it, plus one; WP_IDLE_EXIT_UNSEEN: idle,
	 * its exit not seen; 0: not idle
	 */
	__u32 idle_exit;
	__u8 waker_class;	/* enum wp_waker_class; 0: not read (WP_LEAN_WAKER_UNSURE) */
	__u8 seen;		/* WP_SEEN_* */
	__u16 flags;		/* WP_LEAN_NAMES, where wp_lean has its flags */
};

/*
 * wp_lean_stacks - --stacks: where a wakeup's waker woke it
 * and where its wakee went to sleep, each an id in the stacks map (a stack
 * trace map: each distinct stack once, bpf_get_stackid()), or why there is
 * none: WP_STACK_NONE not taken (a waker's user stack in an interrupt, a
 * new thread's wait), -EFAULT none to take (a kernel thread's user stack),
 * -EEXIST another stack holds its slot, -ENOMEM the map is full. It rides
 * between a wakeup's wp_lean_names and its wp_lean, in the same ring
 * record (a workload's: in front of its wp_lean), flagged WP_LEAN_NAMES |
 * WP_LEAN_STACKS.
 */
struct wp_lean_stacks {
	__s32 waker_kernel;	/* sched_waking's: the waker's, or the interrupt's */
	__s32 waker_user;
	__s32 wait_kernel;	/* the wakee's switch-out to the sleep this wakeup ended */
	__s32 wait_user;
	__u32 waker_tgid;	/* whose mappings name waker_user's addresses */
	__u32 wakee_tgid;	/* ... and wait_user's */
	__u32 wakee_tid;	/* whose wakeup it is: the copies that went before it are of its wakee */
	__u32 __pad[2];
	__u16 copied;		/* WP_COPY_WAKER, WP_COPY_WAIT: a WP_EV_STACK_COPY of that stack went before it */
	__u16 flags;		/* WP_LEAN_NAMES | WP_LEAN_STACKS, where wp_lean has its flags */
};

/*
 * --stacks: a copy of the top of a user stack, with the registers the task
 * entered the kernel with, for wakeprobe to unwind by the objects' call
 * frame information (.eh_frame), where a frame pointer walk is cut short by
 * code built without them. The copy runs from the stack pointer up, to
 * WP_STACK_COPY_MAX bytes or the end of the stack's mapping, whichever
 * comes first. Written to the ring just before the record of the wakeup it
 * belongs to, as one record of its own, its length what it holds
 * (offsetof bytes + len): a WP_EV_LEAN record flagged WP_LEAN_NAMES |
 * WP_LEAN_COPY, the one record read past its first 64 bytes.
 */
#define WP_COPY_WAKER		(1 << 0)	/* the waker's, where it woke the wakee */
#define WP_COPY_WAIT		(1 << 1)	/* the wakee's, where it went to sleep */
#define WP_STACK_COPY_MAX	8192		/* a power of two */
#define WP_STACK_COPY_CHUNK	4096		/* read a page at a time: the first that faults ends the copy */
/* the registers of a copy, in DWARF's numbering for x86-64: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, rip */
#define WP_UNWIND_REGS		17

struct wp_copy {
	__u64 sp;		/* where bytes[0] lies in the task's address space */
	__u32 tgid;		/* whose address space */
	__u32 wakee_tid;	/* the wakeup's it is, by its wakee */
	__u32 len;		/* bytes copied */
	__u16 which;		/* WP_COPY_WAKER or WP_COPY_WAIT */
	__u16 __pad;
	__u64 __pad1;
	__u32 tid;		/* whose stack */
	__u16 __pad3;
	__u16 flags;		/* WP_LEAN_NAMES | WP_LEAN_COPY, where wp_lean has its flags */
};

/* the threads whose stack's top wakeprobe learned (unwind_tops), at most: past them, the least recent go */
#define WP_UNWIND_TOPS		16384

/*
 * wp_lean_cgroups - --all, --cgroup, --listen: the cgroups (v2) of a
 * wakeup, each by its id (the kernfs id of its directory, the inode number
 * user space sees there): the wakee's at its switch-in, its waker's at the
 * waking, and the one of the task that held the CPU until the wakee ran:
 * the task the wakee's switch-in took the CPU from. It rides after a
 * wakeup's wp_lean_names (and wp_lean_stacks), before its wp_lean, in the
 * same ring record, flagged WP_LEAN_NAMES | WP_LEAN_CGROUPS.
 */
struct wp_lean_cgroups {
	__u64 wakee;
	__u64 waker;		/* 0: an interrupt woke it, no task's doing (a softirq a task raised is that task's) */
	__u64 holder;		/* 0: holder_tid 0, the CPU was idle until the wakee ran */
	__u32 holder_tid;
	__u32 __pad[2];
	__u16 __pad1;
	__u16 flags;		/* WP_LEAN_NAMES | WP_LEAN_CGROUPS, where wp_lean has its flags */
};

/* the links of a wakeup's chain the lean engine carries in its record (--chains), one record part each */
#define WP_CHAIN_LINKS		4

/*
 * Who ran a link's waking, wp_lean_link.kind. A thread's link goes on to
 * the chain that brought that thread to run; any other ends the chain.
 */
enum wp_link_kind {
	WP_LINK_NONE,		/* no link: the chain the waker carried ended before it */
	WP_LINK_THREAD,		/* a traced thread */
	WP_LINK_RAISED,		/* a softirq that a traced thread raised in its own context: that thread */
	WP_LINK_NEW,		/* a traced thread that made it (clone): its first run */
	WP_LINK_UNTRACED,	/* a thread wakeprobe does not trace (another process, a kernel thread) */
	WP_LINK_IRQ,		/* a hard interrupt, a timer's expiry too */
	WP_LINK_SOFTIRQ,	/* a softirq no thread raised in its own context */
	WP_LINK_UNSURE,		/* the waking's context could not be read */
	WP_LINK_KINDS,
};

/*
 * wp_lean_link - --chains: one link of the chain behind a wakeup: a waking
 * (waker_tid woke wakee_tid), and how that waker came to run before it.
 * Link 0 is the wakeup's own waking; link i + 1 the one that ended the
 * sleep of link i's waker, copied from that waker's storage when it woke,
 * so that a chain needs nothing the kernel has since let go. It rides after
 * a wakeup's names (stacks, cgroups), before its wp_lean, in the same ring
 * record, flagged WP_LEAN_NAMES | WP_LEAN_LINK. Spans are wp_lean_span()'s.
 */
struct wp_lean_link {
	__u32 waker_tid;	/* the waker; in interrupt work, the task it came in on (0: the idle task) */
	__u32 wakee_tid;
	__u32 blocked;		/* the wakee had slept this long at the waking (span; 0: its sleep not seen) */
	__u32 ran;		/* THREAD, RAISED, NEW: the waker's switch-in to the waking (span; 0: not seen) */
	__u32 preempted;	/* ... of which it spent this long runnable, preempted (ns) */
	__u32 runnable;		/* ... the waking of its own last wakeup to that switch-in (span) */
	__u32 holder_tid;	/* ... the task that switch-in took the CPU from; 0: the CPU was idle */
	__u16 cpu;		/* ... the CPU it ran on */
	__s16 nr;		/* attach mode, a thread: the syscall it woke from (the mechanism); -1: none or not read */
	__u8 kind;		/* enum wp_link_kind */
	__u8 fd_kind;		/* enum fd_kind of nr's first argument */
	__u16 __pad[2];
	__u16 flags;		/* WP_LEAN_NAMES | WP_LEAN_LINK, where wp_lean has its flags */
};

#define WP_STACK_NONE		(-1)
/* the frames a stack keeps, at most: perf's default (kernel.perf_event_max_stack) */
#define WP_STACK_DEPTH		127

#define WP_SEEN_WAIT		(1 << 0)	/* its switch-out to this sleep was traced: wait_* tell the wait */
#define WP_SEEN_IDLE		(1 << 1)	/* idle transitions were traced (the flight recorder): idle_exit */
/* a SOFTIRQ waker raised by the wakeup's waker_tid in its own context (WP_WAKER_RAISED); waker_nr its vector */
#define WP_SEEN_RAISED		(1 << 2)
#define WP_IDLE_EXIT_UNSEEN	0xffffffffu

/* the most struct wp_event one ring record holds: a wakeup's wp_lean_names, wp_lean_stacks, wp_lean_cgroups, links, wp_lean */
#define WP_RECORD_PARTS		(4 + WP_CHAIN_LINKS)

#define WP_LEAN_NEW		(1 << 0)	/* a new task's first run: sched_wakeup_new */
#define WP_LEAN_NO_SWITCH_IN	(1 << 1)	/* it ran, but its switch-in was not traced */
#define WP_LEAN_STATE_UNKNOWN	(1 << 2)	/* not seen to go to sleep: asleep since before tracking */
#define WP_LEAN_WAKER_IRQ	(1 << 3)	/* sched_waking ran in a hard interrupt (a timer's too) */
#define WP_LEAN_WAKER_SOFTIRQ	(1 << 4)	/* ... serving a softirq, in irq exit or ksoftirqd */
#define WP_LEAN_WAKER_UNSURE	(1 << 5)	/* ... its context could not be read: waker_tid may be the interrupted task */
#define WP_LEAN_NAMES		(1 << 6)	/* not a wakeup: wp_lean_names, of the wakeup next in its ring record */
#define WP_LEAN_MOVED		(1 << 7)	/* woken onto another CPU than the one it last ran on */
#define WP_LEAN_NAME		(1 << 8)	/* not a wakeup: the name of task pid (comm, tgid) */
#define WP_LEAN_TRACKED		(1 << 9)	/* WP_LEAN_NAME: a task of a tracked process */
/* a workload's slow wakeup (no name record): its flight records reach back to its notify, on the waker's CPU */
#define WP_LEAN_NOTIFY_SEEN	(1 << 9)
#define WP_LEAN_KTHREAD		(1 << 10)	/* WP_LEAN_NAME: a kernel thread */
/* a workload's wakeup (no name record): flight records of its CPU from its switch-in to its wait's exit came */
#define WP_LEAN_RESUME_SEEN	(1 << 10)
/* WP_LEAN_NAME: the task's last switch-out, in TASK_DEAD: it ended (a name record has no flight count) */
#define WP_LEAN_ENDED		(1 << 11)
/* with WP_LEAN_NAME: not a name, the key of a shared futex (wp_lean's addr, key_*) */
#define WP_LEAN_FUTEX_KEY	(1 << 12)
/* with WP_LEAN_NAMES: not the names, the stacks (wp_lean_stacks) of the wakeup last in its ring record */
#define WP_LEAN_STACKS		(1 << 12)
/* with WP_LEAN_NAMES: not the names, the cgroups (wp_lean_cgroups) of the wakeup last in its ring record */
#define WP_LEAN_CGROUPS		(1 << 13)
/* with WP_LEAN_NAMES: not the names, a link (wp_lean_link) of the chain of the wakeup last in its ring record */
#define WP_LEAN_LINK		(1 << 14)
/* with WP_LEAN_NAMES: not the names, a copy of a user stack (struct wp_stack_copy), a ring record of its own */
#define WP_LEAN_COPY		(1 << 15)
/* the futex words of tracked processes whose mapping the lean engine looked up, at most (an LRU) */
#define WP_FUTEXES_LOOKED_UP	4096
/*
 * A slow wakeup's flight records (--threshold-us): how many of its CPU's
 * switches and idle transitions were copied into the ring just before this
 * record, with no other record of that CPU between; at most WP_LEAN_FLIGHT_MAX.
 */
#define WP_LEAN_FLIGHT_SHIFT	11
#define WP_LEAN_FLIGHT_MAX	31
#define wp_lean_flight(flags)	(((flags) >> WP_LEAN_FLIGHT_SHIFT) & WP_LEAN_FLIGHT_MAX)

/*
 * The buckets in which the lean engine's flight recorder counts each wakeup's
 * waking to switch-in, per CPU, so that without --threshold-us wakeprobe
 * can set the threshold to their running p99: four a power of two, the
 * lowest value of each within 25% of its highest. Both sides bucket alike.
 */
#define WP_SLOW_BUCKETS		256

/* the flight recorder's count of the wakeups of a kind yet to bring their records, when nothing bounds it */
#define WP_FLIGHT_UNBOUNDED	(1ll << 62)

/*
 * ... by the kind of their waker, each kind with a threshold of its own: a
 * thread (or one not told), a hard interrupt (a timer's expiry too), a
 * softirq. A workload's pacing timer or a server's network softirq has a
 * tail of its own, which would hide the threads' p99 in one threshold.
 */
enum wp_slow_kind {
	WP_SLOW_THREAD,
	WP_SLOW_IRQ,
	WP_SLOW_SOFTIRQ,
	WP_SLOW_KINDS,
};

/* wp_slow_kind_of - the kind of a lean record's waker, from its WP_LEAN_WAKER_* flags */
static inline __attribute__((always_inline)) __u32 wp_slow_kind_of(__u16 lean_flags)
{
	if (lean_flags & WP_LEAN_WAKER_IRQ)
		return WP_SLOW_IRQ;
	if (lean_flags & WP_LEAN_WAKER_SOFTIRQ)
		return WP_SLOW_SOFTIRQ;
	return WP_SLOW_THREAD;
}

/*
 * wp_log2 - floor(log2(@v)), @v > 0; no loop, for the verifier, and no
 * branch but for the top bit: BPF has no conditional move, and a wakeup
 * takes five of these, whose branches on its times the CPU cannot guess.
 * Each step's test, @v above 2^k - 1, is the borrow of (2^k - 1) - @v,
 * good while @v is below 2^63.
 */
static inline __attribute__((always_inline)) __u32 wp_log2(__u64 v)
{
	__u64 r, s;

	if (v >> 63)
		return 63;
	r = ((0xffffffffull - v) >> 63) << 5;
	v >>= r;
	s = ((0xffffull - v) >> 63) << 4;
	v >>= s;
	r |= s;
	s = ((0xffull - v) >> 63) << 3;
	v >>= s;
	r |= s;
	s = ((0xfull - v) >> 63) << 2;
	v >>= s;
	r |= s;
	s = ((0x3ull - v) >> 63) << 1;
	v >>= s;
	r |= s;
	return (__u32)(r | (v >> 1));
}

/* wp_slow_bucket - the bucket of @ns: itself below 4, then 4 a power of two */
static inline __attribute__((always_inline)) __u32 wp_slow_bucket(__u64 ns)
{
	__u32 k;

	if (ns < 4)
		return (__u32)ns;
	k = wp_log2(ns);
	return (k << 2) | (__u32)((ns >> (k - 2)) & 3);
}

/* wp_slow_bucket_floor - the least value of bucket @b; 4 to 7 are never given, and hold nothing */
static inline __attribute__((always_inline)) __u64 wp_slow_bucket_floor(__u32 b)
{
	if (b < 8)
		return b < 4 ? b : 4;
	return (__u64)(4 | (b & 3)) << ((b >> 2) - 2);
}

struct wp_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 type;		/* enum wp_event_type */
	__u32 cpu;		/* CPU that ran the tracepoint */
	__u32 tid;		/* current task on that CPU */
	/*
	 * Ring buffer reserve failures counted so far. When two consecutive
	 * records differ here, events were lost between them, and the samples
	 * overlapping that gap are marked instead of being attributed.
	 */
	__u32 drops;
	union {
		struct wp_switch sw;
		struct wp_wake wake;
		struct wp_sys sys;
		struct wp_idle idle;
		struct wp_fork fork;
		struct wp_signal signal;
		struct wp_irq irq;
		struct wp_migrate migrate;
		struct wp_waker waker;
		struct wp_block block;
		struct wp_steal steal;
		struct wp_lean lean;
		struct wp_lean_names lean_names;
		struct wp_lean_stacks lean_stacks;
		struct wp_lean_cgroups lean_cgroups;
		struct wp_lean_link lean_link;
		struct wp_copy copy;
	};
};

/* a WP_EV_STACK_COPY record: its header, the registers, the stack's bytes */
struct wp_stack_copy {
	struct wp_event head;
	__u64 regs[WP_UNWIND_REGS];
	__u8 bytes[WP_STACK_COPY_MAX + WP_STACK_COPY_CHUNK];	/* the chunk past the end: room the verifier can see */
};

_Static_assert(__builtin_offsetof(struct wp_lean_names, flags) == __builtin_offsetof(struct wp_lean, flags),
	       "a lean record's flags tell its kind: one place in both");
_Static_assert(sizeof(struct wp_lean_names) == sizeof(struct wp_lean), "one union member's size");
_Static_assert(__builtin_offsetof(struct wp_lean_stacks, flags) == __builtin_offsetof(struct wp_lean, flags),
	       "a lean record's flags tell its kind: one place in all");
_Static_assert(sizeof(struct wp_lean_stacks) == sizeof(struct wp_lean), "one union member's size");
_Static_assert(__builtin_offsetof(struct wp_lean_cgroups, flags) == __builtin_offsetof(struct wp_lean, flags),
	       "a lean record's flags tell its kind: one place in all");
_Static_assert(sizeof(struct wp_lean_cgroups) == sizeof(struct wp_lean), "one union member's size");
_Static_assert(__builtin_offsetof(struct wp_lean_link, flags) == __builtin_offsetof(struct wp_lean, flags),
	       "a lean record's flags tell its kind: one place in all");
_Static_assert(sizeof(struct wp_lean_link) == sizeof(struct wp_lean), "one union member's size");
_Static_assert(__builtin_offsetof(struct wp_copy, flags) == __builtin_offsetof(struct wp_lean, flags),
	       "a lean record's flags tell its kind: one place in all");
_Static_assert(sizeof(struct wp_copy) == sizeof(struct wp_lean), "one union member's size");

/*
 * include/linux/sched.h: the state do_task_dead() leaves a task's CPU in,
 * for good: a sched_switch whose prev_state has it ends a thread.
 * tp_btf's sched_switch passes prev->__state as it is (v5.18+), and no
 * other state has this bit.
 */
#define WP_TASK_DEAD		0x80

/*
 * wp_switch_slept - did the task that a sched_switch took off its CPU go to
 * sleep? tp_btf passes the raw prev_state, which a task preempted between
 * setting its sleeping state and calling schedule() still carries: preempted,
 * it stays runnable. One rule for the BPF side and the analysis.
 */
static inline __attribute__((always_inline)) int wp_switch_slept(__u32 prev_state, __u32 preempt)
{
	return prev_state && !preempt;
}

/*
 * wp_futex_op_wakes - can this futex(2) op wake a waiter? The BPF side
 * watches a waker's CPU only for such a call, and wakeprobe takes only such
 * a call as a notify: one list for both. The numbers are uapi linux/futex.h
 * (not includable from BPF); the PRIVATE (128) and CLOCK_REALTIME (256)
 * flags are masked off.
 */
static inline __attribute__((always_inline)) int wp_futex_op_wakes(__u64 op)
{
	switch (op & ~(__u64)(128 | 256)) {
	case 1:		/* FUTEX_WAKE */
	case 3:		/* FUTEX_REQUEUE */
	case 4:		/* FUTEX_CMP_REQUEUE */
	case 5:		/* FUTEX_WAKE_OP */
	case 7:		/* FUTEX_UNLOCK_PI */
	case 10:	/* FUTEX_WAKE_BITSET */
	case 12:	/* FUTEX_CMP_REQUEUE_PI */
		return 1;
	default:
		return 0;
	}
}

/* syscall_wanted[] bits: which end of a syscall bounds a phase */
#define WP_SYSCALL_ENTER	(1 << 0)
#define WP_SYSCALL_EXIT		(1 << 1)
#define WP_SYSCALL_NOTIFY	(1 << 2)	/* a notify: watch the CPU while it runs */

/* counters kept in BPF .bss and read by wakeprobe at exit */
struct wp_counters {
	__u64 dropped[WP_EV_TYPE_MAX];	/* failed bpf_ringbuf_reserve, by event type */
	__u64 tracked_full;		/* a fork that could not be tracked: map full */
	__u64 steal_bad_cpus;		/* CPUs whose steal clock failed the check: not read there */
};

/*
 * --stacks: what taking the stacks cost the programs, timed around each
 * pair of bpf_get_stackid() calls (two clock reads each: the cost line
 * says what the stacks added, not what the whole run cost)
 */
struct wp_stack_cost {
	__u64 ns;		/* the programs' time in the calls */
	__u64 taken;		/* stacks asked for (kept or not) */
	__u64 not_kept;		/* ... that the map did not keep: another held the slot, or it was full */
	/* the copies to unwind (struct wp_stack_copy) */
	__u64 copy_ns;		/* the programs' time taking them */
	__u64 copies;		/* taken, into the wakee's storage */
	__u64 copied_bytes;	/* ... and their bytes */
	__u64 sent_slow;	/* written to the ring: a slow wakeup's */
	__u64 sent_budget;	/* ... another's, within the budget */
	__u64 sent_bytes;	/* ... their records' bytes */
	__u64 over_budget;	/* wakeups whose copies stayed behind: the budget was spent */
	__u64 lost;		/* copies that found the ring full */
};

/* the lean engine's count of the wakes that end in no record */
struct wp_lean_counters {
	__u64 woke_running;	/* sched_wakeup found the task on its CPU or preempted: it never slept */
	__u64 wakeup_unpaired;	/* a sched_wakeup with no sched_waking before it since the last switch */
	__u64 no_storage;	/* task storage could not be had: the task's wakes go unrecorded */
};

/*
 * The service's sums (--listen; bpf/sums.bpf.h). A service does not send
 * each wakeup to user space: those its flight recorder does not judge slow
 * are summed where they end, in the maps below, which wakeprobe reads once
 * a second, and only the slow ones (with their evidence) and the names
 * met for the first time leave as records. What the sums keep is what the
 * records would have made of those wakeups in the service's tables.
 */

/* the family a mechanism belongs to: what a summary groups by (the sums name it in the kernel) */
enum mech_family {
	MECH_UNKNOWN,		/* no waker record and no wait: nothing to name */
	MECH_FUTEX,
	MECH_EVENTFD,
	MECH_PIPE,
	MECH_UNIX_SOCKET,
	MECH_SOCKET,		/* tcp, udp, other sockets */
	MECH_EPOLL,		/* the wakee waited in epoll_wait, poll or select */
	MECH_TIMER,		/* a sleep or a timeout ended, or a timerfd fired */
	MECH_SIGNAL,
	MECH_IRQ,
	MECH_SOFTIRQ,
	MECH_KTHREAD,
	MECH_PROCESS,		/* a process that is not tracked */
	MECH_OTHER,		/* a syscall of none of the above */
	MECH_START,		/* a new thread or process runs for the first time */
	MECH_MQUEUE,		/* a POSIX message queue */
	MECH_EXIT,		/* a wakee in wait4() or waitid(): a child ended, or stopped */
	NR_MECH_FAMILIES,
};

/*
 * What a syscall is to a mechanism's family, by number (struct
 * wp_mech_tables): user space fills the table from its own predicates
 * (mechanism__syscall_roles()) before the programs load, so that the
 * kernel's families are the user space's by construction
 */
#define WP_ROLE_WAKE_FUTEX	0x01	/* a waker in it wakes a futex */
#define WP_ROLE_SIGNAL_SEND	0x02
#define WP_ROLE_TAKES_FD	0x04	/* its first argument is an fd */
#define WP_ROLE_WAIT_FUTEX	0x08	/* a sleeper in it waits on a futex */
#define WP_ROLE_SIGNAL_WAIT	0x10
#define WP_ROLE_SLEEP		0x20	/* nanosleep, clock_nanosleep */
#define WP_ROLE_CHILD_WAIT	0x40	/* wait4, waitid */
#define WP_ROLE_MULTIPLEXER	0x80	/* epoll_wait, poll, select and theirs */

/* the fd kinds' table, a power of two that holds them all: an index masked to it is in bounds */
#define WP_FD_FAMILIES		32
_Static_assert(NR_FD_KINDS <= WP_FD_FAMILIES, "every fd kind has its family");

struct wp_mech_tables {
	__u8 roles[WP_MAX_SYSCALLS];		/* WP_ROLE_* by syscall number */
	__u8 fd_family[WP_FD_FAMILIES];		/* enum mech_family of an fd of each enum fd_kind */
};

/*
 * wp_mech_family - the family of a wakeup's mechanism, from its two ends:
 * the waker's class (enum wp_waker_class, 0: not read), its syscall's
 * roles (WP_ROLE_*) and the family of that syscall's fd; whether the wait
 * is known, whether it is a new task's start, the roles of the syscall it
 * slept in (0: none) and its fd's family. Each side looks the roles and
 * families up in its struct wp_mech_tables as its bounds checks want;
 * mechanism__family()'s rules, which the unit tests hold it to.
 */
static inline __attribute__((always_inline)) __u8 wp_mech_family(__u8 cls, __u8 waker_role, __u8 waker_fd_family,
								  int have_wait, int start, __u8 wait_role,
								  __u8 wait_fd_family)
{
	__u8 f = MECH_UNKNOWN;

	switch (cls) {
	case WP_WAKER_IRQ:
		return MECH_IRQ;
	case WP_WAKER_SOFTIRQ:
		return MECH_SOFTIRQ;
	case WP_WAKER_KTHREAD:
		return MECH_KTHREAD;
	case WP_WAKER_PROCESS:
		return MECH_PROCESS;
	case WP_WAKER_TIMER:
		return MECH_TIMER;
	default:
		break;
	}
	if (have_wait && start)
		return MECH_START;
	/* a wakee in a multiplexer waited for whatever fd became ready: that it waited there is the news */
	if (have_wait && (wait_role & WP_ROLE_MULTIPLEXER))
		return MECH_EPOLL;
	if (cls == WP_WAKER_SYSCALL) {
		if (waker_role & WP_ROLE_WAKE_FUTEX)
			f = MECH_FUTEX;
		else if (waker_role & WP_ROLE_SIGNAL_SEND)
			f = MECH_SIGNAL;
		else if (waker_role & WP_ROLE_TAKES_FD)
			f = waker_fd_family;
	}
	if (f == MECH_UNKNOWN && have_wait) {
		if (wait_role & WP_ROLE_WAIT_FUTEX)
			f = MECH_FUTEX;
		else if (wait_role & WP_ROLE_SIGNAL_WAIT)
			f = MECH_SIGNAL;
		else if (wait_role & WP_ROLE_SLEEP)
			f = MECH_TIMER;
		else if (wait_role & WP_ROLE_CHILD_WAIT)
			f = MECH_EXIT;
		else if (wait_role & WP_ROLE_TAKES_FD)
			f = wait_fd_family;
	}
	if (f == MECH_UNKNOWN && (cls || have_wait))
		f = MECH_OTHER;
	return f;
}

/*
 * The machine's histograms of the summed wakeups, per CPU: struct
 * histogram's buckets (user/lib/histogram.h: each value below 128 its
 * own, then 128 a power of two) up to 2^36 - 1 ns, 68.7 s, a longer value
 * in the last; 30 KiB, within a per-CPU value's 32.
 */
#define WP_SUM_HIST_BUCKETS	3840

enum wp_sum_hist_kind {
	WP_SUM_WAKE_ENQUEUE,	/* sched_waking -> sched_wakeup */
	WP_SUM_RUNQ_WAIT,	/* sched_wakeup -> the switch-in */
	WP_SUM_WAKE_TO_RUN,	/* sched_waking -> the switch-in */
	WP_SUM_IDLE_EXIT,	/* the waking -> the exit of the idle the CPU it last ran on was in */
	WP_SUM_HISTS,
};

struct wp_sum_hist {
	__u64 count;
	__u64 sum;
	__u64 min;		/* 0 while empty: count says */
	__u64 max;
	__u64 buckets[WP_SUM_HIST_BUCKETS];
};

/* wp_sum_bucket - histogram__bucket_of(@v), but for a value of 2^36 ns or more: the last bucket */
static inline __attribute__((always_inline)) __u32 wp_sum_bucket(__u64 v)
{
	__u32 e;

	if (v < 128)
		return (__u32)v;
	e = wp_log2(v);
	if (e > 35)
		return WP_SUM_HIST_BUCKETS - 1;
	return (e - 6) * 128 + (__u32)(v >> (e - 7)) - 128;
}

/* wp_sum_hist_add - @v into @h, one CPU's: both the kernel and the tests' model of it add so */
static inline __attribute__((always_inline)) void wp_sum_hist_add(struct wp_sum_hist *h, __u64 v)
{
	__u32 b = wp_sum_bucket(v);

	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	if (b < WP_SUM_HIST_BUCKETS)
		h->buckets[b]++;
}

/*
 * the summed wakeups' counts, per CPU: the few a wakeup touches; their
 * families and their time are the keyed sums' (struct wp_sum_val), their
 * totals the classes' sums
 */
struct wp_sum_counts {
	__u64 by_class[WP_WAKER_CLASS_MAX];	/* every one by its waker's class, 0: not read */
	__u64 complete_by_class[WP_WAKER_CLASS_MAX];	/* ... of them the complete ones */
	__u64 softirq_raised;			/* of by_class[SOFTIRQ]: raised by the task they ran in */
	__u64 new_threads;			/* a new task's first run (WP_LEAN_NEW) */
	/* the complete ones */
	__u64 no_wait_syscall;			/* it slept outside any syscall */
	__u64 target_idle;			/* the CPU it last ran on was idle at its waking */
	__u64 remote;				/* sched_wakeup ran on another CPU than sched_waking */
	/* not summed, sent as records: one of the maps by cgroup was full */
	__u64 refused;
};

/*
 * a wakee cgroup's summed wakeups, in a slot of their own (id 0: a free
 * slot): their wake-to-run in wp_slow_bucket()'s buckets, whose sum is
 * their count. The max is raised by a plain store: two CPUs raising it at
 * once may leave the smaller of their two new maxima, both above the one
 * before.
 */
struct wp_sum_cgroup {
	__u64 id;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 buckets[WP_SLOW_BUCKETS];
};

/*
 * the rest by (wakee cgroup, holder cgroup, waker cgroup, mechanism
 * family), one entry a wakeup: holder 0 the CPU was idle, waker 0
 * interrupt work. The cgroups' run-queue wait, their holders' and their
 * pairs' sums are its sums over the others.
 */
struct wp_sum_key {
	__u64 wakee;
	__u64 holder;
	__u64 waker;
	__u32 family;
	__u32 __pad;
};

struct wp_sum_val {
	__u64 wakeups;
	__u64 wake_to_run_ns;
	__u64 runq_wait_ns;	/* sched_wakeup -> the switch-in */
};

/* a key's slot, one cache line: its key (wakee 0: a free slot), its wakee's slot, its sums */
struct wp_sum_slot {
	struct wp_sum_key key;
	__u32 cgroup_slot;
	__u32 __pad;
	struct wp_sum_val val;
};

#endif /* WAKEPROBE_BPF_H */
