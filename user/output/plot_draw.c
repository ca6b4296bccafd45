// SPDX-License-Identifier: GPL-2.0
/* plot_draw.c - the page, the latency axis and its distribution panels, the linear axis */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plot_draw.h"

/* Okabe and Ito's palette, which readers with any common colour blindness tell apart */
static const char *const phase_colors[NR_PHASES + 1] = {
	[PHASE_NOTIFY_USER] = "#E69F00",
	[PHASE_NOTIFY_KERNEL] = "#56B4E9",
	[PHASE_WAKE_ENQUEUE] = "#009E73",
	[PHASE_RUNQ_WAIT] = "#D55E00",
	[PHASE_RESUME_KERNEL] = "#0072B2",
	[PHASE_RESUME_USER] = "#CC79A7",
	[PLOT_TOTAL] = "#666666",
};

/* the percentiles a panel marks, as the text report's columns name them */
static const struct {
	const char *name;	/* as drawn */
	const char *key;	/* in class and data-* names */
	double pct;
} marks[] = {
	{ "p50", "p50", 50 },
	{ "p99", "p99", 99 },
	{ "p99.9", "p99_9", 99.9 },
	{ "max", "max", 100 },
};

#define NR_MARKS_DRAWN (sizeof(marks) / sizeof(marks[0]))

static const char style[] =
	"text { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; font-size: 11px; fill: #222; }\n"
	".title { font-size: 17px; font-weight: bold; }\n"
	".subtitle { font-size: 12px; fill: #444; }\n"
	".heading { font-size: 13px; font-weight: bold; }\n"
	".note, .tick, .stats, .count { font-size: 10px; fill: #555; }\n"
	".inside { font-size: 10px; fill: #fff; }\n"
	".grid { stroke: #ddd; stroke-width: 1; }\n"
	".baseline { stroke: #999; stroke-width: 1; }\n"
	".mark { stroke: #000; stroke-width: 1.2; }\n"
	".p50 { stroke-width: 2; }\n"
	".p99 { stroke-dasharray: 5 2; }\n"
	".p99_9 { stroke-dasharray: 1.5 2; }\n"
	".max { stroke: #b00000; }\n";

const char *plot_draw__phase_color(int phase)
{
	return phase >= 0 && phase <= PLOT_TOTAL ? phase_colors[phase] : phase_colors[PLOT_TOTAL];
}

void plot_draw__ns(double ns, char *buf, size_t len)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };
	size_t u = 0;

	while (ns >= 999.5 && u + 1 < sizeof(units) / sizeof(units[0])) {
		ns /= 1000;
		u++;
	}
	if (!u || ns >= 99.95)
		snprintf(buf, len, "%.0f %s", ns, units[u]);
	else if (ns >= 9.995)
		snprintf(buf, len, "%.1f %s", ns, units[u]);
	else
		snprintf(buf, len, "%.2f %s", ns, units[u]);
}

void plot_draw__text(struct svg *s, double x, double y, const char *cls, const char *anchor, const char *str)
{
	svg__open(s, "text");
	svg__attr_num(s, "x", x);
	svg__attr_num(s, "y", y);
	if (cls)
		svg__attr(s, "class", cls);
	if (anchor && strcmp(anchor, "start"))
		svg__attr(s, "text-anchor", anchor);
	svg__text(s, str);
	svg__close(s);
}

void plot_draw__rect(struct svg *s, double x, double y, double width, double height, const char *cls,
		     const char *fill)
{
	svg__open(s, "rect");
	if (cls)
		svg__attr(s, "class", cls);
	svg__attr_num(s, "x", x);
	svg__attr_num(s, "y", y);
	svg__attr_num(s, "width", width);
	svg__attr_num(s, "height", height);
	if (fill)
		svg__attr(s, "fill", fill);
}

/* line - a <line> of @cls, left open for attributes */
static void line(struct svg *s, double x1, double y1, double x2, double y2, const char *cls)
{
	svg__open(s, "line");
	svg__attr(s, "class", cls);
	svg__attr_num(s, "x1", x1);
	svg__attr_num(s, "y1", y1);
	svg__attr_num(s, "x2", x2);
	svg__attr_num(s, "y2", y2);
}

