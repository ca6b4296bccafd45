/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - the report a person reads */
#ifndef WAKEPROBE_REPORT_H
#define WAKEPROBE_REPORT_H

#include <stdio.h>
#include "session.h"

void report__print_text(FILE *out, const struct session_opts *o, const struct session_result *r);

#endif /* WAKEPROBE_REPORT_H */
