// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv_workload.c - the per-sample CSV, read back with python's csv module:
 * one row per sample, the values given, empty cells where a value does not
 * apply, untraced runs, runs one after the other
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "csv_workload.h"
#include "eventfd_samples.h"
#include "readback.h"

#define HEADER "header=workload,seq,waker_tid,wakee_tid,waker_cpu,wakee_cpu,waking_cpu,target_cpu,t_notify_ns," \
	"total_ns,notify_user_ns,notify_kernel_ns,wake_enqueue_ns,runq_wait_ns,resume_kernel_ns,resume_user_ns," \
	"label,missing_mark,target_was_idle,idle_exit_ns,mutex_reacquire_ns,waker_preempted_ns,cause_idle_ns," \
	"cause_ipi_in_flight_ns,cause_other_task_ns,cause_irq_ns,cause_softirq_ns,cause_waker_preempted_ns," \
	"cause_wakee_preempted_ns,cause_reacquire_ns,cause_host_ns,cause_own_work_ns,cause_unexplained_ns,notify_ns,resume_ns"

static char path[64];
static FILE *file;
static struct csv_workload *csv;

static void setup(void)
{
	file = temp_output("csv", path);
	csv = csv_workload__open(file);
	cr_assert_not_null(csv);
}

static void teardown(void)
{
	unlink(path);
}

TestSuite(csv_workload, .init = setup, .fini = teardown);

/* close the writer and the file, then hold the file to @want */
static void expect_csv(const char *const want[])
{
	cr_assert_eq(csv_workload__close(csv), 0);
	cr_assert_eq(fclose(file), 0);
	cr_assert(csv_check(path, want), "the CSV does not read back as written (see above)");
}

/* what an untraced run hands over: the sample and its two stamps */
static struct sample_result untraced(uint64_t seq, int64_t total_ns)
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.sample.waker_tid = WAKER;
	r.sample.wakee_tid = WAKEE;
	r.sample.waker_cpu = 2;
	r.sample.wakee_cpu = 3;
	r.t_notify_ns = T0 + seq * 1000;
	r.t_woken_ns = r.t_notify_ns + (uint64_t)total_ns;
	r.total_ns = total_ns;
	r.label = LABEL_COMPLETE;
	return r;
}

Test(csv_workload, the_header_names_every_column_and_a_complete_sample_fills_them)
{
	struct sample_result r = complete(7);
	const char *const want[] = {
		HEADER, "rows=1", "0:workload=eventfd", "0:seq=7", "0:waker_tid=1001", "0:wakee_tid=1002",
		"0:waker_cpu=0", "0:wakee_cpu=1", "0:waking_cpu=0", "0:target_cpu=1", "0:t_notify_ns=1000000700123",
		"0:total_ns=6850", "0:notify_user_ns=300", "0:notify_kernel_ns=800", "0:wake_enqueue_ns=800",
		"0:runq_wait_ns=4000", "0:resume_kernel_ns=700", "0:resume_user_ns=250", "0:label=complete",
		"0:missing_mark=", "0:target_was_idle=1", "0:idle_exit_ns=2500", "0:mutex_reacquire_ns=0",
		"0:waker_preempted_ns=0", "0:notify_ns=1100", "0:resume_ns=950", NULL,
	};

	r.target_was_idle = true;
	r.idle_exit_seen = true;
	r.idle_exit_ns = 2500;
	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &r);
	expect_csv(want);
}

/* lean: notify and resume whole, their parts, the causes and what the lean engine does not see empty */
Test(csv_workload, a_lean_sample_has_its_six_phases_and_nothing_it_did_not_trace)
{
	struct sample_result r = complete(5);
	const char *const want[] = {
		"rows=1", "0:label=complete", "0:notify_user_ns=300", "0:notify_kernel_ns=800",
		"0:wake_enqueue_ns=800", "0:runq_wait_ns=4000", "0:resume_kernel_ns=700", "0:resume_user_ns=250",
		"0:notify_ns=1100", "0:resume_ns=950", "0:target_was_idle=", "0:mutex_reacquire_ns=",
		"0:waker_preempted_ns=", "0:cause_unexplained_ns=", "0:cause_idle_ns=", "0:waking_cpu=0",
		"0:target_cpu=1", NULL,
	};

	r.lean = true;
	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &r);
	expect_csv(want);
}

/* lean: a sample its flight recorder explained has its causes; they add up to its total */
Test(csv_workload, a_lean_sample_explained_by_its_flight_records_has_its_causes)
{
	struct sample_result r = complete(5);
	char idle[64], unexplained[64];
	const char *const want[] = { "rows=1", "0:label=complete", idle, unexplained, "0:cause_irq_ns=0", NULL };

	r.lean = true;
	r.lean_flight = true;
	memset(&r.why, 0, sizeof(r.why));
	r.why.by_cause[CAUSE_IDLE] = 800;
	r.why.by_cause[CAUSE_UNEXPLAINED] = r.total_ns - 800;
	snprintf(idle, sizeof(idle), "0:cause_idle_ns=800");
	snprintf(unexplained, sizeof(unexplained), "0:cause_unexplained_ns=%lld", (long long)(r.total_ns - 800));
	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &r);
	expect_csv(want);
}

Test(csv_workload, a_mutex_reacquire_and_a_preempted_waker_are_shown_and_an_unseen_idle_exit_is_empty)
{
	struct sample_result r = complete(3);
	const char *const want[] = {
		"rows=1", "0:workload=cond", "0:label=complete", "0:target_was_idle=0", "0:idle_exit_ns=",
		"0:mutex_reacquire_ns=1200", "0:waker_preempted_ns=400", "0:resume_user_ns=250", NULL,
	};

	r.rewait_seen = true;
	r.rewait_ns = 1200;
	r.waker_preempted = true;
	r.waker_preempted_ns = 400;
	csv_workload__begin_run(csv, "cond", true);
	csv_workload__add(csv, &r);
	expect_csv(want);
}

