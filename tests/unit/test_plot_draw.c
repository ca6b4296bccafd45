// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot_draw.c - what the plots are drawn with: times worded for a
 * person, the phases' colours, the decades a latency axis spans and where
 * a time falls on it, the steps of a linear axis, the heights the layout
 * adds up; and a page drawn with them, read back through
 * tests/check_svg.py, each number drawn traced to the histogram or the
 * figure it came from.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plot_draw.h"
#include "readback.h"

static char path[64];
static FILE *file;

static void setup(void)
{
	file = temp_output("plot-draw", path);
}

static void teardown(void)
{
	if (file)
		fclose(file);
	unlink(path);
}

TestSuite(plot_draw, .init = setup, .fini = teardown);

/* written - the file is complete: close it for python to read */
static void written(void)
{
	cr_assert_eq(fclose(file), 0);
	file = NULL;
}

/* ---------------------------------------------------------------- numbers */

struct ns_case {
	double ns;
	char want[16];
};

ParameterizedTestParameters(plot_draw, a_time_is_worded_in_the_unit_that_keeps_it_short)
{
	static struct ns_case cases[] = {
		{ 0, "0 ns" },
		{ 850, "850 ns" },
		{ 999.4, "999 ns" },
		{ 999.5, "1.00 µs" },	/* would round to 1000 ns: a microsecond */
		{ 1234, "1.23 µs" },
		{ 9994, "9.99 µs" },
		{ 9996, "10.0 µs" },
		{ 45600, "45.6 µs" },
		{ 123456, "123 µs" },
		{ 1230000, "1.23 ms" },
		{ 2.5e9, "2.50 s" },
		{ 2.5e12, "2500 s" },	/* seconds are the largest unit */
	};

	return cr_make_param_array(struct ns_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct ns_case *c, plot_draw, a_time_is_worded_in_the_unit_that_keeps_it_short)
{
	char buf[32];

	plot_draw__ns(c->ns, buf, sizeof(buf));
	cr_assert_str_eq(buf, c->want, "%g ns", c->ns);
}

Test(plot_draw, each_phase_has_its_own_colour_and_anything_else_the_totals)
{
	const char *seen[NR_PHASES + 1];

	for (int k = 0; k <= PLOT_TOTAL; k++) {
		seen[k] = plot_draw__phase_color(k);
		cr_assert_not_null(seen[k]);
		cr_assert_eq(strlen(seen[k]), 7, "%s", seen[k]);
		cr_assert_eq(seen[k][0], '#');
		for (int j = 0; j < k; j++)
			cr_assert_str_neq(seen[j], seen[k], "phases %d and %d", j, k);
	}
	cr_assert_str_eq(plot_draw__phase_color(PHASE_RUNQ_WAIT), "#D55E00");
	cr_assert_str_eq(plot_draw__phase_color(PLOT_TOTAL), "#666666");
	cr_assert_str_eq(plot_draw__phase_color(-1), "#666666");
	cr_assert_str_eq(plot_draw__phase_color(PLOT_TOTAL + 1), "#666666");
}

/* ---------------------------------------------------------------- the latency axis */

struct fit_case {
	uint64_t a[3];		/* the first histogram's values, 0 ends them (and a[0] 0 with na 1: one sample of 0) */
	size_t na;
	uint64_t b[3];		/* the second's */
	size_t nb;
	int lo_exp;
	int hi_exp;
};

ParameterizedTestParameters(plot_draw, the_latency_axis_spans_the_decades_of_every_row_drawn)
{
	static struct fit_case cases[] = {
		/* rows [512, 1023] to [4096, 8191]: from 100 ns to 10 us */
		{ { 1000, 5000 }, 2, { 0 }, 0, 2, 4 },
		/* the second histogram widens it; an empty one counts for nothing */
		{ { 1000 }, 1, { 200000 }, 1, 2, 6 },
		/* a row ending at 1023 ns reaches past 1 us */
		{ { 600 }, 1, { 0 }, 0, 2, 4 },
		/* 0 and 1 ns are drawn from 1 ns */
		{ { 0, 10 }, 2, { 0 }, 0, 0, 2 },
		{ { 1 }, 1, { 0 }, 0, 0, 1 },
		/* nothing at all: one decade from 1 ns */
		{ { 0 }, 0, { 0 }, 0, 0, 1 },
		/* a second's latency */
		{ { 1500000000 }, 1, { 0 }, 0, 9, 10 },
	};

	return cr_make_param_array(struct fit_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct fit_case *c, plot_draw, the_latency_axis_spans_the_decades_of_every_row_drawn)
{
	struct histogram *h = calloc(2, sizeof(*h));
	const struct histogram *hs[2] = { &h[0], &h[1] };
	struct plot_log_axis ax;

	cr_assert_not_null(h);
	histogram__init(&h[0]);
	histogram__init(&h[1]);
	for (size_t i = 0; i < c->na; i++)
		histogram__add(&h[0], c->a[i]);
	for (size_t i = 0; i < c->nb; i++)
		histogram__add(&h[1], c->b[i]);
	plot_draw__log_fit(&ax, hs, 2);
	cr_assert_eq(ax.lo_exp, c->lo_exp, "%" PRIu64 ": from 10^%d", c->a[0], ax.lo_exp);
	cr_assert_eq(ax.hi_exp, c->hi_exp, "%" PRIu64 ": to 10^%d", c->a[0], ax.hi_exp);
	free(h);
}

Test(plot_draw, a_time_falls_on_the_latency_axis_by_its_logarithm)
{
	struct plot_log_axis ax = { .lo_exp = 2, .hi_exp = 4 };
	struct plot_log_axis from_1ns = { .lo_exp = 0, .hi_exp = 3 };

	cr_assert_float_eq(plot_draw__log_x(&ax, 100), PLOT_AREA_X0, 1e-9);
	cr_assert_float_eq(plot_draw__log_x(&ax, 1000), (PLOT_AREA_X0 + PLOT_AREA_X1) / 2, 1e-9);
	cr_assert_float_eq(plot_draw__log_x(&ax, 10000), PLOT_AREA_X1, 1e-9);
	cr_assert_float_eq(plot_draw__log_x(&from_1ns, 10), PLOT_AREA_X0 + (PLOT_AREA_X1 - PLOT_AREA_X0) / 3, 1e-9);
	/* below 1 ns is drawn at 1 ns */
	cr_assert_float_eq(plot_draw__log_x(&from_1ns, 0), PLOT_AREA_X0, 1e-9);
	cr_assert_float_eq(plot_draw__log_x(&from_1ns, 0.5), PLOT_AREA_X0, 1e-9);
}

/* ---------------------------------------------------------------- the linear axis */

struct lin_case {
	double max;
	double step;
	double axis_max;
};

ParameterizedTestParameters(plot_draw, a_linear_axis_steps_by_one_two_or_five_and_holds_its_largest_value)
{
	static struct lin_case cases[] = {
		{ 10, 2, 10 },
		{ 7, 2, 8 },
		{ 3, 1, 3 },
		{ 123, 50, 150 },
		{ 1000000, 200000, 1000000 },
		{ 0.3, 0.1, 0.3 },
		{ 26, 10, 30 },
		/* nothing to hold, or no number: an axis to 1 */
		{ 0, 0.2, 1 },
		{ -5, 0.2, 1 },
		{ NAN, 0.2, 1 },
	};

	return cr_make_param_array(struct lin_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct lin_case *c, plot_draw, a_linear_axis_steps_by_one_two_or_five_and_holds_its_largest_value)
{
	struct plot_lin_axis ax;

	plot_draw__lin_fit(&ax, c->max);
	cr_assert_float_eq(ax.step, c->step, 1e-9 * c->step, "max %g: step %g", c->max, ax.step);
	cr_assert_float_eq(ax.max, c->axis_max, 1e-9 * c->axis_max, "max %g: axis to %g", c->max, ax.max);
	cr_assert(isfinite(c->max) && c->max > 0 ? ax.max >= c->max : true, "%g does not fit %g", c->max, ax.max);
}

Test(plot_draw, a_value_falls_on_the_linear_axis_in_proportion)
{
	struct plot_lin_axis ax = { .max = 10, .step = 2 };

	cr_assert_float_eq(plot_draw__lin_x(&ax, 0), PLOT_AREA_X0, 1e-9);
	cr_assert_float_eq(plot_draw__lin_x(&ax, 10), PLOT_AREA_X1, 1e-9);
	cr_assert_float_eq(plot_draw__lin_x(&ax, 2.5), PLOT_AREA_X0 + (PLOT_AREA_X1 - PLOT_AREA_X0) / 4, 1e-9);
}

/* ---------------------------------------------------------------- the layout */

Test(plot_draw, the_layout_adds_up_the_heights_of_what_it_draws)
{
	static const uint64_t no_labels[NR_LABELS] = { [LABEL_COMPLETE] = 40 };
	struct svg s;

	cr_assert_float_eq(plot_draw__dist_height(0), 0, 1e-9);
	cr_assert_float_eq(plot_draw__dist_height(1), PLOT_PANEL_H, 1e-9);
	cr_assert_float_eq(plot_draw__dist_height(3), 3 * PLOT_PANEL_H + 2 * PLOT_PANEL_GAP, 1e-9);
	/* laid out only: nothing is written, the heights are the same */
	svg__begin(&s, NULL, PLOT_WIDTH, 100);
	cr_assert_float_eq(plot_draw__heading(&s, 100, "h"), 100 + PLOT_HEADING_H, 1e-9);
	cr_assert_float_eq(plot_draw__note(&s, 100, "n"), 100 + PLOT_NOTE_H, 1e-9);
	cr_assert_float_eq(plot_draw__marks_legend(&s, 100), 100 + PLOT_NOTE_H + 4, 1e-9);
	/* complete wakeups are not a label to note: no line */
	cr_assert_float_eq(plot_draw__labels_note(&s, "not complete:", no_labels, 100), 100, 1e-9);
	cr_assert_eq(svg__finish(&s), 0);
}

/* a histogram of @n values */
static struct histogram *hist_of(const uint64_t *v, size_t n)
{
	struct histogram *h = calloc(1, sizeof(*h));

	cr_assert_not_null(h);
	histogram__init(h);
	for (size_t i = 0; i < n; i++)
		histogram__add(h, v[i]);
	return h;
}

/*
 * A page: its title, a heading, two distributions on one latency axis (one
 * of them empty), a note of labels, and bars on a linear axis. Every number
 * drawn is held to the histogram it came from.
 */
Test(plot_draw, a_page_of_panels_draws_each_distributions_rows_and_percentiles_on_one_axis)
{
	static const uint64_t runq[] = { 3000, 3100, 3300, 5000, 40000 };
	static const uint64_t labels[NR_LABELS] = { [LABEL_COMPLETE] = 5, [LABEL_NO_SLEEP] = 3, [LABEL_LOST_EVENTS] = 2 };
	struct histogram *h = hist_of(runq, 5), *none = hist_of(NULL, 0);
	const struct histogram *hs[] = { h, none };
	const char *runs[] = { "eventfd", "eventfd" }, *names[] = { "runq_wait", "idle_exit" };
	const int colors[] = { PHASE_RUNQ_WAIT, PLOT_TOTAL };
	struct svg s;
	double y, after_panels, after_note;

	/* the third of five, 3300 ns: the midpoint of its bucket, [3296, 3311] */
	cr_assert_eq(histogram__percentile(h, 50), 3303);
	plot_draw__begin(&s, file, 400, "wakeprobe: a <test> & more", "5 wakeups");
	y = plot_draw__heading(&s, PLOT_HEAD_H, "Phases");
	cr_assert_float_eq(y, PLOT_HEAD_H + PLOT_HEADING_H, 1e-9);
	after_panels = plot_draw__panels(&s, runs, names, colors, hs, 2, y);
	/* the legend of the lines, two panels, the axis under them */
	cr_assert_float_eq(after_panels, y + PLOT_NOTE_H + 4 + plot_draw__dist_height(2) + PLOT_AXIS_H, 1e-9);
	after_note = plot_draw__labels_note(&s, "not complete:", labels, after_panels);
	cr_assert_float_eq(after_note, after_panels + PLOT_NOTE_H, 1e-9);
	cr_assert_eq(svg__finish(&s), 0);
	written();
	check_svg(path,
		  "want(text_of(root.find(cs.SVG + 'title')) == 'wakeprobe: a <test> & more', 'the page title')\n"
		  "[t] = by_class(root, 'title', 'text')\n"
		  "want(text_of(t) == 'wakeprobe: a <test> & more', 'the title drawn')\n"
		  "want(text_of(by_class(root, 'subtitle', 'text')[0]) == '5 wakeups', 'the subtitle')\n"
		  "want(root.get('height') == '400' and root.get('width') == '980', root.attrib)\n"
		  "want(any(t == 'Phases' for t in texts), 'the heading')\n"
		  "[ax] = by_class(root, 'axis', 'g')\n"
		  "want('log' in cs.classes(ax), ax.attrib)\n"
		  "want((ax.get('data-lo-ns'), ax.get('data-hi-ns')) == ('1000', '100000'), ax.attrib)\n"
		  "ticks = [text_of(e) for e in by_class(ax, 'tick', 'text')]\n"
		  "want(ticks == ['1 µs', '10 µs', '100 µs'], ticks)\n"
		  "want(len(by_class(ax, 'grid', 'line')) == 3, 'a line per decade')\n"
		  "want(any(t == 'latency of one wakeup (log scale)' for t in texts), 'the axis label')\n"
		  "p = panel('runq_wait', 'eventfd')\n"
		  "want((p.get('data-count'), p.get('data-p50-ns'), p.get('data-p99-ns'), p.get('data-p99_9-ns'),\n"
		  "      p.get('data-max-ns')) == ('5', '3303', '40000', '40000', '40000'), p.attrib)\n"
		  "bins = [(b.get('data-low-ns'), b.get('data-high-ns'), b.get('data-count'), b.get('fill'))\n"
		  "        for b in by_class(p, 'bin', 'rect')]\n"
		  "want(bins == [('2048', '4095', '3', '#D55E00'), ('4096', '8191', '1', '#D55E00'),\n"
		  "              ('32768', '65535', '1', '#D55E00')], bins)\n"
		  "titles = [text_of(b.find(cs.SVG + 'title')) for b in by_class(p, 'bin', 'rect')]\n"
		  "want(titles == ['2048 to 4095 ns: 3 wakeups', '4096 to 8191 ns: 1 wakeup', "
		  "'32768 to 65535 ns: 1 wakeup'], titles)\n"
		  "heights = [num(b, 'height') for b in by_class(p, 'bin', 'rect')]\n"
		  "want(heights[0] > heights[1] == heights[2] > 0, ('log-scaled, one still shows', heights))\n"
		  "stats = [text_of(e) for e in by_class(p, 'stats', 'text')]\n"
		  "want(stats == ['p50 3.30 µs', 'p99 40.0 µs', 'p99.9 40.0 µs', 'max 40.0 µs'], stats)\n"
		  "counts = [text_of(e) for e in by_class(p, 'count', 'text')]\n"
		  "want(counts == ['3', '1'], ('the tallest and one', counts))\n"
		  "want(text_of(p.find(cs.SVG + 'text')) == 'runq_wait', 'the name to the left')\n"
		  "want(any(text_of(e) == '5 wakeups' for e in by_class(p, 'note', 'text')), 'its count')\n"
		  "e = panel('idle_exit')\n"
		  "want(e.get('data-count') == '0' and e.get('data-p50-ns') is None, e.attrib)\n"
		  "want(by_class(e, 'bin') == [] and by_class(e, 'mark') == [], 'an empty panel has no bars')\n"
		  "want([text_of(x) for x in by_class(e, 'note', 'text')] == ['0 wakeups', '(no samples)'], 'said empty')\n"
		  "legend = [text_of(x) for x in by_class(root, 'note', 'text')]\n"
		  "want(legend[:4] == ['p50', 'p99', 'p99.9', 'max'], legend)\n"
		  "want(legend[4].startswith('bars: wakeups in each power-of-two bin'), legend)\n"
		  "want(legend[-1] == 'not complete: no_sleep 3, lost_events 2', legend)\n"
		  "xs = [num(l, 'x1') for l in by_class(p, 'mark', 'line')]\n"
		  "want(xs == sorted(xs) and 190 < xs[0] and xs[-1] <= 740, xs)\n");
	free(h);
	free(none);
}

Test(plot_draw, a_linear_axis_has_a_line_and_a_label_at_every_step)
{
	struct plot_lin_axis ax;
	struct svg s;
	double next;

	plot_draw__lin_fit(&ax, 7);
	plot_draw__begin(&s, file, 200, "bars", "a linear axis");
	next = plot_draw__lin_grid(&s, &ax, 70, 120, "wakeups");
	cr_assert_float_eq(next, 120 + PLOT_AXIS_H, 1e-9);
	plot_draw__rect(&s, PLOT_AREA_X0, 80, plot_draw__lin_x(&ax, 7) - PLOT_AREA_X0, 10, "bar", "#666666");
	svg__close(&s);
	plot_draw__text(&s, PLOT_AREA_X1, 100, NULL, "end", "seven");
	plot_draw__text(&s, PLOT_AREA_X0, 100, "stats", "start", "left");
	cr_assert_eq(svg__finish(&s), 0);
	written();
	check_svg(path,
		  "[ax] = by_class(root, 'axis', 'g')\n"
		  "want('linear' in cs.classes(ax) and ax.get('data-max') == '8', ax.attrib)\n"
		  "ticks = [text_of(e) for e in by_class(ax, 'tick', 'text')]\n"
		  "want(ticks == ['0', '2', '4', '6', '8'], ticks)\n"
		  "lines = [(num(l, 'x1'), num(l, 'y1'), num(l, 'y2')) for l in by_class(ax, 'grid', 'line')]\n"
		  "want(lines == [(190 + i * 137.5, 70, 120) for i in range(5)], lines)\n"
		  "want(any(t == 'wakeups' for t in texts), 'the axis label')\n"
		  "[bar] = by_class(root, 'bar', 'rect')\n"
		  "want((num(bar, 'x'), num(bar, 'width'), bar.get('fill')) == (190, 481.25, '#666666'), bar.attrib)\n"
		  "[seven] = [e for e in root.iter(cs.SVG + 'text') if text_of(e) == 'seven']\n"
		  "want(seven.get('text-anchor') == 'end' and seven.get('class') is None, seven.attrib)\n"
		  "[left] = [e for e in root.iter(cs.SVG + 'text') if text_of(e) == 'left']\n"
		  "want(left.get('text-anchor') is None and left.get('class') == 'stats', 'start is the default')\n");
}

Test(plot_draw, decades_past_a_second_are_labelled_in_seconds)
{
	static const uint64_t v[] = { 500, 20000000000ull };
	struct histogram *h = hist_of(v, 2);
	const struct histogram *hs[] = { h };
	struct plot_log_axis ax;
	struct svg s;

	plot_draw__log_fit(&ax, hs, 1);
	cr_assert_eq(ax.lo_exp, 2);
	cr_assert_eq(ax.hi_exp, 11);
	plot_draw__begin(&s, file, 200, "long", "a log axis");
	plot_draw__log_grid(&s, &ax, 70, 120, "latency");
	cr_assert_eq(svg__finish(&s), 0);
	written();
	check_svg(path,
		  "ticks = [text_of(e) for e in by_class(root, 'tick', 'text')]\n"
		  "want(ticks == ['100 ns', '1 µs', '10 µs', '100 µs', '1 ms', '10 ms', '100 ms', '1 s', '10 s',\n"
		  "               '100 s'], ticks)\n");
	free(h);
}
