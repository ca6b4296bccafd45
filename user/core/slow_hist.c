// SPDX-License-Identifier: GPL-2.0
/* slow_hist.c - nanoseconds in the flight recorder's quarter-power-of-two buckets (slow_hist.h) */
#include <math.h>
#include "slow_hist.h"

void slow_hist__add(struct slow_hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns = h->sum_ns + ns < h->sum_ns ? UINT64_MAX : h->sum_ns + ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->buckets[wp_slow_bucket(ns) & (WP_SLOW_BUCKETS - 1)]++;
}

void slow_hist__add_buckets(struct slow_hist *h, const uint64_t buckets[WP_SLOW_BUCKETS], uint64_t count,
			    uint64_t sum_ns, uint64_t max_ns)
{
	h->count += count;
	h->sum_ns = h->sum_ns + sum_ns < h->sum_ns ? UINT64_MAX : h->sum_ns + sum_ns;
	if (max_ns > h->max_ns)
		h->max_ns = max_ns;
	for (int i = 0; i < WP_SLOW_BUCKETS; i++)
		h->buckets[i] += buckets[i];
}

uint64_t slow_hist__percentile(const struct slow_hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (!(pct > 0))
		pct = 0;
	rank = (uint64_t)ceil(pct > 100 ? (double)h->count : pct / 100.0 * (double)h->count);
	if (!rank)
		rank = 1;
	for (uint32_t b = 0; b < WP_SLOW_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank)
			return wp_slow_bucket_floor(b);
	}
	return h->max_ns;
}

void slow_hist__log2_rows(const struct slow_hist *h, uint64_t rows[HIST_LOG2_ROWS])
{
	for (uint32_t k = 0; k < HIST_LOG2_ROWS; k++)
		rows[k] = 0;
	/* 0 to 3 are buckets of their own; from 8 on, bucket b lies in the power of two b / 4 */
	rows[0] = h->buckets[0] + h->buckets[1];
	rows[1] = h->buckets[2] + h->buckets[3];
	for (uint32_t b = 8; b < WP_SLOW_BUCKETS; b++)
		if ((b >> 2) < HIST_LOG2_ROWS)
			rows[b >> 2] += h->buckets[b];
}
