// SPDX-License-Identifier: GPL-2.0
/*
 * test_wakeup.c - the words every stage uses for one wakeup: the names of
 * the phases (the lean engine's too), labels, marks, causes, irq kinds and
 * softirq vectors, as the CSV columns, the JSON keys and the reports
 * spell them, "?" for a value past the end; and how a pid, a signal and
 * an interruption are shown.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "wakeup.h"

TestSuite(wakeup);

Test(wakeup, every_cause_has_a_name_and_a_meaning)
{
	int c;

	for (c = 0; c < NR_CAUSES; c++) {
		cr_assert(strcmp(wakeup__cause_name(c), "?"));
		cr_assert(strcmp(wakeup__cause_describe(c), "?"));
	}
	cr_assert_str_eq(wakeup__cause_name(NR_CAUSES), "?");
	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_TIMER), "timer");
	cr_assert_str_eq(wakeup__softirq_name(9), "RCU");
	cr_assert_str_eq(wakeup__softirq_name(10), "?");
}

Test(wakeup, every_phase_is_named)
{
	static const char *const names[NR_PHASES] = {
		"notify_user", "notify_kernel", "wake_enqueue", "runq_wait", "resume_kernel", "resume_user",
	};

	for (int k = 0; k < NR_PHASES; k++)
		cr_assert_str_eq(wakeup__phase_name(k), names[k]);
	cr_assert_str_eq(wakeup__phase_name(NR_PHASES), "?");
}

Test(wakeup, the_labels_are_named_and_described_as_the_reports_show_them)
{
	static const char *const names[NR_LABELS] = {
		"complete", "no_sleep", "lost_events", "out_of_window", "missing_event", "clock_order", "coalesced",
		"preempted", "woken_early",
	};

	for (int l = 0; l < NR_LABELS; l++) {
		const char *d = wakeup__label_describe(l);

		cr_assert_str_eq(wakeup__label_name(l), names[l]);
		cr_assert(d && strlen(d) > 10 && !strchr(d, '\n'), "label %s: '%s'", names[l], d);
		for (int k = 0; k < l; k++)
			cr_assert_str_neq(d, wakeup__label_describe(k), "%s and %s read alike", names[l], names[k]);
	}
	cr_assert_str_eq(wakeup__label_describe(LABEL_COMPLETE), "every bounding event seen, in order");
	cr_assert_str_eq(wakeup__label_name(NR_LABELS), "?");
	cr_assert_str_eq(wakeup__label_describe(NR_LABELS), "?");
}

Test(wakeup, the_marks_and_causes_are_named_as_the_csv_and_json_spell_them)
{
	static const char *const marks[NR_MARKS] = {
		"waker notify syscall entry", "sched_waking of the wakee", "sched_wakeup of the wakee",
		"sched_switch to the wakee", "wakee wait syscall exit or signal delivery",
	};
	/* the CSV's cause_<name>_ns columns and the JSON's by-cause keys */
	static const char *const causes[NR_CAUSES] = {
		"idle", "ipi_in_flight", "other_task", "irq", "softirq", "waker_preempted", "wakee_preempted",
		"reacquire", "host", "own_work", "unexplained",
	};

	for (int k = 0; k < NR_MARKS; k++)
		cr_assert_str_eq(wakeup__mark_name(k), marks[k]);
	cr_assert_str_eq(wakeup__mark_name(NR_MARKS), "?");
	for (int c = 0; c < NR_CAUSES; c++) {
		cr_assert_str_eq(wakeup__cause_name(c), causes[c]);
		for (int k = 0; k < c; k++)
			cr_assert_str_neq(wakeup__cause_describe(c), wakeup__cause_describe(k));
	}
	cr_assert_str_eq(wakeup__cause_describe(NR_CAUSES), "?");
}

Test(wakeup, every_irq_kind_and_softirq_vector_is_named_and_others_are_not)
{
	static const char *const softirqs[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_HARD), "irq");
	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_SOFT), "softirq");
	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_TIMER), "timer");
	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_RESCHED), "resched IPI");
	cr_assert_str_eq(wakeup__irq_kind_name(WP_IRQ_CALL_FUNC), "call-func IPI");
	cr_assert_str_eq(wakeup__irq_kind_name(255), "?");
	for (int v = 0; v < 10; v++)
		cr_assert_str_eq(wakeup__softirq_name(v), softirqs[v]);
	cr_assert_str_eq(wakeup__softirq_name(-1), "?");
	cr_assert_str_eq(wakeup__softirq_name(10), "?");
}

Test(wakeup, a_signal_is_named_by_its_abbreviation_or_its_number)
{
	char buf[24], small[5];

	cr_assert_str_eq(wakeup__signal_name(SIGTERM, buf, sizeof(buf)), "SIGTERM");
	cr_assert_str_eq(wakeup__signal_name(SIGINT, buf, sizeof(buf)), "SIGINT");
	cr_assert_str_eq(wakeup__signal_name(SIGHUP, buf, sizeof(buf)), "SIGHUP");
	/* the real-time signals have no abbreviation */
	cr_assert_str_eq(wakeup__signal_name(40, buf, sizeof(buf)), "signal 40");
	cr_assert_null(wakeup__signal_name(0, buf, sizeof(buf)), "0: not known");
	cr_assert_null(wakeup__signal_name(-9, buf, sizeof(buf)));
	/* cut to the buffer, and terminated */
	cr_assert_str_eq(wakeup__signal_name(SIGTERM, small, sizeof(small)), "SIGT");
}

Test(wakeup, an_interruption_names_its_signal_when_it_is_known)
{
	char buf[64];

	cr_assert_str_eq(wakeup__interruption(SIGTERM, buf, sizeof(buf)), "interrupted by SIGTERM");
	cr_assert_str_eq(wakeup__interruption(SIGRTMIN + 6, buf, sizeof(buf)), "interrupted by signal 40");
	/* a recording made before the signal was kept */
	cr_assert_str_eq(wakeup__interruption(0, buf, sizeof(buf)), "interrupted");
}

Test(wakeup, a_pid_outside_the_namespace_is_shown_by_its_host_pid)
{
	char buf[32], small[6];

	cr_assert_str_eq(wakeup__pid(1234, buf, sizeof(buf)), "1234");
	cr_assert_str_eq(wakeup__pid(WP_PID_OUTSIDE | 57, buf, sizeof(buf)), "host:57");
	cr_assert_str_eq(wakeup__pid(WP_PID_OUTSIDE, buf, sizeof(buf)), "host:0");
	/* every bit below WP_PID_OUTSIDE is the pid's own */
	cr_assert_str_eq(wakeup__pid(WP_PID_OUTSIDE - 1, buf, sizeof(buf)), "1073741823");
	cr_assert_str_eq(wakeup__pid(WP_PID_OUTSIDE | 123456, small, sizeof(small)), "host:");
}
