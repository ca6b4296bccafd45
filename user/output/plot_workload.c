// SPDX-License-Identifier: GPL-2.0
/*
 * plot_workload.c - a workload run's picture: where the time goes (the mean of each
 * phase, stacked: means add up where percentiles do not) and each phase's
 * distribution with its tail; for several runs, the paths side by side
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "plot_draw.h"
#include "plot_workload.h"

#define STACK_H		22.0
#define STACK_GAP	10.0
#define LEGEND_H	18.0
#define LEGEND_COLUMNS	3
#define LEGEND_WIDTH	185.0
#define PLOT_MAX_PATHS	64	/* runs drawn side by side; a recording holds no more */

/* phased - the complete wakeups of @a with phases: an untraced run's and spin's have none */
static uint64_t phased(const struct aggregate *a)
{
	return a->phase[PHASE_RUNQ_WAIT].count;
}

/* phases_mean_ns - the phases' means added up: the mean total of the phased wakeups */
static double phases_mean_ns(const struct aggregate *a)
{
	double sum = 0;

	for (int k = 0; k < NR_PHASES; k++)
		sum += histogram__mean(&a->phase[k]);
	return sum;
}

/*
 * stack - @a's phases end to end at @y, each as long as its mean: what a
 * wakeup of the run spends where. @name labels the row when there are several.
 */
static void stack(struct svg *s, const struct plot_lin_axis *ax, const char *run, const char *name,
		  const struct aggregate *a, double y)
{
	double x = PLOT_AREA_X0, total = phases_mean_ns(a);
	char buf[64], num[32];

	svg__open(s, "g");
	svg__attr(s, "class", "stack");
	svg__attr(s, "data-run", run);
	svg__attr_u64(s, "data-count", phased(a));
	if (name)
		plot_draw__text(s, PLOT_AREA_X0 - 10, y + STACK_H / 2 + 4, NULL, "end", name);
	for (int k = 0; k < NR_PHASES; k++) {
		const struct histogram *h = &a->phase[k];
		double mean = histogram__mean(h), width = plot_draw__lin_x(ax, mean / 1000) - PLOT_AREA_X0;
		double share = total > 0 ? 100 * mean / total : 0;
		const char *phase = wakeup__phase_name(k);

		plot_draw__rect(s, x, y, width, STACK_H, "segment", plot_draw__phase_color(k));
		svg__attr(s, "data-phase", phase);
		svg__attr_u64(s, "data-sum-ns", h->sum);
		svg__attr_u64(s, "data-count", h->count);
		plot_draw__ns(mean, num, sizeof(num));
		svg__title(s, "%s: mean %s, %.1f%% of the wakeup", phase, num, share);
		svg__close(s);
		if (width >= 34) {
			snprintf(buf, sizeof(buf), "%.0f%%", share);
			plot_draw__text(s, x + width / 2, y + STACK_H / 2 + 4, "inside", "middle", buf);
		}
		x += width;
	}
	plot_draw__ns(total, num, sizeof(num));
	snprintf(buf, sizeof(buf), "%s mean", num);
	plot_draw__text(s, PLOT_AREA_X1 + 14, y + STACK_H / 2 + 4, "stats", NULL, buf);
	svg__close(s);
}

/*
 * bare_total - a run without phases (spin: no kernel in the path) in the
 * place of its stack: its mean total, in grey, and why
 */
static void bare_total(struct svg *s, const struct plot_lin_axis *ax, const char *run, const struct aggregate *a,
		       double y, const char *why)
{
	double mean = histogram__mean(&a->total);
	char num[32];

	svg__open(s, "g");
	svg__attr(s, "class", "stack");
	svg__attr(s, "data-run", run);
	svg__attr_u64(s, "data-count", a->total.count);
	plot_draw__text(s, PLOT_AREA_X0 - 10, y + STACK_H / 2 + 4, NULL, "end", run);
	plot_draw__rect(s, PLOT_AREA_X0, y, plot_draw__lin_x(ax, mean / 1000) - PLOT_AREA_X0, STACK_H, "segment",
			plot_draw__phase_color(PLOT_TOTAL));
	svg__attr(s, "data-phase", "total");
	svg__attr_u64(s, "data-sum-ns", a->total.sum);
	svg__attr_u64(s, "data-count", a->total.count);
	plot_draw__ns(mean, num, sizeof(num));
	svg__title(s, "total: mean %s", num);
	svg__close(s);
	plot_draw__text(s, PLOT_AREA_X1 + 14, y + STACK_H / 2 + 4, "stats", NULL, why);
	svg__close(s);
}

/*
 * legend - a swatch per phase, with its mean and
 * share in @a's run when @a is given; where the next begins
 */
