// SPDX-License-Identifier: GPL-2.0
/* stack_combos.c - a pair's waker and wakee stacks, by combination (stack_combos.h) */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "stack_combos.h"

static bool same_key(const struct stack_combo *s, const struct wp_lean_stacks *st, uint32_t wakee_tgid)
{
	return s->waker_kernel == st->waker_kernel && s->waker_user == st->waker_user &&
	       s->wait_kernel == st->wait_kernel && s->wait_user == st->wait_user &&
	       s->waker_tgid == st->waker_tgid && s->wakee_tgid == wakee_tgid;
}

void stack_combos__add(struct stack_combos *c, const struct wp_lean_stacks *st, uint32_t wakee_tgid,
		       uint64_t wake_to_run_ns)
{
	struct stack_combo *s = NULL;

	for (uint32_t i = 0; i < c->n && !s; i++)
		if (same_key(&c->rows[i], st, wakee_tgid))
			s = &c->rows[i];
	if (!s && c->n < STACK_COMBOS_MAX) {
		s = &c->rows[c->n++];
		memset(s, 0, sizeof(*s));
		s->waker_kernel = st->waker_kernel;
		s->waker_user = st->waker_user;
		s->wait_kernel = st->wait_kernel;
		s->wait_user = st->wait_user;
		s->waker_tgid = st->waker_tgid;
		s->wakee_tgid = wakee_tgid;
	}
	if (!s) {
		c->other++;
		c->other_ns += wake_to_run_ns;
		return;
	}
	s->count++;
	s->total_ns += wake_to_run_ns;
	if (wake_to_run_ns > s->max_ns)
		s->max_ns = wake_to_run_ns;
	s->buckets[wp_slow_bucket(wake_to_run_ns) & (WP_SLOW_BUCKETS - 1)]++;
}

void stack_combos__clear(struct stack_combos *c)
{
	c->n = 0;
	c->other = 0;
	c->other_ns = 0;
}

static int id_cmp(const struct stack_combo *a, const struct stack_combo *b)
{
	const int32_t x[] = { a->waker_kernel, a->waker_user, a->wait_kernel, a->wait_user };
	const int32_t y[] = { b->waker_kernel, b->waker_user, b->wait_kernel, b->wait_user };

	for (size_t i = 0; i < 4; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return (a->wakee_tgid > b->wakee_tgid) - (a->wakee_tgid < b->wakee_tgid);
}

/* order - the larger @x first, then the larger @y, then the ids */
static int order(uint64_t xa, uint64_t xb, uint64_t ya, uint64_t yb, const struct stack_combo *a,
		 const struct stack_combo *b)
{
	if (xa != xb)
		return xa > xb ? -1 : 1;
	if (ya != yb)
		return ya > yb ? -1 : 1;
	return id_cmp(a, b);
}

static int by_count(const void *pa, const void *pb)
{
	const struct stack_combo *a = *(const struct stack_combo *const *)pa, *b = *(const struct stack_combo *const *)pb;

	return order(a->count, b->count, a->total_ns, b->total_ns, a, b);
}

static int by_cost(const void *pa, const void *pb)
{
	const struct stack_combo *a = *(const struct stack_combo *const *)pa, *b = *(const struct stack_combo *const *)pb;

	return order(a->total_ns, b->total_ns, a->count, b->count, a, b);
}

bool stack_combo__unwound(const struct stack_combo *s)
{
	return s->waker_user >= STACK_ID_UNWOUND || s->wait_user >= STACK_ID_UNWOUND;
}

uint64_t stack_combos__count_unwound(const struct stack_combos *c)
{
	uint64_t n = 0;

	for (uint32_t i = 0; c && i < c->n; i++)
		if (stack_combo__unwound(&c->rows[i]))
			n += c->rows[i].count;
	return n;
}

/* top - up to @max rows of @c, of those unwound alone when @unwound, into @out in @order */
static size_t top(const struct stack_combos *c, enum stack_order order, bool unwound, const struct stack_combo **out,
		  size_t max)
{
	const struct stack_combo *all[STACK_COMBOS_MAX];
	size_t n = 0;

	for (uint32_t i = 0; c && i < c->n; i++)
		if (!unwound || stack_combo__unwound(&c->rows[i]))
			all[n++] = &c->rows[i];
	qsort(all, n, sizeof(all[0]), order == STACK_BY_COST ? by_cost : by_count);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(all[0]));
	return n;
}

size_t stack_combos__top(const struct stack_combos *c, enum stack_order order, const struct stack_combo **out,
			 size_t max)
{
	return top(c, order, false, out, max);
}

size_t stack_combos__top_unwound(const struct stack_combos *c, enum stack_order order, const struct stack_combo **out,
				 size_t max)
{
	return top(c, order, true, out, max);
}

uint64_t stack_combo__percentile(const struct stack_combo *s, double pct)
{
	uint64_t rank, seen = 0;

	if (!s->count)
		return 0;
	if (!(pct > 0))
		pct = 0;
	rank = (uint64_t)ceil(pct > 100 ? (double)s->count : pct / 100.0 * (double)s->count);
	if (!rank)
		rank = 1;
	for (uint32_t b = 0; b < WP_SLOW_BUCKETS; b++) {
		seen += s->buckets[b];
		if (seen >= rank)
			return wp_slow_bucket_floor(b);
	}
	return s->max_ns;
}
