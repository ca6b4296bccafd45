// SPDX-License-Identifier: GPL-2.0
/* text_stacks.c - the stacks in the text reports, and where frame pointers cut them (stack_cuts.c counts it) */
#include <inttypes.h>
#include <string.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "text_stacks.h"

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* print_frames - stack @id of @tgid (0: the kernel), innermost first, under @title */
static void print_frames(FILE *out, struct run_stacks *rs, int32_t id, pid_t tgid, const char *title)
{
	const struct stack_frame *fr;
	size_t n = run_stacks__frames(rs, id, tgid, &fr);
	char name[STACK_FRAME_NAME_MAX];

	if (id < 0) {
		if (run_stacks__why_none(id)[0])
			fprintf(out, "      %s: %s\n", title, run_stacks__why_none(id));
		return;
	}
	if (!n) {
		fprintf(out, "      %s: [stack not found]\n", title);
		return;
	}
	fprintf(out, "      %s:\n", title);
	for (size_t i = 0; i < n && i < TEXT_STACKS_FRAMES; i++) {
		const struct stack_frame *f = &fr[i];

		stack_frame__name(f, name, sizeof(name));
		fprintf(out, "        %-48s", name);
		if (f->sym.file[0])
			fprintf(out, " %s:%d", base(f->sym.file), f->sym.line);
		if (!f->kernel && f->sym.object[0])
			fprintf(out, " (%s)", base(f->sym.object));
		fprintf(out, "\n");
	}
	if (n > TEXT_STACKS_FRAMES)
		fprintf(out, "        ... %zu frames more\n", n - TEXT_STACKS_FRAMES);
}

void text_stacks__brief(FILE *out, struct run_stacks *rs, int32_t user, int32_t kernel, uint32_t tgid)
{
	const struct stack_frame *fr;
	size_t n = user >= 0 ? run_stacks__frames(rs, user, (pid_t)tgid, &fr) : 0;
	bool in_user = n > 0;
	char name[sizeof(fr->sym.function) + 32];

	if (!in_user)
		n = run_stacks__frames(rs, kernel, 0, &fr);

	if (!n) {
		fprintf(out, "%s", user < 0 && run_stacks__why_none(user)[0] ? run_stacks__why_none(user) :
			"[stack not found]");
		return;
	}
	for (size_t i = 0; i < n && i < TEXT_STACKS_BRIEF; i++) {
		stack_frame__function(&fr[i], name, sizeof(name));
		fprintf(out, "%s%s", i ? " <- " : "", name);
	}
	if (n > TEXT_STACKS_BRIEF)
		fprintf(out, " <- ...");
	if (!in_user)
		fprintf(out, " (kernel)");
}

void text_stacks__combo(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			const struct stack_combo *s, const char *what, uint64_t of)
{
	fprintf(out, "    %s: %" PRIu64 " of %" PRIu64 " wakeups (%.0f%%), %.1f us of wake -> run; "
		"p50 %.1f, p99 %.1f (each within 25%% below), max %.1f us\n", what, s->count, of,
		of ? 100.0 * (double)s->count / (double)of : 0.0, us(s->total_ns), us(stack_combo__percentile(s, 50)),
		us(stack_combo__percentile(s, 99)), us(s->max_ns));
	fprintf(out, "      the waker, %s, where it woke it:\n", waker);
	print_frames(out, rs, s->waker_user, (pid_t)s->waker_tgid, "user");
	print_frames(out, rs, s->waker_kernel, 0, "kernel");
	fprintf(out, "      the wakee, %s, where it went to sleep:\n", wakee);
	print_frames(out, rs, s->wait_user, (pid_t)s->wakee_tgid, "user");
	print_frames(out, rs, s->wait_kernel, 0, "kernel");
}

void text_stacks__combos(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			 const struct stack_combos *c, uint64_t of)
{
	uint64_t unwound = stack_combos__count_unwound(c);
	const struct stack_combo *freq, *cost;

	/*
	 * where some of them have a user stack unwound, those are the ones
	 * shown: the others' were walked by frame pointers alone, and code
	 * without them cut those short
	 */
	if (!(unwound ? stack_combos__top_unwound : stack_combos__top)(c, STACK_BY_COUNT, &freq, 1)) {
		fprintf(out, "    no stacks came with these wakeups\n");
		return;
	}
	(unwound ? stack_combos__top_unwound : stack_combos__top)(c, STACK_BY_COST, &cost, 1);
	if (unwound)
		fprintf(out, "    user stacks unwound from copies in %" PRIu64 " of its %" PRIu64 " wakeups (the others' "
			"walked by frame pointers alone; --unwind sets how many):\n", unwound, of);
	text_stacks__combo(out, rs, waker, wakee, freq, cost == freq ? "the most frequent and costliest" :
			   "the most frequent", unwound ? unwound : of);
	if (cost != freq)
		text_stacks__combo(out, rs, waker, wakee, cost, "the costliest", unwound ? unwound : of);
	if (c->n > 1 || c->other)
		fprintf(out, "    %u combinations of stacks in all%s\n", c->n,
			c->other ? ", and more past those kept (--folded has their time)" : "");
}

