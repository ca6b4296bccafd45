// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_attach.c - attach mode on the timeline: the traced programs' own
 * processes and threads, each wakeup of a traced thread on its thread's
 * track split into the kernel phases it has, and an arrow from whatever
 * woke it: the waker's thread when a traced thread did, else the CPU that
 * ran the waking (an interrupt, a softirq, a timer, another process, a
 * kernel thread). The CPU tracks are perfetto_cpus.c's, fed the same records.
 *
 * A track is keyed by the thread's tid and named by what the records say
 * of it at the time: a switch-in names a task's process and comm, a waker
 * record its process. A tid seen again in another process is another
 * thread, on a track of that process; a thread whose comm changes (exec,
 * prctl, a tid reused in its process) has its track named again.
 *
 * Bounds (state of fixed size, 832 KiB allocated at the first attach run;
 * nothing else is kept between wakeups, whose slices are written as they
 * come):
 *  - TLA_TRACKS (16384) thread tracks at once, as many as the engine keeps
 *    threads (ATTACH_MAX_THREADS), in sets of TLA_WAYS; past that the one
 *    of its set used least recently is forgotten (counted), and a track made
 *    again draws nothing before the end of what its set forgot, so its
 *    slices still nest;
 *  - TLA_PROCS (4096) processes named at once; one forgotten is named again
 *    when it comes back (the same name, written twice);
 *  - TLA_NAMES (4096) threads' process and comm from the records, direct
 *    mapped by tid: a wakee that no switch-in named is looked up there;
 *  - with --chains, a chain track beside each thread track, with the
 *    TLA_CHAIN_SPANS (6) spans drawn there last, in a second block of
 *    1.9 MiB allocated at the first wakeup that has a chain (below).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach.h"
#include "explain.h"
#include "mechanism.h"
#include "perfetto_attach.h"
#include "perfetto_common.h"
#include "perfetto_cpus.h"
#include "perfetto_trace.h"
#include "run_stacks.h"

#define TLA_WAYS	4
#define TLA_TRACK_SETS	4096
#define TLA_TRACKS	(TLA_TRACK_SETS * TLA_WAYS)
#define TLA_PROC_SETS	1024
#define TLA_PROCS	(TLA_PROC_SETS * TLA_WAYS)
#define TLA_NAMES	4096
/* the named causes a wakeup slice lists, longest first */
#define TLA_MAIN_CAUSES	3
/* the spans of what was drawn on a chain track that a chain's slices are checked against */
#define TLA_CHAIN_SPANS	6
/* a thread's chain track: its tid past PID_MAX_LIMIT, where no real tid meets it, below the synthetic ids */
#define TLA_CHAIN_TID	(1u << 22)
_Static_assert(2 * TLA_CHAIN_TID < TL_ID_BASE, "chain tracks would meet the synthetic ids");

/* a traced thread's track */
struct tla_track {
	uint32_t tid;		/* 0: free */
	uint32_t tgid;
	uint64_t busy_until_ns;	/* where the last wakeup drawn on it ends */
	uint64_t used;		/* when it was last used, in draws: the least recent is forgotten */
	char comm[WP_TASK_COMM_LEN];	/* what it is named by */
};

struct tla_track_set {
	uint64_t forgot_until_ns;	/* the latest end of what was drawn on the tracks this set forgot */
	struct tla_track way[TLA_WAYS];
};

struct tla_proc {
	uint32_t tgid;		/* 0: free */
	uint64_t used;
};

/* what the records last said of a tid */
struct tla_name {
	uint32_t tid;
	uint32_t tgid;
	char comm[WP_TASK_COMM_LEN];	/* empty: not known */
};

struct tla_span {
	uint64_t start_ns;
	uint64_t end_ns;
};

/*
 * A thread's chain track, for --chains: the hops of the chains it is on.
 * Beside the thread's own track, not on it: the kernel takes a chain's
 * times apart from the wakeup record's (its switch-in a microsecond or so
 * earlier), so a hop's run would overlap the end of the waker's own
 * wakeup there. A chain draws back in time, where later chains may have
 * drawn already: each slice must nest with all on the track. The spans
 * that ended last are kept; all the others ended by floor_ns, before which
 * no slice starts.
 */
struct tla_chain_track {
	bool named;
	uint32_t nr;
	uint64_t floor_ns;
	uint64_t until_ns;	/* where the last slice drawn ends */
	struct tla_span span[TLA_CHAIN_SPANS];
};