void plot_draw__begin(struct svg *s, FILE *out, double height, const char *title, const char *subtitle)
{
	svg__begin(s, out, PLOT_WIDTH, height);
	svg__attr(s, "font-family", "sans-serif");
	svg__title(s, "%s", title);
	svg__open(s, "style");
	svg__text(s, style);
	svg__close(s);
	svg__open(s, "rect");
	svg__attr(s, "width", "100%");
	svg__attr(s, "height", "100%");
	svg__attr(s, "fill", "#fff");
	svg__close(s);
	plot_draw__text(s, PLOT_MARGIN, 28, "title", NULL, title);
	plot_draw__text(s, PLOT_MARGIN, 48, "subtitle", NULL, subtitle);
}

double plot_draw__heading(struct svg *s, double y, const char *str)
{
	plot_draw__text(s, PLOT_MARGIN, y + PLOT_HEADING_H - 12, "heading", NULL, str);
	return y + PLOT_HEADING_H;
}

double plot_draw__note(struct svg *s, double y, const char *str)
{
	plot_draw__text(s, PLOT_MARGIN, y + 11, "note", NULL, str);
	return y + PLOT_NOTE_H;
}

double plot_draw__labels_note(struct svg *s, const char *what, const uint64_t *by_label, double y)
{
	char buf[512];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", what);

	for (int l = 0; l < NR_LABELS && n < sizeof(buf); l++)
		if (l != LABEL_COMPLETE && by_label[l])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s %" PRIu64 ",", wakeup__label_name(l),
					      by_label[l]);
	if (n >= sizeof(buf) || buf[n - 1] != ',')
		return y;
	buf[n - 1] = '\0';
	return plot_draw__note(s, y, buf);
}

/* ---------------------------------------------------------------- latency, log scale */

void plot_draw__log_fit(struct plot_log_axis *ax, const struct histogram *const *h, size_t n)
{
	uint64_t rows[HIST_LOG2_ROWS];
	double low = INFINITY, high = 0;
	int first, last;

	for (size_t i = 0; i < n; i++) {
		first = histogram__log2_rows(h[i], rows, &last);
		if (first < 0)
			continue;
		low = fmin(low, (double)histogram__log2_row_low((unsigned int)first));
		high = fmax(high, (double)histogram__log2_row_high((unsigned int)last) + 1);
	}
	if (!isfinite(low) || low < 1)
		low = 1;
	if (high <= low)
		high = low * 10;
	ax->lo_exp = (int)floor(log10(low));
	ax->hi_exp = (int)ceil(log10(high));
	if (ax->hi_exp <= ax->lo_exp)
		ax->hi_exp = ax->lo_exp + 1;
}

double plot_draw__log_x(const struct plot_log_axis *ax, double ns)
{
	double e = log10(ns < 1 ? 1 : ns);

	return PLOT_AREA_X0 + (e - ax->lo_exp) / (ax->hi_exp - ax->lo_exp) * (PLOT_AREA_X1 - PLOT_AREA_X0);
}

double plot_draw__log_grid(struct svg *s, const struct plot_log_axis *ax, double top, double bottom,
			   const char *label)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };

	svg__open(s, "g");
	svg__attr(s, "class", "axis log");
	svg__attr_num(s, "data-lo-ns", pow(10, ax->lo_exp));
	svg__attr_num(s, "data-hi-ns", pow(10, ax->hi_exp));
	for (int e = ax->lo_exp; e <= ax->hi_exp; e++) {
		double x = plot_draw__log_x(ax, pow(10, e));
		int u = e / 3 < 3 ? e / 3 : 3;
		char buf[32];

		line(s, x, top, x, bottom, "grid");
		svg__close(s);
		snprintf(buf, sizeof(buf), "%.0f %s", pow(10, e - 3 * u), units[u]);
		plot_draw__text(s, x, bottom + 13, "tick", "middle", buf);
	}
	plot_draw__text(s, (PLOT_AREA_X0 + PLOT_AREA_X1) / 2, bottom + 30, NULL, "middle", label);
	svg__close(s);
	return bottom + PLOT_AXIS_H;
}

