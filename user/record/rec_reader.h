/* SPDX-License-Identifier: GPL-2.0 */
/* rec_reader.h - read a record file back, checking every record (recording.h, docs/recording.md) */
#ifndef WAKEPROBE_REC_READER_H
#define WAKEPROBE_REC_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "recording.h"

/*
 * Every record is checked against its type's size and every field
 * that indexes something against its range, so a damaged file is an error
 * with its byte offset, never undefined behaviour further on.
 */
struct rec_reader;

int rec_reader__open(struct rec_reader **out, FILE *in, char *msg, size_t len);
/* rec_reader__next - 1 with a record, 0 at a clean end of file, or a negative errno and @msg */
int rec_reader__next(struct rec_reader *r, struct rec_record *rec, char *msg, size_t len);
uint64_t rec_reader__offset(const struct rec_reader *r);
void rec_reader__free(struct rec_reader *r);

#endif /* WAKEPROBE_REC_READER_H */
