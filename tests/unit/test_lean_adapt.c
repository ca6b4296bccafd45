/* SPDX-License-Identifier: GPL-2.0 */
/* test_lean_adapt.c - the buckets the BPF side counts slowness in, and the running p99 over them */
#include <criterion/criterion.h>
#include <string.h>
#include "lean_adapt.h"

Test(lean_adapt, every_value_is_in_a_bucket_whose_floor_is_at_most_it_and_within_a_quarter)
{
	uint64_t v, floor, prev_floor = 0;
	uint32_t b, prev = 0;

	for (v = 0; v < 100000000; v = v < 64 ? v + 1 : v + v / 7) {
		b = wp_slow_bucket(v);
		floor = wp_slow_bucket_floor(b);
		cr_assert_lt(b, WP_SLOW_BUCKETS, "bucket %u of %llu", b, (unsigned long long)v);
		cr_assert_leq(floor, v, "the floor %llu of %llu's bucket", (unsigned long long)floor,
			      (unsigned long long)v);
		cr_assert_geq(floor * 5 / 4 + 1, v, "%llu is within a quarter of its floor %llu", (unsigned long long)v,
			      (unsigned long long)floor);
		cr_assert_geq(b, prev, "buckets rise with the value");
		cr_assert_geq(floor, prev_floor);
		prev = b;
		prev_floor = floor;
	}
	cr_assert_eq(wp_slow_bucket(UINT64_MAX), WP_SLOW_BUCKETS - 1);
	cr_assert_eq(wp_slow_bucket_floor(wp_slow_bucket(1000)), 896, "1000 ns: in [896, 1024)");
}

Test(lean_adapt, the_bucket_floor_is_exact_at_each_bucket_start)
{
	for (uint32_t b = 8; b < WP_SLOW_BUCKETS; b++)
		cr_assert_eq(wp_slow_bucket(wp_slow_bucket_floor(b)), b, "bucket %u", b);
}

Test(lean_adapt, fewer_than_the_minimum_wakeups_set_no_threshold)
{
	uint64_t n[WP_SLOW_BUCKETS] = { 0 };

	cr_assert_eq(lean_adapt__threshold(n), LEAN_ADAPT_NONE);
	n[wp_slow_bucket(5000)] = LEAN_ADAPT_MIN_WAKEUPS - 1;
	cr_assert_eq(lean_adapt__threshold(n), LEAN_ADAPT_NONE);
}

Test(lean_adapt, the_threshold_is_the_floor_of_the_bucket_holding_the_p99)
{
	uint64_t n[WP_SLOW_BUCKETS] = { 0 };

	/* 98.9% at about 10 us, then 1.1% at about 1 ms: the p99 falls among the slow ones */
	n[wp_slow_bucket(10000)] = 9890;
	n[wp_slow_bucket(1000000)] = 110;
	cr_assert_eq(lean_adapt__threshold(n), wp_slow_bucket_floor(wp_slow_bucket(1000000)));
	/* 99.1% fast: the p99 is among them, and the slow 0.9% are over it */
	n[wp_slow_bucket(10000)] = 9910;
	n[wp_slow_bucket(1000000)] = 90;
	cr_assert_eq(lean_adapt__threshold(n), wp_slow_bucket_floor(wp_slow_bucket(10000)));
}

Test(lean_adapt, a_spread_distribution_puts_about_one_percent_over_the_threshold)
{
	uint64_t n[WP_SLOW_BUCKETS] = { 0 }, over = 0, all = 0, t;

	/* one wakeup at each of 1..100000 ns */
	for (uint64_t v = 1; v <= 100000; v++)
		n[wp_slow_bucket(v)]++;
	t = lean_adapt__threshold(n);
	for (uint64_t v = 1; v <= 100000; v++) {
		over += v >= t;
		all++;
	}
	/* within the bucket that holds the p99: at most a quarter of it more than 1% */
	cr_assert(over >= all / 100 && over <= all / 100 + all * 99 / 100 / 4, "%llu of %llu over %llu ns",
		  (unsigned long long)over, (unsigned long long)all, (unsigned long long)t);
}

/* a tick's share of flight copies: 2% of the wakeups the last tick counted, and never fewer than 64 */
Test(lean_adapt, a_ticks_budget_is_two_percent_of_the_last_ticks_wakeups_and_at_least_64)
{
	cr_assert_eq(lean_adapt__budget(0), LEAN_ADAPT_FIRST_MAX);
	cr_assert_eq(lean_adapt__budget(3200), 64);
	cr_assert_eq(lean_adapt__budget(3250), 65);
	cr_assert_eq(lean_adapt__budget(100000), 2000);
}
