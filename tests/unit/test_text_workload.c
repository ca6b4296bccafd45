// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_workload.c - the workload's text report, line by line: the
 * rows of the stats tables, where the time went by cause, the outliers'
 * legend and bodies, the tracing, steal and cost lines, the warnings, the
 * whole report of a run built from synthetic samples (traced, untraced,
 * lean, with no kernel in its path) and the comparison table of several
 * runs. Every figure is one the test knows from what went in.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lean_adapt.h"
#include "memout.h"
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

/* ---------------------------------------------------------------- the stats tables */

Test(text_workload, the_stats_header_names_the_columns_and_a_row_gives_them_in_us)
{
	struct histogram h;

	histogram__init(&h);
	/* the median is the midpoint of 2000's bucket, [2000, 2007]; p90 and above the largest */
	histogram__add(&h, 1000);
	histogram__add(&h, 2000);
	histogram__add(&h, 3000);
	histogram__add(&h, 4000);
	text_workload__stats_header(out);
	text_workload__stats_row(out, "runq_wait", &h);
	cr_assert_str_eq(written(), STATS_HEADER "\n"
		"runq_wait                 4     1.000     2.003     4.000     4.000     4.000     4.000     2.500\n");
}

Test(text_workload, an_empty_distribution_is_a_row_of_a_count_of_zero_and_a_dash)
{
	struct histogram h;

	histogram__init(&h);
	text_workload__stats_row(out, "idle_exit", &h);
	cr_assert_str_eq(written(), "idle_exit                 0         -\n");
}

/* ---------------------------------------------------------------- where the time went */

/* cause_line - the cause table's line of cause @c: its share and time per wakeup as given, then its meaning */
static const char *cause_line(char *buf, size_t len, const char *head, enum cause c)
{
	snprintf(buf, len, "%s%s", head, wakeup__cause_describe(c));
	return buf;
}

Test(text_workload, the_causes_table_gives_each_causes_share_and_time_per_wakeup_then_the_tasks)
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
	text_workload__print_causes(out, ct, 4, 5, "the workload's");
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
Test(text_workload, unexplained_is_always_listed_and_tasks_past_the_table_are_one_line)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	char task[256], rest[256], want[1024];

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_OTHER_TASK] = 2000;
	ct->explained_total_ns = 2000;
	ct->untabled_task_ns = 500;
	ct->wakeups = 1;
	text_workload__print_causes(out, ct, 1, 0, "the workload's");
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
Test(text_workload, a_lean_cause_table_says_which_wakeups_it_covers)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	char idle[256], rest[256], want[1024];

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_IDLE] = 8000;
	ct->cause_ns[CAUSE_UNEXPLAINED] = 2000;
	ct->explained_total_ns = 10000;
	ct->wakeups = 2;
	text_workload__print_causes(out, ct, 200, 0, "the workload's");
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

Test(text_workload, nothing_explained_prints_no_causes_at_all)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	ct->untabled_task_ns = 500;
	text_workload__print_causes(out, ct, 3, 7, "the workload's");
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

