/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_attach.h - an attach run as an SVG picture (--plot with --pid or
 * -- COMMAND, or `report` of its recording): the busiest waker -> wakee
 * pairs, in the order the text report lists them, and the kernel phases of
 * the complete wakeups in log scale. Drawn from the run's aggregate alone;
 * docs/outputs.md describes it.
 */
#ifndef WAKEPROBE_PLOT_ATTACH_H
#define WAKEPROBE_PLOT_ATTACH_H

#include <stdio.h>
#include "attach_analysis.h"

/* the pairs drawn at most, whatever --pairs asks of the text: more would not be read */
#define PLOT_ATTACH_MAX_PAIRS	20

/* plot_attach__print - the picture of the attach run @r on @out: 0, or -EIO if the stream failed */
int plot_attach__print(FILE *out, const struct attach_report *r);

#endif /* WAKEPROBE_PLOT_ATTACH_H */
