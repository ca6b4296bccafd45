// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus_workload.c - the runs of wakeprobe's own workloads as
 * wakeprobe_* metrics: synthetic runs of the paced paths, traced and not,
 * each figure held to what went in; every family whole in one place, once,
 * the runs of several paths sharing it, and as OpenMetrics names it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memout.h"
#include "prom_text.h"
#include "prometheus_workload.h"
#include "samples.h"

static struct run_result *runs[2];

static void setup(void)
{
	memout__open();
	for (int i = 0; i < 2; i++)
		runs[i] = new_run_result();
}

static void teardown(void)
{
	memout__close();
	for (int i = 0; i < 2; i++)
		free(runs[i]);
}

TestSuite(prometheus_workload, .init = setup, .fini = teardown);

static const struct workload_desc eventfd_wl = { .name = "eventfd" };
static const struct workload_desc spin_wl = { .name = "spin", .user_only = true };

/*
 * traced_run - @r as a traced run on host h"1 of three complete wakeups
 * and one no_sleep: runq_wait 1000, 2000 and 40000 ns, idle 1500 ns and
 * other_task 500 ns in all, 45 records, 2 dropped
 */
static void traced_run(struct run_result *r)
{
	static const uint64_t runq[] = { 1000, 2000, 40000 };

	snprintf(r->meta.hostname, sizeof(r->meta.hostname), "h\"1");
	r->meta.started_unix_ns = 1700000000500000000ull;
	r->traced = true;
	r->trace_start_ns = 1000;
	r->trace_end_ns = 3000001000ull;
	for (int i = 0; i < 3; i++) {
		for (int p = 0; p < NR_PHASES; p++)
			histogram__add(&r->agg.phase[p], p == PHASE_RUNQ_WAIT ? runq[i] : 100);
		histogram__add(&r->agg.total, runq[i] + 500);
		histogram__add(&r->agg.all_total, runq[i] + 500);
	}
	histogram__add(&r->agg.all_total, 300);
	r->agg.samples = 4;
	r->agg.by_label[LABEL_COMPLETE] = 3;
	r->agg.by_label[LABEL_NO_SLEEP] = 1;
	r->agg.causes.cause_ns[CAUSE_IDLE] = 1500;
	r->agg.causes.cause_ns[CAUSE_OTHER_TASK] = 500;
	r->agg.causes.wakeups = 3;
	r->merge.events = 45;
	r->drops_total = 2;
	r->missed_runs = 1;
}

/* untraced_run - @r as a run without tracing of two samples, 700 and 900 ns */
static void untraced_run(struct run_result *r)
{
	snprintf(r->meta.hostname, sizeof(r->meta.hostname), "h\"1");
	histogram__add(&r->agg.all_total, 700);
	histogram__add(&r->agg.all_total, 900);
	r->agg.samples = 2;
}

#define WL_LABELS "host=\"h\\\"1\",workload=\"eventfd\""

Test(prometheus_workload, a_traced_run_gives_its_phases_labels_causes_and_cost)
{
	const struct workload_desc *wl[] = { &eventfd_wl };
	char buf[64];
	const char *doc;

	traced_run(runs[0]);
	cr_assert_eq(prometheus_workload__print(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	prom_check_families(doc, 10);

	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{" WL_LABELS ",phase=\"runq_wait\",le=\"1.023e-06\"}",
				       buf, sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{" WL_LABELS ",phase=\"runq_wait\",le=\"2.047e-06\"}",
				       buf, sizeof(buf)), "2");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_sum{" WL_LABELS ",phase=\"runq_wait\"}", buf,
				       sizeof(buf)), "0.000043");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_count{" WL_LABELS ",phase=\"resume_user\"}", buf,
				       sizeof(buf)), "3");
	/* traced: the whole wakeup of the complete ones, not of every sample */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeup_seconds_count{" WL_LABELS "}", buf, sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeup_seconds_sum{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.0000445");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"complete\"}", buf,
				       sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"no_sleep\"}", buf,
				       sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"woken_early\"}", buf,
				       sizeof(buf)), "0");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cause_seconds_total{" WL_LABELS ",cause=\"idle\"}", buf,
				       sizeof(buf)), "0.0000015");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cause_seconds_total{" WL_LABELS ",cause=\"other_task\"}", buf,
				       sizeof(buf)), "0.0000005");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_cause_seconds_total{" WL_LABELS ",cause=\"unexplained\"}", buf,
				       sizeof(buf)), "0");
	/* the wakeups those seconds are of: every complete one */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_explained_wakeups_total{" WL_LABELS "}", buf, sizeof(buf)),
			 "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_dropped_events_total{" WL_LABELS "}", buf, sizeof(buf)), "2");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_trace_records_total{" WL_LABELS "}", buf, sizeof(buf)), "45");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_trace_records_per_wakeup{" WL_LABELS "}", buf, sizeof(buf)),
			 "11.25");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_missed_runs_total{" WL_LABELS "}", buf, sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_traced_seconds_total{" WL_LABELS "}", buf, sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_run_start_timestamp_seconds{" WL_LABELS "}", buf, sizeof(buf)),
			 "1700000000.5");
	/* the BPF programs' own time is there only where the run timed them */
	cr_expect_not(prom_has_sample(doc, "wakeprobe_bpf_program_runs_total"));
	cr_expect_not(strstr(doc, "bpf_program_run_seconds_total"));
}

