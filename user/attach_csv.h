/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_csv.h - every wakeup of attach mode as one CSV row (RFC 4180),
 * written as it arrives: nothing is kept between rows, so a run of any
 * length costs the same memory. It takes struct attach_result one by one,
 * from a live run or a replay alike. docs/outputs.md lists the columns.
 */
#ifndef WAKEPROBE_ATTACH_CSV_H
#define WAKEPROBE_ATTACH_CSV_H

#include <stdio.h>
#include "attach.h"

struct attach_csv;

/* attach_csv__open - write the header line to @out; NULL on ENOMEM */
struct attach_csv *attach_csv__open(FILE *out);
void attach_csv__add(struct attach_csv *c, const struct attach_result *r);
/* attach_csv__close - flush and free; 0, or -EIO if the stream failed. Never fcloses @out. */
int attach_csv__close(struct attach_csv *c);

#endif /* WAKEPROBE_ATTACH_CSV_H */
