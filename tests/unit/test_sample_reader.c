// SPDX-License-Identifier: GPL-2.0
/*
 * test_sample_reader.c - the sample ring a workload writes into: a sealed
 * memfd of exactly the ring's size with its header set; samples written
 * the way a workload writes them (workloads/common.c: the slot, then a
 * release store of head) drained in order across the wrap, the tail
 * moved only once they were handed over, a slot out of sequence counted;
 * the workload's state read; and a real workload process that publishes
 * through a small ring against its back-pressure, none lost.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "sample_reader.h"

#define MAX_SEEN	2048

static struct sample_reader sr;
/* what drain handed over, and the tail the ring showed at each */
static struct {
	struct wp_sample s[MAX_SEEN];
	uint64_t tail[MAX_SEEN];
	size_t n;
} seen;

static void setup(void)
{
	memset(&sr, 0, sizeof(sr));
	sr.fd = -1;
	seen.n = 0;
}

static void teardown(void)
{
	sample_reader__destroy(&sr);
}

TestSuite(sample_reader, .init = setup, .fini = teardown);

static void collect(const struct wp_sample *s, void *ctx)
{
	cr_assert_eq(ctx, &seen);
	cr_assert_lt(seen.n, MAX_SEEN);
	seen.s[seen.n] = *s;
	seen.tail[seen.n] = sr.ring->hdr.tail;
	seen.n++;
}

/*
 * workload_map - the ring through its fd, as a workload maps it
 * (wl_map_ring()): a second mapping, with the checks a workload makes
 */
static struct wp_ring *workload_map(int fd, size_t *bytes)
{
	struct wp_ring *ring;
	struct stat st;

	cr_assert_eq(fstat(fd, &st), 0);
	ring = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	cr_assert_neq(ring, MAP_FAILED);
	cr_assert_eq(ring->hdr.magic, WP_RING_MAGIC);
	cr_assert_eq(ring->hdr.version, WP_RING_VERSION);
	cr_assert_eq(ring->hdr.slot_size, sizeof(struct wp_sample));
	cr_assert_leq(wp_ring_bytes(ring->hdr.nr_slots), (uint64_t)st.st_size);
	*bytes = (size_t)st.st_size;
	return ring;
}

/* publish - a sample of @seq into @ring as a workload does; false if the ring is full */
static bool publish(struct wp_ring *ring, uint64_t seq)
{
	uint64_t head = ring->hdr.head;
	struct wp_sample s;

	if (head - __atomic_load_n(&ring->hdr.tail, __ATOMIC_ACQUIRE) >= ring->hdr.nr_slots)
		return false;
	memset(&s, 0, sizeof(s));
	s.seq = seq;
	s.tsc_notify = 1000 * seq;
	s.tsc_woken = 1000 * seq + 300;
	s.waker_tid = 41;
	s.wakee_tid = 42;
	s.value = seq * 7;
	ring->slots[head & (ring->hdr.nr_slots - 1)] = s;
	__atomic_store_n(&ring->hdr.head, head + 1, __ATOMIC_RELEASE);
	return true;
}

Test(sample_reader, a_ring_that_is_not_a_power_of_two_is_refused)
{
	static const uint32_t bad[] = { 0, 3, 6, 1000, 0x80000001u };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(sample_reader__create(&sr, bad[i]), -EINVAL, "%u slots", bad[i]);
		cr_assert_eq(sr.fd, -1);
		cr_assert_null(sr.ring);
		sample_reader__destroy(&sr);
	}
	cr_assert_eq(sample_reader__create(&sr, 1), 0, "one slot is a power of two");
}

