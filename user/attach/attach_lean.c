// SPDX-License-Identifier: GPL-2.0
/* attach_lean.c - the lean engine's records, each one wakeup, as attach mode's results */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "attach_lean.h"
#include "chain.h"
#include "chain_hops.h"
#include "explain.h"

/* names kept at once, direct-mapped by tid: a thread whose slot was taken is named "?" */
#define LEAN_NAMES	8192

/* a CPU's newest flight records as they came, more than a slow wakeup brings (a power of two) */
#define LEAN_FLIGHTS	32
_Static_assert(LEAN_FLIGHTS > WP_LEAN_FLIGHT_MAX, "a wakeup's flight records fit");

struct lean_flights {
	uint64_t head;		/* records taken; the last LEAN_FLIGHTS are kept */
	struct wp_event ev[LEAN_FLIGHTS];
};

struct lean_name {
	uint32_t tid;
	uint32_t tgid;
	uint16_t flags;		/* WP_LEAN_TRACKED, WP_LEAN_KTHREAD */
	char comm[WP_TASK_COMM_LEN];
};

/*
 * The shared futex words' keys (WP_LEAN_FUTEX_KEY), by process and
 * address, open addressing: twice the words the BPF side looks up at once
 * (it sends a word's key again after its LRU let the word go)
 */
#define LEAN_FUTEX_KEYS	(2 * WP_FUTEXES_LOOKED_UP)

struct lean_futex_key {
	uint32_t tgid;			/* 0: a free slot */
	uint64_t addr;
	struct futex_key key;
};

struct attach_lean {
	struct attach_config cfg;
	attach_result_fn fn;
	void *ctx;
	/* the WP_LEAN_NAMES record just taken: the wakeup record next, with the same header, is its */
	struct wp_event pending_names;
	bool has_names;
	/* ... and the WP_LEAN_STACKS record after it, with --stacks */
	struct wp_event pending_stacks;
	bool has_stacks;
	/* ... and the WP_LEAN_CGROUPS record after those, with --all, --cgroup or --listen */
	struct wp_event pending_cgroups;
	bool has_cgroups;
	/* ... and the WP_LEAN_LINK records after those, with --chains */
	struct wp_event pending_links[CHAIN_HOPS];
	uint32_t nr_links;
	/* --chains: the wakeups the flight recorder explained, for the chains they are a hop of; made at the first link */
	struct chain_hops *explained;
	struct attach_counters counters;
	uint64_t seq;
	struct mechanism_memo *memo;	/* the names of the mechanisms met lately */
	struct lean_name names[LEAN_NAMES];
	struct lean_flights *flights[WP_MAX_CPUS];	/* made at a CPU's first */
	struct lean_futex_key futex_keys[LEAN_FUTEX_KEYS];
};

struct attach_lean *attach_lean__new(const struct attach_config *cfg, attach_result_fn fn, void *ctx)
{
	struct attach_lean *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->memo = mechanism_memo__new();
	if (!l->memo) {
		free(l);
		return NULL;
	}
	if (cfg)
		l->cfg = *cfg;
	l->fn = fn;
	l->ctx = ctx;
	return l;
}

void attach_lean__free(struct attach_lean *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < WP_MAX_CPUS; i++)
		free(l->flights[i]);
	mechanism_memo__free(l->memo);
	chain_hops__free(l->explained);
	free(l);
}

/* take_flight - a flight record (--threshold-us): kept with its CPU's until a slow wakeup there says it is its */
static void take_flight(struct attach_lean *l, const struct wp_event *e)
{
	struct lean_flights *f;

	if (e->cpu >= WP_MAX_CPUS)
		return;
	f = l->flights[e->cpu];
	/* out of memory: the wakeup it was for finds none, and is counted in flight_lost */
	if (!f && !(f = l->flights[e->cpu] = calloc(1, sizeof(*f))))
		return;
	f->ev[f->head++ % LEAN_FLIGHTS] = *e;
}

/*
 * enqueue_steal - the STEAL record of @sr's waker's CPU, another than the
 * switch-in's, that came before its record when its waker enqueued it
 * (bpf/flight.bpf.h, flight_enqueue_steal()): one of that CPU's newest
 * flight records (that CPU may copy its own between the two), stamped at
 * its wakeup. NULL when none came.
 */
