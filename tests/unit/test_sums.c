// SPDX-License-Identifier: GPL-2.0
/*
 * test_sums.c - a service's wakeups summed in the kernel (bpf/sums.bpf.h)
 * count as the same wakeups sent one by one would: the kernel's family of
 * a mechanism is user space's for every syscall, fd kind and class; its
 * histogram buckets are struct histogram's; and the sums of the cgroup
 * table's five wakeups (cgroup_run.h), taken in one go or in two, give
 * the tables cgroup_stats__add() makes of them, as the machine's counts
 * give the aggregate's; and a sweep deletes the entries of the cgroups
 * that are gone, once their last growth is read.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "cgroup_run.h"
#include "histogram.h"
#include "lean_sums.h"
#include "mechanism.h"

TestSuite(sums);

static struct wp_mech_tables tables;

static void make_tables(void)
{
	mechanism__tables(&tables);
}

static uint8_t role(int64_t nr)
{
	return nr >= 0 && nr < WP_MAX_SYSCALLS ? tables.roles[nr] : 0;
}

/* kernel_family - the family as bpf/sums.bpf.h names it, from the tables user space gives it */
static uint8_t kernel_family(const struct waker_info *w, const struct wait_info *wait)
{
	bool syscall = w->cls == WP_WAKER_SYSCALL;

	return wp_mech_family(w->cls, syscall ? role(w->nr) : 0,
			      syscall ? tables.fd_family[w->fd_kind] : MECH_UNKNOWN, wait->known, wait->start,
			      wait->known ? role(wait->nr) : 0, wait->known ? tables.fd_family[wait->fd_kind] : MECH_UNKNOWN);
}

Test(sums, the_kernel_names_a_wakers_family_as_user_space_does_for_every_syscall_and_fd, .init = make_tables)
{
	struct wait_info none = { .nr = -1 };

	for (uint8_t cls = 0; cls < WP_WAKER_CLASS_MAX; cls++)
		for (int nr = -1; nr < WP_MAX_SYSCALLS; nr++)
			for (uint8_t kind = 0; kind < NR_FD_KINDS; kind++) {
				struct waker_info w = { .cls = cls, .nr = nr, .fd_kind = kind };

				cr_assert_eq(kernel_family(&w, &none), mechanism__family(&w, &none),
					     "class %u, syscall %d, fd kind %u", cls, nr, kind);
			}
}

Test(sums, the_kernel_names_a_waits_family_as_user_space_does_for_every_syscall_and_fd, .init = make_tables)
{
	const uint8_t classes[] = { 0, WP_WAKER_SYSCALL, WP_WAKER_TRACKED };

	for (size_t c = 0; c < sizeof(classes); c++)
		for (int nr = -1; nr < WP_MAX_SYSCALLS; nr++)
			for (uint8_t kind = 0; kind < NR_FD_KINDS; kind++)
				for (int start = 0; start < 2; start++) {
					/* a waker in a syscall that names nothing: the wait decides */
					struct waker_info w = { .cls = classes[c], .nr = SYS_getpid };
					struct wait_info wait = { .known = true, .start = start, .nr = nr,
								  .fd_kind = kind };

					cr_assert_eq(kernel_family(&w, &wait), mechanism__family(&w, &wait),
						     "class %u, wait %d, fd kind %u, start %d", classes[c], nr, kind,
						     start);
				}
}

Test(sums, the_kernel_weighs_both_ends_as_user_space_does, .init = make_tables)
{
	/* every waker syscall against every wait syscall, fds of a few kinds */
	const uint8_t kinds[] = { FD_KIND_UNKNOWN, FD_KIND_EVENTFD, FD_KIND_EPOLL, FD_KIND_TCP_SOCKET, FD_KIND_FILE };

	for (int wn = 0; wn < WP_MAX_SYSCALLS; wn++)
		for (int sn = -1; sn < WP_MAX_SYSCALLS; sn++)
			for (size_t k = 0; k < sizeof(kinds); k++) {
				struct waker_info w = { .cls = WP_WAKER_SYSCALL, .nr = wn, .fd_kind = kinds[k] };
				struct wait_info wait = { .known = true, .nr = sn, .fd_kind = kinds[sizeof(kinds) - 1 - k] };

				cr_assert_eq(kernel_family(&w, &wait), mechanism__family(&w, &wait),
					     "waker %d, wait %d, kinds %u %u", wn, sn, w.fd_kind, wait.fd_kind);
			}
}

