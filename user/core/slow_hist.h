/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slow_hist.h - a small histogram of nanoseconds in the flight recorder's
 * buckets (wp_slow_bucket(), bpf/wakeprobe.h): four a power of two, 2 KiB,
 * for what is kept by the hundred, a cgroup's wake-to-run say, where a
 * struct histogram's 58 KiB would not do. A percentile is the floor of the
 * bucket it falls in, within 25% below the value; the buckets nest in the
 * powers of two, so the log2 rows a Prometheus histogram is made of
 * (prom.h) are their sums, exact.
 */
#ifndef WAKEPROBE_SLOW_HIST_H
#define WAKEPROBE_SLOW_HIST_H

#include <stdint.h>
#include <linux/types.h>
#include "histogram.h"
#include "wakeprobe.h"

struct slow_hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t buckets[WP_SLOW_BUCKETS];
};

void slow_hist__add(struct slow_hist *h, uint64_t ns);
/* slow_hist__add_buckets - @count wakeups summing to @sum_ns in these buckets, the largest of the run @max_ns */
void slow_hist__add_buckets(struct slow_hist *h, const uint64_t buckets[WP_SLOW_BUCKETS], uint64_t count,
			    uint64_t sum_ns, uint64_t max_ns);
/* slow_hist__percentile - @pct of @h: the floor of the bucket it falls in; 0 when empty */
uint64_t slow_hist__percentile(const struct slow_hist *h, double pct);
/* slow_hist__log2_rows - @h in histogram__log2_rows()'s rows: row k >= 1 holds 2^k .. 2^(k+1) - 1, row 0 0 and 1 */
void slow_hist__log2_rows(const struct slow_hist *h, uint64_t rows[HIST_LOG2_ROWS]);

#endif /* WAKEPROBE_SLOW_HIST_H */
