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
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"

struct futex_run {
	struct wl_run run;
	_Alignas(64) uint32_t word;	/* 1: notified, 0: the wakee consumed it */
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static long futex_op(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void *wakee_main(void *arg)
{
	struct futex_run *fx = arg;
	struct wl_run *run = &fx->run;
	uint64_t seq, value, tsc;
	uint32_t cpu;

	fx->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	fx->wakee_tid = gettid();
	pthread_barrier_wait(&fx->ready);
	if (fx->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		value = 1;
		while (__atomic_load_n(&fx->word, __ATOMIC_ACQUIRE) == 0) {
			if (futex_op(&fx->word, FUTEX_WAIT_PRIVATE, 0) == 0)
				continue;
			/* EAGAIN: the word changed before we slept; EINTR: a signal */
			if (errno != EAGAIN && errno != EINTR) {
				/* keep polling so the waker is not left hanging, but flag it */
				fx->wakee_err = -errno;
				value = 0;
			}
		}
		tsc = tsc_read(&cpu);
		__atomic_store_n(&fx->word, 0, __ATOMIC_RELAXED);
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct futex_run fx;
	struct wl_run *run = &fx.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "futex", WP_SUMMARY_FUTEX, argc, argv);

	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&fx.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &fx);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&fx.ready);
	if (fx.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-fx.wakee_err));

	wl_set_roles(run, gettid(), fx.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		__atomic_store_n(&fx.word, 1, __ATOMIC_RELEASE);
		if (futex_op(&fx.word, FUTEX_WAKE_PRIVATE, 1) < 0)
			return wl_fail(run, "FUTEX_WAKE: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (fx.wakee_err)
		return wl_fail(run, "FUTEX_WAIT: %s", strerror(-fx.wakee_err));
	pthread_barrier_destroy(&fx.ready);
	return err;
}
