// SPDX-License-Identifier: GPL-2.0
/*
 * test_text_design.c - what a person reads of a throughput workload's
 * runs, line by line, from a synthetic struct design_run built as
 * test_json_design.c builds one: the fixture's document as both runs', a
 * census fed known wakeups and switches, and attach_fixture.h's small attach
 * run as the traced kernel side. Then the same run untraced, traced in lean
 * mode, and among others on the one line each of --workload all.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_reader.h"
#include "design_run_fixture.h"
#include "readback.h"
#include "text_design.h"
#include "text_lines.h"

/* the run under test: design_run_fixture.h's, rebuilt for each test */
static struct design_run_fixture f;
static struct design_run *dr;
static char *text;

static void setup(void)
{
	design_run_fixture__make(&f);
	dr = f.dr;
	text = NULL;
}

static void teardown(void)
{
	free(text);
	design_run_fixture__free(&f);
}

TestSuite(text_design, .init = setup, .fini = teardown);

/* report - the text of @dr, whole */
static const char *report(void)
{
	size_t len = 0;
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	text_design__print_text(f, dr);
	cr_assert_eq(fclose(f), 0);
	return text;
}

/* lines - the --workload all lines of @n runs, @why[i] for those that did not run */
static const char *lines(const struct design_run *const *runs, const char *const *why, size_t n)
{
	size_t len = 0;
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	text_design__print_lines(f, runs, why, n);
	cr_assert_eq(fclose(f), 0);
	return text;
}

#define FIGURES_HEAD	"  result                 runs     untraced       traced     ratio"
#define FIGURE_SEED	"  tasks=10 start=seed       3        800.0       1000.0     1.25x"
#define FIGURE_READY	"  tasks=10 start=ready      3          0.0       2000.0         -"
#define KINDS_HEAD \
	"    wakeups    per task    p50 us    p99 us  waker -> wakee via mechanism (wake -> run: sched_waking -> " \
	"switch-in)"
/* 2000 to 2029 ns: the median the midpoint of 2014's bucket, [2008, 2015], the p99 the largest */
#define KIND_ROW	"         30      0.5000       2.0       2.0  thread bq-producer -> bq-consumer via futex wake -> wait"
#define FUTEX_HEAD	"       pid            address     waits    per task     wakes    waited us     max us"
#define FUTEX_ROW	"      5000         0x7f0042a0         2      0.0333         2         15.0        7.5"
#define CPU_HEAD	"  thread              ended  switched in       CPU ms     per task"
#define CPU_ROW		"  bq-producer             0            1        0.004         66.7"
#define CPU_ALL		"  all                                           0.004         66.7"

Test(text_design, the_runs_their_figures_untraced_and_traced_and_their_ratio)
{
	char head[128];
	const char *doc = report();

	snprintf(head, sizeof(head), "wakeprobe %s: burst-queue, mode cond", WAKEPROBE_VERSION);
	cr_assert(!strncmp(doc, head, strlen(head)), "%s", doc);
	/* the attach run's 56 records, and its 3 program runs the kernel skipped */
	expect_lines(doc, (const char *const[]){
		head,
		"  command    /x/burst-queue --json",
		"  untraced   exited with status 0 after 1.50 s",
		"  traced     killed by signal 9 (Killed) after 2.50 s",
		"  events     56 recorded, 0 dropped (BPF ring buffer full), 3 BPF program runs skipped by the kernel",
		"  steal      not measured: ",
		"  cost       not kept: recorded by a wakeprobe that did not keep it",
		"",
		"Its figures: the median ns per task over each result's runs, untraced and traced",
		FIGURES_HEAD,
		FIGURE_SEED,
		FIGURE_READY,
		"Its counts over the traced run, as it checked them:",
		"  tasks=10 start=seed  sent=30 received=30",
		"  tasks=10 start=ready cond_waits=3",
		NULL,
	});
	cr_assert_null(strstr(doc, "WARNING"), "%s", doc);
	cr_assert_null(strstr(doc, "tracing    lean"), "%s", doc);
}

