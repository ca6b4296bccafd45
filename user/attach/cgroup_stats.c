// SPDX-License-Identifier: GPL-2.0
/* cgroup_stats.c - complete wakeups by wakee cgroup, by holder, by waker cgroup (cgroup_stats.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup_stats.h"

/* the wakeups in each kind of series, for what the retired keys hold (series_cap.h) */
static uint64_t cgroup_count(const void *data)
{
	return ((const struct cgroup_series *)data)->wake_to_run.count;
}

static uint64_t holder_count(const void *data)
{
	return ((const struct holder_series *)data)->wakeups;
}

static uint64_t pair_count(const void *data)
{
	return ((const struct pair_series *)data)->wakeups;
}

static struct series_cap *cap_of(uint32_t top, size_t data_size, uint64_t (*count)(const void *data))
{
	struct series_cap_opts o = { .limit = top, .data_size = data_size, .count = count };

	return series_cap__new(&o);
}

struct cgroup_stats *cgroup_stats__new(struct cgroup_names *names, uint32_t top)
{
	struct cgroup_stats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->names = names;
	s->epoch = 1;
	s->cgroups = cap_of(top, sizeof(struct cgroup_series), cgroup_count);
	s->holders = cap_of(top, sizeof(struct holder_series), holder_count);
	s->pairs = cap_of(top, sizeof(struct pair_series), pair_count);
	if (!s->cgroups || !s->holders || !s->pairs) {
		cgroup_stats__free(s);
		return NULL;
	}
	return s;
}

void cgroup_stats__free(struct cgroup_stats *s)
{
	if (!s)
		return;
	series_cap__free(s->cgroups);
	series_cap__free(s->holders);
	series_cap__free(s->pairs);
	series_cap__free(s->chain_held);
	free(s->tids);
	free(s);
}

int cgroup_stats__want_chains(struct cgroup_stats *s)
{
	s->chain_held = series_cap__new(&(struct series_cap_opts){ .limit = series_cap__limit(s->cgroups),
								     .data_size = sizeof(struct chain_held_series) });
	s->tids = calloc(CGROUP_TIDS, sizeof(*s->tids));
	return s->chain_held && s->tids ? 0 : -ENOMEM;
}


/* label_of - the label of cgroup @id (it stays until the next settle), or @none for id 0 */
static const char *label_of(struct cgroup_stats *s, uint64_t id, const char *none, uint64_t *hash)
{
	const struct cgroup_name *c = id ? cgroup_names__get(s->names, id) : NULL;

	if (hash)
		*hash = c ? c->hash : series_cap__hash(none);
	return c ? c->label : none;
}

/*
 * append - @s at @at of @buf (@end its end), cut there; past it. A part
 * never holds the separator, so that a key splits back into the parts it
 * was made of: a cgroup label has no control byte (cgroup_label.h), and
 * one in anything else is written '?'.
 */
static char *append(char *at, const char *end, const char *s)
{
	size_t n = strlen(s);

	if (n > (size_t)(end - at))
		n = (size_t)(end - at);
	memcpy(at, s, n);
	for (char *sep = memchr(at, CGROUP_STATS_SEP, n); sep; sep = memchr(sep, CGROUP_STATS_SEP, at + n - sep))
		*sep = '?';
	return at + n;
}

/*
 * joined - @a, @b and @c (NULL: two) into one key @buf, CGROUP_STATS_SEP
 * between: built by hand, a formatting a wakeup is what a machine's worth
 * of them cannot pay
 */
static const char *joined(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	const char *end = buf + len - 1;
	char *at = append(buf, end, a);

	if (at < end)
		*at++ = CGROUP_STATS_SEP;
	at = append(at, end, b);
	if (c) {
		if (at < end)
			*at++ = CGROUP_STATS_SEP;
		at = append(at, end, c);
	}
	*at = '\0';
	return buf;
}

/*
 * key_of - the key of the cgroups @ids[0] and @ids[1] (their labels, or
 * @none0 and @none1 for an id 0) and of @c (NULL: none): from @memo when
 * made since the last settle, else made and kept
 */
