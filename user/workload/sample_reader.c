// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sample_reader.h"

int sample_reader__create(struct sample_reader *sr, uint32_t nr_slots)
{
	struct wp_ring_header *hdr;
	int err;

	memset(sr, 0, sizeof(*sr));
	sr->fd = -1;
	if (!nr_slots || (nr_slots & (nr_slots - 1)))
		return -EINVAL;
	sr->bytes = wp_ring_bytes(nr_slots);
	/* CLOEXEC: the runner hands the fd to the workload explicitly, and only to it */
	sr->fd = memfd_create("wakeprobe-samples", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (sr->fd < 0)
		return -errno;
	if (ftruncate(sr->fd, sr->bytes) ||
	    fcntl(sr->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		err = -errno;
		goto err_out;
	}
	sr->ring = mmap(NULL, sr->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, sr->fd, 0);
	if (sr->ring == MAP_FAILED) {
		err = -errno;
		sr->ring = NULL;
		goto err_out;
	}
	hdr = &sr->ring->hdr;
	hdr->magic = WP_RING_MAGIC;
	hdr->version = WP_RING_VERSION;
	hdr->nr_slots = nr_slots;
	hdr->slot_size = sizeof(struct wp_sample);
	return 0;

err_out:
	sample_reader__destroy(sr);
	return err;
}

size_t sample_reader__drain(struct sample_reader *sr, sample_fn fn, void *ctx)
{
	struct wp_ring_header *hdr = &sr->ring->hdr;
	uint64_t head, tail = hdr->tail;
	size_t n = 0;

	head = __atomic_load_n(&hdr->head, __ATOMIC_ACQUIRE);
	for (; tail < head; tail++, n++) {
		const struct wp_sample *s = &sr->ring->slots[tail & (hdr->nr_slots - 1)];

		if (s->seq != tail + 1)
			sr->seq_errors++;
		fn(s, ctx);
	}
	sr->read += n;
	/* the slots may be reused only after fn() is done with them */
	__atomic_store_n(&hdr->tail, tail, __ATOMIC_RELEASE);
	return n;
}

uint32_t sample_reader__state(const struct sample_reader *sr)
{
	return __atomic_load_n(&sr->ring->hdr.state, __ATOMIC_ACQUIRE);
}

void sample_reader__destroy(struct sample_reader *sr)
{
	if (sr->ring)
		munmap(sr->ring, sr->bytes);
	if (sr->fd >= 0)
		close(sr->fd);
	sr->ring = NULL;
	sr->fd = -1;
}