Test(text_workload, the_outliers_legend_says_what_their_phases_show)
{
	text_workload__outliers_legend(out, false, NULL, false, LEGEND_WORKLOAD);
	cr_assert_str_eq(written(), ", each phase split by cause (us;\n"
			 "'grew most': the phase furthest over its median, by how much):\n");
	again();
	text_workload__outliers_legend(out, true, NULL, false, LEGEND_ATTACH);
	cr_assert_str_eq(written(), ", their phases (us; no causes: the lean engine;\n"
			 "'grew most': the phase furthest over its median, by how much):\n");
	again();
	text_workload__outliers_legend(out, true, flight_ns(250000), false, LEGEND_ATTACH);
	cr_assert_str_eq(written(), ", their phases (us;\n"
			 "'grew most': the phase furthest over its median, by how much). With the lean engine, a\n"
			 "wakeup whose waking to switch-in took 250 us or more brought its CPU's last switches,\n"
			 "idle transitions and interrupts, which split its wake_enqueue and runq_wait; softirqs\n"
			 "are not traced (--softirqs traces them), so their time shows as the task they came in\n"
			 "on, or idle:\n");
	/* ... with --softirqs */
	again();
	text_workload__outliers_legend(out, true, flight_ns(250000), false, LEGEND_ATTACH_SOFTIRQS);
	cr_assert(strstr(written(), "which split its wake_enqueue and runq_wait, softirqs\ntoo (--softirqs):\n"), "%s",
		  text);
	again();
	text_workload__outliers_legend(out, true, flight_ns(250000), true, LEGEND_ATTACH);
	cr_assert(strstr(written(), "With the lean engine, a\nwakeup over the running p99 of its kind (250 us until it was "
			  "known) brought its CPU's\nlast"), "%s", text);
	/* a workload's: its notify and its resume are reached too */
	again();
	text_workload__outliers_legend(out, true, flight_ns(250000), false, LEGEND_WORKLOAD);
	cr_assert_str_eq(written(), ", their phases (us;\n"
			 "'grew most': the phase furthest over its median, by how much). With the lean engine, a\n"
			 "wakeup whose waking to switch-in took 250 us or more brought its CPU's last switches,\n"
			 "idle transitions and interrupts, which split its wake_enqueue and runq_wait; its waker's\n"
			 "CPU's from its notify on split the notify, and its own up to its wait's exit, when the\n"
			 "switch-in or the resume alone took as long, resume_kernel:\n");
	/* the longest of them, broken within 88 columns */
	again();
	text_workload__outliers_legend(out, true, flight_ns(250000), true, LEGEND_WORKLOAD);
	cr_assert(strstr(written(), "resume_kernel:\n"), "%s", text);
	for (const char *line = text; *line; line = strchr(line, '\n') + 1)
		cr_assert_leq(strcspn(line, "\n"), 88, "a line over 88 columns:\n%s", text);
	/* no flight recorder (--outliers 0) */
	again();
	text_workload__outliers_legend(out, true, flight_ns(0), false, LEGEND_ATTACH);
	cr_assert(strstr(written(), "no causes: the lean engine"), "%s", text);
}

/* set_part - @ns of phase @k of @r was @iv's cause: a named interval, or own work when @iv is NULL */
static void set_part(struct sample_result *r, int k, enum cause cause, int64_t ns, const struct interval *iv)
{
	r->why.by_phase_cause[k][cause] += ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] -= ns;
	r->why.by_cause[cause] += ns;
	r->why.by_cause[CAUSE_UNEXPLAINED] -= ns;
	if (iv) {
		r->why.iv[r->why.nr_iv] = *iv;
		r->why.iv[r->why.nr_iv].cause = (uint8_t)cause;
		r->why.iv[r->why.nr_iv].phase = (uint8_t)k;
		r->why.iv[r->why.nr_iv++].dur_ns = (uint64_t)ns;
	}
}

/* phased - a complete sample @seq of these phases, all of their time unexplained */
static struct sample_result phased(uint64_t seq, const int64_t phase_ns[NR_PHASES])
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.sample.waker_tid = 100;
	r.sample.wakee_tid = 101;
	r.sample.wakee_cpu = 1;
	r.t_notify_ns = 1000000 * seq;
	for (int k = 0; k < NR_PHASES; k++) {
		r.phase_ns[k] = phase_ns[k];
		r.total_ns += phase_ns[k];
		r.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = phase_ns[k];
	}
	r.why.by_cause[CAUSE_UNEXPLAINED] = r.total_ns;
	r.t_woken_ns = r.t_notify_ns + (uint64_t)r.total_ns;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	r.waking_cpu = 0;
	r.wakeup_cpu = 1;
	r.target_cpu = 1;
	return r;
}

static const int64_t plain_phases[NR_PHASES] = { 500, 1000, 2000, 3000, 800, 400 };
static const int64_t slow_phases[NR_PHASES] = { 500, 1000, 4000, 50000, 800, 700 };

/* slow_sample - runq_wait held by a task and an interrupt, wake_enqueue by an idle CPU */
static struct sample_result slow_sample(uint64_t seq)
{
	struct sample_result r = phased(seq, slow_phases);
	struct interval task = { .cpu = 1, .pid = 42, .prio = 120, .left_known = true, .preempted = true,
				 .name = "wp-hog" };
	struct interval irq = { .cpu = 1, .irq_kind = WP_IRQ_HARD, .nr = 24, .name = "eth0" };
	struct interval idle = { .cpu = 1 };

	set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 30000, &task);
	set_part(&r, PHASE_RUNQ_WAIT, CAUSE_IRQ, 5000, &irq);
	set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OWN_WORK, 2000, NULL);
	set_part(&r, PHASE_WAKE_ENQUEUE, CAUSE_IDLE, 3000, &idle);
	/* notify_kernel all own work: no unexplained part to list */
	set_part(&r, PHASE_NOTIFY_KERNEL, CAUSE_OWN_WORK, 1000, NULL);
	r.target_was_idle = true;
	return r;
}

