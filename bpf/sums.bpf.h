/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sums.bpf.h - the service's sums (want_sums, --listen): a wakeup the
 * flight recorder did not judge slow is added here, where the lean engine
 * would have written its record, to the machine's counts and histograms
 * (per CPU) and to the sums of its cgroups (shared, added atomically:
 * two hash lookups, one by its cgroup and one by its four keys),
 * and leaves no record. wakeprobe reads the maps once a second and adds
 * what grew since to its tables (user/live/lean_sums.c), as the records
 * would have: the same families, the same cgroups.
 *
 * A wakeup whose cgroup or (wakee, holder, waker, family) has no entry
 * and finds its map full is not summed: its record goes as any
 * slow one's does, counted in wp_sum_counts.refused. Nothing is lost for
 * want of room; wakeprobe deletes the entries of the cgroups that are
 * gone.
 */
#ifndef WAKEPROBE_SUMS_BPF_H
#define WAKEPROBE_SUMS_BPF_H

#include "lean_task.bpf.h"

const volatile bool want_sums = false;
/* the syscalls' roles and the fds' families, from user space's own (mechanism__tables()) */
const volatile struct wp_mech_tables mech_tables;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wp_sum_counts);
} sum_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WP_SUM_HISTS);
	__type(key, __u32);
	__type(value, struct wp_sum_hist);
} sum_hists SEC(".maps");

/* sized by wakeprobe before load (1 each without want_sums) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, struct wp_sum_cgroup);
} sum_cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct wp_sum_key);
	__type(value, struct wp_sum_val);
} sum_keys SEC(".maps");

/* the zero an entry starts from: 2 KiB, more than a program's stack */
static const struct wp_sum_cgroup sum_cgroup_zero;
static const struct wp_sum_val sum_val_zero;