double plot_draw__dist_height(size_t n)
{
	return n ? n * PLOT_PANEL_H + (n - 1) * PLOT_PANEL_GAP : 0;
}

/* count_y - where a bar of @count wakeups ends, in a panel whose tallest holds @max: log scale, 1 still shows */
static double count_y(double bottom, double height, uint64_t count, uint64_t max)
{
	return bottom - height * (1 + log10((double)count)) / (1 + log10((double)max));
}

/* dist_bins - a bar per power-of-two row of @h, with the counts it is scaled by at the left */
static void dist_bins(struct svg *s, const struct plot_log_axis *ax, const char *color, const struct histogram *h,
		      double top)
{
	double bottom = top + PLOT_PANEL_H, height = PLOT_PANEL_H - 4;
	uint64_t rows[HIST_LOG2_ROWS], max = 0;
	int first, last;
	char buf[32];

	first = histogram__log2_rows(h, rows, &last);
	for (int r = first; r >= 0 && r <= last; r++)
		if (rows[r] > max)
			max = rows[r];
	for (int r = first; r >= 0 && r <= last; r++) {
		uint64_t low = histogram__log2_row_low((unsigned int)r), high = histogram__log2_row_high((unsigned int)r);
		double x0 = plot_draw__log_x(ax, (double)low), x1 = plot_draw__log_x(ax, (double)high + 1);
		double y = count_y(bottom, height, rows[r], max);

		if (!rows[r])
			continue;
		plot_draw__rect(s, x0 + 0.5, y, x1 - x0 - 1 > 1 ? x1 - x0 - 1 : 1, bottom - y, "bin", color);
		svg__attr_u64(s, "data-low-ns", low);
		svg__attr_u64(s, "data-high-ns", high);
		svg__attr_u64(s, "data-count", rows[r]);
		svg__title(s, "%" PRIu64 " to %" PRIu64 " ns: %" PRIu64 " wakeup%s", low, high, rows[r],
			   rows[r] == 1 ? "" : "s");
		svg__close(s);
	}
	/* the scale of the bars: one wakeup, and the tallest */
	snprintf(buf, sizeof(buf), "%" PRIu64, max);
	plot_draw__text(s, PLOT_AREA_X0 - 4, count_y(bottom, height, max, max) + 8, "count", "end", buf);
	if (max > 1)
		plot_draw__text(s, PLOT_AREA_X0 - 4, count_y(bottom, height, 1, max) + 3, "count", "end", "1");
}

void plot_draw__dist(struct svg *s, const struct plot_log_axis *ax, const char *run, const char *name,
		     const char *color, const struct histogram *h, double top)
{
	double bottom = top + PLOT_PANEL_H;
	uint64_t at[NR_MARKS_DRAWN];
	char buf[64], num[32];
	size_t m;

	svg__open(s, "g");
	svg__attr(s, "class", "panel");
	svg__attr(s, "data-run", run);
	svg__attr(s, "data-name", name);
	svg__attr_u64(s, "data-count", h->count);
	for (m = 0; m < NR_MARKS_DRAWN && h->count; m++) {
		at[m] = histogram__percentile(h, marks[m].pct);
		snprintf(buf, sizeof(buf), "data-%s-ns", marks[m].key);
		svg__attr_u64(s, buf, at[m]);
	}
	plot_draw__text(s, PLOT_AREA_X0 - 30, top + PLOT_PANEL_H / 2, NULL, "end", name);
	snprintf(buf, sizeof(buf), "%" PRIu64 " wakeup%s", h->count, h->count == 1 ? "" : "s");
	plot_draw__text(s, PLOT_AREA_X0 - 30, top + PLOT_PANEL_H / 2 + 13, "note", "end", buf);
	line(s, PLOT_AREA_X0, bottom, PLOT_AREA_X1, bottom, "baseline");
	svg__close(s);
	if (!h->count) {
		plot_draw__text(s, (PLOT_AREA_X0 + PLOT_AREA_X1) / 2, top + PLOT_PANEL_H / 2 + 4, "note", "middle",
		     "(no samples)");
		svg__close(s);
		return;
	}
	dist_bins(s, ax, color, h, top);
	for (m = 0; m < NR_MARKS_DRAWN; m++) {
		double x = plot_draw__log_x(ax, (double)at[m]);

		snprintf(buf, sizeof(buf), "mark %s", marks[m].key);
		line(s, x, top, x, bottom, buf);
		svg__attr_u64(s, "data-ns", at[m]);
		svg__title(s, "%s: %" PRIu64 " ns", marks[m].name, at[m]);
		svg__close(s);
	}
	/* the same numbers, to read rather than to see: two to a line */
	for (m = 0; m < NR_MARKS_DRAWN; m++) {
		double y = top + 14 + (double)(m / 2) * 14, x = PLOT_AREA_X1 + 14 + (double)(m % 2) * 105;

		plot_draw__ns((double)at[m], num, sizeof(num));
		snprintf(buf, sizeof(buf), "%s %s", marks[m].name, num);
		plot_draw__text(s, x, y, "stats", NULL, buf);
	}
	svg__close(s);
}

