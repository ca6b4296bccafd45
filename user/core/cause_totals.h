/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cause_totals.h - explained wakeups summed by cause, and the tasks that
 * held a CPU they needed: what both the workload and the attach aggregates
 * keep (explain.h says what each cause is)
 */
#ifndef WAKEPROBE_CAUSE_TOTALS_H
#define WAKEPROBE_CAUSE_TOTALS_H

#include <stdint.h>
#include "histogram.h"
#include "wakeup.h"

#define CAUSE_MAX_TASKS	16
/* the most outliers an aggregate, the workload's or attach mode's, keeps with their explanation */
#define AGG_MAX_OUTLIERS 100

/* a task that held a CPU a wakeup needed, over all samples */
struct task_share {
	uint32_t pid;
	char comm[WP_TASK_COMM_LEN];
	int64_t ns;
};

/*
 * The time of explained wakeups (explain.h) by cause, and the tasks that
 * held a CPU they needed: what both the workload and attach aggregates sum.
 */
struct cause_totals {
	/* the wakeups summed: every complete one, or with the lean engine the ones the flight recorder explained */
	uint64_t wakeups;
	int64_t cause_ns[NR_CAUSES];
	int64_t explained_total_ns;		/* the sum of their totals */
	uint64_t migrations;			/* of the wakee, inside a wakeup */
	/* the tasks named by other_task and the preemptions, the most time first once sorted */
	struct task_share tasks[CAUSE_MAX_TASKS];
	uint32_t nr_tasks;
	int64_t untabled_task_ns;		/* tasks that came once the table was full */
	/* each wakeup's own work per phase: what is usual, for a stretch far over it to be flagged */
	struct histogram own_work[NR_PHASES];
};

/* cause_totals__add - the explanation of the complete, phased wakeup @r */
void cause_totals__add(struct cause_totals *c, const struct sample_result *r);
/* cause_totals__sort_tasks - order tasks[] by time, the most first (once the run is over) */
void cause_totals__sort_tasks(struct cause_totals *c);
/*
 * cause_totals__grew_most - the phase of @r furthest over its median in the
 * phase histograms @hist[NR_PHASES] (the first of equals) into @worst, and
 * by how much in ns: what an outlier is introduced with
 */
int64_t cause_totals__grew_most(const struct histogram *hist, const struct sample_result *r, enum phase *worst);

#endif /* WAKEPROBE_CAUSE_TOTALS_H */
