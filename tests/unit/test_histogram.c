/* SPDX-License-Identifier: GPL-2.0 */
/* test_histogram.c - Criterion tests for the log-linear latency histogram */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

#define LOG_UNIFORM_N	100000

TestSuite(histogram);

/* fixed-seed xorshift64 so that every run sees the same "random" data */
static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static double uniform01(uint64_t *state)
{
	return (double)(xorshift64(state) >> 11) * 0x1.0p-53;
}

/* log_uniform - values in [50, 50,000,000) spread evenly over the decades */
static uint64_t *log_uniform_data(size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	size_t i;

	cr_assert_not_null(v);
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)(50.0 * exp(uniform01(&state) * log(1e6)));
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * exact_percentile - nearest rank on a sorted array, percentile given in
 * tenths of a percent so the reference rank is pure integer arithmetic and
 * cannot share a floating-point mistake with the code under test.
 */
static uint64_t exact_percentile(const uint64_t *sorted, uint64_t n, uint64_t tenths)
{
	uint64_t rank = (tenths * n + 999) / 1000;

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static char *render(const struct histogram *h, const char *unit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	cr_assert_not_null(out);
	histogram__print_log2(h, out, unit);
	cr_assert_eq(fclose(out), 0);
	cr_assert_not_null(buf);
	return buf;
}

static size_t longest_line(const char *text, size_t *lines)
{
	size_t longest = 0;

	*lines = 0;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		if (len > longest)
			longest = len;
		(*lines)++;
		text += len + (nl ? 1 : 0);
	}
	return longest;
}

/* every interesting edge: 0..300, powers of two and their neighbours, the top */
static size_t edge_values(uint64_t *v)
{
	size_t n = 0;
	unsigned int k;
	uint64_t x;

	for (x = 0; x <= 300; x++)
		v[n++] = x;
	for (k = 9; k < 64; k++) {
		v[n++] = (UINT64_C(1) << k) - 1;
		v[n++] = UINT64_C(1) << k;
		v[n++] = (UINT64_C(1) << k) + 1;
	}
	v[n++] = UINT64_MAX - 1;
	v[n++] = UINT64_MAX;
	return n;
}

Test(histogram, small_values_have_their_own_exact_bucket)
{
	uint64_t v;

	for (v = 0; v < 256; v++) {
		unsigned int b = histogram__bucket_of(v);

		cr_assert_eq(b, v, "value %" PRIu64 " went to bucket %u", v, b);
		cr_assert_eq(histogram__bucket_low(b), v);
		cr_assert_eq(histogram__bucket_high(b), v);
	}
}

Test(histogram, bucket_indices_follow_the_documented_formula)
{
	cr_assert_eq(histogram__bucket_of(127), 127);
	cr_assert_eq(histogram__bucket_of(128), 128);
	cr_assert_eq(histogram__bucket_of(255), 255);
	cr_assert_eq(histogram__bucket_of(256), 256);
	cr_assert_eq(histogram__bucket_of(257), 256);
	cr_assert_eq(histogram__bucket_of(258), 257);
	cr_assert_eq(histogram__bucket_of(511), 383);
	cr_assert_eq(histogram__bucket_of(512), 384);
	cr_assert_eq(histogram__bucket_of(UINT64_C(1) << 63), 57 * 128);
	cr_assert_eq(histogram__bucket_of(UINT64_MAX), HIST_BUCKETS - 1);
	cr_assert_eq(HIST_BUCKETS, 7424);
}

Test(histogram, every_value_lies_within_its_bucket_bounds)
{
	uint64_t v[512];
	size_t n = edge_values(v), i;
	uint64_t state = 12345;

	for (i = 0; i < n + 100000; i++) {
		/* random magnitudes so every power of two gets visited */
		uint64_t x = i < n ? v[i] : xorshift64(&state) >> (xorshift64(&state) % 64);
		unsigned int b = histogram__bucket_of(x);
		uint64_t low = histogram__bucket_low(b), high = histogram__bucket_high(b);

		cr_assert_lt(b, HIST_BUCKETS, "value %" PRIu64, x);
		cr_assert(low <= x && x <= high,
			  "value %" PRIu64 " outside bucket %u [%" PRIu64 ", %" PRIu64 "]",
			  x, b, low, high);
		cr_assert_eq(histogram__bucket_of(low), b);
		cr_assert_eq(histogram__bucket_of(high), b);
	}
}

