/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_design.h - what a person reads of a throughput workload's runs
 * (design_run.h): the workload's own figures untraced and traced and their
 * ratio, then the census of the traced run: wakeups per unit handed over
 * by kind, their kernel phases and where their time went, the futex words
 * its threads waited on, and the CPU time of its threads by name.
 */
#ifndef WAKEPROBE_TEXT_DESIGN_H
#define WAKEPROBE_TEXT_DESIGN_H

#include <stdio.h>
#include "design_run.h"

/* how many kinds of wakeup and futex words the text shows */
#define DESIGN_REPORT_KINDS	12
#define DESIGN_REPORT_FUTEXES	8

void text_design__print_text(FILE *out, const struct design_run *r);

/*
 * text_design__print_lines - --workload all: one line per design, its
 * first result untraced and traced and the wakeups per unit; @runs[i]
 * NULL for one that did not run (@why[i] says why)
 */
void text_design__print_lines(FILE *out, const struct design_run *const *runs, const char *const *why,
			      size_t n);

#endif /* WAKEPROBE_TEXT_DESIGN_H */
