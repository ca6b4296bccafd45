// SPDX-License-Identifier: GPL-2.0
/*
 * eventfd - the waker write()s 1 to an eventfd, the wakee blocks in read().
 *
 * A blocking read on an eventfd whose counter is zero sleeps on the eventfd's
 * wait queue; write() adds to the counter and wakes it (eventfd(2)). The read
 * returns the whole counter, so a value other than 1 would mean two notifies
 * merged into one wakeup: the hand-shake in common.c rules that out, and the
 * sample is flagged if it ever happens.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "common.h"

struct eventfd_run {
	struct wl_run run;
	int efd;
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct eventfd_run *ev = arg;
	struct wl_run *run = &ev->run;
	uint64_t seq, value, tsc;
	uint32_t cpu;
	ssize_t n;

	ev->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	ev->wakee_tid = gettid();
	pthread_barrier_wait(&ev->ready);
	if (ev->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		do {
			n = read(ev->efd, &value, sizeof(value));
		} while (n < 0 && errno == EINTR);
		tsc = tsc_read(&cpu);
		if (n != sizeof(value)) {
			ev->wakee_err = n < 0 ? -errno : -EIO;
			value = 0;
		}
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct eventfd_run ev;
	struct wl_run *run = &ev.run;
	const uint64_t one = 1;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "eventfd", WP_SUMMARY_EVENTFD, argc, argv);

	ev.efd = eventfd(0, EFD_CLOEXEC);
	if (ev.efd < 0)
		return wl_fail(run, "eventfd: %s", strerror(errno));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&ev.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &ev);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&ev.ready);
	if (ev.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-ev.wakee_err));

	wl_set_roles(run, gettid(), ev.wakee_tid, ev.efd, ev.efd);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (write(ev.efd, &one, sizeof(one)) != sizeof(one))
			return wl_fail(run, "write to eventfd: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (ev.wakee_err)
		return wl_fail(run, "read from eventfd: %s", strerror(-ev.wakee_err));
	close(ev.efd);
	return err;
}
