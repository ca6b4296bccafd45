/* SPDX-License-Identifier: GPL-2.0 */
/* folded_workload.h - --folded of wakeprobe's own workloads: each run's combinations of stacks, as folded stacks */
#ifndef WAKEPROBE_FOLDED_WORKLOAD_H
#define WAKEPROBE_FOLDED_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>
#include "catalog.h"
#include "run_result.h"

/* folded_workload__print - the combinations of each of @n workload runs, named by its path: 0, or -EIO */
int folded_workload__print(FILE *f, const struct workload_desc *const *wl, const struct run_result *const *res,
			   size_t n);

#endif /* WAKEPROBE_FOLDED_WORKLOAD_H */