static const struct wp_event *enqueue_steal(const struct attach_lean *l, const struct sample_result *sr)
{
	const struct lean_flights *f = sr->waking_cpu < WP_MAX_CPUS ? l->flights[sr->waking_cpu] : NULL;

	if (!f || sr->wakeup_cpu != sr->waking_cpu)
		return NULL;
	for (uint64_t i = 1; i <= LEAN_FLIGHTS && i <= f->head; i++) {
		const struct wp_event *e = &f->ev[(f->head - i) % LEAN_FLIGHTS];

		if (e->type == WP_EV_STEAL && e->ts_ns == sr->mark_ns[MARK_WAKEUP])
			return e;
	}
	return NULL;
}

/*
 * explain_flight - @sr, a slow wakeup switched in on @cpu, came after the
 * last @n flight records of that CPU (bpf/wakeprobe.h, WP_LEAN_FLIGHT_*):
 * its wake_enqueue and runq_wait there split by cause, as in workload mode,
 * and a wake_enqueue its waker did on its own CPU by that CPU's steal. A
 * record the BPF side could not copy is a drop; the wakeup is explained
 * from the ones that came.
 */
static void explain_flight(struct attach_lean *l, struct sample_result *sr, uint32_t cpu, uint32_t n)
{
	struct wp_event evs[LEAN_FLIGHTS + 1];
	const struct lean_flights *f = cpu < WP_MAX_CPUS ? l->flights[cpu] : NULL;
	const struct wp_event *steal = cpu != sr->waking_cpu ? enqueue_steal(l, sr) : NULL;
	uint32_t i, at = n;

	if (!f || f->head < n) {
		l->counters.flight_lost++;
		return;
	}
	for (i = 0; i < n; i++)
		evs[i] = f->ev[(f->head - n + i) % LEAN_FLIGHTS];
	/* in time order among them */
	if (steal) {
		while (at > 0 && evs[at - 1].ts_ns > steal->ts_ns)
			at--;
		memmove(evs + at + 1, evs + at, (n - at) * sizeof(evs[0]));
		evs[at] = *steal;
		n++;
	}
	explain__sample_lean(&sr->why, sr, evs, n, cpu, EXPLAIN_REACH_WAKE);
	sr->lean_flight = true;
	l->counters.flight_explained++;
}

static const struct lean_name *name_of(const struct attach_lean *l, uint32_t tid)
{
	const struct lean_name *n = &l->names[tid % LEAN_NAMES];

	return n->tid == tid ? n : NULL;
}

static void take_name(struct attach_lean *l, const struct wp_lean *r)
{
	struct lean_name *n = &l->names[r->pid % LEAN_NAMES];

	/* its name stays: a wakeup it made before its end may still come */
	if (r->flags & WP_LEAN_ENDED) {
		l->counters.exited_threads++;
		return;
	}

	if (n->tid != r->pid && ++l->counters.threads > l->counters.threads_peak)
		l->counters.threads_peak = l->counters.threads;
	n->tid = r->pid;
	n->tgid = r->tgid;
	n->flags = r->flags;
	memcpy(n->comm, r->comm, sizeof(n->comm));
	n->comm[sizeof(n->comm) - 1] = '\0';
}

/* futex_key_slot - the slot of word @addr of process @tgid: its own, or the free one where it would go; NULL: full */
static struct lean_futex_key *futex_key_slot(struct attach_lean *l, uint32_t tgid, uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)tgid << 32)) * 0x9e3779b97f4a7c15ull;
	uint32_t i = (uint32_t)(h >> 40) % LEAN_FUTEX_KEYS;

	for (uint32_t n = 0; n < LEAN_FUTEX_KEYS; n++, i = (i + 1) % LEAN_FUTEX_KEYS) {
		struct lean_futex_key *k = &l->futex_keys[i];

		if (!k->tgid || (k->tgid == tgid && k->addr == addr))
			return k;
	}
	return NULL;
}