Test(prometheus_workload, the_bpf_programs_time_is_written_where_the_run_timed_them)
{
	const struct workload_desc *wl[] = { &eventfd_wl };
	char buf[64];
	const char *doc;

	traced_run(runs[0]);
	runs[0]->cost.known = true;
	runs[0]->cost.bpf_stats_on = true;
	runs[0]->cost.bpf_runs = 9000;
	runs[0]->cost.bpf_run_ns = 1234567;
	runs[0]->cost.self_cpu_ns = 2500000;
	cr_assert_eq(prometheus_workload__print(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_program_runs_total{" WL_LABELS "}", buf, sizeof(buf)), "9000");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_program_run_seconds_total{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.001234567");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_self_cpu_seconds_total{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.0025");
}

Test(prometheus_workload, runs_of_several_workloads_share_each_family)
{
	const struct workload_desc *wl[] = { &eventfd_wl, &spin_wl };
	char buf[64];
	const char *doc;

	traced_run(runs[0]);
	traced_run(runs[1]);
	cr_assert_eq(prometheus_workload__print(out, wl, (const struct run_result *const *)runs, 2), 0);
	doc = written();
	prom_check_families(doc, 10);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{host=\"h\\\"1\",workload=\"spin\",label=\"complete\"}",
				       buf, sizeof(buf)), "3");
	/* spin has no kernel in its path: no phases, no causes, the whole wakeup all the same */
	cr_expect_not(prom_has_sample(doc, "wakeprobe_phase_seconds_count{host=\"h\\\"1\",workload=\"spin\""));
	cr_expect_not(prom_has_sample(doc, "wakeprobe_cause_seconds_total{host=\"h\\\"1\",workload=\"spin\""));
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeup_seconds_count{host=\"h\\\"1\",workload=\"spin\"}", buf,
				       sizeof(buf)), "3");
	cr_expect(prom_has_sample(doc, "wakeprobe_phase_seconds_count{" WL_LABELS));
}

Test(prometheus_workload, an_untraced_run_gives_its_totals_and_nothing_tracing_would_have)
{
	const struct workload_desc *wl[] = { &eventfd_wl };
	char buf[64];
	const char *doc;

	untraced_run(runs[0]);
	cr_assert_eq(prometheus_workload__print(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	prom_check_families(doc, 2);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"untraced\"}", buf,
				       sizeof(buf)), "2");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeup_seconds_sum{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.0000016");
	cr_expect_not(strstr(doc, "label=\"complete\""));
	cr_expect_not(strstr(doc, "wakeprobe_phase_seconds"));
	cr_expect_not(strstr(doc, "wakeprobe_cause_seconds_total"));
	cr_expect_not(strstr(doc, "wakeprobe_dropped_events_total"));
	cr_expect_not(strstr(doc, "wakeprobe_trace_records"));
	cr_expect_not(strstr(doc, "wakeprobe_run_start_timestamp_seconds"));
}

Test(prometheus_workload, a_run_as_openmetrics_has_every_family_as_openmetrics_names_it)
{
	const struct workload_desc *wl[] = { &eventfd_wl, &spin_wl };
	char buf[64], *om;

	traced_run(runs[0]);
	untraced_run(runs[1]);
	runs[0]->cost.known = true;
	runs[0]->cost.bpf_stats_on = true;
	runs[0]->cost.bpf_runs = 9000;
	cr_assert_eq(prometheus_workload__print(out, wl, (const struct run_result *const *)runs, 2), 0);
	om = prom_openmetrics_of(written());
	prom_check_openmetrics(om, 10);
	/* the series are the text format's, a counter's _total and all */
	cr_expect_str_eq(prom_value_of(om, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"complete\"}", buf,
				       sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(om, "wakeprobe_phase_seconds_bucket{" WL_LABELS
				       ",phase=\"runq_wait\",le=\"1.023e-06\"}", buf, sizeof(buf)), "1");
	cr_expect(strstr(om, "\n# TYPE wakeprobe_wakeups counter\n"));
	free(om);
}
