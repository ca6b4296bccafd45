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
#include <pthread.h>
#include <string.h>
#include "common.h"

struct cond_state {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t posted;	/* last seq the waker posted; under lock */
};

static int cond_setup(struct wl_run *run, void *state)
{
	struct cond_state *cv = state;
	int err;

	err = pthread_mutex_init(&cv->lock, NULL);
	if (err)
		return wl_fail(run, "pthread_mutex_init: %s", strerror(err));
	err = pthread_cond_init(&cv->cond, NULL);
	if (err)
		return wl_fail(run, "pthread_cond_init: %s", strerror(err));
	return 0;
}

static int cond_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct cond_state *cv = state;
	uint64_t tsc;
	uint32_t cpu;
	int err;

	tsc = tsc_read(&cpu);
	err = pthread_mutex_lock(&cv->lock);
	if (err)
		return wl_fail(run, "pthread_mutex_lock: %s", strerror(err));
	cv->posted = seq;
	err = pthread_cond_signal(&cv->cond);
	pthread_mutex_unlock(&cv->lock);
	if (err)
		return wl_fail(run, "pthread_cond_signal: %s", strerror(err));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int cond_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct cond_state *cv = state;
	uint64_t value = 1, tsc;
	uint32_t cpu;
	int ret, err = 0;

	ret = pthread_mutex_lock(&cv->lock);
	if (ret) {
		/* cannot happen with a default mutex; keep the hand-shake going */
		tsc = tsc_read(&cpu);
		wl_woken(run, seq, tsc, cpu, 0);
		return -ret;
	}
	if (cv->posted >= seq) {
		/* notified before we got here: nothing to wait for */
		tsc = tsc_read(&cpu);
	} else {
		do {
			ret = pthread_cond_wait(&cv->cond, &cv->lock);
			tsc = tsc_read(&cpu);
			if (ret) {
				err = -ret;
				value = 0;
				break;
			}
			/* a spurious wakeup waits again; the last return counts */
		} while (cv->posted < seq);
	}
	pthread_mutex_unlock(&cv->lock);
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static void cond_teardown(void *state)
{
	struct cond_state *cv = state;

	pthread_cond_destroy(&cv->cond);
	pthread_mutex_destroy(&cv->lock);
}

static struct cond_state cond_state;

static const struct wl_path cond_path = {
	.name = "cond",
	.summary = WP_SUMMARY_COND,
	.state = &cond_state,
	.setup = cond_setup,
	.notify = cond_notify,
	.wait = cond_wait,
	.wait_error = "pthread_cond_wait",
	.teardown = cond_teardown,
};

int main(int argc, char **argv)
{
	return wl_main(&cond_path, argc, argv);
}
