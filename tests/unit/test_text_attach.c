// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_attach.c - attach mode's text report, line by line, of the
 * small run of attach_fixture.h, whose every figure is known: who was traced
 * and how the run ended, the wakeups by waker and by label, the pairs
 * table in either order, the kernel phases and what was absent, the futex
 * words, the slowest wakeups, and what a lean run, a --tid run or a run
 * with no wakeup says instead.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "lean_adapt.h"
#include "text_attach.h"
#include "text_lines.h"

static struct attach_fixture run;
static struct attach_counters counters;
static char *text;

static void setup(void)
{
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	/* the report's own copy of the counters, for the tests to change */
	counters = *attach__counters(run.engine);
	run.report.counters = &counters;
	text = NULL;
}

static void teardown(void)
{
	attach_fixture__free(&run);
	free(text);
}

TestSuite(text_attach, .init = setup, .fini = teardown);

/* report - the text report of @r, whole */
static const char *report(const struct attach_report *r)
{
	size_t len = 0;
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	text_attach__print_text(f, r);
	cr_assert_eq(fclose(f), 0);
	return text;
}

/* absent - the line of phase @k's absences: "  notify_kernel absent in 1: <why>" */
static const char *absent(char *buf, size_t len, int k, uint64_t n, enum attach_absence why)
{
	snprintf(buf, len, "  %s absent in %llu: %s", wakeup__phase_name(k), (unsigned long long)n,
		 attach__absence_describe(why));
	return buf;
}

#define PAIRS_HEAD1 \
	"                                                              wake -> run (sched_waking ->     " \
	"notify -> return (waker's"
#define PAIRS_HEAD2 \
	"waker                        wakee                     count   switch-in)  p50   p99   max       " \
	"syscall -> wait's exit)"
#define EVENTFD_PAIR \
	"thread producer 5001         con,\"sumer 5002               3       6.0      34.0      34.0       8.0" \
	"      36.0      36.0"
#define FUTEX_PAIR \
	"thread producer 5001         con,\"sumer 5002               2       4.0       4.0       4.0       6.0" \
	"       6.0       6.0"
#define TIMER_PAIR \
	"timer                        con,\"sumer 5002               1       4.0       4.0       4.0         -" \
	"         -         -"
#define FUTEX_HEAD	"     pid            address    waits    wakes  waited (us)     max (us)  threads"
#define FUTEX_ROW	"    5000         0x7f0042a0        2        2         15.0          7.5  5002 5001"

Test(text_attach, the_summary_says_what_was_traced_how_it_ended_and_who_woke_the_wakeups)
{
	char head[128];
	const char *doc = report(&run.report);

	snprintf(head, sizeof(head), "wakeprobe %s: attached to pid 5000", WAKEPROBE_VERSION);
	/* 705 us traced; 8 records a wakeup, 7 for the one without its WAKER record, and the waker's switch-in */
	expect_lines(doc, (const char *const[]){
		head,
		"  host       testhost, kernel 6.1.0-test, x86_64, 2 CPUs",
		"  traced     0.001 s, ended: --duration ran out",
		"  threads    2 seen at once at most, 0 began and 0 ended while traced",
		"  events     56 recorded, 0 dropped (BPF ring buffer full), 3 BPF program runs skipped by the kernel",
		"  steal      not measured: ",
		"  cost       not kept: recorded by a wakeprobe that did not keep it",
		"  wakeups    7 of traced threads; woken by:",
		"                      5  a traced thread in a syscall",
		"                      1  a timer",
		"                      1  no waker recorded (its waking was not traced)",
		"  complete   6 (in the tables below), missing_event 1",
		"             missing_event: a bounding kernel event never arrived",
		"WARNING    3 BPF program runs were skipped by the kernel (one already ran on that CPU): up to as many "
		"wakeups went unseen or unpaired, and the counts are low by up to 3",
		"",
		NULL,
	});
	cr_assert(!strncmp(doc, head, strlen(head)), "%s", doc);
	cr_assert_null(strstr(strstr(doc, "WARNING") + 1, "WARNING"), "one warning, the skipped runs': %s", doc);
	cr_assert_null(strstr(doc, "late to be ordered"), "%s", doc);
}

/*
 * The pairs, the most wakeups first: wake -> run is sched_waking (+2000)
 * to the switch-in (+6000 and the extra), notify -> return the waker's
 * syscall entry (+1000) to the wait's exit (+7000 and the extra); the
 * timer's wakeup has no syscall of its waker.
 */
