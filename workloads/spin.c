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
#include "common.h"

struct spin_state {
	_Alignas(64) uint64_t flag;	/* last seq the waker posted; alone on its line */
};

static int spin_notify(struct wl_run *run, void *state, uint64_t seq)
{
	struct spin_state *sp = state;
	uint64_t tsc;
	uint32_t cpu;

	tsc = tsc_read(&cpu);
	__atomic_store_n(&sp->flag, seq, __ATOMIC_RELEASE);
	wl_notified(run, seq, tsc, cpu);
	return 0;
}

static int spin_wait(struct wl_run *run, void *state, uint64_t seq)
{
	struct spin_state *sp = state;
	uint64_t seen, wait_start, tsc;
	uint32_t cpu, c;

	wait_start = tsc_read(&c);
	while ((seen = __atomic_load_n(&sp->flag, __ATOMIC_ACQUIRE)) < seq)
		cpu_relax();
	tsc = tsc_read(&cpu);
	/* more than one posted since the last sample would be a coalesced wakeup */
	wl_woken_waited(run, seq, wait_start, tsc, cpu, seen - seq + 1);
	return 0;
}

static struct spin_state spin_state;

static const struct wl_path spin_path = {
	.name = "spin",
	.summary = WP_SUMMARY_SPIN,
	.state = &spin_state,
	.notify = spin_notify,
	.wait = spin_wait,
};

int main(int argc, char **argv)
{
	return wl_main(&spin_path, argc, argv);
}
