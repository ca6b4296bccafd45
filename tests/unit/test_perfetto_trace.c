// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_trace.c - the trace events every track of the timeline is
 * made of (perfetto_trace.c), byte for byte as the compact writer puts
 * them, one a line: a slice with its times in microseconds exact to the
 * nanosecond, bound to an arrow or not; a thread-scoped instant; a
 * process's and a thread's name and place; and the ids of each run's
 * synthetic processes, above any real pid and within 32 bits.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include "perfetto_trace.h"

static struct perfetto_timeline *t;
static char *text;
static size_t text_len;
static FILE *out;

static void setup(void)
{
	t = calloc(1, sizeof(*t));
	cr_assert_not_null(t);
	out = open_memstream(&text, &text_len);
	cr_assert_not_null(out);
	json_writer__init_compact(&t->w, out);
	json_writer__begin_array(&t->w);
}

static void teardown(void)
{
	if (out)
		fclose(out);
	free(text);
	free(t);
}

TestSuite(perfetto_trace, .init = setup, .fini = teardown);

/* events - the events written, the array closed, as text */
static const char *events(void)
{
	json_writer__end_array(&t->w);
	cr_assert_eq(json_writer__finish(&t->w), 0);
	cr_assert_eq(fclose(out), 0);
	out = NULL;
	return text;
}

Test(perfetto_trace, a_slice_is_a_complete_event_in_microseconds_exact_to_the_nanosecond)
{
	struct tl_slice s = { .cat = "phase", .name = "runq_wait", .pid = 7, .tid = 8,
			      .start_ns = 1000000000123ull, .end_ns = 1000000004690ull };
	struct json_writer *w = perfetto_trace__slice_begin(t, &s);

	json_writer__put_uint(w, "seq", 3);
	perfetto_trace__event_end(w);
	cr_assert_str_eq(events(), "[\n{\"name\":\"runq_wait\",\"cat\":\"phase\",\"ph\":\"X\",\"ts\":1000000000.123,"
			 "\"dur\":4.567,\"pid\":7,\"tid\":8,\"args\":{\"seq\":3}}]\n");
}

Test(perfetto_trace, a_slice_at_either_end_of_an_arrow_is_bound_to_it_by_id)
{
	struct tl_slice out_end = { .cat = "phase", .name = "notify_kernel", .pid = 1, .tid = 2, .start_ns = 1000,
				    .end_ns = 2000, .flow = TL_FLOW_OUT, .flow_id = 41 };
	struct tl_slice in_end = out_end;

	in_end.name = "wake_enqueue";
	in_end.start_ns = 2001;
	in_end.end_ns = 3000;
	in_end.flow = TL_FLOW_IN;
	perfetto_trace__event_end(perfetto_trace__slice_begin(t, &out_end));
	perfetto_trace__event_end(perfetto_trace__slice_begin(t, &in_end));
	cr_assert_str_eq(events(),
			 "[\n{\"name\":\"notify_kernel\",\"cat\":\"phase\",\"ph\":\"X\",\"ts\":1.000,\"dur\":1.000,"
			 "\"pid\":1,\"tid\":2,\"bind_id\":41,\"flow_out\":true,\"args\":{}},\n"
			 "{\"name\":\"wake_enqueue\",\"cat\":\"phase\",\"ph\":\"X\",\"ts\":2.001,\"dur\":0.999,"
			 "\"pid\":1,\"tid\":2,\"bind_id\":41,\"flow_in\":true,\"args\":{}}]\n");
}

Test(perfetto_trace, an_instant_is_scoped_to_its_thread_in_the_sched_category)
{
	struct json_writer *w = perfetto_trace__instant_begin(t, "sched_waking 42", 5, 6, 123456789);

	json_writer__put_uint(w, "target_cpu", 1);
	perfetto_trace__event_end(w);
	cr_assert_str_eq(events(), "[\n{\"name\":\"sched_waking 42\",\"cat\":\"sched\",\"ph\":\"i\",\"s\":\"t\","
			 "\"ts\":123456.789,\"pid\":5,\"tid\":6,\"args\":{\"target_cpu\":1}}]\n");
}

Test(perfetto_trace, a_process_and_a_thread_are_named_then_placed_by_metadata)
{
	perfetto_trace__name_process(t, 1000010000, "wakeprobe: eventfd", 2);
	perfetto_trace__name_thread(t, 1000010000, 1001, "wakee \"x\"", 1);
	cr_assert_str_eq(events(),
			 "[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1000010000,\"tid\":1000010000,"
			 "\"args\":{\"name\":\"wakeprobe: eventfd\"}},\n"
			 "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":1000010000,\"tid\":1000010000,"
			 "\"args\":{\"sort_index\":2}},\n"
			 "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1000010000,\"tid\":1001,"
			 "\"args\":{\"name\":\"wakee \\\"x\\\"\"}},\n"
			 "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1000010000,\"tid\":1001,"
			 "\"args\":{\"sort_index\":1}}]\n");
}

Test(perfetto_trace, each_run_has_processes_of_its_own_above_any_real_pid_and_within_32_bits)
{
	t->run.id = 3;
	cr_assert_eq(perfetto_trace__pid_of_run(1), TL_ID_BASE + TL_RUN_STRIDE);
	cr_assert_eq(perfetto_trace__run_pid(t), TL_ID_BASE + 3 * TL_RUN_STRIDE);
	cr_assert_eq(perfetto_trace__cpus_pid(t), TL_ID_BASE + 3 * TL_RUN_STRIDE + TL_CPUS_OFFSET);
	/* PID_MAX_LIMIT is 2^22: no real tid meets a synthetic one */
	cr_assert_gt(perfetto_trace__pid_of_run(1), 1u << 22);
	/* the last run a file numbers has its CPU threads within 32 bits, the next would not */
	cr_assert_leq((uint64_t)perfetto_trace__pid_of_run(TL_MAX_RUNS) + TL_CPUS_OFFSET + 1 + WP_MAX_CPUS,
		      UINT32_MAX);
	cr_assert_gt((uint64_t)TL_ID_BASE + (TL_MAX_RUNS + 2ull) * TL_RUN_STRIDE, UINT32_MAX);
	events();
}
