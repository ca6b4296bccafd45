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
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "common.h"

struct eventfd_state {
	int efd;
};

/* in .rodata: the notify stores nothing between its stamp and write() */
static const uint64_t one = 1;

static int eventfd_setup(struct wl_run *run, void *state)
{
	struct eventfd_state *ev = state;

	ev->efd = eventfd(0, EFD_CLOEXEC);
	if (ev->efd < 0)
		return wl_fail(run, "eventfd: %s", strerror(errno));
	run->notify_fd = ev->efd;
	run->wait_fd = ev->efd;
	return 0;
}

static int eventfd_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct eventfd_state *ev = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	if (write(ev->efd, &one, sizeof(one)) != sizeof(one))
		return wl_fail(run, "write to eventfd: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int eventfd_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct eventfd_state *ev = state;
	uint64_t value, tsc;
	uint32_t cpu;
	ssize_t n;
	int err = 0;

	do {
		n = read(ev->efd, &value, sizeof(value));
	} while (n < 0 && errno == EINTR);
	tsc = tsc_read(&cpu);
	if (n != sizeof(value)) {
		err = n < 0 ? -errno : -EIO;
		value = 0;
	}
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static void eventfd_teardown(void *state)
{
	struct eventfd_state *ev = state;

	close(ev->efd);
}

static struct eventfd_state eventfd_state = { .efd = -1 };

static const struct wl_path eventfd_path = {
	.name = "eventfd",
	.summary = WP_SUMMARY_EVENTFD,
	.state = &eventfd_state,
	.setup = eventfd_setup,
	.notify = eventfd_notify,
	.wait = eventfd_wait,
	.wait_error = "read from eventfd",
	.teardown = eventfd_teardown,
};

int main(int argc, char **argv)
{
	return wl_main(&eventfd_path, argc, argv);
}
