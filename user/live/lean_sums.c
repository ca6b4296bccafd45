// SPDX-License-Identifier: GPL-2.0
/* lean_sums.c - a service's sums read back as what grew since the last take */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "hash.h"
#include "lean_sums.h"

#define KEY_MAX		24

/* the copy of one entry as the last take read it */
struct copy {
	uint8_t key[KEY_MAX];
	uint64_t *value;	/* NULL: a free slot */
};

/*
 * The copies of one map's entries, open addressing on twice its entries
 * (a power of two), deleted by shifting back the ones after (no
 * tombstones: a day of cgroups made and removed leaves none behind)
 */
struct copies {
	struct copy *slots;
	uint32_t mask;
	uint32_t used;
	size_t key_len;
	size_t words;		/* the value's, in u64s */
};

enum { MAP_CGROUPS, MAP_HOLDERS, MAP_PAIRS, NR_MAPS };

struct lean_sums {
	struct copies copies[NR_MAPS];
	struct wp_sum_counts counts;			/* the run's so far, every CPU's */
	struct wp_sum_hist hists[WP_SUM_HISTS];
	struct lean_sums_delta delta;
	size_t cap_cgroups, cap_holders, cap_pairs;	/* of delta's arrays */
	void *percpu;					/* a per-CPU value read, nr_cpus of the largest */
	size_t percpu_bytes;
	uint64_t takes;
};

static int copies_init(struct copies *c, uint32_t entries, size_t key_len, size_t value_len)
{
	uint32_t n = 1;

	while (n < 2 * entries)
		n <<= 1;
	c->slots = calloc(n, sizeof(*c->slots));
	c->mask = n - 1;
	c->key_len = key_len;
	c->words = value_len / sizeof(uint64_t);
	return c->slots ? 0 : -ENOMEM;
}

static void copies_free(struct copies *c)
{
	for (uint32_t i = 0; c->slots && i <= c->mask; i++)
		free(c->slots[i].value);
	free(c->slots);
}

static uint32_t home(const struct copies *c, const void *key)
{
	return (uint32_t)hash__fnv1a(HASH_FNV_BASIS, key, c->key_len) & c->mask;
}

/* copy_of - the copy of @key; with @make, a new one of zeros when it has none (NULL: out of memory) */
static struct copy *copy_of(struct copies *c, const void *key, bool make)
{
	uint32_t i = home(c, key);

	for (; c->slots[i].value; i = (i + 1) & c->mask)
		if (!memcmp(c->slots[i].key, key, c->key_len))
			return &c->slots[i];
	/* the maps hold at most half as many keys as there are slots: one is free */
	if (!make || c->used >= c->mask / 2 + 1)
		return NULL;
	c->slots[i].value = calloc(c->words, sizeof(uint64_t));
	if (!c->slots[i].value)
		return NULL;
	memset(c->slots[i].key, 0, sizeof(c->slots[i].key));
	memcpy(c->slots[i].key, key, c->key_len);
	c->used++;
	return &c->slots[i];
}

/* copy_forget - slot @i's copy goes; those after it that hashed before it move back */
static void copy_forget(struct copies *c, uint32_t i)
{
	uint32_t j = i;

	free(c->slots[i].value);
	c->slots[i].value = NULL;
	c->used--;
	for (;;) {
		uint32_t k;

		j = (j + 1) & c->mask;
		if (!c->slots[j].value)
			return;
		k = home(c, c->slots[j].key);
		/* j's entry may fill the hole at i when its home is not in (i, j], cyclically */
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			c->slots[i] = c->slots[j];
			c->slots[j].value = NULL;
			i = j;
		}
	}
}

struct lean_sums *lean_sums__new(void)
{
	struct lean_sums *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	/* a cgroup's copy keeps its max after its sums */
	if (copies_init(&s->copies[MAP_CGROUPS], COLLECTOR_SUM_CGROUPS, sizeof(uint64_t),
			sizeof(struct wp_sum_cgroup) + sizeof(uint64_t)) ||
	    copies_init(&s->copies[MAP_HOLDERS], COLLECTOR_SUM_PAIRS, sizeof(struct wp_sum_holder_key),
			sizeof(struct wp_sum_count_ns)) ||
	    copies_init(&s->copies[MAP_PAIRS], COLLECTOR_SUM_PAIRS, sizeof(struct wp_sum_pair_key),
			sizeof(struct wp_sum_count_ns))) {
		lean_sums__free(s);
		return NULL;
	}
	return s;
}

void lean_sums__free(struct lean_sums *s)
{
	if (!s)
		return;
	for (int i = 0; i < NR_MAPS; i++)
		copies_free(&s->copies[i]);
	free(s->delta.cgroups);
	free(s->delta.holders);
	free(s->delta.pairs);
	free(s->percpu);
	free(s);
}

size_t lean_sums__kept(const struct lean_sums *s)
{
	return s->copies[MAP_CGROUPS].used + s->copies[MAP_HOLDERS].used + s->copies[MAP_PAIRS].used;
}

