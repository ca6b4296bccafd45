// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot_attach.c - an attach run's plot (--plot with --pid or --
 * COMMAND), read back through tests/check_svg.py: the small run of
 * attach_fixture.h, its pairs in the text report's order with their own
 * numbers and its kernel phases; what is traced named in the title; a
 * pair's label cut at a character's start; the pairs drawn at most; and
 * the notes of what was left out.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_fixture.h"
#include "plot_attach.h"
#include "readback.h"

static char path[64];
static FILE *file;
static struct attach_fixture run;

static void setup(void)
{
	file = temp_output("plot-attach", path);
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
}

static void teardown(void)
{
	attach_fixture__free(&run);
	if (file)
		fclose(file);
	unlink(path);
}

TestSuite(plot_attach, .init = setup, .fini = teardown);

/* written - the file is complete: close it for python to read */
static void written(void)
{
	cr_assert_eq(fclose(file), 0);
	file = NULL;
}

Test(plot_attach, the_pairs_come_in_the_order_of_the_text_report_with_their_own_numbers)
{
	const struct attach_pair *rows[PLOT_ATTACH_MAX_PAIRS];
	size_t n = attach_aggregate__pairs(run.agg, ATTACH_ORDER_COUNT, rows, PLOT_ATTACH_MAX_PAIRS);
	char want[1024] = "", *p = want;

	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s(%llu, %llu, %u)", i ? ", " : "", (unsigned long long)rows[i]->count,
			     (unsigned long long)rows[i]->wake_to_run.sum, rows[i]->wakee_tid);
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "want(any(t == 'wakeprobe: attached to pid %u' for t in texts), 'the title names the target')\n"
		  "pairs = by_class(root, 'pair', 'g')\n"
		  "got = [(int(e.get('data-count')), int(e.get('data-wake-to-run-sum-ns')), int(e.get('data-wakee-tid')))"
		  " for e in pairs]\n"
		  "want(got == [%s], got)\n"
		  "want(any('con,\"sumer' in t and 'eventfd write -> read' in t for t in texts), 'who woke whom, how')\n"
		  "bars = [num(by_class(e, 'bar')[0], 'width') for e in pairs]\n"
		  "want(abs(bars[0] / bars[1] - got[0][0] / got[1][0]) < 0.01, 'bars as long as their counts')\n"
		  "want(any(t == 'complete wakeups of the pair' for t in texts), 'the axis says what it counts')\n"
		  "names = [p.get('data-name') for p in by_class(root, 'panel', 'g')]\n"
		  "want(names == ['wake -> run', 'notify_kernel', 'wake_enqueue', 'runq_wait', 'resume_kernel',"
		  " 'notify -> return'], names)\n"
		  "want(panel('runq_wait').get('data-count') == '%llu', 'the phase where present')\n"
		  "want(panel('notify_kernel').get('data-count') == '%llu', 'the timer wakeup has no notify_kernel')\n"
		  "want(panel('runq_wait').get('data-max-ns') == '%llu', 'the slowest')\n"
		  "want(any(t == 'not complete (not in the tables): missing_event 1' for t in texts), 'labels')\n",
		  RUN_PROC, want, (unsigned long long)run.agg->phase[PHASE_RUNQ_WAIT].count,
		  (unsigned long long)run.agg->phase[PHASE_NOTIFY_KERNEL].count,
		  (unsigned long long)run.agg->phase[PHASE_RUNQ_WAIT].max);
}

Test(plot_attach, ordered_by_cost_the_bars_are_the_time_summed_and_pairs_keeps_to_its_count)
{
	const struct attach_pair *rows[1];

	run.report.order = ATTACH_ORDER_COST;
	run.report.pairs = 1;
	cr_assert_eq(attach_aggregate__pairs(run.agg, ATTACH_ORDER_COST, rows, 1), 1);
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "[e] = by_class(root, 'pair', 'g')\n"
		  "want(e.get('data-wake-to-run-sum-ns') == '%llu' and e.get('data-count') == '%llu', e.attrib)\n"
		  "want(any(t.startswith('Waker -> wakee pairs, the 1 with the most wake -> run time summed') for t in texts),"
		  " 'the heading says the order')\n"
		  "want(any('summed (µs)' in t for t in texts), 'the axis in µs')\n",
		  (unsigned long long)rows[0]->wake_to_run.sum, (unsigned long long)rows[0]->count);
}

Test(plot_attach, the_title_names_the_command_traced_and_the_subtitle_the_run)
{
	char *argv[] = { "./server", "--port", "80", NULL };

	run.targets.pids = NULL;
	run.targets.nr_pids = 0;
	run.targets.argv = argv;
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	/* 705 us traced */
	check_svg(path,
		  "want(text_of(root.find(cs.SVG + 'title')) == \"wakeprobe: attached to command './server --port 80'\","
		  " 'the page title')\n"
		  "want(text_of(by_class(root, 'subtitle', 'text')[0]) == '7 wakeups of traced threads, 6 complete; "
		  "traced 0.001 s; testhost, kernel 6.1.0-test', 'the subtitle')\n"
		  "want(any(t == 'events dropped: 0, BPF program runs the kernel skipped: 3' for t in texts), 'the losses')\n"
		  "want(any(t.startswith('wake -> run: sched_waking to the wakee') for t in texts), 'what the spans are')\n"
		  "want(any(t == 'Kernel phases of the 6 complete wakeups, where present' for t in texts), 'the heading')\n");
}