/* take_futex_key - a shared futex word's key, for the wakeups that wait or wake on it from now on */
static void take_futex_key(struct attach_lean *l, const struct wp_lean *r)
{
	struct lean_futex_key *k = futex_key_slot(l, r->pid, r->addr);

	if (!k) {
		l->counters.futex_keys_lost++;
		return;
	}
	if (!k->tgid)
		l->counters.futex_keys++;
	*k = (struct lean_futex_key){ .tgid = r->pid, .addr = r->addr,
				      .key = { .shared = true, .dev = r->key_dev, .ino = r->key_ino,
					       .offset = r->key_offset } };
}

/* futex_key_of - the key of word @addr of process @tgid, shared, or not (none came) */
static struct futex_key futex_key_of(struct attach_lean *l, uint32_t tgid, uint64_t addr)
{
	struct lean_futex_key *k = futex_key_slot(l, tgid, addr);

	return k && k->tgid ? k->key : (struct futex_key){ 0 };
}

/* waker_of - who woke it, as far as the lean engine knows: the context, and the task's name */
static void waker_of(const struct attach_lean *l, const struct wp_lean *r, struct waker_info *w)
{
	const struct lean_name *n = name_of(l, r->waker_tid);

	memset(w, 0, sizeof(*w));
	w->nr = -1;
	w->tid = r->waker_tid;
	if (r->flags & WP_LEAN_WAKER_IRQ) {
		w->cls = WP_WAKER_IRQ;
		return;
	}
	/* the task's name, should it be the one that raised the softirq (name_from_both_ends()) */
	if (n) {
		w->tgid = n->tgid;
		memcpy(w->comm, n->comm, sizeof(w->comm));
	}
	if (r->flags & WP_LEAN_WAKER_SOFTIRQ) {
		w->cls = WP_WAKER_SOFTIRQ;
		return;
	}
	/* a context the lean engine could not read: current may be the task an interrupt came in on */
	if (r->flags & WP_LEAN_WAKER_UNSURE)
		return;
	if (!n)
		w->cls = WP_WAKER_PROCESS;
	else if (n->flags & WP_LEAN_KTHREAD)
		w->cls = WP_WAKER_KTHREAD;
	else
		w->cls = n->flags & WP_LEAN_TRACKED ? WP_WAKER_TRACKED : WP_WAKER_PROCESS;
}

static const char *mechanism_of(enum mech_family f)
{
	switch (f) {
	case MECH_START:
		return "clone -> first run";
	case MECH_IRQ:
		return "interrupt -> run";
	case MECH_SOFTIRQ:
		return "softirq -> run";
	case MECH_KTHREAD:
		return "kernel thread -> run";
	case MECH_PROCESS:
		return "another process -> run";
	case MECH_OTHER:
		return "thread -> run";
	default:
		return "unknown -> run";
	}
}

/* names_of - the WP_LEAN_NAMES record that came with wakeup record @e, or NULL */
static const struct wp_lean_names *names_of(struct attach_lean *l, const struct wp_event *e)
{
	const struct wp_event *n = &l->pending_names;

	if (!l->has_names)
		return NULL;
	l->has_names = false;
	if (n->ts_ns != e->ts_ns || n->cpu != e->cpu || n->tid != e->tid) {
		l->counters.unpaired_wakers++;
		return NULL;
	}
	return &n->lean_names;
}

/*
 * name_from_both_ends - attach mode's names of wakeup @r (@names): the
 * waker's class and syscall, and the wait it ended, as the full engine
 * has them from its WAKER and BLOCK records (attach.c), untimed
 */
static void name_from_both_ends(struct attach_lean *l, const struct wp_lean *r, const struct wp_lean_names *names,
				struct attach_result *res)
{
	struct waker_info *w = &res->waker;
	struct sample_result *sr = &res->sr;
	uint64_t addr;

