/* SPDX-License-Identifier: GPL-2.0 */
/* histogram.c - bounded-memory latency histogram with accurate percentiles */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "histogram.h"

/* bcc's runqlat geometry; the columns only ever grow from here */
#define LOG2_VALUE_WIDTH	10
#define LOG2_COUNT_WIDTH	8
#define LOG2_BAR_WIDTH		40
#define LOG2_INDENT		5
#define LOG2_LINE_MAX		100

_Static_assert(HIST_BUCKETS == 7424, "bucket layout changed; update the docs");

static inline unsigned int floor_log2(uint64_t value)
{
	return 63 - __builtin_clzll(value);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return UINT64_MAX;
	return r;
}

void histogram__init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void histogram__clear(struct histogram *h)
{
	unsigned int lo, hi;

	/* a zero-filled histogram has count 0 and no samples: nothing to find from its min */
	if (h->count) {
		lo = histogram__bucket_of(h->min);
		hi = histogram__bucket_of(h->max);
		memset(&h->buckets[lo], 0, (hi - lo + 1) * sizeof(h->buckets[0]));
	}
	h->count = 0;
	h->sum = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

unsigned int histogram__bucket_of(uint64_t value)
{
	unsigned int e, sub;

	if (value < HIST_SUB_COUNT)
		return (unsigned int)value;

	/* the top HIST_SUB_BITS + 1 bits pick the sub-bucket; the leading 1 is implied */
	e = floor_log2(value);
	sub = (unsigned int)(value >> (e - HIST_SUB_BITS)) - HIST_SUB_COUNT;
	return (e - HIST_SUB_BITS + 1) * HIST_SUB_COUNT + sub;
}

/*
 * bucket_shift - log2 of the width of bucket @index (@index >= HIST_SUB_COUNT).
 *
 * Group 1 (values 128..255) still has width 1, so the exact region really ends
 * at 255 and the width doubles with every group after that.
 */
static inline unsigned int bucket_shift(unsigned int index)
{
	return index / HIST_SUB_COUNT - 1;
}

uint64_t histogram__bucket_low(unsigned int index)
{
	if (index >= HIST_BUCKETS)
		return UINT64_MAX;
	if (index < HIST_SUB_COUNT)
		return index;
	return (uint64_t)(HIST_SUB_COUNT + index % HIST_SUB_COUNT) << bucket_shift(index);
}

uint64_t histogram__bucket_high(unsigned int index)
{
	if (index >= HIST_BUCKETS)
		return UINT64_MAX;
	if (index < HIST_SUB_COUNT)
		return index;
	/* low + (width - 1): low + width overflows for the very last bucket */
	return histogram__bucket_low(index) + ((UINT64_C(1) << bucket_shift(index)) - 1);
}

void histogram__add(struct histogram *h, uint64_t value)
{
	/* test count, not min, so that a zero-filled histogram works without init */
	if (!h->count || value < h->min)
		h->min = value;
	if (!h->count || value > h->max)
		h->max = value;
	h->count++;
	h->sum = sat_add(h->sum, value);
	h->buckets[histogram__bucket_of(value)]++;
}

void histogram__add_buckets(struct histogram *h, const uint64_t *buckets, unsigned int n, uint64_t count,
			    uint64_t sum, uint64_t min, uint64_t max)
{
	if (!count)
		return;
	if (!h->count || min < h->min)
		h->min = min;
	if (!h->count || max > h->max)
		h->max = max;
	h->count += count;
	h->sum = sat_add(h->sum, sum);
	for (unsigned int i = 0; i < n && i < HIST_BUCKETS; i++)
		h->buckets[i] += buckets[i];
}

void histogram__merge(struct histogram *dst, const struct histogram *src)
{
	unsigned int i;

	if (!src->count)
		return;

	/* min/max go first: when dst == src, count must not change before they are read */
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum);
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

/*
 * percentile_rank - nearest rank ceil(pct / 100 * count) for 0 < pct < 100.
 *
 * Percentiles are usually decimals such as 99.9 that have no exact binary
 * form, so pct * count / 100 can come out as 99900.00000000001 where the exact
 * answer is 99900, and ceil() would then skip a whole rank. Results within
 * rounding noise of an integer are taken to be that integer.
 */
static uint64_t percentile_rank(double pct, uint64_t count)
{
	double x = pct * (double)count / 100.0;
	double nearest = nearbyint(x);

	if (fabs(x - nearest) <= x * 1e-12)
		x = nearest;
	x = ceil(x);
	if (x < 1.0)
		return 1;
	/* (double)count may round up past count, so compare before converting */
	if (x >= (double)count)
		return count;
	return (uint64_t)x;
}

uint64_t histogram__percentile(const struct histogram *h, double pct)
{
	uint64_t rank, seen = 0;
	unsigned int i;

	if (!h->count)
		return 0;
	/* written this way round so that NaN lands on min too */
	if (!(pct > 0.0))
		return h->min;
	if (pct >= 100.0)
		return h->max;

	rank = percentile_rank(pct, h->count);
	if (rank == 1)
		return h->min;
	if (rank >= h->count)
		return h->max;

	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t low, high, mid;

		seen += h->buckets[i];
		if (seen < rank)
			continue;
		low = histogram__bucket_low(i);
		high = histogram__bucket_high(i);
		mid = low + (high - low) / 2;
		/* the true sample lies in [min, max], so clamping can only help */
		if (mid < h->min)
			return h->min;
		if (mid > h->max)
			return h->max;
		return mid;
	}
	/* only reachable if count and buckets disagree */
	return h->max;
}

