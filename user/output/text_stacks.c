// SPDX-License-Identifier: GPL-2.0
/* text_stacks.c - the busiest pairs' stacks in the text report, and where frame pointers cut them */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "text_stacks.h"

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* print_frames - stack @id of @tgid (0: the kernel), innermost first, under @title */
static void print_frames(FILE *out, struct run_stacks *rs, int32_t id, pid_t tgid, const char *title)
{
	const struct stack_frame *fr;
	size_t n = run_stacks__frames(rs, id, tgid, &fr);
	char name[sizeof(fr->sym.function) + 32];

	if (id < 0) {
		if (run_stacks__why_none(id)[0])
			fprintf(out, "      %s: %s\n", title, run_stacks__why_none(id));
		return;
	}
	if (!n) {
		fprintf(out, "      %s: [stack not found]\n", title);
		return;
	}
	fprintf(out, "      %s:\n", title);
	for (size_t i = 0; i < n && i < TEXT_STACKS_FRAMES; i++) {
		const struct stack_frame *f = &fr[i];

		stack_frame__name(f, name, sizeof(name));
		fprintf(out, "        %-48s", name);
		if (f->sym.file[0])
			fprintf(out, " %s:%d", base(f->sym.file), f->sym.line);
		if (!f->kernel && f->sym.object[0])
			fprintf(out, " (%s)", base(f->sym.object));
		fprintf(out, "\n");
	}
	if (n > TEXT_STACKS_FRAMES)
		fprintf(out, "        ... %zu frames more\n", n - TEXT_STACKS_FRAMES);
}

void text_stacks__combo(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			const struct stack_combo *s, const char *what, uint64_t of)
{
	fprintf(out, "    %s: %" PRIu64 " of %" PRIu64 " wakeups (%.0f%%), %.1f us of wake -> run; "
		"p50 %.1f, p99 %.1f (each within 25%% below), max %.1f us\n", what, s->count, of,
		of ? 100.0 * (double)s->count / (double)of : 0.0, us(s->total_ns), us(stack_combo__percentile(s, 50)),
		us(stack_combo__percentile(s, 99)), us(s->max_ns));
	fprintf(out, "      the waker, %s, where it woke it:\n", waker);
	print_frames(out, rs, s->waker_user, (pid_t)s->waker_tgid, "user");
	print_frames(out, rs, s->waker_kernel, 0, "kernel");
	fprintf(out, "      the wakee, %s, where it went to sleep:\n", wakee);
	print_frames(out, rs, s->wait_user, (pid_t)s->wakee_tgid, "user");
	print_frames(out, rs, s->wait_kernel, 0, "kernel");
}

void text_stacks__combos(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			 const struct stack_combos *c, uint64_t of)
{
	const struct stack_combo *freq, *cost;

	if (!stack_combos__top(c, STACK_BY_COUNT, &freq, 1)) {
		fprintf(out, "    no stacks came with these wakeups\n");
		return;
	}
	stack_combos__top(c, STACK_BY_COST, &cost, 1);
	text_stacks__combo(out, rs, waker, wakee, freq, cost == freq ? "the most frequent and costliest" :
			   "the most frequent", of);
	if (cost != freq)
		text_stacks__combo(out, rs, waker, wakee, cost, "the costliest", of);
	if (c->n > 1 || c->other)
		fprintf(out, "    %u combinations of stacks in all%s\n", c->n,
			c->other ? ", and more past those kept (--folded has their time)" : "");
}

/* thread_root - is @f where a thread's stack begins: the walk reached its start, nothing is cut */
static bool thread_root(const struct stack_frame *f)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3",
		"__clone", "__clone3", "__GI___clone3", "__GI___clone",
	};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(f->sym.function, roots[i]))
			return true;
	return false;
}

/* cut_of - the row of @object in @cuts, made if there is room; NULL */
static struct stack_cut *cut_of(struct stack_cut *cuts, size_t *n, size_t max, const char *object)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(cuts[i].object, object))
			return &cuts[i];
	if (*n == max)
		return NULL;
	memset(&cuts[*n], 0, sizeof(cuts[*n]));
	snprintf(cuts[*n].object, sizeof(cuts[*n].object), "%s", object);
	return &cuts[(*n)++];
}

/* count_cut - user stack @id of @tgid, @count wakeups: the objects it passes, and the one it ends short in */
static void count_cut(struct run_stacks *rs, int32_t id, pid_t tgid, uint64_t count, struct stack_cut *cuts,
		      size_t *n, size_t max)
{
	const struct stack_frame *fr;
	size_t k = run_stacks__frames(rs, id, tgid, &fr);
	struct stack_cut *c;

	if (!k)
		return;
	for (size_t i = 0; i < k; i++) {
		bool seen = false;

		if (!fr[i].sym.object[0])
			continue;
		/* each object once a stack */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(fr[j].sym.object, fr[i].sym.object);
		if (!seen && (c = cut_of(cuts, n, max, fr[i].sym.object)))
			c->of += count;
	}
	/* the walk's last frame in an object: past it, frames in none are a walk gone astray */
	while (k > 1 && !fr[k - 1].sym.object[0])
		k--;
	if (!thread_root(&fr[k - 1]) && fr[k - 1].sym.object[0] && (c = cut_of(cuts, n, max, fr[k - 1].sym.object)))
		c->stacks += count;
}