struct perfetto_attach {
	/* --chains: by track, set by set; NULL until the first wakeup with a chain */
	struct tla_chain_track *chains;
	uint64_t clock;		/* counts uses, for the least recently used */
	struct tla_track_set tracks[TLA_TRACK_SETS];
	struct tla_proc procs[TLA_PROC_SETS][TLA_WAYS];
	struct tla_name names[TLA_NAMES];
};

_Static_assert(TLA_TRACKS >= ATTACH_MAX_THREADS, "a track for every thread the engine keeps");

struct perfetto_attach *perfetto_attach__new(void)
{
	return calloc(1, sizeof(struct perfetto_attach));
}

void perfetto_attach__free(struct perfetto_attach *a)
{
	if (a)
		free(a->chains);
	free(a);
}

void perfetto_attach__begin_run(struct perfetto_attach *a)
{
	struct tla_chain_track *chains = a->chains;

	memset(a, 0, sizeof(*a));
	a->chains = chains;
	if (chains)
		memset(chains, 0, TLA_TRACKS * sizeof(*chains));
}

/* tid_hash - spreads the tids of one process, which are often consecutive, over the sets */
static uint32_t tid_hash(uint32_t id)
{
	return (id * 2654435761u) >> 7;
}

/* ---------------------------------------------------------------- names from the records */

static void note_name(struct perfetto_attach *a, uint32_t tid, uint32_t tgid, const char *comm)
{
	struct tla_name *n = &a->names[tid % TLA_NAMES];

	if (!tid || !tgid)
		return;
	if (n->tid != tid || n->tgid != tgid) {
		memset(n, 0, sizeof(*n));
		n->tid = tid;
		n->tgid = tgid;
	}
	if (comm && comm[0])
		memcpy(n->comm, comm, sizeof(n->comm));
}

static const struct tla_name *name_of(const struct perfetto_attach *a, uint32_t tid)
{
	const struct tla_name *n = &a->names[tid % TLA_NAMES];

	return n->tid == tid ? n : NULL;
}

void perfetto_attach__note(struct perfetto_timeline *t, const struct wp_event *e)
{
	struct perfetto_attach *a = t->attach;

	switch (e->type) {
	case WP_EV_SWITCH:
		note_name(a, e->sw.next_tid, e->sw.next_tgid, e->sw.next_comm);
		break;
	case WP_EV_WAKER:
		/* a syscall waker's record has arguments where the others have the comm */
		if (e->waker.waker_class == WP_WAKER_SYSCALL)
			note_name(a, e->tid, e->waker.waker_tgid, NULL);
		else if (e->waker.waker_class == WP_WAKER_TRACKED || e->waker.waker_class == WP_WAKER_PROCESS)
			note_name(a, e->tid, e->waker.waker_tgid, e->waker.comm);
		break;
	default:
		break;
	}
}

/* ---------------------------------------------------------------- processes and threads */

/* comm_or - @comm as a string of at most 16 bytes, or @none when it is empty */
static void comm_or(char *buf, size_t len, const char *comm, const char *none, uint32_t id)
{
	if (comm[0])
		snprintf(buf, len, "%.*s %" PRIu32, WP_TASK_COMM_LEN, comm, id);
	else
		snprintf(buf, len, "%s %" PRIu32, none, id);
}

/* name_process - process @tgid named once while it is remembered; by its main thread's comm when known */
static void name_process(struct perfetto_timeline *t, uint32_t tgid, const char *comm)
{
	struct perfetto_attach *a = t->attach;
	struct tla_proc *set = a->procs[tid_hash(tgid) % TLA_PROC_SETS], *victim = &set[0];
	const struct tla_name *main_thread = name_of(a, tgid);
	char name[WP_TASK_COMM_LEN + 24];
	int i;

	for (i = 0; i < TLA_WAYS; i++) {
		if (set[i].tgid == tgid) {
			set[i].used = ++a->clock;
			return;
		}
		if (set[i].used < victim->used)
			victim = &set[i];
	}
	victim->tgid = tgid;
	victim->used = ++a->clock;
	if (main_thread && main_thread->tgid == tgid && main_thread->comm[0])
		comm = main_thread->comm;
	comm_or(name, sizeof(name), comm, "process", tgid);
	/* before the CPU process, which follows at 2 * run + 1 */
	perfetto_trace__name_process(t, tgid, name, 2 * t->run.id);
}

/* chain_track - the chain track beside track @tr */
static struct tla_chain_track *chain_track(struct perfetto_attach *a, const struct tla_track *tr)
{
	size_t set = (size_t)((const char *)tr - (const char *)a->tracks) / sizeof(a->tracks[0]);

