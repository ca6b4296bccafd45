// SPDX-License-Identifier: GPL-2.0
/* json_stacks.c - attach mode's stacks in its JSON (json_stacks.h) */
#include "attach_aggregate.h"
#include "attach_session.h"
#include "json_stacks.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "stack_cuts.h"

void json_stacks__stack(struct json_writer *w, struct run_stacks *rs, const char *key, int32_t id, pid_t tgid)
{
	const struct stack_frame *fr;
	size_t n = run_stacks__frames(rs, id, tgid, &fr);

	json_writer__key(w, key);
	if (id < 0 || !n) {
		json_writer__null(w);
		if (id < 0 && run_stacks__why_none(id)[0]) {
			char why[48];

			snprintf(why, sizeof(why), "%s_missing", key);
			json_writer__put_str(w, why, run_stacks__why_none(id));
		}
		return;
	}
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const struct symbol *s = &fr[i].sym;

		json_writer__begin_object(w);
		json_writer__put_uint(w, "ip", fr[i].ip);
		if (s->function[0]) {
			json_writer__put_str(w, "function", s->function);
			json_writer__put_uint(w, "offset", s->function_offset);
		}
		if (s->file[0]) {
			json_writer__put_str(w, "file", s->file);
			json_writer__put_uint(w, "line", (uint64_t)s->line);
		}
		if (s->object[0]) {
			json_writer__put_str(w, "object", s->object);
			json_writer__put_uint(w, "object_offset", s->object_offset);
			/* no symbol there: what names it later, with the offset (debuginfod, a dbgsym package) */
			if (!s->function[0] && s->build_id[0])
				json_writer__put_str(w, "build_id", s->build_id);
		}
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}

void json_stacks__combos(struct json_writer *w, struct run_stacks *rs, const struct stack_combos *c, uint64_t of)
{
	const struct stack_combo *top[JSON_STACKS_PER_PAIR], *all[STACK_COMBOS_MAX];
	/* those with a user stack unwound first: the others' were walked by frame pointers alone */
	size_t n = stack_combos__top_unwound(c, STACK_BY_COUNT, top, JSON_STACKS_PER_PAIR);
	size_t k = stack_combos__top(c, STACK_BY_COUNT, all, STACK_COMBOS_MAX);
	uint64_t shown = 0;

	for (size_t i = 0; i < k && n < JSON_STACKS_PER_PAIR; i++)
		if (!stack_combo__unwound(all[i]))
			top[n++] = all[i];
	json_writer__put_uint(w, "stacks_unwound", stack_combos__count_unwound(c));

	json_writer__key(w, "stacks");
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const struct stack_combo *s = top[i];

		shown += s->count;
		json_writer__begin_object(w);
		json_writer__put_uint(w, "count", s->count);
		json_writer__put_bool(w, "unwound", stack_combo__unwound(s));
		json_writer__put_uint(w, "wake_to_run_total_ns", s->total_ns);
		json_writer__put_uint(w, "wake_to_run_max_ns", s->max_ns);
		/* the floors of the buckets they fall in: within 25% below (stack_combos.h) */
		json_writer__put_uint(w, "wake_to_run_p50_floor_ns", stack_combo__percentile(s, 50));
		json_writer__put_uint(w, "wake_to_run_p99_floor_ns", stack_combo__percentile(s, 99));
		json_writer__put_uint(w, "waker_tgid", s->waker_tgid);
		json_writer__put_uint(w, "wakee_tgid", s->wakee_tgid);
		json_stacks__stack(w, rs, "waker_user", s->waker_user, (pid_t)s->waker_tgid);
		json_stacks__stack(w, rs, "waker_kernel", s->waker_kernel, 0);
		json_stacks__stack(w, rs, "wakee_user", s->wait_user, (pid_t)s->wakee_tgid);
		json_stacks__stack(w, rs, "wakee_kernel", s->wait_kernel, 0);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	/* the wakeups in no combination listed: past the ones kept, or past the ones shown */
	json_writer__put_uint(w, "stacks_other", of > shown ? of - shown : 0);
}

void json_stacks__pair(struct json_writer *w, const struct attach_report *r, const struct attach_pair *p)
{
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;

	if (rs)
		json_stacks__combos(w, rs, p->stacks, p->stacks ? p->count - p->error : 0);
}