Test(text_design, the_census_counts_wakeups_futex_waits_and_cpu_time_per_unit)
{
	const struct attach_aggregate *g = f.run.agg;
	char rows[5][256];

	stats_line(rows[0], sizeof(rows[0]), "notify_kernel", &g->phase[PHASE_NOTIFY_KERNEL]);
	stats_line(rows[1], sizeof(rows[1]), "wake_enqueue", &g->phase[PHASE_WAKE_ENQUEUE]);
	stats_line(rows[2], sizeof(rows[2]), "runq_wait", &g->phase[PHASE_RUNQ_WAIT]);
	stats_line(rows[3], sizeof(rows[3]), "resume_kernel", &g->phase[PHASE_RESUME_KERNEL]);
	stats_line(rows[4], sizeof(rows[4]), "wake -> run", &g->wake_to_run);
	expect_lines(report(), (const char *const[]){
		"",
		"Wakeups of the traced run: 30 of its threads over 60 units (task), 0.5000 per task",
		KINDS_HEAD,
		KIND_ROW,
		"",
		/* the attach run: six complete wakeups, one missing_event */
		"Kernel phases of the 6 complete wakeups; not complete: missing_event 1:",
		STATS_HEADER,
		rows[0], rows[1], rows[2], rows[3], rows[4],
		"",
		"Where the time of the 6 complete wakeups went (share of their summed totals):",
		"",
		/* its futex word: two waits of 7.5 us */
		"Futex waits (locks, condition variables, joins): 2 on 1 words, 0.0333 per task, 15.0 us waited in all",
		FUTEX_HEAD,
		FUTEX_ROW,
		"",
		"CPU time of its threads by name, from the scheduler's switches (traced run, 2.500 s):",
		CPU_HEAD,
		CPU_ROW,
		CPU_ALL,
		NULL,
	});
	cr_assert_null(strstr(text, "kinds more"), "%s", text);
	cr_assert_null(strstr(text, "(other names)"), "%s", text);
	cr_assert_null(strstr(text, "idle_exit "), "%s", text);
}

Test(text_design, every_label_left_out_of_the_phases_is_named_after_the_first)
{
	f.run.agg->by_label[LABEL_LOST_EVENTS] = 2;
	cr_assert(has_line(report(), "Kernel phases of the 6 complete wakeups; not complete: lost_events 2, "
			   "missing_event 1:"), "%s", text);
	f.run.agg->by_label[LABEL_LOST_EVENTS] = 0;
	f.run.agg->by_label[LABEL_MISSING_EVENT] = 0;
	cr_assert(has_line(report(), "Kernel phases of the 6 complete wakeups:"), "%s", text);
}

Test(text_design, what_did_not_fit_its_tables_is_counted_under_them)
{
	struct census *c = dr->census;
	char kinds_past[128], procs_past[128], others[128];

	c->kinds_untabled = 7;
	c->names_untabled_ns = 2000;
	c->unseen_slices = 3;
	c->procs_untabled = 1;
	snprintf(kinds_past, sizeof(kinds_past), "  7 wakeups of kinds past the first %d: counted above, not in this table",
		 CENSUS_MAX_KINDS);
	snprintf(procs_past, sizeof(procs_past), "  1 processes it forked past the first %d: their threads are not "
		 "counted", CENSUS_MAX_PROCS);
	snprintf(others, sizeof(others), "  %-16s %8s %12s %12.3f %12.1f", "(other names)", "", "", 0.002, 2000.0 / DESIGN_UNITS);
	expect_lines(report(), (const char *const[]){
		KIND_ROW,
		kinds_past,
		FUTEX_ROW,
		CPU_ROW,
		others,
		/* the names past the table count in all of it */
		"  all                                           0.006        100.0",
		"  3 times a thread left a CPU it was not seen to enter (records lost): that time is not counted",
		procs_past,
		NULL,
	});
}

/*
 * Once more words came than the table has rows: the waits count every word,
 * those replaced too, on more words than the rows; the table says a sketch
 * kept the busiest. The word shown took a row that had 5 waits and wakes
 * of another, which waited 3 times, 4000 ns.
 */
