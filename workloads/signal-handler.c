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
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "common.h"

struct handler_state {
	sigset_t set;		/* { SIGUSR1 } */
	sigset_t waitmask;	/* the wakee's mask without SIGUSR1, for sigsuspend() */
	pid_t pid;
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

static int handler_setup(struct wl_run *run, void *state)
{
	struct handler_state *sh = state;
	int err;

	/* blocked before the wakee exists: it only ever arrives inside sigsuspend() */
	sigemptyset(&sh->set);
	sigaddset(&sh->set, SIGUSR1);
	err = pthread_sigmask(SIG_BLOCK, &sh->set, NULL);
	if (err)
		return wl_fail(run, "pthread_sigmask: %s", strerror(err));
	sh->pid = getpid();
	return 0;
}

static int handler_wakee_setup(struct wl_run *run, void *state)
{
	struct handler_state *sh = state;
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	int err;

	(void)run;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return -errno;
	/* SIGUSR1 is blocked here (inherited from main); sigsuspend() lifts it */
	err = -pthread_sigmask(SIG_BLOCK, NULL, &sh->waitmask);
	sigdelset(&sh->waitmask, SIGUSR1);
	return err;
}

static int handler_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct handler_state *sh = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	if (syscall(SYS_tgkill, sh->pid, run->pending.wakee_tid, SIGUSR1))
		return wl_fail(run, "tgkill: %s", strerror(errno));
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int handler_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct handler_state *sh = state;
	uint64_t value = 1, tsc;
	uint32_t cpu;
	int err = 0;

	while (__atomic_load_n(&handled.count, __ATOMIC_ACQUIRE) < seq) {
		/* always -1; EINTR once a handler ran */
		sigsuspend(&sh->waitmask);
		if (errno != EINTR) {
			err = -errno;
			value = 0;
			break;
		}
	}
	tsc = __atomic_load_n(&handled.tsc, __ATOMIC_RELAXED);
	cpu = __atomic_load_n(&handled.cpu, __ATOMIC_RELAXED);
	wl_woken(run, seq, tsc, cpu, value);
	return err;
}

static struct handler_state handler_state;

static const struct wl_path handler_path = {
	.name = "signal-handler",
	.summary = WP_SUMMARY_SIGNAL_HANDLER,
	.state = &handler_state,
	.setup = handler_setup,
	.wakee_setup = handler_wakee_setup,
	.notify = handler_notify,
	.wait = handler_wait,
	.wait_error = "sigsuspend",
};

int main(int argc, char **argv)
{
	return wl_main(&handler_path, argc, argv);
}
