// SPDX-License-Identifier: GPL-2.0
/*
 * test_http_conns.c - the scrape endpoint's connection table, driven with
 * made-up times and turns, no sockets: which connection gives way to a
 * new one (the oldest waiting for a request; never one sending a
 * response or having its password checked, never one not yet read), and
 * when each kind of wait ends.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include "http_conns.h"

/* head 3 s, next 2 s, write 10 s, drain 1 s, a password's check 5 s: as the server has them, but any would do */
static const struct http_conns_limits limits = { .ms = {
	[HTTP_WAIT_HEAD] = 3000,
	[HTTP_WAIT_NEXT] = 2000,
	[HTTP_WAIT_WRITE] = 10000,
	[HTTP_WAIT_DRAIN] = 1000,
	[HTTP_WAIT_AUTH] = 5000,
} };
static struct http_conns *t;

static void setup(void)
{
	t = http_conns__new(4, &limits);
	cr_assert_not_null(t);
}

static void teardown(void)
{
	http_conns__free(t);
	t = NULL;
}

TestSuite(http_conns, .init = setup, .fini = teardown);

/* fill - the four slots taken at 100, 200, 300 and 400 ms, in one turn, and the next turn begun */
static void fill(int slots[4])
{
	for (int i = 0; i < 4; i++) {
		slots[i] = http_conns__take(t, 100 * (i + 1));
		cr_assert_geq(slots[i], 0);
	}
	http_conns__turn(t);
}

Test(http_conns, slots_are_taken_until_none_is_free_and_a_released_one_is_taken_again)
{
	int slots[4];

	fill(slots);
	cr_expect_eq(http_conns__used(t), 4);
	cr_expect_eq(http_conns__take(t, 500), -ENOSPC);
	http_conns__release(t, slots[2]);
	cr_expect_eq(http_conns__used(t), 3);
	cr_expect_eq(http_conns__take(t, 600), slots[2]);
}

Test(http_conns, the_oldest_waiting_for_its_first_head_gives_way_first)
{
	int slots[4];

	fill(slots);
	cr_expect_eq(http_conns__victim(t), slots[0]);
	http_conns__release(t, slots[0]);
	cr_expect_eq(http_conns__victim(t), slots[1]);
}

Test(http_conns, a_kept_connection_idle_since_before_the_others_were_accepted_gives_way_before_them)
{
	int kept = http_conns__take(t, 50), others[3];

	http_conns__wait(t, kept, HTTP_WAIT_WRITE, 60);
	http_conns__wait(t, kept, HTTP_WAIT_NEXT, 70);
	for (int i = 0; i < 3; i++)
		others[i] = http_conns__take(t, 100 + i);
	http_conns__turn(t);
	cr_expect_eq(http_conns__victim(t), kept);
	/* idle from later than the others' accepts: now the oldest head goes first */
	http_conns__wait(t, kept, HTTP_WAIT_WRITE, 200);
	http_conns__wait(t, kept, HTTP_WAIT_NEXT, 210);
	cr_expect_eq(http_conns__victim(t), others[0]);
}

Test(http_conns, one_sending_its_response_never_gives_way)
{
	int slots[4];

	fill(slots);
	http_conns__wait(t, slots[0], HTTP_WAIT_WRITE, 500);
	cr_expect_eq(http_conns__victim(t), slots[1]);
	for (int i = 1; i < 4; i++)
		http_conns__wait(t, slots[i], HTTP_WAIT_WRITE, 500 + i);
	cr_expect_eq(http_conns__victim(t), -1, "every one sends a response, and one was named to go");
}

Test(http_conns, one_accepted_in_this_turn_does_not_give_way_until_the_next)
{
	int slots[4];

	for (int i = 0; i < 4; i++)
		slots[i] = http_conns__take(t, 100 + i);
	cr_expect_eq(http_conns__victim(t), -1, "a connection not yet read was named to go");
	http_conns__turn(t);
	cr_expect_eq(http_conns__victim(t), slots[0]);
}

Test(http_conns, in_a_full_table_of_fresh_and_sending_ones_none_gives_way)
{
	int old = http_conns__take(t, 100);

	http_conns__turn(t);
	http_conns__wait(t, old, HTTP_WAIT_WRITE, 150);
	for (int i = 0; i < 3; i++)
		cr_assert_geq(http_conns__take(t, 200 + i), 0);
	cr_expect_eq(http_conns__take(t, 300), -ENOSPC);
	cr_expect_eq(http_conns__victim(t), -1);
}

Test(http_conns, a_draining_connection_gives_way_in_its_turn_by_age)
{
	int slots[4];

	fill(slots);
	/* slot 3 served its last response at 50 ms: older than any head */
	http_conns__wait(t, slots[3], HTTP_WAIT_DRAIN, 50);
	cr_expect_eq(http_conns__victim(t), slots[3]);
}

Test(http_conns, a_head_not_whole_3_s_after_the_accept_is_past_its_deadline)
{
	int c = http_conns__take(t, 1000);

	cr_expect_eq(http_conns__next_deadline(t, 1000), 3000);
	cr_expect_eq(http_conns__expired(t, 3999), -1);
	cr_expect_eq(http_conns__expired(t, 4000), c);
	cr_expect_eq(http_conns__next_deadline(t, 5000), 0);
}