Test(plot_attach, the_title_names_each_pid_and_the_threads_asked)
{
	static const int32_t pids[] = { RUN_PROC, 6000 }, tids[] = { 5002, 5003 };

	run.targets.pids = pids;
	run.targets.nr_pids = 2;
	run.report.tids = tids;
	run.report.nr_tids = 2;
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "want(text_of(root.find(cs.SVG + 'title')) == 'wakeprobe: attached to pid 5000, 6000, threads 5002, 5003',"
		  " text_of(root.find(cs.SVG + 'title')))\n");
}

Test(plot_attach, each_pair_is_ranked_and_labelled_with_its_numbers_in_words)
{
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	/* the eventfd pair: wake -> run 4, 6 and 34 us, 44 us in all; its median the midpoint of [5984, 6015] */
	check_svg(path,
		  "pairs = by_class(root, 'pair', 'g')\n"
		  "want([e.get('data-rank') for e in pairs] == ['1', '2', '3'], 'ranked')\n"
		  "e = pairs[0]\n"
		  "want((e.get('data-waker'), e.get('data-mechanism')) == ('thread producer 5001', 'eventfd write -> read'),"
		  " e.attrib)\n"
		  "got = [text_of(t) for t in e.iter(cs.SVG + 'text')]\n"
		  "want(got == ['#1', 'thread producer 5001 -> con,\"sumer 5002, via eventfd write -> read', '3 wakeups',"
		  " 'wake -> run p50 6.00 µs, p99 34.0 µs'], got)\n"
		  "[bar] = by_class(e, 'bar', 'rect')\n"
		  "want(text_of(bar.find(cs.SVG + 'title')) == '3 complete wakeups, wake -> run 44.0 µs in all', 'its title')\n"
		  "want(bar.get('fill') == '#666666' and num(bar, 'x') == 190, bar.attrib)\n"
		  "one = [text_of(t) for t in pairs[2].iter(cs.SVG + 'text')]\n"
		  "want(one[1:3] == ['timer -> con,\"sumer 5002, via timer (sleep ended)', '1 wakeup'], one)\n"
		  "[ax] = by_class(root, 'linear', 'g')\n"
		  "want(ax.get('data-max') == '3', ('an axis to the most wakeups', ax.attrib))\n"
		  "want(num(bar, 'width') == 550, ('the busiest pair spans the axis', bar.attrib))\n");
}

Test(plot_attach, no_pair_asked_leaves_a_note_in_their_place)
{
	run.report.pairs = 0;
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "want(by_class(root, 'pair') == [] and by_class(root, 'linear') == [], 'no pairs, no axis for them')\n"
		  "want(any(t == 'Waker -> wakee pairs, the 0 with the most complete wakeups (of 3)' for t in texts), texts)\n"
		  "want(any(t == '(none: no complete wakeup)' for t in texts), texts)\n"
		  "want(len(by_class(root, 'panel', 'g')) == 6, 'the phases all the same')\n");
}

/* a pair's label stops short of its numbers: at 96 bytes, never inside a character */
Test(plot_attach, a_long_label_is_cut_at_the_start_of_a_character)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_result r;
	char mech[MECHANISM_NAME_LEN] = "";

	cr_assert_not_null(g);
	/* 41 two-byte characters: "timer -> w 7, via " and them is 100 bytes */
	for (int i = 0; i < 41; i++)
		strcat(mech, "\xc3\xa9");
	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.sample.wakee_tid = 7;
	r.waker.cls = WP_WAKER_TIMER;
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "w");
	snprintf(r.mechanism, sizeof(r.mechanism), "%s", mech);
	r.wake_to_run_ns = 1000;
	r.notify_to_return_ns = -1;
	attach_aggregate__add(g, &r);
	attach_aggregate__end(g);
	run.report.agg = g;
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	/* cut to 93 bytes and "...": byte 93 is the second of a character, which goes too */
	check_svg(path,
		  "[e] = by_class(root, 'pair', 'g')\n"
		  "label = [text_of(t) for t in e.iter(cs.SVG + 'text')][1]\n"
		  "want(label == 'timer -> w 7, via ' + '\\u00e9' * 37 + '...', label)\n"
		  "want(len(label.encode()) == 95, len(label.encode()))\n"
		  "want(e.get('data-mechanism') == '\\u00e9' * 41, 'the attribute keeps it whole')\n");
	attach_aggregate__free(g);
}