Test(text_design, once_futex_rows_changed_hands_the_waits_count_every_word_and_the_table_says_a_sketch_kept_the_busiest)
{
	struct attach_aggregate *g = f.run.agg;

	g->futexes[0].count += 5;
	g->futexes[0].error = 5;
	g->futexes_replaced = 1;
	g->futexes_evicted = 5;
	g->futex_waits += 3;
	g->futex_wakes += 2;
	g->futex_waits_timed += 3;
	g->futex_wait_total_ns += 4000;
	expect_lines(report(), (const char *const[]){
		"Futex waits (locks, condition variables, joins): 5 on more than 1 words, 0.0833 per task, 19.0 us waited "
		"in all",
		FUTEX_HEAD,
		FUTEX_ROW,
		"  more than 256 futex words came: a Space-Saving sketch kept the busiest, a new word taking the row with "
		"the fewest waits and wakes (1 time)",
		"  a word's figures are its own since it took its row; up to 5 more waits and wakes of it may have come "
		"before",
		"  5 waits and wakes of the words replaced are in no row; every word with more than 0 has a row",
		NULL,
	});
}

Test(text_design, drops_are_a_warning_and_a_zero_untraced_figure_has_no_ratio_on_its_line)
{
	dr->run.res.drops_total = 12;
	expect_lines(report(), (const char *const[]){
		"  events     56 recorded, 12 dropped (BPF ring buffer full), 3 BPF program runs skipped by the kernel",
		"WARNING    12 events were dropped: the counts below miss what they held; a larger --ringbuf-kb or "
		"smaller sizes keep them",
		FIGURE_READY,
		NULL,
	});
}

/* --no-trace: the workload's own figures alone */
Test(text_design, an_untraced_run_has_its_figures_alone)
{
	const char *doc;

	json_reader__free(dr->traced.doc);
	dr->traced = (struct design_side){ .ran = false };
	doc = report();
	expect_lines(doc, (const char *const[]){
		"  untraced   exited with status 0 after 1.50 s",
		"",
		"Its figures: the median ns per task over each result's runs (untraced)",
		"  result                 runs     untraced",
		"  tasks=10 start=seed       3        800.0",
		"  tasks=10 start=ready      3          0.0",
		"Its counts over the untraced run, as it checked them:",
		"  tasks=10 start=seed  sent=30 received=30",
		NULL,
	});
	/* the counts are the last thing said */
	cr_assert(strstr(doc, "  tasks=10 start=ready cond_waits=3\n")[strlen("  tasks=10 start=ready cond_waits=3\n")]
		  == '\0', "%s", doc);
	cr_assert_null(strstr(doc, "  traced "), "%s", doc);
	cr_assert_null(strstr(doc, "events"), "%s", doc);
	cr_assert_null(strstr(doc, "Wakeups"), "%s", doc);
}

/*
 * the lean engine names the syscalls from registers and records no switch of a
 * thread that blocks: its futex words are counted, its CPU time is said missing
 */
Test(text_design, a_lean_run_says_what_it_could_not_count)
{
	const char *doc;

	dr->run.targets.lean = true;
	dr->run.res.lean.woke_running = 4;
	doc = report();
	expect_lines(doc, (const char *const[]){
		"  cost       not kept: recorded by a wakeprobe that did not keep it",
		"  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the",
		"             kernel, one record per wakeup; the waker's syscall and the wait named from registers,",
		"             not timed, no CPU time by thread,",
		"             and nothing explains a wakeup (--engine full splits each by cause)",
		"             wakes that found the thread on its CPU or preempted, not recorded: 4",
		"",
		"Its figures: the median ns per task over each result's runs, untraced and traced",
		KIND_ROW,
		"",
		"Futex waits (locks, condition variables, joins): 2 on 1 words, 0.0333 per task, 15.0 us waited in all",
		FUTEX_HEAD,
		FUTEX_ROW,
		"",
		"CPU time of its threads by name: not traced (the lean engine records no switch of a thread that blocks)",
		NULL,
	});
	cr_assert_null(strstr(doc, "Where the time"), "%s", doc);
	cr_assert_null(strstr(doc, CPU_HEAD), "%s", doc);
}

/*
 * waits named from registers, with no program on syscalls to time them:
 * counted, and their lengths said not timed rather than shown as none
 */
