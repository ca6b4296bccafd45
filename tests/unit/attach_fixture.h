/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_fixture.h - a small attach-mode run from synthetic kernel records, for
 * the tests of what reports it (test_json_attach.c, test_text_attach.c and
 * the other writers'): the engine is fed the records of seven wakeups of
 * one thread, the aggregate takes what it hands over, and a struct
 * attach_report describes the run as a live one would. Every figure of it
 * is known, and given below.
 *
 * The traced process RUN_PROC: RUN_WAKER ("producer", CPU 0) wakes RUN_WAKEE
 * (named RUN_WAKEE_COMM, a comma and a quote in it, on CPU 1, idle while it
 * sleeps). Wakeup i begins at RUN_T0 + i * RUN_STEP with the wakee's sleep:
 *
 *	+0     BLOCK and switch-out of the wakee (its wait entered at -500)
 *	+1000  the waker's syscall entry          (notify_kernel  1000)
 *	+2000  WAKER record, sched_waking on CPU 0 (wake_enqueue  1000)
 *	+3000  sched_wakeup on CPU 1: a remote wakeup
 *	+3500  CPU 1 leaves idle                  (idle_exit      1500)
 *	+6000  switch-in of the wakee, + extra    (runq_wait      3000 + extra)
 *	+7000  its wait syscall returns, + extra  (resume_kernel  1000)
 *
 * Wakeups 1-3: eventfd write -> read, extra 0, 2000 and 30000. 4-5: futex
 * wake -> wait on RUN_FUTEX. 6: a timer ends a clock_nanosleep (no
 * notify_kernel). 7: no WAKER record came with the waking: missing_event.
 */
#ifndef WAKEPROBE_TEST_ATTACH_FIXTURE_H
#define WAKEPROBE_TEST_ATTACH_FIXTURE_H

#include <criterion/criterion.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include "attach.h"
#include "attach_aggregate.h"
#include "events.h"
#include "text_attach.h"

#define RUN_PROC	5000u
#define RUN_WAKER	5001u
#define RUN_WAKEE	5002u
#define RUN_WAKEE_COMM	"con,\"sumer"
#define RUN_EFD		7
#define RUN_FUTEX	0x7f0042a0ull
#define RUN_TIMER_FN	0xffffffff81100000ull
#define RUN_T0		2000000000ull
#define RUN_STEP	100000ull
#define RUN_WAKEUPS	7
#define RUN_COMPLETE	6
#define RUN_OUTLIERS	2

/* the extra runq_wait of each wakeup, by index from 0 */
static const uint64_t run_extra[RUN_WAKEUPS] = { 0, 2000, 30000, 0, 0, 0, 0 };

struct attach_fixture {
	struct attach *engine;
	struct attach_aggregate *agg;
	attach_result_fn also;		/* sees every wakeup too, when set */
	void *also_ctx;
	/* where attach_fixture__add() puts a record instead of the engine, when set */
	void (*into)(const struct wp_event *e, void *ctx);
	void *into_ctx;
	int32_t pids[1];
	struct attach_session_opts targets;
	struct attach_session_result run;
	struct attach_report report;
};

static inline void attach_fixture__take(const struct attach_result *r, void *ctx)
{
	struct attach_fixture *run = ctx;

	attach_aggregate__add(run->agg, r);
	if (run->also)
		run->also(r, run->also_ctx);
}

/* the eventfd is the one fd the process has */
static inline enum fd_kind attach_fixture__fd_kind(uint32_t tgid, int fd, void *ctx)
{
	(void)ctx;
	return tgid == RUN_PROC && fd == RUN_EFD ? FD_KIND_EVENTFD : FD_KIND_UNKNOWN;
}

static inline void attach_fixture__add(struct attach_fixture *run, struct wp_event e)
{
	if (run->into)
		run->into(&e, run->into_ctx);
	else
		attach__add_event(run->engine, &e);
}

/*
 * attach_fixture__wakeup - the records of wakeup @i, in time order: the wakee
 * sleeps in @wait_nr (@wait_arg, @wait_arg2), @waker wakes it (type 0: no
 * WAKER record)
 */
static inline void attach_fixture__wakeup(struct attach_fixture *run, int i, struct wp_event waker, int64_t wait_nr,
				      uint64_t wait_arg, uint64_t wait_arg2)
{
	uint64_t t = RUN_T0 + (uint64_t)i * RUN_STEP, x = run_extra[i];
	struct wp_event in = ev_switch(t + 6000 + x, 1, 0, RUN_WAKEE, 0, 0);

	attach_fixture__add(run, ev_switch(t, 1, RUN_WAKEE, 0, 1 /* TASK_INTERRUPTIBLE */, 0));
	attach_fixture__add(run, ev_block(t, 1, RUN_WAKEE, wait_nr, wait_arg, wait_arg2, t - 500));
	if (waker.type) {
		waker.ts_ns = t + 2000;
		attach_fixture__add(run, waker);
	}
	attach_fixture__add(run, ev_waking(t + 2000, 0, RUN_WAKER, RUN_WAKEE, 1, t + 100));
	attach_fixture__add(run, ev_wakeup(t + 3000, 1, 0, RUN_WAKEE, 1));
	attach_fixture__add(run, ev_idle_exit(t + 3500, 1, t + 100));
	attach_fixture__add(run, with_next_tgid(with_next_comm(in, RUN_WAKEE_COMM), RUN_PROC));
	attach_fixture__add(run, ev_sys_exit(t + 7000 + x, 1, RUN_WAKEE, wait_nr, 0));
}

/* attach_fixture__make - the seven wakeups, through the engine into the aggregate; @run's report describes them */
static inline void attach_fixture__make(struct attach_fixture *run)
{
	struct attach_config cfg = { .fd_kind = attach_fixture__fd_kind };
	uint64_t end = RUN_T0 + RUN_WAKEUPS * RUN_STEP;
	int i;

	run->agg = attach_aggregate__new();
	run->engine = attach__new(&cfg, attach_fixture__take, run);
	cr_assert(run->agg && run->engine);
	attach_aggregate__want_outliers(run->agg, RUN_OUTLIERS, 0);

	/* the waker's switch-in names it: a syscall's WAKER record has no room for its comm */
	attach_fixture__add(run, with_next_tgid(with_next_comm(ev_switch(RUN_T0 - 1000, 0, 0, RUN_WAKER, 0, 0),
							   "producer"), RUN_PROC));
	for (i = 0; i < 3; i++)
		attach_fixture__wakeup(run, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_write, RUN_EFD, 8,
							    RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				   SYS_read, RUN_EFD, 0);
	for (; i < 5; i++)
		attach_fixture__wakeup(run, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_futex, RUN_FUTEX,
							    FUTEX_WAKE_PRIVATE, RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				   SYS_futex, RUN_FUTEX, FUTEX_WAIT_PRIVATE);
	attach_fixture__wakeup(run, i++, ev_waker_timer(0, 0, RUN_WAKER, RUN_WAKEE, RUN_T0 + 5 * RUN_STEP + 1900,
						    RUN_TIMER_FN),
			   SYS_clock_nanosleep, 0, 0);
	attach_fixture__wakeup(run, i, (struct wp_event){ .type = 0 }, SYS_read, RUN_EFD, 0);
	attach__advance(run->engine, end);
	attach__finish(run->engine, 0);
	attach_aggregate__end(run->agg);

	run->pids[0] = RUN_PROC;
	run->targets = (struct attach_session_opts){
		.pids = run->pids,
		.nr_pids = 1,
		.duration_ms = 2000,
		.ringbuf_bytes = 1 << 20,
	};
	memset(&run->run, 0, sizeof(run->run));
	snprintf(run->run.meta.version, sizeof(run->run.meta.version), "9.9.9");
	snprintf(run->run.meta.kernel, sizeof(run->run.meta.kernel), "6.1.0-test");
	snprintf(run->run.meta.machine, sizeof(run->run.meta.machine), "x86_64");
	snprintf(run->run.meta.hostname, sizeof(run->run.meta.hostname), "testhost");
	run->run.meta.nr_cpus = 2;
	run->run.meta.started_unix_ns = 1700000000123456789ull;
	run->run.trace_start_ns = RUN_T0 - 5000;
	run->run.trace_end_ns = end;
	run->run.duration_reached = true;
	run->run.missed_runs = 3;
	run->report = (struct attach_report){
		.targets = &run->targets,
		.run = &run->run,
		.counters = attach__counters(run->engine),
		.agg = run->agg,
		.pairs = 10,
	};
}

/*
 * attach_fixture__one_off - a complete wakeup of RUN_WAKEE by thread @waker,
 * whose futex wake on @word ended its wait there, as the engine would hand
 * it over, for a test to add to the aggregate past the run's seven: one of a
 * pair and a word of its own, to make more than the tables have rows
 */
static inline struct attach_result attach_fixture__one_off(uint32_t waker, uint64_t word)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	/* explained by no flight record: the causes stay the run's */
	r.sr.lean = true;
	r.sr.sample.wakee_tid = RUN_WAKEE;
	r.waker.cls = WP_WAKER_SYSCALL;
	r.waker.tid = waker;
	r.waker.tgid = RUN_PROC;
	r.waker.nr = SYS_futex;
	r.waker.arg = word;
	r.waker.arg2 = FUTEX_WAKE_PRIVATE;
	r.wait.known = true;
	r.wait.nr = SYS_futex;
	r.wait.arg = word;
	r.wait.arg2 = FUTEX_WAIT_PRIVATE;
	r.wakee_tgid = RUN_PROC;
	r.wake_to_run_ns = 1000;
	r.notify_to_return_ns = -1;
	r.waited_ns = 500;
	r.family = MECH_FUTEX;
	snprintf(r.mechanism, sizeof(r.mechanism), "futex wake -> wait");
	return r;
}

static inline void attach_fixture__free(struct attach_fixture *run)
{
	attach__free(run->engine);
	attach_aggregate__free(run->agg);
	run->engine = NULL;
	run->agg = NULL;
}

#endif /* WAKEPROBE_TEST_ATTACH_FIXTURE_H */
