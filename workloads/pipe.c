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
#include <string.h>
#include <unistd.h>
#include "common.h"

struct pipe_state {
	int fds[2];		/* [0] read end (wakee), [1] write end (waker) */
};

/* in .rodata: the notify stores nothing between its stamp and write() */
static const char byte = 1;

static int pipe_setup(struct wl_run *run, void *state)
{
	struct pipe_state *pr = state;

	if (pipe2(pr->fds, O_CLOEXEC))
		return wl_fail(run, "pipe2: %s", strerror(errno));
	run->notify_fd = pr->fds[1];
	run->wait_fd = pr->fds[0];
	return 0;
}

static int pipe_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct pipe_state *pr = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	if (write(pr->fds[1], &byte, 1) != 1)
		return wl_fail(run, "write to pipe: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int pipe_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct pipe_state *pr = state;
	uint64_t tsc;
	uint32_t cpu;
	ssize_t n;
	char got;
	int err = 0;

	do {
		n = read(pr->fds[0], &got, 1);
	} while (n < 0 && errno == EINTR);
	tsc = tsc_read(&cpu);
	if (n != 1) {
		err = n < 0 ? -errno : -EPIPE;
		n = 0;
	}
	wl_woken(run, seq, tsc, cpu, (uint64_t)n);
	return err;
}

static void pipe_teardown(void *state)
{
	struct pipe_state *pr = state;

	close(pr->fds[0]);
	close(pr->fds[1]);
}

static struct pipe_state pipe_state = { .fds = { -1, -1 } };

static const struct wl_path pipe_path = {
	.name = "pipe",
	.summary = WP_SUMMARY_PIPE,
	.state = &pipe_state,
	.setup = pipe_setup,
	.notify = pipe_notify,
	.wait = pipe_wait,
	.wait_error = "read from pipe",
	.teardown = pipe_teardown,
};

int main(int argc, char **argv)
{
	return wl_main(&pipe_path, argc, argv);
}
