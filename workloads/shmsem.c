// SPDX-License-Identifier: GPL-2.0
/*
 * shmsem - two processes share an anonymous mapping that holds a POSIX
 * semaphore; the waker (the parent) sem_post()s it, the wakee (a child made
 * with fork()) blocks in sem_wait().
 *
 * This is the classic mmap + semaphore IPC pattern. A MAP_SHARED |
 * MAP_ANONYMOUS mapping made before fork() is the same memory in both
 * processes afterwards (mmap(2), fork(2)), so a semaphore initialised in it
 * with pshared 1 works across them (sem_init(3)). glibc then sleeps the
 * waiter with a shared (not private) FUTEX_WAIT, keyed on the physical page
 * rather than on the address space, and sem_post() makes the FUTEX_WAKE only
 * when a waiter is registered, so the notify path varies with the race.
 *
 * The harness's own state (struct wl_run) lives in the same mapping, so the
 * child's half of each sample (wl_woken) lands where the parent publishes it
 * from; the sample ring that wl_init() maps from wakeprobe's memfd is
 * MAP_SHARED too and survives fork() the same way.
 *
 * No child is ever left behind: the child asks for SIGKILL when its parent
 * dies (prctl(2), PR_SET_PDEATHSIG) and exits if the parent died before it
 * asked; the parent watches for the child's death while it waits for it, and
 * kills and reaps it on every failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common.h"

#define READY_TIMEOUT_NS	(10ull * 1000 * 1000 * 1000)
#define ALIVE_CHECK_SPINS	(1u << 14)

enum child_state {
	CHILD_STARTING = 0,
	CHILD_READY,		/* child_tid is valid, the child is waiting */
	CHILD_FAILED,		/* child_error says why; the child exits 1 */
};

/* everything both processes see, in one MAP_SHARED mapping */
struct shmsem_shared {
	struct wl_run run;
	sem_t sem;
	_Alignas(64) int32_t state;	/* enum child_state, written by the child */
	uint32_t child_tid;
	char child_error[96];
};

/* the parent's view of its child */
struct child {
	pid_t pid;
	bool reaped;
	bool lost;		/* reaped by someone else: status unknown */
	int status;
};

static void __attribute__((noreturn, format(printf, 2, 3)))
child_fail(struct shmsem_shared *sh, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->child_error, sizeof(sh->child_error), fmt, ap);
	va_end(ap);
	__atomic_store_n(&sh->state, CHILD_FAILED, __ATOMIC_RELEASE);
	_exit(1);
}

