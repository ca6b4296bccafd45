// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_common.c - what every text report prints alike
 * (text_common.c), line by line: the rows of the stats tables, where the
 * time went by cause, the outliers' legend and bodies, the tracing, steal
 * and cost lines of a run summary, and what a table of futex words says
 * once a sketch kept its rows. Every figure is one the test knows from
 * what went in.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"
#include "lean_adapt.h"
#include "memout.h"
#include "samples.h"
#include "text_common.h"
#include "text_lines.h"

TestSuite(text_common, .init = memout__open, .fini = memout__close);

/* again - forget what was written: the next print starts a new text */
static void again(void)
{
	memout__close();
	memout__open();
}

/* ---------------------------------------------------------------- the stats tables */

Test(text_common, the_stats_header_names_the_columns_and_a_row_gives_them_in_us)
{
	struct histogram h;

	histogram__init(&h);
	/* the median is the midpoint of 2000's bucket, [2000, 2007]; p90 and above the largest */
	histogram__add(&h, 1000);
	histogram__add(&h, 2000);
	histogram__add(&h, 3000);
	histogram__add(&h, 4000);
	text_common__stats_header(out);
	text_common__stats_row(out, "runq_wait", &h);
	cr_assert_str_eq(written(), STATS_HEADER "\n"
		"runq_wait                 4     1.000     2.003     4.000     4.000     4.000     4.000     2.500\n");
}

Test(text_common, an_empty_distribution_is_a_row_of_a_count_of_zero_and_a_dash)
{
	struct histogram h;

	histogram__init(&h);
	text_common__stats_row(out, "idle_exit", &h);
	cr_assert_str_eq(written(), "idle_exit                 0         -\n");
}

/* ---------------------------------------------------------------- where the time went */

/* cause_line - the cause table's line of cause @c: its share and time per wakeup as given, then its meaning */
static const char *cause_line(char *buf, size_t len, const char *head, enum cause c)
{
	snprintf(buf, len, "%s%s", head, wakeup__cause_describe(c));
	return buf;
}

Test(text_common, the_causes_table_gives_each_causes_share_and_time_per_wakeup_then_the_tasks)
{
	static const char comm16[WP_TASK_COMM_LEN] = "abcdefghijklmnop";	/* no NUL: cut at 16 */
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	char idle[256], task[256], rest[256], want[2048];

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_IDLE] = 3000;
	ct->cause_ns[CAUSE_OTHER_TASK] = 6000;
	ct->cause_ns[CAUSE_UNEXPLAINED] = 1000;
	ct->explained_total_ns = 10000;
	ct->wakeups = 4;
	ct->migrations = 2;
	ct->tasks[0] = (struct task_share){ .pid = 42, .comm = "wp-hog", .ns = 4000 };
	ct->tasks[1] = (struct task_share){ .pid = WP_PID_OUTSIDE | 7, .ns = 2000 };
	memcpy(ct->tasks[1].comm, comm16, sizeof(comm16));
	ct->nr_tasks = 2;
	text_common__print_causes(out, ct, 4, 5, "the workload's");
	snprintf(want, sizeof(want),
		 "\nWhere the time of the 4 complete wakeups went (share of their summed totals):\n"
		 "cause              share per wakeup us  meaning\n"
		 "%s\n%s\n%s\n"
		 "tasks holding a CPU a wakeup needed: 'wp-hog' pid 42: 40.0%%, 1.00 us per wakeup\n"
		 "                                 'abcdefghijklmnop' pid host:7: 20.0%%, 0.50 us per wakeup\n"
		 "sched_migrate_task of the workload's tasks: 5, 2 of them the wakee's inside a wakeup\n",
		 cause_line(idle, sizeof(idle), "idle               30.0%          0.75  ", CAUSE_IDLE),
		 cause_line(task, sizeof(task), "other_task         60.0%          1.50  ", CAUSE_OTHER_TASK),
		 cause_line(rest, sizeof(rest), "unexplained        10.0%          0.25  ", CAUSE_UNEXPLAINED));
	cr_assert_str_eq(written(), want);
	free(ct);
}