	return &a->chains[set * TLA_WAYS + (size_t)(tr - a->tracks[set].way)];
}

/* name_chain_track - @tr's chain track, named after it and sorted with it */
static void name_chain_track(struct perfetto_timeline *t, const struct tla_track *tr)
{
	char name[WP_TASK_COMM_LEN + 32];

	comm_or(name, sizeof(name), tr->comm, "thread", tr->tid);
	strcat(name, " chain");
	perfetto_trace__name_thread(t, tr->tgid, TLA_CHAIN_TID + tr->tid, name, tr->tid);
}

static void name_thread(struct perfetto_timeline *t, struct tla_track *tr)
{
	char name[WP_TASK_COMM_LEN + 24];

	comm_or(name, sizeof(name), tr->comm, "thread", tr->tid);
	perfetto_trace__name_thread(t, tr->tgid, tr->tid, name, tr->tid);
	t->run.thread_tracks++;
	if (t->attach->chains && chain_track(t->attach, tr)->named)
		name_chain_track(t, tr);
}

/*
 * track - the track of thread @tid of process @tgid (0: as the records
 * last said), named @comm (empty: as the records said, or by its tid);
 * NULL when no record named its process
 */
static struct tla_track *track(struct perfetto_timeline *t, uint32_t tgid, uint32_t tid, const char *comm)
{
	struct perfetto_attach *a = t->attach;
	struct tla_track_set *set = &a->tracks[tid_hash(tid) % TLA_TRACK_SETS];
	const struct tla_name *n = name_of(a, tid);
	struct tla_track *tr = NULL, *victim = &set->way[0];
	int i;

	if (!tid)
		return NULL;
	for (i = 0; i < TLA_WAYS; i++) {
		if (set->way[i].tid == tid)
			tr = &set->way[i];
		if (set->way[i].used < victim->used)
			victim = &set->way[i];
	}
	if (!tgid && n && n->tgid)
		tgid = n->tgid;
	if (!tgid && tr)
		tgid = tr->tgid;
	if (!tgid)
		return NULL;
	if (!comm[0] && n && n->tgid == tgid)
		comm = n->comm;
	if (tr && tr->tgid == tgid) {
		tr->used = ++a->clock;
		if (comm[0] && strncmp(tr->comm, comm, sizeof(tr->comm))) {
			memcpy(tr->comm, comm, sizeof(tr->comm));
			t->run.threads_renamed++;
			name_thread(t, tr);
		}
		name_process(t, tgid, comm);
		return tr;
	}
	/* a new thread, or this tid now in another process: what was drawn under the old one is kept safe */
	if (!tr) {
		tr = victim;
		if (tr->tid)
			t->run.tracks_forgotten++;
	}
	if (tr->busy_until_ns > set->forgot_until_ns)
		set->forgot_until_ns = tr->busy_until_ns;
	if (a->chains && chain_track(a, tr)->until_ns > set->forgot_until_ns)
		set->forgot_until_ns = chain_track(a, tr)->until_ns;
	memset(tr, 0, sizeof(*tr));
	tr->tid = tid;
	tr->tgid = tgid;
	tr->used = ++a->clock;
	tr->busy_until_ns = set->forgot_until_ns;
	if (a->chains)
		*chain_track(a, tr) = (struct tla_chain_track){ .floor_ns = tr->busy_until_ns,
							       .until_ns = tr->busy_until_ns };
	memcpy(tr->comm, comm, sizeof(tr->comm));
	name_process(t, tgid, comm);
	name_thread(t, tr);
	return tr;
}

/* ---------------------------------------------------------------- chains */

/* a hop of a wakeup's chain as drawn, on its waker's track: its wait for a CPU, then its run */
struct tla_hop {
	struct tla_track *tr;
	uint64_t runnable_ns;	/* where its wait for a CPU began: its own waking */
	uint64_t run_ns;	/* where its run on the path began */
	uint64_t waking_ns;	/* the waking it made, where the run ended */
	uint64_t flow;		/* the arrow from its run to what it woke; 0: none */
};

struct tla_chain {
	uint32_t nr;		/* the hops drawn: the first ones, back from the wakee's waking */
	struct tla_hop hop[CHAIN_HOPS];
};

/* chains_ready - the chain tracks, made at the first chain: nothing is drawn on them yet */
static bool chains_ready(struct perfetto_attach *a)
{
	if (!a->chains)
		a->chains = calloc(TLA_TRACKS, sizeof(*a->chains));
	return a->chains;
}

