/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host_steal.h - what a run says of the host's steal, as a whole: whether
 * the steal clock was read (steal_clock.h) or why not, what its records
 * added up to on the CPUs the run used, and what the kernel's own
 * accounting (/proc/stat's steal column, in ticks) moved by on the same
 * CPUs over the run, to check the first against.
 *
 * The two are the same clock, read differently: the kernel folds the
 * paravirtual steal clock into /proc/stat at its ticks, and prints it in
 * whole ticks. A delta of n ticks says the kernel accounted between n - 1
 * and n + 1 ticks' worth; the steal wakeprobe gives to wakeups can never be
 * more than the upper end.
 */
#ifndef WAKEPROBE_HOST_STEAL_H
#define WAKEPROBE_HOST_STEAL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

#define HOST_STEAL_WHY_LEN	128
#define HOST_STEAL_ALL_CPUS	(-1)

struct host_steal {
	bool measured;			/* the BPF side read the steal clock */
	char why_off[HOST_STEAL_WHY_LEN];	/* ... or why it could not */
	/* the CPUs the run used: two for a paced path, every one for attach mode */
	int cpus[2];			/* HOST_STEAL_ALL_CPUS in cpus[0]: all of them */
	uint32_t clk_tck;		/* /proc/stat's unit, USER_HZ; 0: it could not be read */
	uint64_t proc_ticks;		/* its steal on those CPUs over the run */
	uint64_t proc_start_ticks;	/* ... at the start, while the run goes on */
	uint32_t nr_cpus;		/* how many CPUs /proc/stat's figure sums */
	uint64_t seen_ns;		/* the WP_EV_STEAL records of those CPUs, summed */
};

/* host_steal__init - nothing measured yet, on the CPUs @cpu_a and @cpu_b (or HOST_STEAL_ALL_CPUS) */
void host_steal__init(struct host_steal *h, int cpu_a, int cpu_b);

struct steal_layout;
/*
 * host_steal__start - tracing begins, with the steal clock as @layout found
 * it: whether it is read, and /proc/stat's steal now
 */
void host_steal__start(struct host_steal *h, const struct steal_layout *layout);
/*
 * host_steal__stop - tracing ended: /proc/stat's steal over the run; the
 * BPF side's count of CPUs whose steal clock failed its check (not read there)
 */
void host_steal__stop(struct host_steal *h, uint64_t bad_cpus);

/*
 * host_steal__read_proc - /proc/stat's steal, in ticks, summed over @h's
 * CPUs, into @ticks, and how many CPUs that is; 0, or a negative errno
 */
int host_steal__read_proc(const struct host_steal *h, uint64_t *ticks, uint32_t *nr_cpus);

/* host_steal__add_event - a kernel record of the run: its steal, if it is one of @h's CPUs */
void host_steal__add_event(struct host_steal *h, const struct wp_event *e);

/*
 * host_steal__proc_bound_ns - the most steal /proc/stat allows on those CPUs
 * over the run, 0 if unknown: its delta, plus a tick per CPU for printing
 * whole ticks at both ends and a tick per CPU for steal the kernel had not
 * folded in yet at the end (it does at each tick, and when a CPU leaves idle)
 */
uint64_t host_steal__proc_bound_ns(const struct host_steal *h);

/* host_steal__cpus - "CPUs 0 and 1", "CPU 0", "all CPUs" */
void host_steal__cpus(const struct host_steal *h, char *buf, size_t len);

#endif /* WAKEPROBE_HOST_STEAL_H */
