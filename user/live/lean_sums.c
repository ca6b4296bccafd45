// SPDX-License-Identifier: GPL-2.0
/* lean_sums.c - a service's sums read back as what grew since the last take */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "hash.h"
#include "lean_sums.h"

/*
 * One array of slots as the takes see it: mapped, with a copy of each slot
 * as the last take read it (zero for one never read, or freed since)
 */
struct slots {
	uint8_t *map;
	size_t map_bytes;
	uint8_t *was;
	/* taken out of its hash map by the last sweep: read once more, then freed */
	uint8_t *swept;
	uint32_t n;
	size_t size;		/* a slot's bytes */
	int hash;		/* the map that finds a slot by its key, and the stack of the free ones */
	int free;
};

struct lean_sums {
	struct lean_sums_maps m;
	struct slots cgroups, keys;
	struct wp_sum_counts counts;			/* the run's so far, every CPU's */
	struct wp_sum_hist hists[WP_SUM_HISTS];
	struct lean_sums_delta delta;
	size_t cap_cgroups, cap_keyed;			/* of delta's arrays */
	/*
	 * A sweep's verdicts, by id, direct-mapped: a cgroup is in its own
	 * slot and in many keys, and each asks the kernel; a verdict of
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

/*
 * slots_open - array @fd of @size-byte slots, mapped, every slot pushed
 * free on @free, the first on top: 0 or a negative errno
 */
static int slots_open(struct slots *sl, int fd, size_t size, int hash, int free_fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	long page = sysconf(_SC_PAGESIZE);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_ARRAY || info.value_size != size || !info.max_entries ||
	    !(info.map_flags & BPF_F_MMAPABLE))
		return -EINVAL;
	sl->n = info.max_entries;
	sl->size = size;
	sl->hash = hash;
	sl->free = free_fd;
	sl->map_bytes = ((size_t)sl->n * size + (size_t)page - 1) / (size_t)page * (size_t)page;
	sl->map = mmap(NULL, sl->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sl->map == MAP_FAILED) {
		sl->map = NULL;
		return -errno;
	}
	sl->was = calloc(sl->n, size);
	sl->swept = calloc(sl->n, 1);
	if (!sl->was || !sl->swept)
		return -ENOMEM;
	for (__u32 i = sl->n; i-- > 0;)
		if (bpf_map_update_elem(free_fd, NULL, &i, BPF_ANY))
			return -errno;
	return 0;
}

static void slots_close(struct slots *sl)
{
	if (sl->map)
		munmap(sl->map, sl->map_bytes);
	free(sl->was);
	free(sl->swept);
}

static void *slot_now(const struct slots *sl, uint32_t i)
{
	return sl->map + (size_t)i * sl->size;
}

static void *slot_was(const struct slots *sl, uint32_t i)
{
	return sl->was + (size_t)i * sl->size;
}

/*
 * slot_free - slot @i, read for the last time: zeroed, its copy too, and
 * pushed free. A slot that cannot be pushed (no stack has less room than
 * its slots) is lost to the run, not to its sums.
 */
static void slot_free(struct slots *sl, uint32_t i)
{
	memset(slot_now(sl, i), 0, sl->size);
	memset(slot_was(sl, i), 0, sl->size);
	sl->swept[i] = 0;
	bpf_map_update_elem(sl->free, NULL, &i, BPF_ANY);
}