/* nests - does [@start, @end] nest with span @i of @ct: apart, around it, or inside it */
static bool nests(const struct tla_chain_track *ct, uint32_t i, uint64_t start, uint64_t end)
{
	const struct tla_span *sp = &ct->span[i];

	if (end <= sp->start_ns || start >= sp->end_ns)
		return true;
	if (start <= sp->start_ns && end >= sp->end_ns)
		return true;
	return start >= sp->start_ns && end <= sp->end_ns;
}

/* fits - does a slice from @start to @end nest with all drawn on @tr's chain track? A zero-wide one nests anywhere */
static bool fits(struct perfetto_attach *a, const struct tla_track *tr, uint64_t start, uint64_t end)
{
	const struct tla_chain_track *ct = chain_track(a, tr);

	if (start >= ct->until_ns || start == end)
		return true;
	if (start < ct->floor_ns)
		return false;
	for (uint32_t i = 0; i < ct->nr; i++)
		if (!nests(ct, i, start, end))
			return false;
	return true;
}

/* note_span - [@start, @end] was drawn on @tr's chain track; the span that ended first makes room */
static void note_span(struct perfetto_attach *a, const struct tla_track *tr, uint64_t start, uint64_t end)
{
	struct tla_chain_track *ct = chain_track(a, tr);
	uint32_t i, first = 0;

	if (end > ct->until_ns)
		ct->until_ns = end;
	if (start == end)
		return;
	for (i = 0; i < ct->nr; i++) {
		if (ct->span[i].start_ns == start && ct->span[i].end_ns == end)
			return;
		if (ct->span[i].end_ns < ct->span[first].end_ns)
			first = i;
	}
	if (ct->nr < TLA_CHAIN_SPANS)
		first = ct->nr++;
	else if (ct->span[first].end_ns > ct->floor_ns)
		ct->floor_ns = ct->span[first].end_ns;
	ct->span[first] = (struct tla_span){ .start_ns = start, .end_ns = end };
}

/*
 * plan_chain - the hops of @r's chain that can be drawn, into @plan: back
 * from the wakee's waking, each that ran on the path, whose waker has a
 * track other than the wakee's, where its slices nest. The first that
 * cannot ends what is drawn; it and those after it are counted.
 */
static void plan_chain(struct perfetto_timeline *t, const struct attach_result *r, const struct tla_track *wakee,
		       struct tla_chain *plan)
{
	const struct chain *c = &r->chain;
	uint64_t waking = r->sr.mark_ns[MARK_WAKING];
	uint32_t ran = 0;

	plan->nr = 0;
	while (ran < c->nr_hops && c->hops[ran].run_seen)
		ran++;
	for (uint32_t i = 0; i < ran; i++) {
		const struct chain_hop *h = &c->hops[i];
		struct tla_hop *p = &plan->hop[i];
		uint32_t tgid = !i && r->waker.tid == h->waker_tid ? r->waker.tgid : 0;

		if (h->ran_ns > waking || h->runnable_ns > waking - h->ran_ns)
			break;
		p->tr = track(t, tgid, h->waker_tid, h->waker_comm);
		if (!p->tr || p->tr == wakee)
			break;
		p->waking_ns = waking;
		p->run_ns = waking - h->ran_ns;
		p->runnable_ns = p->run_ns - h->runnable_ns;
		if (!fits(t->attach, p->tr, p->run_ns, p->waking_ns) || !fits(t->attach, p->tr, p->runnable_ns, p->run_ns))
			break;
		plan->nr++;
		waking = p->runnable_ns;
	}
	t->run.chain_hops_not_drawn += ran - plan->nr;
}

/* hop_args - what both slices of hop @i say: the wakeup whose chain it is, and the hop */
static void hop_args(struct json_writer *w, const struct attach_result *r, uint32_t i)
{
	json_writer__put_uint(w, "seq", r->sr.sample.seq);
	json_writer__put_uint(w, "hop", i);
	json_writer__put_uint(w, "chain_of", r->sr.sample.wakee_tid);
}

/*
 * draw_hop - hop @i on its waker's chain track: its run, the arrow leaving
 * it, and its wait for a CPU, where the arrow of hop @i + 1 lands
 */
