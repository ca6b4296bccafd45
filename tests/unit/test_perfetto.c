// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto.c - --perfetto's sink (perfetto.c): it writes as the run
 * goes, and hands each kind of run's inputs to the timeline's calls for
 * that kind, so that what it writes is byte for byte what the timeline
 * writes when called directly: a workload's samples and events, an attach
 * run's records and wakeups (attach_fixture.h's seven).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "perfetto_streams.h"
#include "sink.h"
#include "sink_streams.h"

TestSuite(perfetto, .init = sink_streams__open, .fini = sink_streams__close);

Test(perfetto, it_takes_every_input_of_the_stream)
{
	cr_assert_str_eq(perfetto_sink.option, "--perfetto");
	cr_assert(perfetto_sink.open && perfetto_sink.begin && perfetto_sink.sample && perfetto_sink.wakeup &&
		  perfetto_sink.event && perfetto_sink.end && perfetto_sink.close);
	cr_assert_null(perfetto_sink.write, "nothing is left to write at the end");
}

Test(perfetto, a_workloads_samples_and_events_are_the_timelines_own)
{
	struct wp_event e = with_next_comm(ev_switch(T0 + 100, 1, 0, WAKEE, 0, 0), "wakee");
	struct sample_result r = complete(1);
	struct perfetto_timeline *t = perfetto_timeline__open(direct_out);
	void *w;

	cr_assert_eq(perfetto_sink.open(&w, sink_out, RUN_WORKLOAD), 0);
	cr_assert_eq(perfetto_sink.begin(w, "eventfd", true), 0);
	perfetto_sink.event(w, &e);
	perfetto_sink.sample(w, &r);
	perfetto_sink.end(w);
	cr_assert_eq(perfetto_sink.close(w), 0);
	cr_assert_not_null(t);
	perfetto_timeline__begin_run(t, "eventfd", true);
	perfetto_timeline__event(t, &e);
	perfetto_timeline__sample(t, &r);
	perfetto_timeline__end_run(t);
	cr_assert_eq(perfetto_timeline__close(t), 0);
	both_closed();
	cr_assert_not_null(strstr(sink_text, "\"name\":\"wakeup #1\""), "%s", sink_text);
	cr_assert_str_eq(sink_text, direct_text);
}

static void to_sink(const struct attach_result *r, void *w)
{
	perfetto_sink.wakeup(w, r);
}

static void to_timeline(const struct attach_result *r, void *t)
{
	perfetto_timeline__attach_result(t, r);
}

Test(perfetto, an_attach_runs_records_and_wakeups_are_the_timelines_attach_calls)
{
	struct wp_event e = with_next_tgid(with_next_comm(ev_switch(RUN_T0 - 1000, 1, 0, RUN_WAKEE, 0, 0),
							  RUN_WAKEE_COMM), RUN_PROC);
	struct attach_fixture run = {};
	struct perfetto_timeline *t = perfetto_timeline__open(direct_out);
	void *w;

	cr_assert_eq(perfetto_sink.open(&w, sink_out, RUN_ATTACH), 0);
	cr_assert_eq(perfetto_sink.begin(w, "pid 5000", true), 0);
	perfetto_sink.event(w, &e);
	run.also = to_sink;
	run.also_ctx = w;
	attach_fixture__make(&run);
	attach_fixture__free(&run);
	perfetto_sink.end(w);
	cr_assert_eq(perfetto_sink.close(w), 0);

	cr_assert_not_null(t);
	cr_assert_eq(perfetto_timeline__begin_attach(t, "pid 5000"), 0);
	perfetto_timeline__attach_event(t, &e);
	memset(&run, 0, sizeof(run));
	run.also = to_timeline;
	run.also_ctx = t;
	attach_fixture__make(&run);
	attach_fixture__free(&run);
	perfetto_timeline__end_run(t);
	cr_assert_eq(perfetto_timeline__close(t), 0);
	both_closed();
	cr_assert_not_null(strstr(sink_text, "\"mode\":\"attach\",\"target\":\"pid 5000\""), "%s", sink_text);
	cr_assert_not_null(strstr(sink_text, "\"wakeups\":7,"), "%s", sink_text);
	cr_assert_str_eq(sink_text, direct_text);
}
