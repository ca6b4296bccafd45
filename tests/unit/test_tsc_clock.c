/* SPDX-License-Identifier: GPL-2.0 */
/* test_tsc_clock.c - TSC -> CLOCK_MONOTONIC mapping tests */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tsc.h"
#include "tsc_clock.h"

/*
 * Synthetic line: 2.8 GHz, mono = 1e12 + tsc / 2.8 = 1e12 + tsc * 5 / 14.
 * Pair tsc values are multiples of 14, so pairs sit exactly on the line and
 * any error comes from the module, not from rounding the test data.
 */
#define SYN_MONO0	1000000000000ull
#define SYN_TSC0	28000000000000ull	/* ~2.8 h of uptime, multiple of 14 */
#define SYN_HOUR_CYCLES	10080000000000ull	/* 3600 s at 2.8 GHz */

static uint64_t syn_mono(uint64_t tsc)
{
	/* round(tsc * 5 / 14) */
	return SYN_MONO0 + (tsc * 10 + 14) / 28;
}

static struct tsc_pair syn_pair(uint64_t tsc, int64_t noise_ns)
{
	return (struct tsc_pair){
		.tsc = tsc,
		.mono_ns = syn_mono(tsc) + (uint64_t)noise_ns,
		.width = 100,
	};
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Each Criterion test runs in its own process, so one static clock reset by the fixture is enough. */
static struct tsc_clock clk;

static void setup(void)
{
	tsc_clock__init(&clk);
}

TestSuite(clock, .init = setup);

Test(clock, is_not_ready_with_zero_or_one_pair_or_only_equal_tsc_values)
{
	struct tsc_pair p = syn_pair(SYN_TSC0, 0);

	cr_assert_not(tsc_clock__ready(&clk));
	cr_assert_eq(tsc_clock__to_mono_ns(&clk, SYN_TSC0), 0);
	cr_assert_eq(tsc_clock__mhz(&clk), 0.0);

	tsc_clock__add_pair(&clk, &p);
	cr_assert_eq(clk.nr_pairs, 1);
	cr_assert_not(tsc_clock__ready(&clk));
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 1000), 0);

	p.mono_ns += 10;
	tsc_clock__add_pair(&clk, &p);
	cr_assert_eq(clk.nr_pairs, 2);
	cr_assert_not(tsc_clock__ready(&clk), "two pairs with the same tsc define no slope");

	p = syn_pair(SYN_TSC0 + 14000, 0);
	tsc_clock__add_pair(&clk, &p);
	cr_assert(tsc_clock__ready(&clk));
}

Test(clock, converts_an_exact_line_back_within_one_ns_at_between_and_beyond_the_pairs)
{
	static const uint64_t probes[] = {
		SYN_TSC0 + 1,
		SYN_TSC0 + 123456789,
		SYN_TSC0 + 1400000007,
		SYN_TSC0 + 9 * 280000000ull - 3,
		SYN_TSC0 + 9 * 280000000ull + 280000000ull * 7 + 5,	/* 0.7 s after the last */
		SYN_TSC0 - 999999,					/* before the first */
		SYN_TSC0 - SYN_HOUR_CYCLES,				/* an hour before */
		SYN_TSC0 + 9 * 280000000ull + SYN_HOUR_CYCLES + 11,	/* an hour after */
	};
	unsigned int i;

	for (i = 0; i < 10; i++) {
		struct tsc_pair p = syn_pair(SYN_TSC0 + i * 280000000ull, 0);	/* 100 ms apart */

		tsc_clock__add_pair(&clk, &p);
	}
	cr_assert(tsc_clock__ready(&clk));

	for (i = 0; i < 10; i++) {
		uint64_t tsc = clk.pairs[i].tsc;

		cr_assert_leq(abs_diff(tsc_clock__to_mono_ns(&clk, tsc), syn_mono(tsc)), 1,
			      "pair %u: got %lu want %lu", i,
			      (unsigned long)tsc_clock__to_mono_ns(&clk, tsc), (unsigned long)syn_mono(tsc));
	}
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t got = tsc_clock__to_mono_ns(&clk, probes[i]);

		cr_assert_leq(abs_diff(got, syn_mono(probes[i])), 1, "probe %u: got %lu want %lu", i,
			      (unsigned long)got, (unsigned long)syn_mono(probes[i]));
	}
	cr_assert_lt(tsc_clock__max_residual_ns(&clk), 1e-3);
	cr_assert_lt(clk.max_prediction_error_ns, 1e-3);
	cr_assert_float_eq(tsc_clock__span_s(&clk), 0.9, 1e-12);
}

