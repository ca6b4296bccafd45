/* SPDX-License-Identifier: GPL-2.0 */
/* text_stacks.h - attach mode's report, --stacks: the busiest pairs' stacks, and where frame pointers cut them */
#ifndef WAKEPROBE_TEXT_STACKS_H
#define WAKEPROBE_TEXT_STACKS_H

#include <stdbool.h>
#include <stdio.h>
#include "attach_analysis.h"
#include "wakeprobe.h"

/* the busiest pairs whose stacks the text report shows, and the frames of a stack it shows, at most */
#define TEXT_STACKS_PAIRS	3
#define TEXT_STACKS_FRAMES	16

void text_stacks__print(FILE *out, const struct attach_report *r);

/*
 * An object the user stacks end in short of a thread's start: the frame
 * pointer walk stopped there, most likely because it was built without
 * them, and its callers are not shown.
 */
struct stack_cut {
	char object[160];
	uint64_t stacks;	/* wakeups whose stack ends in it, short */
	uint64_t of;		/* wakeups whose stack has a frame in it */
};

#define STACK_CUTS_MAX	8

/* the objects met while counting, at most */
struct stack_cuts {
	struct stack_cut all[64];
	size_t n;
};

struct run_stacks;
struct stack_combo;
struct stack_combos;

/* stack_cuts__count - the user stacks of @c's combinations into @cuts: where they end short */
void stack_cuts__count(struct stack_cuts *cuts, struct run_stacks *rs, const struct stack_combos *c);
/* stack_cuts__top - up to @max of @cuts whose stacks end short, the most first; how many */
size_t stack_cuts__top(struct stack_cuts *cuts, struct stack_cut *out, size_t max);
/* stack_cuts__find - the objects whose stacks end short, the most first, over every pair's stacks; how many */
size_t stack_cuts__find(const struct attach_report *r, struct stack_cut *out, size_t max);

/* text_stacks__combo - combination @s of @of wakeups, @what ("the most frequent"), its frames named by @rs */
void text_stacks__combo(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			const struct stack_combo *s, const char *what, uint64_t of);
/* text_stacks__combos - the most frequent of @c and its costliest, of @of wakeups */
void text_stacks__combos(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			 const struct stack_combos *c, uint64_t of);
/* text_stacks__cost - the cost line's part for --stacks: what the kernel kept, in what memory, at what cost */
void text_stacks__cost(FILE *out, struct run_stacks *rs, uint64_t wakeups);
/* text_stacks__cuts - one line for each object that cut stacks short */
void text_stacks__cuts(FILE *out, const struct stack_cut *cuts, size_t n);

#endif /* WAKEPROBE_TEXT_STACKS_H */
