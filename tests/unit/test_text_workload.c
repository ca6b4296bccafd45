// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_workload.c - the workload's text report, line by line: the
 * warnings, the whole report of a run built from synthetic samples
 * (traced, untraced, lean, with no kernel in its path) and the comparison
 * table of several runs. Every figure is one the test knows from what went
 * in.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lean_adapt.h"
#include "memout.h"
#include "samples.h"
#include "text_common.h"
#include "text_lines.h"
#include "text_workload.h"

TestSuite(text_workload, .init = memout__open, .fini = memout__close);

/* again - forget what was written: the next print starts a new text */
static void again(void)
{
	memout__close();
	memout__open();
}

/* row - the stats row of @h under @name (in a static buffer, one at a time) */
static const char *row(const char *name, const struct histogram *h)
{
	static char buf[256];

	return stats_line(buf, sizeof(buf), name, h);
}

static const int64_t plain_phases[NR_PHASES] = { 500, 1000, 2000, 3000, 800, 400 };

/* ---------------------------------------------------------------- the whole report */

static const struct workload_desc eventfd_wl = { .name = "eventfd", .summary = "an eventfd write wakes a read" };
static const struct workload_desc spin_wl = { .name = "spin", .summary = "a flag in memory", .user_only = true };
static const struct workload_desc cond_wl = { .name = "cond", .summary = "a condition variable" };
static const struct workload_desc pipe_wl = { .name = "pipe", .summary = "a pipe" };
static const struct workload_desc new_wl = { .name = "thread-start", .summary = "a new thread",
					     .new_task = true };

static struct run_config config(const struct workload_desc *wl, bool traced)
{
	return (struct run_config){
		.workload = wl,
		.samples = 6,
		.interval_us = 500,
		.waker_cpu = 0,
		.wakee_cpu = 1,
		.traced = traced,
		.ringbuf_bytes = 1 << 20,
	};
}

/* a clock of 3000 MHz, five pairs 1 ms apart: a perfect fit */
static void fill_clock(struct tsc_clock *clk)
{
	tsc_clock__init(clk);
	for (unsigned int i = 0; i < 5; i++) {
		struct tsc_pair p = { .tsc = 1000000000ull + i * 3000000ull, .mono_ns = 5000000000ull + i * 1000000ull,
				      .width = 10 };

		tsc_clock__add_pair(clk, &p);
	}
}

/*
 * traced_run - 4 plain complete samples (7.7 us, the second with its
 * target idle), a slow one (57 us, with a second wait), a missing_event;
 * 7 sent, 2 outliers kept
 */
static struct run_result *traced_run(void)
{
	struct run_result *r = new_run_result();
	struct sample_result s;

	fill_clock(&r->clock);
	aggregate__want_outliers(&r->agg, 2, 0);
	for (uint64_t seq = 1; seq <= 4; seq++) {
		s = phased_sample(seq, plain_phases);
		if (seq == 2) {
			s.target_was_idle = true;
			s.idle_exit_seen = true;
			s.idle_exit_ns = 1500;
		}
		aggregate__add(&r->agg, &s);
	}
	s = slow_sample(5);
	s.rewait_seen = true;
	s.rewait_ns = 300;
	aggregate__add(&r->agg, &s);
	memset(&s, 0, sizeof(s));
	s.sample.seq = 6;
	s.t_notify_ns = 6000000;
	s.t_woken_ns = 6009000;
	s.total_ns = 9000;
	s.label = LABEL_MISSING_EVENT;
	s.missing = MARK_SWITCH_IN;
	aggregate__add(&r->agg, &s);
	cause_totals__sort_tasks(&r->agg.causes);
	r->traced = true;
	r->samples_sent = 7;
	r->merge.events = 321;
	r->waker_tid = 100;
	r->wakee_tid = 101;
	snprintf(r->steal.why_off, sizeof(r->steal.why_off), "no steal clock on this machine");
	return r;
}

