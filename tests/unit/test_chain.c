// SPDX-License-Identifier: GPL-2.0
/*
 * test_chain.c - a wakeup's chain from the links its record carries: the
 * wait split hop by hop back to the wakee's sleep, the parts adding up to
 * it; each way a chain ends (an interrupt at its root, a softirq a task
 * raised going on through that task, a waker not traced, one running all
 * along, a ping-pong, the depth limit, a link lost); a hop across
 * processes; a wait whose start was not seen.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include "chain.h"

#define US	1000u

/* span - a span as the kernel keeps it (wp_lean_span()) */
static uint32_t span(uint64_t ns)
{
	return (uint32_t)ns + 1;
}

/*
 * thread_link - @waker woke @wakee, asleep @blocked_us; it had run @ran_us
 * since its switch-in on @cpu, where it took the CPU from @holder after
 * @runnable_us runnable
 */
static struct wp_lean_link thread_link(uint32_t waker, uint32_t wakee, uint64_t blocked_us, uint64_t ran_us,
				       uint64_t runnable_us, uint32_t holder, uint16_t cpu)
{
	return (struct wp_lean_link){ .waker_tid = waker, .wakee_tid = wakee, .kind = WP_LINK_THREAD,
				      .blocked = blocked_us ? span(blocked_us * US) : 0, .ran = span(ran_us * US),
				      .runnable = span(runnable_us * US), .holder_tid = holder, .cpu = cpu, .nr = -1 };
}

static struct wp_lean_link other_link(uint8_t kind, uint32_t waker, uint32_t wakee, uint64_t blocked_us)
{
	return (struct wp_lean_link){ .waker_tid = waker, .wakee_tid = wakee, .kind = kind,
				      .blocked = blocked_us ? span(blocked_us * US) : 0, .nr = -1 };
}

/* assert_adds_up - the hops' parts and the rest are the wait, to the ns */
static void assert_adds_up(const struct chain *c)
{
	cr_assert(c->wait_seen);
	cr_assert_eq(chain__on_path_ns(c) + c->rest_ns, c->wait_ns, "%lu on the path + %lu rest != %lu waited",
		     (unsigned long)chain__on_path_ns(c), (unsigned long)c->rest_ns, (unsigned long)c->wait_ns);
}

/*
 * The relay: the client (10) slept 4450 us for its answer; the worker (30)
 * ran 52 us before it answered, after 4370 us runnable on CPU 1 behind the
 * hog (900); the dispatcher (20) woke it after running 40 us, and had been
 * woken by the client's request before the client went to sleep: the walk
 * stops there, the dispatcher's run cut at the client's sleep.
 */
Test(chain, a_relay_splits_the_clients_wait_back_to_its_sleep)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 4450, 52, 4370, 900, 1),
		thread_link(20, 30, 4500, 40, 12, 0, 0),
		thread_link(10, 20, 900, 15, 5, 0, 0),
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 3, 10, &c), 2);
	cr_assert_eq(c.end, CHAIN_END_SLEEP);
	cr_assert_eq(c.hops[0].waker_tid, 30);
	cr_assert_eq(c.hops[0].ran_ns, 52 * US);
	cr_assert_eq(c.hops[0].runnable_ns, 4370 * US);
	cr_assert_eq(c.hops[0].holder_tid, 900);
	cr_assert_eq(c.hops[0].cpu, 1);
	cr_assert_not(c.hops[0].clipped);
	cr_assert_eq(c.hops[1].waker_tid, 20);
	cr_assert_eq(c.hops[1].ran_ns, 28 * US, "what is left of the wait: 4450 - 52 - 4370");
	cr_assert(c.hops[1].clipped);
	cr_assert_eq(c.hops[1].runnable_ns, 0);
	cr_assert_eq(c.rest_ns, 0);
	assert_adds_up(&c);
}

