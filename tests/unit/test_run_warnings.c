// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_warnings.c - the WARNING and NOTE lines of a workload's run
 * (run_warnings.c), which the text report prints and the JSON lists: each
 * in its order and in its words, none for a clean or an untraced run, and
 * the host's steal given to wakeups past what /proc/stat allows.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "memout.h"
#include "run_warnings.h"
#include "samples.h"

TestSuite(run_warnings, .init = memout__open, .fini = memout__close);

/* collect - each warning as a line "KIND|text" of the stream @ctx */
static void collect(const char *kind, const char *line, void *ctx)
{
	FILE *f = ctx;

	fprintf(f, "%s|%s\n", kind, line);
}

Test(run_warnings, every_warning_and_note_comes_in_its_order)
{
	struct run_result *r = new_run_result();

	r->traced = true;
	r->drops_total = 5;
	r->missed_runs = 2;
	r->agg.samples = 10;
	r->agg.by_label[LABEL_LOST_EVENTS] = 1;
	r->samples_sent = 11;
	r->seq_errors = 3;
	r->agg.phase_sum_mismatch = 4;
	r->interrupted = true;
	r->stop_signal = SIGTERM;
	r->workload_failed = true;
	snprintf(r->workload_error, sizeof(r->workload_error), "killed by SIGKILL");
	/* 1 ms given to wakeups, /proc/stat allows (0 + 2) ticks of 100 us: 0.8 ms over */
	r->steal = (struct host_steal){ .measured = true, .cpus = { 0, 1 }, .clk_tck = 10000, .nr_cpus = 1 };
	r->agg.causes.cause_ns[CAUSE_HOST] = 1000000;
	run_warnings__each(r, collect, out);
	cr_assert_str_eq(written(),
		"WARNING|7 events lost, 1 samples marked lost_events (not attributed); raise --ringbuf-kb\n"
		"WARNING|11 samples were sent but 10 were read\n"
		"WARNING|3 samples arrived out of sequence\n"
		"WARNING|4 complete samples whose phases do not add up\n"
		"NOTE|interrupted by SIGTERM: the figures cover the samples taken until then\n"
		"WARNING|workload failed: killed by SIGKILL\n"
		"WARNING|the host's steal given to wakeups is 0.800 ms more than /proc/stat allows: the per-CPU "
		"layout read from the BTF is wrong\n");
	free(r);
}

Test(run_warnings, a_clean_run_has_no_warning_and_skipped_runs_alone_need_no_bigger_ring)
{
	struct run_result *r = new_run_result();

	r->traced = true;
	r->agg.samples = r->samples_sent = 10;
	run_warnings__each(r, collect, out);
	cr_assert_str_eq(written(), "");
	r->missed_runs = 2;
	r->interrupted = true;
	run_warnings__each(r, collect, out);
	cr_assert_str_eq(written(), "WARNING|2 events lost, 0 samples marked lost_events (not attributed)\n"
			 "NOTE|interrupted: the figures cover the samples taken until then\n");
	free(r);
}

Test(run_warnings, an_untraced_run_has_no_events_to_lose)
{
	struct run_result *r = new_run_result();

	r->drops_total = 5;
	r->agg.samples = r->samples_sent = 10;
	run_warnings__each(r, collect, out);
	cr_assert_str_eq(written(), "");
	free(r);
}

Test(run_warnings, the_host_excess_is_the_steal_given_to_wakeups_past_proc_stats_bound)
{
	struct host_steal h = { .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 3, .nr_cpus = 2,
				.seen_ns = 1500000 };

	/* at most (3 + 2 per CPU) ticks of 10 ms */
	cr_assert_eq(run_warnings__host_excess(&h, 250000), 0);
	cr_assert_eq(run_warnings__host_excess(&h, 70000000), 0, "at the bound is within it");
	cr_assert_eq(run_warnings__host_excess(&h, 70000001), 1);
	/* /proc/stat not read: no bound, nothing to call excess */
	h.clk_tck = 0;
	cr_assert_eq(run_warnings__host_excess(&h, 1000000000), 0);
	/* steal not measured: nothing either, whatever /proc/stat says */
	h = (struct host_steal){ .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 3, .nr_cpus = 2 };
	cr_assert_eq(run_warnings__host_excess(&h, 1000000000), 0);
}