void text_stacks__cost(FILE *out, struct run_stacks *rs, uint64_t wakeups)
{
	const struct wp_stack_cost *cost;

	if (!rs)
		return;
	cost = run_stacks__cost(rs);
	fprintf(out, "  stacks     %zu distinct kept, in %.1f MiB of kernel memory; taking them: %.2f us of program time "
		"per wakeup (%" PRIu64 " stacks, %.2f us each, timed in the programs), %zu bytes more per wakeup's "
		"record\n", run_stacks__count(rs), (double)run_stacks__kernel_bytes(rs) / (1 << 20),
		wakeups ? us(cost->ns) / (double)wakeups : 0.0, (uint64_t)cost->taken,
		cost->taken ? us(cost->ns) / (double)cost->taken : 0.0, sizeof(struct wp_event));
	if (cost->not_kept)
		fprintf(out, "WARNING    %" PRIu64 " of the %" PRIu64 " stacks were not kept: another stack held the slot "
			"its hash gave it, or the map was full; their wakeups say so where a stack would be\n",
			(uint64_t)cost->not_kept, (uint64_t)cost->taken);
	text_stacks__unwound(out, rs, wakeups);
}

void text_stacks__unwound(FILE *out, struct run_stacks *rs, uint64_t wakeups)
{
	const struct wp_stack_cost *cost = run_stacks__cost(rs);
	const struct run_stacks_unwound *u = run_stacks__unwound(rs);
	uint64_t sent = cost->sent_slow + cost->sent_budget, unwound = u->stacks + u->shorter + u->failed;

	if (!cost->copies)
		return;
	fprintf(out, "  unwound    %" PRIu64 " of %" PRIu64 " wakeups' user stacks, by the objects' call frame information "
		"from copies of the stacks: %" PRIu64 " slow wakeups', %" PRIu64 " within --unwind's budget, %" PRIu64
		" over it; %" PRIu64 " distinct\n", u->wakeups, wakeups, (uint64_t)cost->sent_slow,
		(uint64_t)cost->sent_budget, (uint64_t)cost->over_budget, u->distinct);
	fprintf(out, "             copying: %.2f us of program time per wakeup (%" PRIu64 " copies, %.1f KiB each), "
		"%.1f KiB to the ring per wakeup that sent them; unwinding: %.1f ms of wakeprobe's time, %.1f us a "
		"stack\n", wakeups ? us(cost->copy_ns) / (double)wakeups : 0.0, (uint64_t)cost->copies,
		(double)cost->copied_bytes / 1024 / (double)cost->copies,
		sent ? (double)cost->sent_bytes / 1024 / (double)sent : 0.0, us(u->ns) / 1000,
		unwound ? us(u->ns) / (double)unwound : 0.0);
	if (u->shorter || u->failed)
		fprintf(out, "             of the %" PRIu64 " copies unwound, %" PRIu64 " reached no further than the "
			"frame pointers' walk, which was kept, and %" PRIu64 " gave none (their objects not read)\n",
			unwound, u->shorter, u->failed);
	if (cost->lost || u->unmatched)
		fprintf(out, "WARNING    %" PRIu64 " copies found the ring full and %" PRIu64 " came without their "
			"wakeup: those wakeups' user stacks are the frame pointers' walk\n", (uint64_t)cost->lost,
			u->unmatched);
}

void text_stacks__cuts(FILE *out, const struct stack_cut *cuts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s  ", i ? "" : "\n");
		/*
		 * code without frame pointers cuts most of the stacks through it
		 * (libc: nine in ten); a walk that ends early once in a hundred
		 * stacks or fewer (a page of the stack not there to read, a frame
		 * of a signal's) says nothing of the object's
		 */
		if (cuts[i].stacks * STACK_CUTS_SAY_SHARE >= cuts[i].of)
			fprintf(out, "%s has no frame pointers, it seems: %" PRIu64 " of the %" PRIu64 " user stacks "
				"through it end there, short of the thread's start; their callers are cut (docs/attach.md: "
				"frame pointers)\n", base(cuts[i].object), cuts[i].stacks, cuts[i].of);
		else
			fprintf(out, "%s: %" PRIu64 " of the %" PRIu64 " user stacks through it end there, short of the "
				"thread's start, too few to say it lacks frame pointers\n", base(cuts[i].object),
				cuts[i].stacks, cuts[i].of);
	}
}

void text_stacks__print(FILE *out, const struct attach_report *r)
{
	const struct attach_pair *rows[TEXT_STACKS_PAIRS];
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;
	struct stack_cut cuts[STACK_CUTS_MAX];
	size_t n;

	if (!rs)
		return;
	/* the first of the pairs the table above shows */
	n = attach_aggregate__pairs(r->agg, r->order, rows, r->pairs < TEXT_STACKS_PAIRS ? r->pairs : TEXT_STACKS_PAIRS);
	fprintf(out, "\nStacks of the %zu busiest pairs (%zu distinct stacks kept by the kernel; innermost frame "
		"first):\n", n, run_stacks__count(rs));
	for (size_t i = 0; i < n; i++) {
		const struct attach_pair *p = rows[i];
		char wakee[48];

		snprintf(wakee, sizeof(wakee), "%.16s %" PRIu32, p->wakee_comm[0] ? p->wakee_comm : "?", p->wakee_tid);
		fprintf(out, "\n  %s -> %s via %s\n", p->waker, wakee, p->mechanism);
		if (!p->stacks)
			fprintf(out, "    no stacks: its wakeups came before its row was kept\n");
		else
			text_stacks__combos(out, rs, p->waker, wakee, p->stacks, p->count - p->error);
	}
	text_stacks__cuts(out, cuts, stack_cuts__find(r, cuts, STACK_CUTS_MAX));
}
