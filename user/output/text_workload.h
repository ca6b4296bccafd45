/* SPDX-License-Identifier: GPL-2.0 */
/* text_workload.h - the report a person reads */
#ifndef WAKEPROBE_TEXT_WORKLOAD_H
#define WAKEPROBE_TEXT_WORKLOAD_H

#include <stdbool.h>
#include <stdio.h>
#include "aggregate.h"
#include "run_config.h"
#include "run_result.h"

/*
 * text_workload__warnings - each WARNING or NOTE a run deserves, in the order the
 * text report prints them: @kind is "WARNING" or "NOTE", @text one line.
 */
typedef void (*report_warning_fn)(const char *kind, const char *text, void *ctx);

void text_workload__warnings(const struct run_result *r, report_warning_fn fn, void *ctx);
/* text_workload__host_excess - the steal given to wakeups over what /proc/stat allows: 0 when it is within */
uint64_t text_workload__host_excess(const struct host_steal *h, int64_t in_wakeups_ns);

void text_workload__print_text(FILE *out, const struct run_config *cfg, const struct run_result *r);
/*
 * text_workload__print_comparison - `--workload all`: a row per path, @n of them,
 * run i of @wl[i] with the settings @cfg shared (its workload is not used)
 */
void text_workload__print_comparison(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
				     const struct run_result *const *res, size_t n);

#endif /* WAKEPROBE_TEXT_WORKLOAD_H */
