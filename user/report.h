/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - the report a person reads */
#ifndef WAKEPROBE_REPORT_H
#define WAKEPROBE_REPORT_H

#include <stdio.h>
#include "session.h"

void report__print_text(FILE *out, const struct session_opts *o, const struct session_result *r);
/* report__print_comparison - `--workload all`: a row per path, @n of them */
void report__print_comparison(FILE *out, const struct session_opts *o, const struct workload_desc *const *wl,
			      const struct session_result *const *res, size_t n);

#endif /* WAKEPROBE_REPORT_H */
