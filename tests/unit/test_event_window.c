/* SPDX-License-Identifier: GPL-2.0 */
/* test_event_window.c - Criterion tests for the event window: events in time order, loss gaps, pruning */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "event_window.h"

#define T0		1000000000ull	/* 1 s of uptime: nothing sits near zero */

static struct wp_event ev(uint64_t ts, uint32_t drops)
{
	struct wp_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.type = WP_EV_SWITCH;
	e.drops = drops;
	return e;
}

/* Each Criterion test runs in its own process: one static window, rebuilt by the fixture. */
static struct event_window *w;

static void setup(void)
{
	w = event_window__new();
	cr_assert_not_null(w, "event_window__new failed");
}

static void teardown(void)
{
	event_window__free(w);
	w = NULL;
}

TestSuite(event_window, .init = setup, .fini = teardown);

static unsigned int add(uint64_t ts, uint32_t drops)
{
	struct wp_event e = ev(ts, drops);

	return event_window__add(w, &e);
}

static void assert_in_time_order(void)
{
	const struct wp_event *e, *prev = NULL;
	size_t i;

	for (i = 0; (e = event_window__at(w, i)); prev = e, i++)
		if (prev)
			cr_assert_leq(prev->ts_ns, e->ts_ns, "event %zu out of order", i);
}

Test(event_window, events_that_arrive_a_little_out_of_order_are_kept_in_time_order)
{
	static const uint64_t arrival[] = { 100, 300, 200, 400, 250, 500, 450, 50 };
	size_t i;

	for (i = 0; i < sizeof(arrival) / sizeof(arrival[0]); i++)
		cr_assert_eq(add(T0 + arrival[i], 0), 0);
	assert_in_time_order();
	cr_assert_eq(event_window__at(w, 0)->ts_ns, T0 + 50);
	cr_assert_eq(event_window__at(w, 7)->ts_ns, T0 + 500);
	cr_assert_null(event_window__at(w, 8));
}

Test(event_window, lookup_by_time_finds_the_first_event_at_or_after_it)
{
	uint64_t t;

	for (t = 100; t <= 500; t += 100)
		add(T0 + t, 0);
	cr_assert_eq(event_window__first_at(w, 0), 0);
	cr_assert_eq(event_window__first_at(w, T0 + 100), 0);
	cr_assert_eq(event_window__first_at(w, T0 + 101), 1);
	cr_assert_eq(event_window__first_at(w, T0 + 300), 2);
	cr_assert_eq(event_window__first_at(w, T0 + 500), 4);
	cr_assert_eq(event_window__first_at(w, T0 + 501), 5);
	cr_assert_null(event_window__at(w, event_window__first_at(w, T0 + 501)));
}

Test(event_window, a_drop_count_that_moved_between_two_records_loses_the_time_between_them)
{
	add(T0 + 100, 0);
	add(T0 + 200, 1);
	add(T0 + 300, 1);

	cr_assert(event_window__lost(w, T0 + 150, T0 + 150));
	cr_assert(event_window__lost(w, T0 + 50, T0 + 100), "the gap starts at the record before it");
	cr_assert(event_window__lost(w, T0 + 200, T0 + 250), "and ends at the record that carried the drop");
	cr_assert_not(event_window__lost(w, T0 + 201, T0 + 400));
	cr_assert_not(event_window__lost(w, T0, T0 + 99));
}

Test(event_window, drops_noted_at_a_drain_lose_the_time_after_the_last_record_until_a_record_carries_them)
{
	add(T0 + 100, 0);
	cr_assert_not(event_window__note_drops(w, 0), "nothing new: the last record carried that count");
	cr_assert_not(event_window__lost(w, T0 + 101, T0 + 5000));

	cr_assert(event_window__note_drops(w, 3));
	cr_assert(event_window__lost(w, T0 + 5000, T0 + 6000), "no record bounds the loss yet");
	cr_assert_not(event_window__lost(w, T0, T0 + 99));

	add(T0 + 500, 3);
	cr_assert(event_window__lost(w, T0 + 300, T0 + 300));
	cr_assert_not(event_window__lost(w, T0 + 501, T0 + 6000), "the record carrying the count ended it");
	cr_assert_not(event_window__note_drops(w, 3));
}

Test(event_window, a_final_drop_count_past_the_last_record_loses_everything_after_it)
{
	add(T0 + 100, 0);
	event_window__note_final_drops(w, 0);
	cr_assert_not(event_window__lost(w, T0 + 101, UINT64_MAX - 1), "an equal count lost nothing");

	event_window__note_final_drops(w, 1);
	cr_assert(event_window__lost(w, T0 + 101, T0 + 200));
	cr_assert(event_window__lost(w, UINT64_MAX - 1, UINT64_MAX - 1));
	cr_assert_not(event_window__lost(w, T0, T0 + 99));
}

Test(event_window, pruning_forgets_the_events_and_gaps_before_it_and_flags_an_event_that_arrives_there_late)
{
	uint64_t t;

	add(T0 + 100, 0);
	add(T0 + 200, 1);	/* lost: T0 + 100 .. T0 + 200 */
	for (t = 300; t <= 1000; t += 100)
		add(T0 + t, 1);

	event_window__prune(w, T0 + 550);
	cr_assert_eq(event_window__at(w, 0)->ts_ns, T0 + 600);
	cr_assert_eq(event_window__first_at(w, 0), 0);
	cr_assert_not(event_window__lost(w, T0 + 150, T0 + 150), "the gap before the pruned time is gone");

	cr_assert_eq(add(T0 + 300, 1), EVENT_WINDOW_LATE);
	cr_assert_eq(add(T0 + 1100, 1), 0);
	assert_in_time_order();
}

Test(event_window, a_span_is_its_events_in_one_piece_also_where_the_ring_wraps)
{
	const struct wp_event *evs = NULL;
	size_t n = 0, i;
	uint64_t t;

	/* 4000 events, the first 3000 pruned, 2000 more: the ring's end falls inside the span */
	for (t = 0; t < 4000; t++)
		add(T0 + t, 0);
	event_window__prune(w, T0 + 3000);
	for (t = 4000; t < 6000; t++)
		add(T0 + t, 0);

	cr_assert_eq(event_window__span(w, T0 + 3500, T0 + 5499, &evs, &n), 0);
	cr_assert_eq(n, 2000);
	for (i = 0; i < n; i++)
		cr_assert_eq(evs[i].ts_ns, T0 + 3500 + i, "event %zu of the span", i);

	cr_assert_eq(event_window__span(w, T0 + 7000, T0 + 8000, &evs, &n), 0);
	cr_assert_eq(n, 0);
}

Test(event_window, a_full_window_pushes_its_oldest_event_out_and_loses_its_time)
{
	unsigned int what = 0;
	uint64_t last = 0;

	/* in time order, as many as it takes: the bound is the window's own */
	while (last < (1u << 24) && !what)
		what = add(T0 + ++last, 0);
	cr_assert_eq(what, EVENT_WINDOW_EVICTED, "never full after %" PRIu64 " events", last);
	cr_assert_eq(event_window__at(w, 0)->ts_ns, T0 + 2, "the first one went");
	cr_assert_eq(event_window__at(w, last - 2)->ts_ns, T0 + last);
	cr_assert_null(event_window__at(w, last - 1));
	cr_assert(event_window__lost(w, T0, T0 + 1));
	cr_assert_not(event_window__lost(w, T0 + 2, T0 + last));
}
