// SPDX-License-Identifier: GPL-2.0
/* plot_attach.c - an attach run's picture: its busiest waker -> wakee pairs and its kernel phases */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "plot_attach.h"
#include "plot_draw.h"

#define PAIR_H		36.0	/* a pair: its names over its bar */
#define PAIR_BAR_H	14.0
#define PAIR_LABEL_MAX	96	/* bytes of its names: about the width of the bars */
/* the kernel phases attach mode measures, and the two spans over them: what its text report tabulates */
#define NR_SPANS	(PHASE_RESUME_KERNEL - PHASE_NOTIFY_KERNEL + 1 + 2)

/* target - what was traced, as the text report names it: "command './server --port 80'", "pid 1234, 1250" */
static void target(const struct attach_report *r, char *buf, size_t len)
{
	const struct attach_session_opts *t = r->targets;
	size_t n = 0;

	buf[0] = '\0';
	if (t->argv) {
		n = (size_t)snprintf(buf, len, "command '");
		for (int i = 0; t->argv[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%.64s", i ? " " : "", t->argv[i]);
		if (n < len)
			snprintf(buf + n, len - n, "'");
		return;
	}
	for (uint32_t i = 0; i < t->nr_pids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? ", " : "pid ", t->pids[i]);
	for (uint32_t i = 0; i < r->nr_tids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? ", " : ", threads ", r->tids[i]);
}

/* pair_value - what the pairs are ordered by, in the axis' units: wakeups, or µs of wake -> run */
static double pair_value(const struct attach_pair *p, enum attach_order order)
{
	return order == ATTACH_ORDER_COST ? p->wake_to_run.sum / 1000.0 : (double)p->count;
}

/*
 * cut - @buf shortened to @max bytes and "..." when longer, at a character's
 * start: the label of a pair stays clear of its numbers
 */
static void cut(char *buf, size_t max)
{
	size_t n = strlen(buf);

	if (n <= max)
		return;
	n = max - 3;
	while (n && ((unsigned char)buf[n] & 0xc0) == 0x80)
		n--;
	strcpy(buf + n, "...");
}

/* pair - one pair at @y: its rank, who woke whom through what, a bar of @ax, its numbers */
static void pair(struct svg *s, const struct plot_lin_axis *ax, const struct attach_pair *p, size_t rank,
		 enum attach_order order, double y)
{
	char buf[256], p50[32], p99[32], sum[32];
	double x1 = plot_draw__lin_x(ax, pair_value(p, order));

	svg__open(s, "g");
	svg__attr(s, "class", "pair");
	svg__attr_u64(s, "data-rank", rank);
	svg__attr(s, "data-waker", p->waker);
	svg__attr_u64(s, "data-wakee-tid", p->wakee_tid);
	svg__attr(s, "data-mechanism", p->mechanism);
	svg__attr_u64(s, "data-count", p->count);
	svg__attr_u64(s, "data-error", p->error);
	svg__attr_u64(s, "data-wake-to-run-sum-ns", p->wake_to_run.sum);
	snprintf(buf, sizeof(buf), "#%zu", rank);
	plot_draw__text(s, PLOT_AREA_X0 - 10, y + 11, NULL, "end", buf);
	snprintf(buf, sizeof(buf), "%s -> %.16s %" PRIu32 ", via %s", p->waker, p->wakee_comm[0] ? p->wakee_comm : "?",
		 p->wakee_tid, p->mechanism);
	cut(buf, PAIR_LABEL_MAX);
	plot_draw__text(s, PLOT_AREA_X0, y + 11, NULL, NULL, buf);
	plot_draw__rect(s, PLOT_AREA_X0, y + 15, x1 - PLOT_AREA_X0, PAIR_BAR_H, "bar",
			plot_draw__phase_color(PLOT_TOTAL));
	plot_draw__ns((double)p->wake_to_run.sum, sum, sizeof(sum));
	/* the sum is of its own wakeups, count - error of them */
	if (p->error)
		svg__title(s, "%" PRIu64 " complete wakeups, up to %" PRIu64 " of them of the pairs its row had before; "
			   "wake -> run %s in all of its own %" PRIu64, p->count, p->error, sum, p->count - p->error);
	else
		svg__title(s, "%" PRIu64 " complete wakeups, wake -> run %s in all", p->count, sum);
	svg__close(s);
	if (order == ATTACH_ORDER_COST)
		snprintf(buf, sizeof(buf), "%s (%" PRIu64 " wakeups)", sum, p->count);
	else
		snprintf(buf, sizeof(buf), "%" PRIu64 " wakeup%s", p->count, p->count == 1 ? "" : "s");
	plot_draw__text(s, PLOT_AREA_X1 + 14, y + 11, "stats", NULL, buf);
	plot_draw__ns((double)histogram__percentile(&p->wake_to_run, 50), p50, sizeof(p50));
	plot_draw__ns((double)histogram__percentile(&p->wake_to_run, 99), p99, sizeof(p99));
	snprintf(buf, sizeof(buf), "wake -> run p50 %s, p99 %s", p50, p99);
	plot_draw__text(s, PLOT_AREA_X1 + 14, y + 26, "stats", NULL, buf);
	svg__close(s);
}

/*
 * sketch_notes - at @y, once more pairs came than the table has rows: that
 * a Space-Saving sketch kept the busiest, how far the counts of the @n
 * @rows drawn can be off, and where the wakeups of the pairs replaced went
 * (text_attach.c says the same); nothing while every pair had a row, and
 * the counts are exact. Where the next line begins.
 */
static double sketch_notes(struct svg *s, const struct attach_aggregate *g, const struct attach_pair *const *rows,
			   size_t n, double y)
{
	uint64_t error_max = 0;
	char buf[256];

	if (!g->pairs_replaced)
		return y;
	for (size_t i = 0; i < n; i++)
		if (rows[i]->error > error_max)
			error_max = rows[i]->error;
	snprintf(buf, sizeof(buf), "more than %d pairs came: a Space-Saving sketch kept the busiest, a new pair taking "
		 "the row with the fewest (%" PRIu64 " time%s)", ATTACH_AGG_MAX_PAIRS, g->pairs_replaced,
		 g->pairs_replaced == 1 ? "" : "s");
	y = plot_draw__note(s, y, buf);
	if (error_max)
		snprintf(buf, sizeof(buf), "a count may include up to %" PRIu64 " wakeups of the pairs its row had before "
			 "(a bar's tooltip says how many); its times are the pair's own", error_max);
	else
		snprintf(buf, sizeof(buf), "the counts drawn are exact: these pairs held their rows from their first "
			 "wakeup");
	y = plot_draw__note(s, y, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 " complete wakeups of the pairs replaced are in no bar; every pair with "
		 "more than %" PRIu64 " has a row", g->pairs_evicted, g->complete / ATTACH_AGG_MAX_PAIRS);
	return plot_draw__note(s, y, buf);
}

/* pairs - the @n pairs @rows from @y under their heading, on one axis; where the next begins */
static double pairs(struct svg *s, const struct attach_report *r, const struct attach_pair *const *rows, size_t n,
		    double y)
{
	const struct attach_aggregate *g = r->agg;
	struct plot_lin_axis ax;
	double max = 0, next;
	char buf[256];

	snprintf(buf, sizeof(buf), "Waker -> wakee pairs, the %zu with the %s (of %s%" PRIu32 ")", n,
		 r->order == ATTACH_ORDER_COST ? "most wake -> run time summed" : "most complete wakeups",
		 g->pairs_replaced ? "the busiest " : "", g->nr_pairs);
	y = plot_draw__heading(s, y, buf);
	if (!n)
		return plot_draw__note(s, y, "(none: no complete wakeup)");
	for (size_t i = 0; i < n; i++)
		if (pair_value(rows[i], r->order) > max)
			max = pair_value(rows[i], r->order);
	plot_draw__lin_fit(&ax, max);
	next = plot_draw__lin_grid(s, &ax, y, y + n * PAIR_H, r->order == ATTACH_ORDER_COST ?
				   "wake -> run (sched_waking -> switch-in) of the pair's wakeups, summed (µs)" :
				   "complete wakeups of the pair");
	for (size_t i = 0; i < n; i++)
		pair(s, &ax, rows[i], i + 1, r->order, y + i * PAIR_H);
	return sketch_notes(s, g, rows, n, next);
}

/* draw - @r's picture on @s (laid out only, with @out NULL); the page's height */
static double draw(struct svg *s, FILE *out, double height, const struct attach_report *r,
		   const struct attach_pair *const *rows, size_t n)
{
	const struct attach_aggregate *g = r->agg;
	const struct histogram *h[NR_SPANS];
	const char *runs[NR_SPANS], *names[NR_SPANS];
	int colors[NR_SPANS];
	char title[400], sub[400], buf[512], who[300];
	size_t k = 0;
	double y = PLOT_HEAD_H;

	target(r, who, sizeof(who));
	snprintf(title, sizeof(title), "wakeprobe: attached to %s", who);
	snprintf(sub, sizeof(sub), "%" PRIu64 " wakeups of traced threads, %" PRIu64 " complete; traced %.3f s; "
		 "%.64s, kernel %.64s", g->wakeups, g->complete, (r->run->trace_end_ns - r->run->trace_start_ns) / 1e9,
		 r->run->meta.hostname, r->run->meta.kernel);
	plot_draw__begin(s, out, height, title, sub);
	y = pairs(s, r, rows, n, y);

	h[k] = &g->wake_to_run;
	names[k] = "wake -> run";
	colors[k++] = PLOT_TOTAL;
	for (int p = PHASE_NOTIFY_KERNEL; p <= PHASE_RESUME_KERNEL; p++) {
		h[k] = &g->phase[p];
		names[k] = wakeup__phase_name(p);
		colors[k++] = p;
	}
	h[k] = &g->notify_to_return;
	names[k] = "notify -> return";
	colors[k++] = PLOT_TOTAL;
	for (size_t i = 0; i < k; i++)
		runs[i] = "";
	snprintf(buf, sizeof(buf), "Kernel phases of the %" PRIu64 " complete wakeups, where present", g->complete);
	y = plot_draw__heading(s, y, buf);
	y = plot_draw__panels(s, runs, names, colors, h, k, y);
	y = plot_draw__note(s, y, "wake -> run: sched_waking to the wakee's switch-in; notify -> return: the waker's "
			    "syscall entry to the wait's exit (docs/attach.md)");
	y = plot_draw__labels_note(s, "not complete (not in the tables):", g->by_label, y);
	snprintf(buf, sizeof(buf), "events dropped: %" PRIu64 ", BPF program runs the kernel skipped: %" PRIu64,
		 r->run->drops_total, r->run->missed_runs);
	y = plot_draw__note(s, y, buf);
	return y + PLOT_MARGIN;
}

int plot_attach__print(FILE *out, const struct attach_report *r)
{
	const struct attach_pair *rows[PLOT_ATTACH_MAX_PAIRS];
	size_t want = r->pairs < PLOT_ATTACH_MAX_PAIRS ? r->pairs : PLOT_ATTACH_MAX_PAIRS;
	size_t n = attach_aggregate__pairs(r->agg, r->order, rows, want);
	struct svg s;
	double height;

	/* laid out once to learn the height the root element opens with, then drawn */
	height = draw(&s, NULL, 0, r, rows, n);
	draw(&s, out, height, r, rows, n);
	return svg__finish(&s);
}
