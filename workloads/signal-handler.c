// SPDX-License-Identifier: GPL-2.0
/*
 * signal-handler - the waker sends SIGUSR1 to the wakee thread with tgkill(),
 * the wakee sleeps in sigsuspend() and the signal runs its handler.
 *
 * SIGUSR1 stays blocked in the wakee except inside sigsuspend(2), which
 * swaps in a mask without it and sleeps. tgkill(2) makes the signal pending
 * on the wakee and wakes it; on the way back to user space the kernel builds
 * a signal frame and enters the handler, and only after the handler's
 * sigreturn does sigsuspend() return -1/EINTR (signal(7)). A signal sent
 * before the wakee reaches sigsuspend() stays pending while blocked, and
 * sigsuspend() delivers it at once: no wakeup is lost, which a plain pause()
 * with the signal unblocked could not promise.
 *
 * The wakeup is the handler: its first statement reads the TSC, and the
 * wakee reports that timestamp, not one taken after sigsuspend() returned.
 * The handler touches only the TSC and atomic variables, which keeps it
 * async-signal-safe (signal-safety(7)). Standard signals do not queue; the
 * hand-shake in common.c never sends a second SIGUSR1 before the first ran.
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

struct sighandler_run {
	struct wl_run run;
	sigset_t set;		/* { SIGUSR1 } */
	pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

/* written by the handler in the wakee thread, read by the same thread */
static struct {
	uint64_t tsc;
	uint32_t cpu;
	uint64_t count;		/* handler runs so far */
} handled;

static void on_sigusr1(int sig)
{
	uint32_t cpu;
	uint64_t tsc = tsc_read(&cpu);

	(void)sig;
	__atomic_store_n(&handled.tsc, tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&handled.cpu, cpu, __ATOMIC_RELAXED);
	__atomic_store_n(&handled.count, __atomic_load_n(&handled.count, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELEASE);
}

static void *wakee_main(void *arg)
{
	struct sighandler_run *sh = arg;
	struct wl_run *run = &sh->run;
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	uint64_t seq, value, tsc;
	sigset_t waitmask;
	uint32_t cpu;

	sh->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	if (!sh->wakee_err) {
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL))
			sh->wakee_err = -errno;
	}
	/* SIGUSR1 is blocked here (inherited from main); sigsuspend() lifts it */
	if (!sh->wakee_err) {
		sh->wakee_err = -pthread_sigmask(SIG_BLOCK, NULL, &waitmask);
		sigdelset(&waitmask, SIGUSR1);
	}
	sh->wakee_tid = gettid();
	pthread_barrier_wait(&sh->ready);
	if (sh->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		value = 1;
		while (__atomic_load_n(&handled.count, __ATOMIC_ACQUIRE) < seq) {
			/* always -1; EINTR once a handler ran */
			sigsuspend(&waitmask);
			if (errno != EINTR) {
				sh->wakee_err = -errno;
				value = 0;
				break;
			}
		}
		tsc = __atomic_load_n(&handled.tsc, __ATOMIC_RELAXED);
		cpu = __atomic_load_n(&handled.cpu, __ATOMIC_RELAXED);
		wl_woken(run, seq, tsc, cpu, value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct sighandler_run sh;
	struct wl_run *run = &sh.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	pid_t pid;
	int err;

	wl_init(run, "signal-handler", WP_SUMMARY_SIGNAL_HANDLER, argc, argv);

	/* blocked before the wakee exists: it only ever arrives inside sigsuspend() */
	sigemptyset(&sh.set);
	sigaddset(&sh.set, SIGUSR1);
	err = pthread_sigmask(SIG_BLOCK, &sh.set, NULL);
	if (err)
		return wl_fail(run, "pthread_sigmask: %s", strerror(err));
	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&sh.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &sh);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&sh.ready);
	if (sh.wakee_err)
		return wl_fail(run, "cannot set up the wakee on CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-sh.wakee_err));

	pid = getpid();
	wl_set_roles(run, gettid(), sh.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (syscall(SYS_tgkill, pid, sh.wakee_tid, SIGUSR1))
			return wl_fail(run, "tgkill: %s", strerror(errno));
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	if (sh.wakee_err)
		return wl_fail(run, "sigsuspend: %s", strerror(-sh.wakee_err));
	pthread_barrier_destroy(&sh.ready);
	return err;
}
