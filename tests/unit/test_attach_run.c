// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_run.c - one attach run, whole, as a replay feeds it: the
 * records of attach_fixture.h's seven wakeups go in through the run, which
 * hands them to its analysis, tells its hooks where it stands, and reports
 * the ended run as the report's choices ask. The live path (the session
 * feeding the same calls) is held by the system tests.
 */
#include <criterion/criterion.h>
#include <string.h>
#include "attach_fixture.h"
#include "attach_run.h"

static struct attach_fixture fixture;
static struct attach_run run;
static int32_t pids[1] = { RUN_PROC };

/* what the hooks saw */
static struct {
	int begun, advanced;
	uint64_t complete_ns[16], drops[16];
	const struct attach_run *run;
} seen;

static void into_run(const struct wp_event *e, void *ctx)
{
	attach_run__event(ctx, e);
}

static void on_begun(const struct attach_run *r, void *ctx)
{
	(void)ctx;
	seen.begun++;
	seen.run = r;
}

static void on_advanced(const struct attach_run *r, void *ctx)
{
	(void)ctx;
	if (seen.advanced < 16) {
		seen.complete_ns[seen.advanced] = r->complete_ns;
		seen.drops[seen.advanced] = r->drops;
	}
	seen.advanced++;
}

static void setup(void)
{
	memset(&fixture, 0, sizeof(fixture));
	memset(&run, 0, sizeof(run));
	memset(&seen, 0, sizeof(seen));
	fixture.into = into_run;
	fixture.into_ctx = &run;
}

static void teardown(void)
{
	attach_run__free(&run);
}

TestSuite(attach_run, .init = setup, .fini = teardown);

/*
 * replay - the run of pid RUN_PROC begun, its seven wakeups in, advanced
 * once midway and once at the end with @drops, and ended, analysed as @ao asks
 */
static void replay(struct attach_analysis_opts *ao, uint64_t drops)
{
	const struct attach_session_opts targets = { .pids = pids, .nr_pids = 1, .duration_ms = 2000 };
	const struct attach_run_hooks hooks = { .begun = on_begun, .advanced = on_advanced };
	uint64_t end = RUN_T0 + RUN_WAKEUPS * RUN_STEP;
	int i;

	ao->fd_kind = attach_fixture__fd_kind;
	cr_assert_eq(attach_run__init(&run, &targets, ao, &hooks), 0);
	cr_assert_eq(run.targets.pids, pids, "the targets are copied, what they point to is the caller's");
	run.res.trace_start_ns = RUN_T0 - 5000;
	attach_run__begin(&run);
	attach_fixture__add(&fixture, with_next_tgid(with_next_comm(ev_switch(RUN_T0 - 1000, 0, 0, RUN_WAKER, 0, 0),
								    "producer"), RUN_PROC));
	for (i = 0; i < 3; i++)
		attach_fixture__wakeup(&fixture, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_write,
								    RUN_EFD, 8, RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				       SYS_read, RUN_EFD, 0);
	attach_run__advance(&run, RUN_T0 + 3 * RUN_STEP, 0);
	for (; i < 5; i++)
		attach_fixture__wakeup(&fixture, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_futex,
								    RUN_FUTEX, FUTEX_WAKE_PRIVATE,
								    RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				       SYS_futex, RUN_FUTEX, FUTEX_WAIT_PRIVATE);
	attach_fixture__wakeup(&fixture, i++, ev_waker_timer(0, 0, RUN_WAKER, RUN_WAKEE, RUN_T0 + 5 * RUN_STEP + 1900,
							    RUN_TIMER_FN),
			       SYS_clock_nanosleep, 0, 0);
	attach_fixture__wakeup(&fixture, i, (struct wp_event){ .type = 0 }, SYS_read, RUN_EFD, 0);
	attach_run__advance(&run, end, drops);
	run.res.trace_end_ns = end;
	run.res.drops_total = drops;
	attach_run__end(&run);
}

Test(attach_run, a_replayed_run_hands_every_record_to_its_analysis_and_reports_it)
{
	struct attach_analysis_opts ao = { .outliers = RUN_OUTLIERS };
	struct attach_report rep;

	replay(&ao, 0);
	attach_run__report(&run, &(struct attach_view){ .pairs = 10 }, &rep);
	cr_assert_eq(rep.targets, &run.targets);
	cr_assert_eq(rep.run, &run.res);
	cr_assert_eq(rep.agg, run.analysis->agg);
	cr_assert_eq(rep.agg->wakeups, RUN_WAKEUPS, "every wakeup went through the run into the aggregate");
	cr_assert_eq(rep.agg->complete, RUN_COMPLETE);
	cr_assert_eq(rep.counters, attach_analysis__counters(run.analysis));
	/* the switch-in that names the waker, and eight records a wakeup but the one without a WAKER record */
	cr_assert_eq(rep.counters->events, 1 + 8 * RUN_WAKEUPS - 1);
	cr_assert_eq(rep.target_wakeups, RUN_WAKEUPS, "the wakee's process is the --pid target");
	cr_assert_eq(rep.pairs, 10);
	cr_assert_eq(rep.order, ATTACH_ORDER_COUNT);
	cr_assert_null(rep.cgroups);
}

Test(attach_run, its_hooks_see_it_begin_and_each_advance_as_it_stands_then)
{
	struct attach_analysis_opts ao = { 0 };

	replay(&ao, 3);
	cr_assert_eq(seen.begun, 1);
	cr_assert_eq(seen.run, &run);
	cr_assert_eq(seen.advanced, 2);
	cr_assert_eq(seen.complete_ns[0], RUN_T0 + 3 * RUN_STEP);
	cr_assert_eq(seen.drops[0], 0);
	cr_assert_eq(seen.complete_ns[1], RUN_T0 + RUN_WAKEUPS * RUN_STEP);
	cr_assert_eq(seen.drops[1], 3);
	cr_assert_eq(run.complete_ns, RUN_T0 + RUN_WAKEUPS * RUN_STEP, "the last advance, kept");
	cr_assert_eq(run.drops, 3);
}

Test(attach_run, the_report_shows_the_run_as_the_views_choices_ask)
{
	static const int32_t other[1] = { RUN_WAKER };
	struct attach_analysis_opts ao = { .tids = other, .nr_tids = 1 };
	struct attach_report rep;

	/* --tid of a thread that was never woken: every wakeup is left out of the tables */
	replay(&ao, 0);
	attach_run__report(&run, &(struct attach_view){ .tids = other, .nr_tids = 1, .pairs = 3,
							.order = ATTACH_ORDER_COST }, &rep);
	cr_assert_eq(rep.tids, other);
	cr_assert_eq(rep.nr_tids, 1);
	cr_assert_eq(rep.tids_left_out, RUN_WAKEUPS);
	cr_assert_eq(rep.agg->wakeups, 0);
	cr_assert_eq(rep.pairs, 3);
	cr_assert_eq(rep.order, ATTACH_ORDER_COST);
}

Test(attach_run, a_run_never_made_frees_as_one_that_ran)
{
	/* the owner's close runs whatever happened: a run zeroed, never begun, is nothing to free */
	attach_run__free(&run);
	cr_assert_null(run.analysis);
	cr_assert_null(run.res.stacks);
}
