/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why a wakeup took as long as it did.
 *
 * Each phase of a complete sample is bound to one CPU: the notify phases to
 * the waker's, the rest to the CPU the wakee was woken onto. Replaying the
 * kernel events of that CPU over the phase (tasks switched in and out,
 * interrupt handlers, idle) splits the phase into intervals, and each
 * interval gets the one cause that held the CPU then. Where several apply,
 * the innermost wins: an interrupt over the task it interrupted, a task over
 * the idle state. What no event covers is unexplained, never spread over
 * the others, so the causes and the unexplained rest of a phase add up to it.
 *
 * Pure code: it sees the events the merger hands it and nothing else.
 */
#ifndef WAKEPROBE_EXPLAIN_H
#define WAKEPROBE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

enum cause {
	CAUSE_IDLE,		/* the target CPU was idle: a halted vCPU the host has to wake */
	CAUSE_IPI,		/* a wake queued for the target CPU, its IPI not run yet */
	CAUSE_OTHER_TASK,	/* another task held the CPU the wakee was woken onto */
	CAUSE_IRQ,		/* a hard interrupt, the timer, or an IPI handler */
	CAUSE_SOFTIRQ,
	CAUSE_WAKER_PREEMPTED,	/* the waker was off its CPU inside its notify */
	CAUSE_WAKEE_PREEMPTED,	/* the wakee lost its CPU before it took its timestamp */
	CAUSE_REACQUIRE,	/* the wakee blocked again before its timestamp (cond: the mutex) */
	CAUSE_UNEXPLAINED,	/* no event on the CPU: the path's own work, or something unseen */
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
#define EXPLAIN_NR_PHASES	6	/* NR_PHASES of merge.h, which includes this header */

struct explanation {
	int64_t by_cause[NR_CAUSES];			/* over the whole sample */
	int64_t by_phase_cause[EXPLAIN_NR_PHASES][NR_CAUSES];
	struct interval iv[EXPLAIN_MAX_INTERVALS];
	uint32_t nr_iv;
	uint32_t more_iv;	/* stretches of causes that did not fit; their time is in the sums */
	uint32_t migrations;	/* sched_migrate_task of the wakee inside the sample */
	uint32_t migrated_from;	/* the last one's CPUs */
	uint32_t migrated_to;
};

struct sample_result;

/*
 * explain__sample - attribute a complete, phased sample's time to causes,
 * from @evs: the events between its t_notify and t_woken in time order
 * (earlier ones are ignored).
 */
void explain__sample(struct explanation *x, const struct sample_result *r, const struct wp_event *evs, size_t n);

const char *cause__name(enum cause c);
const char *cause__describe(enum cause c);
/* irq_kind__name - "irq", "softirq", "timer", "resched IPI", "call-func IPI" */
const char *irq_kind__name(unsigned int kind);
/* softirq__name - the kernel's name of a softirq vector: "TIMER", "NET_RX", ... */
const char *softirq__name(int vec);
/*
 * explain__describe_interval - one cause interval as a person reads it, named
 * from its events, into @buf: "'wp-hog' pid 12 prio 120 ran on CPU 1 (then preempted)"
 */
void explain__describe_interval(const struct interval *iv, char *buf, size_t len);
/*
 * explain__phase_parts - the named causes of phase @k into @parts (room for
 * EXPLAIN_MAX_INTERVALS), longest first, as the reports list them; how many.
 * explain__sample() already summed a cause from one source into one entry.
 */
size_t explain__phase_parts(const struct explanation *x, int k, const struct interval **parts);

#endif /* WAKEPROBE_EXPLAIN_H */
