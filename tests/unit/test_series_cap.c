// SPDX-License-Identifier: GPL-2.0
/*
 * test_series_cap.c - the cardinality cap: the keys with the most time get
 * a series each, the rest one "other"; counters that never go backwards,
 * through a key's loss of its series and its return; the two guards
 * against trading places (the doubling, the tenure); a bounded table
 * whatever the number of keys met.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "series_cap.h"

#define S	1000000000ull

struct counts {
	uint64_t wakeups;
	uint64_t ns;
};

static struct series_cap *c;

static void teardown(void)
{
	series_cap__free(c);
	c = NULL;
}

TestSuite(series_cap, .fini = teardown);

static struct series_cap *cap(uint32_t limit, uint32_t candidates)
{
	struct series_cap_opts o = { .limit = limit, .candidates = candidates, .data_size = sizeof(struct counts),
				     .half_life_ns = 60 * S, .tenure_ns = 10 * S };
	struct series_cap *made = series_cap__new(&o);

	cr_assert_not_null(made);
	return made;
}

/* add - @n wakeups of @key, @ns each, at @now (the next settle's time: weight counts whole until then) */
static void add(const char *key, uint32_t n, uint64_t ns, uint64_t now)
{
	(void)now;
	for (uint32_t i = 0; i < n; i++) {
		struct counts *d = series_cap__add(c, key, series_cap__hash(key), ns);

		d->wakeups++;
		d->ns += ns;
	}
}

/* of - the data of @key's series; NULL: it has none */
static const struct counts *of(const char *key)
{
	for (size_t i = 0; i < series_cap__count(c); i++)
		if (!strcmp(series_cap__key(c, i), key))
			return series_cap__data(c, i);
	return NULL;
}

static const struct counts *other(void)
{
	return series_cap__other(c);
}

Test(series_cap, the_keys_with_the_most_time_get_the_series_and_the_rest_go_to_other)
{
	c = cap(2, 0);
	/* the first two keys take the free series at once; the third finds none */
	add("small", 100, 1000, 1 * S);
	add("big", 10, 1000000, 1 * S);
	add("middle", 10, 100000, 1 * S);
	cr_assert_not_null(of("small"));
	cr_assert_eq(other()->wakeups, 10);
	/* ranked, middle has ten times small's time: it takes small's series, which nobody ranked yet */
	series_cap__settle(c, 1 * S);
	cr_assert_eq(series_cap__count(c), 2);
	cr_assert_not_null(of("big"));
	cr_assert_not_null(of("middle"));
	cr_assert_null(of("small"));
	cr_assert_eq(of("middle")->wakeups, 0, "its wakeups before it had a series stay in other");
	add("big", 3, 1000000, 2 * S);
	add("small", 5, 1000, 2 * S);
	cr_assert_eq(of("big")->wakeups, 13);
	cr_assert_eq(other()->wakeups, 15);
	cr_assert_eq(series_cap__limit(c), 2);
}

Test(series_cap, the_series_are_listed_in_the_order_of_their_keys)
{
	c = cap(3, 0);
	add("zeta", 1, 30, 1 * S);
	add("alpha", 1, 20, 1 * S);
	add("mu", 1, 10, 1 * S);
	series_cap__settle(c, 1 * S);
	cr_assert_str_eq(series_cap__key(c, 0), "alpha");
	cr_assert_str_eq(series_cap__key(c, 1), "mu");
	cr_assert_str_eq(series_cap__key(c, 2), "zeta");
}

Test(series_cap, a_key_takes_a_series_only_with_twice_the_score_of_the_worst_after_its_tenure)
{
	c = cap(1, 0);
	add("old", 1, 1000, 0);
	series_cap__settle(c, 0);
	cr_assert_not_null(of("old"));
	/* within its tenure nothing takes the series, however heavy */
	add("new", 1, 1000000, 1 * S);
	series_cap__settle(c, 1 * S);
	cr_assert_not_null(of("old"));
	cr_assert_null(of("new"));
	/* past it, a key scoring less than twice as much (1.8 times) does not either */
	add("old", 1, 1000000, 20 * S);
	add("new", 1, 1000000, 20 * S);
	series_cap__settle(c, 20 * S);
	cr_assert_not_null(of("old"));
	/* ... and one scoring far more than twice does */
	add("new", 1, 10000000, 21 * S);
	series_cap__settle(c, 21 * S);
	cr_assert_null(of("old"));
	cr_assert_not_null(of("new"));
}

Test(series_cap, a_key_that_wins_its_series_back_goes_on_from_its_counts_and_other_never_falls)
{
	struct series_cap_stats st;
	uint64_t other_before;

	c = cap(1, 0);
	add("a", 1, 1000, 0);
	series_cap__settle(c, 0);
	add("a", 4, 1000, 1 * S);
	cr_assert_eq(of("a")->wakeups, 5, "its first wakeup took the free series");
	/* b outweighs a: a's series is retired with its 4 wakeups */
	add("b", 1, 100000, 20 * S);
	series_cap__settle(c, 20 * S);
	cr_assert_null(of("a"));
	other_before = other()->wakeups;
	add("a", 2, 1000, 21 * S);	/* into other, while a has no series */
	cr_assert_eq(other()->wakeups, other_before + 2);
	/* a comes back far heavier: its series goes on from 4, b's wakeups stay b's */
	add("a", 1, 100000000, 40 * S);
	series_cap__settle(c, 40 * S);
	cr_assert_not_null(of("a"));
	cr_assert_eq(of("a")->wakeups, 5);
	cr_assert_geq(other()->wakeups, other_before + 2);
	series_cap__stats(c, &st);
	cr_assert_eq(st.demoted, 2);
	cr_assert_eq(st.restored, 1);
	cr_assert_eq(st.promoted, 3);
}

