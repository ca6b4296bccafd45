/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_streams.h - synthetic runs for the tests of the workload
 * timeline (test_perfetto_timeline.c, test_perfetto_workload.c,
 * test_perfetto_cpus.c): a timeline open on a temporary file, complete
 * eventfd wakeups whose phases and causes a test can change, and
 * shorthands that put kernel events into the timeline at offsets from T0,
 * the origin check_timeline() knows as T0 too.
 */
#ifndef WAKEPROBE_TEST_PERFETTO_STREAMS_H
#define WAKEPROBE_TEST_PERFETTO_STREAMS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "events.h"
#include "perfetto_timeline.h"
#include "readback.h"

#define WAKER		1001u
#define WAKEE		1002u
#define HOG		42u
#define OTHER		77u
#define T0		1000000000123ull	/* odd nanoseconds: none may be lost */

static char path[64];
static FILE *file;
static struct perfetto_timeline *tl;

static inline void timeline_setup(void)
{
	file = temp_output("timeline", path);
	tl = perfetto_timeline__open(file);
	cr_assert_not_null(tl);
}

static inline void timeline_teardown(void)
{
	unlink(path);
}

/* close the timeline and its file, then check them */
#define expect_timeline(...)							\
	do {									\
		cr_assert_eq(perfetto_timeline__close(tl), 0);			\
		cr_assert_eq(fclose(file), 0);					\
		check_timeline(path, __VA_ARGS__);				\
	} while (0)

/* ---------------------------------------------------------------- samples */

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

static inline struct sample_result not_complete(uint64_t seq, enum sample_label label)
{
	struct sample_result r = complete(seq);

	r.label = label;
	r.phased = false;
	return r;
}

/* ---------------------------------------------------------------- CPU events */

/* the tests' shorthands: times are offsets from T0, each event goes straight into the timeline */
static inline void put(struct wp_event e)
{
	perfetto_timeline__event(tl, &e);
}

static inline void sw(uint64_t off, uint32_t cpu, uint32_t prev, uint32_t next, const char *comm,
		      uint32_t prev_state)
{
	struct wp_event e = with_next_comm(ev_switch(T0 + off, cpu, prev, next, prev_state, !prev_state), comm);

	e.sw.next_tgid = next;
	put(e);
}

static inline void irq(uint64_t off, uint32_t cpu, enum wp_irq_kind kind, int nr, bool exit, const char *name)
{
	put(ev_irq(T0 + off, cpu, kind, nr, exit, name));
}

static inline void idle_enter(uint64_t off, uint32_t cpu, uint32_t state)
{
	put(ev_idle_enter(T0 + off, cpu, state));
}

static inline void idle_exit(uint64_t off, uint32_t cpu, uint64_t since_off)
{
	put(ev_idle_exit(T0 + off, cpu, T0 + since_off));
}

static inline void wake(uint64_t off, enum wp_event_type type, uint32_t cpu, uint32_t target,
			uint64_t idle_since_off)
{
	put(ev_wake(T0 + off, type, cpu, WAKER, WAKEE, target, idle_since_off ? T0 + idle_since_off : 0));
}

static inline void migrate(uint64_t off, uint32_t cpu, uint32_t from, uint32_t to)
{
	put(ev_migrate(T0 + off, cpu, 0, WAKEE, from, to));
}

#endif /* WAKEPROBE_TEST_PERFETTO_STREAMS_H */