Test(text_workload, a_traced_run_says_how_it_ran_then_its_phases_causes_and_outliers)
{
	struct run_config cfg = config(&eventfd_wl, true);
	struct run_result *r = traced_run();
	const struct aggregate *a = &r->agg;
	char head[128], rows[NR_PHASES + 4][256];
	const char *doc;
	int k;

	text_workload__print_text(out, &cfg, r);
	doc = written();
	snprintf(head, sizeof(head), "wakeprobe %s: eventfd, an eventfd write wakes a read", WAKEPROBE_VERSION);
	for (k = 0; k < NR_PHASES; k++)
		snprintf(rows[k], sizeof(rows[k]), "%s", row(wakeup__phase_name(k), &a->phase[k]));
	snprintf(rows[k++], sizeof(rows[0]), "%s", row("total", &a->total));
	snprintf(rows[k++], sizeof(rows[0]), "%s", row("idle_exit", &a->idle_exit));
	snprintf(rows[k++], sizeof(rows[0]), "%s", row("mutex_reacquire", &a->rewait));
	snprintf(rows[k++], sizeof(rows[0]), "%s", row("total, all samples", &a->all_total));
	cr_assert(!strncmp(doc, head, strlen(head)), "%s", doc);
	expect_lines(doc, (const char *const[]){
		head,
		"  WARNING    7 samples were sent but 6 were read",
		"  threads    waker tid 100 on CPU 0 -> wakee tid 101 on CPU 1, one wakeup every 500 us",
		"  duration   0.005 s from first notify to last wakeup",
		"  clock      TSC 3000.000 MHz -> CLOCK_MONOTONIC, 5 pairs over 0.00 s: fit residual <= 0 ns, "
		"conversion error <= 0 ns",
		"  events     321 recorded, 0 dropped (BPF ring buffer full), 0 lost to skipped BPF runs",
		"  steal      not measured: no steal clock on this machine",
		"  cost       not kept: recorded by a wakeprobe that did not keep it",
		"  samples    7 sent, 5 complete, 1 not in the phase table",
		"           1 missing_event  a bounding kernel event never arrived",
		"           1   no sched_switch to the wakee",
		"",
		"Phases of the 5 complete wakeups (they add up to the total of each one):",
		STATS_HEADER,
		rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6],
		"",
		"Target CPU idle at the wake: 2 of 5 wakeups; queued from another CPU: 5; waker preempted in notify: 0",
		STATS_HEADER,
		rows[7], rows[8],
		"  idle_exit: sched_waking -> the idle target CPU's power:cpu_idle exit; it overlaps",
		"  wake_enqueue and runq_wait (docs/phases.md), so it is not added to the total.",
		"  mutex_reacquire: the wakee blocked again on a futex after its wait ended (cond:",
		"  taking the mutex back); 1 of 5 wakeups, part of resume_user.",
		"",
		rows[9],
		"",
		"total, notify -> woken",
		"notify_user", "notify_kernel", "wake_enqueue", "runq_wait", "resume_kernel", "resume_user",
		"Where the time of the 5 complete wakeups went (share of their summed totals):",
		"tasks holding a CPU a wakeup needed: 'wp-hog' pid 42: 34.2%, 6.00 us per wakeup",
		"The 2 slowest of 5 complete wakeups, each phase split by cause (us;",
		"'grew most': the phase furthest over its median, by how much):",
		"",
		"#1 seq 5: 57.00 us, 7.4x the median 7.70; runq_wait grew most, +47.00 us",
		"  woken from CPU 0 onto CPU 1, queued there (the wake list: an IPI), which was idle",
		"",
		"#2 seq 1: 7.70 us, 1.0x the median 7.70; notify_user grew most, +0.00 us",
		NULL,
	});
	/* no lean lines, nothing that is not so */
	cr_assert_null(strstr(doc, "tracing    lean"), "%s", doc);
	cr_assert_null(strstr(doc, "waiter CPU"), "%s", doc);
	free(r);
}

Test(text_workload, an_untraced_run_has_totals_alone)
{
	struct run_config cfg = config(&eventfd_wl, false);
	struct run_result *r = new_run_result();
	char all[256], wait[256];

	fill_clock(&r->clock);
	for (uint64_t i = 1; i <= 3; i++)
		aggregate__add_untraced(&r->agg, 1000000 * i, 1000000 * i + 20000, 1000000 * i - 30000);
	r->samples_sent = 3;
	r->waker_tid = 100;
	r->wakee_tid = 101;
	text_workload__print_text(out, &cfg, r);
	snprintf(all, sizeof(all), "%s", row("total", &r->agg.all_total));
	snprintf(wait, sizeof(wait), "%s", row("waiter CPU", &r->agg.wait_cpu));
	cr_assert(strstr(all, "        3    20.000    20.000"), "%s", all);
	cr_assert(strstr(wait, "        3    50.000    50.000"), "%s", wait);
	expect_lines(written(), (const char *const[]){
		"  duration   0.002 s from first notify to last wakeup",
		"  tracing    off (--no-trace): totals only",
		"  samples    3 sent, 3 measured",
		"",
		STATS_HEADER,
		all,
		wait,
		"  waiter CPU: the waiter spins from the start of its wait to its wakeup, so this is",
		"  the CPU time each wakeup cost it; a blocking waiter spends next to none.",
		"",
		"total latency, notify -> woken",
		NULL,
	});
	cr_assert_null(strstr(text, "events "), "%s", text);
	cr_assert_null(strstr(text, "Phases of"), "%s", text);
	cr_assert_null(strstr(text, "steal "), "%s", text);
	free(r);
}

