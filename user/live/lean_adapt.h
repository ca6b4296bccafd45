/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lean_adapt.h - the lean engine's flight threshold when --threshold-us is not
 * given: the running p99 of its wakeups' waking to switch-in, from the
 * buckets the BPF side counts them in on every CPU (wp_slow_bucket() in
 * bpf/wakeprobe.h). A wakeup over it brings its CPU's flight records, and
 * so is explained: about the slowest 1% of them, whatever their scale.
 */
#ifndef WAKEPROBE_LEAN_ADAPT_H
#define WAKEPROBE_LEAN_ADAPT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

/* wakeups of a kind counted before its threshold follows them: until then none of them is over it */
#define LEAN_ADAPT_MIN_WAKEUPS	200
/* the share of wakeups under the threshold, per mille */
#define LEAN_ADAPT_PERMILLE	990
/* how often a live run moves it */
#define LEAN_ADAPT_EVERY_NS	(100ull * 1000 * 1000)
/* no p99 yet: fewer than LEAN_ADAPT_MIN_WAKEUPS were counted */
#define LEAN_ADAPT_NONE		UINT64_MAX
/*
 * the threshold until then: a wakeup over a quarter of a millisecond is
 * slow on any machine, and the first moments of a run (a server's first
 * clients) are where its slowest often are
 */
#define LEAN_ADAPT_FIRST_NS	(250ull * 1000)
/* ... for at most this many wakeups of the kind: a run of hundreds of runnable tasks has most over it */
#define LEAN_ADAPT_FIRST_MAX	64
/*
 * Over the running p99, at most this share of a tick's wakeups, per mille
 * (LEAN_ADAPT_FIRST_MAX at least): the p99 of every wakeup so far lags a
 * run whose wakeups grow slower, which would have all of them explained
 */
#define LEAN_ADAPT_SHARE_PERMILLE	20

/* lean_adapt__in_force - the threshold the BPF side holds while the p99 of a kind is @p99 */
static inline uint64_t lean_adapt__in_force(uint64_t p99)
{
	return p99 == LEAN_ADAPT_NONE ? LEAN_ADAPT_FIRST_NS : p99;
}

/*
 * lean_adapt__threshold - the least value of the bucket that holds the
 * p99 of the wakeups counted in @n (one count per bucket, every CPU's
 * summed), those of one kind of waker: each wakeup in that bucket or a
 * slower one is over it; LEAN_ADAPT_NONE with fewer than
 * LEAN_ADAPT_MIN_WAKEUPS (LEAN_ADAPT_FIRST_NS is in force then)
 */
uint64_t lean_adapt__threshold(const uint64_t n[WP_SLOW_BUCKETS]);

/*
 * lean_adapt__recorder_on - did the flight recorder run, by the thresholds
 * a lean run ended with (@flight_ns[WP_SLOW_KINDS]; NULL or 0: it did not)?
 */
static inline bool lean_adapt__recorder_on(const uint64_t *flight_ns)
{
	return flight_ns && flight_ns[WP_SLOW_THREAD];
}

/*
 * lean_adapt__budget - how many wakeups of a kind may bring their flight
 * records in the next tick, @counted of the kind in the last one
 */
static inline uint64_t lean_adapt__budget(uint64_t counted)
{
	uint64_t share = counted * LEAN_ADAPT_SHARE_PERMILLE / 1000;

	return share > LEAN_ADAPT_FIRST_MAX ? share : LEAN_ADAPT_FIRST_MAX;
}

/* lean_adapt__kind_name - "thread", "irq", "softirq": enum wp_slow_kind as the JSON keys it */
const char *lean_adapt__kind_name(enum wp_slow_kind k);

#endif /* WAKEPROBE_LEAN_ADAPT_H */
