// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_design.c - a throughput workload's document, from a synthetic
 * struct design_run: the workload's fixture document as both runs', a
 * census fed known wakeups and switches, and attach_fixture.h's small attach
 * run as its traced kernel side. The document is read back with
 * json_reader and every figure held to what the run was made of.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_design.h"
#include "json_reader.h"
#include "json_writer.h"
#include "design_run_fixture.h"
#include "readback.h"

/* the run under test: design_run_fixture.h's, rebuilt for each test */
static struct design_run_fixture f;
static struct design_run *dr;
static struct json_doc *out_doc;

static void setup(void)
{
	design_run_fixture__make(&f);
	dr = f.dr;
	out_doc = NULL;
}

static void teardown(void)
{
	json_reader__free(out_doc);
	design_run_fixture__free(&f);
}

TestSuite(design_json, .init = setup, .fini = teardown);

/* document - the document of @n runs, read back; its root */
static const struct json_node *document(const struct design_run *const *runs, size_t n)
{
	char *text = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	cr_assert_eq(json_design__print(f, "burst-queue", runs, n), 0);
	cr_assert_eq(fclose(f), 0);
	out_doc = json_reader__parse(text, len, err, sizeof(err));
	cr_assert_not_null(out_doc, "%s in:\n%s", err, text);
	free(text);
	return json_reader__root(out_doc);
}

static uint64_t u64_at(const struct json_node *n, const char *key)
{
	uint64_t v;

	cr_assert(json_reader__get_u64(n, key, &v), "no whole number '%s'", key);
	return v;
}

static double double_at(const struct json_node *n, const char *key)
{
	double v;

	cr_assert(json_reader__get_double(n, key, &v), "no number '%s'", key);
	return v;
}

static bool is_null(const struct json_node *n, const char *key)
{
	const struct json_node *v = json_reader__get(n, key);

	return v && json_reader__type(v) == JSON_NULL;
}

Test(design_json, the_runs_and_the_figures_are_those_of_the_run)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *root = document(runs, 1), *r, *side, *fig;

	cr_assert_str_eq(json_reader__get_string(root, "schema"), DESIGN_JSON_SCHEMA);
	cr_assert_eq(u64_at(root, "schema_version"), DESIGN_JSON_SCHEMA_VERSION);
	cr_assert_str_eq(json_reader__get_string(root, "kind"), "design");
	cr_assert_str_eq(json_reader__get_string(root, "workload"), "burst-queue");
	cr_assert_eq(json_reader__len(json_reader__get(root, "runs")), 1);
	r = json_reader__at(json_reader__get(root, "runs"), 0);
	cr_assert_str_eq(json_reader__get_string(r, "mode"), "cond");
	cr_assert_str_eq(json_reader__get_string(r, "command"), "/x/burst-queue --json");
	cr_assert_eq(json_reader__len(json_reader__get(r, "argv")), 2);
	cr_assert_str_eq(json_reader__string(json_reader__at(json_reader__get(r, "argv"), 1)), "--json");
	cr_assert_str_eq(json_reader__get_string(json_reader__get(r, "meta"), "hostname"), "testhost");
	cr_assert_eq(json_reader__type(json_reader__get(r, "interrupted")), JSON_FALSE);

	side = json_reader__get(r, "untraced");
	cr_assert_str_eq(json_reader__get_string(side, "exit"), "exited with status 0");
	cr_assert_eq(u64_at(side, "exit_code"), 0);
	cr_assert(is_null(side, "signal"));
	cr_assert_eq(u64_at(side, "wall_ns"), 1500000000);
	cr_assert_eq(json_reader__type(json_reader__get(side, "timed_out")), JSON_FALSE);
	side = json_reader__get(r, "traced");
	cr_assert(is_null(side, "exit_code"));
	cr_assert_eq(u64_at(side, "signal"), 9);
	cr_assert_eq(u64_at(side, "wall_ns"), 2500000000);

	cr_assert_eq(u64_at(json_reader__get(r, "handed_over"), "count"), DESIGN_UNITS);
	cr_assert_str_eq(json_reader__get_string(json_reader__get(r, "handed_over"), "unit"), "task");
	cr_assert_eq(json_reader__len(json_reader__get(r, "figures")), 2);
	fig = json_reader__at(json_reader__get(r, "figures"), 0);
	cr_assert_str_eq(json_reader__get_string(fig, "label"), "tasks=10 start=seed");
	cr_assert_str_eq(json_reader__get_string(fig, "unit"), "task");
	cr_assert_eq(u64_at(fig, "runs"), 3);
	cr_assert(double_at(fig, "untraced_ns") == 800);
	cr_assert(double_at(fig, "traced_ns") == 1000);
	cr_assert(double_at(fig, "ratio") == 1.25);
	/* the traced run's counts, as its document holds them */
	cr_assert_eq(u64_at(json_reader__get(fig, "counts"), "received"), 30);
	/* an untraced figure of 0 has no ratio */
	fig = json_reader__at(json_reader__get(r, "figures"), 1);
	cr_assert(is_null(fig, "ratio"));
	cr_assert_eq(u64_at(json_reader__get(fig, "counts"), "cond_waits"), 3);
}