static double legend(struct svg *s, const struct aggregate *a, double y)
{
	double total = a ? phases_mean_ns(a) : 0;
	int n = 0;

	for (int k = 0; k < NR_PHASES; k++) {
		double x = PLOT_AREA_X0 + (n % LEGEND_COLUMNS) * LEGEND_WIDTH, row = y + (n / LEGEND_COLUMNS) * LEGEND_H;
		const char *phase = wakeup__phase_name(k);
		char buf[96], num[32];

		n++;
		plot_draw__rect(s, x, row + 2, 11, 11, "swatch", plot_draw__phase_color(k));
		svg__close(s);
		if (a) {
			double mean = histogram__mean(&a->phase[k]);

			plot_draw__ns(mean, num, sizeof(num));
			snprintf(buf, sizeof(buf), "%s %s (%.1f%%)", phase, num,
				 total > 0 ? 100 * mean / total : 0);
		} else {
			snprintf(buf, sizeof(buf), "%s", phase);
		}
		plot_draw__text(s, x + 16, row + 12, NULL, NULL, buf);
	}
	return y + (n + LEGEND_COLUMNS - 1) / LEGEND_COLUMNS * LEGEND_H + 4;
}

/* pace - "one every 1000 us" or "back to back" */
static const char *pace(const struct run_config *cfg, char *buf, size_t len)
{
	if (cfg->interval_us)
		snprintf(buf, len, "one every %" PRIu64 " us", cfg->interval_us);
	else
		snprintf(buf, len, "back to back");
	return buf;
}

/* draw_one - run @r of @wl in full on @s (laid out only, with @out NULL); the page's height */
static double draw_one(struct svg *s, FILE *out, double height, const struct run_config *cfg,
		       const struct workload_desc *wl, const struct run_result *r)
{
	const struct aggregate *a = &r->agg;
	const struct histogram *h[NR_PHASES + 1];
	const char *runs[NR_PHASES + 1], *names[NR_PHASES + 1];
	int colors[NR_PHASES + 1];
	char title[160], sub[512], buf[256], paced[48];
	size_t n = 0;
	double y = PLOT_HEAD_H;

	snprintf(title, sizeof(title), "wakeprobe: %s%s", wl->name, cfg->traced ? "" : ", untraced");
	snprintf(sub, sizeof(sub), "%" PRIu64 " wakeups measured (%" PRIu64 " asked, %s), waker CPU %d -> wakee CPU %d; "
		 "%.64s, kernel %.64s", a->samples, cfg->samples, pace(cfg, paced, sizeof(paced)), cfg->waker_cpu,
		 cfg->wakee_cpu, r->meta.hostname, r->meta.kernel);
	plot_draw__begin(s, out, height, title, sub);
	if (cfg->traced && phased(a)) {
		struct plot_lin_axis ax;
		double bottom;

		snprintf(buf, sizeof(buf), "Where the time goes: the mean of each phase over the %" PRIu64
			 " complete wakeups", phased(a));
		y = plot_draw__heading(s, y, buf);
		plot_draw__lin_fit(&ax, phases_mean_ns(a) / 1000);
		bottom = y + STACK_H + 6;
		y = plot_draw__lin_grid(s, &ax, y, bottom, "time of one wakeup, mean (µs)");
		stack(s, &ax, wl->name, NULL, a, bottom - STACK_H - 3);
		y = legend(s, a, y);
	}
	if (cfg->traced) {
		snprintf(buf, sizeof(buf), "Latency of each phase and of the whole wakeup, notify -> woken, "
			 "over the %" PRIu64 " complete wakeups", a->total.count);
		h[n] = &a->total;
	} else {
		snprintf(buf, sizeof(buf), "Latency of every wakeup, notify -> woken (untraced: no phases)");
		h[n] = &a->all_total;
	}
	runs[n] = wl->name;
	names[n] = "total";
	colors[n++] = PLOT_TOTAL;
	for (int k = 0; k < NR_PHASES && phased(a); k++) {
		h[n] = &a->phase[k];
		runs[n] = wl->name;
		names[n] = wakeup__phase_name(k);
		colors[n++] = k;
	}
	y = plot_draw__heading(s, y, buf);
	y = plot_draw__panels(s, runs, names, colors, h, n, y);
	if (cfg->traced && wl->user_only)
		y = plot_draw__note(s, y, "no kernel in the path: its wakeups have no phases");
	if (cfg->traced) {
		y = plot_draw__labels_note(s, "not in the phase table (docs/phases.md):", a->by_label, y);
		snprintf(buf, sizeof(buf), "events dropped: %" PRIu64 ", BPF program runs the kernel skipped: %" PRIu64,
			 r->drops_total, r->missed_runs);
		y = plot_draw__note(s, y, buf);
	}
	if (r->interrupted || r->timed_out)
		y = plot_draw__note(s, y, r->interrupted ? "interrupted: the wakeups measured until then" :
				    "--timeout ran out: the wakeups measured until then");
	if (r->workload_failed) {
		snprintf(buf, sizeof(buf), "the workload FAILED: %s", r->workload_error);
		y = plot_draw__note(s, y, buf);
	}
	return y + PLOT_MARGIN;
}