Test(sample_reader, the_ring_is_a_sealed_memfd_of_its_size_with_its_header_set)
{
	char link[64], target[128];
	struct stat st;
	ssize_t n;
	int seals;

	cr_assert_eq(sample_reader__create(&sr, 64), 0);
	cr_assert_geq(sr.fd, 0);
	cr_assert_not_null(sr.ring);
	cr_assert_eq(sr.bytes, wp_ring_bytes(64));
	cr_assert_eq(fstat(sr.fd, &st), 0);
	cr_assert_eq((uint64_t)st.st_size, wp_ring_bytes(64));
	/* nothing in any file system: only the fd names it */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", sr.fd);
	n = readlink(link, target, sizeof(target) - 1);
	cr_assert_gt(n, 0);
	target[n] = '\0';
	cr_assert(strstr(target, "memfd:wakeprobe-samples"), "%s", target);
	/* the workload cannot resize it under wakeprobe, nor unseal it */
	seals = fcntl(sr.fd, F_GET_SEALS);
	cr_assert_eq(seals & (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL,
		     "seals %#x", seals);
	cr_assert_neq(ftruncate(sr.fd, 4096), 0);
	cr_assert_eq(errno, EPERM);
	/* handed to the workload explicitly, never inherited by accident */
	cr_assert(fcntl(sr.fd, F_GETFD) & FD_CLOEXEC);

	cr_assert_eq(sr.ring->hdr.magic, WP_RING_MAGIC);
	cr_assert_eq(sr.ring->hdr.version, WP_RING_VERSION);
	cr_assert_eq(sr.ring->hdr.nr_slots, 64);
	cr_assert_eq(sr.ring->hdr.slot_size, sizeof(struct wp_sample));
	cr_assert_eq(sr.ring->hdr.head, 0);
	cr_assert_eq(sr.ring->hdr.tail, 0);
	cr_assert_eq(sample_reader__state(&sr), WP_RING_STARTING);
	cr_assert_eq(sr.read, 0);
	cr_assert_eq(sr.seq_errors, 0);
}

Test(sample_reader, samples_are_drained_in_order_across_the_wrap)
{
	struct wp_ring *ring;
	size_t bytes;
	uint64_t seq = 1;

	cr_assert_eq(sample_reader__create(&sr, 4), 0);
	ring = workload_map(sr.fd, &bytes);

	cr_assert_eq(sample_reader__drain(&sr, collect, &seen), 0, "nothing published yet");
	cr_assert_eq(seen.n, 0);
	for (int i = 0; i < 3; i++)
		cr_assert(publish(ring, seq++));
	cr_assert_eq(sample_reader__drain(&sr, collect, &seen), 3);
	/* four more: the ring wraps, and its last free slot is used */
	for (int i = 0; i < 4; i++)
		cr_assert(publish(ring, seq++));
	cr_assert_not(publish(ring, seq), "a full ring takes no more until it is drained");
	cr_assert_eq(sample_reader__drain(&sr, collect, &seen), 4);
	cr_assert_eq(sample_reader__drain(&sr, collect, &seen), 0);

	cr_assert_eq(seen.n, 7);
	for (size_t i = 0; i < seen.n; i++) {
		cr_assert_eq(seen.s[i].seq, i + 1);
		cr_assert_eq(seen.s[i].value, (i + 1) * 7);
		cr_assert_eq(seen.s[i].tsc_woken, 1000 * (i + 1) + 300);
		cr_assert_eq(seen.s[i].wakee_tid, 42);
	}
	/* the slots were handed over before the tail let the workload reuse them */
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(seen.tail[i], 0, "sample %zu: tail %lu while it was handed over", i + 1,
			     (unsigned long)seen.tail[i]);
	for (size_t i = 3; i < 7; i++)
		cr_assert_eq(seen.tail[i], 3);
	cr_assert_eq(ring->hdr.tail, 7);
	cr_assert_eq(sr.read, 7);
	cr_assert_eq(sr.seq_errors, 0);
	cr_assert(publish(ring, seq), "drained: room again");
	munmap(ring, bytes);
}

Test(sample_reader, a_slot_out_of_sequence_is_counted_and_still_handed_over)
{
	static const uint64_t seqs[] = { 1, 2, 4, 5, 5 };
	struct wp_ring *ring;
	size_t bytes;

	cr_assert_eq(sample_reader__create(&sr, 8), 0);
	ring = workload_map(sr.fd, &bytes);
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		cr_assert(publish(ring, seqs[i]));
	cr_assert_eq(sample_reader__drain(&sr, collect, &seen), 5);
	/* slot 3 holds 4, slot 4 holds 5: both wrong; slot 5 holds 5, which is its own */
	cr_assert_eq(sr.seq_errors, 2);
	cr_assert_eq(seen.n, 5);
	for (size_t i = 0; i < seen.n; i++)
		cr_assert_eq(seen.s[i].seq, seqs[i]);
	munmap(ring, bytes);
}

Test(sample_reader, the_workloads_state_is_read_as_it_sets_it)
{
	struct wp_ring *ring;
	size_t bytes;

	cr_assert_eq(sample_reader__create(&sr, 2), 0);
	ring = workload_map(sr.fd, &bytes);
	cr_assert_eq(sample_reader__state(&sr), WP_RING_STARTING);
	__atomic_store_n(&ring->hdr.state, WP_RING_RUNNING, __ATOMIC_RELEASE);
	cr_assert_eq(sample_reader__state(&sr), WP_RING_RUNNING);
	snprintf(ring->hdr.error, sizeof(ring->hdr.error), "cannot pin to CPU 3");
	__atomic_store_n(&ring->hdr.state, WP_RING_FAILED, __ATOMIC_RELEASE);
	cr_assert_eq(sample_reader__state(&sr), WP_RING_FAILED);
	cr_assert_str_eq(sr.ring->hdr.error, "cannot pin to CPU 3");
	munmap(ring, bytes);

	/* destroyed: nothing held, and destroying again is harmless */
	sample_reader__destroy(&sr);
	cr_assert_eq(sr.fd, -1);
	cr_assert_null(sr.ring);
	sample_reader__destroy(&sr);
}

#define WORKLOAD_SAMPLES	1000

/* workload - a workload process: its header, RUNNING, every sample against the back-pressure, DONE */
static void workload(int fd)
{
	struct timespec pause = { .tv_nsec = 20000 };
	struct wp_ring *ring;
	struct stat st;

	if (fstat(fd, &st))
		_exit(2);
	ring = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED || ring->hdr.magic != WP_RING_MAGIC)
		_exit(3);
	snprintf(ring->hdr.workload, sizeof(ring->hdr.workload), "eventfd");
	ring->hdr.waker_tid = 41;
	ring->hdr.wakee_tid = 42;
	ring->hdr.samples_planned = WORKLOAD_SAMPLES;
	__atomic_store_n(&ring->hdr.state, WP_RING_RUNNING, __ATOMIC_RELEASE);
	for (uint64_t seq = 1; seq <= WORKLOAD_SAMPLES; seq++) {
		for (int tries = 0; !publish(ring, seq); tries++) {
			if (tries > 250000)	/* 5 s: the reader is gone */
				_exit(4);
			nanosleep(&pause, NULL);
		}
	}
	__atomic_store_n(&ring->hdr.state, WP_RING_DONE, __ATOMIC_RELEASE);
	_exit(0);
}