/* the unexplained time is said even when it is none; tasks past the table still add up */
Test(text_common, unexplained_is_always_listed_and_tasks_past_the_table_are_one_line)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	char task[256], rest[256], want[1024];

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_OTHER_TASK] = 2000;
	ct->explained_total_ns = 2000;
	ct->untabled_task_ns = 500;
	ct->wakeups = 1;
	text_common__print_causes(out, ct, 1, 0, "the workload's");
	snprintf(want, sizeof(want),
		 "\nWhere the time of the 1 complete wakeups went (share of their summed totals):\n"
		 "cause              share per wakeup us  meaning\n"
		 "%s\n%s\n"
		 "tasks holding a CPU a wakeup needed: every other task: 25.0%%, 0.50 us per wakeup\n",
		 cause_line(task, sizeof(task), "other_task        100.0%          2.00  ", CAUSE_OTHER_TASK),
		 cause_line(rest, sizeof(rest), "unexplained         0.0%          0.00  ", CAUSE_UNEXPLAINED));
	cr_assert_str_eq(written(), want);
	free(ct);
}

/* the lean engine: the slow wakeups its flight recorder explained, of all complete, and their time per wakeup */
Test(text_common, a_lean_cause_table_says_which_wakeups_it_covers)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	char idle[256], rest[256], want[1024];

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_IDLE] = 8000;
	ct->cause_ns[CAUSE_UNEXPLAINED] = 2000;
	ct->explained_total_ns = 10000;
	ct->wakeups = 2;
	text_common__print_causes(out, ct, 200, 0, "the workload's");
	snprintf(want, sizeof(want),
		 "\nWhere the time of the 2 slow wakeups the flight recorder explained went (of 200 complete; share "
		 "of their summed totals):\n"
		 "cause              share per wakeup us  meaning\n"
		 "%s\n%s\n",
		 cause_line(idle, sizeof(idle), "idle               80.0%          4.00  ", CAUSE_IDLE),
		 cause_line(rest, sizeof(rest), "unexplained        20.0%          1.00  ", CAUSE_UNEXPLAINED));
	cr_assert_str_eq(written(), want);
	free(ct);
}

Test(text_common, nothing_explained_prints_no_causes_at_all)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	ct->untabled_task_ns = 500;
	text_common__print_causes(out, ct, 3, 7, "the workload's");
	cr_assert_str_eq(written(), "");
	free(ct);
}

/* ---------------------------------------------------------------- the outliers */

/* flight_ns - the same threshold for every kind of waker */
static const uint64_t *flight_ns(uint64_t ns)
{
	static uint64_t t[WP_SLOW_KINDS];

	for (int k = 0; k < WP_SLOW_KINDS; k++)
		t[k] = ns;
	return t;
}

Test(text_common, the_outliers_legend_says_what_their_phases_show)
{
	text_common__outliers_legend(out, false, NULL, false, LEGEND_WORKLOAD);
	cr_assert_str_eq(written(), ", each phase split by cause (us;\n"
			 "'grew most': the phase furthest over its median, by how much):\n");
	again();
	text_common__outliers_legend(out, true, NULL, false, LEGEND_ATTACH);
	cr_assert_str_eq(written(), ", their phases (us; no causes: the lean engine;\n"
			 "'grew most': the phase furthest over its median, by how much):\n");
	again();
	text_common__outliers_legend(out, true, flight_ns(250000), false, LEGEND_ATTACH);
	cr_assert_str_eq(written(), ", their phases (us;\n"
			 "'grew most': the phase furthest over its median, by how much). With the lean engine, a\n"
			 "wakeup whose waking to switch-in took 250 us or more brought its CPU's last switches,\n"
			 "idle transitions and interrupts, which split its wake_enqueue and runq_wait; softirqs\n"
			 "are not traced (--softirqs traces them), so their time shows as the task they came in\n"
			 "on, or idle:\n");
	/* ... with --softirqs */
	again();
	text_common__outliers_legend(out, true, flight_ns(250000), false, LEGEND_ATTACH_SOFTIRQS);
	cr_assert(strstr(written(), "which split its wake_enqueue and runq_wait, softirqs\ntoo (--softirqs):\n"), "%s",
		  text);
	again();
	text_common__outliers_legend(out, true, flight_ns(250000), true, LEGEND_ATTACH);
	cr_assert(strstr(written(), "With the lean engine, a\nwakeup over the running p99 of its kind (250 us until it was "
			  "known) brought its CPU's\nlast"), "%s", text);
	/* a workload's: its notify and its resume are reached too */
	again();
	text_common__outliers_legend(out, true, flight_ns(250000), false, LEGEND_WORKLOAD);
	cr_assert_str_eq(written(), ", their phases (us;\n"
			 "'grew most': the phase furthest over its median, by how much). With the lean engine, a\n"
			 "wakeup whose waking to switch-in took 250 us or more brought its CPU's last switches,\n"
			 "idle transitions and interrupts, which split its wake_enqueue and runq_wait; its waker's\n"
			 "CPU's from its notify on split the notify, and its own up to its wait's exit, when the\n"
			 "switch-in or the resume alone took as long, resume_kernel:\n");
	/* the longest of them, broken within 88 columns */
	again();
	text_common__outliers_legend(out, true, flight_ns(250000), true, LEGEND_WORKLOAD);
	cr_assert(strstr(written(), "resume_kernel:\n"), "%s", text);
	for (const char *line = text; *line; line = strchr(line, '\n') + 1)
		cr_assert_leq(strcspn(line, "\n"), 88, "a line over 88 columns:\n%s", text);
	/* no flight recorder (--outliers 0) */
	again();
	text_common__outliers_legend(out, true, flight_ns(0), false, LEGEND_ATTACH);
	cr_assert(strstr(written(), "no causes: the lean engine"), "%s", text);
}