void json_stacks__futex(struct json_writer *w, const struct attach_report *r, uint32_t tgid, uint64_t addr)
{
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;
	struct data_name dn;

	if (!rs || !symbolizer__data(run_stacks__symbolizer(rs), (pid_t)tgid, addr, &dn))
		return;
	json_writer__key(w, "name");
	json_writer__begin_object(w);
	if (dn.what[0])
		json_writer__put_str(w, "what", dn.what);
	if (dn.object[0]) {
		json_writer__put_str(w, "object", dn.object);
		json_writer__put_uint(w, "object_offset", dn.object_offset);
	}
	json_writer__end_object(w);
}

/* put_unwound - "unwound": --unwind's copies, what came of them and what they cost */
static void put_unwound(struct json_writer *w, struct run_stacks *rs)
{
	const struct wp_stack_cost *cost = run_stacks__cost(rs);
	const struct run_stacks_unwound *u = run_stacks__unwound(rs);

	json_writer__key(w, "unwound");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "wakeups", u->wakeups);
	json_writer__put_uint(w, "stacks", u->stacks);
	json_writer__put_uint(w, "distinct", u->distinct);
	json_writer__put_uint(w, "shorter_than_frame_pointers", u->shorter);
	json_writer__put_uint(w, "failed", u->failed);
	json_writer__put_uint(w, "copies_taken", cost->copies);
	json_writer__put_uint(w, "copied_bytes", cost->copied_bytes);
	json_writer__put_uint(w, "copy_program_ns", cost->copy_ns);
	json_writer__put_uint(w, "sent_slow", cost->sent_slow);
	json_writer__put_uint(w, "sent_within_budget", cost->sent_budget);
	json_writer__put_uint(w, "over_budget", cost->over_budget);
	json_writer__put_uint(w, "ring_bytes", cost->sent_bytes);
	json_writer__put_uint(w, "lost", cost->lost);
	json_writer__put_uint(w, "unmatched", u->unmatched);
	json_writer__put_uint(w, "unwind_ns", u->ns);
	json_writer__end_object(w);
}

/* put_summary - "stacks": what the kernel kept and what it cost, and where frame pointers cut */
static void put_summary(struct json_writer *w, struct run_stacks *rs, const struct stack_cut *cuts, size_t n)
{
	const struct wp_stack_cost *cost = run_stacks__cost(rs);

	json_writer__key(w, "stacks");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "distinct", run_stacks__count(rs));
	json_writer__put_uint(w, "kernel_bytes", run_stacks__kernel_bytes(rs));
	json_writer__put_uint(w, "taken", cost->taken);
	json_writer__put_uint(w, "not_kept", cost->not_kept);
	json_writer__put_uint(w, "program_ns", cost->ns);
	put_unwound(w, rs);
	json_writer__key(w, "cut_short");
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_writer__begin_object(w);
		json_writer__put_str(w, "object", cuts[i].object);
		json_writer__put_uint(w, "stacks_ending_there", cuts[i].stacks);
		json_writer__put_uint(w, "stacks_through_it", cuts[i].of);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__end_object(w);
}

void json_stacks__run(struct json_writer *w, const struct attach_report *r)
{
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;
	struct stack_cut cuts[STACK_CUTS_MAX];

	/* a run without --stacks has no member: its document is as it was */
	if (!rs)
		return;
	put_summary(w, rs, cuts, stack_cuts__find(r, cuts, STACK_CUTS_MAX));
}

void json_stacks__workload(struct json_writer *w, struct run_stacks *rs, const struct stack_combos *c, uint64_t of)
{
	struct stack_cut cuts[STACK_CUTS_MAX];
	static struct stack_cuts all;

	if (!rs || !c)
		return;
	all.n = 0;
	stack_cuts__count(&all, rs, c);
	put_summary(w, rs, cuts, stack_cuts__top(&all, cuts, STACK_CUTS_MAX));
	json_writer__key(w, "stacks_of_wakeups");
	json_writer__begin_object(w);
	json_stacks__combos(w, rs, c, of);
	json_writer__end_object(w);
}
