// SPDX-License-Identifier: GPL-2.0
/* series_cap.c - the top keys by time get a series each, the rest one "other" (series_cap.h) */
#define _GNU_SOURCE	/* qsort_r */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "series_cap.h"

#define NO_SERIES	UINT32_MAX

/* a key ranked: its score at the last settle, its weight since, and the series it has */
struct candidate {
	char key[SERIES_KEY_LEN];
	uint64_t hash;
	double score;
	uint64_t pending;
	uint32_t series;		/* NO_SERIES: none */
};

struct series {
	uint32_t row;			/* its key's candidate */
	uint64_t since_ns;		/* when it got its label */
	bool provisional;		/* labelled on a free series before a settle ranked it: no tenure */
};

/* a key that lost its series, and its data as it stood */
struct retired {
	char key[SERIES_KEY_LEN];
	uint64_t hash;			/* 0 with an empty key: a free slot */
};

struct series_cap {
	struct series_cap_opts o;
	size_t stride;			/* data_size, rounded up to keep every data aligned */
	struct candidate *rows;
	uint32_t nr_rows;
	uint32_t *index;		/* open addressing by hash: 1 + row, 0 free */
	uint32_t index_mask;
	struct series *series;
	uint32_t nr_series;
	uint32_t *order;		/* the series in the order of their keys */
	unsigned char *data;		/* limit series' data, then "other"'s */
	struct retired *retired;	/* candidates of them, oldest overwritten first */
	unsigned char *retired_data;
	uint32_t retired_next;
	uint64_t settled_ns;		/* the last settle, if settled */
	bool settled;
	struct series_cap_stats stats;
};

#define DEFAULT_HALF_LIFE_NS	(5ull * 60 * 1000000000)
#define DEFAULT_TENURE_NS	(60ull * 1000000000)

static void *data_of(const struct series_cap *c, uint32_t series)
{
	return c->data + (size_t)series * c->stride;
}

static void *retired_data_of(const struct series_cap *c, uint32_t i)
{
	return c->retired_data + (size_t)i * c->stride;
}

struct series_cap *series_cap__new(const struct series_cap_opts *o)
{
	struct series_cap *c;
	uint32_t slots = 1;

	if (!o->limit)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = *o;
	if (!c->o.candidates)
		c->o.candidates = o->limit * 8 > 64 ? o->limit * 8 : 64;
	if (c->o.candidates < o->limit)
		c->o.candidates = o->limit;
	if (!c->o.half_life_ns)
		c->o.half_life_ns = DEFAULT_HALF_LIFE_NS;
	if (!c->o.tenure_ns)
		c->o.tenure_ns = DEFAULT_TENURE_NS;
	c->stride = (o->data_size + 15) & ~(size_t)15;
	if (!c->stride)
		c->stride = 16;
	while (slots < 2 * c->o.candidates)
		slots <<= 1;
	c->index_mask = slots - 1;
	c->rows = calloc(c->o.candidates, sizeof(*c->rows));
	c->index = calloc(slots, sizeof(*c->index));
	c->series = calloc(o->limit, sizeof(*c->series));
	c->order = calloc(o->limit, sizeof(*c->order));
	c->data = calloc((size_t)o->limit + 1, c->stride);
	c->retired = calloc(c->o.candidates, sizeof(*c->retired));
	c->retired_data = calloc(c->o.candidates, c->stride);
	if (!c->rows || !c->index || !c->series || !c->order || !c->data || !c->retired || !c->retired_data) {
		series_cap__free(c);
		return NULL;
	}
	return c;
}

void series_cap__free(struct series_cap *c)
{
	if (!c)
		return;
	free(c->rows);
	free(c->index);
	free(c->series);
	free(c->order);
	free(c->data);
	free(c->retired);
	free(c->retired_data);
	free(c);
}

/* FNV-1a; never 0, which marks a free retired slot */
uint64_t series_cap__hash(const char *key)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; key[i] && i < SERIES_KEY_LEN - 1; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
	return h ? h : 1;
}

static bool same_key(const char *stored, const char *key)
{
	return !strncmp(stored, key, SERIES_KEY_LEN - 1);
}

