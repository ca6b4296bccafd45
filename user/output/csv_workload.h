/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv_workload.h - every sample as one CSV row (RFC 4180), written as it
 * arrives: nothing is kept between rows, so a run of any length costs the
 * same memory. docs/outputs.md lists the columns.
 */
#ifndef WAKEPROBE_CSV_WORKLOAD_H
#define WAKEPROBE_CSV_WORKLOAD_H

#include <stdbool.h>
#include <stdio.h>
#include "wakeup.h"

struct csv_workload;

/* csv_workload__open - write the header line to @out; NULL on ENOMEM */
struct csv_workload *csv_workload__open(FILE *out);
/*
 * csv_workload__begin_run - the rows that follow belong to @workload. An
 * untraced run's rows say so in the label column and leave the kernel's
 * columns empty.
 */
void csv_workload__begin_run(struct csv_workload *c, const char *workload, bool traced);
void csv_workload__add(struct csv_workload *c, const struct sample_result *r);
/* csv_workload__close - flush and free; 0, or -EIO if the stream failed. Never fcloses @out. */
int csv_workload__close(struct csv_workload *c);

#endif /* WAKEPROBE_CSV_WORKLOAD_H */