static const int64_t plain_phases[NR_PHASES] = { 500, 1000, 2000, 3000, 800, 400 };
static const int64_t slow_phases[NR_PHASES] = { 500, 1000, 4000, 50000, 800, 700 };

/*
 * Each phase's parts, longest first, then its own work and what is
 * unexplained, wrapped under the first part; a phase with nothing at all in
 * it still says it is unexplained.
 */
Test(text_common, an_outliers_body_splits_each_phase_into_its_parts_longest_first)
{
	struct sample_result r = slow_sample(9);

	/* resume_user: nothing in it, not even unexplained time */
	r.why.by_phase_cause[PHASE_RESUME_USER][CAUSE_UNEXPLAINED] = 0;
	r.why.more_iv = 3;
	r.why.migrations = 2;
	r.why.migrated_from = 0;
	r.why.migrated_to = 1;
	r.rewait_seen = true;
	r.rewait_ns = 300;
	text_common__print_outlier_body(out, &r, NULL, NULL);
	cr_assert_str_eq(written(),
		"  woken from CPU 0 onto CPU 1, queued there (the wake list: an IPI), which was idle\n"
		"  notify_user         0.50  unexplained 0.50\n"
		"  notify_kernel       1.00  own work 1.00\n"
		"  wake_enqueue        4.00  CPU 1 idle 3.00; unexplained 1.00\n"
		"  runq_wait          50.00  'wp-hog' pid 42 prio 120 ran on CPU 1 (then preempted) 30.00;\n"
		"                            irq 24 'eth0' on CPU 1 5.00; own work 2.00; unexplained 13.00\n"
		"  resume_kernel       0.80  unexplained 0.80\n"
		"  resume_user         0.70  unexplained 0.00\n"
		"  (3 more intervals are in the sums but not listed)\n"
		"  the wakee migrated from CPU 0 to CPU 1 inside this wakeup\n"
		"  mutex_reacquire 0.30 us of resume_user\n");
}

Test(text_common, an_outliers_body_shows_only_the_phases_asked_and_says_who_enqueued)
{
	struct sample_result r = slow_sample(9);
	bool show[NR_PHASES] = { [PHASE_RUNQ_WAIT] = true, [PHASE_RESUME_KERNEL] = true };

	r.wakeup_cpu = r.waking_cpu;
	r.target_was_idle = false;
	text_common__print_outlier_body(out, &r, show, NULL);
	cr_assert_str_eq(written(),
		"  woken from CPU 0 onto CPU 1, enqueued by the waker\n"
		"  runq_wait          50.00  'wp-hog' pid 42 prio 120 ran on CPU 1 (then preempted) 30.00;\n"
		"                            irq 24 'eth0' on CPU 1 5.00; own work 2.00; unexplained 13.00\n"
		"  resume_kernel       0.80  unexplained 0.80\n");
}