/*
 * paths_note - @what, then each path that has any: its wakeups left out of
 * the phase table, or with @dropped its events dropped and program runs
 * skipped; nothing when no path has any. Where the next begins.
 */
static double paths_note(struct svg *s, const char *what, const struct workload_desc *const *wl,
			 const struct run_result *const *res, size_t n, bool dropped, double y)
{
	char buf[1024];
	size_t used = (size_t)snprintf(buf, sizeof(buf), "%s", what);
	bool any = false;

	for (size_t i = 0; i < n && used < sizeof(buf); i++) {
		const struct aggregate *a = &res[i]->agg;
		uint64_t v = dropped ? res[i]->drops_total + res[i]->missed_runs : a->samples - a->by_label[LABEL_COMPLETE];

		if (v)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s %" PRIu64, any ? "," : "",
						 wl[i]->name, v);
		any = any || v;
	}
	return any ? plot_draw__note(s, y, buf) : y;
}

/* draw_paths - the @n runs side by side on @s (laid out only, with @out NULL); the page's height */
static double draw_paths(struct svg *s, FILE *out, double height, const struct run_config *cfg,
			 const struct workload_desc *const *wl, const struct run_result *const *res, size_t n)
{
	const struct histogram *h[PLOT_MAX_PATHS];
	const char *names[PLOT_MAX_PATHS];
	int colors[PLOT_MAX_PATHS];
	char sub[256], paced[48], buf[512];
	double y = PLOT_HEAD_H;
	size_t i;

	snprintf(sub, sizeof(sub), "%" PRIu64 " wakeups each, %s, waker CPU %d -> wakee CPU %d%s; %.64s, kernel %.64s",
		 cfg->samples, pace(cfg, paced, sizeof(paced)), cfg->waker_cpu, cfg->wakee_cpu,
		 cfg->traced ? "" : ", untraced", res[0]->meta.hostname, res[0]->meta.kernel);
	plot_draw__begin(s, out, height, "wakeprobe: every path, compared", sub);
	if (cfg->traced) {
		struct plot_lin_axis ax;
		double max = 0, bottom, next;

		for (i = 0; i < n; i++) {
			const struct aggregate *a = &res[i]->agg;
			double mean = phased(a) ? phases_mean_ns(a) : histogram__mean(&a->total);

			if (mean > max)
				max = mean;
		}
		y = plot_draw__heading(s, y, "Where the time goes, path by path: the mean of each phase over the "
				       "path's complete wakeups");
		plot_draw__lin_fit(&ax, max / 1000);
		bottom = y + n * (STACK_H + STACK_GAP);
		next = plot_draw__lin_grid(s, &ax, y, bottom, "time of one wakeup, mean (µs)");
		for (i = 0; i < n; i++) {
			const struct aggregate *a = &res[i]->agg;
			double row = y + STACK_GAP / 2 + i * (STACK_H + STACK_GAP);

			if (phased(a))
				stack(s, &ax, wl[i]->name, wl[i]->name, a, row);
			else
				bare_total(s, &ax, wl[i]->name, a, row, !a->total.count ? "no complete wakeups" :
					   wl[i]->user_only ? "no kernel in the path: no phases" : "no phases");
		}
		y = next;
		y = legend(s, NULL, y);
	}
	for (i = 0; i < n; i++) {
		h[i] = &res[i]->agg.all_total;
		names[i] = wl[i]->name;
		colors[i] = PLOT_TOTAL;
	}
	y = plot_draw__heading(s, y, "Total latency, notify -> woken, every sample, path by path");
	y = plot_draw__panels(s, names, names, colors, h, n, y);
	/* what the comparison table says beside the numbers: what is not in them */
	if (cfg->traced) {
		y = paths_note(s, "not in the phase table (docs/phases.md):", wl, res, n, false, y);
		y = paths_note(s, "events dropped or BPF program runs skipped:", wl, res, n, true, y);
	}
	for (i = 0; i < n; i++)
		if (res[i]->workload_failed) {
			snprintf(buf, sizeof(buf), "%s FAILED: %s", wl[i]->name, res[i]->workload_error);
			y = plot_draw__note(s, y, buf);
		}
	return y + PLOT_MARGIN;
}

int plot_workload__runs(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
			const struct run_result *const *res, size_t n)
{
	struct svg s;
	double height;

	if (!n)
		return -EINVAL;
	if (n > PLOT_MAX_PATHS)
		n = PLOT_MAX_PATHS;
	/* laid out once to learn the height the root element opens with, then drawn */
	if (n == 1) {
		height = draw_one(&s, NULL, 0, cfg, wl[0], res[0]);
		draw_one(&s, out, height, cfg, wl[0], res[0]);
	} else {
		height = draw_paths(&s, NULL, 0, cfg, wl, res, n);
		draw_paths(&s, out, height, cfg, wl, res, n);
	}
	return svg__finish(&s);
}
