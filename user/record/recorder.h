/* SPDX-License-Identifier: GPL-2.0 */
/* recorder.h - write a record file (recording.h, docs/recording.md) */
#ifndef WAKEPROBE_RECORDER_H
#define WAKEPROBE_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "recording.h"

/*
 * The writer only buffers and counts; where the bytes go (a file
 * made atomically, see outfile.h) is the caller's. A write error is kept
 * and returned by recorder__finish(), so the per-record calls need no
 * checks on the hot path.
 */
struct recorder;

struct recorder *recorder__new(FILE *out);
int recorder__write(struct recorder *w, enum rec_type type, const void *payload, uint32_t length);
uint64_t recorder__bytes(const struct recorder *w);
/* recorder__finish - flush; 0, or the first write error as a negative errno. Frees @w. */
int recorder__finish(struct recorder *w);

#endif /* WAKEPROBE_RECORDER_H */
