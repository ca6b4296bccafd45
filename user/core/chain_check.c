// SPDX-License-Identifier: GPL-2.0
/* chain_check.c - the kernel's chains and the stream's, held one against the other (chain_check.h) */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chain_check.h"

/* what of a hop the check holds: who, how, behind whom, and its two times */
struct kept_hop {
	uint32_t waker_tid;
	uint32_t holder_tid;
	uint8_t kind;
	bool run_seen;
	uint16_t cpu;
	uint64_t ran_ns;
	uint64_t runnable_ns;
};

/* a kernel's chain kept for the stream's of the same waking */
struct kept {
	uint8_t nr_hops;
	uint8_t end;
	uint64_t waking_ns;
	struct kept_hop hops[CHAIN_HOPS];
};

/* one task's kernel chains not yet matched, in the order of their wakings: a ring that grows */
struct fifo {
	uint32_t tid;			/* 0: a free place */
	uint32_t head;
	uint32_t len;
	uint32_t cap;
	struct kept *items;
};

struct chain_check {
	struct fifo fifos[CHAIN_CHECK_TASKS];
	struct chain_check_counters counters;
};

struct chain_check *chain_check__new(void)
{
	return calloc(1, sizeof(struct chain_check));
}

void chain_check__free(struct chain_check *cc)
{
	if (!cc)
		return;
	for (uint32_t i = 0; i < CHAIN_CHECK_TASKS; i++)
		free(cc->fifos[i].items);
	free(cc);
}

static struct kept *at(const struct fifo *f, uint32_t i)
{
	return &f->items[(f->head + i) % f->cap];
}

/*
 * push - a place at the back of @f into @slot: the ring grown, or its
 * oldest given up (false); false and no place when it has no memory at all
 */
static bool push(struct fifo *f, struct kept **slot)
{
	bool room = true;

	if (f->len == f->cap && f->cap < CHAIN_CHECK_PER_TASK) {
		uint32_t cap = f->cap ? 2 * f->cap : 64;
		struct kept *items = malloc(cap * sizeof(*items));

		if (items) {
			for (uint32_t i = 0; i < f->len; i++)
				items[i] = *at(f, i);
			free(f->items);
			f->items = items;
			f->cap = cap;
			f->head = 0;
		}
	}
	if (!f->cap)
		return false;
	if (f->len == f->cap) {
		f->head = (f->head + 1) % f->cap;
		f->len--;
		room = false;
	}
	*slot = at(f, f->len++);
	return room;
}

static void pop(struct fifo *f)
{
	f->head = (f->head + 1) % f->cap;
	f->len--;
}

static void keep(struct kept *k, uint64_t waking_ns, const struct chain *c)
{
	memset(k, 0, sizeof(*k));
	k->waking_ns = waking_ns;
	k->nr_hops = (uint8_t)c->nr_hops;
	k->end = (uint8_t)c->end;
	for (uint32_t i = 0; i < c->nr_hops && i < CHAIN_HOPS; i++) {
		const struct chain_hop *h = &c->hops[i];

		k->hops[i] = (struct kept_hop){ .waker_tid = h->waker_tid, .holder_tid = h->holder_tid, .kind = h->kind,
						.run_seen = h->run_seen, .cpu = h->cpu, .ran_ns = h->ran_ns,
						.runnable_ns = h->runnable_ns };
	}
}

void chain_check__kernel(struct chain_check *cc, uint32_t tid, uint64_t waking_ns, const struct chain *c)
{
	struct fifo *f = &cc->fifos[tid % CHAIN_CHECK_TASKS];
	struct kept *k = NULL;

	if (!tid)
		return;
	cc->counters.kernel++;
	if (f->tid != tid) {
		/* the place is another task's while it holds chains */
		if (f->len) {
			cc->counters.kernel_not_kept++;
			return;
		}
		f->tid = tid;
	}
	if (!push(f, &k))
		cc->counters.kernel_not_kept++;
	if (k)
		keep(k, waking_ns, c);
}

/*
 * matching - the kernel's chain of @tid whose waking is @waking_ns's, within
 * the window, taken off its task's ring into @out; those of wakings before
 * it that nothing matched are let go, counted. False: none.
 */