Test(sums, the_kernels_histogram_buckets_are_user_spaces_up_to_68_seconds)
{
	uint64_t v;

	for (v = 0; v < (1u << 20); v++)
		cr_assert_eq(wp_sum_bucket(v), histogram__bucket_of(v), "%lu", (unsigned long)v);
	for (int e = 20; e < 36; e++)
		for (uint64_t step = 0; step < 4096; step++) {
			v = (1ull << e) + step * ((1ull << e) / 4096) + (step & 7);
			cr_assert_eq(wp_sum_bucket(v), histogram__bucket_of(v), "%llu", (unsigned long long)v);
		}
	cr_assert_eq(wp_sum_bucket((1ull << 36) - 1), WP_SUM_HIST_BUCKETS - 1);
	cr_assert_eq(histogram__bucket_of((1ull << 36) - 1), WP_SUM_HIST_BUCKETS - 1);
	/* longer: the last bucket, their min and max kept apart */
	cr_assert_eq(wp_sum_bucket(1ull << 36), WP_SUM_HIST_BUCKETS - 1);
	cr_assert_eq(wp_sum_bucket(UINT64_MAX), WP_SUM_HIST_BUCKETS - 1);
}

/* the kernel's sums of a set of wakeups (cgroup_run__wakeup()s), as bpf/sums.bpf.h makes them */
struct kernel_model {
	struct lean_sums_cgroup cgroups[8];
	struct lean_sums_keyed keyed[16];
	struct lean_sums_delta d;
};

static void model_add(struct kernel_model *m, const struct attach_result *r)
{
	const struct wp_lean_cgroups *cg = &r->cgroups;
	uint64_t took = (uint64_t)r->wake_to_run_ns, runq = (uint64_t)r->sr.phase_ns[PHASE_RUNQ_WAIT];
	struct wp_sum_key k = { .wakee = cg->wakee, .holder = cg->holder, .waker = cg->waker, .family = r->family };
	size_t i;

	for (i = 0; i < m->d.nr_cgroups && m->cgroups[i].id != cg->wakee; i++)
		;
	if (i == m->d.nr_cgroups) {
		cr_assert_lt(i, 8);
		memset(&m->cgroups[i], 0, sizeof(m->cgroups[i]));
		m->cgroups[i].id = cg->wakee;
		m->d.nr_cgroups++;
	}
	m->cgroups[i].count++;
	m->cgroups[i].sum_ns += took;
	m->cgroups[i].buckets[wp_slow_bucket(took)]++;
	if (took > m->cgroups[i].max_ns)
		m->cgroups[i].max_ns = took;
	for (i = 0; i < m->d.nr_keyed && memcmp(&m->keyed[i].k, &k, sizeof(k)); i++)
		;
	if (i == m->d.nr_keyed) {
		cr_assert_lt(i, 16);
		memset(&m->keyed[i], 0, sizeof(m->keyed[i]));
		m->keyed[i].k = k;
		m->d.nr_keyed++;
	}
	m->keyed[i].d.wakeups++;
	m->keyed[i].d.wake_to_run_ns += took;
	m->keyed[i].d.runq_wait_ns += runq;
}

static void model_init(struct kernel_model *m)
{
	memset(m, 0, sizeof(*m));
	m->d.cgroups = m->cgroups;
	m->d.keyed = m->keyed;
}

/* same_caps - @a and @b hold the same series, key by key, @size bytes of data each, and the same "other" */
static void same_caps(const struct series_cap *a, const struct series_cap *b, size_t size, const char *what)
{
	cr_assert_eq(series_cap__count(a), series_cap__count(b), "%s: as many series", what);
	for (size_t i = 0; i < series_cap__count(a); i++) {
		size_t j;

		for (j = 0; j < series_cap__count(b) && strcmp(series_cap__key(a, i), series_cap__key(b, j)); j++)
			;
		cr_assert_lt(j, series_cap__count(b), "%s: no series '%s' from the sums", what, series_cap__key(a, i));
		cr_assert_eq(memcmp(series_cap__data(a, i), series_cap__data(b, j), size), 0, "%s: '%s' differs", what,
			     series_cap__key(a, i));
	}
	cr_assert_eq(memcmp(series_cap__other(a), series_cap__other(b), size), 0, "%s: other differs", what);
}