static void draw_hop(struct perfetto_timeline *t, const struct attach_result *r, const struct tla_chain *plan,
		     uint32_t i)
{
	const struct chain_hop *h = &r->chain.hops[i];
	const struct tla_hop *p = &plan->hop[i];
	const char *wakee_comm = i ? r->chain.hops[i - 1].waker_comm : r->wakee_comm;
	uint64_t into = i + 1 < plan->nr ? plan->hop[i + 1].flow : 0;
	struct tl_slice s = {
		.cat = "chain",
		.name = "chain: ran",
		.pid = p->tr->tgid,
		.tid = TLA_CHAIN_TID + p->tr->tid,
		.start_ns = p->run_ns,
		.end_ns = p->waking_ns,
		.flow = p->flow ? TL_FLOW_OUT : TL_FLOW_NONE,
		.flow_id = p->flow,
	};
	struct json_writer *w;

	if (!chain_track(t->attach, p->tr)->named) {
		chain_track(t->attach, p->tr)->named = true;
		name_chain_track(t, p->tr);
	}
	w = perfetto_trace__slice_begin(t, &s);
	hop_args(w, r, i);
	json_writer__put_uint(w, "wakee_tid", h->wakee_tid);
	json_writer__put_strn(w, "wakee_comm", wakee_comm, WP_TASK_COMM_LEN);
	json_writer__put_uint(w, "ran_ns", h->ran_ns);
	json_writer__put_uint_if(w, "preempted_ns", !h->clipped, h->preempted_ns);
	/* cut at the wakee's sleep: it had begun before */
	json_writer__put_bool(w, "clipped", h->clipped && !h->runnable_ns);
	perfetto_trace__event_end(w);
	note_span(t->attach, p->tr, s.start_ns, s.end_ns);
	t->run.chain_slices++;
	t->run.chain_flows += p->flow != 0;
	/* a run cut at the wakee's sleep has no wait before it on the path */
	if (!h->runnable_ns && !into)
		return;
	s = (struct tl_slice){
		.cat = "chain",
		.name = "chain: runnable",
		.pid = p->tr->tgid,
		.tid = TLA_CHAIN_TID + p->tr->tid,
		.start_ns = p->runnable_ns,
		.end_ns = p->run_ns,
		.flow = into ? TL_FLOW_IN : TL_FLOW_NONE,
		.flow_id = into,
	};
	w = perfetto_trace__slice_begin(t, &s);
	hop_args(w, r, i);
	json_writer__put_uint(w, "runnable_ns", h->runnable_ns);
	json_writer__put_uint(w, "holder_tid", h->holder_tid);
	if (h->holder_tid)
		json_writer__put_strn(w, "holder_comm", h->holder_comm, WP_TASK_COMM_LEN);
	json_writer__put_uint(w, "cpu", h->cpu);
	json_writer__put_bool(w, "clipped", h->clipped && h->runnable_ns);
	perfetto_trace__event_end(w);
	note_span(t->attach, p->tr, s.start_ns, s.end_ns);
	t->run.chain_slices++;
}

/*
 * draw_chain - the hops @plan holds, each with an arrow from its run to
 * what it woke, where that starts strictly later (both viewers need it):
 * the wakee's wakeup slice, from @into_ns, for hop 0; the wait of the hop
 * before for the others. Returns the arrow into the wakeup slice; 0: none.
 */
static uint64_t draw_chain(struct perfetto_timeline *t, const struct attach_result *r, struct tla_chain *plan,
			   uint64_t into_ns)
{
	uint32_t i;

	/* a hop's track another lookup took over since (five tids in one set of four) ends the chain there */
	for (i = 0; i < plan->nr; i++) {
		if (plan->hop[i].tr->tid != r->chain.hops[i].waker_tid) {
			t->run.chain_hops_not_drawn += plan->nr - i;
			plan->nr = i;
			break;
		}
	}
	for (i = 0; i < plan->nr; i++) {
		struct tla_hop *p = &plan->hop[i];
		uint64_t consumer = i ? plan->hop[i - 1].runnable_ns : into_ns;

		p->flow = consumer > p->run_ns ? ++t->samples.last_flow : 0;
	}
	for (i = 0; i < plan->nr; i++)
		draw_hop(t, r, plan, i);
	return plan->nr ? plan->hop[0].flow : 0;
}

/* ---------------------------------------------------------------- wakeups */

/* main_causes - the longest named intervals of the wakeup, as the reports word them, and the phase of each */
static void main_causes(struct json_writer *w, const struct explanation *x)
{
	bool taken[EXPLAIN_MAX_INTERVALS] = { false };
	uint32_t nr = x->nr_iv < EXPLAIN_MAX_INTERVALS ? x->nr_iv : EXPLAIN_MAX_INTERVALS, i, n;
	char desc[192];
	size_t len;

	json_writer__key(w, "main_causes");
	json_writer__begin_array(w);
	for (n = 0; n < TLA_MAIN_CAUSES; n++) {
		int best = -1;

		for (i = 0; i < nr; i++)
			if (!taken[i] && (best < 0 || x->iv[i].dur_ns > x->iv[best].dur_ns))
				best = (int)i;
		if (best < 0)
			break;
		taken[best] = true;
		perfetto_common__interval_text(&x->iv[best], desc, sizeof(desc));
		len = strlen(desc);
		snprintf(desc + len, sizeof(desc) - len, " in %s", wakeup__phase_name(x->iv[best].phase));
		json_writer__string(w, desc);
	}
	json_writer__end_array(w);
}

