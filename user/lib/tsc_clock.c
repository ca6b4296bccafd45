/* SPDX-License-Identifier: GPL-2.0 */
/* tsc_clock.c - least-squares TSC -> CLOCK_MONOTONIC mapping, refined while the run goes on */
#include <errno.h>
#include <math.h>
#include <time.h>

#include "tsc.h"
#include "tsc_clock.h"

#define TSC_CLOCK_READ_TRIES	7
/*
 * Extra rounds of TSC_CLOCK_READ_TRIES a read may spend trying to beat a wide
 * best-of-7. Bounded so that a host that got slower for good (live migration,
 * vDSO fallback to a syscall) costs at most a few microseconds per pair
 * instead of spinning.
 */
#define TSC_CLOCK_READ_ROUNDS	4

/* Keeps llroundl() and the int64_t results in range; far beyond ±1 hour. */
#define TSC_CLOCK_NS_LIMIT	9.0e18L

/*
 * Narrowest bracket any tsc_clock__read_pair() call achieved, process-wide:
 * the read cost is a property of the machine, not of a struct tsc_clock, and
 * read_pair has no clock to remember it in. Relaxed atomics suffice because a
 * stale value only costs or saves one retry round.
 */
static uint32_t tsc_clock__narrowest_width = UINT32_MAX;