static void same_stats(const struct cgroup_stats *a, const struct cgroup_stats *b)
{
	cr_assert_eq(a->wakeups, b->wakeups);
	cr_assert_eq(a->runq_wait_ns, b->runq_wait_ns);
	cr_assert_eq(a->neighbour_ns, b->neighbour_ns);
	same_caps(a->cgroups, b->cgroups, sizeof(struct cgroup_series), "cgroups");
	same_caps(a->holders, b->holders, sizeof(struct holder_series), "holders");
	same_caps(a->pairs, b->pairs, sizeof(struct pair_series), "pairs");
	cr_assert_eq(memcmp(a->by_family, b->by_family, sizeof(a->by_family)), 0);
}

static void five_wakeups(struct attach_result r[CG_WAKEUPS])
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	uint64_t batch = cgroup_run__dir("system.slice/batch.service");

	r[0] = cgroup_run__wakeup(web, web, 0, 10000, 4000);
	r[1] = cgroup_run__wakeup(web, web, 0, 10000, 4000);
	r[2] = cgroup_run__wakeup(web, web, web, 20000, 15000);
	r[3] = cgroup_run__wakeup(web, 0, batch, 90000, 80000);
	r[4] = cgroup_run__wakeup(batch, web, web, 5000, 1000);
	r[4].family = MECH_PIPE;
}

Test(sums, the_sums_of_five_wakeups_make_the_cgroup_tables_their_records_make, .init = cgroup_run__setup,
     .fini = cgroup_run__teardown)
{
	struct attach_result r[CG_WAKEUPS];
	struct kernel_model m;
	struct cgroup_stats *one_by_one;

	five_wakeups(r);
	one_by_one = cgroup_stats__new(cg_names, 20);
	cg_stats = cgroup_stats__new(cg_names, 20);
	cr_assert(one_by_one && cg_stats);
	model_init(&m);
	for (int i = 0; i < CG_WAKEUPS; i++) {
		cgroup_stats__add(one_by_one, &r[i]);
		model_add(&m, &r[i]);
	}
	cgroup_stats__add_sums(cg_stats, &m.d);
	same_stats(one_by_one, cg_stats);
	cr_assert_eq(cg_stats->wakeups, CG_WAKEUPS);
	cr_assert_eq(cg_stats->runq_wait_ns, CG_RUNQ_WAIT_NS);
	cr_assert_eq(cg_stats->neighbour_ns, CG_NEIGHBOUR_NS);
	cgroup_stats__free(one_by_one);
}

Test(sums, sums_taken_in_two_goes_make_the_same_tables, .init = cgroup_run__setup, .fini = cgroup_run__teardown)
{
	struct attach_result r[CG_WAKEUPS];
	struct kernel_model first, second;
	struct cgroup_stats *one_by_one;

	five_wakeups(r);
	one_by_one = cgroup_stats__new(cg_names, 20);
	cg_stats = cgroup_stats__new(cg_names, 20);
	cr_assert(one_by_one && cg_stats);
	model_init(&first);
	model_init(&second);
	for (int i = 0; i < CG_WAKEUPS; i++) {
		cgroup_stats__add(one_by_one, &r[i]);
		model_add(i < 2 ? &first : &second, &r[i]);
	}
	/* the second take's max of web did not grow past the first's: a take says 0 for it then */
	cgroup_stats__add_sums(cg_stats, &first.d);
	cgroup_stats__add_sums(cg_stats, &second.d);
	same_stats(one_by_one, cg_stats);
	cgroup_stats__free(one_by_one);
}