Test(text_common, a_lean_outlier_without_flight_records_has_six_phases_and_no_causes)
{
	struct sample_result r = slow_sample(9);
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	r.lean = true;
	/* own work far over an empty median: a full run would flag it, a lean one has nothing to say */
	r.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK] = 40000;
	text_common__print_outlier_body(out, &r, NULL, ct);
	cr_assert_str_eq(written(),
		"  woken from CPU 0 onto CPU 1, queued there (the wake list: an IPI), which was idle\n"
		"  notify_user         0.50  (causes not traced: the lean engine)\n"
		"  notify_kernel       1.00  (causes not traced: the lean engine)\n"
		"  wake_enqueue        4.00  (causes not traced: the lean engine)\n"
		"  runq_wait          50.00  (causes not traced: the lean engine)\n"
		"  resume_kernel       0.80  (causes not traced: the lean engine)\n"
		"  resume_user         0.70  (causes not traced: the lean engine)\n");

	/* with its CPU's flight records, its phases are split */
	again();
	r.lean_flight = true;
	text_common__print_outlier_body(out, &r, NULL, ct);
	cr_assert(has_line(written(), "  wake_enqueue        4.00  CPU 1 idle 3.00; unexplained 1.00"), "%s", text);
	cr_assert_null(strstr(text, "own work 40.00 us"), "%s", text);
	free(ct);
}

/* a phase's own work this much over its median in the run is flagged: 20 us and 10 times over */
struct own_work_case {
	uint64_t median;
	int64_t own;
	bool flagged;
};

ParameterizedTestParameters(text_common, own_work_far_over_its_median_is_flagged)
{
	static struct own_work_case cases[] = {
		{ 1000, 21000, true },	/* 20 us over */
		{ 1000, 20999, false },
		{ 5000, 50000, true },	/* 10 times, and over 20 us more */
		{ 5000, 49999, false },
		{ 0, 20000, true },
		{ 0, 19999, false },
	};

	return cr_make_param_array(struct own_work_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct own_work_case *c, text_common, own_work_far_over_its_median_is_flagged)
{
	struct sample_result r = phased_sample(3, slow_phases);
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	bool show[NR_PHASES] = { [PHASE_RUNQ_WAIT] = true };
	char want[512], median[16], own[16];

	cr_assert_not_null(ct);
	for (int k = 0; k < NR_PHASES; k++)
		histogram__init(&ct->own_work[k]);
	for (int i = 0; c->median && i < 5; i++)
		histogram__add(&ct->own_work[PHASE_RUNQ_WAIT], c->median);
	sample_set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OWN_WORK, c->own, NULL);
	text_common__print_outlier_body(out, &r, show, ct);
	snprintf(median, sizeof(median), "%.2f", c->median / 1000.0);
	snprintf(own, sizeof(own), "%.2f", c->own / 1000.0);
	snprintf(want, sizeof(want), "  runq_wait: own work %s us, %s its median %s, with nothing else seen on CPU 1:",
		 own, c->median ? "far over" : "where", median);
	cr_assert_eq(has_line(written(), want), c->flagged, "%s", text);
	cr_assert_eq(has_line(text, "    the path's code on a slow path, or the host holding the vCPU outside the "
			      "guest (not steal)"), c->flagged, "%s", text);
	free(ct);
}

/* the notify phases are on the waker's CPU: the flag names that one */
Test(text_common, a_flag_names_the_cpu_of_its_phase)
{
	struct sample_result r = phased_sample(3, plain_phases);
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	bool show[NR_PHASES] = { [PHASE_NOTIFY_KERNEL] = true };

	cr_assert_not_null(ct);
	r.waking_cpu = 3;
	sample_set_part(&r, PHASE_NOTIFY_KERNEL, CAUSE_OWN_WORK, 30000, NULL);
	text_common__print_outlier_body(out, &r, show, ct);
	cr_assert(has_line(written(), "  notify_kernel: own work 30.00 us, where its median 0.00, with nothing else "
			   "seen on CPU 3:"), "%s", text);
	free(ct);
}

