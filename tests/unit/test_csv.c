// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv.c - --csv's sink (csv.c): it writes as the run goes, one row a
 * wakeup, each kind of run through its own part, so that what it writes
 * is byte for byte what that part writes when called directly: a
 * workload's runs one after the other, each named as it begins, and an
 * attach run's wakeups (attach_fixture.h's seven); the stream's hooks that are
 * another kind's take nothing.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "csv_attach.h"
#include "csv_workload.h"
#include "samples.h"
#include "sink.h"
#include "sink_streams.h"

TestSuite(csv, .init = sink_streams__open, .fini = sink_streams__close);

Test(csv, it_takes_the_wakeups_of_either_kind_and_writes_nothing_at_the_end)
{
	cr_assert_str_eq(csv_sink.option, "--csv");
	cr_assert(csv_sink.open && csv_sink.begin && csv_sink.sample && csv_sink.wakeup && csv_sink.close);
	cr_assert(!csv_sink.event && !csv_sink.end && !csv_sink.write, "no kernel record, no end of a run, no document");
}

Test(csv, a_workloads_runs_are_the_workload_parts_rows_each_named_as_it_begins)
{
	static const int64_t phases[NR_PHASES] = { 500, 1000, 2000, 3000, 800, 400 };
	struct sample_result a = phased_sample(1, phases), b = phased_sample(1, phases);
	struct csv_workload *c = csv_workload__open(direct_out);
	void *w;

	b.total_ns += 7;
	cr_assert_eq(csv_sink.open(&w, sink_out, RUN_WORKLOAD), 0);
	cr_assert_eq(csv_sink.begin(w, "eventfd", true), 0);
	csv_sink.sample(w, &a);
	cr_assert_eq(csv_sink.begin(w, "pipe", false), 0);
	csv_sink.sample(w, &b);
	cr_assert_eq(csv_sink.close(w), 0);
	cr_assert_not_null(c);
	csv_workload__begin_run(c, "eventfd", true);
	csv_workload__add(c, &a);
	csv_workload__begin_run(c, "pipe", false);
	csv_workload__add(c, &b);
	cr_assert_eq(csv_workload__close(c), 0);
	both_closed();
	cr_assert(!strncmp(sink_text, "workload,seq,", 13), "%s", sink_text);
	cr_assert_not_null(strstr(sink_text, "\r\neventfd,1,"), "%s", sink_text);
	cr_assert_not_null(strstr(sink_text, "\r\npipe,1,"), "%s", sink_text);
	cr_assert_str_eq(sink_text, direct_text);
}

static void to_sink(const struct attach_result *r, void *w)
{
	csv_sink.wakeup(w, r);
}

static void to_part(const struct attach_result *r, void *c)
{
	csv_attach__add(c, r);
}

Test(csv, an_attach_runs_wakeups_are_the_attach_parts_rows)
{
	struct attach_fixture run = {};
	struct csv_attach *c = csv_attach__open(direct_out);
	size_t rows = 0;
	void *w;

	cr_assert_eq(csv_sink.open(&w, sink_out, RUN_ATTACH), 0);
	cr_assert_eq(csv_sink.begin(w, "pid 5000", true), 0);
	run.also = to_sink;
	run.also_ctx = w;
	attach_fixture__make(&run);
	attach_fixture__free(&run);
	cr_assert_eq(csv_sink.close(w), 0);
	cr_assert_not_null(c);
	memset(&run, 0, sizeof(run));
	run.also = to_part;
	run.also_ctx = c;
	attach_fixture__make(&run);
	attach_fixture__free(&run);
	cr_assert_eq(csv_attach__close(c), 0);
	both_closed();
	for (const char *p = sink_text; (p = strstr(p, "\r\n")); p += 2)
		rows++;
	cr_assert_eq(rows, 1 + RUN_WAKEUPS, "a header and a row a wakeup: %s", sink_text);
	cr_assert(!strncmp(sink_text, "seq,t_ns,", 9), "%s", sink_text);
	cr_assert_str_eq(sink_text, direct_text);
}