Test(histogram, bucket_of_never_decreases_as_values_grow)
{
	uint64_t *v = malloc((512 + 100000) * sizeof(*v));
	uint64_t state = 777;
	size_t n, i;

	cr_assert_not_null(v);
	n = edge_values(v);
	for (i = 0; i < 100000; i++)
		v[n++] = xorshift64(&state) >> (xorshift64(&state) % 64);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 1; i < n; i++)
		cr_assert_leq(histogram__bucket_of(v[i - 1]), histogram__bucket_of(v[i]),
			      "%" PRIu64 " vs %" PRIu64, v[i - 1], v[i]);
	free(v);
}

Test(histogram, buckets_tile_the_whole_range_without_gaps_or_overlap)
{
	unsigned int i;

	cr_assert_eq(histogram__bucket_low(0), 0);
	cr_assert_eq(histogram__bucket_high(HIST_BUCKETS - 1), UINT64_MAX);
	for (i = 0; i < HIST_BUCKETS; i++) {
		cr_assert_leq(histogram__bucket_low(i), histogram__bucket_high(i), "bucket %u", i);
		if (i + 1 < HIST_BUCKETS)
			cr_assert_eq(histogram__bucket_high(i) + 1, histogram__bucket_low(i + 1),
				     "gap or overlap after bucket %u", i);
	}
}

Test(histogram, every_bucket_is_at_most_a_128th_of_its_low_bound)
{
	unsigned int i, checked = 0;

	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t low = histogram__bucket_low(i);
		uint64_t width = histogram__bucket_high(i) - low + 1;

		if (low < 128)
			continue;
		cr_assert_leq(width, low / 128, "bucket %u: width %" PRIu64 " low %" PRIu64,
			      i, width, low);
		checked++;
	}
	cr_assert_eq(checked, HIST_BUCKETS - 128);
}

Test(histogram, out_of_range_bucket_indices_yield_uint64_max)
{
	cr_assert_eq(histogram__bucket_low(HIST_BUCKETS), UINT64_MAX);
	cr_assert_eq(histogram__bucket_high(HIST_BUCKETS), UINT64_MAX);
	cr_assert_eq(histogram__bucket_low(~0u), UINT64_MAX);
}

Test(histogram, small_integers_give_exact_percentiles)
{
	struct histogram h;
	uint64_t v;

	histogram__init(&h);
	/* descending insertion order must not matter */
	for (v = 100; v >= 1; v--)
		histogram__add(&h, v);

	cr_assert_eq(histogram__percentile(&h, 0), 1);
	cr_assert_eq(histogram__percentile(&h, 1), 1);
	cr_assert_eq(histogram__percentile(&h, 1.5), 2);
	cr_assert_eq(histogram__percentile(&h, 50), 50);
	cr_assert_eq(histogram__percentile(&h, 90), 90);
	cr_assert_eq(histogram__percentile(&h, 99), 99);
	cr_assert_eq(histogram__percentile(&h, 99.9), 100);
	cr_assert_eq(histogram__percentile(&h, 100), 100);
}

Test(histogram, decimal_percentiles_use_the_exact_nearest_rank)
{
	struct histogram h;
	uint64_t v, k;

	histogram__init(&h);
	for (v = 1; v <= 200; v++)
		histogram__add(&h, v);

	/* pct = k / 10 has no exact binary form; ranks must still not drift */
	for (k = 0; k <= 1000; k++) {
		uint64_t rank = (k * 200 + 999) / 1000;
		uint64_t got = histogram__percentile(&h, (double)k / 10.0);

		cr_assert_eq(got, rank ? rank : 1, "p%.1f gave %" PRIu64, (double)k / 10.0, got);
	}

	/*
	 * With 10000 samples p(k/100) is rank k; p0.07 computes as 7.000000000000001
	 * in doubles, which a bare ceil() would turn into rank 8.
	 */
	histogram__init(&h);
	for (v = 1; v <= 10000; v++)
		histogram__add(&h, v);
	for (k = 1; k < 256; k++) {
		uint64_t got = histogram__percentile(&h, (double)k / 100.0);

		cr_assert_eq(got, k, "p%.2f gave %" PRIu64, (double)k / 100.0, got);
	}
}