Test(text_attach, the_pairs_table_gives_each_pairs_wakeups_and_times_most_wakeups_first)
{
	expect_lines(report(&run.report), (const char *const[]){
		"Waker -> wakee pairs, the 3 with the most complete wakeups (of 3); times in us:",
		PAIRS_HEAD1,
		PAIRS_HEAD2,
		EVENTFD_PAIR,
		"                               via eventfd write -> read",
		FUTEX_PAIR,
		"                               via futex 0x7f0042a0 wake -> wait",
		TIMER_PAIR,
		"                               via timer (sleep ended)",
		"",
		NULL,
	});
	cr_assert_null(strstr(text, "Space-Saving"), "every pair has a row: the counts are exact\n%s", text);
	cr_assert_null(strstr(text, "its row had before"), "%s", text);
}

Test(text_attach, ordered_by_cost_the_pairs_and_futex_words_say_so_and_pairs_keeps_to_its_count)
{
	run.report.order = ATTACH_ORDER_COST;
	run.report.pairs = 1;
	expect_lines(report(&run.report), (const char *const[]){
		"Waker -> wakee pairs, the 1 with the most wake -> run time summed (of 3); times in us:",
		PAIRS_HEAD1,
		PAIRS_HEAD2,
		EVENTFD_PAIR,
		"                               via eventfd write -> read",
		"",
		"Futex words, the 1 with the most time waited (of 1):",
		FUTEX_HEAD,
		FUTEX_ROW,
		"",
		NULL,
	});
	cr_assert_null(strstr(text, FUTEX_PAIR), "%s", text);
}

/* find_row - the pair row whose mechanism is @mechanism */
static struct attach_pair *find_row(const char *mechanism)
{
	for (uint32_t i = 0; i < run.agg->nr_pairs; i++)
		if (!strcmp(run.agg->pairs[i]->mechanism, mechanism))
			return run.agg->pairs[i];
	cr_assert_fail("no pair %s", mechanism);
	return NULL;
}

/*
 * As the sketch leaves the tables once rows changed hands: the eventfd pair
 * took a row that had counted 4 wakeups of two pairs since replaced, the
 * futex word one that had counted 3 waits and wakes of another word
 */
Test(text_attach, once_rows_changed_hands_the_tables_say_a_sketch_kept_the_busiest_and_how_far_off_a_count_can_be)
{
	struct attach_pair *efd = find_row("eventfd write -> read");

	efd->count += 4;
	efd->error = 4;
	run.agg->pairs_replaced = 2;
	run.agg->pairs_evicted = 4;
	run.agg->futexes[0].count += 3;
	run.agg->futexes[0].error = 3;
	run.agg->futexes_replaced = 1;
	run.agg->futexes_evicted = 3;
	run.agg->futex_waits += 2;
	run.agg->futex_wakes += 1;
	expect_lines(report(&run.report), (const char *const[]){
		"Waker -> wakee pairs, the 3 with the most complete wakeups (of the busiest 3); times in us:",
		PAIRS_HEAD1,
		PAIRS_HEAD2,
		"thread producer 5001         con,\"sumer 5002               7       6.0      34.0      34.0       8.0"
		"      36.0      36.0",
		"                               via eventfd write -> read; up to 4 of the count are of pairs its row had "
		"before",
		FUTEX_PAIR,
		"                               via futex 0x7f0042a0 wake -> wait",
		TIMER_PAIR,
		"                               via timer (sleep ended)",
		"  more than 128 pairs came: a Space-Saving sketch kept the busiest, a new pair taking the row with the "
		"fewest (2 times)",
		"  a count may include up to 4 wakeups of the pairs its row had before (each row says how many); its times "
		"are the pair's own",
		"  4 complete wakeups of the pairs replaced are counted above, in no row; every pair with more than 0 has a "
		"row",
		"",
		NULL,
	});
	expect_lines(text, (const char *const[]){
		"Futex words, the 1 with the most waits and wakes (of the busiest 1):",
		FUTEX_HEAD,
		FUTEX_ROW "; up to 3 waits and wakes before its row",
		"  more than 256 futex words came: a Space-Saving sketch kept the busiest, a new word taking the row with "
		"the fewest waits and wakes (1 time)",
		"  a word's figures are its own since it took its row; up to 3 more waits and wakes of it may have come "
		"before",
		"  3 waits and wakes of the words replaced are in no row; every word with more than 0 has a row",
		"",
		NULL,
	});

	/* the rows shown held theirs from the start: their counts are exact, though others changed hands */
	efd->count -= 4;
	efd->error = 0;
	run.report.pairs = 1;
	expect_lines(report(&run.report), (const char *const[]){
		EVENTFD_PAIR,
		"                               via eventfd write -> read",
		"  more than 128 pairs came: a Space-Saving sketch kept the busiest, a new pair taking the row with the "
		"fewest (2 times)",
		"  the counts shown are exact: these pairs held their rows from their first wakeup",
		NULL,
	});
}