Test(text_workload, a_path_without_a_kernel_has_a_total_and_the_syscalls_of_its_waiter)
{
	struct run_config cfg = config(&spin_wl, true);
	struct run_result *r = new_run_result();
	struct sample_result s;
	char total[256];
	const char *doc;

	fill_clock(&r->clock);
	for (uint64_t seq = 1; seq <= 3; seq++) {
		memset(&s, 0, sizeof(s));
		s.sample.seq = seq;
		s.t_notify_ns = 1000000 * seq;
		s.t_woken_ns = s.t_notify_ns + 300;
		s.total_ns = 300;
		s.label = LABEL_COMPLETE;
		s.waiter_syscalls = seq == 2 ? 2 : 0;
		aggregate__add(&r->agg, &s);
	}
	r->traced = true;
	r->samples_sent = 3;
	text_workload__print_text(out, &cfg, r);
	snprintf(total, sizeof(total), "%s", row("total", &r->agg.total));
	doc = written();
	expect_lines(doc, (const char *const[]){
		"  samples    3 sent, 3 complete, 0 not in the phase table",
		"",
		"No kernel in this path: a wakeup has a total and no phases; kernel events only",
		"say whether the waiter lost its CPU (those samples are labelled preempted).",
		"Syscalls made by the waiter inside its waits: 2",
		STATS_HEADER,
		total,
		"",
		"total, notify -> woken",
		NULL,
	});
	/* the histogram of the totals is the last thing said */
	cr_assert_null(strstr(doc, "runq_wait"), "%s", doc);
	cr_assert_null(strstr(doc, "Where the time"), "%s", doc);
	cr_assert_null(strstr(doc, "Target CPU idle"), "%s", doc);
	cr_assert_null(strstr(doc, "total, all samples"), "%s", doc);

	again();
	r->agg.lean = true;
	text_workload__print_text(out, &cfg, r);
	cr_assert(has_line(written(), "Syscalls made by the waiter inside its waits: not traced (the lean engine)"), "%s", text);
	free(r);
}

Test(text_workload, a_lean_run_has_six_phases_and_says_what_it_did_not_see)
{
	struct run_config cfg = config(&eventfd_wl, true);
	struct run_result *r = new_run_result();
	struct sample_result s;
	char rows[NR_PHASES + 1][256];
	const char *doc;

	fill_clock(&r->clock);
	r->agg.lean = true;
	cfg.lean = true;
	for (uint64_t seq = 1; seq <= 2; seq++) {
		s = phased_sample(seq, plain_phases);
		s.lean = true;
		memset(&s.why, 0, sizeof(s.why));
		s.wakeup_cpu = seq == 1 ? 1 : 0;
		aggregate__add(&r->agg, &s);
	}
	r->traced = true;
	r->samples_sent = 2;
	r->lean.woke_running = 9;
	text_workload__print_text(out, &cfg, r);
	for (int k = 0; k < NR_PHASES; k++)
		snprintf(rows[k], sizeof(rows[0]), "%s", row(wakeup__phase_name(k), &r->agg.phase[k]));
	snprintf(rows[NR_PHASES], sizeof(rows[0]), "%s", row("total", &r->agg.total));
	cr_assert(strstr(rows[PHASE_NOTIFY_KERNEL], "        2     1.000     1.000"), "%s", rows[PHASE_NOTIFY_KERNEL]);
	doc = written();
	expect_lines(doc, (const char *const[]){
		"  events     0 recorded, 0 dropped (BPF ring buffer full), 0 lost to skipped BPF runs",
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the",
		"             kernel, one record per wakeup; with the workload's syscalls, which split notify",
		"             and resume,",
		"             and nothing explains a wakeup (--engine full splits each by cause)",
		"             wakes that found the thread on its CPU or preempted, not recorded: 9",
		"Phases of the 2 complete wakeups (they add up to the total of each one):",
		STATS_HEADER,
		rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6],
		"",
		"Queued from another CPU: 1 of 2 wakeups (the lean engine does not see",
		"idle CPUs, interrupts or preemptions: --engine full has them)",
		"total, notify -> woken",
		"notify_user", "notify_kernel", "wake_enqueue", "runq_wait", "resume_kernel", "resume_user",
		NULL,
	});
	cr_assert_null(strstr(doc, "Target CPU idle"), "%s", doc);
	cr_assert_null(strstr(doc, "Where the time"), "%s", doc);
	free(r);
}

