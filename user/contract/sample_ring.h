/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_ring.h - the shared-memory ring through which a workload hands its
 * rdtsc samples to wakeprobe.
 *
 * wakeprobe creates a memfd, sizes it and passes its fd number to the workload
 * (--ring-fd). The workload never makes a syscall to report a sample: it
 * writes the slot and publishes it with a release store of head. One producer
 * (the workload's waker side), one consumer (wakeprobe).
 */
#ifndef WAKEPROBE_SAMPLE_RING_H
#define WAKEPROBE_SAMPLE_RING_H

#include <stdint.h>

#define WP_RING_MAGIC		0x47525057u	/* "WPRG" */
#define WP_RING_VERSION		2u
#define WP_RING_DEFAULT_SLOTS	(1u << 16)

/* wp_sample.flags */
#define WP_SAMPLE_COALESCED	(1u << 0)	/* the wait reported more than one notify */

struct wp_sample {
	uint64_t seq;		/* 1-based, one per notify, no gaps */
	uint64_t tsc_notify;	/* waker, right before the notify call */
	uint64_t tsc_woken;	/* wakee, right after the wait returned */
	uint32_t waker_tid;
	uint32_t wakee_tid;
	uint16_t waker_cpu;	/* CPU the timestamp was taken on (rdtscp) */
	uint16_t wakee_cpu;
	uint32_t flags;
	uint64_t value;		/* what the wait returned, e.g. the eventfd count */
	uint64_t tsc_wait_start; /* wakee, when it began to wait; 0 if not taken */
	uint64_t __pad;
};

enum wp_ring_state {
	WP_RING_STARTING = 0,	/* the workload has not attached yet */
	WP_RING_RUNNING,	/* header fields below are valid */
	WP_RING_DONE,		/* every planned sample was published */
	WP_RING_FAILED,		/* the workload gave up; see error */
};

struct wp_ring_header {
	uint32_t magic;
	uint32_t version;
	uint32_t nr_slots;	/* a power of two */
	uint32_t slot_size;	/* sizeof(struct wp_sample) */

	/* written by the workload before it sets state to RUNNING */
	char workload[32];
	uint32_t waker_tid;
	uint32_t wakee_tid;
	int32_t waker_cpu;
	int32_t wakee_cpu;
	int32_t notify_fd;	/* fd the waker's notify syscall uses, -1 if none */
	int32_t wait_fd;	/* fd the wakee's wait syscall uses, -1 if none */
	uint64_t interval_ns;
	uint64_t samples_planned;
	char error[128];

	/* producer and consumer indices on their own cache lines */
	_Alignas(64) volatile uint64_t head;	/* samples published */
	_Alignas(64) volatile uint64_t tail;	/* samples consumed */
	_Alignas(64) volatile uint32_t state;	/* enum wp_ring_state */
};

struct wp_ring {
	struct wp_ring_header hdr;
	_Alignas(64) struct wp_sample slots[];
};

static inline uint64_t wp_ring_bytes(uint32_t nr_slots)
{
	return sizeof(struct wp_ring) + (uint64_t)nr_slots * sizeof(struct wp_sample);
}

#endif /* WAKEPROBE_SAMPLE_RING_H */