/*
 * Each phase's parts, longest first, then its own work and what is
 * unexplained, wrapped under the first part; a phase with nothing at all in
 * it still says it is unexplained.
 */
Test(text_workload, an_outliers_body_splits_each_phase_into_its_parts_longest_first)
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
	text_workload__print_outlier_body(out, &r, NULL, NULL);
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

Test(text_workload, an_outliers_body_shows_only_the_phases_asked_and_says_who_enqueued)
{
	struct sample_result r = slow_sample(9);
	bool show[NR_PHASES] = { [PHASE_RUNQ_WAIT] = true, [PHASE_RESUME_KERNEL] = true };

	r.wakeup_cpu = r.waking_cpu;
	r.target_was_idle = false;
	text_workload__print_outlier_body(out, &r, show, NULL);
	cr_assert_str_eq(written(),
		"  woken from CPU 0 onto CPU 1, enqueued by the waker\n"
		"  runq_wait          50.00  'wp-hog' pid 42 prio 120 ran on CPU 1 (then preempted) 30.00;\n"
		"                            irq 24 'eth0' on CPU 1 5.00; own work 2.00; unexplained 13.00\n"
		"  resume_kernel       0.80  unexplained 0.80\n");
}

Test(text_workload, a_lean_outlier_without_flight_records_has_six_phases_and_no_causes)
{
	struct sample_result r = slow_sample(9);
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	r.lean = true;
	/* own work far over an empty median: a full run would flag it, a lean one has nothing to say */
	r.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK] = 40000;
	text_workload__print_outlier_body(out, &r, NULL, ct);
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
	text_workload__print_outlier_body(out, &r, NULL, ct);
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

ParameterizedTestParameters(text_workload, own_work_far_over_its_median_is_flagged)
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