double histogram__mean(const struct histogram *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

static inline unsigned int log2_row_of(uint64_t value)
{
	return value < 2 ? 0 : floor_log2(value);
}

uint64_t histogram__log2_row_low(unsigned int row)
{
	return row ? UINT64_C(1) << row : 0;
}

uint64_t histogram__log2_row_high(unsigned int row)
{
	return row == HIST_LOG2_ROWS - 1 ? UINT64_MAX : (UINT64_C(2) << row) - 1;
}

int histogram__log2_rows(const struct histogram *h, uint64_t rows[HIST_LOG2_ROWS], int *last)
{
	unsigned int i;
	int first = -1, row;

	memset(rows, 0, HIST_LOG2_ROWS * sizeof(rows[0]));
	*last = -1;
	/*
	 * A fine bucket never straddles a power of two, so its low bound alone
	 * decides which log2 row it belongs to; buckets rise, and so do rows.
	 */
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		row = (int)log2_row_of(histogram__bucket_low(i));
		rows[row] += h->buckets[i];
		if (first < 0)
			first = row;
		*last = row;
	}
	return first;
}

static int decimal_digits(uint64_t value)
{
	int n = 1;

	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

/* bar_length - stars for @val when @val_max fills @width; val <= val_max */
static int bar_length(uint64_t val, uint64_t val_max, int width)
{
	uint64_t n;

	if (val <= UINT64_MAX / (uint64_t)width)
		n = val * (uint64_t)width / val_max;
	else
		n = (uint64_t)((long double)val * width / val_max);
	return n > (uint64_t)width ? width : (int)n;
}

void histogram__print_log2(const struct histogram *h, FILE *out, const char *unit)
{
	static const char stars[LOG2_BAR_WIDTH + 1] =
		"****************************************";
	uint64_t rows[HIST_LOG2_ROWS];
	uint64_t row_max = 0;
	int first, last;
	int value_width, count_width, bar_width, unit_width, unit_room;
	int k;

	first = histogram__log2_rows(h, rows, &last);
	for (k = first; first >= 0 && k <= last; k++)
		if (rows[k] > row_max)
			row_max = rows[k];

	if (first < 0) {
		fprintf(out, "%*s(no samples)\n", LOG2_INDENT, "");
		return;
	}

	value_width = decimal_digits(histogram__log2_row_high(last));
	if (value_width < LOG2_VALUE_WIDTH)
		value_width = LOG2_VALUE_WIDTH;
	count_width = decimal_digits(row_max);
	if (count_width < LOG2_COUNT_WIDTH)
		count_width = LOG2_COUNT_WIDTH;

	/*
	 * A row is "V -> V : C |bar|". With 20-digit bounds and counts of more
	 * than 10 digits the full 40-star bar would break the 100-column
	 * promise, so the bar gives way; it never drops below 30.
	 */
	bar_width = LOG2_LINE_MAX - (2 * value_width + 4 + 3 + count_width + 2 + 1);
	if (bar_width > LOG2_BAR_WIDTH)
		bar_width = LOG2_BAR_WIDTH;

	/* the unit label spans the "V -> V" columns, as in bcc */
	if (!unit)
		unit = "";
	unit_width = 2 * value_width + 4 - LOG2_INDENT;
	unit_room = LOG2_LINE_MAX - (LOG2_INDENT + 3 + count_width + 13);
	fprintf(out, "%*s%-*.*s : %-*s distribution\n", LOG2_INDENT, "",
		unit_width, unit_room, unit, count_width, "count");

	for (k = first; k <= last; k++) {
		int n = bar_length(rows[k], row_max, bar_width);

		fprintf(out, "%*" PRIu64 " -> %-*" PRIu64 " : %-*" PRIu64 " |%.*s%*s|\n",
			value_width, histogram__log2_row_low(k), value_width, histogram__log2_row_high(k),
			count_width, rows[k], n, stars, bar_width - n, "");
	}
}