/* ---------------------------------------------------------------- the summary's lines */

Test(text_common, the_lean_tracing_lines_say_what_lean_mode_left_out)
{
	struct wp_lean_counters c = { .woke_running = 7 };

	text_common__lean_tracing(out, "notify and resume are not split,", NULL, false, -1, &c);
	cr_assert_str_eq(written(),
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the\n"
		"             kernel, one record per wakeup; notify and resume are not split,\n"
		"             and nothing explains a wakeup (--engine full splits each by cause)\n"
		"             wakes that found the thread on its CPU or preempted, not recorded: 7\n");
}

Test(text_common, the_lean_tracing_lines_say_how_many_slow_wakeups_their_flight_records_explained)
{
	struct wp_lean_counters c = { .woke_running = 1, .no_storage = 2, .wakeup_unpaired = 4 };

	text_common__lean_tracing(out, "no syscall,", flight_ns(50000), false, 3, &c);
	cr_assert_str_eq(written(),
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the\n"
		"             kernel, one record per wakeup; no syscall,\n"
		"             and only a wakeup whose waking to switch-in took 50 us or more is explained,\n"
		"             from its CPU's last switches, idle transitions and interrupts (the flight recorder): 3 of them\n"
		"             (--engine full splits every wakeup by cause, at several times the cost)\n"
		"             wakes that found the thread on its CPU or preempted, not recorded: 1\n"
		"WARNING    the lean engine could not keep the state of a task 2 times (task storage refused): those "
		"wakes went unrecorded\n"
		"NOTE       4 sched_wakeup with no sched_waking of the task before it: not wakeups the lean engine "
		"records\n");
	/* not counted: no count said */
	again();
	c = (struct wp_lean_counters){ 0 };
	text_common__lean_tracing(out, "no syscall,", flight_ns(50000), false, -1, &c);
	cr_assert(has_line(written(), "             from its CPU's last switches, idle transitions and interrupts (the "
			   "flight recorder)"), "%s", text);
}

Test(text_common, the_lean_tracing_lines_say_the_threshold_was_the_running_p99_or_not_yet_there)
{
	struct wp_lean_counters c = { 0 };

	uint64_t t[WP_SLOW_KINDS] = { [WP_SLOW_THREAD] = 84000, [WP_SLOW_IRQ] = LEAN_ADAPT_NONE,
				       [WP_SLOW_SOFTIRQ] = 1500000 };

	text_common__lean_tracing(out, "no syscall,", t, true, 12, &c);
	cr_assert(has_line(written(), "             and only a wakeup over the running p99 of waking to switch-in of its"),
		  "%s", text);
	cr_assert(has_line(text, "             kind of waker (250 us until 200 of the kind are counted), at most 2% of"),
		  "%s", text);
	cr_assert(strstr(text, "(the flight\n             recorder): 12 of them"), "%s", text);
	cr_assert(has_line(text, "             the p99s at the end, of those woken by a thread: 84 us, an interrupt: "
			   "not yet, a softirq: 1500 us"), "%s", text);
	/* not one kind had enough wakeups yet: each says so */
	again();
	t[WP_SLOW_THREAD] = t[WP_SLOW_SOFTIRQ] = LEAN_ADAPT_NONE;
	text_common__lean_tracing(out, "no syscall,", t, true, 0, &c);
	cr_assert(has_line(written(), "             the p99s at the end, of those woken by a thread: not yet, an "
			   "interrupt: not yet, a softirq: not yet"), "%s", text);
}

Test(text_common, the_steal_line_gives_the_steal_clocks_and_proc_stats_account)
{
	struct host_steal h = { .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 3, .nr_cpus = 2,
				.seen_ns = 1500000 };

	text_common__host(out, &h, 250000);
	/* at most (3 + 2 per CPU) ticks of 10 ms */
	cr_assert_str_eq(written(),
		"  steal      1.500 ms of CPUs 0 and 1 taken by the host over the run (steal clocks), 0.250 ms of it "
		"inside complete wakeups\n"
		"             the kernel's account (/proc/stat): +3 ticks of 10 ms on those CPUs, at most 70 ms\n");
}