	if (names->waker_class)
		w->cls = names->waker_class;
	if (w->cls == WP_WAKER_SOFTIRQ && (names->seen & WP_SEEN_RAISED)) {
		w->raised = true;
		w->nr = names->waker_nr;
	}
	if (w->cls == WP_WAKER_SYSCALL) {
		w->nr = names->waker_nr;
		w->fd_kind = names->waker_fd_kind;
		w->arg = names->waker_arg;
		w->arg2 = names->waker_arg2;
		if (mechanism__futex_wake_addr(w, &addr))
			w->futex = futex_key_of(l, w->tgid, addr);
		w->untimed = true;
		sr->notify_nr = w->nr;
		sr->notify_arg = w->arg;
		sr->notify_arg2 = w->arg2;
	}
	if (r->flags & WP_LEAN_NEW) {
		/* a start: the syscall it leaves is its parent's clone() */
		res->wait.known = w->cls == WP_WAKER_SYSCALL;
		res->wait.nr = res->wait.known ? w->nr : -1;
	} else if (names->seen & WP_SEEN_WAIT) {
		res->wait.known = true;
		res->wait.nr = names->wait_nr;
		res->wait.arg = names->wait_nr >= 0 ? names->wait_arg : 0;
		res->wait.arg2 = names->wait_nr >= 0 ? names->wait_arg2 : 0;
		res->wait.fd_kind = names->wait_nr >= 0 ? names->wait_fd_kind : FD_KIND_UNKNOWN;
		if (mechanism__futex_wait_addr(&res->wait, &addr))
			res->wait.futex = futex_key_of(l, res->wakee_tgid, addr);
	}
	res->wait.untimed = res->wait.known;
	/* the idle of the CPU it last ran on, with the flight recorder's idle program */
	if ((names->seen & WP_SEEN_IDLE) && names->idle_exit) {
		sr->target_was_idle = true;
		sr->idle_exit_seen = names->idle_exit != WP_IDLE_EXIT_UNSEEN;
		if (sr->idle_exit_seen)
			sr->idle_exit_ns = names->idle_exit - 1;
	}
	res->idle_seen = names->seen & WP_SEEN_IDLE;
	attach__name_mechanism(&l->cfg, res, l->memo);
	res->named = true;
}

/*
 * migrations_of - the moves of complete wakeup @r's task, which ran on
 * @ran_on: the wake's choice of another CPU than the one it last ran on
 * (WP_LEAN_MOVED), and a move while it waited to run there. As the full
 * engine counts sched_migrate_task inside a wakeup, but for a second move
 * while it waited, which one record cannot tell.
 */
static void migrations_of(const struct wp_lean *r, uint32_t ran_on, struct attach_result *res)
{
	struct explanation *x = &res->sr.why;
	bool moved_waiting = ran_on != r->target_cpu;

	res->migrations = (r->flags & WP_LEAN_MOVED ? 1 : 0) + moved_waiting;
	x->migrations = res->migrations;
	if (!x->migrations)
		return;
	x->migrated_from = moved_waiting ? r->target_cpu : EXPLAIN_CPU_UNKNOWN;
	x->migrated_to = ran_on;
}

/* same_record - was @part written in one ring record with wakeup @e (the same header)? */
static bool same_record(const struct wp_event *part, const struct wp_event *e)
{
	return part->ts_ns == e->ts_ns && part->cpu == e->cpu;
}

/*
 * parts_of - what rode between wakeup @e's names and itself, into @res:
 * its stacks (--stacks), its cgroups (--all, --cgroup, --listen) and its
 * chain's links (--chains)
 */
static void parts_of(const struct attach_lean *l, const struct wp_event *e, struct attach_result *res)
{
	struct wp_lean_link links[CHAIN_HOPS];
	uint32_t n = 0;

	if (l->has_stacks && same_record(&l->pending_stacks, e)) {
		res->sr.stacked = true;
		res->sr.stacks = l->pending_stacks.lean_stacks;
	}
	if (l->has_cgroups && same_record(&l->pending_cgroups, e)) {
		res->cgrouped = true;
		res->cgroups = l->pending_cgroups.lean_cgroups;
	}
	for (uint32_t i = 0; i < l->nr_links; i++)
		if (same_record(&l->pending_links[i], e))
			links[n++] = l->pending_links[i].lean_link;
	if (!n)
		return;
	res->chained = true;
	chain__assemble(links, n, e->lean.pid, &res->chain);
	if (l->explained)
		chain_hops__explain(l->explained, links, e->lean.waking_ns, &res->chain);
	/* the first hop's waker woke this wakee: its stacks are the wakeup's own */
	if (res->sr.stacked && res->chain.nr_hops) {
		res->chain.hops[0].stacked = true;
		res->chain.hops[0].waker_kernel = res->sr.stacks.waker_kernel;
		res->chain.hops[0].waker_user = res->sr.stacks.waker_user;
		res->chain.hops[0].waker_tgid = res->sr.stacks.waker_tgid;
	}
	for (uint32_t i = 0; i < res->chain.nr_hops; i++) {
		struct chain_hop *h = &res->chain.hops[i];
		const struct lean_name *waker = h->kind <= WP_LINK_UNTRACED ? name_of(l, h->waker_tid) : NULL;
		const struct lean_name *holder = h->holder_tid ? name_of(l, h->holder_tid) : NULL;

		if (waker)
			memcpy(h->waker_comm, waker->comm, sizeof(h->waker_comm));
		if (holder)
			memcpy(h->holder_comm, holder->comm, sizeof(h->holder_comm));
	}
}