/* the frames of a stack a slice's args list, at most: its innermost, the code closest to the wake */
#define SLICE_STACK_FRAMES	24

/*
 * put_stack - --stacks: @key, the frames of one side of a wakeup, innermost
 * first: its kernel stack's (marked [k]), then its user stack's, named as
 * the report names them
 */
static void put_stack(struct json_writer *w, struct run_stacks *rs, const char *key, int32_t kernel, int32_t user,
		      pid_t tgid)
{
	const struct stack_frame *fr;
	char name[STACK_FRAME_NAME_MAX + 4];
	size_t shown = 0, n;

	json_writer__key(w, key);
	json_writer__begin_array(w);
	n = run_stacks__frames(rs, kernel, 0, &fr);
	for (size_t i = 0; i < n && shown < SLICE_STACK_FRAMES; i++, shown++) {
		stack_frame__name(&fr[i], name, sizeof(name) - 4);
		strcat(name, " [k]");
		json_writer__string(w, name);
	}
	n = run_stacks__frames(rs, user, tgid, &fr);
	for (size_t i = 0; i < n && shown < SLICE_STACK_FRAMES; i++, shown++) {
		stack_frame__name(&fr[i], name, sizeof(name));
		json_writer__string(w, name);
	}
	json_writer__end_array(w);
}

/* who and what: the args every wakeup slice has */
static void identity_args(struct json_writer *w, const struct attach_result *r)
{
	const struct sample_result *sr = &r->sr;
	char buf[MECHANISM_NAME_LEN];

	json_writer__put_uint(w, "seq", sr->sample.seq);
	json_writer__put_int(w, "total_ns", sr->total_ns);
	json_writer__put_str(w, "label", wakeup__label_name(sr->label));
	if (sr->label == LABEL_MISSING_EVENT)
		json_writer__put_str(w, "missing", wakeup__mark_name(sr->missing));
	mechanism__waker_name(&r->waker, buf, sizeof(buf));
	json_writer__put_str(w, "waker", buf);
	json_writer__put_str(w, "mechanism", r->mechanism);
	json_writer__put_str(w, "family", mechanism__family_name(r->family));
	if (r->wait.known) {
		mechanism__wait_name(&r->wait, buf, sizeof(buf));
		json_writer__put_str(w, "wait", buf);
	}
	json_writer__put_strn(w, "wakee_comm", r->wakee_comm, sizeof(r->wakee_comm));
	if (r->sr.stacked && r->stack_names) {
		put_stack(w, r->stack_names, "waker_stack", r->sr.stacks.waker_kernel, r->sr.stacks.waker_user,
			  (pid_t)r->sr.stacks.waker_tgid);
		put_stack(w, r->stack_names, "wakee_stack", r->sr.stacks.wait_kernel, r->sr.stacks.wait_user,
			  (pid_t)r->wakee_tgid);
	}
}

/* what a complete wakeup's slice says besides: its spans, its CPUs, its absent phases, its causes */
static void complete_args(struct json_writer *w, const struct attach_result *r)
{
	const struct sample_result *sr = &r->sr;
	int k, c;

	json_writer__put_int(w, "wake_to_run_ns", r->wake_to_run_ns);
	if (r->notify_to_return_ns >= 0)
		json_writer__put_int(w, "notify_to_return_ns", r->notify_to_return_ns);
	if (r->waited_ns >= 0)
		json_writer__put_int(w, "waited_ns", r->waited_ns);
	json_writer__put_uint(w, "wakee_prio", r->wakee_prio);
	json_writer__put_uint(w, "waking_cpu", sr->waking_cpu);
	json_writer__put_uint(w, "target_cpu", sr->target_cpu);
	json_writer__put_bool(w, "target_was_idle", sr->target_was_idle);
	if (sr->idle_exit_seen)
		json_writer__put_int(w, "idle_exit_ns", sr->idle_exit_ns);
	if (r->migrations)
		json_writer__put_uint(w, "migrations", r->migrations);
	/* notify_user and resume_user are never measured in attach mode: only the kernel phases are listed */
	json_writer__key(w, "absent");
	json_writer__begin_object(w);
	for (k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++)
		if (r->absent[k] != ATTACH_PRESENT)
			json_writer__put_str(w, wakeup__phase_name(k), attach__absence_name(r->absent[k]));
	json_writer__end_object(w);
	json_writer__key(w, "causes");
	json_writer__begin_object(w);
	for (c = 0; c < NR_CAUSES; c++)
		if (sr->why.by_cause[c])
			json_writer__put_int(w, wakeup__cause_name(c), sr->why.by_cause[c]);
	json_writer__end_object(w);
	main_causes(w, &sr->why);
	if (sr->why.more_iv)
		json_writer__put_uint(w, "intervals_not_listed", sr->why.more_iv);
}

