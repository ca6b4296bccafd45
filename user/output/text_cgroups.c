// SPDX-License-Identifier: GPL-2.0
/* text_cgroups.c - the wakeups by cgroup, by what held their CPU, by who woke them (text_cgroups.h) */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "text_cgroups.h"

/* a series of a capped family: its key, split into its parts once the rows are in order, and its data */
struct row {
	const char *key;
	const char *parts[3];		/* into buf: split after the sort, which moves the rows */
	char buf[SERIES_KEY_LEN];
	const void *data;
	uint64_t ns;			/* what it is ordered by */
};

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static int by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : strcmp(x->key, y->key);
}

/*
 * rows_of - @cap's series, other last, ordered by @ns_of (most first, other
 * still last): how many, into @rows (count + 1 of them, the caller's to free)
 */
static struct row *rows_of(const struct series_cap *cap, uint64_t (*ns_of)(const void *), size_t *n)
{
	size_t count = series_cap__count(cap);
	struct row *rows = calloc(count + 1, sizeof(*rows));

	if (!rows)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		rows[i].key = series_cap__key(cap, i);
		rows[i].data = series_cap__data(cap, i);
		rows[i].ns = ns_of(rows[i].data);
	}
	qsort(rows, count, sizeof(*rows), by_time);
	for (size_t i = 0; i < count; i++)
		cgroup_stats__split(rows[i].key, rows[i].buf, sizeof(rows[i].buf), rows[i].parts, 3);
	for (int k = 0; k < 3; k++)
		rows[count].parts[k] = "other";
	rows[count].data = series_cap__other(cap);
	rows[count].ns = ns_of(rows[count].data);
	*n = count + 1;
	return rows;
}

static uint64_t cgroup_ns(const void *d)
{
	return ((const struct cgroup_series *)d)->wake_to_run.sum_ns;
}

static uint64_t holder_ns(const void *d)
{
	return ((const struct holder_series *)d)->runq_wait_ns;
}

static uint64_t pair_ns(const void *d)
{
	return ((const struct pair_series *)d)->wake_to_run_ns;
}

static unsigned int share(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned int)((part * 100 + whole / 2) / whole) : 0;
}

/* shown - of @n rows, other last, how many before other are shown */
static size_t shown(size_t n)
{
	return n - 1 < TEXT_CGROUPS_ROWS ? n - 1 : TEXT_CGROUPS_ROWS;
}

static void print_cgroup_row(FILE *out, const char *label, const struct cgroup_series *c)
{
	const struct slow_hist *h = &c->wake_to_run;

	if (!h->count)
		return;
	fprintf(out, "%-36.36s %9" PRIu64 " %9.1f %8.1f %8.1f %9.1f %11.1f %5u%% %5u%%\n", label, h->count,
		us(slow_hist__percentile(h, 50)), us(slow_hist__percentile(h, 99)), us(h->max_ns), us(h->sum_ns),
		us(c->runq_wait_ns), share(c->neighbour_ns, c->runq_wait_ns), share(c->idle_ns, c->runq_wait_ns));
}

static void print_by_cgroup(FILE *out, const struct cgroup_stats *s)
{
	size_t n = 0, show;
	struct row *rows = rows_of(s->cgroups, cgroup_ns, &n);
	struct series_cap_stats st;

	if (!rows)
		return;
	series_cap__stats(s->cgroups, &st);
	show = shown(n);
	fprintf(out, "\nCgroups, the %zu whose wakeups took the most time (%zu with a series of their own, at most %" PRIu32
		" (--top); the rest in \"other\"); times in us, percentiles within 25%% below:\n", show, n - 1,
		series_cap__limit(s->cgroups));
	fprintf(out, "%-36s %9s %9s %8s %8s %9s %11s %6s %6s\n", "", "", "wake -> run", "", "", "", "run-queue",
		"held by", "CPU");
	fprintf(out, "%-36s %9s %9s %8s %8s %9s %11s %6s %6s\n", "cgroup", "wakeups", "p50", "p99", "max", "total",
		"wait", "others", "idle");
	for (size_t i = 0; i < show; i++)
		print_cgroup_row(out, rows[i].parts[0], rows[i].data);
	print_cgroup_row(out, "other", rows[n - 1].data);
	free(rows);
	fprintf(out, "of the run-queue wait of every cgroup (%.1f us), tasks of another cgroup held the CPU for %u%%\n",
		us(s->runq_wait_ns), share(s->neighbour_ns, s->runq_wait_ns));
}

static void print_holders(FILE *out, const struct cgroup_stats *s)
{
	size_t n = 0, show;
	struct row *rows = rows_of(s->holders, holder_ns, &n);

	if (!rows)
		return;
	show = shown(n);
	fprintf(out, "\nWho held the CPU they waited for: the task each wakee took it from, by cgroup (%s: none "
		"ran, the CPU was idle); the %zu longest:\n", CGROUP_IDLE_LABEL, show);
	fprintf(out, "%-36s %-36s %9s %12s\n", "wakee's cgroup", "held by", "wakeups", "wait (us)");
	for (size_t i = 0; i <= show; i++) {
		const struct row *r = i < show ? &rows[i] : &rows[n - 1];
		const struct holder_series *h = r->data;

		if (h->wakeups)
			fprintf(out, "%-36.36s %-36.36s %9" PRIu64 " %12.1f\n", r->parts[0], r->parts[1], h->wakeups,
				us(h->runq_wait_ns));
	}
	free(rows);
}

static void print_pairs(FILE *out, const struct cgroup_stats *s)
{
	size_t n = 0, show;
	struct row *rows = rows_of(s->pairs, pair_ns, &n);

	if (!rows)
		return;
	show = shown(n);
	fprintf(out, "\nWho woke whom, by cgroup (%s: interrupt work, none's doing); the %zu with the most wake -> run "
		"time:\n", CGROUP_IRQ_LABEL, show);
	fprintf(out, "%-32s %-32s %-14s %9s %12s\n", "waker's cgroup", "wakee's cgroup", "mechanism", "wakeups",
		"total (us)");
	for (size_t i = 0; i <= show; i++) {
		const struct row *r = i < show ? &rows[i] : &rows[n - 1];
		const struct pair_series *p = r->data;

		if (p->wakeups)
			fprintf(out, "%-32.32s %-32.32s %-14.14s %9" PRIu64 " %12.1f\n", r->parts[0], r->parts[1],
				r->parts[2], p->wakeups, us(p->wake_to_run_ns));
	}
	free(rows);
}

void text_cgroups__print(FILE *out, const struct cgroup_stats *s)
{
	if (!s)
		return;
	if (!s->wakeups) {
		fprintf(out, "\nCgroups: no complete wakeup came with its cgroups\n");
		return;
	}
	print_by_cgroup(out, s);
	print_holders(out, s);
	print_pairs(out, s);
}
