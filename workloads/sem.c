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
#include <semaphore.h>
#include <string.h>
#include "common.h"

struct semaphore_state {
	sem_t sem;
};

static int semaphore_setup(struct wl_run *run, void *state)
{
	struct semaphore_state *sr = state;

	if (sem_init(&sr->sem, 0, 0))
		return wl_fail(run, "sem_init: %s", strerror(errno));
	return 0;
}

static int semaphore_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct semaphore_state *sr = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	if (sem_post(&sr->sem))
		return wl_fail(run, "sem_post: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int semaphore_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct semaphore_state *sr = state;
	uint64_t value, tsc;
	uint32_t cpu;
	int ret, err = 0;

	do {
		ret = sem_wait(&sr->sem);
	} while (ret < 0 && errno == EINTR);
	tsc = tsc_read(&cpu);
	value = 1;
	if (ret < 0) {
		err = -errno;
		value = 0;
	}
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static void semaphore_teardown(void *state)
{
	struct semaphore_state *sr = state;

	sem_destroy(&sr->sem);
}

static struct semaphore_state semaphore_state;

static const struct wl_path semaphore_path = {
	.name = "sem",
	.summary = WP_SUMMARY_SEM,
	.state = &semaphore_state,
	.setup = semaphore_setup,
	.notify = semaphore_notify,
	.wait = semaphore_wait,
	.wait_error = "sem_wait",
	.teardown = semaphore_teardown,
};

int main(int argc, char **argv)
{
	return wl_main(&semaphore_path, argc, argv);
}
