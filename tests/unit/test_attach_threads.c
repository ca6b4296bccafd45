// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_threads.c - the full engine's threads by tid: found after
 * collisions and removals, the table grown past half full, bounded, and
 * the thread seen longest ago named for the owner to give up
 */
#include <criterion/criterion.h>
#include "attach_threads.h"

static struct attach_threads th;

static void fini(void)
{
	attach_threads__fini(&th);
}

TestSuite(attach_threads, .fini = fini);

/* add - thread @tid, with room made first as the engine makes it */
static struct thread *add(uint32_t tid, uint64_t ts)
{
	cr_assert(attach_threads__has_room(&th), "no room for %u with %zu held", tid, th.count);
	return attach_threads__add(&th, tid, ts);
}

Test(attach_threads, a_new_thread_has_nothing_seen_of_it_and_no_wait)
{
	struct thread *t;

	cr_assert_eq(attach_threads__init(&th, 64), 0);
	t = add(42, 1000);
	cr_assert_eq(t->tid, 42);
	cr_assert_eq(t->run, RUN_UNKNOWN);
	cr_assert_eq(t->tgid, 0);
	cr_assert_eq(t->wait.nr, -1);
	cr_assert_not(t->wait.known);
	cr_assert_eq(t->cur.stage, STAGE_NONE);
	cr_assert_eq(t->early.stage, STAGE_NONE);
	cr_assert_eq(t->last_ns, 1000);
	cr_assert_eq(th.count, 1);
	cr_assert_eq(attach_threads__find(&th, 42), t);
	cr_assert_null(attach_threads__find(&th, 43));
	cr_assert_null(attach_threads__find(&th, 0), "tid 0 is a free slot, never a thread");
}

/* spread_tids - @n distinct tids as scattered as a machine's: consecutive ones would hash to distinct slots */
static void spread_tids(uint32_t *tids, size_t n)
{
	uint32_t x = 1;

	for (size_t i = 0; i < n; i++) {
		x = (x * 1103515245u + 12345u) & 0x7fffffffu;
		tids[i] = x % 4000000 + 1;
	}
}

Test(attach_threads, every_thread_is_found_after_others_around_it_are_removed)
{
	uint32_t tids[120];
	size_t i;

	cr_assert_eq(attach_threads__init(&th, 1024), 0);
	/* 120 threads in 256 slots: a score of them share a home slot with another and probe past it */
	spread_tids(tids, 120);
	for (i = 0; i < 120; i++)
		add(tids[i], tids[i]);
	for (i = 0; i < 120; i += 2)
		attach_threads__remove(&th, attach_threads__find(&th, tids[i]));
	cr_assert_eq(th.count, 60);
	for (i = 0; i < 120; i++) {
		struct thread *t = attach_threads__find(&th, tids[i]);

		if (i % 2) {
			cr_assert_not_null(t, "%u was not removed", tids[i]);
			cr_assert_eq(t->tid, tids[i]);
			cr_assert_eq(t->last_ns, tids[i], "%u keeps its own state", tids[i]);
		} else {
			cr_assert_null(t, "%u was removed", tids[i]);
		}
	}
}

Test(attach_threads, the_table_grows_past_half_full_and_keeps_every_thread)
{
	size_t slots;
	uint32_t tid;

	cr_assert_eq(attach_threads__init(&th, 4096), 0);
	slots = th.nr_slots;
	for (tid = 1; tid <= 1000; tid++)
		add(tid * 7919, tid);
	cr_assert_gt(th.nr_slots, slots);
	cr_assert_leq(th.count * 2, th.nr_slots, "at most half full");
	for (tid = 1; tid <= 1000; tid++)
		cr_assert_not_null(attach_threads__find(&th, tid * 7919), "tid %u", tid * 7919);
}

Test(attach_threads, there_is_no_room_at_the_bound_until_a_thread_is_removed)
{
	uint32_t tid;

	cr_assert_eq(attach_threads__init(&th, 8), 0);
	for (tid = 1; tid <= 8; tid++)
		add(tid, tid);
	cr_assert_not(attach_threads__has_room(&th));
	cr_assert_eq(th.count, 8);
	attach_threads__remove(&th, attach_threads__find(&th, 3));
	cr_assert(attach_threads__has_room(&th));
	add(9, 9);
	cr_assert_not(attach_threads__has_room(&th));
	cr_assert_null(attach_threads__find(&th, 3));
	cr_assert_not_null(attach_threads__find(&th, 9));
}

Test(attach_threads, the_least_recent_is_the_thread_whose_last_record_is_oldest)
{
	cr_assert_eq(attach_threads__init(&th, 64), 0);
	cr_assert_null(attach_threads__least_recent(&th), "an empty table has none");
	add(10, 5000);
	add(11, 3000);
	add(12, 4000);
	cr_assert_eq(attach_threads__least_recent(&th)->tid, 11);
	attach_threads__find(&th, 11)->last_ns = 6000;
	cr_assert_eq(attach_threads__least_recent(&th)->tid, 12);
	attach_threads__remove(&th, attach_threads__find(&th, 12));
	cr_assert_eq(attach_threads__least_recent(&th)->tid, 10);
}