Test(csv_workload, samples_not_complete_have_their_label_and_no_phases)
{
	struct sample_result missing = complete(1), no_sleep = complete(2), early = complete(3);
	const char *const want[] = {
		"rows=3",
		/* the wake was seen: its CPUs are known; the switch-in was not */
		"0:label=missing_event", "0:missing_mark=sched_switch to the wakee", "0:waking_cpu=0",
		"0:target_cpu=1", "0:target_was_idle=0", "0:waker_preempted_ns=0", "0:total_ns=6850",
		"0:notify_user_ns=", "0:runq_wait_ns=", "0:resume_user_ns=", "0:mutex_reacquire_ns=",
		/* nothing woke: no wake CPUs, no idle flag, no phases */
		"1:label=no_sleep", "1:missing_mark=", "1:waking_cpu=", "1:target_cpu=", "1:target_was_idle=",
		"1:waker_preempted_ns=", "1:notify_kernel_ns=", "1:seq=2", "1:t_notify_ns=1000000200123",
		/* the marks before the missing one are all a missing_event row may use */
		"2:label=missing_event", "2:missing_mark=sched_waking of the wakee", "2:waking_cpu=",
		"2:target_cpu=", NULL,
	};
	int k;

	missing.label = LABEL_MISSING_EVENT;
	missing.phased = false;
	missing.missing = MARK_SWITCH_IN;
	missing.mark_ns[MARK_SWITCH_IN] = missing.mark_ns[MARK_WAIT_EXIT] = 0;
	no_sleep.label = LABEL_NO_SLEEP;
	no_sleep.phased = false;
	for (k = 0; k < NR_MARKS; k++)
		no_sleep.mark_ns[k] = 0;
	/* a result whose later marks were left behind must not show them */
	early.label = LABEL_MISSING_EVENT;
	early.phased = false;
	early.missing = MARK_WAKING;

	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &missing);
	csv_workload__add(csv, &no_sleep);
	csv_workload__add(csv, &early);
	expect_csv(want);
}

Test(csv_workload, an_untraced_run_says_so_and_leaves_every_kernel_column_empty)
{
	struct sample_result a = untraced(1, 41000), b = untraced(2, 39500);
	const char *const want[] = {
		"rows=2", "0:workload=eventfd", "0:label=untraced", "0:seq=1", "0:total_ns=41000",
		"0:t_notify_ns=1000000001123", "0:waker_cpu=2", "0:wakee_cpu=3", "0:waking_cpu=", "0:target_cpu=",
		"0:notify_user_ns=", "0:resume_user_ns=", "0:missing_mark=", "0:target_was_idle=", "0:idle_exit_ns=",
		"0:mutex_reacquire_ns=", "0:waker_preempted_ns=", "1:label=untraced", "1:total_ns=39500", NULL,
	};

	csv_workload__begin_run(csv, "eventfd", false);
	csv_workload__add(csv, &a);
	csv_workload__add(csv, &b);
	expect_csv(want);
}

Test(csv_workload, two_runs_follow_each_other_under_their_own_workload_and_odd_names_are_quoted)
{
	struct sample_result a = complete(1), b = untraced(1, 5000), c = untraced(2, 6000);
	const char *const want[] = {
		"rows=3", "0:workload=eventfd", "0:label=complete", "0:notify_user_ns=300",
		"1:workload=a \"b\", c", "1:label=untraced", "1:notify_user_ns=", "2:workload=a \"b\", c",
		"2:total_ns=6000", NULL,
	};

	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &a);
	csv_workload__begin_run(csv, "a \"b\", c", false);
	csv_workload__add(csv, &b);
	csv_workload__add(csv, &c);
	expect_csv(want);
}

Test(csv_workload, a_spin_sample_is_complete_without_phases)
{
	struct sample_result r = untraced(4, 900);
	const char *const want[] = { "rows=1", "0:label=complete", "0:total_ns=900", "0:runq_wait_ns=",
				     "0:mutex_reacquire_ns=", "0:waking_cpu=", NULL };

	csv_workload__begin_run(csv, "spin", true);
	csv_workload__add(csv, &r);
	expect_csv(want);
}

Test(csv_workload, a_failed_stream_is_reported_and_the_stream_is_left_to_its_owner)
{
	struct sample_result r = complete(1);
	FILE *full = fopen("/dev/full", "w");
	struct csv_workload *c;
	char text[4096];
	size_t n;
	int i;

	cr_assert_not_null(full);
	c = csv_workload__open(full);
	cr_assert_not_null(c);
	csv_workload__begin_run(c, "eventfd", true);
	for (i = 0; i < 1000; i++)
		csv_workload__add(c, &r);
	cr_assert_eq(csv_workload__close(c), -EIO);
	fclose(full);	/* still open: fails only for the bytes /dev/full refuses */

	/* a good stream stays usable after the writer is closed */
	csv_workload__begin_run(csv, "eventfd", true);
	csv_workload__add(csv, &r);
	cr_assert_eq(csv_workload__close(csv), 0);
	cr_assert_geq(fputs("after\r\n", file), 0);
	cr_assert_eq(fclose(file), 0);
	file = fopen(path, "r");
	cr_assert_not_null(file);
	n = fread(text, 1, sizeof(text) - 1, file);
	fclose(file);
	text[n] = 0;
	cr_assert_gt(n, 7);
	cr_assert_str_eq(text + n - 7, "after\r\n");
}
