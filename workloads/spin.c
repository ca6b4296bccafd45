// SPDX-License-Identifier: GPL-2.0
/*
 * spin - the waker stores the sequence number into a shared word, the wakee
 * busy-waits on it: no syscall, no scheduler, no kernel in the path.
 *
 * The release store is the whole notify; the wakee's acquire load sees it
 * once the cache line has moved from the waker's core to its own, so the
 * latency is the cost of that cache-coherence transfer plus the spin loop's
 * reaction time (the pause instruction slows each iteration to save power
 * and to leave the sibling hyperthread room; Intel SDM vol. 2B, PAUSE). The
 * word holds a counter rather than a flag, so a notify that comes before the
 * wakee starts spinning is already visible and nothing needs resetting. The
 * word sits alone on its cache line, away from the harness's own fields.
 *
 * This is the floor the blocking paths are compared with, and its price: the
 * wakee burns its CPU for the whole wait. It reports when it began to spin
 * (wl_woken_waited), so wakeprobe can report that CPU time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

struct spin_run {
	struct wl_run run;
	_Alignas(64) uint64_t flag;	/* last seq the waker posted */
	_Alignas(64) pthread_barrier_t ready;
	uint32_t wakee_tid;
	int wakee_err;
};

static void *wakee_main(void *arg)
{
	struct spin_run *sp = arg;
	struct wl_run *run = &sp->run;
	uint64_t seq, seen, wait_start, tsc;
	uint32_t cpu, c;

	sp->wakee_err = wl_pin_self(run->opt.wakee_cpu);
	sp->wakee_tid = gettid();
	pthread_barrier_wait(&sp->ready);
	if (sp->wakee_err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		wait_start = tsc_read(&c);
		while ((seen = __atomic_load_n(&sp->flag, __ATOMIC_ACQUIRE)) < seq)
			cpu_relax();
		tsc = tsc_read(&cpu);
		/* more than one posted since the last sample would be a coalesced wakeup */
		wl_woken_waited(run, seq, wait_start, tsc, cpu, seen - seq + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct spin_run sp;
	struct wl_run *run = &sp.run;
	pthread_t wakee;
	uint64_t seq, tsc;
	uint32_t cpu;
	int err;

	wl_init(run, "spin", WP_SUMMARY_SPIN, argc, argv);

	err = wl_pin_self(run->opt.waker_cpu);
	if (err)
		return wl_fail(run, "cannot pin the waker to CPU %d: %s", run->opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&sp.ready, NULL, 2);
	err = pthread_create(&wakee, NULL, wakee_main, &sp);
	if (err)
		return wl_fail(run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&sp.ready);
	if (sp.wakee_err)
		return wl_fail(run, "cannot pin the wakee to CPU %d: %s", run->opt.wakee_cpu,
			       strerror(-sp.wakee_err));

	wl_set_roles(run, gettid(), sp.wakee_tid);
	wl_start(run);
	for (seq = 1; seq <= run->opt.samples; seq++) {
		wl_before_notify(run, seq);
		tsc = tsc_read(&cpu);
		__atomic_store_n(&sp.flag, seq, __ATOMIC_RELEASE);
		wl_notified(run, seq, tsc, cpu);
	}
	err = wl_finish(run);
	pthread_join(wakee, NULL);
	pthread_barrier_destroy(&sp.ready);
	return err;
}
