// SPDX-License-Identifier: GPL-2.0
/*
 * chain.c - a wakeup's chain, from the links its record carries (chain.h)
 */
#include <string.h>
#include "chain.h"

/* take - up to @want of what is left of the wait, @left (UINT64_MAX: the wait was not seen) */
static uint64_t take(uint64_t want, uint64_t *left)
{
	uint64_t got = want < *left ? want : *left;

	if (*left != UINT64_MAX)
		*left -= got;
	return got;
}

/* ending - the end a link of @kind makes, which no thread's run goes on from; NR_CHAIN_ENDS: it goes on */
static enum chain_end ending(uint8_t kind)
{
	switch (kind) {
	case WP_LINK_THREAD:
	case WP_LINK_RAISED:
	case WP_LINK_NEW:
		return NR_CHAIN_ENDS;
	case WP_LINK_UNTRACED:
		return CHAIN_END_UNTRACED;
	case WP_LINK_IRQ:
		return CHAIN_END_INTERRUPT;
	case WP_LINK_SOFTIRQ:
		return CHAIN_END_SOFTIRQ;
	case WP_LINK_UNSURE:
		return CHAIN_END_UNSURE;
	default:
		return CHAIN_END_LOST;
	}
}

/* in_chain - is @tid the wakee's, or a waker's before hop @n? */
static bool in_chain(const struct chain *c, uint32_t wakee_tid, uint32_t n, uint32_t tid)
{
	if (tid == wakee_tid)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (c->hops[i].waker_tid == tid)
			return true;
	return false;
}

/* end_at - @c ends so, with what is left of its wait, @left */
static uint32_t end_at(struct chain *c, enum chain_end end, uint64_t left)
{
	c->end = end;
	c->rest_ns = c->wait_seen ? left : 0;
	return c->nr_hops;
}

uint32_t chain__assemble(const struct wp_lean_link *links, uint32_t nr, uint32_t wakee_tid, struct chain *c)
{
	uint64_t left;

	memset(c, 0, sizeof(*c));
	if (nr > CHAIN_HOPS)
		nr = CHAIN_HOPS;
	if (!nr || links[0].kind == WP_LINK_NONE || links[0].wakee_tid != wakee_tid)
		return end_at(c, CHAIN_END_LOST, 0);
	c->wait_seen = links[0].blocked != 0;
	c->wait_ns = wp_lean_span_ns(links[0].blocked);
	left = c->wait_seen ? c->wait_ns : UINT64_MAX;
	for (uint32_t i = 0; i < nr; i++) {
		const struct wp_lean_link *l = &links[i];
		struct chain_hop *h = &c->hops[c->nr_hops];
		enum chain_end end = ending(l->kind);
		uint64_t ran;

		/* each link's wakee is the waker of the one before it */
		if (l->kind == WP_LINK_NONE || (i && l->wakee_tid != links[i - 1].waker_tid))
			return end_at(c, CHAIN_END_LOST, left);
		if (end == NR_CHAIN_ENDS && in_chain(c, wakee_tid, c->nr_hops, l->waker_tid))
			return end_at(c, CHAIN_END_CYCLE, left);
		c->nr_hops++;
		h->waker_tid = l->waker_tid;
		h->wakee_tid = l->wakee_tid;
		h->kind = l->kind;
		h->nr = l->nr;
		h->fd_kind = l->fd_kind;
		h->blocked_ns = wp_lean_span_ns(l->blocked);
		if (end != NR_CHAIN_ENDS)
			return end_at(c, end, left);
		h->run_seen = l->ran != 0;
		if (!h->run_seen)
			return end_at(c, CHAIN_END_NOT_BLOCKED, left);
		ran = wp_lean_span_ns(l->ran);
		h->ran_ns = take(ran, &left);
		h->clipped = h->ran_ns < ran;
		h->preempted_ns = h->clipped ? 0 : l->preempted;
		h->holder_tid = l->holder_tid;
		h->cpu = l->cpu;
		if (!h->clipped) {
			uint64_t runnable = wp_lean_span_ns(l->runnable);

			h->runnable_ns = take(runnable, &left);
			h->clipped = h->runnable_ns < runnable;
		}
		if (h->clipped || !left)
			return end_at(c, CHAIN_END_SLEEP, 0);
	}
	return end_at(c, CHAIN_END_DEPTH, left);
}

uint64_t chain__on_path_ns(const struct chain *c)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < c->nr_hops; i++)
		sum += c->hops[i].ran_ns + c->hops[i].runnable_ns;
	return sum;
}

static const char *const end_names[NR_CHAIN_ENDS] = {
	[CHAIN_END_SLEEP] = "sleep",
	[CHAIN_END_INTERRUPT] = "interrupt",
	[CHAIN_END_SOFTIRQ] = "softirq",
	[CHAIN_END_UNSURE] = "unsure",
	[CHAIN_END_UNTRACED] = "untraced",
	[CHAIN_END_NOT_BLOCKED] = "not_blocked",
	[CHAIN_END_CYCLE] = "cycle",
	[CHAIN_END_DEPTH] = "depth",
	[CHAIN_END_LOST] = "lost",
};

static const char *const end_meanings[NR_CHAIN_ENDS] = {
	[CHAIN_END_SLEEP] = "it reached back to the wakee's sleep: the hops hold the whole wait",
	[CHAIN_END_INTERRUPT] = "an interrupt or a timer woke the last waker: the rest it was blocked",
	[CHAIN_END_SOFTIRQ] = "a softirq no thread raised woke the last waker: the rest it was blocked",
	[CHAIN_END_UNSURE] = "the context of the last waker's waking could not be read",
	[CHAIN_END_UNTRACED] = "the last waker is not traced: what it did before is not known",
	[CHAIN_END_NOT_BLOCKED] = "the last waker was not seen to sleep: it ran all along",
	[CHAIN_END_CYCLE] = "a task already in the chain woke the last waker: a ping-pong",
	[CHAIN_END_DEPTH] = "the hops the kernel carries ran out",
	[CHAIN_END_LOST] = "a link is missing, or does not join the one before it",
};

_Static_assert(sizeof(end_names) / sizeof(end_names[0]) == NR_CHAIN_ENDS, "a name for each end");

const char *chain__end_name(enum chain_end end)
{
	return end < NR_CHAIN_ENDS ? end_names[end] : "?";
}

const char *chain__end_meaning(enum chain_end end)
{
	return end < NR_CHAIN_ENDS ? end_meanings[end] : "?";
}
