// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus_metrics.c - a run's numbers as wakeprobe_* metrics:
 * synthetic runs of the paced paths, and the small attach run of
 * attach_run.h, each figure held to what went in; every family whole in one
 * place, once.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_run.h"
#include "prom.h"
#include "prom_text.h"
#include "prometheus_metrics.h"

static char *text;
static size_t text_len;
static FILE *out;
static struct run_result *runs[2];

static void setup(void)
{
	text = NULL;
	out = open_memstream(&text, &text_len);
	cr_assert_not_null(out);
	for (int i = 0; i < 2; i++) {
		runs[i] = calloc(1, sizeof(*runs[i]));
		cr_assert_not_null(runs[i]);
		aggregate__init(&runs[i]->agg);
	}
}

static void teardown(void)
{
	if (out)
		fclose(out);
	free(text);
	for (int i = 0; i < 2; i++)
		free(runs[i]);
}

TestSuite(prometheus_metrics, .init = setup, .fini = teardown);

static const char *written(void)
{
	cr_assert_eq(fflush(out), 0);
	return text;
}

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

/*
 * check_families - every sample of @doc comes after its family's HELP and
 * TYPE, which come once each, and a family's samples come together; a
 * histogram's _bucket, _sum and _count are its samples; at least @min families
 */
static void check_families(const char *doc, int min)
{
	char families[64][96];
	int n = 0;
	char current[96] = "";

	for (const char *line = doc; line; line = prom_line_after(line)) {
		char name[96];

		if (!strncmp(line, "# HELP ", 7))
			continue;
		if (!strncmp(line, "# TYPE ", 7)) {
			cr_assert_eq(sscanf(line + 7, "%95s", current), 1);
			for (int i = 0; i < n; i++)
				cr_expect_str_neq(families[i], current, "%s opened twice", current);
			cr_assert_lt(n, 64);
			snprintf(families[n++], sizeof(families[0]), "%s", current);
			continue;
		}
		cr_assert_eq(sscanf(line, "%95[a-z_]", name), 1, "a line that is no sample: %.40s", line);
		cr_expect(!strncmp(name, current, strlen(current)) &&
				  (!name[strlen(current)] || !strcmp(name + strlen(current), "_bucket") ||
				   !strcmp(name + strlen(current), "_sum") || !strcmp(name + strlen(current), "_count")),
			  "%s outside its family (in %s)", name, current);
		cr_expect(!strncmp(name, "wakeprobe_", 10));
	}
	cr_expect_geq(n, min);
}

#define WL_LABELS "host=\"h\\\"1\",workload=\"eventfd\""

Test(prometheus_metrics, a_traced_run_gives_its_phases_labels_causes_and_cost)
{
	const struct workload_desc *wl[] = { &eventfd_wl };
	char buf[64];
	const char *doc;

	traced_run(runs[0]);
	cr_assert_eq(prometheus_metrics__print_runs(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	check_families(doc, 10);

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

Test(prometheus_metrics, the_bpf_programs_time_is_written_where_the_run_timed_them)
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
	cr_assert_eq(prometheus_metrics__print_runs(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_program_runs_total{" WL_LABELS "}", buf, sizeof(buf)), "9000");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_bpf_program_run_seconds_total{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.001234567");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_self_cpu_seconds_total{" WL_LABELS "}", buf, sizeof(buf)),
			 "0.0025");
}

Test(prometheus_metrics, runs_of_several_workloads_share_each_family)
{
	const struct workload_desc *wl[] = { &eventfd_wl, &spin_wl };
	char buf[64];
	const char *doc;

	traced_run(runs[0]);
	traced_run(runs[1]);
	cr_assert_eq(prometheus_metrics__print_runs(out, wl, (const struct run_result *const *)runs, 2), 0);
	doc = written();
	check_families(doc, 10);
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{host=\"h\\\"1\",workload=\"spin\",label=\"complete\"}",
				       buf, sizeof(buf)), "3");
	/* spin has no kernel in its path: no phases, no causes, the whole wakeup all the same */
	cr_expect_not(prom_has_sample(doc, "wakeprobe_phase_seconds_count{host=\"h\\\"1\",workload=\"spin\""));
	cr_expect_not(prom_has_sample(doc, "wakeprobe_cause_seconds_total{host=\"h\\\"1\",workload=\"spin\""));
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_wakeup_seconds_count{host=\"h\\\"1\",workload=\"spin\"}", buf,
				       sizeof(buf)), "3");
	cr_expect(prom_has_sample(doc, "wakeprobe_phase_seconds_count{" WL_LABELS));
}

