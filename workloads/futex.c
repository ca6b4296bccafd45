// SPDX-License-Identifier: GPL-2.0
/*
 * futex - the waker sets a private futex word and FUTEX_WAKEs the wakee that
 * sleeps in FUTEX_WAIT on it; no libc primitive in between.
 *
 * FUTEX_WAIT sleeps only if the word still holds the expected value (0) when
 * the kernel looks at it under the futex hash-bucket lock; otherwise it fails
 * with EAGAIN at once (futex(2)). The waker stores 1 before it calls
 * FUTEX_WAKE, so a notify that comes before the wakee sleeps is never lost:
 * the wakee either sees 1 in its own load or gets EAGAIN from the kernel. The
 * wakee clears the word before it acknowledges the sample, and the hand-shake
 * in common.c keeps the waker from setting it again before that.
 *
 * The waker always calls FUTEX_WAKE, even when nobody sleeps (unlike the
 * mutexes and semaphores of libc, which track waiters to skip the syscall),
 * so every sample has the same notify path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"

struct futex_state {
	_Alignas(64) uint32_t word;	/* 1: notified, 0: the wakee consumed it */
};

static long futex_op(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static int futex_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct futex_state *fx = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	__atomic_store_n(&fx->word, 1, __ATOMIC_RELEASE);
	if (futex_op(&fx->word, FUTEX_WAKE_PRIVATE, 1) < 0)
		return wl_fail(run, "FUTEX_WAKE: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int futex_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct futex_state *fx = state;
	uint64_t value = 1, tsc;
	uint32_t cpu;
	int err = 0;

	while (__atomic_load_n(&fx->word, __ATOMIC_ACQUIRE) == 0) {
		if (futex_op(&fx->word, FUTEX_WAIT_PRIVATE, 0) == 0)
			continue;
		/* EAGAIN: the word changed before we slept; EINTR: a signal */
		if (errno != EAGAIN && errno != EINTR) {
			/* keep polling so the waker is not left hanging, but flag it */
			err = -errno;
			value = 0;
		}
	}
	tsc = tsc_read(&cpu);
	__atomic_store_n(&fx->word, 0, __ATOMIC_RELAXED);
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static struct futex_state futex_state;

static const struct wl_path futex_path = {
	.name = "futex",
	.summary = WP_SUMMARY_FUTEX,
	.state = &futex_state,
	.notify = futex_notify,
	.wait = futex_wait,
	.wait_error = "FUTEX_WAIT",
};

int main(int argc, char **argv)
{
	return wl_main(&futex_path, argc, argv);
}
