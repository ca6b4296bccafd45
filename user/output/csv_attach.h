/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv_attach.h - every wakeup of attach mode as one CSV row (RFC 4180),
 * written as it arrives: nothing is kept between rows, so a run of any
 * length costs the same memory. It takes struct attach_result one by one,
 * from a live run or a replay alike. docs/outputs.md lists the columns.
 */
#ifndef WAKEPROBE_CSV_ATTACH_H
#define WAKEPROBE_CSV_ATTACH_H

#include <stdio.h>
#include "attach_result.h"

struct csv_attach;

/* csv_attach__open - write the header line to @out; NULL on ENOMEM */
struct csv_attach *csv_attach__open(FILE *out);
void csv_attach__add(struct csv_attach *c, const struct attach_result *r);
/* csv_attach__close - flush and free; 0, or -EIO if the stream failed. Never fcloses @out. */
int csv_attach__close(struct csv_attach *c);

#endif /* WAKEPROBE_CSV_ATTACH_H */
