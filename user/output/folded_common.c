// SPDX-License-Identifier: GPL-2.0
/*
 * folded_common.c - --folded's lines, for either kind of run: folded
 * stacks, the lines flamegraph.pl, inferno-flamegraph and speedscope read:
 * frames from the root, ';' between them, then a space and a weight.
 *
 * As bcc's offwaketime joins them, a line is the wakee's stack where it
 * went to sleep, root first (its user frames, then its kernel's), a "--",
 * then the waker's where it woke it, innermost first (its kernel frames,
 * then its user's), and the waker's name on top: a flame graph shows the
 * sleep at the bottom and what ended it stacked upside down above it. The
 * wakee's name is the root. Kernel frames end in "_[k]", which the flame
 * graphs colour as the kernel's. The weight is the combination's
 * wake-to-run summed, in ns (inferno-flamegraph --countname ns).
 */
#include <inttypes.h>
#include <string.h>
#include "folded_common.h"
#include "run_stacks.h"

/* put_frame - one frame, ';' first unless it is the first: no ';' or newline inside, no space at its end */
static void put_frame(FILE *f, const char *name, const char *suffix, bool *first)
{
	size_t n = strlen(name);

	while (n && name[n - 1] == ' ')
		n--;
	if (!*first)
		fputc(';', f);
	*first = false;
	for (size_t i = 0; i < n; i++)
		fputc(name[i] == ';' || name[i] == '\n' ? ':' : name[i], f);
	fputs(suffix, f);
}

/*
 * put_stack - stack @id of process @tgid (0: the kernel's), root first
 * (@outward false) or innermost first; a stack the kernel did not keep is
 * one frame saying so
 */
static void put_stack(FILE *f, struct run_stacks *rs, int32_t id, pid_t tgid, bool outward, bool *first)
{
	const struct stack_frame *fr;
	size_t n = run_stacks__frames(rs, id, tgid, &fr);
	const char *suffix = tgid ? "" : "_[k]";
	char name[sizeof(fr->sym.function) + 32];

	if (id < 0) {
		if (run_stacks__why_none(id)[0])
			put_frame(f, run_stacks__why_none(id), "", first);
		return;
	}
	if (!n) {
		put_frame(f, "[stack not found]", "", first);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		stack_frame__function(&fr[outward ? i : n - 1 - i], name, sizeof(name));
		put_frame(f, name, suffix, first);
	}
}

void folded_common__combo(FILE *f, struct run_stacks *rs, const char *wakee, const char *waker,
			  const struct stack_combo *s)
{
	bool first = true;

	put_frame(f, wakee, "", &first);
	put_stack(f, rs, s->wait_user, (pid_t)s->wakee_tgid, false, &first);
	put_stack(f, rs, s->wait_kernel, 0, false, &first);
	put_frame(f, "--", "", &first);
	put_stack(f, rs, s->waker_kernel, 0, true, &first);
	put_stack(f, rs, s->waker_user, (pid_t)s->waker_tgid, true, &first);
	put_frame(f, waker, "", &first);
	fprintf(f, " %" PRIu64 "\n", s->total_ns);
}

void folded_common__line(FILE *f, struct run_stacks *rs, const char *const *names, size_t nr_names, bool stacked,
			 int32_t user, int32_t kernel, uint32_t tgid, uint64_t weight)
{
	bool first = true;

	for (size_t i = 0; i < nr_names; i++)
		put_frame(f, names[i], "", &first);
	if (stacked) {
		put_stack(f, rs, user, (pid_t)tgid, false, &first);
		put_stack(f, rs, kernel, 0, false, &first);
	}
	fprintf(f, " %" PRIu64 "\n", weight);
}

void folded_common__combos(FILE *f, struct run_stacks *rs, const char *wakee, const char *waker,
			   const struct stack_combos *c)
{
	const struct stack_combo *top[STACK_COMBOS_MAX];
	size_t n = stack_combos__top(c, STACK_BY_COST, top, STACK_COMBOS_MAX);

	for (size_t k = 0; k < n; k++)
		if (top[k]->total_ns)
			folded_common__combo(f, rs, wakee, waker, top[k]);
	/* the combinations past the ones kept: their time, with no stacks to put it on */
	if (c && c->other_ns)
		fprintf(f, "%s;[stacks not kept: the %u combinations kept were taken];--;%s %" PRIu64 "\n", wakee,
			STACK_COMBOS_MAX, waker, c->other_ns);
}
