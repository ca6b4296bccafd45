// SPDX-License-Identifier: GPL-2.0
/* chain_paths.c - the critical paths' time by the stacks and tasks that held it (chain_paths.h) */
#include <stddef.h>
#include <string.h>
#include "chain_paths.h"
#include "hash.h"

#define INDEX_SLOTS	(2 * CHAIN_PATHS_MAX)

/* the key of a path: its members before its sums, every byte set (a key is zeroed first) */
#define KEY_LEN	offsetof(struct chain_path, ns)

/* add - @ns to the row of path @k, made if there is room; else to other */
static void add(struct chain_paths *p, const struct chain_path *k, uint64_t ns)
{
	uint64_t h = hash__fnv1a(HASH_FNV_BASIS, k, KEY_LEN);

	if (!ns)
		return;
	for (uint32_t probe = 0; probe < INDEX_SLOTS; probe++) {
		uint16_t *slot = &p->index[(h + probe) % INDEX_SLOTS];
		struct chain_path *r;

		if (!*slot) {
			if (p->n == CHAIN_PATHS_MAX)
				break;
			r = &p->rows[p->n++];
			memcpy(r, k, KEY_LEN);
			r->ns = 0;
			r->count = 0;
			*slot = (uint16_t)p->n;
		}
		r = &p->rows[*slot - 1];
		if (!memcmp(r, k, KEY_LEN)) {
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