static void wakeup_of(struct attach_lean *l, const struct wp_event *e)
{
	const struct wp_lean_names *names = names_of(l, e);
	const struct wp_lean *r = &e->lean;
	const struct lean_name *wakee = name_of(l, r->pid);
	struct attach_result res;
	struct sample_result *sr = &res.sr;
	uint64_t *m = sr->mark_ns;
	int k;

	/*
	 * all but the explanation's stretches, which count from nr_iv (0): at
	 * a machine's rate, 1.4 KiB a wakeup not written is a tenth of its cost
	 */
	memset(&res, 0, offsetof(struct attach_result, sr.why.iv));
	memset(&res.sr.why.nr_iv, 0, sizeof(res) - offsetof(struct attach_result, sr.why.nr_iv));
	if (names)
		parts_of(l, e, &res);
	l->has_stacks = false;
	l->has_cgroups = false;
	l->nr_links = 0;
	waker_of(l, r, &res.waker);
	sr->lean = true;
	sr->sample.seq = ++l->seq;
	sr->sample.waker_tid = mechanism__waker_is_thread(&res.waker) ? r->waker_tid : 0;
	sr->sample.wakee_tid = r->pid;
	sr->sample.waker_cpu = r->waking_cpu;
	sr->sample.wakee_cpu = r->target_cpu;
	sr->notify_nr = -1;
	sr->wait_end_nr = -1;
	sr->waking_cpu = r->waking_cpu;
	sr->wakeup_cpu = r->wakeup_cpu;
	sr->target_cpu = r->target_cpu;
	if (wakee) {
		res.wakee_tgid = wakee->tgid;
		memcpy(res.wakee_comm, wakee->comm, sizeof(res.wakee_comm));
	}
	res.wait.nr = -1;
	if (r->flags & WP_LEAN_NEW) {
		res.wait.known = true;
		res.wait.start = true;
	}
	res.wake_to_run_ns = -1;
	res.notify_to_return_ns = -1;
	res.waited_ns = -1;
	if (names) {
		name_from_both_ends(l, r, names, &res);
	} else {
		/* without its names, the one part of a mechanism the lean engine knows: the waker's kind, or a start */
		res.family = r->flags & WP_LEAN_NEW ? MECH_START : mechanism__family(&res.waker, NULL);
		snprintf(res.mechanism, sizeof(res.mechanism), "%s", mechanism_of(res.family));
	}
	res.mark_seen[MARK_WAKING] = res.mark_seen[MARK_WAKEUP] = true;
	m[MARK_WAKING] = r->waking_ns;
	m[MARK_WAKEUP] = r->wakeup_ns;
	for (k = 0; k < NR_PHASES; k++)
		res.absent[k] = ATTACH_ABSENT_LABELLED;
	res.absent[PHASE_NOTIFY_USER] = res.absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	sr->t_notify_ns = r->waking_ns;
	if (r->flags & WP_LEAN_NO_SWITCH_IN) {
		/* it ran, but the switch that let it went untraced (docs/phases.md) */
		sr->label = LABEL_MISSING_EVENT;
		sr->missing = MARK_SWITCH_IN;
		sr->t_woken_ns = r->wakeup_ns;
		sr->total_ns = (int64_t)(r->wakeup_ns - r->waking_ns);
	} else {
		res.mark_seen[MARK_SWITCH_IN] = true;
		/* the absent phases are zero wide, as attach.h has them */
		m[MARK_NOTIFY_ENTER] = m[MARK_WAKING];
		m[MARK_SWITCH_IN] = m[MARK_WAIT_EXIT] = e->ts_ns;
		sr->label = LABEL_COMPLETE;
		sr->phased = true;
		sr->t_woken_ns = e->ts_ns;
		sr->total_ns = (int64_t)(e->ts_ns - r->waking_ns);
		sr->phase_ns[PHASE_WAKE_ENQUEUE] = (int64_t)(r->wakeup_ns - r->waking_ns);
		sr->phase_ns[PHASE_RUNQ_WAIT] = (int64_t)(e->ts_ns - r->wakeup_ns);
		/* named, not timed: absent as the full engine has them without --syscall-phases */
		res.absent[PHASE_NOTIFY_KERNEL] = attach__notify_absence(&res.waker);
		res.absent[PHASE_RESUME_KERNEL] = res.wait.known && !res.wait.start && res.wait.nr < 0 ?
			ATTACH_ABSENT_NO_WAIT_SYSCALL : ATTACH_ABSENT_UNTIMED;
		res.absent[PHASE_WAKE_ENQUEUE] = res.absent[PHASE_RUNQ_WAIT] = ATTACH_PRESENT;
		res.wake_to_run_ns = sr->total_ns;
		if (wp_lean_flight(r->flags))
			explain_flight(l, sr, e->cpu, wp_lean_flight(r->flags));
		/* for the chains it is a hop of: its explanation where the flight recorder gave one, its stacks */
		if (l->explained && (sr->lean_flight || sr->stacked))
			chain_hops__remember(l->explained, r->pid, r->waking_ns, sr, sr->lean_flight);
		migrations_of(r, e->cpu, &res);
	}
	if (r->flags & WP_LEAN_NEW)
		l->counters.new_threads++;
	l->counters.results++;
	l->fn(&res, l->ctx);
}

