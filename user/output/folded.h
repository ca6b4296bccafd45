/* SPDX-License-Identifier: GPL-2.0 */
/* folded.h - --folded: attach mode's stacks as folded stacks, for flame graphs (folded.c says the format) */
#ifndef WAKEPROBE_FOLDED_H
#define WAKEPROBE_FOLDED_H

#include <stdio.h>
#include "attach_analysis.h"
#include "stack_combos.h"

struct attach_pair;
struct run_stacks;

/* folded__combo - the line of combination @s of pair @p, its frames named by @rs */
void folded__combo(FILE *f, struct run_stacks *rs, const struct attach_pair *p, const struct stack_combo *s);
/* folded__print - every combination of every pair @rep keeps: 0, or -EIO */
int folded__print(FILE *f, const struct attach_report *rep);

#endif /* WAKEPROBE_FOLDED_H */
