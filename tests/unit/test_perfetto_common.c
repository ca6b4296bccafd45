// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_common.c - what both kinds of run draw alike on the
 * timeline (perfetto_common.c): a wakeup's phase slices from t_notify
 * through its marks to t_woken, none when they run backwards; a phase's
 * args, its time by cause and its intervals, only its own; and an
 * interval worded as the text and JSON reports word it, with its time.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "memout.h"
#include "perfetto_common.h"
#include "perfetto_streams.h"

TestSuite(perfetto_common, .init = memout__open, .fini = memout__close);

Test(perfetto_common, the_phases_run_from_t_notify_through_the_marks_to_t_woken)
{
	struct sample_result r = complete(2);
	uint64_t b[NR_PHASES + 1];

	cr_assert(perfetto_common__phase_bounds(&r, b));
	/* phases 300, 800, 800, 4000, 700, 250 from T0 + 200 us */
	cr_assert_eq(b[0], T0 + 200000);
	cr_assert_eq(b[1], T0 + 200300);
	cr_assert_eq(b[2], T0 + 201100);
	cr_assert_eq(b[3], T0 + 201900);
	cr_assert_eq(b[4], T0 + 205900);
	cr_assert_eq(b[5], T0 + 206600);
	cr_assert_eq(b[NR_PHASES], T0 + 206850);
}

Test(perfetto_common, marks_that_run_backwards_have_no_phases)
{
	struct sample_result r = complete(2);
	uint64_t b[NR_PHASES + 1];

	r.mark_ns[MARK_SWITCH_IN] = r.mark_ns[MARK_WAKEUP] - 1;
	cr_assert_not(perfetto_common__phase_bounds(&r, b));
	r = complete(2);
	r.t_woken_ns = r.mark_ns[MARK_WAIT_EXIT] - 1;
	cr_assert_not(perfetto_common__phase_bounds(&r, b), "t_woken before the wait's exit");
	r = complete(2);
	r.mark_ns[MARK_WAIT_EXIT] = r.t_woken_ns;
	cr_assert(perfetto_common__phase_bounds(&r, b), "an empty phase is a phase");
}

Test(perfetto_common, an_interval_is_worded_as_the_reports_word_it_then_its_time)
{
	struct sample_result r = complete(1);
	struct interval *iv = add_cause(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 3000);
	char want[256], got[256];

	iv->pid = HOG;
	iv->prio = 120;
	snprintf(iv->name, sizeof(iv->name), "wp-hog");
	explain__describe_interval(iv, want, sizeof(want));
	strncat(want, ": 3000 ns", sizeof(want) - strlen(want) - 1);
	perfetto_common__interval_text(iv, got, sizeof(got));
	cr_assert_str_eq(got, want);
	cr_assert_not_null(strstr(got, "'wp-hog' pid 42"), "%s", got);
}

Test(perfetto_common, a_phases_args_are_its_time_by_cause_and_its_own_intervals)
{
	struct sample_result r = complete(4);
	static const char want[] = "{\"seq\":4,\"ns\":4000,\"causes\":{\"idle\":500,\"other_task\":3000,"
				   "\"unexplained\":500},\"intervals\":[\"'wp-hog' pid 42";
	struct json_writer w;
	struct interval *iv;

	iv = add_cause(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 3000);
	iv->pid = HOG;
	snprintf(iv->name, sizeof(iv->name), "wp-hog");
	add_cause(&r, PHASE_RUNQ_WAIT, CAUSE_IDLE, 500);
	add_cause(&r, PHASE_WAKE_ENQUEUE, CAUSE_IDLE, 200);
	json_writer__init_compact(&w, out);
	json_writer__begin_object(&w);
	perfetto_common__phase_args(&w, &r, PHASE_RUNQ_WAIT);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	/* 4000 ns: 3000 the hog's, 500 idle, 500 left unexplained; wake_enqueue's idle is not runq_wait's */
	cr_assert(!strncmp(written(), want, strlen(want)), "%s", written());
	cr_assert_not_null(strstr(written(), ": 3000 ns\",\"CPU 1 idle"), "%s", written());
	cr_assert_not_null(strstr(written(), ": 500 ns\"]}"), "the second interval is the last: %s", written());
}