Test(http_conns, a_kept_connection_idle_2_s_after_its_response_is_past_its_deadline)
{
	int c = http_conns__take(t, 1000);

	http_conns__wait(t, c, HTTP_WAIT_WRITE, 1100);
	cr_expect_eq(http_conns__waits(t, c), HTTP_WAIT_WRITE);
	http_conns__wait(t, c, HTTP_WAIT_NEXT, 1200);
	cr_expect_eq(http_conns__next_deadline(t, 1200), 2000);
	cr_expect_eq(http_conns__expired(t, 3199), -1);
	cr_expect_eq(http_conns__expired(t, 3200), c);
}

Test(http_conns, a_response_has_10_s_and_a_drain_1_s)
{
	int w = http_conns__take(t, 0), d = http_conns__take(t, 0);

	http_conns__wait(t, w, HTTP_WAIT_WRITE, 100);
	http_conns__wait(t, d, HTTP_WAIT_DRAIN, 200);
	cr_expect_eq(http_conns__next_deadline(t, 200), 1000);
	cr_expect_eq(http_conns__expired(t, 1199), -1);
	cr_expect_eq(http_conns__expired(t, 1200), d);
	http_conns__release(t, d);
	cr_expect_eq(http_conns__expired(t, 10099), -1);
	cr_expect_eq(http_conns__expired(t, 10100), w);
}

Test(http_conns, a_connection_whose_password_is_checked_never_gives_way)
{
	int slots[4];

	fill(slots);
	/* the oldest two: one being answered, one having its password checked */
	http_conns__wait(t, slots[0], HTTP_WAIT_WRITE, 500);
	http_conns__wait(t, slots[1], HTTP_WAIT_AUTH, 500);
	cr_expect_eq(http_conns__victim(t), slots[2]);
	http_conns__wait(t, slots[2], HTTP_WAIT_AUTH, 600);
	http_conns__wait(t, slots[3], HTTP_WAIT_AUTH, 600);
	cr_expect_eq(http_conns__victim(t), -1);
}

Test(http_conns, a_password_check_has_5_s_from_its_head)
{
	int c = http_conns__take(t, 0);

	/* the head took 2.9 s of its 3: the check's own limit counts from its start */
	http_conns__wait(t, c, HTTP_WAIT_AUTH, 2900);
	cr_expect_eq(http_conns__next_deadline(t, 2900), 5000);
	cr_expect_eq(http_conns__expired(t, 7899), -1);
	cr_expect_eq(http_conns__expired(t, 7900), c);
}

Test(http_conns, the_connections_of_a_wait_are_listed_the_oldest_first)
{
	int slots[4];

	fill(slots);
	cr_expect_eq(http_conns__first(t, HTTP_WAIT_AUTH), -1);
	http_conns__wait(t, slots[2], HTTP_WAIT_AUTH, 500);
	http_conns__wait(t, slots[0], HTTP_WAIT_AUTH, 600);
	cr_expect_eq(http_conns__first(t, HTTP_WAIT_AUTH), slots[2]);
	cr_expect_eq(http_conns__next(t, slots[2]), slots[0]);
	cr_expect_eq(http_conns__next(t, slots[0]), -1);
	/* one answered leaves the list */
	http_conns__wait(t, slots[2], HTTP_WAIT_WRITE, 700);
	cr_expect_eq(http_conns__first(t, HTTP_WAIT_AUTH), slots[0]);
	cr_expect_eq(http_conns__first(t, HTTP_WAIT_HEAD), slots[1]);
	cr_expect_eq(http_conns__next(t, slots[1]), slots[3]);
}

Test(http_conns, the_connection_past_its_deadline_longest_is_named_first)
{
	int head = http_conns__take(t, 0), kept = http_conns__take(t, 0);

	http_conns__wait(t, kept, HTTP_WAIT_NEXT, 500);
	/* the head's deadline at 3000, the kept one's at 2500 */
	cr_expect_eq(http_conns__expired(t, 5000), kept);
	http_conns__release(t, kept);
	cr_expect_eq(http_conns__expired(t, 5000), head);
	http_conns__release(t, head);
	cr_expect_eq(http_conns__expired(t, 5000), -1);
	cr_expect_eq(http_conns__next_deadline(t, 5000), -1);
}

Test(http_conns, a_new_wait_restarts_the_clock)
{
	int c = http_conns__take(t, 0);

	http_conns__wait(t, c, HTTP_WAIT_WRITE, 2900);
	cr_expect_eq(http_conns__expired(t, 3000), -1);
	http_conns__wait(t, c, HTTP_WAIT_NEXT, 4000);
	cr_expect_eq(http_conns__expired(t, 5999), -1);
	cr_expect_eq(http_conns__expired(t, 6000), c);
}

Test(http_conns, releasing_a_free_slot_changes_nothing)
{
	int c = http_conns__take(t, 0);

	http_conns__release(t, c);
	http_conns__release(t, c);
	cr_expect_eq(http_conns__used(t), 0);
	cr_expect_eq(http_conns__take(t, 0), c);
	cr_expect_eq(http_conns__used(t), 1);
}

Test(http_conns, a_table_of_no_slot_is_refused)
{
	cr_expect_null(http_conns__new(0, &limits));
}