double plot_draw__panels(struct svg *s, const char *const *runs, const char *const *names, const int *colors,
			 const struct histogram *const *h, size_t n, double y)
{
	struct plot_log_axis ax;
	double bottom, next;

	y = plot_draw__marks_legend(s, y);
	bottom = y + plot_draw__dist_height(n);
	plot_draw__log_fit(&ax, h, n);
	next = plot_draw__log_grid(s, &ax, y, bottom, "latency of one wakeup (log scale)");
	for (size_t i = 0; i < n; i++)
		plot_draw__dist(s, &ax, runs[i], names[i], plot_draw__phase_color(colors[i]), h[i],
				y + i * (PLOT_PANEL_H + PLOT_PANEL_GAP));
	return next;
}

double plot_draw__marks_legend(struct svg *s, double y)
{
	double x = PLOT_AREA_X0;

	for (size_t m = 0; m < NR_MARKS_DRAWN; m++) {
		char cls[32];

		snprintf(cls, sizeof(cls), "mark %s", marks[m].key);
		line(s, x, y + 2, x, y + 12, cls);
		svg__close(s);
		plot_draw__text(s, x + 4, y + 11, "note", NULL, marks[m].name);
		x += 52;
	}
	plot_draw__text(s, x + 10, y + 11, "note", NULL,
	     "bars: wakeups in each power-of-two bin of latency, their heights in log scale");
	return y + PLOT_NOTE_H + 4;
}

/* ---------------------------------------------------------------- bars, linear scale */

void plot_draw__lin_fit(struct plot_lin_axis *ax, double max)
{
	double raw, mag, r;

	if (!(max > 0))
		max = 1;
	raw = max / 5;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	ax->step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
	ax->max = ceil(max / ax->step - 1e-9) * ax->step;
}

double plot_draw__lin_x(const struct plot_lin_axis *ax, double v)
{
	return PLOT_AREA_X0 + v / ax->max * (PLOT_AREA_X1 - PLOT_AREA_X0);
}

double plot_draw__lin_grid(struct svg *s, const struct plot_lin_axis *ax, double top, double bottom,
			   const char *label)
{
	int ticks = (int)lround(ax->max / ax->step);

	svg__open(s, "g");
	svg__attr(s, "class", "axis linear");
	svg__attr_num(s, "data-max", ax->max);
	for (int i = 0; i <= ticks; i++) {
		double v = i * ax->step, x = plot_draw__lin_x(ax, v);
		char buf[32];

		line(s, x, top, x, bottom, "grid");
		svg__close(s);
		snprintf(buf, sizeof(buf), "%g", v);
		plot_draw__text(s, x, bottom + 13, "tick", "middle", buf);
	}
	plot_draw__text(s, (PLOT_AREA_X0 + PLOT_AREA_X1) / 2, bottom + 30, NULL, "middle", label);
	svg__close(s);
	return bottom + PLOT_AXIS_H;
}