Test(text_workload, a_path_that_starts_a_thread_each_time_has_no_one_wakee)
{
	struct run_config cfg = config(&new_wl, true);
	struct run_result *r = traced_run();

	cfg.interval_us = 0;
	cfg.waker_cpu = 2;
	cfg.wakee_cpu = 3;
	text_workload__print_text(out, &cfg, r);
	cr_assert(has_line(written(), "  threads    waker tid 100 on CPU 2 -> a new thread each time, on CPU 2 or 3 as "
			   "the kernel places it, back to back"), "%s", text);
	free(r);
}

Test(text_workload, late_and_evicted_events_are_said_when_there_are_any)
{
	struct run_config cfg = config(&eventfd_wl, true);
	struct run_result *r = traced_run();

	r->drops_total = 4;
	r->missed_runs = 1;
	r->merge.late_events = 2;
	text_workload__print_text(out, &cfg, r);
	cr_assert(has_line(written(), "  events     321 recorded, 4 dropped (BPF ring buffer full), 1 lost to skipped "
			   "BPF runs, 2 late, 0 evicted"), "%s", text);
	free(r);
}

/* ---------------------------------------------------------------- --workload all */

/* complete_run - @n complete samples of @phases (or, with @total, a path without phases: that total) */
static struct run_result *complete_run(int n, const int64_t *phases, int64_t total)
{
	struct run_result *r = new_run_result();
	struct sample_result s;

	for (int i = 1; i <= n; i++) {
		if (phases) {
			s = phased_sample((uint64_t)i, phases);
		} else {
			memset(&s, 0, sizeof(s));
			s.sample.seq = (uint64_t)i;
			s.t_notify_ns = 1000000 * (uint64_t)i;
			s.t_woken_ns = s.t_notify_ns + (uint64_t)total;
			s.t_wait_start_ns = s.t_notify_ns - 50000;
			s.total_ns = total;
			s.label = LABEL_COMPLETE;
		}
		aggregate__add(&r->agg, &s);
	}
	r->traced = true;
	r->samples_sent = (uint64_t)n;
	return r;
}

#define COMPARISON_HEAD \
	"path             samples       p50       p99     p99.9        max  dropped  not in the phase table"

Test(text_workload, the_comparison_has_a_row_per_path_and_the_median_of_each_phase)
{
	struct run_config cfg = config(&eventfd_wl, true);
	const struct workload_desc *wl[] = { &eventfd_wl, &spin_wl, &cond_wl, &pipe_wl };
	struct run_result *r[4];
	struct sample_result s;
	char head[160];

	/* eventfd: three complete, one no_sleep of the same total; 3 events lost */
	r[0] = complete_run(3, plain_phases, 0);
	s = phased_sample(4, plain_phases);
	s.label = LABEL_NO_SLEEP;
	s.phased = false;
	aggregate__add(&r[0]->agg, &s);
	r[0]->drops_total = 2;
	r[0]->missed_runs = 1;
	/* spin: no kernel in its path, its waiter spinning 50.3 us a wakeup */
	r[1] = complete_run(4, NULL, 300);
	/* cond: two of four blocked again on the mutex; it failed */
	r[2] = complete_run(0, NULL, 0);
	for (uint64_t seq = 1; seq <= 4; seq++) {
		s = phased_sample(seq, plain_phases);
		s.rewait_seen = seq <= 2;
		s.rewait_ns = 300;
		aggregate__add(&r[2]->agg, &s);
	}
	r[2]->workload_failed = true;
	snprintf(r[2]->workload_error, sizeof(r[2]->workload_error), "killed by SIGKILL");
	/* pipe: nothing measured */
	r[3] = complete_run(0, NULL, 0);
	cfg.samples = 4;
	cfg.interval_us = 0;
	text_workload__print_comparison(out, &cfg, wl, (const struct run_result *const *)r, 4);
	snprintf(head, sizeof(head), "wakeprobe %s: every path, 4 wakeups each, back to back, waker CPU 0 -> wakee CPU 1",
		 WAKEPROBE_VERSION);
	expect_lines(written(), (const char *const[]){
		head,
		"",
		"Total latency, notify -> woken, every sample (us)",
		COMPARISON_HEAD,
		"eventfd                4      7.70      7.70      7.70       7.70        3  1 (most: no_sleep)",
		"spin                   4      0.30      0.30      0.30       0.30        0  0",
		"cond                   4      7.70      7.70      7.70       7.70        0  0  FAILED: killed by SIGKILL",
		"pipe                   0         -         -         -          -        0  0",
		"",
		"Median of each phase over the complete wakeups (us)",
		"                            notify    notify      wake      runq    resume    resume",
		"path            complete      user    kernel   enqueue      wait    kernel      user",
		"eventfd                3      0.50      1.00      2.00      3.00      0.80      0.40",
		"spin                   4  no kernel in the path; waiter CPU p50 50.30 us",
		"cond                   4      0.50      1.00      2.00      3.00      0.80      0.40",
		"pipe                   0         -         -         -         -         -         -",
		"cond: 2 of 4 wakeups blocked again on the mutex (median 0.30 us), inside resume_user",
		"",
		"dropped: events the BPF side could not record, plus program runs the kernel skipped.",
		"The phases are docs/phases.md's; `wakeprobe --workload NAME` shows one path in full.",
		NULL,
	});
	cr_assert_null(strstr(text, "lean engine"), "%s", text);
	for (int i = 0; i < 4; i++)
		free(r[i]);
}

