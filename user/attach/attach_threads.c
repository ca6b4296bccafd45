// SPDX-License-Identifier: GPL-2.0
/* attach_threads.c - the full engine's threads, in a table by tid (attach_threads.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attach_threads.h"

#define THREADS_INITIAL_BITS	8	/* 256 slots to begin with */

int attach_threads__init(struct attach_threads *th, size_t max)
{
	memset(th, 0, sizeof(*th));
	th->slot_bits = THREADS_INITIAL_BITS;
	th->nr_slots = (size_t)1 << th->slot_bits;
	th->max = max;
	th->slots = calloc(th->nr_slots, sizeof(*th->slots));
	return th->slots ? 0 : -ENOMEM;
}

void attach_threads__fini(struct attach_threads *th)
{
	free(th->slots);
	th->slots = NULL;
}

static size_t home_slot(const struct attach_threads *th, uint32_t tid)
{
	/* Fibonacci hashing: the top bits of the product */
	return (size_t)(((uint64_t)tid * 0x9E3779B97F4A7C15ull) >> (64 - th->slot_bits));
}

struct thread *attach_threads__find(const struct attach_threads *th, uint32_t tid)
{
	size_t mask = th->nr_slots - 1, i;

	if (!tid)
		return NULL;
	for (i = home_slot(th, tid); th->slots[i].tid; i = (i + 1) & mask)
		if (th->slots[i].tid == tid)
			return &th->slots[i];
	return NULL;
}

/* place - put @t in the table (its tid absent), without a check of room */
static struct thread *place(struct attach_threads *th, const struct thread *t)
{
	size_t mask = th->nr_slots - 1, i;

	for (i = home_slot(th, t->tid); th->slots[i].tid; i = (i + 1) & mask)
		;
	th->slots[i] = *t;
	return &th->slots[i];
}

/* grow - twice the slots, every thread placed again; -ENOMEM leaves the table as it was */
static int grow(struct attach_threads *th)
{
	struct thread *old = th->slots;
	size_t old_slots = th->nr_slots, i;

	th->slots = calloc(old_slots * 2, sizeof(*th->slots));
	if (!th->slots) {
		th->slots = old;
		return -ENOMEM;
	}
	th->nr_slots = old_slots * 2;
	th->slot_bits++;
	for (i = 0; i < old_slots; i++)
		if (old[i].tid)
			place(th, &old[i]);
	free(old);
	return 0;
}

bool attach_threads__has_room(struct attach_threads *th)
{
	if (th->count >= th->max)
		return false;
	/* kept at most half full: past that, the probes grow long */
	return (th->count + 1) * 2 <= th->nr_slots || (th->nr_slots < 2 * th->max && !grow(th));
}

struct thread *attach_threads__add(struct attach_threads *th, uint32_t tid, uint64_t ts_ns)
{
	struct thread fresh;

	memset(&fresh, 0, sizeof(fresh));
	fresh.tid = tid;
	fresh.run = RUN_UNKNOWN;
	fresh.wait.nr = -1;
	fresh.last_ns = ts_ns;
	th->count++;
	return place(th, &fresh);
}

void attach_threads__remove(struct attach_threads *th, struct thread *t)
{
	size_t mask = th->nr_slots - 1, hole = (size_t)(t - th->slots), j = hole;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!th->slots[j].tid)
			break;
		home = home_slot(th, th->slots[j].tid);
		/* the entry at j may fill the hole unless its home lies cyclically in (hole, j] */
		if (hole <= j ? (home <= hole || home > j) : (home <= hole && home > j)) {
			th->slots[hole] = th->slots[j];
			hole = j;
		}
	}
	memset(&th->slots[hole], 0, sizeof(th->slots[hole]));
	th->count--;
}

struct thread *attach_threads__least_recent(const struct attach_threads *th)
{
	struct thread *oldest = NULL;
	size_t i;

	for (i = 0; i < th->nr_slots; i++)
		if (th->slots[i].tid && (!oldest || th->slots[i].last_ns < oldest->last_ns))
			oldest = &th->slots[i];
	return oldest;
}
