/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakeup.h - the words every stage uses for one wakeup.
 *
 * A sample runs from the waker's t_notify to the wakee's t_woken. The kernel
 * events that bound its phases are the marks; a sample whose marks were not
 * all found, in order, gets a label saying why instead of phases. The time of
 * each phase is then split by cause. The merger (merger.h) fills a
 * sample_result, explain.h attributes its time, and the aggregate, the
 * reports, the CSV and the timeline read it: they all include this header,
 * and it includes none of theirs.
 *
 * Declarations and their names only: no stage's logic lives here.
 */
#ifndef WAKEPROBE_WAKEUP_H
#define WAKEPROBE_WAKEUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "sample_ring.h"
#include "wakeprobe.h"

enum phase {
	PHASE_NOTIFY_USER,	/* t_notify -> waker's notify syscall entry */
	PHASE_NOTIFY_KERNEL,	/* syscall entry -> sched_waking(wakee) */
	PHASE_WAKE_ENQUEUE,	/* sched_waking -> sched_wakeup */
	PHASE_RUNQ_WAIT,	/* sched_wakeup -> sched_switch to the wakee */
	PHASE_RESUME_KERNEL,	/* switch-in -> wakee's wait syscall exit */
	PHASE_RESUME_USER,	/* syscall exit -> t_woken */
	NR_PHASES,
};

/* why a sample is not in the phase table; LABEL_COMPLETE means it is */
enum sample_label {
	LABEL_COMPLETE,
	LABEL_NO_SLEEP,		/* the notify found no sleeping wakee: nothing to wake */
	LABEL_LOST_EVENTS,	/* events were dropped inside the sample's window */
	LABEL_OUT_OF_WINDOW,	/* taken before tracing started or after it stopped */
	LABEL_MISSING_EVENT,	/* a bounding event never arrived, with no drop to explain it */
	LABEL_CLOCK_ORDER,	/* a user timestamp fell on the wrong side of a kernel one */
	LABEL_COALESCED,	/* the wait reported more than one notify */
	LABEL_PREEMPTED,	/* user_only paths: the waiter lost its CPU while it waited */
	LABEL_WOKEN_EARLY,	/* the wakee was already woken, by an earlier notify, at this one */
	NR_LABELS,
};

/* the kernel events that bound the phases, in the order they must occur */
enum mark {
	MARK_NOTIFY_ENTER,
	MARK_WAKING,
	MARK_WAKEUP,
	MARK_SWITCH_IN,
	MARK_WAIT_EXIT,		/* or the signal_deliver that ends the wait */
	NR_MARKS,
};

/* what held a phase's CPU: see explain.h for how a phase's time is split */
enum cause {
	CAUSE_IDLE,		/* the target CPU was idle: a halted vCPU the host has to wake */
	CAUSE_IPI,		/* a wake queued for the target CPU, its IPI not run yet */
	CAUSE_OTHER_TASK,	/* another task held the CPU the wakee was woken onto */
	CAUSE_IRQ,		/* a hard interrupt, the timer, or an IPI handler */
	CAUSE_SOFTIRQ,
	CAUSE_WAKER_PREEMPTED,	/* the waker was off its CPU inside its notify */
	CAUSE_WAKEE_PREEMPTED,	/* the wakee lost its CPU before it took its timestamp */
	CAUSE_REACQUIRE,	/* the wakee blocked again before its timestamp (cond: the mutex) */
	CAUSE_HOST,		/* the host held the phase's vCPU: its steal clock moved (WP_EV_STEAL) */
	CAUSE_OWN_WORK,		/* the path's own task ran on the phase's CPU, or the scheduler switched to it */
	CAUSE_UNEXPLAINED,	/* nothing seen accounts for it */
	NR_CAUSES,
};

/*
 * The time one cause from one source (a task, an irq) took in one phase,
 * with what the events name; the stretches of it are summed.
 */
struct interval {
	uint64_t start_ns;	/* where the first stretch began */
	uint64_t dur_ns;	/* all stretches */
	uint8_t cause;		/* enum cause */
	uint8_t phase;		/* enum phase */
	uint16_t cpu;
	uint32_t pid;		/* the task that ran (other task, preemptions) */
	uint16_t prio;
	bool left_known;	/* the task's switch-out was seen inside the sample */
	bool preempted;		/* ... and it was preempted off the CPU, rather than sleeping */
	uint8_t irq_kind;	/* enum wp_irq_kind, for IRQ and SOFTIRQ */
	int32_t nr;		/* irq number or softirq vector */
	char name[WP_TASK_COMM_LEN];	/* the task's comm or the irq handler's name */
};

#define EXPLAIN_MAX_INTERVALS	24