/* what kept most samples out of the table is named; of equals, the first label */
Test(text_workload, the_comparison_names_the_label_that_kept_most_samples_out)
{
	struct run_config cfg = config(&eventfd_wl, true);
	const struct workload_desc *wl[] = { &eventfd_wl };
	struct run_result *r = complete_run(1, plain_phases, 0);
	static const enum sample_label labels[] = { LABEL_MISSING_EVENT, LABEL_LOST_EVENTS, LABEL_MISSING_EVENT,
						    LABEL_LOST_EVENTS, LABEL_COALESCED };
	struct sample_result s;

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		s = phased_sample(2 + i, plain_phases);
		s.label = labels[i];
		s.phased = false;
		aggregate__add(&r->agg, &s);
	}
	text_workload__print_comparison(out, &cfg, wl, (const struct run_result *const *)&r, 1);
	cr_assert(has_line(written(), "eventfd                6      7.70      7.70      7.70       7.70        0  "
			   "5 (most: lost_events)"), "%s", text);
	free(r);
}

Test(text_workload, an_untraced_comparison_has_totals_alone_and_a_lean_one_says_what_its_phases_hold)
{
	struct run_config cfg = config(&eventfd_wl, false);
	const struct workload_desc *wl[] = { &eventfd_wl };
	struct run_result *r = new_run_result();
	char head[160];

	for (uint64_t i = 1; i <= 2; i++)
		aggregate__add_untraced(&r->agg, 1000000 * i, 1000000 * i + 20000, 0);
	cfg.samples = 2;
	text_workload__print_comparison(out, &cfg, wl, (const struct run_result *const *)&r, 1);
	snprintf(head, sizeof(head), "wakeprobe %s: every path, 2 wakeups each, one every 500 us, waker CPU 0 -> wakee "
		 "CPU 1, untraced", WAKEPROBE_VERSION);
	expect_lines(written(), (const char *const[]){
		head,
		"",
		"Total latency, notify -> woken, every sample (us)",
		COMPARISON_HEAD,
		"eventfd                2     20.00     20.00     20.00      20.00        -  (untraced)",
		NULL,
	});
	cr_assert_null(strstr(text, "Median"), "%s", text);
	cr_assert_null(strstr(text, "dropped: "), "%s", text);

	again();
	cfg.traced = true;
	cfg.lean = true;
	r->traced = true;
	text_workload__print_comparison(out, &cfg, wl, (const struct run_result *const *)&r, 1);
	expect_lines(written(), (const char *const[]){
		"The lean engine: the syscalls were not traced, so notify kernel and resume kernel hold the whole",
		"notify (t_notify -> sched_waking) and resume (switch-in -> t_woken).",
		"",
		"dropped: events the BPF side could not record, plus program runs the kernel skipped.",
		NULL,
	});
	free(r);
}
