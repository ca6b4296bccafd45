/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_cuts.h - where frame pointers cut the user stacks short, counted
 * for the reports that say so: the text's lines and the JSON's "cut_short"
 */
#ifndef WAKEPROBE_STACK_CUTS_H
#define WAKEPROBE_STACK_CUTS_H

#include <stddef.h>
#include <stdint.h>
#include "attach_analysis.h"

/*
 * An object the user stacks end in short of a thread's start, or of where
 * a Go stack begins: the frame pointer walk stopped there, most likely
 * because it was built without them, and its callers are not shown.
 */
struct stack_cut {
	char object[160];
	uint64_t stacks;	/* wakeups whose stack ends in it, short */
	uint64_t of;		/* wakeups whose stack has a frame in it */
};

/* the objects the reports name, at most */
#define STACK_CUTS_MAX	8

/* the objects met while counting, at most */
struct stack_cuts {
	struct stack_cut all[64];
	size_t n;
};

struct run_stacks;
struct stack_combos;

/* stack_cuts__count - the user stacks of @c's combinations into @cuts: where they end short */
void stack_cuts__count(struct stack_cuts *cuts, struct run_stacks *rs, const struct stack_combos *c);
/* stack_cuts__top - up to @max of @cuts whose stacks end short, the most first; how many */
size_t stack_cuts__top(struct stack_cuts *cuts, struct stack_cut *out, size_t max);
/* stack_cuts__find - the objects whose stacks end short, the most first, over every pair's stacks; how many */
size_t stack_cuts__find(const struct attach_report *r, struct stack_cut *out, size_t max);

#endif /* WAKEPROBE_STACK_CUTS_H */
