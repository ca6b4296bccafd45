// SPDX-License-Identifier: GPL-2.0
/*
 * thread-start - the waker pthread_create()s a thread, and the wakee is that
 * thread: its first instruction ends the wait.
 *
 * A thread's start is a wakeup of its own. pthread_create() takes a stack
 * (from glibc's cache once the first thread is joined) and calls clone3();
 * copy_process() makes the task and wake_up_new_task() picks its CPU and
 * queues it in the same step, which the kernel reports as sched_wakeup_new
 * (there is no sched_waking). The new task starts in ret_from_fork, leaves
 * the kernel through the exit of clone3() (the child's own, returning 0),
 * and glibc's start_thread() sets up rseq, the robust list and the signal
 * mask before it calls the start routine, which reads the TSC first.
 *
 * Placement: a thread inherits its creator's CPU mask, and glibc can only
 * give it another one by holding it on a lock after clone() until the
 * creator has called sched_setaffinity() on it, a second wakeup inside the
 * first. So the waker widens its own mask to both CPUs just before its
 * stamp and narrows it back after pthread_create() returns: the waker stays
 * where it is, and the kernel's fork balancing places the new thread as it
 * would an unpinned program's. That is mostly on the creator's own CPU,
 * where the thread waits until its creator blocks (on the 2-vCPU test VM,
 * 98% of new threads, pinned creator or not). Each thread records where
 * it ran. Joining it happens outside the measured window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

struct start {
	struct wl_run *run;
	uint64_t seq;
};

static void *first_run(void *arg)
{
	const struct start *st = arg;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	/* a new thread each time: the tracer finds its events by this tid */
	st->run->pending.wakee_tid = (uint32_t)gettid();
	wl_woken(st->run, st->seq, tsc, cpu, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct wl_run run;
	cpu_set_t waker_only, both;
	struct start st = { .run = &run };
	pthread_t thread;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(&run, "thread-start", WP_SUMMARY_THREAD_START, argc, argv);
	err = wl_pin_self(run.opt.waker_cpu);
	if (err)
		return wl_fail(&run, "cannot pin the waker to CPU %d: %s", run.opt.waker_cpu, strerror(-err));
	CPU_ZERO(&waker_only);
	CPU_SET(run.opt.waker_cpu, &waker_only);
	both = waker_only;
	CPU_SET(run.opt.wakee_cpu, &both);

	wl_set_roles(&run, gettid(), 0);
	wl_start(&run);
	for (seq = 1; seq <= run.opt.samples; seq++) {
		wl_before_notify(&run, seq);
		st.seq = seq;
		if (sched_setaffinity(0, sizeof(both), &both))
			return wl_fail(&run, "cannot allow CPUs %d and %d: %s", run.opt.waker_cpu,
				       run.opt.wakee_cpu, strerror(errno));
		tsc = tsc_read(&cpu);
		err = pthread_create(&thread, NULL, first_run, &st);
		wl_notified(&run, seq, tsc, cpu);
		if (err)
			return wl_fail(&run, "pthread_create: %s", strerror(err));
		if (sched_setaffinity(0, sizeof(waker_only), &waker_only))
			return wl_fail(&run, "cannot pin the waker to CPU %d: %s", run.opt.waker_cpu,
				       strerror(errno));
		err = pthread_join(thread, NULL);
		if (err)
			return wl_fail(&run, "pthread_join: %s", strerror(err));
	}
	return wl_finish(&run);
}