/* a lean complete wakeup as attach_lean.c makes it, summed in the kernel instead: the fields the aggregate reads */
static struct attach_result lean_wakeup(uint8_t cls, uint64_t enqueue, uint64_t runq, bool slept_outside)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.lean = true;
	r.waker.cls = cls;
	r.waker.untimed = cls == WP_WAKER_SYSCALL;
	r.family = MECH_EVENTFD;
	r.sr.phase_ns[PHASE_WAKE_ENQUEUE] = (int64_t)enqueue;
	r.sr.phase_ns[PHASE_RUNQ_WAIT] = (int64_t)runq;
	r.sr.total_ns = r.wake_to_run_ns = (int64_t)(enqueue + runq);
	r.wait.known = true;
	r.wait.nr = slept_outside ? -1 : SYS_read;
	for (int k = 0; k < NR_PHASES; k++)
		r.absent[k] = ATTACH_ABSENT_LABELLED;
	r.absent[PHASE_NOTIFY_USER] = r.absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r.absent[PHASE_NOTIFY_KERNEL] = attach__notify_absence(&r.waker);
	r.absent[PHASE_RESUME_KERNEL] = slept_outside ? ATTACH_ABSENT_NO_WAIT_SYSCALL : ATTACH_ABSENT_UNTIMED;
	r.absent[PHASE_WAKE_ENQUEUE] = r.absent[PHASE_RUNQ_WAIT] = ATTACH_PRESENT;
	return r;
}

static void same_hist(const struct histogram *a, const struct histogram *b, const char *what)
{
	cr_assert_eq(a->count, b->count, "%s", what);
	cr_assert_eq(a->sum, b->sum, "%s", what);
	cr_assert_eq(a->min, b->min, "%s", what);
	cr_assert_eq(a->max, b->max, "%s", what);
	for (double p = 0; p <= 100; p += 12.5)
		cr_assert_eq(histogram__percentile(a, p), histogram__percentile(b, p), "%s p%.1f", what, p);
}

Test(sums, the_machines_counts_and_phases_are_the_aggregates_of_the_same_wakeups)
{
	const struct attach_result r[] = {
		lean_wakeup(WP_WAKER_SYSCALL, 1200, 3400, false),
		lean_wakeup(WP_WAKER_SYSCALL, 800, 250000, false),
		lean_wakeup(WP_WAKER_IRQ, 2100, 90, false),
		lean_wakeup(WP_WAKER_TRACKED, 450, 17000, true),
		lean_wakeup(0, 5, 1000000007, false),
	};
	struct attach_aggregate *one_by_one = attach_aggregate__new(), *summed = attach_aggregate__new();
	struct lean_sums_keyed keyed = { .k.family = MECH_EVENTFD };
	struct lean_sums_delta *d = calloc(1, sizeof(*d));

	cr_assert(one_by_one && summed && d);
	d->keyed = &keyed;
	d->nr_keyed = 1;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		attach_aggregate__add(one_by_one, &r[i]);
		d->counts.by_class[r[i].waker.cls]++;
		d->counts.complete_by_class[r[i].waker.cls]++;
		d->counts.no_wait_syscall += r[i].wait.nr < 0;
		keyed.d.wakeups++;
		wp_sum_hist_add(&d->hists[WP_SUM_WAKE_ENQUEUE], (uint64_t)r[i].sr.phase_ns[PHASE_WAKE_ENQUEUE]);
		wp_sum_hist_add(&d->hists[WP_SUM_RUNQ_WAIT], (uint64_t)r[i].sr.phase_ns[PHASE_RUNQ_WAIT]);
		wp_sum_hist_add(&d->hists[WP_SUM_WAKE_TO_RUN], (uint64_t)r[i].wake_to_run_ns);
	}
	/* and one that ran with its switch-in untraced: counted, in no table */
	d->counts.by_class[WP_WAKER_SYSCALL]++;
	attach_aggregate__add_sums(summed, d);
	cr_assert_eq(summed->wakeups, one_by_one->wakeups + 1);
	cr_assert_eq(summed->summed, 6);
	cr_assert_eq(summed->summed_complete, 5);
	cr_assert_eq(summed->complete, one_by_one->complete);
	cr_assert_eq(summed->by_label[LABEL_COMPLETE], 5);
	cr_assert_eq(summed->by_label[LABEL_MISSING_EVENT], 1);
	cr_assert_eq(summed->missing_by_mark[MARK_SWITCH_IN], 1);
	cr_assert_eq(summed->by_class[WP_WAKER_SYSCALL], one_by_one->by_class[WP_WAKER_SYSCALL] + 1);
	cr_assert_eq(summed->by_class[WP_WAKER_IRQ], one_by_one->by_class[WP_WAKER_IRQ]);
	cr_assert_eq(memcmp(summed->by_family, one_by_one->by_family, sizeof(summed->by_family)), 0);
	cr_assert_eq(memcmp(summed->absent, one_by_one->absent, sizeof(summed->absent)), 0,
		     "the phases absent, and why, as the records' say");
	same_hist(&summed->phase[PHASE_WAKE_ENQUEUE], &one_by_one->phase[PHASE_WAKE_ENQUEUE], "wake_enqueue");
	same_hist(&summed->phase[PHASE_RUNQ_WAIT], &one_by_one->phase[PHASE_RUNQ_WAIT], "runq_wait");
	same_hist(&summed->wake_to_run, &one_by_one->wake_to_run, "wake_to_run");
	same_hist(&summed->total, &one_by_one->total, "total");
	/* none is in the tables of pairs: those hold the wakeups sent one by one */
	cr_assert_eq(summed->nr_pairs, 0);
	free(d);
	attach_aggregate__free(one_by_one);
	attach_aggregate__free(summed);
}

