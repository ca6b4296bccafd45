// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus_attach.c - an attach run's numbers as wakeprobe_*
 * metrics: the small attach run of attach_fixture.h, each figure held to what
 * went in, at the end and during the run; every family whole in one place,
 * once, and as OpenMetrics names it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "cgroup_run.h"
#include "memout.h"
#include "prom_text.h"
#include "prometheus_attach.h"

TestSuite(prometheus_attach, .init = memout__open, .fini = memout__close);

#define AT_LABELS "host=\"test\\\\host\",target=\"pid 5000\""
#define PAIR_LABELS AT_LABELS ",waker_class=\"syscall\",waker=\"thread producer 5001\",wakee=\"con,\\\"sumer 5002\""

static void print_attach_run(bool at_end)
{
	static struct attach_fixture run;
	struct prometheus_attach pa;

	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	pa = (struct prometheus_attach){
		.host = "test\\host",
		.target = "pid 5000",
		.started_unix_ns = run.run.meta.started_unix_ns,
		.traced_ns = 705000,
		.agg = run.agg,
		.counters = attach__counters(run.engine),
		.drops = 4,
		.missed_runs_known = at_end,
		.missed_runs = run.run.missed_runs,
	};
	prometheus_attach__print(out, &pa);
	attach_fixture__free(&run);
}

Test(prometheus_attach, an_attach_run_gives_its_kernel_phases_pairs_and_wakers)
{
	char buf[64], sample[256];
	const char *doc;

	print_attach_run(true);
	doc = written();
	prom_check_families(doc, 10);
	/* six complete wakeups: runq_wait 3000, 5000, 33000, 3000, 3000, 3000 ns */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_count{" AT_LABELS ",phase=\"runq_wait\"}", buf,
				       sizeof(buf)), "6");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_sum{" AT_LABELS ",phase=\"runq_wait\"}", buf,
				       sizeof(buf)), "0.00005");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{" AT_LABELS ",phase=\"runq_wait\",le=\"4.095e-06\"}",
				       buf, sizeof(buf)), "4");
	/* the timer's wakeup has no notify_kernel */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_count{" AT_LABELS ",phase=\"notify_kernel\"}", buf,
				       sizeof(buf)), "5");
	/* attach mode has no stamps inside the program: no user phases at all */
	cr_expect_not(strstr(doc, "phase=\"notify_user\""));
	cr_expect_not(strstr(doc, "phase=\"resume_user\""));

	/* the eventfd pair: its wakee's comma and quote kept, the quote escaped */
	snprintf(sample, sizeof(sample), "wakeprobe_pair_wake_to_run_seconds_count{%s,mechanism=\"eventfd write -> read\"}",
		 PAIR_LABELS);
	cr_expect_str_eq(prom_value_of(doc, sample, buf, sizeof(buf)), "3");
	/* sched_waking +2000 to the switch-in +6000 + extra: 4000, 6000, 34000 */
	snprintf(sample, sizeof(sample), "wakeprobe_pair_wake_to_run_seconds_sum{%s,mechanism=\"eventfd write -> read\"}",
		 PAIR_LABELS);
	cr_expect_str_eq(prom_value_of(doc, sample, buf, sizeof(buf)), "0.000044");
	snprintf(sample, sizeof(sample), "wakeprobe_pair_notify_to_return_seconds_count{%s,mechanism=\"eventfd write -> read\"}",
		 PAIR_LABELS);
	cr_expect_str_eq(prom_value_of(doc, sample, buf, sizeof(buf)), "3");

	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" AT_LABELS ",label=\"complete\"}", buf,
				       sizeof(buf)), "6");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" AT_LABELS ",label=\"missing_event\"}", buf,
				       sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_by_waker_class_total{" AT_LABELS ",waker_class=\"timer\"}",
				       buf, sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_by_waker_class_total{" AT_LABELS ",waker_class=\"none\"}",
				       buf, sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_pairs_untabled_wakeups_total{" AT_LABELS "}", buf, sizeof(buf)),
			 "0");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_pairs_replaced_total{" AT_LABELS "}", buf, sizeof(buf)), "0");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_dropped_events_total{" AT_LABELS "}", buf, sizeof(buf)), "4");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_traced_seconds_total{" AT_LABELS "}", buf, sizeof(buf)),
			 "0.000705");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_missed_runs_total{" AT_LABELS "}", buf, sizeof(buf)), "3");
}

Test(prometheus_attach, an_attach_run_adds_up_by_cause_and_by_record)
{
	static struct attach_fixture run;
	char buf[64], want[64], sample[160];
	const char *doc;
	int64_t explained = 0;

	print_attach_run(true);
	doc = written();
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	/* the same figures the aggregate holds, cause by cause */
	for (int c = 0; c < NR_CAUSES; c++) {
		snprintf(sample, sizeof(sample), "wakeprobe_cause_seconds_total{" AT_LABELS ",cause=\"%s\"}",
			 wakeup__cause_name(c));
		prom__seconds_text((uint64_t)run.agg->causes.cause_ns[c], want, sizeof(want));
		cr_expect_str_eq(prom_value_of(doc, sample, buf, sizeof(buf)), want, "%s", sample);
		explained += run.agg->causes.cause_ns[c];
	}
	cr_expect_gt(explained, 0);
	snprintf(want, sizeof(want), "%" PRIu64, run.agg->causes.wakeups);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_explained_wakeups_total{" AT_LABELS "}", buf, sizeof(buf)), want);
	cr_expect_gt(run.agg->causes.wakeups, 0);
	snprintf(want, sizeof(want), "%" PRIu64, attach__counters(run.engine)->events);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_trace_records_total{" AT_LABELS "}", buf, sizeof(buf)), want);
	snprintf(want, sizeof(want), "%.6g", (double)attach__counters(run.engine)->events / RUN_WAKEUPS);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_trace_records_per_wakeup{" AT_LABELS "}", buf, sizeof(buf)), want);
	attach_fixture__free(&run);
}

