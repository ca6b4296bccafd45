/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - joins the workload's samples with the kernel events around them
 * and splits each wakeup into phases.
 *
 * Pure code: no BPF, no clocks. Samples arrive with their TSC stamps already
 * mapped to CLOCK_MONOTONIC; events arrive in ring-buffer order, which is
 * nearly but not exactly time order. merger__advance() is told up to which
 * time the event stream is known to be complete, and finishes every sample
 * that ended before it; memory stays bounded by what lies in between.
 */
#ifndef WAKEPROBE_MERGE_H
#define WAKEPROBE_MERGE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"
#include "explain.h"
#include "sample_ring.h"
#include "syscall_list.h"

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

	/* phased samples: each phase's time by cause (explain.h) */
	struct explanation why;
};

/* what ends the wakee's wait in the kernel: the resume_kernel phase's end */
enum wait_end {
	WAIT_END_SYSCALL_EXIT,		/* the wait syscall returns */
	WAIT_END_SIGNAL_DELIVER,	/* signal:signal_deliver, on the way to a handler */
};

struct merger_config {
	/*
	 * Syscalls whose entry by the waker starts notify_kernel, a -1 entry
	 * ends a shorter list. SYS_futex counts only with a waking op.
	 */
	struct syscall_list notify_syscalls;
	struct syscall_list wait_syscalls;
	enum wait_end wait_end;
	/*
	 * The path never enters the kernel (spin): a sample has a total and no
	 * phases, and kernel events only say whether the waiter was preempted.
	 */
	bool user_only;
	/*
	 * The notify is decided in user space: glibc's sem_post() and
	 * pthread_cond_signal() enter the kernel only when somebody waits, and
	 * a waiter on a raw futex can see the store before the FUTEX_WAKE that
	 * follows it. No notify syscall before t_woken while the wakee was
	 * awake means no_sleep, not a missing event.
	 */
	bool notify_optional;
	int notify_fd;			/* match the notify syscall's first argument; -1: any */
	int wait_fd;
	/* how far a user timestamp may stray across a kernel one: the clock error budget */
	uint64_t clock_slack_ns;
};

typedef void (*merger_sample_fn)(const struct sample_result *result, void *ctx);

struct merger_stats {
	uint64_t events;		/* events accepted */
	uint64_t late_events;		/* arrived for a time already finished: ignored */
	uint64_t evicted_events;	/* pushed out of a full queue */
	uint64_t samples;
	uint64_t drops_seen;		/* highest drop count carried by an event */
	uint64_t migrations;		/* sched_migrate_task of a tracked task, anywhere in the run */
};

struct merger;

struct merger *merger__new(const struct merger_config *cfg, merger_sample_fn fn, void *ctx);
void merger__free(struct merger *m);

/* tracing covers [start, end]; end is UINT64_MAX until tracing stops */
void merger__set_window(struct merger *m, uint64_t start_ns, uint64_t end_ns);

void merger__add_event(struct merger *m, const struct wp_event *e);
/* samples must come in sequence order */
int merger__add_sample(struct merger *m, const struct wp_sample *s, uint64_t t_notify_ns,
		       uint64_t t_woken_ns, uint64_t t_wait_start_ns);
/* the fds the path's syscalls use, known once the workload runs; -1: any */
void merger__set_fds(struct merger *m, int notify_fd, int wait_fd);
/*
 * merger__note_drops - the BPF side's drop counter, read once the ring
 * buffer was drained. When it is past the count the last record carried,
 * events were lost after that record, and the samples from there on are
 * lost_events until a later record bounds the loss. Call it before
 * merger__advance(): without it, samples that end before the next record
 * could be finished as if nothing were lost.
 */
void merger__note_drops(struct merger *m, uint64_t drops);
/* every event stamped before @complete_ns has been added: finish what ended before it */
void merger__advance(struct merger *m, uint64_t complete_ns);
/*
 * merger__finish - the stream is over. @final_drops is the BPF side's drop
 * counter at the end: drops after the last event reach any sample still open.
 */
void merger__finish(struct merger *m, uint64_t final_drops);

const struct merger_stats *merger__stats(const struct merger *m);

const char *phase__name(enum phase p);
const char *label__name(enum sample_label l);
const char *label__describe(enum sample_label l);
const char *mark__name(enum mark k);

#endif /* WAKEPROBE_MERGE_H */