Test(text_attach, no_pair_asked_is_said_as_none)
{
	run.report.pairs = 0;
	expect_lines(report(&run.report), (const char *const[]){
		"Waker -> wakee pairs, the 0 with the most complete wakeups (of 3); times in us:",
		"  (none)",
		"",
		NULL,
	});
	cr_assert_null(strstr(text, PAIRS_HEAD2), "%s", text);
}

Test(text_attach, the_kernel_phases_of_the_complete_wakeups_and_what_was_absent)
{
	const struct attach_aggregate *g = run.agg;
	char rows[7][256], why[256];

	stats_line(rows[0], sizeof(rows[0]), "notify_kernel", &g->phase[PHASE_NOTIFY_KERNEL]);
	stats_line(rows[1], sizeof(rows[1]), "wake_enqueue", &g->phase[PHASE_WAKE_ENQUEUE]);
	stats_line(rows[2], sizeof(rows[2]), "runq_wait", &g->phase[PHASE_RUNQ_WAIT]);
	stats_line(rows[3], sizeof(rows[3]), "resume_kernel", &g->phase[PHASE_RESUME_KERNEL]);
	stats_line(rows[4], sizeof(rows[4]), "wake -> run", &g->wake_to_run);
	stats_line(rows[5], sizeof(rows[5]), "notify -> return", &g->notify_to_return);
	stats_line(rows[6], sizeof(rows[6]), "idle_exit", &g->idle_exit);
	/* the timer's wakeup has no notify_kernel; runq_wait 3000 + 0, 2000, 30000, 0, 0, 0 */
	cr_assert(strstr(rows[0], "notify_kernel             5     1.000"), "%s", rows[0]);
	cr_assert_str_eq(rows[2], "runq_wait                 6     3.000     3.000    33.000    33.000    33.000    "
			 "33.000     8.333");
	expect_lines(report(&run.report), (const char *const[]){
		"Kernel phases of the 6 complete wakeups (no stamps inside the program: notify_user and resume_user "
		"are not measured):",
		STATS_HEADER,
		rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6],
		"  the target CPU was idle at 6 wakings, another CPU queued 6 of them",
		absent(why, sizeof(why), PHASE_NOTIFY_KERNEL, 1, ATTACH_ABSENT_WAKER_INTERRUPT),
		"",
		NULL,
	});
	/* the wakeup labelled missing_event is not said absent: its label says why */
	cr_assert_eq(g->absent[PHASE_RUNQ_WAIT][ATTACH_ABSENT_LABELLED], 0);
}

Test(text_attach, several_reasons_for_one_absent_phase_share_its_line_and_labelled_ones_are_left_out)
{
	char want[512], one[256], two[256];

	run.agg->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_WAKER_UNTRACKED] = 2;
	run.agg->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_LABELLED] = 5;
	run.agg->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_WAKER_INTERRUPT] = 3;
	absent(one, sizeof(one), PHASE_RESUME_KERNEL, 2, ATTACH_ABSENT_WAKER_UNTRACKED);
	snprintf(two, sizeof(two), "; 3: %s", attach__absence_describe(ATTACH_ABSENT_WAKER_INTERRUPT));
	snprintf(want, sizeof(want), "%s%s", one, two);
	cr_assert(has_line(report(&run.report), want), "%s\nnot in\n%s", want, text);
}

