// SPDX-License-Identifier: GPL-2.0
/*
 * test_chain_hops.c - a chain's hops told of their wakers' own wakeups:
 * the explanation of the one that brought a hop's waker, found by its
 * waking; that wakeup's waker's stacks on the next hop; a wakeup not
 * explained lends its stacks alone; a thread's last two kept, not three.
 */
#include <criterion/criterion.h>
#include <string.h>
#include "chain_hops.h"

#define US	1000ull

static struct chain_hops *h;

static void setup(void)
{
	h = chain_hops__new();
	cr_assert_not_null(h);
}

static void teardown(void)
{
	chain_hops__free(h);
}

TestSuite(chain_hops, .init = setup, .fini = teardown);

/* worker_woken - the worker (30) woken at @waking_us by the dispatcher (20), from its user stack @user */
static void worker_woken(uint64_t waking_us, int32_t user, bool explained)
{
	struct sample_result sr;

	memset(&sr, 0, sizeof(sr));
	sr.sample.waker_tid = 20;
	sr.stacked = true;
	sr.stacks = (struct wp_lean_stacks){ .waker_user = user, .waker_kernel = 9, .waker_tgid = 10 };
	sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK] = 90 * US;
	sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OWN_WORK] = 10 * US;
	chain_hops__remember(h, 30, waking_us * US, &sr, explained);
}

/* client_chain - the client (10) woken at 1000 us by the worker, which ran 50 us after 100 us runnable */
static void client_chain(struct wp_lean_link l[2], struct chain *c)
{
	l[0] = (struct wp_lean_link){ .waker_tid = 30, .wakee_tid = 10, .kind = WP_LINK_THREAD,
				      .blocked = wp_lean_span(900 * US), .ran = wp_lean_span(50 * US),
				      .runnable = wp_lean_span(100 * US), .holder_tid = 99, .nr = -1 };
	l[1] = (struct wp_lean_link){ .waker_tid = 20, .wakee_tid = 30, .kind = WP_LINK_THREAD,
				      .ran = wp_lean_span(20 * US), .runnable = wp_lean_span(5 * US), .nr = -1 };
	chain__assemble(l, 2, 10, c);
	cr_assert_eq(c->nr_hops, 2);
}

Test(chain_hops, the_wakeup_that_brought_a_hops_waker_explains_it_and_lends_its_stacks_to_the_next_hop)
{
	struct wp_lean_link l[2];
	struct chain c;

	worker_woken(850, 5, true);
	client_chain(l, &c);
	chain_hops__explain(h, l, 1000 * US, &c);
	cr_assert(c.hops[0].runnable_explained);
	cr_assert_eq(c.hops[0].runnable_by_cause[CAUSE_OTHER_TASK], 90 * US);
	cr_assert_eq(c.hops[0].runnable_by_cause[CAUSE_OWN_WORK], 10 * US);
	/* the dispatcher woke the worker from its user stack 5: the second hop's */
	cr_assert(c.hops[1].stacked);
	cr_assert_eq(c.hops[1].waker_user, 5);
	cr_assert_eq(c.hops[1].waker_kernel, 9);
	cr_assert_eq(c.hops[1].waker_tgid, 10);
	cr_assert_not(c.hops[0].stacked, "the first hop's are the wakeup's own, the caller's to give");
}

Test(chain_hops, a_wakeup_not_explained_lends_its_stacks_alone)
{
	struct wp_lean_link l[2];
	struct chain c;

	worker_woken(850, 5, false);
	client_chain(l, &c);
	chain_hops__explain(h, l, 1000 * US, &c);
	cr_assert_not(c.hops[0].runnable_explained);
	cr_assert(c.hops[1].stacked);
}

Test(chain_hops, a_threads_last_two_wakeups_are_kept_and_not_a_third)
{
	struct wp_lean_link l[2];
	struct chain c;

	worker_woken(850, 5, true);
	worker_woken(1200, 6, true);
	client_chain(l, &c);
	chain_hops__explain(h, l, 1000 * US, &c);
	cr_assert(c.hops[0].runnable_explained, "its next wakeup came before the chain was read");
	cr_assert_eq(c.hops[1].waker_user, 5);
	worker_woken(1300, 7, true);
	client_chain(l, &c);
	chain_hops__explain(h, l, 1000 * US, &c);
	cr_assert_not(c.hops[0].runnable_explained);
	cr_assert_not(c.hops[1].stacked);
}