ParameterizedTest(struct own_work_case *c, text_workload, own_work_far_over_its_median_is_flagged)
{
	struct sample_result r = phased(3, slow_phases);
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	bool show[NR_PHASES] = { [PHASE_RUNQ_WAIT] = true };
	char want[512], median[16], own[16];

	cr_assert_not_null(ct);
	for (int k = 0; k < NR_PHASES; k++)
		histogram__init(&ct->own_work[k]);
	for (int i = 0; c->median && i < 5; i++)
		histogram__add(&ct->own_work[PHASE_RUNQ_WAIT], c->median);
	set_part(&r, PHASE_RUNQ_WAIT, CAUSE_OWN_WORK, c->own, NULL);
	text_workload__print_outlier_body(out, &r, show, ct);
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
Test(text_workload, a_flag_names_the_cpu_of_its_phase)
{
	struct sample_result r = phased(3, plain_phases);
	struct cause_totals *ct = calloc(1, sizeof(*ct));
	bool show[NR_PHASES] = { [PHASE_NOTIFY_KERNEL] = true };

	cr_assert_not_null(ct);
	r.waking_cpu = 3;
	set_part(&r, PHASE_NOTIFY_KERNEL, CAUSE_OWN_WORK, 30000, NULL);
	text_workload__print_outlier_body(out, &r, show, ct);
	cr_assert(has_line(written(), "  notify_kernel: own work 30.00 us, where its median 0.00, with nothing else "
			   "seen on CPU 3:"), "%s", text);
	free(ct);
}

/* ---------------------------------------------------------------- the summary's lines */

Test(text_workload, the_lean_tracing_lines_say_what_lean_mode_left_out)
{
	struct wp_lean_counters c = { .woke_running = 7 };

	text_workload__lean_tracing(out, "notify and resume are not split,", NULL, false, -1, &c);
	cr_assert_str_eq(written(),
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the\n"
		"             kernel, one record per wakeup; notify and resume are not split,\n"
		"             and nothing explains a wakeup (--engine full splits each by cause)\n"
		"             wakes that found the thread on its CPU or preempted, not recorded: 7\n");
}

Test(text_workload, the_lean_tracing_lines_say_how_many_slow_wakeups_their_flight_records_explained)
{
	struct wp_lean_counters c = { .woke_running = 1, .no_storage = 2, .wakeup_unpaired = 4 };

	text_workload__lean_tracing(out, "no syscall,", flight_ns(50000), false, 3, &c);
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
	text_workload__lean_tracing(out, "no syscall,", flight_ns(50000), false, -1, &c);
	cr_assert(has_line(written(), "             from its CPU's last switches, idle transitions and interrupts (the "
			   "flight recorder)"), "%s", text);
}

Test(text_workload, the_lean_tracing_lines_say_the_threshold_was_the_running_p99_or_not_yet_there)
{
	struct wp_lean_counters c = { 0 };

	uint64_t t[WP_SLOW_KINDS] = { [WP_SLOW_THREAD] = 84000, [WP_SLOW_IRQ] = LEAN_ADAPT_NONE,
				       [WP_SLOW_SOFTIRQ] = 1500000 };

	text_workload__lean_tracing(out, "no syscall,", t, true, 12, &c);
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
	text_workload__lean_tracing(out, "no syscall,", t, true, 0, &c);
	cr_assert(has_line(written(), "             the p99s at the end, of those woken by a thread: not yet, an "
			   "interrupt: not yet, a softirq: not yet"), "%s", text);
}

Test(text_workload, the_steal_line_gives_the_steal_clocks_and_proc_stats_account)
{
	struct host_steal h = { .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 3, .nr_cpus = 2,
				.seen_ns = 1500000 };

	text_workload__host(out, &h, 250000);
	/* at most (3 + 2 per CPU) ticks of 10 ms */
	cr_assert_str_eq(written(),
		"  steal      1.500 ms of CPUs 0 and 1 taken by the host over the run (steal clocks), 0.250 ms of it "
		"inside complete wakeups\n"
		"             the kernel's account (/proc/stat): +3 ticks of 10 ms on those CPUs, at most 70 ms\n");
	cr_assert_eq(text_workload__host_excess(&h, 250000), 0);
	cr_assert_eq(text_workload__host_excess(&h, 70000000), 0, "at the bound is within it");
	cr_assert_eq(text_workload__host_excess(&h, 70000001), 1);
}

Test(text_workload, the_steal_line_says_why_steal_was_not_measured_and_nothing_is_then_excess)
{
	struct host_steal h = { .cpus = { HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS }, .clk_tck = 100 };

	snprintf(h.why_off, sizeof(h.why_off), "no steal clock in this kernel's BTF");
	text_workload__host(out, &h, 0);
	cr_assert_str_eq(written(), "  steal      not measured: no steal clock in this kernel's BTF\n");
	cr_assert_eq(text_workload__host_excess(&h, 1000000000), 0);
	/* /proc/stat not read: no bound, no second line, nothing to call excess */
	again();
	h = (struct host_steal){ .measured = true, .cpus = { 2, 2 }, .seen_ns = 2000000 };
	text_workload__host(out, &h, 1000);
	cr_assert_str_eq(written(), "  steal      2.000 ms of CPU 2 taken by the host over the run (steal clocks), "
			 "0.001 ms of it inside complete wakeups\n");
	cr_assert_eq(text_workload__host_excess(&h, 1000000000), 0);
}

Test(text_workload, the_cost_line_gives_the_bpf_time_records_and_own_cpu_per_wakeup)
{
	struct trace_cost c = { .known = true, .bpf_stats_on = true, .bpf_runs = 3000, .bpf_run_ns = 600000,
				.bpf_timed_permille = 500, .self_cpu_ns = 2500000 };

	text_workload__cost(out, &c, 450, 2, 100, 1000000000);
	cr_assert_str_eq(written(),
		"  cost       BPF 30.0 program runs, 6.00 us per wakeup (200 ns a run); 4.5 records per wakeup, "
		"2 dropped\n"
		"             the kernel timed 50.0% of those runs, the rest at their mean\n"
		"             wakeprobe's own CPU 2.5 ms, 0.2% of the 1.00 s traced\n");
}

Test(text_workload, the_cost_line_says_why_bpf_time_is_missing_and_survives_zero_wakeups)
{
	struct trace_cost c = { .known = true, .bpf_timed_permille = 500, .self_cpu_ns = 1000000 };

	snprintf(c.bpf_stats_why_off, sizeof(c.bpf_stats_why_off), "kernel.bpf_stats_enabled is off");
	text_workload__cost(out, &c, 40, 0, 0, 0);
	cr_assert_str_eq(written(),
		"  cost       BPF time not measured (kernel.bpf_stats_enabled is off); 0.0 records per wakeup, "
		"0 dropped\n"
		"             wakeprobe's own CPU 1.0 ms, 0.0% of the 0.00 s traced\n");
	again();
	c.known = false;
	text_workload__cost(out, &c, 40, 0, 10, 1000);
	cr_assert_str_eq(written(), "  cost       not kept: recorded by a wakeprobe that did not keep it\n");
}

/* ---------------------------------------------------------------- warnings */

static void collect(const char *kind, const char *line, void *ctx)
{
	FILE *f = ctx;

	fprintf(f, "%s|%s\n", kind, line);
}

static struct run_result *new_run(void)
{
	struct run_result *r = calloc(1, sizeof(*r));

	cr_assert_not_null(r);
	aggregate__init(&r->agg);
	r->steal.cpus[0] = r->steal.cpus[1] = 0;
	return r;
}

Test(text_workload, every_warning_and_note_comes_in_its_order)
{
	struct run_result *r = new_run();

	r->traced = true;
	r->drops_total = 5;
	r->missed_runs = 2;
	r->agg.samples = 10;
	r->agg.by_label[LABEL_LOST_EVENTS] = 1;
	r->samples_sent = 11;
	r->seq_errors = 3;
	r->agg.phase_sum_mismatch = 4;
	r->interrupted = true;
	r->stop_signal = SIGTERM;
	r->workload_failed = true;
	snprintf(r->workload_error, sizeof(r->workload_error), "killed by SIGKILL");
	/* 1 ms given to wakeups, /proc/stat allows (0 + 2) ticks of 100 us: 0.8 ms over */
	r->steal = (struct host_steal){ .measured = true, .cpus = { 0, 1 }, .clk_tck = 10000, .nr_cpus = 1 };
	r->agg.causes.cause_ns[CAUSE_HOST] = 1000000;
	text_workload__warnings(r, collect, out);
	cr_assert_str_eq(written(),
		"WARNING|7 events lost, 1 samples marked lost_events (not attributed); raise --ringbuf-kb\n"
		"WARNING|11 samples were sent but 10 were read\n"
		"WARNING|3 samples arrived out of sequence\n"
		"WARNING|4 complete samples whose phases do not add up\n"
		"NOTE|interrupted by SIGTERM: the figures cover the samples taken until then\n"
		"WARNING|workload failed: killed by SIGKILL\n"
		"WARNING|the host's steal given to wakeups is 0.800 ms more than /proc/stat allows: the per-CPU "
		"layout read from the BTF is wrong\n");
	free(r);
}

Test(text_workload, a_clean_run_has_no_warning_and_skipped_runs_alone_need_no_bigger_ring)
{
	struct run_result *r = new_run();

	r->traced = true;
	r->agg.samples = r->samples_sent = 10;
	text_workload__warnings(r, collect, out);
	cr_assert_str_eq(written(), "");
	r->missed_runs = 2;
	r->interrupted = true;
	text_workload__warnings(r, collect, out);
	cr_assert_str_eq(written(), "WARNING|2 events lost, 0 samples marked lost_events (not attributed)\n"
			 "NOTE|interrupted: the figures cover the samples taken until then\n");
	free(r);
}

Test(text_workload, an_untraced_run_has_no_events_to_lose)
{
	struct run_result *r = new_run();

	r->drops_total = 5;
	r->agg.samples = r->samples_sent = 10;
	text_workload__warnings(r, collect, out);
	cr_assert_str_eq(written(), "");
	free(r);
}

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
	struct run_result *r = new_run();
	struct sample_result s;

	fill_clock(&r->clock);
	aggregate__want_outliers(&r->agg, 2, 0);
	for (uint64_t seq = 1; seq <= 4; seq++) {
		s = phased(seq, plain_phases);
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
	struct run_result *r = new_run();
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
	struct run_result *r = new_run();
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
	struct run_result *r = new_run();
	struct sample_result s;
	char rows[NR_PHASES + 1][256];
	const char *doc;

	fill_clock(&r->clock);
	r->agg.lean = true;
	cfg.lean = true;
	for (uint64_t seq = 1; seq <= 2; seq++) {
		s = phased(seq, plain_phases);
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
	struct run_result *r = new_run();
	struct sample_result s;

	for (int i = 1; i <= n; i++) {
		if (phases) {
			s = phased((uint64_t)i, phases);
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
	s = phased(4, plain_phases);
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
		s = phased(seq, plain_phases);
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
		s = phased(2 + i, plain_phases);
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
	struct run_result *r = new_run();
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
