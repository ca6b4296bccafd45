/* SPDX-License-Identifier: GPL-2.0 */
/*
 * folded_common.h - --folded's lines, which attach mode's pairs
 * (folded_attach.c) and a workload's runs (folded_workload.c) both write
 * (folded_common.c says the format)
 */
#ifndef WAKEPROBE_FOLDED_COMMON_H
#define WAKEPROBE_FOLDED_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include "stack_combos.h"

struct run_stacks;

/* folded_common__combo - the line of combination @s between @wakee and @waker, its frames named by @rs */
void folded_common__combo(FILE *f, struct run_stacks *rs, const char *wakee, const char *waker,
			  const struct stack_combo *s);
/*
 * folded_common__combos - a line for every combination of @c with time in
 * it, the costliest first, and one for the time of those past the ones kept
 */
void folded_common__combos(FILE *f, struct run_stacks *rs, const char *wakee, const char *waker,
			   const struct stack_combos *c);
/*
 * folded_common__line - a line of frames @names, root first, then (with
 * @stacked) the stacks @user of @tgid and @kernel root first, weighing
 * @weight
 */
void folded_common__line(FILE *f, struct run_stacks *rs, const char *const *names, size_t nr_names, bool stacked,
			 int32_t user, int32_t kernel, uint32_t tgid, uint64_t weight);

#endif /* WAKEPROBE_FOLDED_COMMON_H */
