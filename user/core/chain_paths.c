// SPDX-License-Identifier: GPL-2.0
/* chain_paths.c - the critical paths' time by the stacks and tasks that held it (chain_paths.h) */
#include <string.h>
#include "chain_paths.h"

#define INDEX_SLOTS	(2 * CHAIN_PATHS_MAX)

static uint64_t mix(uint64_t h, const void *data, size_t len)
{
	const unsigned char *b = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_of(const struct chain_path *k)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = mix(h, k->wakee, sizeof(k->wakee));
	h = mix(h, k->who, sizeof(k->who));
	h = mix(h, k->behind, sizeof(k->behind));
	h = mix(h, &k->part, sizeof(k->part));
	h = mix(h, &k->end, sizeof(k->end));
	h = mix(h, &k->stacked, sizeof(k->stacked));
	h = mix(h, &k->waker_kernel, sizeof(k->waker_kernel));
	h = mix(h, &k->waker_user, sizeof(k->waker_user));
	return mix(h, &k->waker_tgid, sizeof(k->waker_tgid));
}

static bool same(const struct chain_path *a, const struct chain_path *b)
{
	return !memcmp(a->wakee, b->wakee, sizeof(a->wakee)) && !memcmp(a->who, b->who, sizeof(a->who)) &&
	       !memcmp(a->behind, b->behind, sizeof(a->behind)) && a->part == b->part && a->end == b->end &&
	       a->stacked == b->stacked && a->waker_kernel == b->waker_kernel && a->waker_user == b->waker_user &&
	       a->waker_tgid == b->waker_tgid;
}

/* add - @ns to the row of path @k, made if there is room; else to other */
static void add(struct chain_paths *p, const struct chain_path *k, uint64_t ns)
{
	uint64_t h = hash_of(k);

	if (!ns)
		return;
	for (uint32_t probe = 0; probe < INDEX_SLOTS; probe++) {
		uint16_t *slot = &p->index[(h + probe) % INDEX_SLOTS];
		struct chain_path *r;

		if (!*slot) {
			if (p->n == CHAIN_PATHS_MAX)
				break;
			r = &p->rows[p->n++];
			*r = *k;
			r->ns = 0;
			r->count = 0;
			*slot = (uint16_t)p->n;
		}
		r = &p->rows[*slot - 1];
		if (same(r, k)) {
			r->ns += ns;
			r->count++;
			return;
		}
	}
	p->other_ns += ns;
}

/* name - @comm into @out, whole and terminated */
static void name(char out[WP_TASK_COMM_LEN], const char *comm)
{
	memset(out, 0, WP_TASK_COMM_LEN);
	memcpy(out, comm, strnlen(comm, WP_TASK_COMM_LEN - 1));
}

void chain_paths__add(struct chain_paths *p, const char *wakee, const struct chain *c)
{
	struct chain_path k;

	if (!c->wait_seen)
		return;
	for (uint32_t i = 0; i < c->nr_hops; i++) {
		const struct chain_hop *h = &c->hops[i];

		if (!h->run_seen)
			continue;
		memset(&k, 0, sizeof(k));
		name(k.wakee, wakee);
		name(k.who, h->waker_comm[0] ? h->waker_comm : "?");
		k.part = CHAIN_PATH_RAN;
		k.stacked = h->stacked;
		if (h->stacked) {
			k.waker_kernel = h->waker_kernel;
			k.waker_user = h->waker_user;
			k.waker_tgid = h->waker_tgid;
		}
		add(p, &k, h->ran_ns);
		k.part = CHAIN_PATH_WAITED;
		k.stacked = false;
		k.waker_kernel = k.waker_user = 0;
		k.waker_tgid = 0;
		if (h->holder_tid)
			name(k.behind, h->holder_comm[0] ? h->holder_comm : "?");
		add(p, &k, h->runnable_ns);
	}
	memset(&k, 0, sizeof(k));
	name(k.wakee, wakee);
	k.part = CHAIN_PATH_REST;
	k.end = (uint8_t)c->end;
	add(p, &k, c->rest_ns);
}