Test(prometheus_metrics, an_untraced_run_gives_its_totals_and_nothing_tracing_would_have)
{
	const struct workload_desc *wl[] = { &eventfd_wl };
	char buf[64];
	const char *doc;

	untraced_run(runs[0]);
	cr_assert_eq(prometheus_metrics__print_runs(out, wl, (const struct run_result *const *)runs, 1), 0);
	doc = written();
	check_families(doc, 2);
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

/* ---------------------------------------------------------------- attach mode */

#define AT_LABELS "host=\"test\\\\host\",target=\"pid 5000\""
#define PAIR_LABELS AT_LABELS ",waker_class=\"syscall\",waker=\"thread producer 5001\",wakee=\"con,\\\"sumer 5002\""

static void print_attach_run(bool at_end)
{
	static struct attach_run run;
	struct prometheus_attach pa;

	memset(&run, 0, sizeof(run));
	attach_run__make(&run);
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
	prometheus_metrics__print_attach(out, &pa);
	attach_run__free(&run);
}

Test(prometheus_metrics, an_attach_run_gives_its_kernel_phases_pairs_and_wakers)
{
	char buf[64], sample[256];
	const char *doc;

	print_attach_run(true);
	doc = written();
	check_families(doc, 10);
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

Test(prometheus_metrics, an_attach_run_adds_up_by_cause_and_by_record)
{
	static struct attach_run run;
	char buf[64], want[64], sample[160];
	const char *doc;
	int64_t explained = 0;

	print_attach_run(true);
	doc = written();
	memset(&run, 0, sizeof(run));
	attach_run__make(&run);
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
	attach_run__free(&run);
}

/*
 * 300 pairs that come once past the run's three: the pair series are the
 * 128 rows, and the counters say how often a row changed hands and how many
 * wakeups are in no series
 */
Test(prometheus_metrics, once_pair_rows_changed_hands_the_series_are_the_rows_and_the_counters_say_so)
{
	static struct attach_run run;
	struct attach_result r;
	struct prometheus_attach pa;
	char buf[64], want[64];
	const char *doc, *p;
	int series = 0;

	memset(&run, 0, sizeof(run));
	attach_run__make(&run);
	for (uint32_t i = 0; i < 300; i++) {
		r = attach_run__one_off(10000 + i, 0x10000000ull + 8 * i);
		attach_aggregate__add(run.agg, &r);
	}
	pa = (struct prometheus_attach){ .host = "test\\host", .target = "pid 5000", .traced_ns = 705000,
					 .agg = run.agg, .counters = attach__counters(run.engine) };
	prometheus_metrics__print_attach(out, &pa);
	doc = written();
	check_families(doc, 10);
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
	attach_run__free(&run);
}

Test(prometheus_metrics, a_rewrite_during_the_run_leaves_out_what_only_the_end_knows)
{
	const char *doc;

	print_attach_run(false);
	doc = written();
	check_families(doc, 10);
	cr_expect_not(strstr(doc, "wakeprobe_bpf_missed_runs_total"));
	cr_expect(prom_has_sample(doc, "wakeprobe_dropped_events_total{"));
}

/* ---------------------------------------------------------------- as OpenMetrics */

/*
 * check_openmetrics - @om as OpenMetrics 1.0 wants wakeprobe's families:
 * metadata naming each family once, before its samples; a counter's family
 * without _total and its samples with it; a gauge's samples its name; a
 * histogram's _bucket, _sum and _count, le in the exponent form below 1e-4;
 * no empty line, "# EOF" once, last. At least @min families.
 */
static void check_openmetrics(const char *om, int min)
{
	char families[64][96], current[96] = "", type[16] = "";
	int n = 0, samples = 0;

	cr_assert_not_null(om);
	cr_expect(strlen(om) > 6 && !strcmp(om + strlen(om) - 6, "# EOF\n"), "no # EOF at the end");
	cr_expect_eq(strstr(om, "# EOF\n"), om + strlen(om) - 6, "# EOF before the end");
	cr_expect_null(strstr(om, "\n\n"), "an empty line");
	for (const char *line = om; line; line = prom_line_after(line)) {
		char name[96], rest[96];
		const char *le;

		if (!strncmp(line, "# EOF", 5))
			break;
		if (!strncmp(line, "# HELP ", 7) || !strncmp(line, "# TYPE ", 7)) {
			cr_assert_eq(sscanf(line + 7, "%95s", name), 1);
			if (strcmp(name, current)) {
				for (int i = 0; i < n; i++)
					cr_expect_str_neq(families[i], name, "%s opened twice", name);
				cr_assert_lt(n, 64);
				snprintf(families[n++], sizeof(families[0]), "%s", name);
				snprintf(current, sizeof(current), "%s", name);
				type[0] = '\0';
				samples = 0;
			}
			cr_expect_eq(samples, 0, "metadata of %s after its samples", name);
			if (line[2] == 'T')
				cr_assert_eq(sscanf(line + 7, "%*s %15s", type), 1);
			continue;
		}
		samples++;
		cr_assert_eq(sscanf(line, "%95[a-z_]%95s", name, rest), 2, "a line that is no sample: %.40s", line);
		if (!strcmp(type, "counter")) {
			cr_expect(strlen(current) < 6 || strcmp(current + strlen(current) - 6, "_total"),
				  "a counter family named with _total: %s", current);
			cr_expect(!strncmp(name, current, strlen(current)) && !strcmp(name + strlen(current), "_total"),
				  "%s in the counter %s", name, current);
		} else if (!strcmp(type, "histogram")) {
			cr_expect(!strncmp(name, current, strlen(current)) &&
					  (!strcmp(name + strlen(current), "_bucket") ||
					   !strcmp(name + strlen(current), "_sum") ||
					   !strcmp(name + strlen(current), "_count")),
				  "%s in the histogram %s", name, current);
		} else {
			cr_expect_str_eq(type, "gauge", "%s: no type, or another", current);
			cr_expect_str_eq(name, current);
		}
		le = strstr(line, "le=\"");
		if (le && strchr(le, '\n') > le)
			cr_expect(strncmp(le + 4, "0.0000", 6), "le not canonical: %.80s", line);
	}
	cr_expect_geq(n, min);
}

/* as_openmetrics - what was written so far, as OpenMetrics, to free */
static char *as_openmetrics(void)
{
	const char *doc = written();
	char *om = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&om, &n);

	cr_assert_not_null(f);
	cr_assert_eq(prom__to_openmetrics(doc, strlen(doc), f), 0);
	cr_assert_eq(fclose(f), 0);
	return om;
}

Test(prometheus_metrics, a_run_as_openmetrics_has_every_family_as_openmetrics_names_it)
{
	const struct workload_desc *wl[] = { &eventfd_wl, &spin_wl };
	char buf[64], *om;

	traced_run(runs[0]);
	untraced_run(runs[1]);
	runs[0]->cost.known = true;
	runs[0]->cost.bpf_stats_on = true;
	runs[0]->cost.bpf_runs = 9000;
	cr_assert_eq(prometheus_metrics__print_runs(out, wl, (const struct run_result *const *)runs, 2), 0);
	om = as_openmetrics();
	check_openmetrics(om, 10);
	/* the series are the text format's, a counter's _total and all */
	cr_expect_str_eq(prom_value_of(om, "wakeprobe_wakeups_total{" WL_LABELS ",label=\"complete\"}", buf,
				       sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(om, "wakeprobe_phase_seconds_bucket{" WL_LABELS
				       ",phase=\"runq_wait\",le=\"1.023e-06\"}", buf, sizeof(buf)), "1");
	cr_expect(strstr(om, "\n# TYPE wakeprobe_wakeups counter\n"));
	free(om);
}

Test(prometheus_metrics, an_attach_run_as_openmetrics_has_every_family_as_openmetrics_names_it)
{
	char *om;

	print_attach_run(true);
	om = as_openmetrics();
	check_openmetrics(om, 10);
	cr_expect(strstr(om, "\n# TYPE wakeprobe_pair_wake_to_run_seconds histogram\n"));
	cr_expect(strstr(om, "\n# TYPE wakeprobe_wakeups_by_waker_class counter\n"));
	free(om);
}