/* each run's document is there as the workload printed it: every member, in its order */
Test(design_json, the_workload_documents_are_carried_whole)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *root = document(runs, 1);
	const struct json_node *docs = json_reader__get(json_reader__at(json_reader__get(root, "runs"), 0),
							"documents");
	char *again = NULL;
	size_t len = 0;
	struct json_writer w;
	FILE *mem;

	cr_assert_eq(json_reader__len(docs), 2);
	for (size_t i = 0; i < 2; i++) {
		mem = open_memstream(&again, &len);
		cr_assert_not_null(mem);
		json_writer__init(&w, mem);
		json_reader__write(&w, json_reader__at(docs, i));
		cr_assert_eq(json_writer__finish(&w), 0);
		cr_assert_eq(fclose(mem), 0);
		cr_assert_str_eq(again, f.doc, "documents.%s differs", json_reader__key_at(docs, i));
		free(again);
		again = NULL;
	}
}

Test(design_json, the_census_futex_waits_and_cpu_time_are_per_unit)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *r = json_reader__at(json_reader__get(document(runs, 1), "runs"), 0);
	const struct json_node *c = json_reader__get(r, "census"), *k, *cpu, *name, *fw;
	const struct attach_aggregate *g = f.run.agg;
	uint64_t waits = 0, wait_ns = 0;

	cr_assert_eq(u64_at(c, "wakeups"), DESIGN_KIND_WAKEUPS);
	cr_assert(double_at(c, "per_unit") == (double)DESIGN_KIND_WAKEUPS / DESIGN_UNITS);
	cr_assert_eq(json_reader__len(json_reader__get(c, "kinds")), 1);
	cr_assert_eq(u64_at(c, "kinds_untabled"), 0);
	k = json_reader__at(json_reader__get(c, "kinds"), 0);
	cr_assert_str_eq(json_reader__get_string(k, "waker"), "thread bq-producer");
	cr_assert_str_eq(json_reader__get_string(k, "wakee"), "bq-consumer");
	cr_assert_str_eq(json_reader__get_string(k, "mechanism"), "futex wake -> wait");
	cr_assert_str_eq(json_reader__get_string(k, "family"), "futex");
	cr_assert_eq(u64_at(k, "wakeups"), DESIGN_KIND_WAKEUPS);
	cr_assert_eq(u64_at(k, "complete"), DESIGN_KIND_WAKEUPS);
	cr_assert(double_at(k, "per_unit") == 0.5);
	cr_assert_eq(u64_at(json_reader__get(k, "wake_to_run"), "count"), DESIGN_KIND_WAKEUPS);
	cr_assert_eq(u64_at(json_reader__get(k, "wake_to_run"), "min_ns"), 2000);
	cr_assert_eq(u64_at(json_reader__get(k, "wake_to_run"), "max_ns"), 2000 + DESIGN_KIND_WAKEUPS - 1);

	cpu = json_reader__get(r, "cpu");
	cr_assert_eq(json_reader__len(json_reader__get(cpu, "names")), 1);
	name = json_reader__at(json_reader__get(cpu, "names"), 0);
	cr_assert_str_eq(json_reader__get_string(name, "comm"), "bq-producer");
	cr_assert_eq(u64_at(name, "cpu_ns"), 4000);
	cr_assert_eq(u64_at(name, "slices"), 1);
	cr_assert(double_at(name, "cpu_ns_per_unit") == 4000.0 / DESIGN_UNITS);
	cr_assert_eq(u64_at(cpu, "total_ns"), 4000);
	cr_assert_eq(u64_at(cpu, "other_names_ns"), 0);
	cr_assert_eq(u64_at(cpu, "unseen_slices"), 0);

	for (uint32_t i = 0; i < g->nr_futexes; i++) {
		waits += g->futexes[i].waits;
		wait_ns += g->futexes[i].wait_total_ns;
	}
	cr_assert_gt(waits, 0, "the attach run waits on a futex word");
	cr_assert_eq(g->futex_waits, waits, "no word replaced: the rows have every wait");
	fw = json_reader__get(r, "futex_waits");
	cr_assert_eq(u64_at(fw, "waits"), waits);
	cr_assert_eq(u64_at(fw, "words"), g->nr_futexes);
	cr_assert_eq(u64_at(fw, "waits_timed"), waits);
	cr_assert_eq(u64_at(fw, "wait_total_ns"), wait_ns);
	cr_assert(double_at(fw, "per_unit") == (double)waits / DESIGN_UNITS);
}