/*
 * The sweep, against maps made as the programs' are: what a test that
 * cannot make BPF maps (no CAP_BPF) skips, saying so
 */
struct sweep_maps {
	struct lean_sums_maps m;
	uint64_t gone;		/* the one cgroup said to be gone */
	int asked;
};

static bool said_gone(uint64_t id, void *ctx)
{
	struct sweep_maps *s = ctx;

	s->asked++;
	return id == s->gone;
}

#define SWEEP_SLOTS	16

static void sweep_maps_make(struct sweep_maps *s)
{
	LIBBPF_OPTS(bpf_map_create_opts, none);
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);

	memset(s, 0, sizeof(*s));
	s->m.nr_cpus = libbpf_num_possible_cpus();
	s->m.counts = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "sum_counts", 4, sizeof(struct wp_sum_counts), 1, &none);
	if (s->m.counts < 0)
		cr_skip_test("no BPF map could be made here (%s): the sweep is tested as root", strerror(errno));
	s->m.hists = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "sum_hists", 4, sizeof(struct wp_sum_hist), WP_SUM_HISTS,
				    &none);
	s->m.cgroups = bpf_map_create(BPF_MAP_TYPE_HASH, "sum_cgroups", 8, 4, SWEEP_SLOTS, &none);
	s->m.keys = bpf_map_create(BPF_MAP_TYPE_HASH, "sum_keys", sizeof(struct wp_sum_key), 4, SWEEP_SLOTS, &none);
	s->m.cgroup_slots = bpf_map_create(BPF_MAP_TYPE_ARRAY, "sum_cgroup_slot", 4, sizeof(struct wp_sum_cgroup),
					   SWEEP_SLOTS, &mmapable);
	s->m.key_slots = bpf_map_create(BPF_MAP_TYPE_ARRAY, "sum_key_slots", 4, sizeof(struct wp_sum_slot),
					SWEEP_SLOTS, &mmapable);
	s->m.cgroup_free = bpf_map_create(BPF_MAP_TYPE_STACK, "sum_cgroup_free", 0, 4, SWEEP_SLOTS, &none);
	s->m.key_free = bpf_map_create(BPF_MAP_TYPE_STACK, "sum_key_free", 0, 4, SWEEP_SLOTS, &none);
	cr_assert(s->m.nr_cpus > 0 && s->m.hists >= 0 && s->m.cgroups >= 0 && s->m.keys >= 0 &&
		  s->m.cgroup_slots >= 0 && s->m.key_slots >= 0 && s->m.cgroup_free >= 0 && s->m.key_free >= 0,
		  "%s", strerror(errno));
}

static void sweep_maps_close(struct sweep_maps *s)
{
	const int fds[] = { s->m.counts, s->m.hists, s->m.cgroups, s->m.keys,
			    s->m.cgroup_slots, s->m.key_slots, s->m.cgroup_free, s->m.key_free };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		close(fds[i]);
}

/* slot_of - the slot of @key in hash @hash, taken from stack @free as the programs take one when it has none */
static __u32 slot_of(int hash, int free_fd, const void *key, bool *made)
{
	__u32 slot;

	*made = bpf_map_lookup_elem(hash, key, &slot) != 0;
	if (!*made)
		return slot;
	cr_assert_eq(bpf_map_lookup_and_delete_elem(free_fd, NULL, &slot), 0, "no free slot: %s", strerror(errno));
	cr_assert_eq(bpf_map_update_elem(hash, key, &slot, BPF_NOEXIST), 0, "%s", strerror(errno));
	return slot;
}