Test(chain, a_waker_preempted_on_the_path_says_for_how_long)
{
	struct wp_lean_link links[] = { thread_link(30, 10, 1000, 300, 20, 0, 1), other_link(WP_LINK_IRQ, 0, 30, 5000) };
	struct chain c;

	links[0].preempted = 250 * US;
	chain__assemble(links, 2, 10, &c);
	cr_assert_eq(c.hops[0].ran_ns, 300 * US);
	cr_assert_eq(c.hops[0].preempted_ns, 250 * US, "within its run, whole on the path");
	assert_adds_up(&c);
}

/* a timer woke the first waker: the wait's rest is that waker's own sleep, the chain's root an interrupt */
Test(chain, an_interrupt_at_the_root_ends_it_and_holds_the_rest)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 1000, 100, 50, 0, 0),
		other_link(WP_LINK_IRQ, 7, 30, 2000),
		thread_link(99, 7, 1, 1, 1, 0, 0),	/* never read: the chain ended */
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 3, 10, &c), 2);
	cr_assert_eq(c.end, CHAIN_END_INTERRUPT);
	cr_assert_eq(c.hops[1].kind, WP_LINK_IRQ);
	cr_assert_eq(c.rest_ns, 850 * US);
	assert_adds_up(&c);
}

/* a send on loopback raises NET_RX, which runs in the sender's own bh enable: the chain goes on through it */
Test(chain, a_softirq_raised_by_a_task_goes_on_through_that_task)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 1000, 100, 50, 0, 0),
		other_link(WP_LINK_RAISED, 40, 30, 900),
		other_link(WP_LINK_SOFTIRQ, 0, 40, 5000),
	};
	struct chain c;

	links[1].ran = span(300 * US);
	links[1].runnable = span(100 * US);
	cr_assert_eq(chain__assemble(links, 3, 10, &c), 3);
	cr_assert_eq(c.hops[1].kind, WP_LINK_RAISED);
	cr_assert_eq(c.hops[1].ran_ns, 300 * US);
	cr_assert_eq(c.end, CHAIN_END_SOFTIRQ, "a softirq nobody raised here: the root");
	cr_assert_eq(c.rest_ns, 450 * US);
	assert_adds_up(&c);
}

/* the tids of another process's threads are links like any other: the chain does not stop at a process */
Test(chain, a_hop_across_processes_is_one_like_any_other)
{
	/* a client (10, process 10) woke by a server thread (5001, process 5000), woken by its acceptor (5002) */
	struct wp_lean_link links[] = {
		thread_link(5001, 10, 3000, 200, 100, 0, 0),
		thread_link(5002, 5001, 2900, 2000, 800, 0, 1),
		thread_link(10, 5002, 2800, 20, 10, 0, 0),
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 3, 10, &c), 2, "the client's own request ends it: its sleep came after");
	cr_assert_eq(c.hops[1].waker_tid, 5002);
	cr_assert_eq(c.hops[1].runnable_ns, 700 * US, "woken by the client's request before the client slept");
	cr_assert_eq(c.end, CHAIN_END_SLEEP);
	assert_adds_up(&c);
}

/* two tasks handing off to each other while the wakee waits: the walk stops at the first repeat */
Test(chain, a_ping_pong_ends_at_its_cycle)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 10000, 100, 10, 0, 0),
		thread_link(40, 30, 500, 100, 10, 0, 0),
		thread_link(30, 40, 500, 100, 10, 0, 0),
		thread_link(40, 30, 500, 100, 10, 0, 0),
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 4, 10, &c), 2);
	cr_assert_eq(c.end, CHAIN_END_CYCLE);
	cr_assert_eq(c.rest_ns, 10000 * US - 220 * US);
	assert_adds_up(&c);
}

Test(chain, the_wakee_itself_waking_its_waker_is_a_cycle)
{
	struct wp_lean_link links[] = { thread_link(30, 10, 10000, 100, 10, 0, 0), thread_link(10, 30, 20, 5, 5, 0, 0) };
	struct chain c;

	links[1].blocked = span(20 * US);
	cr_assert_eq(chain__assemble(links, 2, 10, &c), 1);
	cr_assert_eq(c.end, CHAIN_END_CYCLE);
}