/* more_pairs - @n pairs whose wakee i has i + 1 complete wakeups of 1 us, from a timer */
static struct attach_aggregate *more_pairs(int n)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_result r;

	cr_assert_not_null(g);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k <= i; k++) {
			memset(&r, 0, sizeof(r));
			r.sr.label = LABEL_COMPLETE;
			r.sr.sample.wakee_tid = 100 + (uint32_t)i;
			r.waker.cls = WP_WAKER_TIMER;
			snprintf(r.wakee_comm, sizeof(r.wakee_comm), "t%d", i);
			snprintf(r.mechanism, sizeof(r.mechanism), "timer (sleep ended)");
			r.wake_to_run_ns = 1000;
			r.notify_to_return_ns = -1;
			attach_aggregate__add(g, &r);
		}
	}
	attach_aggregate__end(g);
	return g;
}

Test(plot_attach, no_more_pairs_are_drawn_than_a_reader_would_read)
{
	struct attach_aggregate *g = more_pairs(PLOT_ATTACH_MAX_PAIRS + 5);

	run.report.agg = g;
	run.report.pairs = 1000;
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "pairs = by_class(root, 'pair', 'g')\n"
		  "want([int(e.get('data-count')) for e in pairs] == list(range(%d, 5, -1)), 'the busiest %d')\n"
		  "want(any(t == 'Waker -> wakee pairs, the %d with the most complete wakeups (of %d)' for t in texts), texts)\n"
		  "want(not any('Space-Saving' in t for t in texts), 'every pair has a row: no note')\n"
		  "want(by_class(root, 'linear', 'g')[0].get('data-max') == '25', 'steps of 5 to 25')\n",
		  PLOT_ATTACH_MAX_PAIRS + 5, PLOT_ATTACH_MAX_PAIRS, PLOT_ATTACH_MAX_PAIRS, PLOT_ATTACH_MAX_PAIRS + 5);
	attach_aggregate__free(g);
}

/*
 * More pairs than rows: 25 pairs counted 1 to 25 times, 200 that come once,
 * then one that comes 30 times and takes the row of a pair replaced
 */
Test(plot_attach, once_rows_changed_hands_the_notes_say_a_sketch_kept_the_busiest_and_how_far_off_a_count_can_be)
{
	struct attach_aggregate *g = more_pairs(25);
	struct attach_result r;
	char replaced[256], bound[256], evicted[256];
	const struct attach_pair *top;

	for (int i = 0; i < 200 + 30; i++) {
		memset(&r, 0, sizeof(r));
		r.sr.label = LABEL_COMPLETE;
		r.sr.sample.wakee_tid = i < 200 ? 10000 + (uint32_t)i : 99;
		r.waker.cls = WP_WAKER_TIMER;
		snprintf(r.mechanism, sizeof(r.mechanism), "timer (sleep ended)");
		r.wake_to_run_ns = 1000;
		r.notify_to_return_ns = -1;
		attach_aggregate__add(g, &r);
	}
	cr_assert_eq(attach_aggregate__pairs(g, ATTACH_ORDER_COUNT, &top, 1), 1);
	cr_assert_eq(top->wakee_tid, 99);
	cr_assert_gt(top->error, 0);
	run.report.agg = g;
	run.report.pairs = 1000;
	snprintf(replaced, sizeof(replaced), "more than %d pairs came: a Space-Saving sketch kept the busiest, a new pair "
		 "taking the row with the fewest (%llu times)", ATTACH_AGG_MAX_PAIRS, (unsigned long long)g->pairs_replaced);
	snprintf(bound, sizeof(bound), "a count may include up to %llu wakeups of the pairs its row had before (a bar's "
		 "tooltip says how many); its times are the pair's own", (unsigned long long)top->error);
	snprintf(evicted, sizeof(evicted), "%llu complete wakeups of the pairs replaced are in no bar; every pair with "
		 "more than %llu has a row", (unsigned long long)g->pairs_evicted,
		 (unsigned long long)(g->complete / ATTACH_AGG_MAX_PAIRS));
	cr_assert_eq(plot_attach__print(file, &run.report), 0);
	written();
	check_svg(path,
		  "pairs = by_class(root, 'pair', 'g')\n"
		  "want(pairs[0].get('data-wakee-tid') == '99' and pairs[0].get('data-error') == '%llu', pairs[0].attrib)\n"
		  "want(all(e.get('data-error') == '0' for e in pairs[1:]), 'the others held their rows from the start')\n"
		  "want(any(t == 'Waker -> wakee pairs, the %d with the most complete wakeups (of the busiest %d)'"
		  " for t in texts), texts)\n"
		  "want(any(t == \"%s\" for t in texts), texts)\n"
		  "want(any(t == \"%s\" for t in texts), texts)\n"
		  "want(any(t == \"%s\" for t in texts), texts)\n",
		  (unsigned long long)top->error, PLOT_ATTACH_MAX_PAIRS, ATTACH_AGG_MAX_PAIRS, replaced, bound, evicted);
	attach_aggregate__free(g);
}

Test(plot_attach, a_stream_that_fails_is_reported)
{
	FILE *full = fopen("/dev/full", "w");

	cr_assert_not_null(full);
	cr_assert_eq(plot_attach__print(full, &run.report), -EIO);
	fclose(full);
}
