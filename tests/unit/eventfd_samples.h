/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventfd_samples.h - complete eventfd wakeups of WAKEE by WAKER from T0,
 * as the merger hands them over, for the tests of what writes a
 * workload's samples (test_csv_workload.c, and perfetto_streams.h's
 * timeline tests): every phase, mark and CPU given, all of their time
 * unexplained until add_cause() explains some; set_phase() changes a
 * phase, not_complete() the label.
 */
#ifndef WAKEPROBE_TEST_EVENTFD_SAMPLES_H
#define WAKEPROBE_TEST_EVENTFD_SAMPLES_H

#include <stdint.h>
#include <string.h>
#include "wakeup.h"

#define WAKER		1001u
#define WAKEE		1002u
#define T0		1000000000123ull	/* odd nanoseconds: none may be lost */

/* a complete eventfd wakeup: phases 300, 800, 800, 4000, 700, 250 from T0 + seq * 100 us */
static inline struct sample_result complete(uint64_t seq)
{
	static const int64_t phases[NR_PHASES] = { 300, 800, 800, 4000, 700, 250 };
	struct sample_result r;
	uint64_t at;
	int k;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.sample.waker_tid = WAKER;
	r.sample.wakee_tid = WAKEE;
	r.sample.waker_cpu = 0;
	r.sample.wakee_cpu = 1;
	r.t_notify_ns = T0 + seq * 100000;
	at = r.t_notify_ns;
	for (k = 0; k < NR_PHASES; k++) {
		r.phase_ns[k] = phases[k];
		at += (uint64_t)phases[k];
		if (k < NR_MARKS)
			r.mark_ns[k] = at;
		r.total_ns += phases[k];
	}
	r.t_woken_ns = at;
	r.waking_cpu = 0;
	r.wakeup_cpu = 1;
	r.target_cpu = 1;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	r.why.by_cause[CAUSE_UNEXPLAINED] = r.total_ns;
	for (k = 0; k < NR_PHASES; k++)
		r.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = r.phase_ns[k];
	return r;
}

/* set_phase - phase @k of @r lasts @ns: the marks after it move, the total follows */
static inline void set_phase(struct sample_result *r, int k, int64_t ns)
{
	int64_t delta = ns - r->phase_ns[k];
	int m;

	r->phase_ns[k] = ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] = ns;
	for (m = k; m < NR_MARKS; m++)
		r->mark_ns[m] += (uint64_t)delta;
	r->t_woken_ns += (uint64_t)delta;
	r->total_ns += delta;
}

/* add_cause - @ns of phase @k was @cause, taken from its unexplained time */
static inline struct interval *add_cause(struct sample_result *r, int k, enum cause cause, int64_t ns)
{
	struct interval *iv = &r->why.iv[r->why.nr_iv++];

	r->why.by_phase_cause[k][cause] += ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] -= ns;
	r->why.by_cause[cause] += ns;
	r->why.by_cause[CAUSE_UNEXPLAINED] -= ns;
	memset(iv, 0, sizeof(*iv));
	iv->cause = (uint8_t)cause;
	iv->phase = (uint8_t)k;
	iv->dur_ns = (uint64_t)ns;
	iv->cpu = 1;
	return iv;
}

/* not_complete - complete(@seq), but labelled @label and not phased */
static inline struct sample_result not_complete(uint64_t seq, enum sample_label label)
{
	struct sample_result r = complete(seq);

	r.label = label;
	r.phased = false;
	return r;
}

#endif /* WAKEPROBE_TEST_EVENTFD_SAMPLES_H */