Test(histogram, lowest_and_highest_ranks_return_exact_min_and_max)
{
	struct histogram h;
	unsigned int b = histogram__bucket_of(1000000);
	uint64_t low = histogram__bucket_low(b), high = histogram__bucket_high(b);

	/* the extremes sit in a 4096-wide bucket whose midpoint, low + 2047, is neither */
	cr_assert_eq(high - low + 1, 4096);

	histogram__init(&h);
	histogram__add(&h, low + 5);
	histogram__add(&h, low + 6);
	histogram__add(&h, 10 * high);
	cr_assert_eq(histogram__percentile(&h, 30), low + 5);		/* rank 1 of 3 */
	cr_assert_eq(histogram__percentile(&h, 50), low + 2047);	/* rank 2: midpoint */
	cr_assert_eq(histogram__percentile(&h, 90), 10 * high);		/* rank 3 */

	histogram__init(&h);
	histogram__add(&h, 3);
	histogram__add(&h, 4);
	histogram__add(&h, high - 5);
	cr_assert_eq(histogram__percentile(&h, 50), 4);
	cr_assert_eq(histogram__percentile(&h, 90), high - 5);
}

Test(histogram, percentiles_outside_0_to_100_are_clamped)
{
	struct histogram h;

	histogram__init(&h);
	histogram__add(&h, 1000);
	histogram__add(&h, 2000000);
	cr_assert_eq(histogram__percentile(&h, -5), 1000);
	cr_assert_eq(histogram__percentile(&h, NAN), 1000);
	cr_assert_eq(histogram__percentile(&h, 250), 2000000);
}

Test(histogram, log_uniform_percentiles_stay_within_0_4_percent)
{
	static struct histogram h;
	static const uint64_t tenths[] = { 500, 900, 990, 999 };
	uint64_t *v = log_uniform_data(LOG_UNIFORM_N);
	size_t i;

	histogram__init(&h);
	for (i = 0; i < LOG_UNIFORM_N; i++)
		histogram__add(&h, v[i]);
	qsort(v, LOG_UNIFORM_N, sizeof(*v), cmp_u64);

	/* the generator must really have covered the intended range */
	cr_assert_geq(v[0], 50);
	cr_assert_lt(v[0], 100);
	cr_assert_gt(v[LOG_UNIFORM_N - 1], 40000000);
	cr_assert_lt(v[LOG_UNIFORM_N - 1], 50000000);

	for (i = 0; i < sizeof(tenths) / sizeof(tenths[0]); i++) {
		uint64_t exact = exact_percentile(v, LOG_UNIFORM_N, tenths[i]);
		uint64_t got = histogram__percentile(&h, (double)tenths[i] / 10.0);
		unsigned int b = histogram__bucket_of(exact);
		uint64_t half_width = (histogram__bucket_high(b) - histogram__bucket_low(b) + 1) / 2;
		double err = fabs((double)got - (double)exact) / (double)exact;

		cr_assert_lt(err, 0.004, "p%.1f: got %" PRIu64 " exact %" PRIu64,
			     (double)tenths[i] / 10.0, got, exact);
		cr_assert_leq(got > exact ? got - exact : exact - got, half_width,
			      "p%.1f: more than half a bucket off", (double)tenths[i] / 10.0);
	}

	/* every whole percentile obeys the documented 1/256 bound too */
	for (i = 1; i < 100; i++) {
		uint64_t exact = exact_percentile(v, LOG_UNIFORM_N, i * 10);
		uint64_t got = histogram__percentile(&h, (double)i);

		cr_assert_leq(fabs((double)got - (double)exact), (double)exact / 256.0,
			      "p%zu: got %" PRIu64 " exact %" PRIu64, i, got, exact);
	}

	cr_assert_eq(histogram__percentile(&h, 0), v[0]);
	cr_assert_eq(histogram__percentile(&h, 100), v[LOG_UNIFORM_N - 1]);
	free(v);
}

