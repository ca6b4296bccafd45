// SPDX-License-Identifier: GPL-2.0
/*
 * sigwait - the waker sends SIGUSR1 to the wakee thread with tgkill(), the
 * wakee takes it synchronously with sigwaitinfo().
 *
 * SIGUSR1 is blocked in every thread (it is blocked in main before the wakee
 * thread is created, and threads inherit the mask), so it is never delivered
 * to a handler: tgkill(2) queues it as pending on the wakee thread and wakes
 * the thread if it sleeps in sigwaitinfo(2), which dequeues it and returns
 * the signal number. A signal sent before the wakee calls sigwaitinfo() stays
 * pending and the call returns at once. Standard signals do not queue, so a
 * second SIGUSR1 sent while one is pending would merge with it (signal(7));
 * the hand-shake in common.c never sends one before the last was taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"

struct sigwait_state {
	sigset_t set;		/* { SIGUSR1 } */
	pid_t pid;
};

static int sigwait_setup(struct wl_run *run, void *state)
{
	struct sigwait_state *sw = state;
	int err;

	/* blocked before the wakee exists, so no thread ever runs a handler for it */
	sigemptyset(&sw->set);
	sigaddset(&sw->set, SIGUSR1);
	err = pthread_sigmask(SIG_BLOCK, &sw->set, NULL);
	if (err)
		return wl_fail(run, "pthread_sigmask: %s", strerror(err));
	sw->pid = getpid();
	return 0;
}

static int sigwait_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct sigwait_state *sw = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	if (syscall(SYS_tgkill, sw->pid, run->pending.wakee_tid, SIGUSR1))
		return wl_fail(run, "tgkill: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int sigwait_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct sigwait_state *sw = state;
	uint64_t value, tsc;
	siginfo_t info;
	uint32_t cpu;
	int sig, err = 0;

	do {
		sig = sigwaitinfo(&sw->set, &info);
	} while (sig < 0 && errno == EINTR);
	tsc = tsc_read(&cpu);
	value = 1;
	if (sig != SIGUSR1) {
		err = sig < 0 ? -errno : -EINVAL;
		value = 0;
	}
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static struct sigwait_state sigwait_state;

static const struct wl_path sigwait_path = {
	.name = "sigwait",
	.summary = WP_SUMMARY_SIGWAIT,
	.state = &sigwait_state,
	.setup = sigwait_setup,
	.notify = sigwait_notify,
	.wait = sigwait_wait,
	.wait_error = "sigwaitinfo",
};

int main(int argc, char **argv)
{
	return wl_main(&sigwait_path, argc, argv);
}