Test(clock, reports_the_synthetic_frequency_within_one_ppm)
{
	unsigned int i;

	for (i = 0; i < 50; i++) {
		struct tsc_pair p = syn_pair(SYN_TSC0 + i * 28000000ull, 0);

		tsc_clock__add_pair(&clk, &p);
	}
	cr_assert_lt(fabs(tsc_clock__mhz(&clk) / 2800.0 - 1.0), 1e-6, "mhz %.9f", tsc_clock__mhz(&clk));
}

Test(clock, fits_noisy_pairs_with_a_residual_near_the_noise_and_a_small_mid_span_error)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint64_t mid, got;
	double res;
	unsigned int i;

	/* 200 pairs 10 ms apart, each off by a deterministic -10..+10 ns */
	for (i = 0; i < 200; i++) {
		int64_t noise = (int64_t)(xorshift64(&seed) % 21) - 10;
		struct tsc_pair p = syn_pair(SYN_TSC0 + i * 28000000ull, noise);

		tsc_clock__add_pair(&clk, &p);
	}

	res = tsc_clock__max_residual_ns(&clk);
	cr_assert_gt(res, 0.0, "noise must show up in the residual");
	cr_assert_leq(res, 12.0, "residual %.3f ns exceeds the injected noise", res);

	mid = SYN_TSC0 + 100 * 28000000ull + 12345;
	got = tsc_clock__to_mono_ns(&clk, mid);
	cr_assert_lt(abs_diff(got, syn_mono(mid)), 5, "mid-span error %ld ns",
		     (long)(got - syn_mono(mid)));

	cr_assert_lt(fabs(tsc_clock__mhz(&clk) / 2800.0 - 1.0), 1e-6, "mhz %.9f", tsc_clock__mhz(&clk));
	cr_assert_gt(clk.max_prediction_error_ns, 0.0);
	cr_assert_lt(clk.max_prediction_error_ns, 40.0);
}

Test(clock, records_a_500_ns_step_as_a_500_ns_prediction_error)
{
	struct tsc_pair p;
	unsigned int i;

	for (i = 0; i < 10; i++) {
		p = syn_pair(SYN_TSC0 + i * 28000000ull, 0);
		tsc_clock__add_pair(&clk, &p);
	}
	cr_assert_lt(clk.max_prediction_error_ns, 1.0);

	p = syn_pair(SYN_TSC0 + 10 * 28000000ull, 500);
	tsc_clock__add_pair(&clk, &p);
	cr_assert_float_eq(clk.max_prediction_error_ns, 500.0, 1.0, "got %.3f",
			   clk.max_prediction_error_ns);

	/* the refit absorbed part of the step, so it shows as a residual too */
	cr_assert_gt(tsc_clock__max_residual_ns(&clk), 10.0);
}

Test(clock, ignores_the_first_two_pairs_for_the_prediction_error)
{
	struct tsc_pair p = syn_pair(SYN_TSC0, 0);

	tsc_clock__add_pair(&clk, &p);
	p = syn_pair(SYN_TSC0 + 28000000ull, 700);
	tsc_clock__add_pair(&clk, &p);
	cr_assert_eq(clk.max_prediction_error_ns, 0.0);
}

Test(clock, keeps_memory_bounded_over_100000_pairs_while_the_span_and_exactness_survive)
{
	const uint64_t step = 2800000;	/* 1 ms, multiple of 14 */
	const unsigned int n = 100000;
	uint64_t first = SYN_TSC0, last = SYN_TSC0 + (n - 1) * step;
	uint64_t probes[] = { first, first + 7, first + step * n / 3 + 1234, last - 99, last,
			      last + SYN_HOUR_CYCLES / 60 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct tsc_pair p = syn_pair(SYN_TSC0 + i * step, 0);

		tsc_clock__add_pair(&clk, &p);
		cr_assert_leq(clk.nr_pairs, TSC_CLOCK_MAX_PAIRS);
	}

	cr_assert_eq(clk.nr_added, n);
	cr_assert_gt(clk.nr_decimations, 0);
	cr_assert_gt(clk.nr_pairs, TSC_CLOCK_MAX_PAIRS / 2);
	cr_assert_eq(clk.pairs[0].tsc, first);
	cr_assert_eq(clk.pairs[clk.nr_pairs - 1].tsc, last);
	cr_assert_float_eq(tsc_clock__span_s(&clk), (n - 1) * 1e-3, 1e-9);

	for (i = 1; i < clk.nr_pairs; i++)
		cr_assert_gt(clk.pairs[i].tsc, clk.pairs[i - 1].tsc, "kept pairs stay in order");

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t got = tsc_clock__to_mono_ns(&clk, probes[i]);

		cr_assert_leq(abs_diff(got, syn_mono(probes[i])), 1, "probe %u: got %lu want %lu", i,
			      (unsigned long)got, (unsigned long)syn_mono(probes[i]));
	}
	cr_assert_lt(tsc_clock__max_residual_ns(&clk), 1e-3);
	cr_assert_lt(clk.max_prediction_error_ns, 1e-3);
}