Test(series_cap, scores_fade_so_a_key_that_stopped_loses_to_one_that_goes_on)
{
	c = cap(1, 0);
	add("was-busy", 100, 100000, 0);
	series_cap__settle(c, 0);
	/* ten half-lives later its score is a thousandth of what it was */
	add("steady", 1, 100000, 600 * S);
	add("steady", 1, 100000, 600 * S);
	series_cap__settle(c, 600 * S);
	cr_assert_not_null(of("steady"));
	cr_assert_null(of("was-busy"));
}

Test(series_cap, keys_past_the_table_wait_for_a_settle_and_their_wakeups_are_not_lost)
{
	struct series_cap_stats st;
	uint64_t total = 0;
	char key[32];

	c = cap(4, 64);
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "cgroup-%d", i);
		add(key, 1, 1000 + (uint64_t)i, 1 * S);
		if (i % 100 == 99)
			series_cap__settle(c, 1 * S);
	}
	series_cap__settle(c, 2 * S);
	series_cap__stats(c, &st);
	cr_assert_leq(st.keys, 64);
	cr_assert_gt(st.unranked, 0);
	cr_assert_eq(series_cap__count(c), 4);
	for (size_t i = 0; i < series_cap__count(c); i++)
		total += ((const struct counts *)series_cap__data(c, i))->wakeups;
	total += other()->wakeups;
	cr_assert_eq(total, 1000, "every wakeup in a series or in other: %lu", (unsigned long)total);
}

Test(series_cap, a_key_longer_than_the_limit_is_ranked_cut)
{
	char key[SERIES_KEY_LEN + 40];

	c = cap(1, 0);
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	add(key, 1, 10, 0);
	series_cap__settle(c, 0);
	cr_assert_eq(strlen(series_cap__key(c, 0)), SERIES_KEY_LEN - 1);
	add(key, 1, 10, 1);
	cr_assert_eq(series_cap__count(c), 1);
	cr_assert_eq(((const struct counts *)series_cap__data(c, 0))->wakeups, 2, "one key, cut alike both times");
}

static uint64_t counts_wakeups(const void *data)
{
	return ((const struct counts *)data)->wakeups;
}

/* whole - every wakeup is in a row, in "other", or among the retired: @added of them */
static void whole(uint64_t added, uint64_t retired)
{
	struct series_cap_stats st;
	uint64_t rows = other()->wakeups;

	for (size_t i = 0; i < series_cap__count(c); i++)
		rows += ((const struct counts *)series_cap__data(c, i))->wakeups;
	series_cap__stats(c, &st);
	cr_assert_eq(st.retired, retired, "retired %" PRIu64 " (rows and other %" PRIu64 ", added %" PRIu64 ")",
		     st.retired, rows, added);
	cr_assert_eq(rows + st.retired, added, "rows and other %" PRIu64 ", retired %" PRIu64 ", added %" PRIu64, rows,
		     st.retired, added);
}

Test(series_cap, the_retired_keys_wakeups_are_counted_so_the_rows_add_up_to_the_whole)
{
	struct series_cap_stats st;
	struct series_cap_opts o = { .limit = 1, .data_size = sizeof(struct counts), .half_life_ns = 60 * S,
				     .tenure_ns = 10 * S, .candidates = 2, .count = counts_wakeups };

	c = series_cap__new(&o);
	cr_assert_not_null(c);
	add("a", 5, 1000, 0);
	series_cap__settle(c, 0);
	whole(5, 0);
	/* b outweighs a, which is retired with its 5 */
	add("b", 1, 100000, 20 * S);
	series_cap__settle(c, 20 * S);
	whole(6, 5);
	/* a comes back: its 5 are a row's again, and b's series, with none of b's own yet, is retired */
	add("a", 1, 100000000, 40 * S);
	series_cap__settle(c, 40 * S);
	whole(7, 0);
	/*
	 * then c, d, ... each outweigh the last, a first: a's 5 are retired, and
	 * with room for two retired keys, its data is overwritten two
	 * retirements later (the keys after it bring none: their first wakeup
	 * went to other, the series had a key). Its 5 are in no row, counted.
	 */
	for (int k = 0; k < 6; k++) {
		char key[2] = { (char)('c' + k), '\0' };

		add(key, 1, 1000ull << (2 * k + 20), (uint64_t)(60 + 20 * k) * S);
		series_cap__settle(c, (uint64_t)(60 + 20 * k) * S);
		whole(8 + (uint64_t)k, 5);
	}
	series_cap__stats(c, &st);
	cr_assert_eq(st.demoted - st.restored, 7, "a's retirement and six more, past the two kept");
}
