// SPDX-License-Identifier: GPL-2.0
/*
 * sem - the waker sem_post()s a POSIX unnamed semaphore, the wakee blocks in
 * sem_wait().
 *
 * The semaphore is thread-shared (sem_init(3) with pshared 0) and starts at
 * zero. sem_wait() decrements it at once when it is positive, which is what
 * happens when the notify comes first; otherwise glibc registers the thread
 * as a waiter and sleeps in FUTEX_WAIT on the semaphore's value. sem_post()
 * increments the value and makes the FUTEX_WAKE syscall only when a waiter is
 * registered (sem_overview(7), sem_post(3)), so a wakee that has not gone to
 * sleep yet costs the waker no syscall at all: the notify path varies with
 * the race, as it does in real programs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

struct sem_run {
	struct wl_run run;
	sem_t sem;
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct sem_run *sr = arg;
	struct wl_run *run = &sr->run;
	uint64_t seq, value, tsc;
	uint32_t cpu;
	int ret;

	sr->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	sr->wakee_tid = gettid();
	pthread_barrier_wait(&sr->ready);
	if (sr->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		do {
			ret = sem_wait(&sr->sem);
		} while (ret < 0 && errno == EINTR);
		tsc = tsc_read(&cpu);
		value = 1;
		if (ret < 0) {
			sr->wakee_err = -errno;
			value = 0;
		}
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct sem_run sr;
	struct wl_run *run = &sr.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "sem", WP_SUMMARY_SEM, argc, argv);

	if (sem_init(&sr.sem, 0, 0))
		return wl_fail(run, "sem_init: %s", strerror(errno));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&sr.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &sr);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&sr.ready);
	if (sr.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-sr.wakee_err));

	wl_set_roles(run, gettid(), sr.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (sem_post(&sr.sem))
			return wl_fail(run, "sem_post: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (sr.wakee_err)
		return wl_fail(run, "sem_wait: %s", strerror(-sr.wakee_err));
	pthread_barrier_destroy(&sr.ready);
	sem_destroy(&sr.sem);
	return err;
}