/* wakeups - @n wakeups of @took ns each into the slots of @k, as sums_add() adds them */
static void wakeups(const struct sweep_maps *s, const struct wp_sum_key *k, uint64_t n, uint64_t took)
{
	struct wp_sum_cgroup cg;
	struct wp_sum_slot v;
	__u32 cg_slot, key_slot;
	bool made;

	cg_slot = slot_of(s->m.cgroups, s->m.cgroup_free, &k->wakee, &made);
	cr_assert_eq(bpf_map_lookup_elem(s->m.cgroup_slots, &cg_slot, &cg), 0);
	cr_assert_eq(cg.id, made ? 0 : k->wakee, "a free slot is zero, a slot in use its cgroup's");
	cg.id = k->wakee;
	key_slot = slot_of(s->m.keys, s->m.key_free, k, &made);
	cr_assert_eq(bpf_map_lookup_elem(s->m.key_slots, &key_slot, &v), 0);
	cr_assert_eq(v.key.wakee, made ? 0 : k->wakee);
	v.key = *k;
	v.cgroup_slot = cg_slot;
	cg.sum_ns += n * took;
	cg.buckets[wp_slow_bucket(took)] += n;
	cg.max_ns = took > cg.max_ns ? took : cg.max_ns;
	v.val.wakeups += n;
	v.val.wake_to_run_ns += n * took;
	cr_assert_eq(bpf_map_update_elem(s->m.cgroup_slots, &cg_slot, &cg, BPF_ANY), 0, "%s", strerror(errno));
	cr_assert_eq(bpf_map_update_elem(s->m.key_slots, &key_slot, &v, BPF_ANY), 0, "%s", strerror(errno));
}

/* grown - what @d says grew in cgroup @id and in key @k: the cgroup's count, the key's wakeups */
static void grown(const struct lean_sums_delta *d, uint64_t id, const struct wp_sum_key *k, uint64_t *cg, uint64_t *key)
{
	*cg = *key = 0;
	for (size_t i = 0; i < d->nr_cgroups; i++)
		if (d->cgroups[i].id == id)
			*cg += d->cgroups[i].count;
	for (size_t i = 0; i < d->nr_keyed; i++)
		if (!memcmp(&d->keyed[i].k, k, sizeof(*k)))
			*key += d->keyed[i].d.wakeups;
}

static int entries(int fd, size_t key_len)
{
	uint8_t key[64], next[64];
	int n = 0;

	for (const void *at = NULL; !bpf_map_get_next_key(fd, at, next); at = key, n++)
		memcpy(key, next, key_len);
	return n;
}

/* queued - how many slots stack @fd holds, read by emptying it and filling it again as it was */
static int queued(int fd)
{
	__u32 slots[SWEEP_SLOTS + 1];
	int n = 0;

	while (n <= SWEEP_SLOTS && !bpf_map_lookup_and_delete_elem(fd, NULL, &slots[n]))
		n++;
	for (int i = n; i-- > 0;)
		cr_assert_eq(bpf_map_update_elem(fd, NULL, &slots[i], BPF_ANY), 0);
	return n;
}

