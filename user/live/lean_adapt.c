// SPDX-License-Identifier: GPL-2.0
/* lean_adapt.c - the lean engine's flight threshold: the running p99 of waking to switch-in */
#include "lean_adapt.h"

const char *lean_adapt__kind_name(enum wp_slow_kind k)
{
	static const char *const names[WP_SLOW_KINDS] = {
		[WP_SLOW_THREAD] = "thread",
		[WP_SLOW_IRQ] = "irq",
		[WP_SLOW_SOFTIRQ] = "softirq",
	};

	return k < WP_SLOW_KINDS ? names[k] : "?";
}

uint64_t lean_adapt__threshold(const uint64_t n[WP_SLOW_BUCKETS])
{
	uint64_t all = 0, below = 0;
	uint32_t b;

	for (b = 0; b < WP_SLOW_BUCKETS; b++)
		all += n[b];
	if (all < LEAN_ADAPT_MIN_WAKEUPS)
		return LEAN_ADAPT_NONE;
	/* the bucket where the count of those below it first reaches the share: the p99 is in it */
	for (b = 0; b < WP_SLOW_BUCKETS; b++) {
		below += n[b];
		if (below * 1000 >= all * LEAN_ADAPT_PERMILLE)
			break;
	}
	return wp_slow_bucket_floor(b < WP_SLOW_BUCKETS ? b : WP_SLOW_BUCKETS - 1);
}
