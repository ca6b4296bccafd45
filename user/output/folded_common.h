/* SPDX-License-Identifier: GPL-2.0 */
/* folded.h - --folded: attach mode's stacks as folded stacks, for flame graphs (folded.c says the format) */
#ifndef WAKEPROBE_FOLDED_COMMON_H
#define WAKEPROBE_FOLDED_COMMON_H

#include <stdio.h>
#include "attach_analysis.h"
#include "catalog.h"
#include "run_result.h"
#include "stack_combos.h"

struct attach_pair;
struct run_stacks;

/* folded__combo - the line of combination @s between @wakee and @waker, its frames named by @rs */
void folded__combo(FILE *f, struct run_stacks *rs, const char *wakee, const char *waker,
		   const struct stack_combo *s);
/* folded__print - every combination of every pair @rep keeps: 0, or -EIO */
int folded__print(FILE *f, const struct attach_report *rep);
/* folded__print_workloads - the combinations of each of @n workload runs, named by its path: 0, or -EIO */
int folded__print_workloads(FILE *f, const struct workload_desc *const *wl, const struct run_result *const *res,
			    size_t n);

#endif /* WAKEPROBE_FOLDED_COMMON_H */