/* once words were replaced, the waits are every word's still: the aggregate's, not the rows' */
Test(design_json, the_futex_waits_count_the_words_the_table_replaced_too)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *r, *fw;

	f.run.agg->futexes_replaced = 1;
	f.run.agg->futexes_evicted = 5;
	f.run.agg->futex_waits += 3;
	f.run.agg->futex_wakes += 2;
	f.run.agg->futex_waits_timed += 3;
	f.run.agg->futex_wait_total_ns += 4000;
	r = json_reader__at(json_reader__get(document(runs, 1), "runs"), 0);
	fw = json_reader__get(r, "futex_waits");
	cr_assert_eq(u64_at(fw, "waits"), f.run.agg->futex_waits);
	cr_assert_eq(u64_at(fw, "waits_timed"), f.run.agg->futex_waits_timed);
	cr_assert_eq(u64_at(fw, "wait_total_ns"), f.run.agg->futex_wait_total_ns);
	cr_assert_eq(u64_at(fw, "words"), f.run.agg->nr_futexes, "the rows");
	cr_assert_eq(u64_at(json_reader__get(r, "attach"), "futexes_replaced"), 1);
}

/* waits named from registers, untimed: counted, with no total length rather than one of 0 */
Test(design_json, untimed_futex_waits_are_counted_with_a_null_total)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *r, *fw;

	for (uint32_t i = 0; i < f.run.agg->nr_futexes; i++) {
		f.run.agg->futexes[i].waits_timed = 0;
		f.run.agg->futexes[i].wait_total_ns = 0;
	}
	f.run.agg->futex_waits_timed = 0;
	f.run.agg->futex_wait_total_ns = 0;
	r = json_reader__at(json_reader__get(document(runs, 1), "runs"), 0);
	fw = json_reader__get(r, "futex_waits");
	cr_assert_gt(u64_at(fw, "waits"), 0);
	cr_assert_eq(u64_at(fw, "waits_timed"), 0);
	cr_assert(is_null(fw, "wait_total_ns"));
}