/* percpu - room for @bytes of every CPU's value: NULL when out of memory */
static void *percpu(struct lean_sums *s, size_t bytes)
{
	if (bytes > s->percpu_bytes) {
		void *p = realloc(s->percpu, bytes);

		if (!p)
			return NULL;
		s->percpu = p;
		s->percpu_bytes = bytes;
	}
	return s->percpu;
}

/* grow - @arr (of @cap @size-byte items) to hold one more than @n: 0, or -ENOMEM */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, want * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = want;
	return 0;
}

/* diff - @now less @was into @d, @words u64s each, and @now kept in @was; whether anything grew */
static bool diff(uint64_t *d, const uint64_t *now, uint64_t *was, size_t words)
{
	bool grew = false;

	for (size_t i = 0; i < words; i++) {
		d[i] = now[i] - was[i];
		grew |= d[i] != 0;
		was[i] = now[i];
	}
	return grew;
}

/* take_counts - the per-CPU counts summed over the CPUs, and what grew into the delta */
static int take_counts(struct lean_sums *s, const struct collector_sum_maps *m)
{
	const size_t words = sizeof(struct wp_sum_counts) / sizeof(uint64_t);
	uint64_t total[sizeof(struct wp_sum_counts) / sizeof(uint64_t)] = { 0 };
	const uint64_t *cpu = percpu(s, (size_t)m->nr_cpus * sizeof(struct wp_sum_counts));
	__u32 zero = 0;

	if (!cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(m->counts, &zero, (void *)cpu))
		return -errno;
	for (int c = 0; c < m->nr_cpus; c++)
		for (size_t i = 0; i < words; i++)
			total[i] += cpu[(size_t)c * words + i];
	diff((uint64_t *)&s->delta.counts, total, (uint64_t *)&s->counts, words);
	return 0;
}

/* take_hist - histogram @kind over the CPUs: its growth into the delta, its min and max the run's */
static int take_hist(struct lean_sums *s, const struct collector_sum_maps *m, __u32 kind)
{
	const struct wp_sum_hist *cpu = percpu(s, (size_t)m->nr_cpus * sizeof(struct wp_sum_hist));
	struct wp_sum_hist *was = &s->hists[kind], *d = &s->delta.hists[kind];
	uint64_t count = 0, sum = 0;

	if (!cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(m->hists, &kind, (void *)cpu))
		return -errno;
	for (uint32_t b = 0; b < WP_SUM_HIST_BUCKETS; b++) {
		uint64_t n = 0;

		for (int c = 0; c < m->nr_cpus; c++)
			n += cpu[c].buckets[b];
		d->buckets[b] = n - was->buckets[b];
		was->buckets[b] = n;
	}
	for (int c = 0; c < m->nr_cpus; c++) {
		if (!cpu[c].count)
			continue;
		if (!count || cpu[c].min < was->min)
			was->min = cpu[c].min;
		if (cpu[c].max > was->max)
			was->max = cpu[c].max;
		count += cpu[c].count;
		sum += cpu[c].sum;
	}
	d->count = count - was->count;
	d->sum = sum - was->sum;
	was->count = count;
	was->sum = sum;
	d->min = was->min;
	d->max = was->max;
	return 0;
}

/* cgroup_max - the largest wake-to-run of cgroup @id over every CPU */
static int cgroup_max(struct lean_sums *s, const struct collector_sum_maps *m, uint64_t id, uint64_t *max)
{
	const uint64_t *cpu = percpu(s, (size_t)m->nr_cpus * sizeof(uint64_t));

	*max = 0;
	if (!cpu)
		return -ENOMEM;
	/* made after the cgroup's entry: not there yet, nothing to say */
	if (bpf_map_lookup_elem(m->cgroup_max, &id, (void *)cpu))
		return errno == ENOENT ? 0 : -errno;
	for (int c = 0; c < m->nr_cpus; c++)
		if (cpu[c] > *max)
			*max = cpu[c];
	return 0;
}

/*
 * take_map - every entry of map @fd (copies @c, keys @key_len bytes,
 * values @words u64s): what grew, handed to @add with its key and delta
 */
