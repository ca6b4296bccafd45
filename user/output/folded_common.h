/* SPDX-License-Identifier: GPL-2.0 */
/*
 * folded_common.h - --folded's lines, which attach mode's pairs
 * (folded_attach.c) and a workload's runs (folded_workload.c) both write
 * (folded_common.c says the format)
 */
#ifndef WAKEPROBE_FOLDED_COMMON_H
#define WAKEPROBE_FOLDED_COMMON_H

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

#endif /* WAKEPROBE_FOLDED_COMMON_H */
