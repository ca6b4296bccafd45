/* SPDX-License-Identifier: GPL-2.0 */
/* tsc_clock.h - online mapping of TSC values to CLOCK_MONOTONIC nanoseconds */
#ifndef WAKEPROBE_TSC_CLOCK_H
#define WAKEPROBE_TSC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct tsc_pair {
	uint64_t tsc;		/* midpoint of the two TSC reads bracketing the clock read */
	uint64_t mono_ns;	/* CLOCK_MONOTONIC in ns */
	uint32_t width;		/* TSC cycles between the two bracketing reads: the pair's uncertainty */
};

#define TSC_CLOCK_MAX_PAIRS 1024

/*
 * A pair wider than this many times the narrowest width seen so far is
 * "wide": tsc_clock__read_pair() retries to avoid returning one, and
 * tsc_clock__add_pair() still accepts it (unweighted) but counts it.
 */
#define TSC_CLOCK_WIDE_FACTOR 4

/*
 * The fit is  mono = mono_base + slope * (tsc - tsc_base) + offset_ns
 * with tsc_base/mono_base taken from the first kept pair, which decimation
 * never drops, so the base (and every relative value) is stable for the
 * whole run. Relative values stay below 2^64 and are exact in long double,
 * so nothing is lost before the arithmetic even starts.
 *
 * mean_x/mean_y/sxx/sxy are Welford-style running statistics of the
 * relative values (x = tsc - tsc_base, y = mono_ns - mono_base): updating
 * centred co-moments instead of raw sums avoids the n*sum(x^2) - sum(x)^2
 * cancellation, which on a 30 s span at 3 GHz (x ~ 1e11) would otherwise
 * eat most of the mantissa.
 */
struct tsc_clock {
	struct tsc_pair pairs[TSC_CLOCK_MAX_PAIRS];
	unsigned int nr_pairs;

	uint64_t tsc_base;
	uint64_t mono_base;
	long double slope;		/* ns per TSC cycle */
	long double offset_ns;

	long double mean_x;
	long double mean_y;
	long double sxx;
	long double sxy;

	uint32_t min_width;		/* narrowest pair width added; UINT32_MAX if none */
	unsigned long nr_wide_pairs;	/* pairs wider than TSC_CLOCK_WIDE_FACTOR * min_width when added */
	unsigned long nr_added;		/* every pair ever added, including decimated ones */
	unsigned int nr_decimations;

	double max_prediction_error_ns;	/* largest |actual - predicted| of a new pair under the fit that existed before it was added (pairs after the first two) */
};

int tsc_clock__read_pair(struct tsc_pair *pair);
void tsc_clock__init(struct tsc_clock *clk);
void tsc_clock__add_pair(struct tsc_clock *clk, const struct tsc_pair *pair);
bool tsc_clock__ready(const struct tsc_clock *clk);
uint64_t tsc_clock__to_mono_ns(const struct tsc_clock *clk, uint64_t tsc);
int64_t tsc_clock__cycles_to_ns(const struct tsc_clock *clk, int64_t cycles);
double tsc_clock__mhz(const struct tsc_clock *clk);
double tsc_clock__max_residual_ns(const struct tsc_clock *clk);
double tsc_clock__span_s(const struct tsc_clock *clk);
int tsc_clock__calibrate(struct tsc_clock *clk, unsigned int nr_pairs, unsigned int spacing_us);

#endif /* WAKEPROBE_TSC_CLOCK_H */