static const struct cgroup_key_memo *key_of(struct cgroup_stats *s, struct cgroup_key_memo *memo,
					    const uint64_t ids[3], const char *none0, const char *none1, const char *c)
{
	uint64_t h = (ids[0] * 0x9e3779b97f4a7c15ull) ^ (ids[1] * 0xc2b2ae3d27d4eb4full) ^ ids[2];
	struct cgroup_key_memo *m = &memo[(h ^ (h >> 29)) % CGROUP_KEY_MEMO];

	if (m->epoch == s->epoch && !memcmp(m->ids, ids, sizeof(m->ids)))
		return m;
	memcpy(m->ids, ids, sizeof(m->ids));
	joined(m->key, sizeof(m->key), label_of(s, ids[0], none0, NULL), label_of(s, ids[1], none1, NULL), c);
	m->hash = series_cap__hash(m->key);
	m->epoch = s->epoch;
	return m;
}

/* learn - @tid was in cgroup @id when a record named it */
static void learn(struct cgroup_stats *s, uint32_t tid, uint64_t id)
{
	if (tid && id)
		s->tids[tid % CGROUP_TIDS] = (struct tid_cgroup){ .tid = tid, .id = id };
}

/* cgroup_of - @tid's cgroup as a record last gave it; 0: none did */
static uint64_t cgroup_of(const struct cgroup_stats *s, uint32_t tid)
{
	const struct tid_cgroup *t = &s->tids[tid % CGROUP_TIDS];

	return tid && t->tid == tid ? t->id : 0;
}

/* held - @ns of wakee cgroup @wakee's critical path that cgroup @other held (@ran: a run; else a wait behind it) */
static void held(struct cgroup_stats *s, uint64_t wakee, uint64_t other, uint64_t ns, bool ran)
{
	const struct cgroup_key_memo *k;
	struct chain_held_series *h;

	if (!ns || other == wakee)
		return;
	k = key_of(s, s->chain_keys, (const uint64_t[3]){ wakee, other, 0 }, "unknown", "unknown", NULL);
	h = series_cap__add(s->chain_held, k->key, k->hash, ns);
	if (ran)
		h->ran_ns += ns;
	else
		h->runnable_ns += ns;
}

/* add_chain - the hops of @r's chain run by, or waiting behind, tasks of other cgroups than its wakee's */
static void add_chain(struct cgroup_stats *s, const struct attach_result *r)
{
	const struct wp_lean_cgroups *cg = &r->cgroups;

	learn(s, r->sr.sample.wakee_tid, cg->wakee);
	learn(s, r->sr.sample.waker_tid, cg->waker);
	learn(s, cg->holder_tid, cg->holder);
	if (!r->chained)
		return;
	for (uint32_t i = 0; i < r->chain.nr_hops; i++) {
		const struct chain_hop *h = &r->chain.hops[i];

		if (!h->run_seen)
			continue;
		held(s, cg->wakee, cgroup_of(s, h->waker_tid), h->ran_ns, true);
		if (h->holder_tid)
			held(s, cg->wakee, cgroup_of(s, h->holder_tid), h->runnable_ns, false);
	}
}

void cgroup_stats__add(struct cgroup_stats *s, const struct attach_result *r)
{
	const struct wp_lean_cgroups *cg = &r->cgroups;
	uint64_t took, runq, hash;
	const char *wakee, *family;
	const struct cgroup_key_memo *k;
	struct cgroup_series *c;
	struct holder_series *h;
	struct pair_series *p;

	if (!r->cgrouped || r->sr.label != LABEL_COMPLETE || r->wake_to_run_ns < 0)
		return;
	took = (uint64_t)r->wake_to_run_ns;
	runq = r->sr.phase_ns[PHASE_RUNQ_WAIT] > 0 ? (uint64_t)r->sr.phase_ns[PHASE_RUNQ_WAIT] : 0;
	wakee = label_of(s, cg->wakee, "unknown", &hash);
	family = mechanism__family_name(r->family < NR_MECH_FAMILIES ? r->family : MECH_UNKNOWN);

	s->wakeups++;
	s->runq_wait_ns += runq;
	c = series_cap__add(s->cgroups, wakee, hash, took);
	slow_hist__add(&c->wake_to_run, took);
	c->runq_wait_ns += runq;
	if (!cg->holder) {
		c->idle_ns += runq;
	} else if (cg->holder != cg->wakee) {
		c->neighbour_ns += runq;
		s->neighbour_ns += runq;
	}
	k = key_of(s, s->holder_keys, (const uint64_t[3]){ cg->wakee, cg->holder, 0 }, "unknown", CGROUP_IDLE_LABEL,
		   NULL);
	h = series_cap__add(s->holders, k->key, k->hash, runq);
	h->wakeups++;
	h->runq_wait_ns += runq;
	k = key_of(s, s->pair_keys, (const uint64_t[3]){ cg->waker, cg->wakee, r->family }, CGROUP_IRQ_LABEL,
		   "unknown", family);
	p = series_cap__add(s->pairs, k->key, k->hash, took);
	p->wakeups++;
	p->wake_to_run_ns += took;
	if (r->family < NR_MECH_FAMILIES) {
		s->by_family[r->family].wakeups++;
		s->by_family[r->family].wake_to_run_ns += took;
	}
	if (s->chain_held)
		add_chain(s, r);
}