Test(text_attach, the_futex_words_their_waits_and_their_threads)
{
	run.agg->futexes[0].tids_untabled = 1;
	expect_lines(report(&run.report), (const char *const[]){
		"Futex words, the 1 with the most waits and wakes (of 1):",
		FUTEX_HEAD,
		FUTEX_ROW " and more",
		"",
		"Where the time of the 6 complete wakeups went (share of their summed totals):",
		NULL,
	});
	cr_assert_null(strstr(text, "Space-Saving"), "%s", text);
	cr_assert_null(strstr(text, "before its row"), "%s", text);

	/* untimed waits (no program on syscalls) have no length, which is not 0 */
	run.agg->futexes[0].waits_timed = 0;
	expect_lines(report(&run.report), (const char *const[]){
		FUTEX_HEAD,
		"    5000         0x7f0042a0        2        2            -            -  5002 5001 and more",
		NULL,
	});
}

Test(text_attach, the_slowest_wakeups_each_with_their_pair_and_their_phases)
{
	expect_lines(report(&run.report), (const char *const[]){
		"The 2 slowest of 6 complete wakeups by their first mark to their last, each phase split by cause (us;",
		"'grew most': the phase furthest over its median, by how much):",
		"",
		/* the third eventfd wakeup: from the waker's syscall entry at 206 us on, runq_wait 30 us over */
		"#1 wakeup 3 at 0.000206 s: 36.00 us, 6.0x the median 6.00; runq_wait grew most, +30.00 us",
		"  thread producer 5001 -> con,\"sumer 5002 via eventfd write -> read",
		"  woken from CPU 0 onto CPU 1, queued there (the wake list: an IPI), which was idle",
		"",
		"#2 wakeup 2 at 0.000106 s: 8.00 us, 1.3x the median 6.00; runq_wait grew most, +2.00 us",
		"  thread producer 5001 -> con,\"sumer 5002 via eventfd write -> read",
		"",
		"wake -> run (sched_waking -> switch-in of the wakee)",
		"", "notify_kernel", "", "wake_enqueue", "", "runq_wait", "", "resume_kernel",
		NULL,
	});
	/* attach mode has no stamps inside the program */
	cr_assert_null(strstr(text, "  notify_user "), "%s", text);
	cr_assert_null(strstr(text, "  resume_user "), "%s", text);
}

Test(text_attach, an_outliers_absent_phase_is_a_dash_and_its_reason)
{
	char why[256];

	run.agg->outliers[1].absent[PHASE_NOTIFY_KERNEL] = ATTACH_ABSENT_WAKER_UNTRACKED;
	snprintf(why, sizeof(why), "  notify_kernel          -  absent: %s",
		 attach__absence_describe(ATTACH_ABSENT_WAKER_UNTRACKED));
	expect_lines(report(&run.report), (const char *const[]){
		"#2 wakeup 2 at 0.000106 s: 8.00 us, 1.3x the median 6.00; runq_wait grew most, +2.00 us",
		"  wake_enqueue        1.00  CPU 1 idle 1.00",
		"  resume_kernel       1.00  own work 1.00",
		why,
		NULL,
	});
	/* the absent phase is not listed with a time */
	cr_assert_null(strstr(strstr(text, "#2 wakeup"), "  notify_kernel       1.00"), "%s", text);
}

Test(text_attach, a_command_with_threads_named_by_tid_and_the_wakeups_left_out)
{
	static const int32_t tids[] = { 5002, 5003 };
	char *argv[] = { "./server", "--port", "80", NULL };
	char head[160];

	run.targets.pids = NULL;
	run.targets.nr_pids = 0;
	run.targets.argv = argv;
	run.run.command_pid = 4321;
	run.run.command_exited = true;
	run.run.duration_reached = false;
	snprintf(run.run.command_exit, sizeof(run.run.command_exit), "exited with status 0");
	run.report.tids = tids;
	run.report.nr_tids = 2;
	run.report.tids_left_out = 4;
	snprintf(head, sizeof(head), "wakeprobe %s: attached to command './server --port 80' (pid 4321, exited with "
		 "status 0), threads 5002, 5003", WAKEPROBE_VERSION);
	expect_lines(report(&run.report), (const char *const[]){
		head,
		"  traced     0.001 s, ended: the command exited",
		"  wakeups    7 of traced threads (--tid: 4 of other threads left out); woken by:",
		NULL,
	});
}

/* how the run ended: the first of these that holds */
struct ending {
	bool interrupted;
	int stop_signal;
	bool timed_out;
	bool duration_reached;
	bool command_exited;
	uint32_t targets_exited;
	char want[96];
};