Test(histogram, count_min_max_and_mean_are_exact)
{
	static const uint64_t v[] = { 5000, 17, 123456789, 250, 9999999 };
	struct histogram h;
	uint64_t sum = 0;
	size_t i;

	histogram__init(&h);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		histogram__add(&h, v[i]);
		sum += v[i];
	}
	cr_assert_eq(h.count, 5);
	cr_assert_eq(h.sum, sum);
	cr_assert_eq(h.min, 17);
	cr_assert_eq(h.max, 123456789);
	cr_assert_eq(histogram__mean(&h), (double)sum / 5.0);
	cr_assert_eq(histogram__percentile(&h, 0), 17);
	cr_assert_eq(histogram__percentile(&h, 100), 123456789);
}

Test(histogram, a_single_sample_is_every_percentile)
{
	struct histogram h;

	histogram__init(&h);
	histogram__add(&h, 987654321);
	cr_assert_eq(histogram__percentile(&h, 0), 987654321);
	cr_assert_eq(histogram__percentile(&h, 50), 987654321);
	cr_assert_eq(histogram__percentile(&h, 99.99), 987654321);
}

Test(histogram, midpoints_are_clamped_into_min_and_max)
{
	struct histogram h;
	uint64_t low = histogram__bucket_low(histogram__bucket_of(1000000));
	uint64_t high = histogram__bucket_high(histogram__bucket_of(1000000));

	/* three samples in one wide bucket; the middle one is reported by midpoint */
	cr_assert_gt(high - low, 4);
	histogram__init(&h);
	histogram__add(&h, high);
	histogram__add(&h, high);
	histogram__add(&h, high - 1);
	cr_assert_eq(histogram__percentile(&h, 50), high - 1);

	histogram__init(&h);
	histogram__add(&h, low);
	histogram__add(&h, low + 1);
	histogram__add(&h, low + 1);
	cr_assert_eq(histogram__percentile(&h, 50), low + 1);
}

Test(histogram, merge_equals_adding_everything_to_one_histogram)
{
	static struct histogram all, a, b;
	uint64_t *v = log_uniform_data(LOG_UNIFORM_N);
	size_t i;

	histogram__init(&all);
	histogram__init(&a);
	histogram__init(&b);
	for (i = 0; i < LOG_UNIFORM_N; i++) {
		histogram__add(&all, v[i]);
		/* uneven split so that min and max come from different halves */
		histogram__add(v[i] % 3 ? &a : &b, v[i]);
	}
	histogram__merge(&a, &b);
	cr_assert_eq(memcmp(&a, &all, sizeof(all)), 0);
	cr_assert_eq(a.count, LOG_UNIFORM_N);
	free(v);
}

Test(histogram, merging_into_a_zero_filled_histogram_copies_the_source)
{
	static struct histogram src, dst;

	histogram__init(&src);
	histogram__add(&src, 300);
	histogram__add(&src, 70000);
	/* dst is zero-filled, never initialised: min == 0 must not leak through */
	histogram__merge(&dst, &src);
	cr_assert_eq(memcmp(&dst, &src, sizeof(src)), 0);
}

Test(histogram, merging_an_empty_histogram_changes_nothing)
{
	static struct histogram h, copy, empty;

	histogram__init(&h);
	histogram__init(&empty);
	histogram__add(&h, 42);
	histogram__add(&h, 4200000);
	copy = h;
	histogram__merge(&h, &empty);
	cr_assert_eq(memcmp(&h, &copy, sizeof(h)), 0);
}

