// SPDX-License-Identifier: GPL-2.0
/* run_stacks.c - a run's stacks: copied from the BPF side at its end, named after it (run_stacks.h) */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collector.h"
#include "hash.h"
#include "stop_flags.h"
#include "run_stacks.h"
#include "wakeprobe.h"

/* a stack as the map held it */
struct raw_stack {
	int32_t id;
	uint32_t n;
	uint64_t *ips;
};

/* a stack named, for one process (its user stacks) or the kernel (tgid 0) */
struct named_stack {
	int32_t id;
	pid_t tgid;
	size_t n;
	struct stack_frame *frames;
};

struct kept_process {
	pid_t tgid;
	char comm[16];		/* the name its mappings were last taken under */
};

/* a copy waiting for its wakeup's record */
struct pending_copy {
	bool held;
	struct wp_stack_copy copy;
};

/* an unwound stack's id, by its frames' hash: open addressing, a power of two long */
struct unwound_slot {
	uint64_t hash;
	int32_t id;		/* 0: empty */
};

struct run_stacks {
	struct symbolizer *sym;
	struct pending_copy *pending;	/* RUN_STACKS_PENDING, made with the first copy */
	unsigned int pending_next;	/* the slot a copy takes when none is free */
	struct unwound_slot *unwound_ids;
	size_t unwound_cap;
	struct run_stacks_unwound unwound;
	bool kernel_named;		/* the kernel's symbols were read */
	struct kept_process *pids;	/* the processes whose mappings are kept */
	size_t npids;
	struct raw_stack *raw;		/* sorted by id */
	size_t nraw;
	const struct collector *live;	/* while the run goes: where a stack not copied yet is */
	pid_t fallback;			/* names the user stacks of a process not kept; 0: none */
	uint64_t kernel_bytes;		/* run_stacks__take(): the map's memory */
	struct wp_stack_cost cost;	/* ... and what taking the stacks cost the programs */
	struct named_stack *named;
	size_t nnamed;
};

struct run_stacks *run_stacks__new(const char *kallsyms)
{
	return run_stacks__new_with(kallsyms, NULL);
}

struct run_stacks *run_stacks__new_with(const char *kallsyms, const struct symbolizer_opts *opts)
{
	struct run_stacks *rs = calloc(1, sizeof(*rs));
	FILE *f;

	if (!rs)
		return NULL;
	rs->sym = symbolizer__new_with(opts);
	if (!rs->sym) {
		free(rs);
		return NULL;
	}
	f = kallsyms ? fopen(kallsyms, "re") : NULL;
	if (f) {
		rs->kernel_named = symbolizer__kernel_from(rs->sym, f) > 0;
		fclose(f);
	}
	return rs;
}

void run_stacks__free(struct run_stacks *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->nraw; i++)
		free(rs->raw[i].ips);
	for (size_t i = 0; i < rs->nnamed; i++)
		free(rs->named[i].frames);
	symbolizer__free(rs->sym);
	free(rs->pending);
	free(rs->unwound_ids);
	free(rs->pids);
	free(rs->raw);
	free(rs->named);
	free(rs);
}

void run_stacks__process(struct run_stacks *rs, pid_t tgid, const char *comm)
{
	struct kept_process *p = NULL, *grown;

	if (!rs || tgid <= 0)
		return;
	for (size_t i = 0; i < rs->npids && !p; i++)
		if (rs->pids[i].tgid == tgid)
			p = &rs->pids[i];
	if (p && (!comm || !strncmp(p->comm, comm, sizeof(p->comm))))
		return;
	if (!p) {
		grown = realloc(rs->pids, (rs->npids + 1) * sizeof(*rs->pids));
		if (!grown)
			return;
		rs->pids = grown;
		p = &rs->pids[rs->npids++];
		p->tgid = tgid;
	}
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)sizeof(p->comm) - 1, comm ? comm : "");
	/* gone already: its stacks are shown by address, as any the mappings do not cover */
	symbolizer__snapshot(rs->sym, tgid);
}

size_t run_stacks__count_processes(const struct run_stacks *rs)
{
	return rs ? rs->npids : 0;
}

void run_stacks__fallback(struct run_stacks *rs, pid_t tgid)
{
	if (rs)
		rs->fallback = tgid;
}

/* kept - were @tgid's mappings kept? */
static bool kept(const struct run_stacks *rs, pid_t tgid)
{
	for (size_t i = 0; i < rs->npids; i++)
		if (rs->pids[i].tgid == tgid)
			return true;
	return false;
}

