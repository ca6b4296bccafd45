/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merger.h - joins the workload's samples with the kernel events around them
 * and splits each wakeup into phases.
 *
 * Pure code: no BPF, no clocks. Samples arrive with their TSC stamps already
 * mapped to CLOCK_MONOTONIC; events arrive in ring-buffer order, which is
 * nearly but not exactly time order. merger__advance() is told up to which
 * time the event stream is known to be complete, and finishes every sample
 * that ended before it; memory stays bounded by what lies in between.
 * The events wait in an event window (event_window.h) until then.
 */
#ifndef WAKEPROBE_MERGER_H
#define WAKEPROBE_MERGER_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "catalog.h"
#include "syscall_list.h"
#include "wakeprobe.h"
#include "wakeup.h"

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
	/*
	 * The notify makes the wakee: a thread's start, from the clone() that
	 * creates it to its first return to user space. Its sched_wakeup_new
	 * (WP_WAKE_NEW) is its waking and its wakeup at once, so wake_enqueue
	 * is 0, and there is no sleep before it to replay.
	 */
	bool new_task;
	/*
	 * The lean engine: the stream holds one WP_EV_LEAN record per wakeup and
	 * little else (bpf/lean.bpf.h); a sample is bounded
	 * by its waking, wakeup and switch-in, and nothing explains it.
	 */
	bool lean;
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

#endif /* WAKEPROBE_MERGER_H */
