/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_reader.h - create the workload's sample ring in a memfd
 * and read samples from it. The memfd has no name in any file system, so
 * nothing is left behind however wakeprobe ends.
 */
#ifndef WAKEPROBE_SAMPLE_READER_H
#define WAKEPROBE_SAMPLE_READER_H

#include <stddef.h>
#include <stdint.h>
#include "sample_ring.h"

struct sample_reader {
	int fd;				/* -1 until created */
	struct wp_ring *ring;		/* NULL until mapped */
	uint64_t bytes;
	uint64_t read;			/* samples consumed */
	uint64_t seq_errors;		/* a slot whose seq was not the next one */
};

typedef void (*sample_fn)(const struct wp_sample *s, void *ctx);

int sample_reader__create(struct sample_reader *sr, uint32_t nr_slots);
/* sample_reader__drain - hand every published sample to @fn; returns how many */
size_t sample_reader__drain(struct sample_reader *sr, sample_fn fn, void *ctx);
uint32_t sample_reader__state(const struct sample_reader *sr);
void sample_reader__destroy(struct sample_reader *sr);

#endif /* WAKEPROBE_SAMPLE_READER_H */
