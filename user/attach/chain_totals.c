// SPDX-License-Identifier: GPL-2.0
/* chain_totals.c - where a pair's waits went, over their chains (chain_totals.h) */
#include <stdlib.h>
#include <string.h>
#include "chain_totals.h"

/* task_add - @ns of task @tid (@comm) into @tt, a row of its own or the least one's */
static void task_add(struct chain_task_times *tt, uint32_t tid, const char *comm, uint64_t ns)
{
	struct chain_task_time *least = NULL;

	if (!ns)
		return;
	for (uint32_t i = 0; i < tt->nr; i++) {
		struct chain_task_time *r = &tt->rows[i];

		if (r->tid == tid) {
			r->ns += ns;
			return;
		}
		if (!least || r->ns < least->ns)
			least = r;
	}
	if (tt->nr < CHAIN_TOTALS_TASKS) {
		least = &tt->rows[tt->nr++];
		memset(least, 0, sizeof(*least));
	} else {
		/* what the replaced task was sure of is kept, as other */
		tt->other_ns += least->ns - least->error;
		least->error = least->ns;
	}
	least->tid = tid;
	memcpy(least->comm, comm, sizeof(least->comm));
	least->ns += ns;
}

void chain_totals__add(struct chain_totals *t, const struct chain *c)
{
	t->chained++;
	if (c->end < NR_CHAIN_ENDS)
		t->ends[c->end]++;
	if (!c->wait_seen)
		return;
	t->waits++;
	t->wait_ns += c->wait_ns;
	if (c->end < NR_CHAIN_ENDS)
		t->rest_ns[c->end] += c->rest_ns;
	for (uint32_t i = 0; i < c->nr_hops; i++) {
		const struct chain_hop *h = &c->hops[i];

		t->ran_ns += h->ran_ns;
		t->preempted_ns += h->preempted_ns;
		t->runnable_ns += h->runnable_ns;
		task_add(&t->holders, h->holder_tid, h->holder_comm, h->runnable_ns);
		task_add(&t->wakers, h->waker_tid, h->waker_comm, h->ran_ns + h->runnable_ns);
	}
}

static int by_time(const void *pa, const void *pb)
{
	const struct chain_task_time *a = *(const struct chain_task_time *const *)pa;
	const struct chain_task_time *b = *(const struct chain_task_time *const *)pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

size_t chain_totals__tasks(const struct chain_task_times *tt, const struct chain_task_time **out, size_t max)
{
	const struct chain_task_time *all[CHAIN_TOTALS_TASKS];
	uint32_t n = 0;

	for (uint32_t i = 0; i < tt->nr; i++)
		all[n++] = &tt->rows[i];
	qsort(all, n, sizeof(*all), by_time);
	if (n > max)
		n = (uint32_t)max;
	memcpy(out, all, n * sizeof(*out));
	return n;
}
