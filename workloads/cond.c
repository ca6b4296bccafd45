// SPDX-License-Identifier: GPL-2.0
/*
 * cond - the textbook condition variable: the waker takes the mutex, advances
 * a predicate, pthread_cond_signal()s and unlocks; the wakee waits in
 * pthread_cond_wait() until the predicate holds.
 *
 * The predicate is `posted`, the last sequence number the waker posted, read
 * and written only under the mutex (pthread_cond_wait(3p)). A notify that
 * comes before the wakee waits is not lost: the wakee sees the predicate
 * already true and does not wait. glibc sleeps the waiter with FUTEX_WAIT on
 * a word of the condvar and pthread_cond_signal() makes the FUTEX_WAKE only
 * when a waiter is registered, so the notify path varies with the race.
 *
 * The wakeup has two steps. Woken from the condvar's futex, the wakee must
 * re-acquire the mutex before pthread_cond_wait() returns. The waker signals
 * while it still holds the mutex, so a wakee that runs quickly finds the
 * mutex taken and blocks a second time, in FUTEX_WAIT on the mutex, until the
 * waker's pthread_mutex_unlock() wakes it again. The wakee's timestamp is
 * taken right after pthread_cond_wait() returns, so both steps are inside the
 * measured latency, and wakeprobe shows the mutex re-acquisition as a
 * sub-phase of its own (a second sleep and wakeup of the same thread).
 *
 * The waker's timestamp is taken right before pthread_mutex_lock(): taking
 * the mutex is part of the notify. When the wakee finds the predicate already
 * true its timestamp is taken right after its own pthread_mutex_lock()
 * returns and the predicate check, which is when it learns of the notify.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

struct cond_run {
	struct wl_run run;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t posted;	/* last seq the waker posted; under lock */
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct cond_run *cv = arg;
	struct wl_run *run = &cv->run;
	uint64_t seq, value, tsc;
	uint32_t cpu;
	int ret;

	cv->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	cv->wakee_tid = gettid();
	pthread_barrier_wait(&cv->ready);
	if (cv->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		value = 1;
		ret = pthread_mutex_lock(&cv->lock);
		if (ret) {
			/* cannot happen with a default mutex; keep the hand-shake going */
			cv->wakee_err = -ret;
			tsc = tsc_read(&cpu);
			wl_woken(run, seq, tsc, cpu, 0);
			continue;
		}
		if (cv->posted >= seq) {
			/* notified before we got here: nothing to wait for */
			tsc = tsc_read(&cpu);
		} else {
			do {
				ret = pthread_cond_wait(&cv->cond, &cv->lock);
				tsc = tsc_read(&cpu);
				if (ret) {
					cv->wakee_err = -ret;
					value = 0;
					break;
				}
				/* a spurious wakeup waits again; the last return counts */
			} while (cv->posted < seq);
		}
		pthread_mutex_unlock(&cv->lock);
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct cond_run cv;
	struct wl_run *run = &cv.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "cond", WP_SUMMARY_COND, argc, argv);

	err = pthread_mutex_init(&cv.lock, NULL);
	if (err)
		return wl_fail(run, "pthread_mutex_init: %s", strerror(err));
	err = pthread_cond_init(&cv.cond, NULL);
	if (err)
		return wl_fail(run, "pthread_cond_init: %s", strerror(err));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&cv.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &cv);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&cv.ready);
	if (cv.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-cv.wakee_err));

	wl_set_roles(run, gettid(), cv.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		err = pthread_mutex_lock(&cv.lock);
		if (err)
			return wl_fail(run, "pthread_mutex_lock: %s", strerror(err));
		cv.posted = seq;
		err = pthread_cond_signal(&cv.cond);
		pthread_mutex_unlock(&cv.lock);
		if (err)
			return wl_fail(run, "pthread_cond_signal: %s", strerror(err));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (cv.wakee_err)
		return wl_fail(run, "pthread_cond_wait: %s", strerror(-cv.wakee_err));
	pthread_barrier_destroy(&cv.ready);
	pthread_cond_destroy(&cv.cond);
	pthread_mutex_destroy(&cv.lock);
	return err;
}