/*
 * 300 pairs that come once past the run's three: the pair series are the
 * 128 rows, and the counters say how often a row changed hands and how many
 * wakeups are in no series
 */
Test(prometheus_attach, once_pair_rows_changed_hands_the_series_are_the_rows_and_the_counters_say_so)
{
	static struct attach_fixture run;
	struct attach_result r;
	struct prometheus_attach pa;
	char buf[64], want[64];
	const char *doc, *p;
	int series = 0;

	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	for (uint32_t i = 0; i < 300; i++) {
		r = attach_fixture__one_off(10000 + i, 0x10000000ull + 8 * i);
		attach_aggregate__add(run.agg, &r);
	}
	pa = (struct prometheus_attach){ .host = "test\\host", .target = "pid 5000", .traced_ns = 705000,
					 .agg = run.agg, .counters = attach__counters(run.engine) };
	prometheus_attach__print(out, &pa);
	doc = written();
	prom_check_families(doc, 10);
	for (p = doc; (p = strstr(p, "\nwakeprobe_pair_wake_to_run_seconds_count{")); p++)
		series++;
	cr_expect_eq(series, ATTACH_AGG_MAX_PAIRS);
	snprintf(want, sizeof(want), "%" PRIu64, run.agg->pairs_replaced);
	cr_expect_eq(run.agg->pairs_replaced, 3 + 300 - ATTACH_AGG_MAX_PAIRS);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_pairs_replaced_total{" AT_LABELS "}", buf, sizeof(buf)), want);
	snprintf(want, sizeof(want), "%" PRIu64, run.agg->pairs_evicted);
	cr_expect_gt(run.agg->pairs_evicted, 0);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_pairs_untabled_wakeups_total{" AT_LABELS "}", buf, sizeof(buf)),
			 want);
	attach_fixture__free(&run);
}

Test(prometheus_attach, a_rewrite_during_the_run_leaves_out_what_only_the_end_knows)
{
	const char *doc;

	print_attach_run(false);
	doc = written();
	prom_check_families(doc, 10);
	cr_expect_not(strstr(doc, "wakeprobe_bpf_missed_runs_total"));
	cr_expect(prom_has_sample(doc, "wakeprobe_dropped_events_total{"));
}

Test(prometheus_attach, an_attach_run_as_openmetrics_has_every_family_as_openmetrics_names_it)
{
	char *om;

	print_attach_run(true);
	om = prom_openmetrics_of(written());
	prom_check_openmetrics(om, 10);
	cr_expect(strstr(om, "\n# TYPE wakeprobe_pair_wake_to_run_seconds histogram\n"));
	cr_expect(strstr(om, "\n# TYPE wakeprobe_wakeups_by_waker_class counter\n"));
	free(om);
}

Test(prometheus_attach, by_cgroup_the_series_are_the_cgroups_and_the_pairs_are_theirs)
{
	static struct attach_fixture run;
	struct prometheus_attach pa;
	char buf[64];
	const char *doc;

	cgroup_run__setup();
	cgroup_run__make(1);
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	pa = (struct prometheus_attach){ .host = "test\\host", .target = "pid 5000", .traced_ns = 705000,
					 .agg = run.agg, .counters = attach__counters(run.engine), .cgroups = cg_stats };
	prometheus_attach__print(out, &pa);
	doc = written();
	prom_check_families(doc, 10);
	/* no pair of threads: their tids would make a series each */
	cr_expect_not(strstr(doc, "wakeprobe_pair_wake_to_run_seconds"));
	/* web took the one series of each kind (--top 1), batch is other's */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cgroup_wake_to_run_seconds_count{" AT_LABELS
				       ",cgroup=\"web.service\"}", buf, sizeof(buf)), "4");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cgroup_wake_to_run_seconds_sum{" AT_LABELS
				       ",cgroup=\"other\"}", buf, sizeof(buf)), "0.000005");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cgroup_neighbour_wait_seconds_total{" AT_LABELS
				       ",cgroup=\"web.service\"}", buf, sizeof(buf)), "0.00008");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cgroup_runq_wait_seconds_total{" AT_LABELS
				       ",cgroup=\"web.service\",holder=\"idle\"}", buf, sizeof(buf)), "0.000008");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cgroup_pair_wakeups_total{" AT_LABELS
				       ",waker_cgroup=\"web.service\",cgroup=\"web.service\",mechanism=\"futex\"}",
				       buf, sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_mechanism_wakeups_total{" AT_LABELS ",mechanism=\"futex\"}",
				       buf, sizeof(buf)), "5");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_series_limit{" AT_LABELS ",kind=\"pair\"}", buf, sizeof(buf)),
			 "1");
	attach_fixture__free(&run);
	cgroup_run__teardown();
}
