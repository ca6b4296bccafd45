/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_attach.h - attach mode's report a person reads: the run, its
 * wakeups by waker and by label, the busiest waker -> wakee pairs, the
 * kernel phases of the complete wakeups, the futex words, the histograms.
 */
#ifndef WAKEPROBE_TEXT_ATTACH_H
#define WAKEPROBE_TEXT_ATTACH_H

#include <stdio.h>
#include "attach_analysis.h"

void text_attach__print_text(FILE *out, const struct attach_report *r);
/*
 * text_attach__futexes_sketch - under a table of the futex words @rows (@n
 * of them), once more words came than the table has rows: that a sketch
 * kept the busiest, how far the rows shown can be off, and where the waits
 * and wakes of the words replaced went. Nothing while every word had a row.
 */
void text_attach__futexes_sketch(FILE *out, const struct attach_aggregate *g, const struct attach_futex *const *rows,
				 size_t n);

#endif /* WAKEPROBE_TEXT_ATTACH_H */