/* find - @key's row, or NO_SERIES; *@slot the index slot it is in, or the free one it would take */
static uint32_t find(const struct series_cap *c, const char *key, uint64_t hash, uint32_t *slot)
{
	uint32_t i = (uint32_t)hash & c->index_mask;

	for (; c->index[i]; i = (i + 1) & c->index_mask) {
		const struct candidate *r = &c->rows[c->index[i] - 1];

		if (r->hash == hash && same_key(r->key, key)) {
			*slot = i;
			return c->index[i] - 1;
		}
	}
	*slot = i;
	return NO_SERIES;
}

static void label(struct series_cap *c, uint32_t row, uint32_t s, uint64_t now_ns);
static void sort_order(struct series_cap *c);

void *series_cap__add(struct series_cap *c, const char *key, uint64_t hash, uint64_t weight)
{
	struct candidate *r;
	uint32_t slot, row = find(c, key, hash, &slot);

	if (row == NO_SERIES) {
		if (c->nr_rows == c->o.candidates) {
			c->stats.unranked++;
			return data_of(c, c->o.limit);
		}
		row = c->nr_rows++;
		r = &c->rows[row];
		memset(r, 0, sizeof(*r));
		strncpy(r->key, key, SERIES_KEY_LEN - 1);
		r->hash = hash;
		r->series = NO_SERIES;
		c->index[slot] = row + 1;
	}
	r = &c->rows[row];
	r->pending += weight;
	/* a free series needs no ranking: the key has it from its first wakeup on */
	if (r->series == NO_SERIES && c->nr_series < c->o.limit) {
		label(c, row, c->nr_series, c->settled_ns);
		c->series[c->nr_series].provisional = true;
		c->nr_series++;
		sort_order(c);
	}
	return data_of(c, r->series == NO_SERIES ? c->o.limit : r->series);
}

/* retire - series @s loses its key, whose data is kept among the retired */
static void retire(struct series_cap *c, uint32_t s)
{
	struct candidate *r = &c->rows[c->series[s].row];
	uint32_t i = c->retired_next++ % c->o.candidates;

	memcpy(c->retired[i].key, r->key, SERIES_KEY_LEN);
	c->retired[i].hash = r->hash;
	memcpy(retired_data_of(c, i), data_of(c, s), c->o.data_size);
	/* one retired longer ago, overwritten here, stays out of every row: still counted */
	if (c->o.count)
		c->stats.retired += c->o.count(data_of(c, s));
	r->series = NO_SERIES;
	c->stats.demoted++;
}

/* label - row @row gets series @s: its retired data back, or zeroes */
static void label(struct series_cap *c, uint32_t row, uint32_t s, uint64_t now_ns)
{
	struct candidate *r = &c->rows[row];

	memset(data_of(c, s), 0, c->stride);
	for (uint32_t i = 0; i < c->o.candidates; i++) {
		struct retired *t = &c->retired[i];

		if (t->hash == r->hash && same_key(t->key, r->key)) {
			memcpy(data_of(c, s), retired_data_of(c, i), c->o.data_size);
			if (c->o.count)
				c->stats.retired -= c->o.count(data_of(c, s));
			t->hash = 0;
			t->key[0] = '\0';
			c->stats.restored++;
			break;
		}
	}
	r->series = s;
	c->series[s].row = row;
	c->series[s].since_ns = now_ns;
	c->series[s].provisional = false;
	c->stats.promoted++;
}

/* best_unlabelled - the row without a series with the highest score above 0 at @now_ns; NO_SERIES: none */
static uint32_t best_unlabelled(const struct series_cap *c)
{
	uint32_t best = NO_SERIES;

	for (uint32_t i = 0; i < c->nr_rows; i++)
		if (c->rows[i].series == NO_SERIES && c->rows[i].score > 0 &&
		    (best == NO_SERIES || c->rows[i].score > c->rows[best].score))
			best = i;
	return best;
}

