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

#endif /* WAKEPROBE_TEXT_ATTACH_H */
