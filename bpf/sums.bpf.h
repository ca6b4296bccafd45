/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sums.bpf.h - the service's sums (want_sums, --listen): a wakeup the
 * flight recorder did not judge slow is added here, where the lean engine
 * would have written its record, to the machine's counts and histograms
 * (per CPU) and to the sums of its cgroups (shared, added atomically), and
 * leaves no record. wakeprobe reads them once a second and adds what grew
 * since to its tables (user/live/lean_sums.c), as the records would have:
 * the same families, the same cgroups.
 *
 * The sums by cgroup are kept in slots of two arrays, one line for each
 * (wakee, holder, waker, family) and one slot for each wakee cgroup,
 * found through two hash maps the first time a key is met; a task keeps
 * the slots of its last two keys, and a wakeup of one of them touches no
 * hash map. The free slots wait in stacks, filled by wakeprobe before the
 * programs attach and again as it frees the slots of cgroups that are
 * gone (lean_sums.h says when): the last freed is taken first, so that a
 * machine that makes and removes cgroups all day keeps using the same few.
 *
 * A wakeup whose key has no slot and finds none free is not summed: its
 * record goes as any slow one's does, counted in wp_sum_counts.refused.
 * Nothing is lost for want of room.
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
	__type(value, __u32);		/* its slot in sum_cgroup_slots */
} sum_cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct wp_sum_key);
	__type(value, __u32);		/* its slot in sum_key_slots */
} sum_keys SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wp_sum_cgroup);
} sum_cgroup_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wp_sum_slot);
} sum_key_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 1);
	__type(value, __u32);
} sum_cgroup_free SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 1);
	__type(value, __u32);
} sum_key_free SEC(".maps");

/*
 * sum_cgroup_slot - the slot of wakee cgroup @id's sums, one taken from
 * the free ones when it has none: its id written before it is found by it,
 * its sums zero as a free slot's are. -1 when none is left.
 */
static __always_inline __s64 sum_cgroup_slot(__u64 id)
{
	__u32 *found = bpf_map_lookup_elem(&sum_cgroups, &id);
	struct wp_sum_cgroup *cg;
	__u32 slot;

	if (found)
		return *found;
	if (bpf_map_pop_elem(&sum_cgroup_free, &slot))
		return -1;
	cg = bpf_map_lookup_elem(&sum_cgroup_slots, &slot);
	if (!cg)
		return -1;	/* none but a slot's index is ever pushed */
	cg->id = id;
	if (!bpf_map_update_elem(&sum_cgroups, &id, &slot, BPF_NOEXIST))
		return slot;
	/* another CPU made it between the two: the slot goes back */
	cg->id = 0;
	bpf_map_push_elem(&sum_cgroup_free, &slot, 0);
	found = bpf_map_lookup_elem(&sum_cgroups, &id);
	return found ? *found : -1;
}

/*
 * sum_key_slot - the slot of @k's sums, into @slot; one taken from the
 * free ones when it has none, as sum_cgroup_slot() takes its wakee's.
 * NULL when none is left. The wakee is written last, and read first
 * (sum_slot_is()): a slot whose key is half written is no key's.
 */
static __always_inline struct wp_sum_slot *sum_key_slot(const struct wp_sum_key *k, __u32 *slot)
{
	__u32 *found = bpf_map_lookup_elem(&sum_keys, k);
	struct wp_sum_slot *s;
	__s64 cgroup_slot;

	if (found) {
		*slot = *found;
		return bpf_map_lookup_elem(&sum_key_slots, slot);
	}
	cgroup_slot = sum_cgroup_slot(k->wakee);
	if (cgroup_slot < 0 || bpf_map_pop_elem(&sum_key_free, slot))
		return NULL;
	s = bpf_map_lookup_elem(&sum_key_slots, slot);
	if (!s)
		return NULL;
	s->key.holder = k->holder;
	s->key.waker = k->waker;
	s->key.family = k->family;
	s->key.__pad = 0;
	s->cgroup_slot = (__u32)cgroup_slot;
	barrier();
	s->key.wakee = k->wakee;
	if (!bpf_map_update_elem(&sum_keys, k, slot, BPF_NOEXIST))
		return s;
	s->key.wakee = 0;
	bpf_map_push_elem(&sum_key_free, slot, 0);
	found = bpf_map_lookup_elem(&sum_keys, k);
	if (!found)
		return NULL;
	*slot = *found;
	return bpf_map_lookup_elem(&sum_key_slots, slot);
}

/* sum_slot_is - is @s the slot of key @k now? */
static __always_inline bool sum_slot_is(const struct wp_sum_slot *s, const struct wp_sum_key *k)
{
	if (s->key.wakee != k->wakee)
		return false;
	barrier();
	return s->key.holder == k->holder && s->key.waker == k->waker && s->key.family == k->family;
}

/*
 * sum_slot_of - @k's slot, @p's wakeup's: one of the two @lt's last keys
 * had, or found through sum_keys and kept in place of the older of them
 */
static __always_inline struct wp_sum_slot *sum_slot_of(struct lean_task *lt, const struct wp_sum_key *k)
{
	struct wp_sum_slot *s;
	__u32 slot;

	for (int i = 0; i < 2; i++) {
		slot = lt->sum_slots[i] - 1;
		if (lt->sum_slots[i] && (s = bpf_map_lookup_elem(&sum_key_slots, &slot)) && sum_slot_is(s, k))
			return s;
	}
	s = sum_key_slot(k, &slot);
	if (s) {
		lt->sum_slots[lt->sum_older & 1] = slot + 1;
		lt->sum_older ^= 1;
	}
	return s;
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
static __always_inline bool sums_add(struct task_struct *p, struct lean_task *lt, __u64 ts_ns, __u16 flags,
				     __u32 idle_exit)
{
	const struct wp_lean_names *n = &lt->names;
	bool complete = !(flags & WP_LEAN_NO_SWITCH_IN);
	__u64 took = ts_ns - lt->waking_ns, runq = ts_ns > lt->wakeup_ns ? ts_ns - lt->wakeup_ns : 0;
	__u8 cls = n->waker_class < WP_WAKER_CLASS_MAX ? n->waker_class : 0;
	struct wp_sum_counts *c;
	__u32 zero = 0;

	c = bpf_map_lookup_elem(&sum_counts, &zero);
	if (!c)
		return false;
	if (complete) {
		struct wp_sum_key k = {
			.wakee = task_cgroup_id(p), .holder = lt->holder_cgroup, .waker = lt->waker_cgroup,
			.family = sum_family(lt, flags),
		};
		struct wp_sum_cgroup *cg = NULL;
		struct wp_sum_slot *s;

		/* both, or neither: a wakeup is summed whole or sent */
		s = sum_slot_of(lt, &k);
		if (s)
			cg = bpf_map_lookup_elem(&sum_cgroup_slots, &s->cgroup_slot);
		if (!cg || cg->id != k.wakee) {
			c->refused++;
			return false;
		}
		__sync_fetch_and_add(&cg->sum_ns, took);
		__sync_fetch_and_add(&cg->buckets[wp_slow_bucket(took) & (WP_SLOW_BUCKETS - 1)], 1);
		if (took > cg->max_ns)
			cg->max_ns = took;
		__sync_fetch_and_add(&s->val.wakeups, 1);
		__sync_fetch_and_add(&s->val.wake_to_run_ns, took);
		__sync_fetch_and_add(&s->val.runq_wait_ns, runq);
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
