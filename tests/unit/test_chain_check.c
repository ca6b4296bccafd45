// SPDX-License-Identifier: GPL-2.0
/*
 * test_chain_check.c - the stream's chains held against the kernel's: the
 * same hop for hop with their times apart by the clock reads, a waker, a
 * holder, a hop count or an end that differs, a waking with no kernel's
 * chain, the kernel's of earlier wakings let go, and a task whose place
 * another holds.
 */
#include <criterion/criterion.h>
#include <string.h>
#include "chain_check.h"

#define US	1000ull

static struct chain_check *cc;

static void setup(void)
{
	cc = chain_check__new();
	cr_assert_not_null(cc);
}

static void teardown(void)
{
	chain_check__free(cc);
}

TestSuite(chain_check, .init = setup, .fini = teardown);

/* relay_chain - the worker 30 woke the client after running @ran_us, runnable behind the hog 99; then the dispatcher */
static struct chain relay_chain(uint64_t ran_us)
{
	struct chain c = { .wait_seen = true, .wait_ns = 5000 * US, .nr_hops = 2, .end = CHAIN_END_SLEEP };

	c.hops[0] = (struct chain_hop){ .waker_tid = 30, .wakee_tid = 10, .kind = WP_LINK_THREAD, .run_seen = true,
					.ran_ns = ran_us * US, .runnable_ns = 4000 * US, .holder_tid = 99, .cpu = 1 };
	c.hops[1] = (struct chain_hop){ .waker_tid = 20, .wakee_tid = 30, .kind = WP_LINK_THREAD, .run_seen = true,
					.ran_ns = 15 * US, .runnable_ns = 5 * US, .holder_tid = 0, .cpu = 0 };
	return c;
}

Test(chain_check, the_same_chain_apart_by_its_clock_reads_is_the_same)
{
	struct chain k = relay_chain(59), s = relay_chain(61);
	uint64_t diff;

	chain_check__kernel(cc, 10, 1000 * US, &k);
	cr_assert_eq(chain_check__stream(cc, 10, 1000 * US + 700, &s, &diff), CHAIN_SAME);
	cr_assert_eq(diff, 2 * US);
	cr_assert_eq(chain_check__counters(cc)->same, 1);
	cr_assert_eq(chain_check__counters(cc)->max_time_diff_ns, 2 * US);
	cr_assert_eq(chain_check__counters(cc)->hops, 2);
	cr_assert_str_eq(chain_check__verdict_name(CHAIN_SAME), "same");
	cr_assert_null(chain_check__verdict_name(CHAIN_UNCHECKED));
}

Test(chain_check, a_waker_a_holder_a_hop_or_an_end_that_differs_is_named)
{
	struct chain k = relay_chain(59), s;
	uint64_t diff;

	s = relay_chain(59);
	s.hops[0].holder_tid = 98;
	chain_check__kernel(cc, 10, 1000 * US, &k);
	cr_assert_eq(chain_check__stream(cc, 10, 1000 * US, &s, &diff), CHAIN_DIFFERS);
	cr_assert(strstr(chain_check__counters(cc)->first_difference, "hop 1: the kernel's took CPU 1 from 99, the "
		  "stream's CPU 1 from 98"), "%s", chain_check__counters(cc)->first_difference);

	s = relay_chain(59);
	s.hops[1].waker_tid = 21;
	chain_check__kernel(cc, 10, 2000 * US, &k);
	cr_assert_eq(chain_check__stream(cc, 10, 2000 * US, &s, &diff), CHAIN_DIFFERS);
	s = relay_chain(59);
	s.nr_hops = 1;
	chain_check__kernel(cc, 10, 3000 * US, &k);
	cr_assert_eq(chain_check__stream(cc, 10, 3000 * US, &s, &diff), CHAIN_DIFFERS);
	s = relay_chain(59);
	s.end = CHAIN_END_CYCLE;
	chain_check__kernel(cc, 10, 4000 * US, &k);
	cr_assert_eq(chain_check__stream(cc, 10, 4000 * US, &s, &diff), CHAIN_DIFFERS);
	cr_assert_eq(chain_check__counters(cc)->differ, 4);
	cr_assert_eq(chain_check__counters(cc)->same, 0);
	/* the first difference is kept, not the last */
	cr_assert(strstr(chain_check__counters(cc)->first_difference, "hop 1:"));
}

Test(chain_check, a_waking_is_matched_within_its_window_and_the_kernels_before_it_are_let_go)
{
	struct chain c = relay_chain(59);
	uint64_t diff;

	chain_check__kernel(cc, 10, 1000 * US, &c);
	chain_check__kernel(cc, 10, 2000 * US, &c);
	chain_check__kernel(cc, 10, 3000 * US, &c);
	/* the stream saw no wakeup at 1000 us: that one is let go, 2000 us matched */
	cr_assert_eq(chain_check__stream(cc, 10, 2000 * US - 30 * US, &c, &diff), CHAIN_SAME);
	cr_assert_eq(chain_check__counters(cc)->kernel_unmatched, 1);
	/* 60 us from the next kernel's waking is another waking */
	cr_assert_eq(chain_check__stream(cc, 10, 3000 * US - 60 * US, &c, &diff), CHAIN_NO_KERNEL);
	cr_assert_eq(chain_check__stream(cc, 10, 3000 * US, &c, &diff), CHAIN_SAME);
	/* a task the kernel gave nothing for */
	cr_assert_eq(chain_check__stream(cc, 11, 3000 * US, &c, &diff), CHAIN_NO_KERNEL);
	cr_assert_eq(chain_check__counters(cc)->no_kernel, 2);
	cr_assert_eq(chain_check__counters(cc)->kernel, 3);
	cr_assert_eq(chain_check__counters(cc)->compared, 2);
}

Test(chain_check, a_task_whose_place_another_holds_is_not_kept_and_a_full_ring_gives_up_its_oldest)
{
	struct chain c = relay_chain(59);
	uint64_t diff;

	chain_check__kernel(cc, 10, 1000 * US, &c);
	chain_check__kernel(cc, 10 + CHAIN_CHECK_TASKS, 1000 * US, &c);
	cr_assert_eq(chain_check__counters(cc)->kernel_not_kept, 1);
	cr_assert_eq(chain_check__stream(cc, 10 + CHAIN_CHECK_TASKS, 1000 * US, &c, &diff), CHAIN_NO_KERNEL);
	cr_assert_eq(chain_check__stream(cc, 10, 1000 * US, &c, &diff), CHAIN_SAME);
	/* its place free again, the other task takes it */
	for (uint64_t i = 0; i <= CHAIN_CHECK_PER_TASK; i++)
		chain_check__kernel(cc, 10 + CHAIN_CHECK_TASKS, (i + 1) * 1000 * US, &c);
	cr_assert_eq(chain_check__counters(cc)->kernel_not_kept, 2);
	cr_assert_eq(chain_check__stream(cc, 10 + CHAIN_CHECK_TASKS, 1000 * US, &c, &diff), CHAIN_NO_KERNEL);
	cr_assert_eq(chain_check__stream(cc, 10 + CHAIN_CHECK_TASKS, 2000 * US, &c, &diff), CHAIN_SAME);
}