Test(sample_reader, a_workload_process_publishes_through_a_small_ring_and_none_is_lost)
{
	struct timespec pause = { .tv_nsec = 50000 };
	int status, rounds = 0;
	uint32_t state;
	pid_t pid;

	cr_assert_eq(sample_reader__create(&sr, 8), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		workload(sr.fd);
	/* drain as a session does: until the workload is done and the ring is empty */
	do {
		state = sample_reader__state(&sr);
		if (!sample_reader__drain(&sr, collect, &seen))
			nanosleep(&pause, NULL);
		cr_assert_lt(++rounds, 100000, "the workload never finished: %zu samples", seen.n);
	} while (state != WP_RING_DONE && state != WP_RING_FAILED);
	sample_reader__drain(&sr, collect, &seen);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the workload ended with %#x", status);

	cr_assert_eq(state, WP_RING_DONE);
	cr_assert_str_eq(sr.ring->hdr.workload, "eventfd");
	cr_assert_eq(sr.ring->hdr.samples_planned, WORKLOAD_SAMPLES);
	cr_assert_eq(seen.n, WORKLOAD_SAMPLES);
	cr_assert_eq(sr.read, WORKLOAD_SAMPLES);
	cr_assert_eq(sr.seq_errors, 0);
	for (size_t i = 0; i < seen.n; i++)
		cr_assert_eq(seen.s[i].seq, i + 1, "sample %zu is %lu", i, (unsigned long)seen.s[i].seq);
}