static int take_map(struct lean_sums *s, int fd, struct copies *c, size_t words,
		    int (*add)(struct lean_sums *s, const struct collector_sum_maps *m, const void *key, const uint64_t *d,
			       uint64_t *kept),
		    const struct collector_sum_maps *m)
{
	uint8_t key[KEY_MAX], next[KEY_MAX];
	uint64_t now[sizeof(struct wp_sum_cgroup) / sizeof(uint64_t)];
	uint64_t d[sizeof(struct wp_sum_cgroup) / sizeof(uint64_t)];

	bool first = true;
	int err;

	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		struct copy *was;

		first = false;
		memcpy(key, next, c->key_len);
		/* deleted since by nobody but a sweep: gone between the two calls is no error */
		if (bpf_map_lookup_elem(fd, key, now))
			continue;
		was = copy_of(c, key, true);
		if (!was)
			return -ENOMEM;
		if (diff(d, now, was->value, words) && (err = add(s, m, key, d, &was->value[words])))
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* add_cgroup - a cgroup's growth, its max with it where it grew (@kept: the max its copy last had) */
static int add_cgroup(struct lean_sums *s, const struct collector_sum_maps *m, const void *key, const uint64_t *d,
		      uint64_t *kept)
{
	struct lean_sums_delta *dl = &s->delta;
	struct lean_sums_cgroup *cg;
	int err = grow((void **)&dl->cgroups, &s->cap_cgroups, dl->nr_cgroups, sizeof(*dl->cgroups));

	if (err)
		return err;
	cg = &dl->cgroups[dl->nr_cgroups++];
	memcpy(&cg->id, key, sizeof(cg->id));
	memcpy(&cg->d, d, sizeof(cg->d));
	err = cgroup_max(s, m, cg->id, &cg->max_ns);
	if (cg->max_ns > *kept)
		*kept = cg->max_ns;
	else
		cg->max_ns = 0;
	return err;
}

static int add_holder(struct lean_sums *s, const struct collector_sum_maps *m, const void *key, const uint64_t *d,
		      uint64_t *kept)
{
	struct lean_sums_delta *dl = &s->delta;
	int err = grow((void **)&dl->holders, &s->cap_holders, dl->nr_holders, sizeof(*dl->holders));

	(void)m;
	(void)kept;
	if (err)
		return err;
	memcpy(&dl->holders[dl->nr_holders].k, key, sizeof(struct wp_sum_holder_key));
	memcpy(&dl->holders[dl->nr_holders++].d, d, sizeof(struct wp_sum_count_ns));
	return 0;
}

static int add_pair(struct lean_sums *s, const struct collector_sum_maps *m, const void *key, const uint64_t *d,
		      uint64_t *kept)
{
	struct lean_sums_delta *dl = &s->delta;
	int err = grow((void **)&dl->pairs, &s->cap_pairs, dl->nr_pairs, sizeof(*dl->pairs));

	(void)m;
	(void)kept;
	if (err)
		return err;
	memcpy(&dl->pairs[dl->nr_pairs].k, key, sizeof(struct wp_sum_pair_key));
	memcpy(&dl->pairs[dl->nr_pairs++].d, d, sizeof(struct wp_sum_count_ns));
	return 0;
}

/*
 * sweep - the entries of cgroups @gone says are gone, just read for the
 * last time: deleted from the maps, their copies forgotten. A (wakee,
 * holder) or (waker, wakee) pair goes when either cgroup does; 0 (the
 * idle CPU, interrupt work) is no cgroup.
 */
static void sweep(struct lean_sums *s, const struct collector_sum_maps *m, lean_sums_gone_fn gone, void *ctx)
{
	const int fds[NR_MAPS] = { m->cgroups, m->holders, m->pairs };

	for (int map = 0; map < NR_MAPS; map++) {
		struct copies *c = &s->copies[map];

		for (uint32_t i = 0; i <= c->mask; i++) {
			uint64_t ids[2];

			if (!c->slots[i].value)
				continue;
			memcpy(ids, c->slots[i].key, sizeof(ids[0]) * (map == MAP_CGROUPS ? 1 : 2));
			if (!((ids[0] && gone(ids[0], ctx)) || (map != MAP_CGROUPS && ids[1] && gone(ids[1], ctx))))
				continue;
			bpf_map_delete_elem(fds[map], c->slots[i].key);
			if (map == MAP_CGROUPS)
				bpf_map_delete_elem(m->cgroup_max, c->slots[i].key);
			copy_forget(c, i);
			/* the slot now holds the copy shifted back into it, if any: look at it again */
			i--;
		}
	}
}

int lean_sums__take(struct lean_sums *s, const struct collector_sum_maps *m, lean_sums_gone_fn gone, void *ctx,
		    const struct lean_sums_delta **out)
{
	int err;

	s->delta.nr_cgroups = s->delta.nr_holders = s->delta.nr_pairs = 0;
	err = take_counts(s, m);
	for (__u32 k = 0; !err && k < WP_SUM_HISTS; k++)
		err = take_hist(s, m, k);
	if (!err)
		err = take_map(s, m->cgroups, &s->copies[MAP_CGROUPS], sizeof(struct wp_sum_cgroup) / 8, add_cgroup, m);
	if (!err)
		err = take_map(s, m->holders, &s->copies[MAP_HOLDERS], sizeof(struct wp_sum_count_ns) / 8, add_holder,
			       m);
	if (!err)
		err = take_map(s, m->pairs, &s->copies[MAP_PAIRS], sizeof(struct wp_sum_count_ns) / 8, add_pair, m);
	if (err)
		return err;
	if (gone && ++s->takes % LEAN_SUMS_SWEEP_EVERY == 0)
		sweep(s, m, gone, ctx);
	*out = &s->delta;
	return 0;
}
