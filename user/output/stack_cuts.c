// SPDX-License-Identifier: GPL-2.0
/*
 * stack_cuts.c - where frame pointers cut the user stacks short: the
 * objects a walk ended in before reaching a thread's start, counted over a
 * run's combinations of stacks, for the text report and the JSON alike
 */
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "stack_cuts.h"

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