/* the waker's end of the arrow: a zero-length slice where it ran sched_waking */
struct tla_producer {
	uint32_t pid;
	uint32_t tid;
	bool on_cpu;
};

/* producer - the waker's thread when a traced thread woke it, else the waking CPU; false: nowhere to draw */
static bool producer(struct perfetto_timeline *t, const struct attach_result *r, struct tla_producer *p)
{
	const struct waker_info *wk = &r->waker;
	struct tla_track *tr;

	/* a thread cannot wake itself: a record that says so is drawn from the CPU, the wakee's track left alone */
	if ((wk->cls == WP_WAKER_SYSCALL || wk->cls == WP_WAKER_TRACKED) && wk->tid != r->sr.sample.wakee_tid) {
		tr = track(t, wk->tgid, wk->tid, wk->comm);
		if (tr) {
			*p = (struct tla_producer){ .pid = tr->tgid, .tid = tr->tid };
			return true;
		}
	}
	if (r->sr.waking_cpu >= WP_MAX_CPUS)
		return false;
	*p = (struct tla_producer){
		.pid = perfetto_trace__cpus_pid(t),
		.tid = perfetto_cpus__thread(t, r->sr.waking_cpu),
		.on_cpu = true,
	};
	return true;
}

static void draw_producer(struct perfetto_timeline *t, const struct attach_result *r, const struct tla_producer *p,
			  uint64_t flow)
{
	const struct sample_result *sr = &r->sr;
	struct tl_slice s = {
		.cat = "waker",
		.pid = p->pid,
		.tid = p->tid,
		.start_ns = sr->mark_ns[MARK_WAKING],
		.end_ns = sr->mark_ns[MARK_WAKING],
		.flow = TL_FLOW_OUT,
		.flow_id = flow,
	};
	char waker[MECHANISM_NAME_LEN], name[MECHANISM_NAME_LEN + 48];
	struct json_writer *w;

	mechanism__waker_name(&r->waker, waker, sizeof(waker));
	if (p->on_cpu)
		snprintf(name, sizeof(name), "%s wakes %.*s %" PRIu32, waker, WP_TASK_COMM_LEN,
			 r->wakee_comm, sr->sample.wakee_tid);
	else
		snprintf(name, sizeof(name), "wakes %.*s %" PRIu32, WP_TASK_COMM_LEN, r->wakee_comm,
			 sr->sample.wakee_tid);
	s.name = name;
	w = perfetto_trace__slice_begin(t, &s);
	json_writer__put_uint(w, "seq", sr->sample.seq);
	json_writer__put_uint(w, "wakee_tid", sr->sample.wakee_tid);
	json_writer__put_uint(w, "wakee_tgid", r->wakee_tgid);
	json_writer__put_str(w, "waker", waker);
	json_writer__put_str(w, "mechanism", r->mechanism);
	perfetto_trace__event_end(w);
	t->run.flows++;
	if (p->on_cpu)
		t->run.flows_from_cpus++;
}

/*
 * draw_complete - the wakeup slice on the wakee from its first mark to its
 * last, then its present kernel phases, which tile it: the absent ones are
 * zero wide (attach.h). The arrow leaves sched_waking and lands on the
 * first phase that starts strictly later, which both viewers need:
 * runq_wait, or the next one should the wakee be queued at the waking.
 */
