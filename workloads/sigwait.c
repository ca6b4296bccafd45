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
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"

struct sigwait_run {
	struct wl_run run;
	sigset_t set;		/* { SIGUSR1 } */
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct sigwait_run *sw = arg;
	struct wl_run *run = &sw->run;
	uint64_t seq, value, tsc;
	siginfo_t info;
	uint32_t cpu;
	int sig;

	sw->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	sw->wakee_tid = gettid();
	pthread_barrier_wait(&sw->ready);
	if (sw->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		do {
			sig = sigwaitinfo(&sw->set, &info);
		} while (sig < 0 && errno == EINTR);
		tsc = tsc_read(&cpu);
		value = 1;
		if (sig != SIGUSR1) {
			sw->wakee_err = sig < 0 ? -errno : -EINVAL;
			value = 0;
		}
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct sigwait_run sw;
	struct wl_run *run = &sw.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	pid_t pid;
	int err;

	wl_init(run, "sigwait", WP_SUMMARY_SIGWAIT, argc, argv);

	/* blocked before the wakee exists, so no thread ever runs a handler for it */
	sigemptyset(&sw.set);
	sigaddset(&sw.set, SIGUSR1);
	err = pthread_sigmask(SIG_BLOCK, &sw.set, NULL);
	if (err)
		return wl_fail(run, "pthread_sigmask: %s", strerror(err));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&sw.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &sw);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&sw.ready);
	if (sw.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-sw.wakee_err));

	pid = getpid();
	wl_set_roles(run, gettid(), sw.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (syscall(SYS_tgkill, pid, sw.wakee_tid, SIGUSR1))
			return wl_fail(run, "tgkill: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (sw.wakee_err)
		return wl_fail(run, "sigwaitinfo: %s", strerror(-sw.wakee_err));
	pthread_barrier_destroy(&sw.ready);
	return err;
}
