/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_csv.h - every sample as one CSV row (RFC 4180), written as it
 * arrives: nothing is kept between rows, so a run of any length costs the
 * same memory. docs/outputs.md lists the columns.
 */
#ifndef WAKEPROBE_SAMPLE_CSV_H
#define WAKEPROBE_SAMPLE_CSV_H

#include <stdbool.h>
#include <stdio.h>
#include "wakeup.h"

struct sample_csv;

/* sample_csv__open - write the header line to @out; NULL on ENOMEM */
struct sample_csv *sample_csv__open(FILE *out);
/*
 * sample_csv__begin_run - the rows that follow belong to @workload. An
 * untraced run's rows say so in the label column and leave the kernel's
 * columns empty.
 */
void sample_csv__begin_run(struct sample_csv *c, const char *workload, bool traced);
void sample_csv__add(struct sample_csv *c, const struct sample_result *r);
/* sample_csv__close - flush and free; 0, or -EIO if the stream failed. Never fcloses @out. */
int sample_csv__close(struct sample_csv *c);

#endif /* WAKEPROBE_SAMPLE_CSV_H */