Test(text_design, untimed_futex_waits_are_counted_and_their_lengths_are_not_shown)
{
	for (uint32_t i = 0; i < f.run.agg->nr_futexes; i++) {
		f.run.agg->futexes[i].waits_timed = 0;
		f.run.agg->futexes[i].wait_total_ns = 0;
		f.run.agg->futexes[i].wait_max_ns = 0;
	}
	f.run.agg->futex_waits_timed = 0;
	f.run.agg->futex_wait_total_ns = 0;
	expect_lines(report(), (const char *const[]){
		"Futex waits (locks, condition variables, joins): 2 on 1 words, 0.0333 per task, their lengths not "
		"timed (no program on syscalls)",
		FUTEX_HEAD,
		"      5000         0x7f0042a0         2      0.0333         2            -          -",
		NULL,
	});
}

Test(text_design, a_run_with_no_wakeup_and_nothing_handed_over_has_no_kinds_table)
{
	census__free(dr->census);
	dr->census = census__new();
	cr_assert_not_null(dr->census);
	dr->units = 0;
	expect_lines(report(), (const char *const[]){
		"Wakeups of the traced run: 0 of its threads over 0 units (task), 0.0000 per task",
		"",
		"Kernel phases of the 6 complete wakeups; not complete: missing_event 1:",
		"Futex waits (locks, condition variables, joins): 2 on 1 words, 0.0000 per task, 15.0 us waited in all",
		"  all                                           0.000          0.0",
		NULL,
	});
	cr_assert_null(strstr(text, KINDS_HEAD), "%s", text);
}

Test(text_design, more_kinds_than_the_table_shows_are_counted_in_a_line)
{
	struct census *c = dr->census;

	/* the kinds past those shown: the text shows the first DESIGN_REPORT_KINDS */
	for (uint32_t i = 0; i < DESIGN_REPORT_KINDS + 2; i++) {
		struct attach_result r;

		memset(&r, 0, sizeof(r));
		r.sr.label = LABEL_MISSING_EVENT;
		r.waker.cls = WP_WAKER_PROCESS;
		snprintf(r.waker.comm, sizeof(r.waker.comm), "other%u", i);
		snprintf(r.wakee_comm, sizeof(r.wakee_comm), "bq-consumer");
		census__result(c, &r);
	}
	cr_assert_eq(c->nr_kinds, DESIGN_REPORT_KINDS + 3);
	expect_lines(report(), (const char *const[]){
		KIND_ROW,
		"  ... and 3 kinds more with fewer wakeups",
		NULL,
	});
	/* a kind without a complete wakeup has no times */
	cr_assert(strstr(text, "          1      0.0167         -         -  process other"), "%s", text);
}

#define LINES_HEAD \
	"workload     mode              first result                       untraced ns   traced ns   ratio  wakeups/u"

Test(text_design, every_design_is_one_line_and_one_that_did_not_run_says_why)
{
	struct design_run untraced = *dr, lean = *dr;
	const struct design_run *runs[] = { dr, NULL, &untraced, &lean };
	const char *why[] = { NULL, "spawn: did not run: no such file", NULL, NULL };

	untraced.mode = "pipe-record";
	untraced.traced.ran = false;
	lean.mode = "lean-mode";
	lean.run.targets.lean = true;
	lean.figures[0].untraced_ns = 0;
	cr_assert_str_eq(lines(runs, why, 4),
		"\nThroughput designs, one mode each (wakeprobe --workload NAME for all of its modes and the whole "
		"census):\n"
		LINES_HEAD "\n"
		"burst-queue  cond              tasks=10 start=seed                      800.0      1000.0   1.25x     "
		"0.5000  per task\n"
		"spawn: did not run: no such file\n"
		"burst-queue  pipe-record       tasks=10 start=seed                      800.0  per task\n"
		"burst-queue  lean-mode         tasks=10 start=seed                        0.0      1000.0   0.00x     "
		"0.5000  per task\n"
		"traced ns: traced with the lean engine, one record per wakeup\n");
}

Test(text_design, a_long_first_result_is_cut_to_its_column)
{
	const struct design_run *runs[] = { dr };

	snprintf(dr->figures[0].label, sizeof(dr->figures[0].label),
		 "tasks=1000000 start=seed batches=64 spin=yes");
	dr->traced.ran = false;
	cr_assert(has_line(lines(runs, NULL, 1), "burst-queue  cond              tasks=1000000 start=seed batches=6 "
			   "      800.0  per task"), "%s", text);
	cr_assert_null(strstr(text, "traced ns: traced in lean"), "%s", text);
}