static bool matching(struct chain_check *cc, uint32_t tid, uint64_t waking_ns, struct kept *out)
{
	struct fifo *f = &cc->fifos[tid % CHAIN_CHECK_TASKS];

	if (f->tid != tid)
		return false;
	while (f->len && at(f, 0)->waking_ns + CHAIN_CHECK_WINDOW_NS < waking_ns) {
		pop(f);
		cc->counters.kernel_unmatched++;
	}
	if (!f->len || at(f, 0)->waking_ns > waking_ns + CHAIN_CHECK_WINDOW_NS)
		return false;
	*out = *at(f, 0);
	pop(f);
	return true;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * differ - where @k, the kernel's, and @s, the stream's, differ, in words
 * into @why (@len); "" when they are the same hop for hop. The most a
 * hop's time differed into @diff_ns, and the hops' differences summed
 * into @sum_ns.
 */
static void differ(const struct kept *k, const struct kept *s, char *why, size_t len, uint64_t *diff_ns,
		   uint64_t *sum_ns)
{
	why[0] = '\0';
	*diff_ns = 0;
	*sum_ns = 0;
	if (k->nr_hops != s->nr_hops) {
		snprintf(why, len, "the kernel's has %u hops, the stream's %u", k->nr_hops, s->nr_hops);
		return;
	}
	for (uint32_t i = 0; i < k->nr_hops; i++) {
		const struct kept_hop *a = &k->hops[i], *b = &s->hops[i];
		uint64_t d;

		if (a->kind != b->kind || a->waker_tid != b->waker_tid) {
			snprintf(why, len, "hop %u: the kernel's waker %" PRIu32 " (kind %u), the stream's %" PRIu32
				 " (kind %u)", i + 1, a->waker_tid, a->kind, b->waker_tid, b->kind);
			return;
		}
		if (a->run_seen != b->run_seen) {
			snprintf(why, len, "hop %u: the waker's run seen by %s alone", i + 1,
				 a->run_seen ? "the kernel" : "the stream");
			return;
		}
		if (a->run_seen && (a->holder_tid != b->holder_tid || a->cpu != b->cpu)) {
			snprintf(why, len, "hop %u: the kernel's took CPU %u from %" PRIu32 ", the stream's CPU %u from %"
				 PRIu32, i + 1, a->cpu, a->holder_tid, b->cpu, b->holder_tid);
			return;
		}
		d = distance(a->ran_ns, b->ran_ns) > distance(a->runnable_ns, b->runnable_ns) ?
			    distance(a->ran_ns, b->ran_ns) : distance(a->runnable_ns, b->runnable_ns);
		*diff_ns = d > *diff_ns ? d : *diff_ns;
		*sum_ns += d;
	}
	if (k->end != s->end)
		snprintf(why, len, "the kernel's ends at %s, the stream's at %s", chain__end_name(k->end),
			 chain__end_name(s->end));
}

enum chain_verdict chain_check__stream(struct chain_check *cc, uint32_t tid, uint64_t waking_ns, const struct chain *c,
				       uint64_t *diff_ns)
{
	struct chain_check_counters *n = &cc->counters;
	struct kept kernel, s, *k = &kernel;
	char why[sizeof(n->first_difference) - 48];
	uint64_t sum_ns;

	*diff_ns = 0;
	if (!matching(cc, tid, waking_ns, k)) {
		n->no_kernel++;
		return CHAIN_NO_KERNEL;
	}
	keep(&s, waking_ns, c);
	differ(k, &s, why, sizeof(why), diff_ns, &sum_ns);
	n->compared++;
	if (why[0]) {
		if (!n->differ++)
			snprintf(n->first_difference, sizeof(n->first_difference), "tid %" PRIu32 " woken at %" PRIu64
				 " ns: %s", tid, waking_ns, why);
		*diff_ns = 0;
		return CHAIN_DIFFERS;
	}
	n->same++;
	n->max_time_diff_ns = *diff_ns > n->max_time_diff_ns ? *diff_ns : n->max_time_diff_ns;
	n->time_diff_ns += sum_ns;
	n->hops += c->nr_hops;
	return CHAIN_SAME;
}

const struct chain_check_counters *chain_check__counters(const struct chain_check *cc)
{
	return &cc->counters;
}

const char *chain_check__verdict_name(enum chain_verdict v)
{
	static const char *const names[NR_CHAIN_VERDICTS] = {
		[CHAIN_SAME] = "same",
		[CHAIN_DIFFERS] = "differs",
		[CHAIN_NO_KERNEL] = "no_kernel_chain",
	};

	return v < NR_CHAIN_VERDICTS ? names[v] : NULL;
}