void run_stacks__refresh(struct run_stacks *rs)
{
	for (size_t i = 0; rs && i < rs->npids; i++)
		/* a process that has exited keeps the mappings it had */
		if (!kill(rs->pids[i].tgid, 0))
			symbolizer__snapshot(rs->sym, rs->pids[i].tgid);
}

/* raw_at - where stack @id is in rs->raw, or where it goes (*found false) */
static size_t raw_at(const struct run_stacks *rs, int32_t id, bool *found)
{
	size_t lo = 0, hi = rs->nraw;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rs->raw[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < rs->nraw && rs->raw[lo].id == id;
	return lo;
}

int run_stacks__add(struct run_stacks *rs, int32_t id, const uint64_t *ips, size_t n)
{
	struct raw_stack *grown;
	uint64_t *copy;
	bool found;
	size_t at = raw_at(rs, id, &found);

	if (!n || found)
		return 0;
	copy = malloc(n * sizeof(*copy));
	grown = realloc(rs->raw, (rs->nraw + 1) * sizeof(*rs->raw));
	if (!copy || !grown) {
		free(copy);
		if (grown)
			rs->raw = grown;
		return -ENOMEM;
	}
	rs->raw = grown;
	memcpy(copy, ips, n * sizeof(*copy));
	memmove(&rs->raw[at + 1], &rs->raw[at], (rs->nraw - at) * sizeof(*rs->raw));
	rs->raw[at] = (struct raw_stack){ id, (uint32_t)n, copy };
	rs->nraw++;
	return 0;
}

void run_stacks__follow(struct run_stacks *rs, const struct collector *c)
{
	if (rs)
		rs->live = c;
}

int run_stacks__take(struct run_stacks *rs, const struct collector *c)
{
	struct wp_stack_cost cost;
	uint64_t ips[WP_STACK_DEPTH];
	int32_t id = -1, next;
	int err = 0;

	while (!err && !collector__next_stack(c, id, &next)) {
		err = run_stacks__add(rs, next, ips, collector__stack(c, next, ips, WP_STACK_DEPTH));
		id = next;
	}
	rs->live = NULL;
	collector__stack_cost(c, &cost);
	run_stacks__note_cost(rs, collector__stack_bytes(c), &cost);
	run_stacks__stop_on_signal(rs);
	return err;
}

void run_stacks__stop_on_signal(struct run_stacks *rs)
{
	/*
	 * The run is over and its stacks are named from here. A run a signal
	 * ended names them all the same, and a second signal ends wakeprobe
	 * (main.c); for one that ended on its own, the first signal to come
	 * ends the naming, so that the report is written without the names
	 * still to come, however long the symbolizer's child would take.
	 */
	if (rs && !launch_stop_requested)
		symbolizer__interrupt_on(rs->sym, &launch_stop_requested);
}

void run_stacks__note_cost(struct run_stacks *rs, uint64_t kernel_bytes, const struct wp_stack_cost *cost)
{
	rs->kernel_bytes = kernel_bytes;
	rs->cost = *cost;
}

static const struct raw_stack *raw_of(struct run_stacks *rs, int32_t id)
{
	uint64_t ips[WP_STACK_DEPTH];
	bool found;
	size_t at = raw_at(rs, id, &found);

	if (found)
		return &rs->raw[at];
	if (!rs->live || run_stacks__add(rs, id, ips, collector__stack(rs->live, id, ips, WP_STACK_DEPTH)))
		return NULL;
	at = raw_at(rs, id, &found);
	return found ? &rs->raw[at] : NULL;
}

/*
 * bpf_own - is @f one of the frames a kernel stack taken by a BPF program
 * starts with: the program, the helper, the tracepoint's trampoline? Not
 * the kernel's work: cut, up to the tracepoint's own caller.
 */
static bool bpf_own(const struct stack_frame *f)
{
	static const char *const prefixes[] = {
		"bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "bpf_get_stack", "__bpf_get_stack",
		"bpf_trampoline_", "trace_call_bpf", "perf_trace_",
	};
	const char *name = f->sym.function;

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* name_stack - @raw's frames named for @tgid (0: the kernel's), into @ns */
static int name_stack(struct run_stacks *rs, const struct raw_stack *raw, pid_t tgid, struct named_stack *ns)
{
	ns->frames = calloc(raw->n, sizeof(*ns->frames));
	if (!ns->frames)
		return -ENOMEM;
	for (size_t i = 0; i < raw->n; i++) {
		/*
		 * no user address reaches past 56 bits (57-bit paging's): a walk
		 * that read one there followed no frame pointer, and ends
		 */
		if (tgid && raw->ips[i] >> 56)
			break;
		/* a frame not kept is written over by the next */
		struct stack_frame *f = &ns->frames[ns->n];
		/* past the first, a frame's address is where its call returns to: the call is just before */
		uint64_t at = i ? raw->ips[i] - 1 : raw->ips[i];

		memset(f, 0, sizeof(*f));
		f->ip = raw->ips[i];
		f->kernel = !tgid;
		if (tgid)
			symbolizer__user(rs->sym, !kept(rs, tgid) && rs->fallback ? rs->fallback : tgid, at, &f->sym);
		else
			symbolizer__kernel(rs->sym, at, &f->sym);
		/* the offsets shown are the return addresses', as perf shows them */
		if (i && f->sym.function[0])
			f->sym.function_offset++;
		if (i && f->sym.object[0])
			f->sym.object_offset++;
		if (!tgid && !ns->n && bpf_own(f))
			continue;
		/*
		 * a frame pointer walk that went astray (past a thread's start,
		 * into code without them) can loop on one address outside any
		 * object: it says nothing more than once
		 */
		if (tgid && ns->n && !f->sym.object[0] && f->ip == ns->frames[ns->n - 1].ip)
			continue;
		ns->n++;
	}
	return 0;
}

/* named_at - where stack @id named for @tgid is in rs->named, sorted by both, or where it goes (*found false) */
static size_t named_at(const struct run_stacks *rs, int32_t id, pid_t tgid, bool *found)
{
	size_t lo = 0, hi = rs->nnamed;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct named_stack *m = &rs->named[mid];

		if (m->id < id || (m->id == id && m->tgid < tgid))
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < rs->nnamed && rs->named[lo].id == id && rs->named[lo].tgid == tgid;
	return lo;
}

size_t run_stacks__frames(struct run_stacks *rs, int32_t id, pid_t tgid, const struct stack_frame **out)
{
	struct named_stack ns = { .id = id, .tgid = tgid }, *grown;
	const struct raw_stack *raw;
	bool found;
	size_t at;

	*out = NULL;
	if (!rs || id < 0)
		return 0;
	/* a timeline asks twice a wakeup: a stack is looked up in the ones named, not named again */
	at = named_at(rs, id, tgid, &found);
	if (found) {
		*out = rs->named[at].frames;
		return rs->named[at].n;
	}
	raw = raw_of(rs, id);
	if (!raw)
		return 0;
	grown = realloc(rs->named, (rs->nnamed + 1) * sizeof(*rs->named));
	if (!grown)
		return 0;
	rs->named = grown;
	if (name_stack(rs, raw, tgid, &ns))
		return 0;
	memmove(&rs->named[at + 1], &rs->named[at], (rs->nnamed - at) * sizeof(*rs->named));
	rs->named[at] = ns;
	rs->nnamed++;
	*out = ns.frames;
	return ns.n;
}

const char *run_stacks__why_none(int32_t id)
{
	switch (id) {
	case WP_STACK_NONE:
	case -EFAULT:
		return "";
	case -EEXIST:
		return "[stack not kept: another holds its slot]";
	case -ENOMEM:
		return "[stack not kept: the stack table was full]";
	default:
		return id < 0 ? "[stack not kept]" : "";
	}
}

struct symbolizer *run_stacks__symbolizer(struct run_stacks *rs)
{
	return rs ? rs->sym : NULL;
}

uint64_t run_stacks__kernel_bytes(const struct run_stacks *rs)
{
	return rs->kernel_bytes;
}

const struct wp_stack_cost *run_stacks__cost(const struct run_stacks *rs)
{
	return &rs->cost;
}

size_t run_stacks__count(const struct run_stacks *rs)
{
	return rs ? rs->nraw : 0;
}

/* base - the last part of a path: objects are named by their file's name */
static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * frame_name - stack_frame__name(), with @notes: why an object was not
 * read, or the build ID of one read that has no symbol there
 */
static void frame_name(const struct stack_frame *f, char *buf, size_t len, bool notes)
{
	if (f->sym.function[0])
		snprintf(buf, len, "%s+0x%" PRIx64, f->sym.function, f->sym.function_offset);
	else if (f->sym.object[0] && notes && f->sym.why_unnamed)
		snprintf(buf, len, "%s+0x%" PRIx64 " [not named: %s]", base(f->sym.object), f->sym.object_offset,
			 f->sym.why_unnamed);
	else if (f->sym.object[0] && notes && f->sym.build_id[0])
		snprintf(buf, len, "%s+0x%" PRIx64 " [build-id %s]", base(f->sym.object), f->sym.object_offset,
			 f->sym.build_id);
	else if (f->sym.object[0])
		snprintf(buf, len, "%s+0x%" PRIx64, base(f->sym.object), f->sym.object_offset);
	else
		snprintf(buf, len, "0x%" PRIx64, f->ip);
}

void stack_frame__name(const struct stack_frame *f, char *buf, size_t len)
{
	frame_name(f, buf, len, true);
}

void stack_frame__function(const struct stack_frame *f, char *buf, size_t len)
{
	if (f->sym.function[0])
		snprintf(buf, len, "%s", f->sym.function);
	else
		frame_name(f, buf, len, false);
}

/* ---- --unwind: the copies of user stacks ---- */

void run_stacks__copy(struct run_stacks *rs, const struct wp_stack_copy *copy)
{
	struct pending_copy *slot = NULL;
	size_t bytes = offsetof(struct wp_stack_copy, bytes) + copy->head.copy.len;

	if (!rs || copy->head.copy.len > WP_STACK_COPY_MAX)
		return;
	if (!rs->pending && !(rs->pending = calloc(RUN_STACKS_PENDING, sizeof(*rs->pending))))
		return;
	rs->unwound.copies++;
	/* the same stack of the same wakee's: a later wakeup's, the one before never came */
	for (int i = 0; i < RUN_STACKS_PENDING && !slot; i++)
		if (rs->pending[i].held && rs->pending[i].copy.head.copy.wakee_tid == copy->head.copy.wakee_tid &&
		    rs->pending[i].copy.head.copy.which == copy->head.copy.which)
			slot = &rs->pending[i];
	for (int i = 0; i < RUN_STACKS_PENDING && !slot; i++)
		if (!rs->pending[i].held)
			slot = &rs->pending[i];
	if (!slot) {
		slot = &rs->pending[rs->pending_next];
		rs->pending_next = (rs->pending_next + 1) % RUN_STACKS_PENDING;
	}
	if (slot->held)
		rs->unwound.unmatched++;
	memcpy(&slot->copy, copy, bytes);
	slot->held = true;
}

/* pending_of - the copy of @which stack of @wakee's wakeup, taken out: NULL when none came */
static struct pending_copy *pending_of(struct run_stacks *rs, uint32_t wakee, uint16_t which)
{
	for (int i = 0; rs->pending && i < RUN_STACKS_PENDING; i++)
		if (rs->pending[i].held && rs->pending[i].copy.head.copy.wakee_tid == wakee &&
		    rs->pending[i].copy.head.copy.which == which) {
			rs->pending[i].held = false;
			return &rs->pending[i];
		}
	return NULL;
}

/* unwound_id - the id of the unwound stack @ips, @n frames: the one it was given, or a new one; -1 */
static int32_t unwound_id(struct run_stacks *rs, const uint64_t *ips, size_t n)
{
	uint64_t hash = hash__fnv1a(HASH_FNV_BASIS, ips, n * sizeof(*ips));
	size_t mask, at;
	int32_t id;

	if (rs->unwound.distinct * 2 >= rs->unwound_cap) {
		size_t cap = rs->unwound_cap ? 2 * rs->unwound_cap : 256;
		struct unwound_slot *grown = calloc(cap, sizeof(*grown));

		if (!grown)
			return -1;
		for (size_t i = 0; i < rs->unwound_cap; i++)
			if (rs->unwound_ids[i].id) {
				for (at = rs->unwound_ids[i].hash & (cap - 1); grown[at].id; at = (at + 1) & (cap - 1))
					;
				grown[at] = rs->unwound_ids[i];
			}
		free(rs->unwound_ids);
		rs->unwound_ids = grown;
		rs->unwound_cap = cap;
	}
	mask = rs->unwound_cap - 1;
	for (at = hash & mask; rs->unwound_ids[at].id; at = (at + 1) & mask) {
		const struct raw_stack *raw;
		bool found;
		size_t k;

		if (rs->unwound_ids[at].hash != hash)
			continue;
		k = raw_at(rs, rs->unwound_ids[at].id, &found);
		raw = found ? &rs->raw[k] : NULL;
		if (raw && raw->n == n && !memcmp(raw->ips, ips, n * sizeof(*ips)))
			return rs->unwound_ids[at].id;
	}
	id = RUN_STACKS_UNWOUND + (int32_t)rs->unwound.distinct;
	if (run_stacks__add(rs, id, ips, n))
		return -1;
	rs->unwound_ids[at] = (struct unwound_slot){ hash, id };
	rs->unwound.distinct++;
	return id;
}

/* further - did unwound stack @ips, @n frames, reach past @walked's outermost frame? */
static bool further(const uint64_t *ips, size_t n, const struct raw_stack *walked)
{
	for (size_t i = 0; walked->n && i + 1 < n; i++)
		if (ips[i] == walked->ips[walked->n - 1])
			return true;
	return false;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/*
 * unwind_one - the copy of @which stack of @st's wakeup, unwound: its
 * id, or @fp, the frame pointer walk's, where it reached no further
 */
static int32_t unwind_one(struct run_stacks *rs, const struct wp_lean_stacks *st, uint16_t which, int32_t fp)
{
	struct pending_copy *pc = pending_of(rs, st->wakee_tid, which);
	uint64_t ips[WP_STACK_DEPTH], began, top;
	const struct raw_stack *walked;
	pid_t tgid;
	size_t n;
	int32_t id;

	if (!pc)
		return fp;
	tgid = (pid_t)pc->copy.head.copy.tgid;
	run_stacks__process(rs, tgid, NULL);
	began = now_ns();
	n = symbolizer__unwind(rs->sym, !kept(rs, tgid) && rs->fallback ? rs->fallback : tgid,
			       (const uint64_t *)pc->copy.regs,
			       pc->copy.head.copy.sp, pc->copy.bytes, pc->copy.head.copy.len, ips, WP_STACK_DEPTH, &top);
	rs->unwound.ns += now_ns() - began;
	/* the thread's stack ends there: its next copies need not reach further (a word more, to spare) */
	if (top && rs->live && !collector__unwind_top(rs->live, pc->copy.head.copy.tid, top + 8))
		rs->unwound.tops++;
	if (!n) {
		rs->unwound.failed++;
		return fp;
	}
	/*
	 * The unwound stack is taken where it went further than the walk:
	 * through the walk's outermost frame, and on; or where it reached
	 * what the CFI says is the thread's start, with no fewer frames than
	 * the walk (which loses one at each call into code without frame
	 * pointers). Not where it ended short (a stack deeper than its copy,
	 * code without CFI), nor where a start it reached has fewer frames
	 * than the walk: a Go binary's runtime leaves the return address
	 * undefined where it switches stacks (runtime.systemstack), and the
	 * walk follows the frame pointers Go keeps on to the goroutine's
	 * bottom.
	 */
	walked = fp >= 0 ? raw_of(rs, fp) : NULL;
	if (walked && !(top && n >= walked->n) && !further(ips, n, walked)) {
		rs->unwound.shorter++;
		return fp;
	}
	id = unwound_id(rs, ips, n);
	if (id < 0)
		return fp;
	rs->unwound.stacks++;
	return id;
}

void run_stacks__unwind(struct run_stacks *rs, struct wp_lean_stacks *st)
{
	int32_t waker = st->waker_user, wait = st->wait_user;

	if (!rs || !st->copied)
		return;
	if (st->copied & WP_COPY_WAKER)
		st->waker_user = unwind_one(rs, st, WP_COPY_WAKER, st->waker_user);
	if (st->copied & WP_COPY_WAIT)
		st->wait_user = unwind_one(rs, st, WP_COPY_WAIT, st->wait_user);
	if (st->waker_user != waker || st->wait_user != wait)
		rs->unwound.wakeups++;
}

const struct wp_event *run_stacks__resolve(struct run_stacks *rs, const struct wp_event *e, struct wp_event *room)
{
	if (!rs || e->type != WP_EV_LEAN ||
	    (e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_STACKS)) != (WP_LEAN_NAMES | WP_LEAN_STACKS) ||
	    !e->lean_stacks.copied)
		return e;
	*room = *e;
	run_stacks__unwind(rs, &room->lean_stacks);
	return room;
}

const struct run_stacks_unwound *run_stacks__unwound(const struct run_stacks *rs)
{
	return &rs->unwound;
}

