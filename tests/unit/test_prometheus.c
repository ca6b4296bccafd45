// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus.c - --prometheus's sink (prometheus.c): it writes at the
 * end only; a workload's runs are prometheus_workload.c's document; an
 * attach run is prometheus_attach.c's, labelled with the run's host and
 * the target the outputs were told, its figures the whole run's (what only
 * the end knows included); no report writes nothing; a design is refused.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "memout.h"
#include "prom_text.h"
#include "prometheus_attach.h"
#include "prometheus_workload.h"
#include "sink.h"

TestSuite(prometheus);

Test(prometheus, it_writes_at_the_end_only)
{
	cr_assert_str_eq(prometheus_sink.option, "--prometheus");
	cr_assert_not_null(prometheus_sink.write);
	cr_assert(!prometheus_sink.open && !prometheus_sink.begin && !prometheus_sink.sample &&
		  !prometheus_sink.wakeup && !prometheus_sink.event && !prometheus_sink.end && !prometheus_sink.close);
}

Test(prometheus, a_workloads_runs_are_the_workload_parts_document)
{
	static const struct workload_desc eventfd_wl = { .name = "eventfd" };
	const struct workload_desc *wl[] = { &eventfd_wl };
	struct run_result *res = calloc(1, sizeof(*res));
	const struct run_result *runs[] = { res };
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .wl = wl, .res = runs, .n = 1 } };
	char *want, *got;

	cr_assert_not_null(res);
	aggregate__init(&res->agg);
	snprintf(res->meta.hostname, sizeof(res->meta.hostname), "h1");
	histogram__add(&res->agg.all_total, 700);
	res->agg.samples = 1;
	want = printed(cr_assert_eq(prometheus_workload__print(__f, wl, runs, 1), 0));
	got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), 0));
	cr_assert(prom_has_sample(got, "wakeprobe_wakeups_total{host=\"h1\",workload=\"eventfd\",label=\"untraced\"} 1"),
		  "%s", got);
	cr_assert_str_eq(got, want);

	free(want);
	free(got);
	free(res);
}

Test(prometheus, an_attach_run_is_labelled_with_its_host_and_target_and_has_what_only_the_end_knows)
{
	struct attach_fixture run = {};
	struct results r = { .kind = RUN_ATTACH, .attach = { .target = "./server -p 80" } };
	struct prometheus_attach pa;
	char *want, *got, buf[64];

	attach_fixture__make(&run);
	run.run.drops_total = 4;
	run.run.cost = (struct trace_cost){ .known = true, .bpf_stats_on = true, .bpf_runs = 900, .bpf_run_ns = 45000,
					    .self_cpu_ns = 2000000 };
	r.attach.report = &run.report;
	pa = (struct prometheus_attach){
		.host = "testhost",
		.target = "./server -p 80",
		.started_unix_ns = run.run.meta.started_unix_ns,
		.traced_ns = run.run.trace_end_ns - run.run.trace_start_ns,
		.agg = run.agg,
		.counters = run.report.counters,
		.drops = 4,
		.missed_runs_known = true,
		.missed_runs = 3,
		.lean = false,
		.bpf = &run.run.counters,
		.lean_counters = &run.run.lean,
		.cost = &run.run.cost,
	};
	want = printed(prometheus_attach__print(__f, &pa));
	got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), 0));
	cr_assert_str_eq(prom_value_of(got, "wakeprobe_bpf_missed_runs_total{host=\"testhost\",target=\"./server -p 80\"}",
				       buf, sizeof(buf)), "3");
	cr_assert_str_eq(prom_value_of(got, "wakeprobe_bpf_program_runs_total{host=\"testhost\","
				       "target=\"./server -p 80\"}", buf, sizeof(buf)), "900");
	cr_assert_str_eq(got, want);
	cr_assert_str_eq(prom_value_of(got, "wakeprobe_lost_total{host=\"testhost\",target=\"./server -p 80\","
				       "what=\"other_records_dropped\"}", buf, sizeof(buf)), "4",
			 "the full engine's drops are records, not wakeups");
	free(want);
	free(got);
	/* no report: nothing */
	r.attach.report = NULL;
	got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), 0));
	cr_assert_str_eq(got, "");
	free(got);
	attach_fixture__free(&run);
}

Test(prometheus, a_host_name_of_the_fields_whole_size_is_kept_whole)
{
	struct attach_fixture run = {};
	struct results r = { .kind = RUN_ATTACH, .attach = { .target = "pid 5000" } };
	char host[sizeof(run.run.meta.hostname) + 1], sample[256], buf[64], *got;

	attach_fixture__make(&run);
	/* no NUL inside the field: the run's meta keeps the kernel's name as it is */
	memset(run.run.meta.hostname, 'h', sizeof(run.run.meta.hostname));
	memset(host, 'h', sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	r.attach.report = &run.report;
	got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), 0));
	snprintf(sample, sizeof(sample), "wakeprobe_bpf_missed_runs_total{host=\"%s\",target=\"pid 5000\"}", host);
	cr_assert_str_eq(prom_value_of(got, sample, buf, sizeof(buf)), "3");
	free(got);
	attach_fixture__free(&run);
}

Test(prometheus, a_design_is_refused)
{
	struct results r = { .kind = RUN_DESIGN, .design = { .workload = "burst-queue" } };
	char *got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), -EINVAL));

	cr_assert_str_eq(got, "");
	free(got);
}

/* every loss of an attach run is in its metrics, by what it was, as the report warns of it */
Test(prometheus, an_attach_runs_losses_are_each_a_sample_of_their_own)
{
	struct attach_fixture run = {};
	struct results r = { .kind = RUN_ATTACH, .attach = { .target = "pid 5000" } };
	char *got, buf[64];

	attach_fixture__make(&run);
	run.targets.lean = true;
	run.run.drops_total = 1500;
	run.run.counters.dropped[WP_EV_LEAN] = 1200;
	run.run.counters.tracked_full = 2;
	run.run.lean.no_storage = 5;
	r.attach.report = &run.report;
	got = printed(cr_assert_eq(prometheus_sink.write(__f, &r), 0));
#define LOST(what) "wakeprobe_lost_total{host=\"testhost\",target=\"pid 5000\",what=\"" what "\"}"
	cr_assert_str_eq(prom_value_of(got, LOST("wakeup_records_dropped"), buf, sizeof(buf)), "1200");
	cr_assert_str_eq(prom_value_of(got, LOST("other_records_dropped"), buf, sizeof(buf)), "300");
	cr_assert_str_eq(prom_value_of(got, LOST("processes_untracked"), buf, sizeof(buf)), "2");
	cr_assert_str_eq(prom_value_of(got, LOST("task_storage_refused"), buf, sizeof(buf)), "5");
	cr_assert_str_eq(prom_value_of(got, LOST("flight_records_lost"), buf, sizeof(buf)), "0");
#undef LOST
	cr_assert_str_eq(prom_value_of(got, "wakeprobe_bpf_missed_runs_total{host=\"testhost\",target=\"pid 5000\"}", buf,
				       sizeof(buf)), "3", "at the end, the runs the kernel skipped");
	free(got);
	attach_fixture__free(&run);
}
