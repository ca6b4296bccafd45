/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - synthetic kernel events for the unit tests: one builder per
 * record the BPF side writes, each a struct wp_event with every field it
 * does not name zero, as the merger, the explainer, the timeline and the
 * recorder get them from the ring. Times are absolute; a test that counts
 * from its own T0 adds it. Every task here runs at the default prio, 120.
 */
#ifndef WAKEPROBE_TEST_EVENTS_H
#define WAKEPROBE_TEST_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include "wakeprobe.h"

#define EV_PRIO		120

/* ev - an event of @type at @ts on @cpu, in task @tid; its payload zero */
static inline struct wp_event ev(uint64_t ts, enum wp_event_type type, uint32_t cpu, uint32_t tid)
{
	struct wp_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.type = type;
	e.cpu = cpu;
	e.tid = tid;
	return e;
}

/* ev_sys_enter - @tid enters syscall @nr with @arg (an fd, or a futex address) as its first argument */
static inline struct wp_event ev_sys_enter(uint64_t ts, uint32_t cpu, uint32_t tid, int64_t nr, uint64_t arg)
{
	struct wp_event e = ev(ts, WP_EV_SYS_ENTER, cpu, tid);

	e.sys.nr = nr;
	e.sys.arg = arg;
	return e;
}

/* ev_sys_exit - syscall @nr of @tid returns @ret */
static inline struct wp_event ev_sys_exit(uint64_t ts, uint32_t cpu, uint32_t tid, int64_t nr, int64_t ret)
{
	struct wp_event e = ev(ts, WP_EV_SYS_EXIT, cpu, tid);

	e.sys.nr = nr;
	e.sys.arg = (uint64_t)ret;
	return e;
}

/*
 * ev_wake - a sched_waking or sched_wakeup (@type) of @wakee, run by
 * @current on @cpu; @target_cpu is the wakee's CPU, idle since
 * @target_idle_since (0: it was not idle)
 */
static inline struct wp_event ev_wake(uint64_t ts, enum wp_event_type type, uint32_t cpu, uint32_t current,
				      uint32_t wakee, uint32_t target_cpu, uint64_t target_idle_since)
{
	struct wp_event e = ev(ts, type, cpu, current);

	e.wake.pid = wakee;
	e.wake.target_cpu = target_cpu;
	e.wake.target_idle_since_ns = target_idle_since;
	return e;
}

/* ev_waking - sched_waking runs in the waker's context, on the waker's CPU */
static inline struct wp_event ev_waking(uint64_t ts, uint32_t cpu, uint32_t waker, uint32_t wakee,
					uint32_t target_cpu, uint64_t target_idle_since)
{
	return ev_wake(ts, WP_EV_WAKING, cpu, waker, wakee, target_cpu, target_idle_since);
}

/* ev_wakeup - sched_wakeup runs wherever the task is enqueued: for a queued remote wakeup, the target itself */
static inline struct wp_event ev_wakeup(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t wakee,
					uint32_t target_cpu)
{
	return ev_wake(ts, WP_EV_WAKEUP, cpu, current, wakee, target_cpu, 0);
}

/*
 * ev_wakeup_new - sched_wakeup_new of the task @child that @parent's clone()
 * just made, on @parent's CPU: the waking and the wakeup in one record
 */
static inline struct wp_event ev_wakeup_new(uint64_t ts, uint32_t cpu, uint32_t parent, uint32_t child,
					    uint32_t target_cpu, uint64_t target_idle_since)
{
	struct wp_event e = ev_wake(ts, WP_EV_WAKEUP, cpu, parent, child, target_cpu, target_idle_since);

	e.wake.flags = WP_WAKE_NEW;
	return e;
}

/* with_target_curr - @e, a waking, found task @pid named @comm running on the target CPU */
static inline struct wp_event with_target_curr(struct wp_event e, uint32_t pid, const char *comm)
{
	e.wake.target_curr_pid = pid;
	e.wake.target_curr_prio = EV_PRIO;
	snprintf(e.wake.target_curr_comm, sizeof(e.wake.target_curr_comm), "%s", comm);
	return e;
}

/*
 * ev_switch - @cpu switches from @prev to @next; @prev_state is the state
 * prev leaves in (0: runnable), @preempt whether it was preempted
 */
static inline struct wp_event ev_switch(uint64_t ts, uint32_t cpu, uint32_t prev, uint32_t next,
					uint32_t prev_state, uint32_t preempt)
{
	struct wp_event e = ev(ts, WP_EV_SWITCH, cpu, prev);

	e.sw.prev_tid = prev;
	e.sw.next_tid = next;
	e.sw.prev_state = prev_state;
	e.sw.prev_prio = EV_PRIO;
	e.sw.next_prio = EV_PRIO;
	e.sw.preempt = preempt;
	return e;
}

/*
 * ev_lean - the lean engine's record of @wakee's wakeup, written at @ts on @cpu
 * (its switch-in, or with WP_LEAN_NO_SWITCH_IN its next switch-out): woken
 * by @waker on @waking_cpu at @waking, queued on @cpu at @wakeup
 */
