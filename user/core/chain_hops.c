// SPDX-License-Identifier: GPL-2.0
/* chain_hops.c - a chain's hops told of their wakers' own wakeups (chain_hops.h) */
#include <stdlib.h>
#include <string.h>
#include "chain_hops.h"

/*
 * a thread's last wakeup: its waking to its switch-in by cause, and the
 * task that held its CPU longest, where explained; its waker's stacks,
 * where it had them
 */
struct explained {
	uint32_t tid;
	uint64_t waking_ns;
	bool explained;
	bool stacked;
	uint32_t waker_tid;
	struct wp_lean_stacks stacks;
	int64_t by_cause[NR_CAUSES];
	uint32_t task_tid;
	char task_comm[WP_TASK_COMM_LEN];
	uint64_t task_ns;
};

/* a thread's last two: its next wakeup may come before the chain its last is a hop of is read */
struct chain_hops {
	struct explained kept[CHAIN_HOPS_KEPT][2];
};

struct chain_hops *chain_hops__new(void)
{
	return calloc(1, sizeof(struct chain_hops));
}

void chain_hops__free(struct chain_hops *h)
{
	free(h);
}

void chain_hops__remember(struct chain_hops *h, uint32_t tid, uint64_t waking_ns, const struct sample_result *sr,
			  bool explained)
{
	struct explained *place = h->kept[tid % CHAIN_HOPS_KEPT], *x;

	/* the newer of the two goes second */
	if (place[1].tid == tid)
		place[0] = place[1];
	x = &place[1];
	memset(x, 0, sizeof(*x));
	x->tid = tid;
	x->waking_ns = waking_ns;
	x->waker_tid = sr->sample.waker_tid;
	x->stacked = sr->stacked;
	if (sr->stacked)
		x->stacks = sr->stacks;
	x->explained = explained;
	if (!explained)
		return;
	for (int k = 0; k < NR_CAUSES; k++)
		x->by_cause[k] = sr->why.by_phase_cause[PHASE_WAKE_ENQUEUE][k] +
				 sr->why.by_phase_cause[PHASE_RUNQ_WAIT][k];
	for (uint32_t i = 0; i < sr->why.nr_iv; i++) {
		const struct interval *iv = &sr->why.iv[i];

		if (iv->cause != CAUSE_OTHER_TASK || iv->dur_ns <= x->task_ns ||
		    (iv->phase != PHASE_WAKE_ENQUEUE && iv->phase != PHASE_RUNQ_WAIT))
			continue;
		x->task_tid = iv->pid;
		memcpy(x->task_comm, iv->name, sizeof(x->task_comm));
		x->task_ns = iv->dur_ns;
	}
}

void chain_hops__explain(const struct chain_hops *h, const struct wp_lean_link *links, uint64_t waking_ns,
			 struct chain *c)
{
	uint64_t t = waking_ns;

	for (uint32_t i = 0; i < c->nr_hops && c->hops[i].run_seen; i++) {
		const struct explained *place = h->kept[links[i].waker_tid % CHAIN_HOPS_KEPT], *x;
		struct chain_hop *hop = &c->hops[i];
		uint64_t back = wp_lean_span_ns(links[i].ran) + wp_lean_span_ns(links[i].runnable);

		if (back > t)
			return;
		t -= back;
		x = place[1].tid == links[i].waker_tid && place[1].waking_ns == t ? &place[1] : &place[0];
		if (x->tid != links[i].waker_tid || x->waking_ns != t)
			continue;
		/* the wakeup that brought this hop's waker: its waker's stacks are the next hop's */
		if (x->stacked && i + 1 < c->nr_hops && c->hops[i + 1].waker_tid == x->waker_tid) {
			c->hops[i + 1].stacked = true;
			c->hops[i + 1].waker_kernel = x->stacks.waker_kernel;
			c->hops[i + 1].waker_user = x->stacks.waker_user;
			c->hops[i + 1].waker_tgid = x->stacks.waker_tgid;
		}
		if (!x->explained)
			continue;
		hop->runnable_explained = true;
		memcpy(hop->runnable_by_cause, x->by_cause, sizeof(hop->runnable_by_cause));
		hop->runnable_task_tid = x->task_tid;
		memcpy(hop->runnable_task_comm, x->task_comm, sizeof(hop->runnable_task_comm));
		hop->runnable_task_ns = x->task_ns;
	}
}