Test(text_common, the_steal_line_says_why_steal_was_not_measured)
{
	struct host_steal h = { .cpus = { HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS }, .clk_tck = 100 };

	snprintf(h.why_off, sizeof(h.why_off), "no steal clock in this kernel's BTF");
	text_common__host(out, &h, 0);
	cr_assert_str_eq(written(), "  steal      not measured: no steal clock in this kernel's BTF\n");
	/* /proc/stat not read: no bound, no second line */
	again();
	h = (struct host_steal){ .measured = true, .cpus = { 2, 2 }, .seen_ns = 2000000 };
	text_common__host(out, &h, 1000);
	cr_assert_str_eq(written(), "  steal      2.000 ms of CPU 2 taken by the host over the run (steal clocks), "
			 "0.001 ms of it inside complete wakeups\n");
}

Test(text_common, the_cost_line_gives_the_bpf_time_records_and_own_cpu_per_wakeup)
{
	struct trace_cost c = { .known = true, .bpf_stats_on = true, .bpf_runs = 3000, .bpf_run_ns = 600000,
				.bpf_timed_permille = 500, .self_cpu_ns = 2500000 };

	text_common__cost(out, &c, 450, 2, 100, 1000000000);
	cr_assert_str_eq(written(),
		"  cost       BPF 30.0 program runs, 6.00 us per wakeup (200 ns a run); 4.5 records per wakeup, "
		"2 dropped\n"
		"             the kernel timed 50.0% of those runs, the rest at their mean\n"
		"             wakeprobe's own CPU 2.5 ms, 0.2% of the 1.00 s traced\n");
}

Test(text_common, the_cost_line_says_why_bpf_time_is_missing_and_survives_zero_wakeups)
{
	struct trace_cost c = { .known = true, .bpf_timed_permille = 500, .self_cpu_ns = 1000000 };

	snprintf(c.bpf_stats_why_off, sizeof(c.bpf_stats_why_off), "kernel.bpf_stats_enabled is off");
	text_common__cost(out, &c, 40, 0, 0, 0);
	cr_assert_str_eq(written(),
		"  cost       BPF time not measured (kernel.bpf_stats_enabled is off); 0.0 records per wakeup, "
		"0 dropped\n"
		"             wakeprobe's own CPU 1.0 ms, 0.0% of the 0.00 s traced\n");
	again();
	c.known = false;
	text_common__cost(out, &c, 40, 0, 10, 1000);
	cr_assert_str_eq(written(), "  cost       not kept: recorded by a wakeprobe that did not keep it\n");
}

/* ---------------------------------------------------------------- the futex words' sketch */

Test(text_common, once_a_sketch_kept_the_futex_rows_it_says_how_far_off_they_can_be)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_futex a = { .count = 40, .error = 0 }, b = { .count = 30, .error = 12 };
	const struct attach_futex *rows[] = { &a, &b };

	cr_assert_not_null(g);
	/* every word had a row: nothing to say */
	text_common__futexes_sketch(out, g, rows, 2);
	cr_assert_str_eq(written(), "");
	g->futexes_replaced = 3;
	g->futexes_evicted = 9;
	g->futex_waits = 600;
	g->futex_wakes = 424;
	text_common__futexes_sketch(out, g, rows, 2);
	/* 1024 waits and wakes over 256 rows: a word with more than 4 has one */
	cr_assert_str_eq(written(),
			 "  more than 256 futex words came: a Space-Saving sketch kept the busiest, a new word taking the "
			 "row with the fewest waits and wakes (3 times)\n"
			 "  a word's figures are its own since it took its row; up to 12 more waits and wakes of it may "
			 "have come before\n"
			 "  9 waits and wakes of the words replaced are in no row; every word with more than 4 has a row\n");
	again();
	/* the rows shown held theirs from the start: their figures are whole */
	b.error = 0;
	g->futexes_replaced = 1;
	text_common__futexes_sketch(out, g, rows, 2);
	cr_assert(has_line(written(), "  the words shown held their rows from their first wait or wake: their figures are "
			   "whole"), "%s", written());
	cr_assert(has_line(written(), "  more than 256 futex words came: a Space-Saving sketch kept the busiest, a new "
			   "word taking the row with the fewest waits and wakes (1 time)"), "%s", written());
	attach_aggregate__free(g);
}