static inline struct wp_event ev_lean(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t wakee, uint32_t waker,
				      uint32_t waking_cpu, uint64_t waking, uint64_t wakeup, uint16_t flags)
{
	struct wp_event e = ev(ts, WP_EV_LEAN, cpu, current);

	e.lean.waking_ns = waking;
	e.lean.wakeup_ns = wakeup;
	e.lean.pid = wakee;
	e.lean.waker_tid = waker;
	e.lean.waking_cpu = waking_cpu;
	e.lean.wakeup_cpu = waking_cpu;
	e.lean.target_cpu = cpu;
	e.lean.flags = flags;
	return e;
}

/* ev_lean_name - the lean engine's name of task @tid of process @tgid; @flags WP_LEAN_TRACKED, WP_LEAN_KTHREAD */
static inline struct wp_event ev_lean_name(uint64_t ts, uint32_t cpu, uint32_t tid, uint32_t tgid, const char *comm,
					   uint16_t flags)
{
	struct wp_event e = ev(ts, WP_EV_LEAN, cpu, tid);

	snprintf(e.lean.comm, sizeof(e.lean.comm), "%s", comm);
	e.lean.tgid = tgid;
	e.lean.pid = tid;
	e.lean.flags = WP_LEAN_NAME | flags;
	return e;
}

/*
 * ev_lean_names - attach mode's names of the lean wakeup @of, the record
 * written with it: woken by a @cls waker in syscall @waker_nr (-1: none)
 * with @waker_arg and @waker_arg2, from a wait in syscall @wait_nr (-1:
 * outside any) with @wait_arg and @wait_arg2; @seen WP_SEEN_*: 0, its
 * sleep was not seen
 */
static inline struct wp_event ev_lean_names(const struct wp_event *of, uint8_t cls, int32_t waker_nr,
					    uint64_t waker_arg, uint32_t waker_arg2, uint8_t seen, int32_t wait_nr,
					    uint64_t wait_arg, uint32_t wait_arg2)
{
	struct wp_event e = ev(of->ts_ns, WP_EV_LEAN, of->cpu, of->tid);

	e.lean_names.waker_class = cls;
	e.lean_names.waker_nr = waker_nr;
	e.lean_names.waker_arg = waker_arg;
	e.lean_names.waker_arg2 = waker_arg2;
	e.lean_names.seen = seen;
	e.lean_names.wait_nr = wait_nr;
	e.lean_names.wait_arg = wait_arg;
	e.lean_names.wait_arg2 = wait_arg2;
	e.lean_names.flags = WP_LEAN_NAMES;
	return e;
}

/* with_next_comm - @e, a switch, to a task named @comm */
static inline struct wp_event with_next_comm(struct wp_event e, const char *comm)
{
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", comm);
	return e;
}

/* ev_idle_enter - @cpu goes idle into cpuidle state @state */
static inline struct wp_event ev_idle_enter(uint64_t ts, uint32_t cpu, uint32_t state)
{
	struct wp_event e = ev(ts, WP_EV_IDLE_ENTER, cpu, 0);

	e.idle.idle_since_ns = ts;
	e.idle.state = state;
	return e;
}

/* ev_idle_exit - @cpu leaves the idle it entered at @idle_since */
static inline struct wp_event ev_idle_exit(uint64_t ts, uint32_t cpu, uint64_t idle_since)
{
	struct wp_event e = ev(ts, WP_EV_IDLE_EXIT, cpu, 0);

	e.idle.idle_since_ns = idle_since;
	return e;
}

/*
 * ev_steal - @cpu's steal clock moved by @delta since its previous record at
 * @since: written on @cpu right before its first record after the vCPU ran again
 */
static inline struct wp_event ev_steal(uint64_t ts, uint32_t cpu, uint32_t current, uint64_t delta, uint64_t since)
{
	struct wp_event e = ev(ts, WP_EV_STEAL, cpu, current);

	e.steal.delta_ns = delta;
	e.steal.steal_ns = 1000000 + delta;
	e.steal.since_ns = since;
	return e;
}

/* ev_irq - interrupt work @nr of @kind enters (or, @exit, leaves) on @cpu; @name, if any, is its handler's */
static inline struct wp_event ev_irq(uint64_t ts, uint32_t cpu, enum wp_irq_kind kind, int nr, bool exit,
				     const char *name)
{
	struct wp_event e = ev(ts, WP_EV_IRQ, cpu, 0);

	e.irq.kind = kind;
	e.irq.nr = nr;
	e.irq.exit = exit;
	if (name)
		snprintf(e.irq.name, sizeof(e.irq.name), "%s", name);
	return e;
}

/* ev_migrate - task @pid moves from CPU @from to @to, seen on @cpu while @current runs there */
static inline struct wp_event ev_migrate(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t pid,
					 uint32_t from, uint32_t to)
{
	struct wp_event e = ev(ts, WP_EV_MIGRATE, cpu, current);

	e.migrate.pid = pid;
	e.migrate.orig_cpu = from;
	e.migrate.dest_cpu = to;
	return e;
}

