// SPDX-License-Identifier: GPL-2.0
/*
 * test_slow_hist.c - nanoseconds in the flight recorder's buckets: a
 * percentile the floor of its bucket, within 25% below the value, the
 * sum kept from wrapping, and the log2 rows exactly a struct histogram's
 */
#include <criterion/criterion.h>
#include <string.h>
#include "histogram.h"
#include "slow_hist.h"

TestSuite(slow_hist);

Test(slow_hist, an_empty_one_has_every_percentile_zero)
{
	struct slow_hist h;

	memset(&h, 0, sizeof(h));
	cr_assert_eq(slow_hist__percentile(&h, 50), 0);
	cr_assert_eq(slow_hist__percentile(&h, 100), 0);
}

Test(slow_hist, values_below_four_are_kept_exactly)
{
	struct slow_hist h;

	memset(&h, 0, sizeof(h));
	for (uint64_t v = 0; v < 4; v++)
		slow_hist__add(&h, v);
	cr_assert_eq(slow_hist__percentile(&h, 25), 0);
	cr_assert_eq(slow_hist__percentile(&h, 50), 1);
	cr_assert_eq(slow_hist__percentile(&h, 75), 2);
	cr_assert_eq(slow_hist__percentile(&h, 100), 3);
}

Test(slow_hist, a_percentile_is_the_floor_of_its_bucket_within_a_quarter_below)
{
	static const uint64_t values[] = { 4, 5, 7, 8, 100, 1000, 10000, 123456, 1000000, 999999999, 1ull << 40,
					   (1ull << 40) + (1ull << 39) + 12345, UINT64_MAX / 3 };

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct slow_hist h;
		uint64_t p;

		memset(&h, 0, sizeof(h));
		slow_hist__add(&h, values[i]);
		p = slow_hist__percentile(&h, 50);
		cr_assert_leq(p, values[i], "%llu: %llu", (unsigned long long)values[i], (unsigned long long)p);
		cr_assert_geq(p, values[i] - values[i] / 4, "%llu: %llu", (unsigned long long)values[i],
			      (unsigned long long)p);
	}
}

Test(slow_hist, the_nearest_rank_decides_and_out_of_range_percentiles_are_the_ends)
{
	struct slow_hist h;

	memset(&h, 0, sizeof(h));
	/* 90 wakeups of 1 us, 10 of 1 ms: p90 is still the fast ones, p91 a slow one */
	for (int i = 0; i < 90; i++)
		slow_hist__add(&h, 1024);
	for (int i = 0; i < 10; i++)
		slow_hist__add(&h, 1048576);
	cr_assert_eq(slow_hist__percentile(&h, 90), 1024);
	cr_assert_eq(slow_hist__percentile(&h, 91), 1048576);
	cr_assert_eq(slow_hist__percentile(&h, 0), 1024, "the smallest");
	cr_assert_eq(slow_hist__percentile(&h, -5), 1024);
	cr_assert_eq(slow_hist__percentile(&h, 250), 1048576, "the largest");
}

Test(slow_hist, the_count_sum_and_max_are_kept_and_the_sum_stops_short_of_wrapping)
{
	struct slow_hist h;

	memset(&h, 0, sizeof(h));
	slow_hist__add(&h, 3000);
	slow_hist__add(&h, 1000);
	cr_assert_eq(h.count, 2);
	cr_assert_eq(h.sum_ns, 4000);
	cr_assert_eq(h.max_ns, 3000);
	slow_hist__add(&h, UINT64_MAX - 10);
	cr_assert_eq(h.sum_ns, UINT64_MAX, "saturated, not wrapped to a small number");
	slow_hist__add(&h, 5);
	cr_assert_eq(h.sum_ns, UINT64_MAX);
	cr_assert_eq(h.max_ns, UINT64_MAX - 10);
	cr_assert_eq(h.count, 4);
}

Test(slow_hist, its_log2_rows_are_a_full_histograms_exactly)
{
	static struct histogram full;
	uint64_t rows[HIST_LOG2_ROWS], want[HIST_LOG2_ROWS];
	struct slow_hist h;
	uint64_t total = 0;
	int last;

	memset(&h, 0, sizeof(h));
	histogram__init(&full);
	/* every edge: 0 to 3, each power of two, and one below and past it, up to 2^62 */
	for (uint64_t small = 0; small < 4; small++) {
		slow_hist__add(&h, small);
		histogram__add(&full, small);
	}
	for (int k = 2; k < 63; k++) {
		const uint64_t at[] = { (1ull << k) - 1, 1ull << k, (1ull << k) + 1, (1ull << k) + (1ull << (k - 1)) };

		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			slow_hist__add(&h, at[i]);
			histogram__add(&full, at[i]);
		}
	}
	slow_hist__log2_rows(&h, rows);
	cr_assert_geq(histogram__log2_rows(&full, want, &last), 0);
	for (int r = 0; r < HIST_LOG2_ROWS; r++) {
		cr_assert_eq(rows[r], want[r], "row %d: %llu, not %llu", r, (unsigned long long)rows[r],
			     (unsigned long long)want[r]);
		total += rows[r];
	}
	cr_assert_eq(total, h.count);
}