static void draw_complete(struct perfetto_timeline *t, const struct attach_result *r, const uint64_t *b,
			  const struct tla_track *wakee, struct tla_chain *plan)
{
	const struct sample_result *sr = &r->sr;
	struct tl_slice s = { .cat = "wakeup", .pid = wakee->tgid, .tid = wakee->tid };
	uint64_t waking = sr->mark_ns[MARK_WAKING], flow = 0;
	int consumer = PHASE_WAKE_ENQUEUE, k;
	struct tla_producer p;
	struct json_writer *w;
	char name[40];

	while (consumer <= PHASE_RESUME_KERNEL && (r->absent[consumer] != ATTACH_PRESENT || b[consumer] <= waking))
		consumer++;
	if (consumer <= PHASE_RESUME_KERNEL && producer(t, r, &p)) {
		flow = ++t->samples.last_flow;
		draw_producer(t, r, &p, flow);
	}

	snprintf(name, sizeof(name), "wakeup #%" PRIu64, sr->sample.seq);
	s.name = name;
	s.start_ns = b[0];
	s.end_ns = b[NR_PHASES];
	s.flow_id = draw_chain(t, r, plan, s.start_ns);
	s.flow = s.flow_id ? TL_FLOW_IN : TL_FLOW_NONE;
	w = perfetto_trace__slice_begin(t, &s);
	identity_args(w, r);
	complete_args(w, r);
	perfetto_trace__event_end(w);

	for (k = 0; k < NR_PHASES; k++) {
		if (r->absent[k] != ATTACH_PRESENT)
			continue;
		s = (struct tl_slice){
			.cat = "kernel_phase",
			.name = wakeup__phase_name(k),
			.pid = wakee->tgid,
			.tid = wakee->tid,
			.start_ns = b[k],
			.end_ns = b[k + 1],
			.flow = flow && k == consumer ? TL_FLOW_IN : TL_FLOW_NONE,
			.flow_id = flow && k == consumer ? flow : 0,
		};
		w = perfetto_trace__slice_begin(t, &s);
		perfetto_common__phase_args(w, sr, k);
		perfetto_trace__event_end(w);
	}
}

/* draw_labelled - a wakeup that is not complete: one slice named by its label, over the marks it has */
static void draw_labelled(struct perfetto_timeline *t, const struct attach_result *r, const struct tla_track *wakee,
			  struct tla_chain *plan)
{
	const struct sample_result *sr = &r->sr;
	const char *label = sr->label == LABEL_COMPLETE ? "wakeup" : wakeup__label_name(sr->label);
	struct tl_slice s = {
		.cat = "wakeup",
		.pid = wakee->tgid,
		.tid = wakee->tid,
		.start_ns = sr->t_notify_ns,
		.end_ns = sr->t_woken_ns,
	};
	struct json_writer *w;
	char name[48];

	snprintf(name, sizeof(name), "%s #%" PRIu64, label, sr->sample.seq);
	s.name = name;
	s.flow_id = draw_chain(t, r, plan, s.start_ns);
	s.flow = s.flow_id ? TL_FLOW_IN : TL_FLOW_NONE;
	w = perfetto_trace__slice_begin(t, &s);
	identity_args(w, r);
	perfetto_trace__event_end(w);
	t->run.labelled++;
}

void perfetto_attach__draw(struct perfetto_timeline *t, const struct attach_result *r)
{
	const struct sample_result *sr = &r->sr;
	struct tla_chain plan = { .nr = 0 };
	struct tla_track *wakee;
	uint64_t b[NR_PHASES + 1];
	uint32_t tgid;

	t->run.samples++;
	wakee = track(t, r->wakee_tgid, sr->sample.wakee_tid, r->wakee_comm);
	if (!wakee) {
		t->run.no_process++;
		return;
	}
	/*
	 * A thread's wakeups follow one another. One that would start before
	 * the last one drawn there ended (a waker's syscall entered before the
	 * wakee's previous wakeup was over) cannot nest with it: counted, not
	 * drawn. The arrows' slices are zero wide and nest anywhere.
	 */
	if (sr->t_notify_ns < wakee->busy_until_ns || sr->t_woken_ns < sr->t_notify_ns) {
		t->run.samples_not_drawn++;
		return;
	}
	/* --chains: the chain is drawn with the wakeup, so its arrow can land on it */
	tgid = wakee->tgid;
	if (r->chained && chains_ready(t->attach))
		plan_chain(t, r, wakee, &plan);
	else if (r->chained)
		t->run.chain_hops_not_drawn += r->chain.nr_hops;
	/* its waker's lookups took the wakee's track (five tids in one set of four): it would be drawn elsewhere */
	if (wakee->tid != sr->sample.wakee_tid || wakee->tgid != tgid) {
		t->run.samples_not_drawn++;
		return;
	}
	if (sr->label == LABEL_COMPLETE && sr->phased && perfetto_common__phase_bounds(sr, b))
		draw_complete(t, r, b, wakee, &plan);
	else
		draw_labelled(t, r, wakee, &plan);
	wakee->busy_until_ns = sr->t_woken_ns;
}