Test(clock, converts_durations_with_the_fitted_slope)
{
	struct tsc_pair p = syn_pair(SYN_TSC0, 0);

	tsc_clock__add_pair(&clk, &p);
	p = syn_pair(SYN_TSC0 + 2800000000ull, 0);
	tsc_clock__add_pair(&clk, &p);

	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 0), 0);
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 14), 5);
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 2800), 1000);
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 2800000000ll), 1000000000);
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, -2800000000ll), -1000000000);
	cr_assert_eq(tsc_clock__cycles_to_ns(&clk, 3600ll * 2800000000ll), 3600000000000ll);
}

Test(clock, never_goes_backwards_as_tsc_advances_cycle_by_cycle)
{
	static const uint64_t starts[] = {
		SYN_TSC0 - 100000,			/* across the base pair */
		SYN_TSC0 + 1400000000ull - 50000,	/* between pairs */
		SYN_TSC0 - SYN_HOUR_CYCLES,		/* far extrapolation */
	};
	uint64_t seed = 42;
	unsigned int i, j;

	for (i = 0; i < 20; i++) {
		int64_t noise = (int64_t)(xorshift64(&seed) % 21) - 10;
		struct tsc_pair p = syn_pair(SYN_TSC0 + i * 280000000ull, noise);

		tsc_clock__add_pair(&clk, &p);
	}

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		uint64_t prev = tsc_clock__to_mono_ns(&clk, starts[i]);

		for (j = 1; j < 200000; j++) {
			uint64_t cur = tsc_clock__to_mono_ns(&clk, starts[i] + j);

			cr_assert_geq(cur, prev, "start %u step %u", i, j);
			/* 0.357 ns per cycle: one cycle moves at most 1 ns */
			cr_assert_leq(cur - prev, 1, "start %u step %u", i, j);
			prev = cur;
		}
	}
}

Test(clock, accepts_but_counts_a_pair_wider_than_four_times_the_narrowest)
{
	struct tsc_pair p = syn_pair(SYN_TSC0, 0);

	p.width = 60;
	tsc_clock__add_pair(&clk, &p);
	p = syn_pair(SYN_TSC0 + 28000000ull, 0);
	p.width = 240;			/* exactly 4x: not wide */
	tsc_clock__add_pair(&clk, &p);
	cr_assert_eq(clk.nr_wide_pairs, 0);

	p = syn_pair(SYN_TSC0 + 56000000ull, 0);
	p.width = 241;
	tsc_clock__add_pair(&clk, &p);
	cr_assert_eq(clk.nr_wide_pairs, 1);
	cr_assert_eq(clk.nr_pairs, 3);
	cr_assert_eq(clk.min_width, 60);
}

Test(clock, reads_a_pair_that_brackets_the_real_clock)
{
	struct tsc_pair p;
	struct timespec ts;
	uint64_t before, after;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	cr_assert_eq(tsc_clock__read_pair(&p), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;

	cr_assert_geq(p.mono_ns, before);
	cr_assert_leq(p.mono_ns, after);
	cr_assert_gt(p.width, 0);
	cr_assert_lt(p.width, 1000000, "best of 7 should not be a millisecond-wide bracket");
}

Test(clock, calibrates_on_this_machine_to_a_plausible_frequency_and_microsecond_agreement)
{
	struct timespec ts;
	uint64_t before, after, conv, tsc;
	double mhz, res;

	cr_assert_eq(tsc_clock__calibrate(&clk, 20, 5000), 0);
	cr_assert_eq(clk.nr_pairs, 20);

	mhz = tsc_clock__mhz(&clk);
	res = tsc_clock__max_residual_ns(&clk);
	cr_assert_gt(mhz, 100.0);
	cr_assert_lt(mhz, 10000.0);
	cr_assert_lt(res, 1000.0, "residual %.1f ns", res);
	/* 19 sleeps of 5 ms; sleeps only ever overshoot */
	cr_assert_geq(tsc_clock__span_s(&clk), 0.095);
	cr_assert_lt(tsc_clock__span_s(&clk), 1.0);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	tsc = tsc_read(NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	conv = tsc_clock__to_mono_ns(&clk, tsc);

	cr_assert_geq(conv + 50000, before, "converted %lu is before %lu", (unsigned long)conv,
		      (unsigned long)before);
	cr_assert_leq(conv, after + 50000, "converted %lu is after %lu", (unsigned long)conv,
		      (unsigned long)after);

	fprintf(stderr, "calibration: %.3f MHz, max residual %.1f ns, prediction error %.1f ns, "
		"min width %u cycles, now off by %+ld ns, span %.3f s\n",
		mhz, res, clk.max_prediction_error_ns, clk.min_width,
		(long)(conv - (before + after) / 2), tsc_clock__span_s(&clk));
}