Test(chain, the_links_running_out_end_it_at_the_depth)
{
	struct wp_lean_link links[CHAIN_HOPS];
	struct chain c;

	links[0] = thread_link(100, 10, 100000, 10, 10, 0, 0);
	for (uint32_t i = 1; i < CHAIN_HOPS; i++)
		links[i] = thread_link(100 + i, 100 + i - 1, 100000, 10, 10, 0, 0);
	cr_assert_eq(chain__assemble(links, CHAIN_HOPS, 10, &c), CHAIN_HOPS);
	cr_assert_eq(c.end, CHAIN_END_DEPTH);
	cr_assert_eq(c.rest_ns, 100000 * US - CHAIN_HOPS * 20 * US);
	assert_adds_up(&c);
}

/*
 * A link's waker ended (or its record lost its parts): the link after it
 * is missing, or names another task. The chain up to there stands.
 */
Test(chain, a_link_lost_ends_it_where_it_still_joins)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 1000, 100, 50, 0, 0),
		other_link(WP_LINK_NONE, 0, 0, 0),
	};
	struct wp_lean_link other[] = {
		thread_link(30, 10, 1000, 100, 50, 0, 0),
		thread_link(20, 31, 900, 10, 10, 0, 0),
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 2, 10, &c), 1);
	cr_assert_eq(c.end, CHAIN_END_LOST);
	assert_adds_up(&c);
	cr_assert_eq(chain__assemble(other, 2, 10, &c), 1);
	cr_assert_eq(c.end, CHAIN_END_LOST, "the second link's wakee is not the first's waker");
	cr_assert_eq(chain__assemble(other, 1, 11, &c), 0, "not this wakee's chain");
	cr_assert_eq(c.end, CHAIN_END_LOST);
}

Test(chain, a_waker_not_traced_or_running_all_along_ends_it)
{
	struct wp_lean_link untraced[] = { other_link(WP_LINK_UNTRACED, 77, 10, 600) };
	struct wp_lean_link running[] = { thread_link(30, 10, 600, 0, 0, 0, 0) };
	struct chain c;

	cr_assert_eq(chain__assemble(untraced, 1, 10, &c), 1);
	cr_assert_eq(c.end, CHAIN_END_UNTRACED);
	cr_assert_eq(c.rest_ns, 600 * US);
	running[0].ran = 0;
	cr_assert_eq(chain__assemble(running, 1, 10, &c), 1);
	cr_assert_eq(c.end, CHAIN_END_NOT_BLOCKED);
	cr_assert_not(c.hops[0].run_seen);
	cr_assert_eq(c.rest_ns, 600 * US);
	assert_adds_up(&c);
}

/* a wakee asleep since before it was traced: no wait to split, the hops' times whole, no rest */
Test(chain, a_wait_not_seen_keeps_the_hops_whole)
{
	struct wp_lean_link links[] = {
		thread_link(30, 10, 0, 100, 50, 0, 0),
		thread_link(20, 30, 0, 70, 30, 0, 0),
		other_link(WP_LINK_IRQ, 0, 20, 0),
	};
	struct chain c;

	cr_assert_eq(chain__assemble(links, 3, 10, &c), 3);
	cr_assert_not(c.wait_seen);
	cr_assert_eq(chain__on_path_ns(&c), 250 * US);
	cr_assert_eq(c.end, CHAIN_END_INTERRUPT);
	cr_assert_eq(c.rest_ns, 0);
}

Test(chain, every_end_has_a_name_and_a_meaning)
{
	for (int e = 0; e < NR_CHAIN_ENDS; e++) {
		cr_assert_not_null(chain__end_name(e));
		cr_assert(strlen(chain__end_meaning(e)) > 10);
	}
	cr_assert_str_eq(chain__end_name(CHAIN_END_NOT_BLOCKED), "not_blocked");
}
