/* SPDX-License-Identifier: GPL-2.0 */
/* text_stacks.h - attach mode's report, --stacks: the busiest pairs' stacks, and where frame pointers cut them */
#ifndef WAKEPROBE_TEXT_STACKS_H
#define WAKEPROBE_TEXT_STACKS_H

#include <stdbool.h>
#include <stdio.h>
#include "attach_analysis.h"

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

/* stack_cuts__find - the objects whose stacks end short, the most first, over every pair's stacks; how many */
size_t stack_cuts__find(const struct attach_report *r, struct stack_cut *out, size_t max);

#endif /* WAKEPROBE_TEXT_STACKS_H */