/* with_next_tgid - @e, a switch, to a task of process @tgid */
static inline struct wp_event with_next_tgid(struct wp_event e, uint32_t tgid)
{
	e.sw.next_tgid = tgid;
	return e;
}

/* ev_signal_deliver - @tid is about to run the handler of signal @sig */
static inline struct wp_event ev_signal_deliver(uint64_t ts, uint32_t cpu, uint32_t tid, int sig)
{
	struct wp_event e = ev(ts, WP_EV_SIGNAL_DELIVER, cpu, tid);

	e.signal.sig = sig;
	return e;
}

/* ev_fork - @parent (of process @parent_tgid) forked process @child_tgid */
static inline struct wp_event ev_fork(uint64_t ts, uint32_t cpu, uint32_t parent, uint32_t parent_tgid,
				      uint32_t child_tgid)
{
	struct wp_event e = ev(ts, WP_EV_FORK, cpu, parent);

	e.fork.parent_tgid = parent_tgid;
	e.fork.child_tgid = child_tgid;
	return e;
}

/*
 * ev_block - @tid goes to sleep in syscall @nr (-1: outside a syscall) with
 * arguments @arg and @arg2, entered at @since (0 with nr -1); the BPF side
 * writes it with the sleeping switch-out
 */
static inline struct wp_event ev_block(uint64_t ts, uint32_t cpu, uint32_t tid, int64_t nr, uint64_t arg,
				       uint64_t arg2, uint64_t since)
{
	struct wp_event e = ev(ts, WP_EV_BLOCK, cpu, tid);

	e.block.nr = nr;
	e.block.arg = arg;
	e.block.arg2 = arg2;
	e.block.since_ns = since;
	return e;
}

/*
 * ev_waker - who wakes @wakee, of class @cls (enum wp_waker_class), as
 * sched_waking finds it on @cpu with @current there; the WAKING record of the
 * same wakeup follows on the same CPU. Class fields zero: see the with_*.
 */
static inline struct wp_event ev_waker(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t wakee,
				       enum wp_waker_class cls, uint32_t waker_tgid)
{
	struct wp_event e = ev(ts, WP_EV_WAKER, cpu, current);

	e.waker.wakee_pid = wakee;
	e.waker.waker_class = (uint8_t)cls;
	e.waker.nr = -1;
	e.waker.waker_tgid = waker_tgid;
	return e;
}

/* ev_waker_syscall - @waker (of @tgid) wakes @wakee inside syscall @nr (@arg, @arg2), entered at @since */
static inline struct wp_event ev_waker_syscall(uint64_t ts, uint32_t cpu, uint32_t waker, uint32_t tgid,
					       uint32_t wakee, int32_t nr, uint64_t arg, uint64_t arg2,
					       uint64_t since)
{
	struct wp_event e = ev_waker(ts, cpu, waker, wakee, WP_WAKER_SYSCALL, tgid);

	e.waker.nr = nr;
	e.waker.arg = arg;
	e.waker.arg2 = arg2;
	e.waker.since_ns = since;
	return e;
}

/* ev_waker_named - a tracked thread outside a syscall, another process or a kernel thread, named @comm */
static inline struct wp_event ev_waker_named(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t tgid,
					     uint32_t wakee, enum wp_waker_class cls, const char *comm)
{
	struct wp_event e = ev_waker(ts, cpu, current, wakee, cls, tgid);

	snprintf(e.waker.comm, sizeof(e.waker.comm), "%s", comm);
	return e;
}

/*
 * ev_waker_irq - an interrupt (IRQ: @kind, @nr and its handler @name) or a
 * softirq (SOFTIRQ, vector @nr) that began at @since wakes @wakee, in on
 * @current
 */
static inline struct wp_event ev_waker_irq(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t wakee,
					   enum wp_waker_class cls, enum wp_irq_kind kind, int32_t nr,
					   uint64_t since, const char *name)
{
	struct wp_event e = ev_waker(ts, cpu, current, wakee, cls, 0);

	e.waker.irq_kind = (uint8_t)kind;
	e.waker.nr = nr;
	e.waker.since_ns = since;
	if (name)
		snprintf(e.waker.comm, sizeof(e.waker.comm), "%s", name);
	return e;
}

/* ev_waker_timer - the hrtimer @fn, expiring since @since, wakes @wakee, in on @current */
static inline struct wp_event ev_waker_timer(uint64_t ts, uint32_t cpu, uint32_t current, uint32_t wakee,
					     uint64_t since, uint64_t fn)
{
	struct wp_event e = ev_waker(ts, cpu, current, wakee, WP_WAKER_TIMER, 0);

	e.waker.irq_kind = WP_IRQ_TIMER;
	e.waker.since_ns = since;
	e.waker.timer_fn = fn;
	return e;
}

/* with_drops - @e, written when the ring had failed @drops reservations */
static inline struct wp_event with_drops(struct wp_event e, uint32_t drops)
{
	e.drops = drops;
	return e;
}

#endif /* WAKEPROBE_TEST_EVENTS_H */