struct lean_sums *lean_sums__new(const struct lean_sums_maps *m)
{
	struct lean_sums *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return NULL;
	s->m = *m;
	err = slots_open(&s->cgroups, m->cgroup_slots, sizeof(struct wp_sum_cgroup), m->cgroups, m->cgroup_free) ?:
	      slots_open(&s->keys, m->key_slots, sizeof(struct wp_sum_slot), m->keys, m->key_free);
	if (err) {
		lean_sums__free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

void lean_sums__free(struct lean_sums *s)
{
	if (!s)
		return;
	slots_close(&s->cgroups);
	slots_close(&s->keys);
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
static int take_counts(struct lean_sums *s)
{
	const struct lean_sums_maps *m = &s->m;
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
static int take_hist(struct lean_sums *s, __u32 kind)
{
	const struct lean_sums_maps *m = &s->m;
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

/* add_cgroup - cgroup @id's growth @grew: its count the buckets', its max where it grew (@now's) */
static int add_cgroup(struct lean_sums *s, uint64_t id, const struct wp_sum_cgroup *now,
		      const struct wp_sum_cgroup *grew)
{
	struct lean_sums_delta *dl = &s->delta;
	struct lean_sums_cgroup *cg;
	int err = grow((void **)&dl->cgroups, &s->cap_cgroups, dl->nr_cgroups, sizeof(*dl->cgroups));

	if (err)
		return err;
	cg = &dl->cgroups[dl->nr_cgroups++];
	cg->id = id;
	cg->count = 0;
	for (int b = 0; b < WP_SLOW_BUCKETS; b++) {
		cg->buckets[b] = grew->buckets[b];
		cg->count += grew->buckets[b];
	}
	cg->sum_ns = grew->sum_ns;
	cg->max_ns = grew->max_ns ? now->max_ns : 0;
	return 0;
}

/* the words of a cgroup's slot after its id: its sums */
#define CGROUP_SUMS	(sizeof(struct wp_sum_cgroup) / sizeof(uint64_t) - 1)

/*
 * take_cgroups - every cgroup slot in use: what grew since its copy. A
 * slot swept at the last take is read under the id its copy keeps (the
 * sweep zeroed its own), and freed.
 */
static int take_cgroups(struct lean_sums *s)
{
	struct slots *sl = &s->cgroups;

	for (uint32_t i = 0; i < sl->n; i++) {
		struct wp_sum_cgroup *live = slot_now(sl, i), *was = slot_was(sl, i), now, d;
		int err;

		now.id = sl->swept[i] ? was->id : __atomic_load_n(&live->id, __ATOMIC_ACQUIRE);
		if (!now.id)
			continue;
		memcpy(&now.sum_ns, &live->sum_ns, sizeof(now) - sizeof(now.id));
		/* taken for another cgroup since the last take: its copy starts from zero */
		if (was->id != now.id) {
			memset(was, 0, sizeof(*was));
			was->id = now.id;
		}
		if (diff((uint64_t *)&d.sum_ns, (const uint64_t *)&now.sum_ns, (uint64_t *)&was->sum_ns, CGROUP_SUMS) &&
		    (err = add_cgroup(s, now.id, &now, &d)))
			return err;
		if (sl->swept[i])
			slot_free(sl, i);
	}
	return 0;
}

/* take_keys - every key slot in use, as take_cgroups() takes theirs */
static int take_keys(struct lean_sums *s)
{
	struct slots *sl = &s->keys;
	struct lean_sums_delta *dl = &s->delta;

	for (uint32_t i = 0; i < sl->n; i++) {
		struct wp_sum_slot *live = slot_now(sl, i), *was = slot_was(sl, i), now;
		struct wp_sum_val d;
		int err;

		/* the wakee is the key's last word written and its first read (bpf/sums.bpf.h) */
		if (sl->swept[i]) {
			now.key = was->key;
		} else {
			now.key.wakee = __atomic_load_n(&live->key.wakee, __ATOMIC_ACQUIRE);
			if (!now.key.wakee)
				continue;
			now.key.holder = live->key.holder;
			now.key.waker = live->key.waker;
			now.key.family = live->key.family;
			now.key.__pad = 0;
		}
		memcpy(&now.val, &live->val, sizeof(now.val));
		if (memcmp(&was->key, &now.key, sizeof(now.key))) {
			memset(was, 0, sizeof(*was));
			was->key = now.key;
		}
		if (diff((uint64_t *)&d, (const uint64_t *)&now.val, (uint64_t *)&was->val,
			 sizeof(d) / sizeof(uint64_t))) {
			if ((err = grow((void **)&dl->keyed, &s->cap_keyed, dl->nr_keyed, sizeof(*dl->keyed))))
				return err;
			dl->keyed[dl->nr_keyed].k = now.key;
			dl->keyed[dl->nr_keyed++].d = d;
		}
		if (sl->swept[i])
			slot_free(sl, i);
	}
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

/* gone_key - does any cgroup of @k go? 0 (the idle CPU, interrupt work) is none */
static bool gone_key(struct lean_sums *s, const struct wp_sum_key *k, lean_sums_gone_fn gone, void *ctx)
{
	const uint64_t ids[] = { k->wakee, k->holder, k->waker };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i] && is_gone(s, ids[i], gone, ctx))
			return true;
	return false;
}

/*
 * sweep - the slots of cgroups @gone says are gone, just read: out of
 * their hash maps, their keys zeroed so that no task's kept slot matches
 * them, freed at the next take. A key goes when any of its cgroups does.
 */
static void sweep(struct lean_sums *s, lean_sums_gone_fn gone, void *ctx)
{
	for (uint32_t i = 0; i < s->keys.n; i++) {
		struct wp_sum_slot *was = slot_was(&s->keys, i), *live = slot_now(&s->keys, i);

		if (!was->key.wakee || s->keys.swept[i] || !gone_key(s, &was->key, gone, ctx))
			continue;
		bpf_map_delete_elem(s->keys.hash, &was->key);
		__atomic_store_n(&live->key.wakee, 0, __ATOMIC_RELEASE);
		s->keys.swept[i] = 1;
	}
	for (uint32_t i = 0; i < s->cgroups.n; i++) {
		struct wp_sum_cgroup *was = slot_was(&s->cgroups, i), *live = slot_now(&s->cgroups, i);

		if (!was->id || s->cgroups.swept[i] || !is_gone(s, was->id, gone, ctx))
			continue;
		bpf_map_delete_elem(s->cgroups.hash, &was->id);
		__atomic_store_n(&live->id, 0, __ATOMIC_RELEASE);
		s->cgroups.swept[i] = 1;
	}
}

int lean_sums__take(struct lean_sums *s, lean_sums_gone_fn gone, void *ctx, const struct lean_sums_delta **out)
{
	int err;

	s->delta.nr_cgroups = s->delta.nr_keyed = 0;
	err = take_counts(s);
	for (__u32 k = 0; !err && k < WP_SUM_HISTS; k++)
		err = take_hist(s, k);
	if (!err)
		err = take_cgroups(s);
	if (!err)
		err = take_keys(s);
	if (err)
		return err;
	if (gone && ++s->takes % LEAN_SUMS_SWEEP_EVERY == 0)
		sweep(s, gone, ctx);
	*out = &s->delta;
	return 0;
}