/* one sample's time by cause; the causes and the unexplained rest of a phase add up to it */
struct explanation {
	int64_t by_cause[NR_CAUSES];			/* over the whole sample */
	int64_t by_phase_cause[NR_PHASES][NR_CAUSES];
	struct interval iv[EXPLAIN_MAX_INTERVALS];
	uint32_t nr_iv;
	uint32_t more_iv;	/* stretches of causes that did not fit; their time is in the sums */
	uint32_t migrations;	/* sched_migrate_task of the wakee inside the sample */
	uint32_t migrated_from;	/* the last one's CPUs; EXPLAIN_CPU_UNKNOWN: not known */
	uint32_t migrated_to;
};

/* explanation.migrated_from of a lean wakeup woken onto another CPU: which it left is not recorded */
#define EXPLAIN_CPU_UNKNOWN	UINT32_MAX

struct sample_result {
	struct wp_sample sample;
	uint64_t t_notify_ns;		/* CLOCK_MONOTONIC */
	uint64_t t_woken_ns;
	uint64_t t_wait_start_ns;	/* when the wakee began to wait; 0 if not taken */
	int64_t total_ns;
	enum sample_label label;
	bool phased;			/* complete, with phases (not on a user_only path) */
	enum mark missing;		/* for LABEL_MISSING_EVENT: the first absent mark */

	uint64_t mark_ns[NR_MARKS];	/* valid up to the first missing mark */
	/* the syscall that notified, and the event that ended the wait */
	int64_t notify_nr;
	uint64_t notify_arg;		/* its fd, or futex address */
	uint64_t notify_arg2;		/* the futex op, the tgkill tid */
	uint32_t wait_end_type;		/* WP_EV_SYS_EXIT or WP_EV_SIGNAL_DELIVER */
	int64_t wait_end_nr;		/* the syscall, or the signal */
	/* user_only paths: syscalls the waiter made between its wait start and t_woken */
	uint32_t waiter_syscalls;
	int64_t phase_ns[NR_PHASES];	/* valid for LABEL_COMPLETE */

	uint32_t waking_cpu;		/* where sched_waking ran (the waker's CPU) */
	uint32_t wakeup_cpu;		/* where sched_wakeup ran: the target for a queued wakeup */
	uint32_t target_cpu;		/* the CPU the wakee was placed on */
	bool target_was_idle;		/* target CPU idle when sched_waking ran */
	bool idle_exit_seen;
	int64_t idle_exit_ns;		/* sched_waking -> target CPU's cpu_idle exit */
	bool waker_preempted;		/* the waker was switched out inside the notify */
	int64_t waker_preempted_ns;	/* how long it was off CPU there */
	/*
	 * The wakee blocked again between its wait exit and t_woken (a futex
	 * wait: cond's mutex, taken back inside pthread_cond_wait()). Part of
	 * resume_user, shown on its own.
	 */
	bool rewait_seen;
	int64_t rewait_ns;

	/*
	 * The lean engine (merger_config.lean): the six phases from one record per
	 * wakeup; nothing explains the time (why stays empty) unless it
	 * brought its flight records (lean_flight).
	 */
	bool lean;
	/*
	 * ... and its wake was slow enough to bring its CPU's flight records
	 * (--threshold-us): wake_enqueue and runq_wait on that CPU are split
	 * by cause in why, every other phase is unexplained there.
	 */
	bool lean_flight;
	/*
	 * --stacks: the ids of its waker's and its wait's stacks in the run's
	 * stacks map (wp_lean_stacks), when the record brought them
	 */
	bool stacked;
	struct wp_lean_stacks stacks;

	/* phased samples: each phase's time by cause (explain.h) */
	struct explanation why;
};

const char *wakeup__phase_name(enum phase p);
const char *wakeup__label_name(enum sample_label l);
const char *wakeup__label_describe(enum sample_label l);
const char *wakeup__mark_name(enum mark k);
const char *wakeup__cause_name(enum cause c);
const char *wakeup__cause_describe(enum cause c);
/* wakeup__irq_kind_name - "irq", "softirq", "timer", "resched IPI", "call-func IPI" */
const char *wakeup__irq_kind_name(unsigned int kind);
/*
 * wakeup__pid - @pid as a report shows it: "1234", or "host:57" for a task
 * outside wakeprobe's pid namespace, which has no number there
 * (WP_PID_OUTSIDE: 57 is its pid in the initial namespace); into @buf
 */
const char *wakeup__pid(uint32_t pid, char *buf, size_t len);
/* wakeup__signal_name - "SIGTERM", "signal 40", into @buf; NULL for @sig 0: not known */
const char *wakeup__signal_name(int sig, char *buf, size_t len);
/*
 * wakeup__interruption - "interrupted by SIGTERM", or "interrupted" for a
 * recording made before the signal was kept (@sig 0), into @buf
 */
const char *wakeup__interruption(int sig, char *buf, size_t len);
/* wakeup__softirq_name - the kernel's name of a softirq vector: "TIMER", "NET_RX", ... */
const char *wakeup__softirq_name(int vec);

#endif /* WAKEPROBE_WAKEUP_H */
