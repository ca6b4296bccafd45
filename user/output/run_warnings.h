/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_warnings.h - the WARNING and NOTE lines of a workload's run, which
 * its text report and its JSON document both give
 */
#ifndef WAKEPROBE_RUN_WARNINGS_H
#define WAKEPROBE_RUN_WARNINGS_H

#include <stdint.h>
#include "run_result.h"

/* run_warning_fn - one warning: @kind is "WARNING" or "NOTE", @text one line */
typedef void (*run_warning_fn)(const char *kind, const char *text, void *ctx);

/* run_warnings__each - each WARNING or NOTE run @r deserves, in the order the text report prints them */
void run_warnings__each(const struct run_result *r, run_warning_fn fn, void *ctx);
/* run_warnings__host_excess - the steal given to wakeups over what /proc/stat allows: 0 when it is within */
uint64_t run_warnings__host_excess(const struct host_steal *h, int64_t in_wakeups_ns);

#endif /* WAKEPROBE_RUN_WARNINGS_H */