/* worst_labelled - the series whose key scores least, of those labelled for their tenure; NO_SERIES: none */
static uint32_t worst_labelled(const struct series_cap *c, uint64_t now_ns)
{
	uint32_t worst = NO_SERIES;

	for (uint32_t s = 0; s < c->nr_series; s++) {
		if (!c->series[s].provisional && now_ns - c->series[s].since_ns < c->o.tenure_ns)
			continue;
		if (worst == NO_SERIES || c->rows[c->series[s].row].score < c->rows[c->series[worst].row].score)
			worst = s;
	}
	return worst;
}

static int by_score(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	/* those with a series first, then the best */
	if ((x->series == NO_SERIES) != (y->series == NO_SERIES))
		return x->series == NO_SERIES ? 1 : -1;
	return x->score < y->score ? 1 : x->score > y->score ? -1 : 0;
}

/* forget - more than three quarters of the rows taken: keep those with a series and the best, half in all */
static void forget(struct series_cap *c)
{
	uint32_t keep = c->o.candidates / 2;

	if (c->nr_rows * 4 <= c->o.candidates * 3)
		return;
	qsort(c->rows, c->nr_rows, sizeof(*c->rows), by_score);
	if (keep < c->nr_series)
		keep = c->nr_series;
	c->nr_rows = keep;
	memset(c->index, 0, (size_t)(c->index_mask + 1) * sizeof(*c->index));
	for (uint32_t row = 0; row < c->nr_rows; row++) {
		struct candidate *r = &c->rows[row];
		uint32_t slot;

		find(c, r->key, r->hash, &slot);
		c->index[slot] = row + 1;
		if (r->series != NO_SERIES)
			c->series[r->series].row = row;
	}
}

static int by_key(const void *a, const void *b, void *ctx)
{
	const struct series_cap *c = ctx;

	return strcmp(c->rows[c->series[*(const uint32_t *)a].row].key,
		      c->rows[c->series[*(const uint32_t *)b].row].key);
}

void series_cap__settle(struct series_cap *c, uint64_t now_ns)
{
	double fade = c->settled && now_ns > c->settled_ns ?
		exp2(-(double)(now_ns - c->settled_ns) / (double)c->o.half_life_ns) : 1;
	uint32_t best, worst;

	/* the weight since the last settle counts whole: the score fades from one settle to the next */
	for (uint32_t i = 0; i < c->nr_rows; i++) {
		c->rows[i].score = c->rows[i].score * fade + (double)c->rows[i].pending;
		c->rows[i].pending = 0;
	}
	c->settled_ns = now_ns;
	c->settled = true;
	while (c->nr_series < c->o.limit && (best = best_unlabelled(c)) != NO_SERIES) {
		label(c, best, c->nr_series, now_ns);
		c->nr_series++;
	}
	while ((best = best_unlabelled(c)) != NO_SERIES && (worst = worst_labelled(c, now_ns)) != NO_SERIES &&
	       c->rows[best].score > 2 * c->rows[c->series[worst].row].score) {
		retire(c, worst);
		label(c, best, worst, now_ns);
	}
	forget(c);
	/* ranked now: the tenure of those labelled on a free series starts */
	for (uint32_t s = 0; s < c->nr_series; s++)
		if (c->series[s].provisional) {
			c->series[s].provisional = false;
			c->series[s].since_ns = now_ns;
		}
	sort_order(c);
}

static void sort_order(struct series_cap *c)
{
	for (uint32_t s = 0; s < c->nr_series; s++)
		c->order[s] = s;
	qsort_r(c->order, c->nr_series, sizeof(*c->order), by_key, c);
}

size_t series_cap__count(const struct series_cap *c)
{
	return c->nr_series;
}

const char *series_cap__key(const struct series_cap *c, size_t i)
{
	return c->rows[c->series[c->order[i]].row].key;
}

const void *series_cap__data(const struct series_cap *c, size_t i)
{
	return data_of(c, c->order[i]);
}

const void *series_cap__other(const struct series_cap *c)
{
	return data_of(c, c->o.limit);
}

uint32_t series_cap__limit(const struct series_cap *c)
{
	return c->o.limit;
}

void series_cap__stats(const struct series_cap *c, struct series_cap_stats *out)
{
	*out = c->stats;
	out->keys = c->nr_rows;
}