static void tsc_clock__note_width(uint32_t width)
{
	uint32_t cur = __atomic_load_n(&tsc_clock__narrowest_width, __ATOMIC_RELAXED);

	while (width < cur &&
	       !__atomic_compare_exchange_n(&tsc_clock__narrowest_width, &cur, width, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static bool tsc_clock__is_wide(uint64_t width, uint32_t narrowest)
{
	if (narrowest == UINT32_MAX)
		return false;
	return width > (uint64_t)TSC_CLOCK_WIDE_FACTOR * narrowest;
}

/*
 * tsc_clock__read_pair - sample CLOCK_MONOTONIC together with the TSC
 *
 * The clock read is bracketed by two tsc_read()s; the narrowest bracket of
 * TSC_CLOCK_READ_TRIES is kept because an interrupt or a vCPU preemption
 * inside the bracket only ever widens it. If even the best of 7 is more than
 * TSC_CLOCK_WIDE_FACTOR times wider than the narrowest bracket seen so far
 * (by any call in this process), up to TSC_CLOCK_READ_ROUNDS - 1 more rounds
 * are tried; after that the best pair is returned anyway, so a wide pair is
 * accepted rather than the caller getting nothing.
 *
 * A try whose two reads ran on different CPUs is discarded: the bracket then
 * spans a migration and says nothing about when the clock was read.
 */
int tsc_clock__read_pair(struct tsc_pair *pair)
{
	uint32_t narrowest = __atomic_load_n(&tsc_clock__narrowest_width, __ATOMIC_RELAXED);
	uint64_t best_width = UINT64_MAX, best_tsc = 0, best_mono = 0;
	unsigned int round, i;

	for (round = 0; round < TSC_CLOCK_READ_ROUNDS; round++) {
		for (i = 0; i < TSC_CLOCK_READ_TRIES; i++) {
			struct timespec ts;
			uint32_t cpu0, cpu1;
			uint64_t t0, t1;

			t0 = tsc_read(&cpu0);
			if (clock_gettime(CLOCK_MONOTONIC, &ts))
				return -errno;
			t1 = tsc_read(&cpu1);

			if (cpu0 != cpu1 || t1 < t0)
				continue;
			if (t1 - t0 < best_width) {
				best_width = t1 - t0;
				best_tsc = t0 + best_width / 2;
				best_mono = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
			}
		}
		if (best_width != UINT64_MAX && !tsc_clock__is_wide(best_width, narrowest))
			break;
	}
	if (best_width == UINT64_MAX)
		return -EAGAIN;

	pair->tsc = best_tsc;
	pair->mono_ns = best_mono;
	pair->width = best_width > UINT32_MAX ? UINT32_MAX : (uint32_t)best_width;
	tsc_clock__note_width(pair->width);
	return 0;
}

void tsc_clock__init(struct tsc_clock *clk)
{
	*clk = (struct tsc_clock){ .min_width = UINT32_MAX };
}

/* Signed distance computed in unsigned first: exact for any pair of uint64_t. */
static long double tsc_clock__rel(uint64_t v, uint64_t base)
{
	if (v >= base)
		return (long double)(v - base);
	return -(long double)(base - v);
}

bool tsc_clock__ready(const struct tsc_clock *clk)
{
	/* sxx > 0 exactly when at least two kept pairs differ in tsc */
	return clk->nr_pairs >= 2 && clk->sxx > 0;
}

static long double tsc_clock__fit_rel_ns(const struct tsc_clock *clk, long double x)
{
	return clk->offset_ns + clk->slope * x;
}

static void tsc_clock__refit(struct tsc_clock *clk)
{
	if (!tsc_clock__ready(clk)) {
		clk->slope = 0;
		clk->offset_ns = 0;
		return;
	}
	clk->slope = clk->sxy / clk->sxx;
	clk->offset_ns = clk->mean_y - clk->slope * clk->mean_x;
}

/* Welford update: clk->nr_pairs must already count the new pair. */
static void tsc_clock__stats_push(struct tsc_clock *clk, const struct tsc_pair *pair)
{
	long double x = tsc_clock__rel(pair->tsc, clk->tsc_base);
	long double y = tsc_clock__rel(pair->mono_ns, clk->mono_base);
	long double dx = x - clk->mean_x;

	clk->mean_x += dx / clk->nr_pairs;
	clk->mean_y += (y - clk->mean_y) / clk->nr_pairs;
	clk->sxx += dx * (x - clk->mean_x);
	clk->sxy += dx * (y - clk->mean_y);
}

/*
 * tsc_clock__recompute - rebuild the statistics from the kept pairs
 *
 * Two passes (exact means, then centred products) rather than replaying the
 * Welford updates: decimation is the one place where O(n) is allowed, so it
 * also washes out the rounding the running updates accumulated.
 */
static void tsc_clock__recompute(struct tsc_clock *clk)
{
	long double sum_x = 0, sum_y = 0;
	unsigned int i;

	clk->mean_x = clk->mean_y = clk->sxx = clk->sxy = 0;
	if (!clk->nr_pairs)
		return;

	/* integers below 2^64: these sums are exact in long double */
	for (i = 0; i < clk->nr_pairs; i++) {
		sum_x += tsc_clock__rel(clk->pairs[i].tsc, clk->tsc_base);
		sum_y += tsc_clock__rel(clk->pairs[i].mono_ns, clk->mono_base);
	}
	clk->mean_x = sum_x / clk->nr_pairs;
	clk->mean_y = sum_y / clk->nr_pairs;

	for (i = 0; i < clk->nr_pairs; i++) {
		long double dx = tsc_clock__rel(clk->pairs[i].tsc, clk->tsc_base) - clk->mean_x;
		long double dy = tsc_clock__rel(clk->pairs[i].mono_ns, clk->mono_base) - clk->mean_y;

		clk->sxx += dx * dx;
		clk->sxy += dx * dy;
	}
}

/*
 * tsc_clock__decimate - halve a full pair array
 *
 * Keeps the even indices, which include the first pair, so tsc_base and
 * mono_base never move and the span keeps reaching back to the start of the
 * run. The newest pair is the one being added right after this, so it is
 * always kept too. Older history ends up sparser than recent history, which
 * lets the fit follow slow NTP slews without forgetting the long baseline.
 */
static void tsc_clock__decimate(struct tsc_clock *clk)
{
	unsigned int i, j;

	for (i = 0, j = 0; i < clk->nr_pairs; i += 2, j++)
		clk->pairs[j] = clk->pairs[i];
	clk->nr_pairs = j;
	clk->nr_decimations++;
	tsc_clock__recompute(clk);
}

/*
 * tsc_clock__add_pair - add a pair and refit
 *
 * The pair is first scored against the fit it is about to change: that fit
 * is the one that converted the samples streamed in since the previous pair,
 * so its error on fresh data is the honest error of the online conversion.
 *
 * Wide pairs are fitted unweighted like the rest and only counted: weighting
 * by 1/width^2 would let one unusually lucky bracket dominate the line, and
 * tsc_clock__read_pair already works to keep wide pairs rare.
 */
void tsc_clock__add_pair(struct tsc_clock *clk, const struct tsc_pair *pair)
{
	if (!clk->nr_pairs) {
		clk->tsc_base = pair->tsc;
		clk->mono_base = pair->mono_ns;
	}

	if (tsc_clock__ready(clk)) {
		long double x = tsc_clock__rel(pair->tsc, clk->tsc_base);
		long double y = tsc_clock__rel(pair->mono_ns, clk->mono_base);
		double err = (double)fabsl(y - tsc_clock__fit_rel_ns(clk, x));

		if (err > clk->max_prediction_error_ns)
			clk->max_prediction_error_ns = err;
	}

	if (tsc_clock__is_wide(pair->width, clk->min_width))
		clk->nr_wide_pairs++;
	if (pair->width < clk->min_width)
		clk->min_width = pair->width;

	if (clk->nr_pairs == TSC_CLOCK_MAX_PAIRS)
		tsc_clock__decimate(clk);

	clk->pairs[clk->nr_pairs++] = *pair;
	clk->nr_added++;
	tsc_clock__stats_push(clk, pair);
	tsc_clock__refit(clk);
}

static int64_t tsc_clock__round_ns(long double ns)
{
	if (ns > TSC_CLOCK_NS_LIMIT)
		ns = TSC_CLOCK_NS_LIMIT;
	else if (ns < -TSC_CLOCK_NS_LIMIT)
		ns = -TSC_CLOCK_NS_LIMIT;
	return llroundl(ns);
}

/*
 * tsc_clock__to_mono_ns - convert a TSC value with the current fit
 *
 * Every step is monotonic in tsc: the relative value is exact, multiplying
 * by a non-negative slope and adding a constant are correctly rounded (hence
 * monotonic), and so are clamping and rounding to the nearest ns. A
 * non-positive slope can only come from garbage input; it is treated as 0 to
 * keep that guarantee. Returns 0 while the clock is not ready.
 */
uint64_t tsc_clock__to_mono_ns(const struct tsc_clock *clk, uint64_t tsc)
{
	long double slope, ns;
	uint64_t mag;
	int64_t d;

	if (!tsc_clock__ready(clk))
		return 0;

	slope = clk->slope > 0 ? clk->slope : 0;
	ns = clk->offset_ns + slope * tsc_clock__rel(tsc, clk->tsc_base);
	d = tsc_clock__round_ns(ns);

	if (d < 0) {
		mag = (uint64_t)-d;
		return mag > clk->mono_base ? 0 : clk->mono_base - mag;
	}
	mag = (uint64_t)d;
	return mag > UINT64_MAX - clk->mono_base ? UINT64_MAX : clk->mono_base + mag;
}

/* Returns 0 while the clock is not ready. */
int64_t tsc_clock__cycles_to_ns(const struct tsc_clock *clk, int64_t cycles)
{
	if (!tsc_clock__ready(clk))
		return 0;
	return tsc_clock__round_ns(clk->slope * (long double)cycles);
}

double tsc_clock__mhz(const struct tsc_clock *clk)
{
	if (!tsc_clock__ready(clk) || !(clk->slope > 0))
		return 0;
	/* slope is ns per cycle; cycles per microsecond is MHz */
	return (double)(1000.0L / clk->slope);
}

double tsc_clock__max_residual_ns(const struct tsc_clock *clk)
{
	long double max = 0;
	unsigned int i;

	if (!tsc_clock__ready(clk))
		return 0;
	for (i = 0; i < clk->nr_pairs; i++) {
		long double x = tsc_clock__rel(clk->pairs[i].tsc, clk->tsc_base);
		long double y = tsc_clock__rel(clk->pairs[i].mono_ns, clk->mono_base);
		long double r = fabsl(y - tsc_clock__fit_rel_ns(clk, x));

		if (r > max)
			max = r;
	}
	return (double)max;
}

double tsc_clock__span_s(const struct tsc_clock *clk)
{
	if (clk->nr_pairs < 2)
		return 0;
	return (double)(tsc_clock__rel(clk->pairs[clk->nr_pairs - 1].mono_ns,
				       clk->pairs[0].mono_ns) / 1e9L);
}

static int tsc_clock__sleep_us(unsigned int us)
{
	struct timespec req = {
		.tv_sec = us / 1000000,
		.tv_nsec = (long)(us % 1000000) * 1000,
	};
	int err;

	/* clock_nanosleep returns the error instead of setting errno */
	while ((err = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &req)) == EINTR)
		;
	return -err;
}

/*
 * tsc_clock__calibrate - take nr_pairs pairs spacing_us apart and add them
 *
 * Returns 0 once the clock is ready, -EINVAL for nr_pairs == 0, -EAGAIN if the
 * pairs (together with any already added) still do not make it ready, or the
 * -errno of a failed clock read or sleep.
 */
int tsc_clock__calibrate(struct tsc_clock *clk, unsigned int nr_pairs, unsigned int spacing_us)
{
	unsigned int i;
	int err;

	if (!nr_pairs)
		return -EINVAL;

	for (i = 0; i < nr_pairs; i++) {
		struct tsc_pair pair;

		if (i && spacing_us) {
			err = tsc_clock__sleep_us(spacing_us);
			if (err)
				return err;
		}
		err = tsc_clock__read_pair(&pair);
		if (err)
			return err;
		tsc_clock__add_pair(clk, &pair);
	}
	return tsc_clock__ready(clk) ? 0 : -EAGAIN;
}
