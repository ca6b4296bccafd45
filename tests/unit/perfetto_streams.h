/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_streams.h - synthetic runs for the tests of the workload
 * timeline (test_perfetto_timeline.c, test_perfetto_workload.c,
 * test_perfetto_cpus.c): a timeline open on a temporary file, the complete
 * eventfd wakeups of eventfd_samples.h, and shorthands that put kernel
 * events into the timeline at offsets from T0, the origin
 * check_timeline() knows as T0 too.
 */
#ifndef WAKEPROBE_TEST_PERFETTO_STREAMS_H
#define WAKEPROBE_TEST_PERFETTO_STREAMS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "eventfd_samples.h"
#include "events.h"
#include "perfetto_timeline.h"
#include "readback.h"

#define HOG		42u
#define OTHER		77u

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