void attach_lean__add_event(struct attach_lean *l, const struct wp_event *e)
{
	l->counters.events++;
	if (e->drops > l->counters.drops_seen)
		l->counters.drops_seen = e->drops;
	if (e->type == WP_EV_SWITCH || e->type == WP_EV_IDLE_ENTER || e->type == WP_EV_IDLE_EXIT ||
	    e->type == WP_EV_IRQ || e->type == WP_EV_STEAL)
		take_flight(l, e);
	if (e->type != WP_EV_LEAN)
		return;
	if ((e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_STACKS)) == (WP_LEAN_NAMES | WP_LEAN_STACKS)) {
		l->pending_stacks = *e;
		l->has_stacks = true;
	} else if ((e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_CGROUPS)) == (WP_LEAN_NAMES | WP_LEAN_CGROUPS)) {
		l->pending_cgroups = *e;
		l->has_cgroups = true;
	} else if ((e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_LINK)) == (WP_LEAN_NAMES | WP_LEAN_LINK)) {
		if (l->nr_links < CHAIN_HOPS)
			l->pending_links[l->nr_links++] = *e;
		/* without the memory, the hops name their holders alone */
		if (!l->explained)
			l->explained = chain_hops__new();
	} else if (e->lean.flags & WP_LEAN_NAMES) {
		if (l->has_names)
			l->counters.unpaired_wakers++;
		l->pending_names = *e;
		l->has_names = true;
		l->has_stacks = false;
		l->has_cgroups = false;
		l->nr_links = 0;
	} else if ((e->lean.flags & (WP_LEAN_NAME | WP_LEAN_FUTEX_KEY)) == (WP_LEAN_NAME | WP_LEAN_FUTEX_KEY))
		take_futex_key(l, &e->lean);
	else if (e->lean.flags & WP_LEAN_NAME)
		take_name(l, &e->lean);
	else
		wakeup_of(l, e);
}

void attach_lean__note_drops(struct attach_lean *l, uint64_t drops)
{
	if (drops > l->counters.drops_seen)
		l->counters.drops_seen = drops;
}

void attach_lean__add_summed(struct attach_lean *l, uint64_t wakeups, uint64_t new_threads)
{
	l->counters.results += wakeups;
	l->counters.new_threads += new_threads;
}

const struct attach_counters *attach_lean__counters(const struct attach_lean *l)
{
	return &l->counters;
}
