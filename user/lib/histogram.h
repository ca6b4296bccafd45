/* SPDX-License-Identifier: GPL-2.0 */
/* histogram.h - bounded-memory latency histogram with accurate percentiles */
#ifndef WAKEPROBE_HISTOGRAM_H
#define WAKEPROBE_HISTOGRAM_H

#include <stdint.h>
#include <stdio.h>

/*
 * Log-linear ("HDR"-style) bucketing of uint64_t nanosecond values.
 *
 * Values 0..127 each own an exact bucket. A value v >= 128 with
 * e = floor(log2 v) lands in bucket (e - 6) * 128 + ((v >> (e - 7)) - 128),
 * i.e. every power-of-two range [2^e, 2^(e+1)) is split into 128 equal
 * sub-buckets. A bucket's width is therefore at most 1/128 of its lower
 * bound, which is what bounds the percentile error below, and the whole
 * uint64_t range needs only HIST_BUCKETS counters (58 KiB), independent of
 * how many samples are added.
 */
#define HIST_SUB_BITS 7
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB_COUNT)

/*
 * No pointers and no allocation, so it can be embedded in other structs and
 * copied or zeroed wholesale. A zero-filled struct is a valid empty histogram
 * (emptiness is judged by count, not by min); histogram__init() additionally
 * sets min to UINT64_MAX so that field alone reads as "empty".
 */
struct histogram {
	uint64_t count;
	uint64_t sum;	/* saturates at UINT64_MAX instead of wrapping */
	uint64_t min;	/* UINT64_MAX while empty (after histogram__init) */
	uint64_t max;	/* 0 while empty */
	uint64_t buckets[HIST_BUCKETS];
};

void histogram__init(struct histogram *h);
void histogram__add(struct histogram *h, uint64_t value);

/*
 * histogram__clear - empty @h, as histogram__init() leaves it, writing only
 * the buckets from min's to max's: outside them a histogram filled by
 * histogram__add() and histogram__merge() has none. A histogram of a few
 * close samples is emptied in a few stores instead of 58 KiB.
 */
void histogram__clear(struct histogram *h);

/*
 * histogram__add_buckets - samples counted elsewhere in this bucketing: @n
 * counts of the first buckets, @count samples summing to @sum, the least
 * @min and the largest @max of them (the kernel's sums, bpf/sums.bpf.h)
 */
void histogram__add_buckets(struct histogram *h, const uint64_t *buckets, unsigned int n, uint64_t count,
			    uint64_t sum, uint64_t min, uint64_t max);

/* Adds every sample of @src to @dst; @dst == @src doubles every count. */
void histogram__merge(struct histogram *dst, const struct histogram *src);

/*
 * histogram__percentile - nearest-rank percentile, 0 if the histogram is empty.
 *
 * rank = ceil(pct / 100 * count), at least 1; pct is clamped into [0, 100]
 * and NaN counts as 0. The result is the midpoint ((low + high) / 2, rounded
 * down) of the bucket that holds the rank-th smallest sample, clamped into
 * [min, max]. The extreme ranks are known exactly and returned as such:
 * rank 1 (so p0) returns min and rank == count (so p100) returns max.
 *
 * Accuracy: for samples < 128 the result is exact. Otherwise it differs from
 * the true nearest-rank sample by at most half a bucket width, which is at
 * most 1/256 of that sample: a relative error below 0.4%.
 */
uint64_t histogram__percentile(const struct histogram *h, double pct);

/* Arithmetic mean, 0 if empty; a lower bound once sum has saturated. */
double histogram__mean(const struct histogram *h);

/* Exposed for tests. An index >= HIST_BUCKETS yields UINT64_MAX for both. */
unsigned int histogram__bucket_of(uint64_t value);
uint64_t histogram__bucket_low(unsigned int index);	/* smallest value in bucket */
uint64_t histogram__bucket_high(unsigned int index);	/* largest value in bucket */

/*
 * Power-of-two rows, the coarse view of the text report and the JSON one:
 * row 0 holds 0 and 1, row k >= 1 holds [2^k, 2^(k+1) - 1]. Every fine
 * bucket lies inside one row, so the rows count the samples exactly.
 */
#define HIST_LOG2_ROWS 64

/*
 * histogram__log2_rows - the samples of @h in each row. Returns the first
 * row that holds any, with the last in @last; -1 (and @last -1) when @h is
 * empty.
 */
int histogram__log2_rows(const struct histogram *h, uint64_t rows[HIST_LOG2_ROWS], int *last);
uint64_t histogram__log2_row_low(unsigned int row);	/* smallest value in row */
uint64_t histogram__log2_row_high(unsigned int row);	/* largest value in row */

/*
 * histogram__print_log2 - bcc-style (runqlat) power-of-two text histogram.
 *
 * Row k >= 1 covers [2^k, 2^(k+1) - 1], the first row is "0 -> 1". Empty rows
 * before the first and after the last populated row are omitted; empty rows
 * in between are kept. Stars are scaled to the largest row. Columns grow past
 * the bcc defaults only when the numbers need it, and every line stays within
 * 100 columns (the star bar shrinks below 40 and @unit is truncated if they
 * would not fit). An empty histogram prints the single line "     (no samples)".
 */
void histogram__print_log2(const struct histogram *h, FILE *out, const char *unit);

#endif /* WAKEPROBE_HISTOGRAM_H */
