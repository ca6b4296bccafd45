// SPDX-License-Identifier: GPL-2.0
/*
 * pipe - the waker write()s one byte into a pipe, the wakee blocks in read()
 * on the other end.
 *
 * A read() from an empty pipe sleeps until data arrives; a write() copies the
 * byte into the pipe buffer and wakes the readers (pipe(7)). A byte written
 * before the wakee reads simply waits in the buffer, so the read returns at
 * once: nothing is lost. The read asks for one byte, so each notify is
 * consumed by exactly one read; the value recorded is the number of bytes
 * read, 1 unless something is badly wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

struct pipe_run {
	struct wl_run run;
	int fds[2];		/* [0] read end (wakee), [1] write end (waker) */
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct pipe_run *pr = arg;
	struct wl_run *run = &pr->run;
	uint64_t seq, tsc;
	uint32_t cpu;
	ssize_t n;
	char byte;

	pr->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	pr->wakee_tid = gettid();
	pthread_barrier_wait(&pr->ready);
	if (pr->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		do {
			n = read(pr->fds[0], &byte, 1);
		} while (n < 0 && errno == EINTR);
		tsc = tsc_read(&cpu);
		if (n != 1) {
			pr->wakee_err = n < 0 ? -errno : -EPIPE;
			n = 0;
		}
		wl_woken(run, seq, tsc, cpu, (uint64_t)n);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct pipe_run pr;
	struct wl_run *run = &pr.run;
	const char byte = 1;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "pipe", WP_SUMMARY_PIPE, argc, argv);

	if (pipe2(pr.fds, O_CLOEXEC))
		return wl_fail(run, "pipe2: %s", strerror(errno));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&pr.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &pr);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&pr.ready);
	if (pr.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-pr.wakee_err));

	run->notify_fd = pr.fds[1];
	run->wait_fd = pr.fds[0];
	wl_set_roles(run, gettid(), pr.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (write(pr.fds[1], &byte, 1) != 1)
			return wl_fail(run, "write to pipe: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (pr.wakee_err)
		return wl_fail(run, "read from pipe: %s", strerror(-pr.wakee_err));
	pthread_barrier_destroy(&pr.ready);
	close(pr.fds[0]);
	close(pr.fds[1]);
	return err;
}
