/* SPDX-License-Identifier: GPL-2.0 */
/*
 * samples.h - synthetic merged samples, as the merger hands them to the
 * aggregates and the reports, and an empty run's result for a test to
 * fill as a workload's run would
 */
#ifndef WAKEPROBE_TEST_SAMPLES_H
#define WAKEPROBE_TEST_SAMPLES_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run_result.h"
#include "wakeup.h"

/* task_sample - a complete, phased sample of @total_ns, all of it one task's time when @pid is set */
static inline struct sample_result task_sample(uint64_t seq, int64_t total_ns, uint32_t pid, const char *comm)
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.t_notify_ns = 1000000 * seq;
	r.t_woken_ns = r.t_notify_ns + (uint64_t)total_ns;
	r.total_ns = total_ns;
	r.phase_ns[PHASE_RUNQ_WAIT] = total_ns;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	if (pid) {
		r.why.nr_iv = 1;
		r.why.iv[0].cause = CAUSE_OTHER_TASK;
		r.why.iv[0].phase = PHASE_RUNQ_WAIT;
		r.why.iv[0].pid = pid;
		r.why.iv[0].dur_ns = (uint64_t)total_ns;
		snprintf(r.why.iv[0].name, sizeof(r.why.iv[0].name), "%s", comm);
		r.why.by_cause[CAUSE_OTHER_TASK] = total_ns;
	} else {
		r.why.by_cause[CAUSE_UNEXPLAINED] = total_ns;
	}
	return r;
}

/* sample_set_part - @ns of phase @k of @r was @iv's cause: a named interval, or own work when @iv is NULL */
static inline void sample_set_part(struct sample_result *r, int k, enum cause cause, int64_t ns,
				   const struct interval *iv)
{
	r->why.by_phase_cause[k][cause] += ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] -= ns;
	r->why.by_cause[cause] += ns;
	r->why.by_cause[CAUSE_UNEXPLAINED] -= ns;
	if (iv) {
		r->why.iv[r->why.nr_iv] = *iv;
		r->why.iv[r->why.nr_iv].cause = (uint8_t)cause;
		r->why.iv[r->why.nr_iv].phase = (uint8_t)k;
		r->why.iv[r->why.nr_iv++].dur_ns = (uint64_t)ns;
	}
}

/* phased_sample - a complete sample @seq of these phases, all of their time unexplained */
static inline struct sample_result phased_sample(uint64_t seq, const int64_t phase_ns[NR_PHASES])
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.sample.waker_tid = 100;
	r.sample.wakee_tid = 101;
	r.sample.wakee_cpu = 1;
	r.t_notify_ns = 1000000 * seq;
	for (int k = 0; k < NR_PHASES; k++) {
		r.phase_ns[k] = phase_ns[k];
		r.total_ns += phase_ns[k];
		r.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = phase_ns[k];
	}
	r.why.by_cause[CAUSE_UNEXPLAINED] = r.total_ns;
	r.t_woken_ns = r.t_notify_ns + (uint64_t)r.total_ns;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	r.waking_cpu = 0;
	r.wakeup_cpu = 1;
	r.target_cpu = 1;
	return r;
}

/* slow_sample - runq_wait held by a task and an interrupt, wake_enqueue by an idle CPU */
static inline struct sample_result slow_sample(uint64_t seq)
{
	static const int64_t slow_phases[NR_PHASES] = { 500, 1000, 4000, 50000, 800, 700 };
	struct sample_result r = phased_sample(seq, slow_phases);
	struct interval task = { .cpu = 1, .pid = 42, .prio = 120, .left_known = true, .preempted = true,
				 .name = "wp-hog" };
	struct interval irq = { .cpu = 1, .irq_kind = WP_IRQ_HARD, .nr = 24, .name = "eth0" };
	struct interval idle = { .cpu = 1 };

	sample_set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 30000, &task);
	sample_set_part(&r, PHASE_RUNQ_WAIT, CAUSE_IRQ, 5000, &irq);
	sample_set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OWN_WORK, 2000, NULL);
	sample_set_part(&r, PHASE_WAKE_ENQUEUE, CAUSE_IDLE, 3000, &idle);
	/* notify_kernel all own work: no unexplained part to list */
	sample_set_part(&r, PHASE_NOTIFY_KERNEL, CAUSE_OWN_WORK, 1000, NULL);
	r.target_was_idle = true;
	return r;
}

/* new_run_result - a workload run's result with nothing in it yet, its aggregate ready (the caller frees) */
static inline struct run_result *new_run_result(void)
{
	struct run_result *r = calloc(1, sizeof(*r));

	cr_assert_not_null(r);
	aggregate__init(&r->agg);
	return r;
}

#endif /* WAKEPROBE_TEST_SAMPLES_H */