/* sum_entry - @map's entry for @key, made from @zero when it has none; NULL when the map is full */
static __always_inline void *sum_entry(void *map, const void *key, const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	/* -EEXIST: another CPU made it between the two */
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/* sum_hist_add - @v into this CPU's histogram @kind */
static __always_inline void sum_hist_add(__u32 kind, __u64 v)
{
	struct wp_sum_hist *h = bpf_map_lookup_elem(&sum_hists, &kind);

	if (h)
		wp_sum_hist_add(h, v);
}

/* sum_role - the roles of syscall @nr (WP_ROLE_*), 0 for none or one past the table */
static __always_inline __u8 sum_role(__s32 nr)
{
	__u32 i = (__u32)nr;

	if (nr < 0 || nr >= WP_MAX_SYSCALLS)
		return 0;
	/* the check above, held for the verifier: the compiler may index by a copy it never bounded */
	asm volatile("" : "+r"(i));
	return mech_tables.roles[i & (WP_MAX_SYSCALLS - 1)];
}

/* sum_fd_family - the family of an fd of @kind (enum fd_kind) */
static __always_inline __u8 sum_fd_family(__u8 kind)
{
	__u32 i = kind;

	if (i >= NR_FD_KINDS)
		return MECH_UNKNOWN;
	asm volatile("" : "+r"(i));
	return mech_tables.fd_family[i & (WP_FD_FAMILIES - 1)];
}

/*
 * sum_family - the family of @lt's wakeup, as user space names it from
 * its record (attach_lean.c's name_from_both_ends()): the waker's class
 * and syscall, and the wait it ended; a new task's wait is its parent's
 * clone(), known when the parent was in a syscall
 */
static __always_inline __u8 sum_family(const struct lean_task *lt, __u16 flags)
{
	const struct wp_lean_names *n = &lt->names;
	__u8 cls = n->waker_class;
	__u8 waker_role = 0, waker_family = MECH_UNKNOWN, wait_role = 0, wait_family = MECH_UNKNOWN;
	int have_wait, start = 0;

	if (cls == WP_WAKER_SYSCALL) {
		waker_role = sum_role(n->waker_nr);
		waker_family = sum_fd_family(n->waker_fd_kind);
	}
	if (flags & WP_LEAN_NEW) {
		start = 1;
		have_wait = cls == WP_WAKER_SYSCALL;
		wait_role = waker_role;
	} else {
		have_wait = !!(n->seen & WP_SEEN_WAIT);
		if (have_wait && n->wait_nr >= 0) {
			wait_role = sum_role(n->wait_nr);
			wait_family = sum_fd_family(n->wait_fd_kind);
		}
	}
	return wp_mech_family(cls, waker_role, waker_family, have_wait, start, wait_role, wait_family);
}

/*
 * sums_add - want_sums: @p's wakeup in @lt, switched in at @ts_ns (or not,
 * WP_LEAN_NO_SWITCH_IN in @flags), added to the sums; false when it could
 * not be (a map full), and its record is to go instead
 */
static __always_inline bool sums_add(struct task_struct *p, const struct lean_task *lt, __u64 ts_ns, __u16 flags,
				     __u32 idle_exit)
{
	const struct wp_lean_names *n = &lt->names;
	struct wp_sum_cgroup *cg = NULL;
	struct wp_sum_val *v = NULL;
	bool complete = !(flags & WP_LEAN_NO_SWITCH_IN);
	__u64 took = ts_ns - lt->waking_ns, runq = ts_ns > lt->wakeup_ns ? ts_ns - lt->wakeup_ns : 0;
	__u8 cls = n->waker_class < WP_WAKER_CLASS_MAX ? n->waker_class : 0;
	__u8 family = MECH_UNKNOWN;
	struct wp_sum_counts *c;
	__u32 zero = 0;

	c = bpf_map_lookup_elem(&sum_counts, &zero);
	if (!c)
		return false;
	if (complete) {
		__u64 wakee = task_cgroup_id(p);
		struct wp_sum_key k = {
			.wakee = wakee, .holder = lt->holder_cgroup, .waker = lt->waker_cgroup,
		};

		family = sum_family(lt, flags);
		k.family = family;
		/* both, or neither: a wakeup is summed whole or sent */
		cg = sum_entry(&sum_cgroups, &wakee, &sum_cgroup_zero);
		if (cg)
			v = sum_entry(&sum_keys, &k, &sum_val_zero);
		if (!v) {
			c->refused++;
			return false;
		}
		__sync_fetch_and_add(&cg->sum_ns, took);
		__sync_fetch_and_add(&cg->buckets[wp_slow_bucket(took) & (WP_SLOW_BUCKETS - 1)], 1);
		if (took > cg->max_ns)
			cg->max_ns = took;
		__sync_fetch_and_add(&v->wakeups, 1);
		__sync_fetch_and_add(&v->wake_to_run_ns, took);
		__sync_fetch_and_add(&v->runq_wait_ns, runq);
	}
	c->by_class[cls]++;
	if (cls == WP_WAKER_SOFTIRQ && (n->seen & WP_SEEN_RAISED))
		c->softirq_raised++;
	if (flags & WP_LEAN_NEW)
		c->new_threads++;
	if (!complete)
		return true;
	c->complete_by_class[cls]++;
	if (!(flags & WP_LEAN_NEW) && (n->seen & WP_SEEN_WAIT) && n->wait_nr < 0)
		c->no_wait_syscall++;
	if (lt->wakeup_cpu != lt->waking_cpu)
		c->remote++;
	if (lean_flight && idle_exit) {
		c->target_idle++;
		if (idle_exit != WP_IDLE_EXIT_UNSEEN)
			sum_hist_add(WP_SUM_IDLE_EXIT, idle_exit - 1);
	}
	sum_hist_add(WP_SUM_WAKE_ENQUEUE, lt->wakeup_ns - lt->waking_ns);
	sum_hist_add(WP_SUM_RUNQ_WAIT, ts_ns - lt->wakeup_ns);
	sum_hist_add(WP_SUM_WAKE_TO_RUN, took);
	return true;
}

#endif /* WAKEPROBE_SUMS_BPF_H */
