/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_draw.h - what the plots of a workload run (plot_workload.c) and of an attach
 * run (plot_attach.c) are drawn with: the page and its headings, a latency
 * axis in log scale with one panel per distribution on it, and a linear axis
 * for bars. Every number drawn is one of the run's own: a histogram's rows
 * and percentiles as the text report computes them, or what the caller
 * passes; each drawn element carries its numbers in data-* attributes and a
 * <title> (what a browser shows on hovering it), so a reader and a test can
 * trace them. docs/outputs.md describes the plots.
 */
#ifndef WAKEPROBE_PLOT_DRAW_H
#define WAKEPROBE_PLOT_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include "histogram.h"
#include "svg.h"
#include "wakeup.h"

#define PLOT_WIDTH	980.0
#define PLOT_MARGIN	20.0
#define PLOT_AREA_X0	190.0		/* the drawing area: names to its left */
#define PLOT_AREA_X1	740.0		/* ... numbers to its right */
#define PLOT_HEAD_H	62.0		/* the title and the line under it */
#define PLOT_HEADING_H	34.0		/* a section's heading, with the space above it */
#define PLOT_PANEL_H	46.0		/* one distribution */
#define PLOT_PANEL_GAP	8.0
#define PLOT_AXIS_H	40.0		/* an axis' ticks and its label */
#define PLOT_NOTE_H	16.0		/* a line of text */

/* plot_draw__phase_color - the fill of @phase (a colour-blind-safe palette), or the total's */
const char *plot_draw__phase_color(int phase);
#define PLOT_TOTAL	NR_PHASES	/* plot_draw__phase_color(): the total's colour */

/* plot_draw__ns - @ns for a person: "850 ns", "1.23 µs", "45.6 µs", "1.23 ms", "2.5 s" */
void plot_draw__ns(double ns, char *buf, size_t len);

/*
 * plot_draw__begin - the page, @height px tall: its styles, its <title>
 * @title (what the tab shows), the title drawn, and @subtitle under it
 */
void plot_draw__begin(struct svg *s, FILE *out, double height, const char *title, const char *subtitle);
/* plot_draw__heading - a section's heading whose space begins at @y; where the section's drawing begins */
double plot_draw__heading(struct svg *s, double y, const char *text);
/* plot_draw__note - a line of small text at @y; where the next begins */
double plot_draw__note(struct svg *s, double y, const char *text);

/*
 * plot_draw__labels_note - @what, then each label but complete with its
 * count in @by_label[NR_LABELS] ("no_sleep 3, lost_events 2"); nothing
 * when there is none. Where the next begins.
 */
double plot_draw__labels_note(struct svg *s, const char *what, const uint64_t *by_label, double y);
/* plot_draw__text - a <text> at (@x, @y) of class @cls (NULL: none), anchored at @anchor ("start", "middle", "end") */
void plot_draw__text(struct svg *s, double x, double y, const char *cls, const char *anchor, const char *str);
/* plot_draw__rect - a <rect> of class @cls filled with @fill (either NULL: none), left open for more */
void plot_draw__rect(struct svg *s, double x, double y, double width, double height, const char *cls,
		     const char *fill);

/* ---------------------------------------------------------------- latency, log scale */

/* a latency axis: whole decades of nanoseconds, 10^lo_exp to 10^hi_exp, across the drawing area */
struct plot_log_axis {
	int lo_exp;
	int hi_exp;
};

/*
 * plot_draw__log_fit - the decades that hold every power-of-two row of the
 * @n histograms @h (the empty ones count for nothing): rows of 0 and 1 ns
 * are drawn from 1 ns, so the axis starts at 1 ns at the lowest
 */
void plot_draw__log_fit(struct plot_log_axis *ax, const struct histogram *const *h, size_t n);
/* plot_draw__log_x - where @ns is drawn on @ax (1 ns for anything below) */
double plot_draw__log_x(const struct plot_log_axis *ax, double ns);
/*
 * plot_draw__log_grid - a line at each decade from @top to @bottom, their
 * labels under @bottom ("1 µs", "10 µs"), then @label; where the next begins
 */
double plot_draw__log_grid(struct svg *s, const struct plot_log_axis *ax, double top, double bottom,
			   const char *label);
/*
 * plot_draw__dist - one distribution in a panel at @top, PLOT_PANEL_H tall:
 * @name to the left, a bar per power-of-two row of @h (their heights in log
 * scale: a single wakeup in the tail still shows), its p50, p99, p99.9 and
 * max as lines, and those numbers to the right. @run names the run the
 * panel belongs to, for its data-run attribute ("" when there is one run).
 */
void plot_draw__dist(struct svg *s, const struct plot_log_axis *ax, const char *run, const char *name,
		     const char *color, const struct histogram *h, double top);
/* plot_draw__dist_height - the height of @n panels, with the gaps between them */
double plot_draw__dist_height(size_t n);
/*
 * plot_draw__panels - from @y, what the lines mean, then the @n
 * distributions @h in panels on one axis: run @runs[i], named @names[i],
 * coloured as plot_draw__phase_color(@colors[i]). Where the next begins.
 */
double plot_draw__panels(struct svg *s, const char *const *runs, const char *const *names, const int *colors,
			 const struct histogram *const *h, size_t n, double y);
/* plot_draw__marks_legend - what the lines of plot_draw__dist() mean, in a line at @y; where the next begins */
double plot_draw__marks_legend(struct svg *s, double y);

/* ---------------------------------------------------------------- bars, linear scale */

/* a linear axis from 0 to max, a tick every step, across the drawing area */
struct plot_lin_axis {
	double max;
	double step;
};

/* plot_draw__lin_fit - an axis that holds @max, its ticks at 1, 2 or 5 times a power of ten */
void plot_draw__lin_fit(struct plot_lin_axis *ax, double max);
double plot_draw__lin_x(const struct plot_lin_axis *ax, double v);
/* plot_draw__lin_grid - as plot_draw__log_grid(), the labels in @ax's own units */
double plot_draw__lin_grid(struct svg *s, const struct plot_lin_axis *ax, double top, double bottom,
			   const char *label);

#endif /* WAKEPROBE_PLOT_DRAW_H */