Test(sums, a_sweep_frees_the_slots_of_gone_cgroups_after_their_last_reading)
{
	/* web stays; batch goes, and with it the key where it held web's CPU */
	const uint64_t web = 0x1001, batch = 0x1002;
	const struct wp_sum_key alone = { .wakee = web, .holder = web, .waker = web, .family = MECH_PIPE };
	const struct wp_sum_key beside = { .wakee = web, .holder = batch, .waker = web, .family = MECH_PIPE };
	const struct wp_sum_key own = { .wakee = batch, .holder = 0, .waker = batch, .family = MECH_FUTEX };
	const struct lean_sums_delta *d;
	struct lean_sums *sums;
	struct sweep_maps s;
	uint64_t cg, key;
	__u32 own_slot = SWEEP_SLOTS, again;

	sweep_maps_make(&s);
	sums = lean_sums__new(&s.m);
	cr_assert_not_null(sums, "%s", strerror(errno));
	cr_expect_eq(queued(s.m.cgroup_free), SWEEP_SLOTS, "every slot is free before the programs attach");
	cr_expect_eq(queued(s.m.key_free), SWEEP_SLOTS);
	s.gone = batch;
	wakeups(&s, &alone, 5, 4000);
	wakeups(&s, &beside, 2, 9000);
	wakeups(&s, &own, 3, 1500);
	/* no sweep before the LEAN_SUMS_SWEEP_EVERY-th take: every slot stays, whatever is gone */
	for (int take = 1; take < LEAN_SUMS_SWEEP_EVERY; take++) {
		cr_assert_eq(lean_sums__take(sums, said_gone, &s, &d), 0);
		if (take == 1) {
			grown(d, batch, &own, &cg, &key);
			cr_expect_eq(cg, 3);
			cr_expect_eq(key, 3);
		}
	}
	cr_expect_eq(s.asked, 0, "asked before the sweep");
	cr_expect_eq(entries(s.m.cgroups, 8), 2);
	cr_expect_eq(entries(s.m.keys, sizeof(struct wp_sum_key)), 3);
	/* batch's wakeups since the take before: read by the sweeping take, which takes its keys out of the maps */
	wakeups(&s, &own, 4, 1500);
	wakeups(&s, &beside, 1, 9000);
	wakeups(&s, &alone, 1, 4000);
	cr_assert_eq(lean_sums__take(sums, said_gone, &s, &d), 0);
	grown(d, batch, &own, &cg, &key);
	cr_expect_eq(cg, 4, "batch's wakeups lost");
	cr_expect_eq(key, 4);
	grown(d, web, &beside, &cg, &key);
	cr_expect_eq(cg, 2, "web's own count: alone's and beside's");
	cr_expect_eq(key, 1);
	cr_expect_eq(entries(s.m.cgroups, 8), 1, "batch's cgroup is still found");
	cr_expect_eq(entries(s.m.keys, sizeof(struct wp_sum_key)), 1, "a key of batch's is still found");
	cr_expect_eq(bpf_map_lookup_elem(s.m.keys, &alone, &(__u32){ 0 }), 0, "web's own key went too");
	/* each cgroup asked once in the sweep, however many keys name it */
	cr_expect_eq(s.asked, 2);
	cr_expect_eq(queued(s.m.key_free), SWEEP_SLOTS - 3, "a swept slot is freed only after its last reading");
	/*
	 * a wakeup that found batch's slot just before the sweep: in the last
	 * reading, at the next take, which frees the slots
	 */
	{
		struct wp_sum_slot v;
		__u32 slot = 0;

		for (; slot < SWEEP_SLOTS; slot++) {
			cr_assert_eq(bpf_map_lookup_elem(s.m.key_slots, &slot, &v), 0);
			if (v.val.wakeups == 7)
				break;
		}
		cr_assert_lt(slot, SWEEP_SLOTS, "own's slot not found");
		own_slot = slot;
		cr_expect_eq(v.key.wakee, 0, "a swept slot's key is no key's: no task's kept slot matches it");
		v.val.wakeups++;
		cr_assert_eq(bpf_map_update_elem(s.m.key_slots, &slot, &v, BPF_ANY), 0);
	}
	wakeups(&s, &alone, 2, 4000);
	cr_assert_eq(lean_sums__take(sums, said_gone, &s, &d), 0);
	grown(d, batch, &own, &cg, &key);
	cr_expect_eq(key, 1, "the late wakeup of a swept key lost");
	/* web goes on from its copy: its growth after the sweep is its growth, not its whole */
	grown(d, web, &alone, &cg, &key);
	cr_expect_eq(cg, 2);
	cr_expect_eq(key, 2);
	cr_expect_eq(queued(s.m.key_free), SWEEP_SLOTS - 1, "the swept slots not freed");
	cr_expect_eq(queued(s.m.cgroup_free), SWEEP_SLOTS - 1);
	/* a freed slot is zero: batch made again starts from nothing, in the slot freed last */
	wakeups(&s, &own, 1, 1500);
	cr_assert_eq(bpf_map_lookup_elem(s.m.keys, &own, &again), 0);
	cr_expect_eq(again, own_slot, "the last slot freed is the first taken again");
	cr_assert_eq(lean_sums__take(sums, said_gone, &s, &d), 0);
	grown(d, batch, &own, &cg, &key);
	cr_expect_eq(cg, 1);
	cr_expect_eq(key, 1);
	lean_sums__free(sums);
	sweep_maps_close(&s);
}
