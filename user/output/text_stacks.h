/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_stacks.h - --stacks in the text reports: a run's combinations of
 * stacks, what taking them cost, where frame pointers cut them, and attach
 * mode's busiest pairs' stacks
 */
#ifndef WAKEPROBE_TEXT_STACKS_H
#define WAKEPROBE_TEXT_STACKS_H

#include <stdint.h>
#include <stdio.h>
#include "attach_analysis.h"
#include "stack_cuts.h"
#include "wakeprobe.h"

/* the busiest pairs whose stacks the text report shows, and the frames of a stack it shows, at most */
#define TEXT_STACKS_PAIRS	3
#define TEXT_STACKS_FRAMES	16
#define TEXT_STACKS_BRIEF	4

/* text_stacks__print - attach mode's: the stacks of the first pairs of its table, and where they were cut */
void text_stacks__print(FILE *out, const struct attach_report *r);

struct run_stacks;
struct stack_combo;
struct stack_combos;

/* text_stacks__combo - combination @s of @of wakeups, @what ("the most frequent"), its frames named by @rs */
void text_stacks__combo(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			const struct stack_combo *s, const char *what, uint64_t of);
/* text_stacks__combos - the most frequent of @c and its costliest, of @of wakeups */
void text_stacks__combos(FILE *out, struct run_stacks *rs, const char *waker, const char *wakee,
			 const struct stack_combos *c, uint64_t of);
/*
 * text_stacks__brief - a stack on one line, innermost first, TEXT_STACKS_BRIEF
 * frames at most: the user stack @user of @tgid, or where it has none the
 * kernel's, @kernel
 */
void text_stacks__brief(FILE *out, struct run_stacks *rs, int32_t user, int32_t kernel, uint32_t tgid);
/* text_stacks__cost - the cost line's part for --stacks: what the kernel kept, in what memory, at what cost */
void text_stacks__cost(FILE *out, struct run_stacks *rs, uint64_t wakeups);
/* text_stacks__unwound - --unwind's line: the user stacks unwound from copies, and what that cost */
void text_stacks__unwound(FILE *out, struct run_stacks *rs, uint64_t wakeups);
/* the cut note says an object lacks frame pointers where one stack in this many through it, or more, ends there */
#define STACK_CUTS_SAY_SHARE	100

/* text_stacks__cuts - one line for each object that cut stacks short */
void text_stacks__cuts(FILE *out, const struct stack_cut *cuts, size_t n);

#endif /* WAKEPROBE_TEXT_STACKS_H */
