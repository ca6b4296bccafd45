// SPDX-License-Identifier: GPL-2.0
/*
 * wakeprobe.bpf.c - kernel side of wakeprobe: one object, one skeleton,
 * made of the rooms below, headers included once each, in this order.
 *
 * Two engines share it. The lean one (lean.bpf.h), the default, pairs each
 * wakeup in the kernel and sends one record for it; the full one
 * (full.bpf.h, --engine full) sends a record for every event of the
 * tracked and leaves the pairing to user space. user/live/collector.c
 * loads one or the other by the programs' names, lean_* or handle_*.
 *
 * Headers into one object, not objects that bpftool links: the helpers
 * are static inline and the maps and settings one set, which each object
 * would have to declare again, extern; and the compiler sees the whole as
 * it saw the one file, so the programs are the same instructions and the
 * object loads as fast.
 *
 * The order is the object's, which the compiler takes from the source.
 * First the rooms that define no program, each after those it uses: their
 * maps and globals are defined in the order of the skeleton's fields and
 * of .rodata's and .bss's layout. Then the programs, in the order libbpf
 * loads and attaches them and wakeprobe lists them: the full engine's,
 * the interrupts' between its switches and its syscalls, the fork
 * tracker, and last the lean engine's, which share sections with the
 * full engine's and follow them there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#include "maps.bpf.h"		/* load-time settings, the shared maps, each CPU's state */
#include "tasks.bpf.h"		/* a task's ids, cgroup, tracked-ness, syscall by its registers */
#include "cpu.bpf.h"		/* a CPU's watch, steal clock, preempt count, interrupt context */
#include "ring.bpf.h"		/* records into the ring buffer, drops, SWITCH and IRQ fills */
#include "fd_kind.bpf.h"	/* what an fd is: socket, pipe, tty, anonymous inode... */
#include "lean_task.bpf.h"	/* the lean engine's state of each task */
#include "flight.bpf.h"		/* the flight recorder: per-CPU rings, a slow wakeup's evidence */
#include "futex.bpf.h"		/* the keys of shared futexes */
#include "unwind.bpf.h"		/* --stacks: copies of user stacks, unwound by wakeprobe */

#include "full.bpf.h"		/* the full engine: switches, wakes, idle; attach mode's WAKER, BLOCK */
#include "irq.bpf.h"		/* interrupts, for both engines */
#include "full_syscalls.bpf.h"	/* the full engine: migrations, syscalls, signals */
#include "fork.bpf.h"		/* the fork tracker, for both engines */
#include "lean.bpf.h"		/* the lean engine */
