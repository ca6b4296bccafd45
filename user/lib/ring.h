/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring.h - the growth of a power-of-two ring, the queue the merger's samples
 * and the event window's events are kept in.
 *
 * A ring of @cap elements of @elem bytes (@cap a power of two) holds @len of
 * them from @head on: element i lives at (head + i) & (cap - 1).
 */
#ifndef WAKEPROBE_RING_H
#define WAKEPROBE_RING_H

#include <stddef.h>

/* ring__grow - double the ring's capacity, unrolling it to start at index 0; 0 or -ENOMEM */
int ring__grow(void **buf, size_t *cap, size_t *head, size_t len, size_t elem);

#endif /* WAKEPROBE_RING_H */
