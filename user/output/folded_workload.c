// SPDX-License-Identifier: GPL-2.0
/*
 * folded_workload.c - --folded of wakeprobe's own workloads: each run's
 * combinations of stacks, its waker and wakee named by its path
 */
#include <errno.h>
#include "folded_common.h"
#include "folded_workload.h"

int folded_workload__print(FILE *f, const struct workload_desc *const *wl, const struct run_result *const *res,
			   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char wakee[64], waker[64];

		snprintf(wakee, sizeof(wakee), "%s wakee", wl[i]->name);
		snprintf(waker, sizeof(waker), "%s waker", wl[i]->name);
		folded_common__combos(f, res[i]->stacks, wakee, waker, res[i]->stack_combos);
	}
	return ferror(f) ? -EIO : 0;
}
