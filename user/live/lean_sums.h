/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lean_sums.h - a service's sums (bpf/sums.bpf.h) read back: what grew in
 * the maps since the last take, as deltas the run's tables add up as they
 * would the records of those wakeups.
 *
 * The maps hold sums from the run's start; each take reads every slot in
 * use, holds it against the copy kept from the take before, and keeps the
 * new one. Nothing is reset in the kernel while a slot is in use, so a
 * wakeup added while a take reads is in this take or the next, never
 * lost. Every so often a take also sweeps: the keys and cgroups of
 * cgroups that are gone leave the hash maps, so that no wakeup finds their
 * slots again, and at the next take their slots, read for the last time
 * (a wakeup that found one just before it left is in that reading), are
 * zeroed and pushed free. A machine that makes and removes containers all
 * day keeps its maps and its memory within their bounds.
 */
#ifndef WAKEPROBE_LEAN_SUMS_H
#define WAKEPROBE_LEAN_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

/* the maps of a run's sums (bpf/sums.bpf.h), as the collector hands them to lean_sums__new() */
struct lean_sums_maps {
	int counts;		/* per CPU: struct wp_sum_counts */
	int hists;		/* per CPU: struct wp_sum_hist, WP_SUM_HISTS of them */
	int cgroups;		/* by cgroup id: its slot in cgroup_slots */
	int keys;		/* by struct wp_sum_key: its slot in key_slots */
	int cgroup_slots;	/* an mmapable array of struct wp_sum_cgroup */
	int key_slots;		/* an mmapable array of struct wp_sum_slot */
	int cgroup_free;	/* stacks of the free slots' indices */
	int key_free;
	int nr_cpus;		/* the per-CPU maps' values come this many at a time */
};

/* how many slots the maps by cgroup have: past that, a wakeup of a new key is sent, not summed */
#define LEAN_SUMS_CGROUPS	2048
#define LEAN_SUMS_KEYS		16384

/* how often a run takes its sums while it traces */
#define LEAN_SUMS_EVERY_NS	1000000000ull
/* how many takes between two sweeps: with a take a second, ten seconds */
#define LEAN_SUMS_SWEEP_EVERY	10

struct lean_sums_cgroup {
	uint64_t id;
	uint64_t count;			/* what grew: the buckets' sum */
	uint64_t sum_ns;
	uint64_t buckets[WP_SLOW_BUCKETS];
	uint64_t max_ns;		/* the largest wake-to-run so far, where it grew in this take; else 0 */
};

struct lean_sums_keyed {
	struct wp_sum_key k;
	struct wp_sum_val d;		/* what grew */
};

/* what grew between two takes; the keyed parts only where something did */
struct lean_sums_delta {
	struct wp_sum_counts counts;
	/* the histograms' counts, sums and buckets grew by these; min and max are the run's so far */
	struct wp_sum_hist hists[WP_SUM_HISTS];
	struct lean_sums_cgroup *cgroups;
	size_t nr_cgroups;
	struct lean_sums_keyed *keyed;
	size_t nr_keyed;
};

/* lean_sums_gone_fn - is cgroup @id gone (removed)? false when it exists or that cannot be told */
typedef bool (*lean_sums_gone_fn)(uint64_t id, void *ctx);

struct lean_sums;

/*
 * lean_sums__new - the copies of a run's maps @m (none yet), before its
 * programs attach: the arrays mapped, every slot pushed free. NULL, errno
 * set: out of memory, or maps that are not a run's sums.
 */
struct lean_sums *lean_sums__new(const struct lean_sums_maps *m);
void lean_sums__free(struct lean_sums *s);
/*
 * lean_sums__take - read the maps: what grew since the last take into
 * *@out (the sums' own, good until the next take); every
 * LEAN_SUMS_SWEEP_EVERY takes, the cgroups @gone says are gone swept
 * (@gone NULL: none is). 0, or a negative errno (out of memory; a map
 * that could not be read).
 */
int lean_sums__take(struct lean_sums *s, lean_sums_gone_fn gone, void *ctx, const struct lean_sums_delta **out);

#endif /* WAKEPROBE_LEAN_SUMS_H */