Test(histogram, merging_a_histogram_into_itself_doubles_it)
{
	static struct histogram h, twice;

	histogram__init(&h);
	histogram__init(&twice);
	histogram__add(&h, 9);
	histogram__add(&h, 90000);
	histogram__add(&twice, 9);
	histogram__add(&twice, 9);
	histogram__add(&twice, 90000);
	histogram__add(&twice, 90000);
	histogram__merge(&h, &h);
	cr_assert_eq(memcmp(&h, &twice, sizeof(h)), 0);
}

Test(histogram, clearing_leaves_a_histogram_as_init_does)
{
	static struct histogram h, empty;
	uint64_t *v = log_uniform_data(LOG_UNIFORM_N);
	size_t i;

	histogram__init(&h);
	histogram__init(&empty);
	for (i = 0; i < LOG_UNIFORM_N; i++)
		histogram__add(&h, v[i]);
	/* the first and the last bucket: the whole range is cleared when the samples span it */
	histogram__add(&h, 0);
	histogram__add(&h, UINT64_MAX);
	histogram__clear(&h);
	cr_assert_eq(memcmp(&h, &empty, sizeof(h)), 0);

	/* zero-filled, never initialised: count 0, so no bucket to clear, and min set as init sets it */
	memset(&h, 0, sizeof(h));
	histogram__clear(&h);
	cr_assert_eq(memcmp(&h, &empty, sizeof(h)), 0);
	free(v);
}

Test(histogram, clearing_writes_only_the_buckets_from_min_to_max)
{
	static struct histogram h;
	unsigned int lo = histogram__bucket_of(1000), hi = histogram__bucket_of(5000000);

	histogram__init(&h);
	/* marks just outside the samples' buckets, which no add would leave there: they must survive */
	h.buckets[lo - 1] = 7;
	h.buckets[hi + 1] = 9;
	histogram__add(&h, 1000);
	histogram__add(&h, 70000);
	histogram__add(&h, 5000000);
	histogram__clear(&h);
	cr_assert_eq(h.buckets[lo - 1], 7);
	cr_assert_eq(h.buckets[hi + 1], 9);
	for (unsigned int i = lo; i <= hi; i++)
		cr_assert_eq(h.buckets[i], 0, "bucket %u", i);
	cr_assert_eq(h.count, 0);
	cr_assert_eq(h.sum, 0);
	cr_assert_eq(h.min, UINT64_MAX);
	cr_assert_eq(h.max, 0);
}

Test(histogram, a_cleared_histogram_counts_afresh)
{
	static struct histogram h, fresh;

	histogram__init(&h);
	histogram__init(&fresh);
	histogram__add(&h, 3);
	histogram__add(&h, 900000);
	histogram__clear(&h);
	histogram__add(&h, 4500);
	histogram__add(&fresh, 4500);
	cr_assert_eq(memcmp(&h, &fresh, sizeof(h)), 0);
	cr_assert_eq(histogram__percentile(&h, 0), 4500, "no min left from before");
}

Test(histogram, zero_filled_histogram_works_without_init)
{
	static struct histogram h;

	cr_assert_eq(histogram__percentile(&h, 50), 0);
	histogram__add(&h, 700);
	histogram__add(&h, 90);
	cr_assert_eq(h.min, 90);
	cr_assert_eq(h.max, 700);
	cr_assert_eq(histogram__percentile(&h, 0), 90);
}

Test(histogram, empty_histogram_reports_zeros_and_no_samples)
{
	struct histogram h;
	char *text;

	histogram__init(&h);
	cr_assert_eq(h.count, 0);
	cr_assert_eq(h.sum, 0);
	cr_assert_eq(h.min, UINT64_MAX);
	cr_assert_eq(h.max, 0);
	cr_assert_eq(histogram__percentile(&h, 0), 0);
	cr_assert_eq(histogram__percentile(&h, 50), 0);
	cr_assert_eq(histogram__percentile(&h, 100), 0);
	cr_assert_eq(histogram__mean(&h), 0.0);

	text = render(&h, "nsecs");
	cr_assert_str_eq(text, "     (no samples)\n");
	free(text);
}