/* the kernel side is attach mode's: the same members, the same figures */
Test(design_json, the_traced_kernel_side_is_the_attach_documents)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *r = json_reader__at(json_reader__get(document(runs, 1), "runs"), 0);
	const struct json_node *a = json_reader__get(r, "attach"), *w;
	static const char *const keys[] = { "trace", "ended", "events", "threads", "migrations", "explained_cut",
					    "host_steal", "tracing_cost",
					    "wakeups", "stats", "absent", "sub_phases", "pairs", "pairs_untabled",
					    "pairs_replaced", "pairs_capacity", "futexes", "futexes_untabled",
					    "futexes_replaced", "futexes_capacity", "causes", "explained_total_ns",
					    "explained_wakeups", "tasks", "untabled_task_ns", "outliers" };

	cr_assert_eq(json_reader__len(a), sizeof(keys) / sizeof(keys[0]));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cr_assert_str_eq(json_reader__key_at(a, i), keys[i]);
	w = json_reader__get(a, "wakeups");
	cr_assert_eq(u64_at(w, "total"), RUN_WAKEUPS);
	cr_assert_eq(u64_at(w, "complete"), RUN_COMPLETE);
	cr_assert_eq(u64_at(json_reader__get(a, "events"), "missed_runs"), 3);
	cr_assert_eq(u64_at(json_reader__get(json_reader__get(a, "stats"), "runq_wait"), "count"), RUN_COMPLETE);
	cr_assert_eq(u64_at(json_reader__get(a, "migrations"), "all"), attach__counters(f.run.engine)->migrations);
	cr_assert_gt(json_reader__len(json_reader__get(a, "causes")), 0);
	cr_assert_eq(json_reader__len(json_reader__get(a, "futexes")), f.run.agg->nr_futexes);
}

/* --no-trace: what only the traced run has is null, and the untraced parts are all there */
Test(design_json, an_untraced_run_has_its_traced_parts_null)
{
	const struct design_run *runs[] = { dr };
	const struct json_node *r, *fig;

	json_reader__free(dr->traced.doc);
	census__free(dr->census);
	dr->traced = (struct design_side){ .ran = false };
	dr->census = NULL;
	dr->run.analysis = NULL;
	dr->figures[0].traced_ns = -1;
	dr->figures[1].traced_ns = -1;
	r = json_reader__at(json_reader__get(document(runs, 1), "runs"), 0);
	cr_assert(is_null(r, "traced"));
	cr_assert(is_null(r, "census"));
	cr_assert(is_null(r, "futex_waits"));
	cr_assert(is_null(r, "cpu"));
	cr_assert(is_null(r, "attach"));
	cr_assert(is_null(json_reader__get(r, "documents"), "traced"));
	cr_assert_eq(json_reader__type(json_reader__get(json_reader__get(r, "documents"), "untraced")), JSON_OBJECT);
	fig = json_reader__at(json_reader__get(r, "figures"), 0);
	cr_assert(double_at(fig, "untraced_ns") == 800);
	cr_assert(is_null(fig, "traced_ns"));
	cr_assert(is_null(fig, "ratio"));
	/* the counts are the untraced run's then */
	cr_assert_eq(u64_at(json_reader__get(fig, "counts"), "sent"), 30);
}

/* several --mode values: one document, the runs in the order they ran */
Test(design_json, several_modes_are_one_document_in_their_order)
{
	struct design_run second = *dr;
	const struct design_run *runs[] = { dr, &second };
	const struct json_node *list;

	second.mode = "pipe-record";
	list = json_reader__get(document(runs, 2), "runs");
	cr_assert_eq(json_reader__len(list), 2);
	cr_assert_str_eq(json_reader__get_string(json_reader__at(list, 0), "mode"), "cond");
	cr_assert_str_eq(json_reader__get_string(json_reader__at(list, 1), "mode"), "pipe-record");
}

Test(design_json, a_write_error_is_reported)
{
	const struct design_run *runs[] = { dr };
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f);
	cr_assert_eq(json_design__print(f, "burst-queue", runs, 1), -EIO);
	fclose(f);
}