static int by_stacks(const void *a, const void *b)
{
	const struct stack_cut *x = a, *y = b;

	if (x->stacks != y->stacks)
		return x->stacks > y->stacks ? -1 : 1;
	return strcmp(x->object, y->object);
}

void stack_cuts__count(struct stack_cuts *cuts, struct run_stacks *rs, const struct stack_combos *c)
{
	size_t max = sizeof(cuts->all) / sizeof(cuts->all[0]);

	for (uint32_t k = 0; rs && c && k < c->n; k++) {
		count_cut(rs, c->rows[k].waker_user, (pid_t)c->rows[k].waker_tgid, c->rows[k].count, cuts->all,
			  &cuts->n, max);
		count_cut(rs, c->rows[k].wait_user, (pid_t)c->rows[k].wakee_tgid, c->rows[k].count, cuts->all,
			  &cuts->n, max);
	}
}

size_t stack_cuts__top(struct stack_cuts *cuts, struct stack_cut *out, size_t max)
{
	size_t kept = 0;

	qsort(cuts->all, cuts->n, sizeof(cuts->all[0]), by_stacks);
	for (size_t i = 0; i < cuts->n && kept < max; i++)
		if (cuts->all[i].stacks)
			out[kept++] = cuts->all[i];
	return kept;
}

size_t stack_cuts__find(const struct attach_report *r, struct stack_cut *out, size_t max)
{
	static struct stack_cuts cuts;
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;

	cuts.n = 0;
	for (uint32_t i = 0; rs && i < r->agg->nr_pairs; i++)
		stack_cuts__count(&cuts, rs, r->agg->pairs[i]->stacks);
	return stack_cuts__top(&cuts, out, max);
}

void text_stacks__cost(FILE *out, struct run_stacks *rs, uint64_t wakeups)
{
	const struct wp_stack_cost *cost;

	if (!rs)
		return;
	cost = run_stacks__cost(rs);
	fprintf(out, "  stacks     %zu distinct kept, in %.1f MiB of kernel memory; taking them: %.2f us of program time "
		"per wakeup (%" PRIu64 " stacks, %.2f us each, timed in the programs), %zu bytes more per wakeup's "
		"record\n", run_stacks__count(rs), (double)run_stacks__kernel_bytes(rs) / (1 << 20),
		wakeups ? us(cost->ns) / (double)wakeups : 0.0, (uint64_t)cost->taken,
		cost->taken ? us(cost->ns) / (double)cost->taken : 0.0, sizeof(struct wp_event));
	if (cost->not_kept)
		fprintf(out, "WARNING    %" PRIu64 " of the %" PRIu64 " stacks were not kept: another stack held the slot "
			"its hash gave it, or the map was full; their wakeups say so where a stack would be\n",
			(uint64_t)cost->not_kept, (uint64_t)cost->taken);
}

void text_stacks__cuts(FILE *out, const struct stack_cut *cuts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s  %s has no frame pointers, it seems: %" PRIu64 " of the %" PRIu64 " user stacks through "
			"it end there, short of the thread's start; their callers are cut (docs/attach.md: full stacks)\n",
			i ? "" : "\n", base(cuts[i].object), cuts[i].stacks, cuts[i].of);
}

void text_stacks__print(FILE *out, const struct attach_report *r)
{
	const struct attach_pair *rows[TEXT_STACKS_PAIRS];
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;
	struct stack_cut cuts[STACK_CUTS_MAX];
	size_t n;

	if (!rs)
		return;
	/* the first of the pairs the table above shows */
	n = attach_aggregate__pairs(r->agg, r->order, rows, r->pairs < TEXT_STACKS_PAIRS ? r->pairs : TEXT_STACKS_PAIRS);
	fprintf(out, "\nStacks of the %zu busiest pairs (%zu distinct stacks kept by the kernel; innermost frame "
		"first):\n", n, run_stacks__count(rs));
	for (size_t i = 0; i < n; i++) {
		const struct attach_pair *p = rows[i];
		char wakee[48];

		snprintf(wakee, sizeof(wakee), "%.16s %" PRIu32, p->wakee_comm[0] ? p->wakee_comm : "?", p->wakee_tid);
		fprintf(out, "\n  %s -> %s via %s\n", p->waker, wakee, p->mechanism);
		if (!p->stacks)
			fprintf(out, "    no stacks: its wakeups came before its row was kept\n");
		else
			text_stacks__combos(out, rs, p->waker, wakee, p->stacks, p->count - p->error);
	}
	text_stacks__cuts(out, cuts, stack_cuts__find(r, cuts, STACK_CUTS_MAX));
}