ParameterizedTestParameters(text_attach, the_run_says_how_it_ended)
{
	static struct ending cases[] = {
		{ .interrupted = true, .stop_signal = SIGINT, .timed_out = true, .duration_reached = true,
		  .want = "  traced     0.001 s, ended: interrupted by SIGINT" },
		{ .interrupted = true, .want = "  traced     0.001 s, ended: interrupted" },
		{ .timed_out = true, .duration_reached = true, .want = "  traced     0.001 s, ended: --timeout ran out" },
		{ .duration_reached = true, .command_exited = true,
		  .want = "  traced     0.001 s, ended: --duration ran out" },
		{ .command_exited = true, .want = "  traced     0.001 s, ended: the command exited" },
		{ .targets_exited = 2, .want = "  traced     0.001 s, ended: every target exited" },
		{ .targets_exited = 1, .want = "  traced     0.001 s, ended: stopped (1 of the targets exited before)" },
		{ .want = "  traced     0.001 s, ended: stopped" },
	};

	return cr_make_param_array(struct ending, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct ending *e, text_attach, the_run_says_how_it_ended)
{
	static int32_t pids[] = { RUN_PROC, 6000 };

	run.targets.pids = pids;
	run.targets.nr_pids = 2;
	run.run.interrupted = e->interrupted;
	run.run.stop_signal = e->stop_signal;
	run.run.timed_out = e->timed_out;
	run.run.duration_reached = e->duration_reached;
	run.run.command_exited = e->command_exited;
	run.run.targets_exited = e->targets_exited;
	cr_assert(has_line(report(&run.report), e->want), "%s\nnot in\n%s", e->want, text);
	cr_assert(strstr(text, ": attached to pid 5000, pid 6000\n"), "%s", text);
}

/* the processes a --pid target had forked before the attach are traced with it, and said so */
Test(text_attach, the_targets_descendants_are_named_with_them)
{
	static int32_t pids[] = { RUN_PROC, 6000 };

	run.targets.pids = pids;
	run.targets.nr_pids = 1;
	run.run.descendants = 1;
	cr_assert(strstr(report(&run.report), ": attached to pid 5000 and the 1 process descending from it\n"), "%s",
		  text);
	run.targets.nr_pids = 2;
	run.run.descendants = 4;
	cr_assert(strstr(report(&run.report), ": attached to pid 5000, pid 6000 and the 4 processes descending from "
		  "them\n"), "%s", text);
}

/* a server's master, asleep while the workers it forked before the attach work: said so, with the split */
Test(text_attach, a_target_never_woken_while_its_descendants_worked_is_said_to_be)
{
	static int32_t pids[] = { RUN_PROC };

	run.targets.pids = pids;
	run.targets.nr_pids = 1;
	run.run.descendants = 2;
	run.report.target_wakeups = 0;
	report(&run.report);
	cr_assert(has_line(text, "             of them 0 of the target's own threads, 7 of the 2 processes descending "
			   "from it"), "%s", text);
	cr_assert(has_line(text, "             the target was never woken: it slept or ran the whole run while its "
			   "descendants worked"), "%s", text);
	/* woken too: the split alone */
	run.report.target_wakeups = 3;
	report(&run.report);
	cr_assert(has_line(text, "             of them 3 of the target's own threads, 4 of the 2 processes descending "
			   "from it"), "%s", text);
	cr_assert_null(strstr(text, "never woken"), "%s", text);
	/* without descendants, nothing to tell apart */
	run.run.descendants = 0;
	cr_assert_null(strstr(report(&run.report), "of them 3"), "%s", text);
}

Test(text_attach, what_was_lost_late_or_forgotten_is_said_with_a_warning_for_drops)
{
	char threads[160];

	counters.late_events = 3;
	counters.evicted_events = 1;
	counters.forgotten_threads = 2;
	counters.explained_cut = 5;
	counters.migrations = 4;
	run.run.drops_total = 7;
	snprintf(threads, sizeof(threads), "  threads    2 seen at once at most, 0 began and 0 ended while traced, "
		 "2 forgotten (more than %d at once)", ATTACH_MAX_THREADS);
	expect_lines(report(&run.report), (const char *const[]){
		threads,
		"  events     56 recorded, 7 dropped (BPF ring buffer full), 3 BPF program runs skipped by the kernel",
		"             3 arrived too late to be ordered, 1 pushed out of a full window: wakeups they bound are "
		"labelled",
		"             missing_event: a bounding kernel event never arrived",
		"WARNING    7 events were dropped: a larger --ringbuf-kb keeps them; the wakeups they touch are "
		"labelled lost_events",
		"sched_migrate_task of the targets' tasks: 4, 0 of them the wakee's inside a wakeup",
		"complete wakeups that began before the records kept for explanations (250 ms back): 5; their first "
		"part is unexplained",
		"The 2 slowest of 6 complete wakeups by their first mark to their last, each phase split by cause (us;",
		NULL,
	});
}

Test(text_attach, steal_given_to_wakeups_past_what_proc_stat_allows_is_a_warning)
{
	/* /proc/stat allows (0 + 2) ticks of 10 ms on the one CPU: 20 ms; the wakeups were given more */
	run.run.steal = (struct host_steal){ .measured = true, .cpus = { HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS },
					     .clk_tck = 100, .nr_cpus = 1, .seen_ns = 30000000 };
	run.agg->causes.cause_ns[CAUSE_HOST] = 20000001;
	expect_lines(report(&run.report), (const char *const[]){
		"  steal      30.000 ms of all CPUs taken by the host over the run (steal clocks), 20.000 ms of it "
		"inside complete wakeups",
		"             the kernel's account (/proc/stat): +0 ticks of 10 ms on those CPUs, at most 20 ms",
		"  cost       not kept: recorded by a wakeprobe that did not keep it",
		"WARNING    the host's steal given to wakeups is more than /proc/stat allows: the per-CPU layout read "
		"from the BTF is wrong",
		"  wakeups    7 of traced threads; woken by:",
		NULL,
	});
	run.agg->causes.cause_ns[CAUSE_HOST] = 20000000;
	run.run.missed_runs = 0;
	cr_assert_null(strstr(report(&run.report), "WARNING"), "%s", text);
}

/*
 * What was lost, by the engine's measure: the lean engine's dropped record is
 * a whole wakeup no label can mark, so the counts are low by it; the full
 * engine's dropped event marks the wakeups it bounds. Each says when the
 * losses were found.
 */
Test(text_attach, each_loss_says_what_it_costs_under_the_engine_and_when_it_was_found)
{
	const char *doc;

	run.run.missed_runs = 0;
	run.run.drops_total = 1500;
	run.run.counters.dropped[WP_EV_LEAN] = 1200;
	run.run.counters.dropped[WP_EV_SWITCH] = 300;
	run.run.drops_first_ns = run.run.trace_start_ns + 2100000000ull;
	run.run.drops_last_ns = run.run.trace_start_ns + 32400000000ull;
	run.run.counters.tracked_full = 2;
	run.targets.lean = true;
	doc = report(&run.report);
	cr_assert(has_line(doc, "WARNING    1200 wakeups lost: their records were dropped, the BPF ring full (found "
			   "from 2.1 s to 32.4 s into the run); every count and total here is low by up to 1200 (a "
			   "larger --ringbuf-kb keeps a burst, not a stalled reader)"), "%s", doc);
	cr_assert(has_line(doc, "WARNING    300 other records dropped (flight records, names, forks): slow wakeups may "
			   "be unexplained or explained in part, threads unnamed"), "%s", doc);
	cr_assert(has_line(doc, "WARNING    2 processes the targets forked were not tracked (the map of tracked "
			   "processes was full): their wakeups are not counted"), "%s", doc);
	cr_assert_null(strstr(doc, "labelled lost_events"), "the lean engine labels none: %s", doc);

	/* the full engine: its drops mark the wakeups they touch; found at one time */
	run.targets.lean = false;
	run.run.counters.dropped[WP_EV_LEAN] = 0;
	run.run.drops_last_ns = run.run.drops_first_ns;
	doc = report(&run.report);
	cr_assert(has_line(doc, "WARNING    1500 events were dropped (found 2.1 s into the run): a larger --ringbuf-kb "
			   "keeps them; the wakeups they touch are labelled lost_events"), "%s", doc);
	cr_assert_null(strstr(doc, "wakeups lost"), "%s", doc);
}

Test(text_attach, a_lean_run_says_what_it_traced_and_what_it_could_not_see)
{
	run.targets.lean = true;
	counters.threads_peak = 3;
	counters.new_threads = 1;
	counters.exited_threads = 2;
	counters.flight_explained = 2;
	counters.flight_lost = 1;
	counters.migrations = 9;
	run.run.lean.woke_running = 6;
	run.agg->causes.migrations = 4;
	expect_lines(report(&run.report), (const char *const[]){
		"  threads    3 named, 1 began and 2 ended while traced",
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the",
		"             kernel, one record per wakeup; the waker's syscall and the wait",
		"             named from registers, not timed,",
		"             and nothing explains a wakeup (--engine full splits each by cause)",
		"             wakes that found the thread on its CPU or preempted, not recorded: 6",
		"WARNING    1 slow wakeups lost their flight records (out of memory): not explained",
		"  steal      not measured: ",
		"  another CPU queued 6 of them (the lean engine without its flight recorder does not see idle CPUs)",
		"The 2 slowest of 6 complete wakeups by their first mark to their last, their phases (us; no causes: "
		"the lean engine;",
		NULL,
	});
	cr_assert_null(strstr(text, "the target CPU was idle at"), "%s", text);
	/* the migrations inside the wakeups explained, not the run's, which it does not see */
	cr_assert(has_line(text, "migrations of the wakee inside these wakeups: 4 (woken onto another CPU than it last "
			   "ran on, or moved while it waited)"), "%s", text);
	cr_assert_null(strstr(text, "sched_migrate_task"), "%s", text);

	/* with flight records: the slow wakeups they explained are counted */
	run.agg->outlier_threshold_ns = 30000;
	for (int k = 0; k < WP_SLOW_KINDS; k++)
		run.run.lean_flight_ns[k] = 30000;
	expect_lines(report(&run.report), (const char *const[]){
		"             and only a wakeup whose waking to switch-in took 30 us or more is explained,",
		"             from its CPU's last switches, idle transitions and interrupts (the flight recorder): 2 of them",
		NULL,
	});
	/* ... and the idle CPUs, which its idle transitions tell */
	cr_assert(strstr(report(&run.report), "  the target CPU was idle at "), "%s", text);

	/* without --threshold-us: the running p99, where it ended */
	run.agg->outlier_threshold_ns = 0;
	run.targets.lean_flight_adaptive = true;
	run.run.lean_flight_ns[WP_SLOW_THREAD] = 84000;
	run.run.lean_flight_ns[WP_SLOW_IRQ] = 196608;
	run.run.lean_flight_ns[WP_SLOW_SOFTIRQ] = LEAN_ADAPT_NONE;
	expect_lines(report(&run.report), (const char *const[]){
		"             and only a wakeup over the running p99 of waking to switch-in of its",
		"             kind of waker (250 us until 200 of the kind are counted), at most 2% of",
		"             them (64 a 100 ms tick at least), is explained (--threshold-us fixes it),",
		"             from its CPU's last switches, idle transitions and interrupts (the flight",
		"             recorder): 2 of them",
		"             the p99s at the end, of those woken by a thread: 84 us, an interrupt: 197 us, a "
		"softirq: not yet",
		NULL,
	});
}

Test(text_attach, a_run_without_a_wakeup_has_empty_tables_and_nothing_to_explain)
{
	struct attach_aggregate *empty = attach_aggregate__new();
	const char *doc;

	cr_assert_not_null(empty);
	attach_aggregate__want_outliers(empty, 2, 0);
	attach_aggregate__end(empty);
	run.report.agg = empty;
	doc = report(&run.report);
	expect_lines(doc, (const char *const[]){
		"  wakeups    0 of traced threads",
		"  complete   0 (in the tables below)",
		"",
		"Waker -> wakee pairs, the 0 with the most complete wakeups (of 0); times in us:",
		"  (none)",
		"",
		"Kernel phases of the 0 complete wakeups (no stamps inside the program: notify_user and resume_user "
		"are not measured):",
		STATS_HEADER,
		"notify_kernel             0         -",
		"wake_enqueue              0         -",
		"runq_wait                 0         -",
		"resume_kernel             0         -",
		"wake -> run               0         -",
		"notify -> return          0         -",
		"  the target CPU was idle at 0 wakings, another CPU queued 0 of them",
		"",
		"wake -> run (sched_waking -> switch-in of the wakee)",
		"     (no samples)",
		NULL,
	});
	cr_assert_null(strstr(doc, "woken by"), "%s", doc);
	cr_assert_null(strstr(doc, "idle_exit "), "%s", doc);
	cr_assert_null(strstr(doc, "Futex words"), "%s", doc);
	cr_assert_null(strstr(doc, "Where the time"), "%s", doc);
	cr_assert_null(strstr(doc, "slowest"), "%s", doc);
	attach_aggregate__free(empty);
}
