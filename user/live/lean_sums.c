// SPDX-License-Identifier: GPL-2.0
/* lean_sums.c - a service's sums read back as what grew since the last take */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "hash.h"
#include "lean_sums.h"

#define KEY_MAX		32

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

enum { MAP_CGROUPS, MAP_KEYS, NR_MAPS };

struct lean_sums {
	struct copies copies[NR_MAPS];
	struct wp_sum_counts counts;			/* the run's so far, every CPU's */
	struct wp_sum_hist hists[WP_SUM_HISTS];
	struct lean_sums_delta delta;
	size_t cap_cgroups, cap_keyed;			/* of delta's arrays */
	/*
	 * A sweep's verdicts, by id, direct-mapped: a cgroup is in its own
	 * entry and in many keys, and each asks the kernel; a verdict of
	 * another sweep (its number in sweep) is asked again
	 */
	struct verdict {
		uint64_t id;
		uint64_t sweep;
		bool gone;
	} verdicts[LEAN_SUMS_CGROUPS];
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
	if (copies_init(&s->copies[MAP_CGROUPS], LEAN_SUMS_CGROUPS, sizeof(uint64_t),
			sizeof(struct wp_sum_cgroup)) ||
	    copies_init(&s->copies[MAP_KEYS], LEAN_SUMS_KEYS, sizeof(struct wp_sum_key),
			sizeof(struct wp_sum_val))) {
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
	free(s->delta.keyed);
	free(s->percpu);
	free(s);
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
static int take_counts(struct lean_sums *s, const struct lean_sums_maps *m)
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
static int take_hist(struct lean_sums *s, const struct lean_sums_maps *m, __u32 kind)
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

/*
 * take_map - every entry of map @fd (copies @c): what grew, handed to
 * @add with its key, its values now and the delta
 */
static int take_map(struct lean_sums *s, int fd, struct copies *c,
		    int (*add)(struct lean_sums *s, const void *key, const uint64_t *now, const uint64_t *d))
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
		if (diff(d, now, was->value, c->words) && (err = add(s, key, now, d)))
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* add_cgroup - a cgroup's growth: its count the buckets', its max where it grew (the copy has the one before) */
static int add_cgroup(struct lean_sums *s, const void *key, const uint64_t *now, const uint64_t *d)
{
	const struct wp_sum_cgroup *was_now = (const void *)now, *grew = (const void *)d;
	struct lean_sums_delta *dl = &s->delta;
	struct lean_sums_cgroup *cg;
	int err = grow((void **)&dl->cgroups, &s->cap_cgroups, dl->nr_cgroups, sizeof(*dl->cgroups));

	if (err)
		return err;
	cg = &dl->cgroups[dl->nr_cgroups++];
	memcpy(&cg->id, key, sizeof(cg->id));
	cg->count = 0;
	for (int b = 0; b < WP_SLOW_BUCKETS; b++) {
		cg->buckets[b] = grew->buckets[b];
		cg->count += grew->buckets[b];
	}
	cg->sum_ns = grew->sum_ns;
	cg->max_ns = grew->max_ns ? was_now->max_ns : 0;
	return 0;
}

static int add_keyed(struct lean_sums *s, const void *key, const uint64_t *now, const uint64_t *d)
{
	struct lean_sums_delta *dl = &s->delta;
	int err = grow((void **)&dl->keyed, &s->cap_keyed, dl->nr_keyed, sizeof(*dl->keyed));

	(void)now;
	if (err)
		return err;
	memcpy(&dl->keyed[dl->nr_keyed].k, key, sizeof(struct wp_sum_key));
	memcpy(&dl->keyed[dl->nr_keyed++].d, d, sizeof(struct wp_sum_val));
	return 0;
}

/* is_gone - @gone's verdict on cgroup @id, asked once a sweep */
static bool is_gone(struct lean_sums *s, uint64_t id, lean_sums_gone_fn gone, void *ctx)
{
	struct verdict *v = &s->verdicts[hash__fnv1a(HASH_FNV_BASIS, &id, sizeof(id)) % LEAN_SUMS_CGROUPS];

	if (v->id != id || v->sweep != s->takes) {
		v->id = id;
		v->sweep = s->takes;
		v->gone = gone(id, ctx);
	}
	return v->gone;
}

/*
 * sweep - the entries of cgroups @gone says are gone, just read for the
 * last time: deleted from the maps, their copies forgotten. A key goes
 * when any of its cgroups does; 0 (the idle CPU, interrupt work) is none.
 */
static void sweep(struct lean_sums *s, const struct lean_sums_maps *m, lean_sums_gone_fn gone, void *ctx)
{
	const int fds[NR_MAPS] = { m->cgroups, m->keys };

	for (int map = 0; map < NR_MAPS; map++) {
		struct copies *c = &s->copies[map];

		for (uint32_t i = 0; i <= c->mask; i++) {
			uint64_t ids[3];
			int nr = map == MAP_CGROUPS ? 1 : 3, k;

			if (!c->slots[i].value)
				continue;
			memcpy(ids, c->slots[i].key, sizeof(ids[0]) * (size_t)nr);
			for (k = 0; k < nr && !(ids[k] && is_gone(s, ids[k], gone, ctx)); k++)
				;
			if (k == nr)
				continue;
			bpf_map_delete_elem(fds[map], c->slots[i].key);
			copy_forget(c, i);
			/* the slot now holds the copy shifted back into it, if any: look at it again */
			i--;
		}
	}
}

int lean_sums__take(struct lean_sums *s, const struct lean_sums_maps *m, lean_sums_gone_fn gone, void *ctx,
		    const struct lean_sums_delta **out)
{
	int err;

	s->delta.nr_cgroups = s->delta.nr_keyed = 0;
	err = take_counts(s, m);
	for (__u32 k = 0; !err && k < WP_SUM_HISTS; k++)
		err = take_hist(s, m, k);
	if (!err)
		err = take_map(s, m->cgroups, &s->copies[MAP_CGROUPS], add_cgroup);
	if (!err)
		err = take_map(s, m->keys, &s->copies[MAP_KEYS], add_keyed);
	if (err)
		return err;
	if (gone && ++s->takes % LEAN_SUMS_SWEEP_EVERY == 0)
		sweep(s, m, gone, ctx);
	*out = &s->delta;
	return 0;
}