Test(histogram, sum_saturates_instead_of_wrapping)
{
	static struct histogram h, other;

	histogram__init(&h);
	histogram__add(&h, UINT64_MAX - 10);
	histogram__add(&h, 100);
	cr_assert_eq(h.sum, UINT64_MAX);
	cr_assert_eq(h.count, 2);
	histogram__add(&h, 1);
	cr_assert_eq(h.sum, UINT64_MAX);

	histogram__init(&other);
	histogram__add(&other, UINT64_MAX / 2 + 1);
	histogram__merge(&other, &other);
	cr_assert_eq(other.sum, UINT64_MAX);
	histogram__merge(&other, &h);
	cr_assert_eq(other.sum, UINT64_MAX);
}

Test(histogram, print_log2_renders_bcc_rows_and_skips_outer_empty_rows)
{
	struct histogram h;
	char *text;
	int i;

	histogram__init(&h);
	for (i = 0; i < 3; i++)
		histogram__add(&h, 100);	/* 64 -> 127 */
	for (i = 0; i < 12; i++)
		histogram__add(&h, 256 + i * 20);	/* 256 -> 511 */
	for (i = 0; i < 120; i++)
		histogram__add(&h, 1023 - i);	/* 512 -> 1023 */

	text = render(&h, "nsecs");
	/* 128 -> 255 is empty but inside the populated span, so it stays */
	cr_assert_str_eq(text,
		"     nsecs               : count    distribution\n"
		"        64 -> 127        : 3        |*                                       |\n"
		"       128 -> 255        : 0        |                                        |\n"
		"       256 -> 511        : 12       |****                                    |\n"
		"       512 -> 1023       : 120      |****************************************|\n");
	free(text);
}

Test(histogram, print_log2_starts_with_a_zero_to_one_row)
{
	struct histogram h;
	char *text;

	histogram__init(&h);
	histogram__add(&h, 0);
	histogram__add(&h, 1);
	histogram__add(&h, 3);
	text = render(&h, "usecs");
	cr_assert_str_eq(text,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 2        |****************************************|\n"
		"         2 -> 3          : 1        |********************                    |\n");
	free(text);
}

Test(histogram, print_log2_fits_100_columns_with_uint64_max)
{
	struct histogram h;
	size_t lines, longest;
	char *text;

	histogram__init(&h);
	histogram__add(&h, 0);
	histogram__add(&h, 1000);
	histogram__add(&h, UINT64_MAX);
	text = render(&h, "nsecs");
	longest = longest_line(text, &lines);
	cr_assert_leq(longest, 100, "longest line %zu:\n%s", longest, text);
	/* header plus every row from 0 -> 1 up to the top one */
	cr_assert_eq(lines, 1 + 64);
	cr_assert_not_null(strstr(text,
		" 9223372036854775808 -> 18446744073709551615 : 1 "));
	cr_assert_not_null(strstr(text,
		"\n" "                   0 -> 1                    : 1 "));
	free(text);
}

Test(histogram, print_log2_fits_100_columns_with_huge_counts_and_long_unit)
{
	static struct histogram h;
	char unit[200];
	size_t lines, longest;
	char *text;

	/* counts this large cannot be added one by one, so plant them */
	histogram__init(&h);
	h.buckets[0] = UINT64_MAX / 2;
	h.buckets[HIST_BUCKETS - 1] = UINT64_MAX / 4;
	h.count = h.buckets[0] + h.buckets[HIST_BUCKETS - 1];
	h.min = 0;
	h.max = UINT64_MAX;
	memset(unit, 'u', sizeof(unit) - 1);
	unit[sizeof(unit) - 1] = '\0';

	text = render(&h, unit);
	longest = longest_line(text, &lines);
	cr_assert_leq(longest, 100, "longest line %zu:\n%s", longest, text);
	cr_assert_eq(lines, 1 + 64);
	/*
	 * 20-digit bounds and a 19-digit count leave room for 31 stars; the
	 * half-size row gets floor(31 / 2) of them.
	 */
	cr_assert_not_null(strstr(text, "|" "*******************************" "|\n"));
	cr_assert_not_null(strstr(text, "|" "***************" "                " "|\n"));
	free(text);
}