static void __attribute__((noreturn)) wakee_main(struct shmsem_shared *sh, pid_t parent)
{
	struct wl_run *run = &sh->run;
	uint64_t seq, tsc;
	uint32_t cpu;
	int ret;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		child_fail(sh, "prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
	/* the parent died before we asked: nobody would ever wake or reap us */
	if (getppid() != parent)
		_exit(1);
	ret = wl_pin_self(run->opt.wakee_cpu);
	if (ret)
		child_fail(sh, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu, strerror(-ret));
	sh->child_tid = gettid();
	__atomic_store_n(&sh->state, CHILD_READY, __ATOMIC_RELEASE);

	for (seq = 1; seq <= run->opt.samples; seq++) {
		do {
			ret = sem_wait(&sh->sem);
		} while (ret < 0 && errno == EINTR);
		tsc = tsc_read(&cpu);
		if (ret < 0)
			child_fail(sh, "sem_wait: %s", strerror(errno));
		wl_woken(run, seq, tsc, cpu, 1);
	}
	_exit(0);
}

/* child_exited - reap the child if it has exited; never blocks */
static bool child_exited(struct child *c)
{
	pid_t r;

	if (c->reaped)
		return true;
	do {
		r = waitpid(c->pid, &c->status, WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return false;
	/* r < 0 (ECHILD) means it is not ours to wait for any more: never signal it again */
	c->reaped = true;
	c->lost = r < 0;
	return true;
}

static void child_reap(struct child *c)
{
	pid_t r;

	if (c->reaped)
		return;
	do {
		r = waitpid(c->pid, &c->status, 0);
	} while (r < 0 && errno == EINTR);
	c->reaped = true;
	c->lost = r < 0;
}

static void child_kill(struct child *c)
{
	if (c->reaped)
		return;
	kill(c->pid, SIGKILL);
	child_reap(c);
}

/* child_failure - report why the child stopped, after it was reaped */
static int child_failure(struct shmsem_shared *sh, const struct child *c)
{
	struct wl_run *run = &sh->run;

	if (__atomic_load_n(&sh->state, __ATOMIC_ACQUIRE) == CHILD_FAILED)
		return wl_fail(run, "wakee process: %s", sh->child_error);
	if (c->lost)
		return wl_fail(run, "the wakee process is gone, its exit status unknown");
	if (WIFSIGNALED(c->status))
		return wl_fail(run, "the wakee process was killed by signal %d", WTERMSIG(c->status));
	if (WIFEXITED(c->status))
		return wl_fail(run, "the wakee process exited with status %d", WEXITSTATUS(c->status));
	return wl_fail(run, "the wakee process stopped, status %#x", c->status);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* wait_ready - wait for the child to publish its tid, or to fail, or to die */
static int wait_ready(struct shmsem_shared *sh, struct child *c)
{
	const struct timespec pause = { .tv_nsec = 50000 };
	uint64_t deadline = now_ns() + READY_TIMEOUT_NS;
	int32_t state;

	for (;;) {
		state = __atomic_load_n(&sh->state, __ATOMIC_ACQUIRE);
		if (state == CHILD_READY)
			return 0;
		if (state == CHILD_FAILED || child_exited(c)) {
			child_reap(c);
			return child_failure(sh, c);
		}
		if (now_ns() > deadline) {
			child_kill(c);
			return wl_fail(&sh->run, "the wakee process did not start within %llu s",
				       READY_TIMEOUT_NS / 1000000000ull);
		}
		nanosleep(&pause, NULL);
	}
}

/*
 * wait_acked - what wl_before_notify() does first, but watching the child: a
 * wakee that dies would otherwise leave the waker spinning forever. Runs
 * before the measured window; the waitpid() only every few thousand spins.
 */
static int wait_acked(struct shmsem_shared *sh, struct child *c, uint64_t seq)
{
	unsigned int spins = 0;

	while (__atomic_load_n(&sh->run.acked, __ATOMIC_ACQUIRE) < seq) {
		cpu_relax();
		if (++spins % ALIVE_CHECK_SPINS)
			continue;
		/* it may have acked just before it exited */
		if (child_exited(c) && __atomic_load_n(&sh->run.acked, __ATOMIC_ACQUIRE) < seq)
			return child_failure(sh, c);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct shmsem_shared *sh;
	struct child child = { 0 };
	struct wl_run *run;
	uint64_t seq, tsc;
	pid_t parent;
	uint32_t cpu;
	int err;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		fprintf(stderr, "shmsem: mmap: %s\n", strerror(errno));
		return 1;
	}
	run = &sh->run;
	wl_init(run, "shmsem", WP_SUMMARY_SHMSEM, argc, argv);

	if (sem_init(&sh->sem, 1, 0))
		return wl_fail(run, "sem_init: %s", strerror(errno));

	/* an inherited SIG_IGN would have the kernel reap the child and hide its status */
	signal(SIGCHLD, SIG_DFL);
	fflush(NULL);
	parent = getpid();
	child.pid = fork();
	if (child.pid < 0)
		return wl_fail(run, "fork: %s", strerror(errno));
	if (child.pid == 0)
		wakee_main(sh, parent);

	/* from here on, every way out kills and reaps the child first */
	err = wl_pin_self(run->opt.waker_cpu);
	if (err) {
		child_kill(&child);
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	}
	if (wait_ready(sh, &child))
		return 1;

	wl_set_roles(run, gettid(), sh->child_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		if (seq > 1 && wait_acked(sh, &child, seq - 1))
			return 1;
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		if (sem_post(&sh->sem)) {
			err = errno;
			child_kill(&child);
			return wl_fail(run, "sem_post: %s", strerror(err));
		}
		wl_notified(run, seq, tsc, cpu);
	}
	if (wait_acked(sh, &child, run->opt.samples))
		return 1;
	err = wl_finish(run);
	child_reap(&child);
	if (child.lost || !WIFEXITED(child.status) || WEXITSTATUS(child.status) != 0)
		return child_failure(sh, &child);
	sem_destroy(&sh->sem);
	munmap(sh, sizeof(*sh));
	return err;
}