void cgroup_stats__add_sums(struct cgroup_stats *s, const struct lean_sums_delta *d)
{
	const struct cgroup_key_memo *k;
	uint64_t hash;

	for (size_t i = 0; i < d->nr_cgroups; i++) {
		const struct lean_sums_cgroup *cg = &d->cgroups[i];
		const char *wakee = label_of(s, cg->id, "unknown", &hash);
		struct cgroup_series *c = series_cap__add(s->cgroups, wakee, hash, cg->sum_ns);

		slow_hist__add_buckets(&c->wake_to_run, cg->buckets, cg->count, cg->sum_ns, cg->max_ns);
	}
	for (size_t i = 0; i < d->nr_keyed; i++) {
		const struct wp_sum_key *key = &d->keyed[i].k;
		const struct wp_sum_val *v = &d->keyed[i].d;
		enum mech_family f = key->family < NR_MECH_FAMILIES ? (enum mech_family)key->family : MECH_UNKNOWN;
		const char *wakee = label_of(s, key->wakee, "unknown", &hash);
		/* the wakee's series, its time ranked above with its histogram */
		struct cgroup_series *c = series_cap__add(s->cgroups, wakee, hash, 0);
		struct holder_series *h;
		struct pair_series *p;

		s->wakeups += v->wakeups;
		s->runq_wait_ns += v->runq_wait_ns;
		c->runq_wait_ns += v->runq_wait_ns;
		if (!key->holder) {
			c->idle_ns += v->runq_wait_ns;
		} else if (key->holder != key->wakee) {
			c->neighbour_ns += v->runq_wait_ns;
			s->neighbour_ns += v->runq_wait_ns;
		}
		k = key_of(s, s->holder_keys, (const uint64_t[3]){ key->wakee, key->holder, 0 }, "unknown",
			   CGROUP_IDLE_LABEL, NULL);
		h = series_cap__add(s->holders, k->key, k->hash, v->runq_wait_ns);
		h->wakeups += v->wakeups;
		h->runq_wait_ns += v->runq_wait_ns;
		k = key_of(s, s->pair_keys, (const uint64_t[3]){ key->waker, key->wakee, f }, CGROUP_IRQ_LABEL,
			   "unknown", mechanism__family_name(f));
		p = series_cap__add(s->pairs, k->key, k->hash, v->wake_to_run_ns);
		p->wakeups += v->wakeups;
		p->wake_to_run_ns += v->wake_to_run_ns;
		s->by_family[f].wakeups += v->wakeups;
		s->by_family[f].wake_to_run_ns += v->wake_to_run_ns;
	}
}

void cgroup_stats__settle(struct cgroup_stats *s, uint64_t now_ns)
{
	/* between two wakeups: the names a wakeup holds may go now, and the keys made of them */
	cgroup_names__tidy(s->names);
	s->epoch++;
	series_cap__settle(s->cgroups, now_ns);
	series_cap__settle(s->holders, now_ns);
	series_cap__settle(s->pairs, now_ns);
	if (s->chain_held)
		series_cap__settle(s->chain_held, now_ns);
}

size_t cgroup_stats__split(const char *key, char *buf, size_t len, const char **parts, size_t max)
{
	size_t n = 0;
	char *at;

	snprintf(buf, len, "%s", key);
	for (at = buf; n < max; n++) {
		char *sep = strchr(at, CGROUP_STATS_SEP);

		parts[n] = at;
		if (!sep) {
			n++;
			break;
		}
		*sep = '\0';
		at = sep + 1;
	}
	return n;
}

const void *cgroup_stats__series(const struct series_cap *cap, size_t i, char *buf, size_t len, const char **parts,
				 size_t max)
{
	bool other = i == series_cap__count(cap);
	size_t n = other ? 0 : cgroup_stats__split(series_cap__key(cap, i), buf, len, parts, max);

	for (; n < max; n++)
		parts[n] = "other";
	return other ? series_cap__other(cap) : series_cap__data(cap, i);
}
