// SPDX-License-Identifier: GPL-2.0
/*
 * test_chain_stream.c - the chain links the full engine's stream gives, by
 * the kernel's rules: a relay's three hops with the hog that held the
 * worker's CPU, the time a waker sat preempted, an interrupt's link, a
 * softirq raised by a traced task and by one not traced, a new task's
 * first run, a waking whose WAKER record was lost, a tid that comes back
 * after its task ended, and a wakeup asked for by another waking.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "chain.h"
#include "chain_stream.h"
#include "events.h"

#define US		1000ull
#define ASLEEP		1u	/* TASK_INTERRUPTIBLE */
#define CLIENT		10u
#define DISP		20u
#define WORKER		30u
#define HOG		99u
#define NR_WRITE	1
#define NR_FUTEX	202

static struct chain_stream *cs;

static void setup(void)
{
	cs = chain_stream__new();
	cr_assert_not_null(cs);
}

static void teardown(void)
{
	chain_stream__free(cs);
}

TestSuite(chain_stream, .init = setup, .fini = teardown);

static void add(struct wp_event e)
{
	chain_stream__add(cs, &e);
}

/* wake - @waker, in syscall @nr on @cpu, wakes @wakee at @us: its WAKER, WAKING and WAKEUP */
static void wake(uint64_t us, uint32_t cpu, uint32_t waker, uint32_t wakee, int32_t nr)
{
	add(ev_waker_syscall(us * US, cpu, waker, waker, wakee, nr, 3, 0, 0));
	add(ev_waking(us * US, cpu, waker, wakee, cpu, 0));
	add(ev_wakeup(us * US + 1, cpu, waker, wakee, cpu));
}

/* sleep - @tid leaves @cpu asleep at @us for @next: its BLOCK, then its switch-out, as attach mode writes them */
static void asleep(uint64_t us, uint32_t cpu, uint32_t tid, uint32_t next)
{
	add(ev_block(us * US, cpu, tid, 0, 3, 0, 0));
	add(ev_switch(us * US, cpu, tid, next, ASLEEP, 0));
}

static uint64_t ns_of(uint32_t span)
{
	return wp_lean_span_ns(span);
}

/*
 * relay - a client's request through a dispatcher to a worker whose CPU a
 * hog holds for 4 ms, and the worker's answer: the client's wakeup at
 * 4100 us
 */
static void relay(void)
{
	asleep(1, 1, WORKER, HOG);	/* the worker waits for work */
	asleep(5, 0, DISP, CLIENT);	/* the dispatcher waits for a request */
	wake(10, 0, CLIENT, DISP, NR_WRITE);
	asleep(20, 0, CLIENT, 0);	/* the client waits for its answer */
	add(ev_switch(25 * US, 0, 0, DISP, 0, 0));
	wake(40, 0, DISP, WORKER, NR_FUTEX);
	asleep(50, 0, DISP, 0);
	add(ev_switch(4041 * US, 1, HOG, WORKER, 0, 1));	/* the hog is preempted at last */
	wake(4100, 1, WORKER, CLIENT, NR_WRITE);
	add(ev_switch(4110 * US, 0, 0, CLIENT, 0, 0));
}

Test(chain_stream, a_relays_client_gets_the_worker_and_the_hog_behind_it_then_the_dispatcher)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];
	struct chain c;

	relay();
	cr_assert_eq(chain_stream__links(cs, CLIENT, 4100 * US, l), WP_CHAIN_LINKS);
	/* the worker woke it, after 59 us of its run and 4001 us runnable behind the hog on CPU 1 */
	cr_assert_eq(l[0].waker_tid, WORKER);
	cr_assert_eq(l[0].wakee_tid, CLIENT);
	cr_assert_eq(l[0].kind, WP_LINK_THREAD);
	cr_assert_eq(l[0].nr, NR_WRITE);
	cr_assert_eq(ns_of(l[0].blocked), 4080 * US);
	cr_assert_eq(ns_of(l[0].ran), 59 * US);
	cr_assert_eq(ns_of(l[0].runnable), 4001 * US);
	cr_assert_eq(l[0].holder_tid, HOG);
	cr_assert_eq(l[0].cpu, 1);
	/* the dispatcher woke the worker, asleep since 1 us, after 15 us of its run, taken from the client */
	cr_assert_eq(l[1].waker_tid, DISP);
	cr_assert_eq(l[1].wakee_tid, WORKER);
	cr_assert_eq(l[1].nr, NR_FUTEX);
	cr_assert_eq(ns_of(l[1].blocked), 39 * US);
	cr_assert_eq(ns_of(l[1].ran), 15 * US);
	cr_assert_eq(ns_of(l[1].runnable), 15 * US);
	cr_assert_eq(l[1].holder_tid, 0);
	/* the client woke the dispatcher: the client's own run was not seen to begin, and the links end */
	cr_assert_eq(l[2].waker_tid, CLIENT);
	cr_assert_eq(l[2].ran, 0);
	cr_assert_eq(l[3].kind, WP_LINK_NONE);

	chain__assemble(l, WP_CHAIN_LINKS, CLIENT, &c);
	cr_assert_eq(c.end, CHAIN_END_SLEEP);
	cr_assert_eq(c.nr_hops, 2);
	cr_assert_eq(c.hops[0].holder_tid, HOG);
	cr_assert_eq(chain__on_path_ns(&c) + c.rest_ns, c.wait_ns);
	cr_assert_eq(chain_stream__counters(cs)->wakeups, 3);
}

Test(chain_stream, the_time_a_waker_sat_preempted_before_its_waking_rides_in_its_link)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];

	asleep(1, 0, CLIENT, 0);
	wake(10, 1, DISP, CLIENT, NR_WRITE);			/* the dispatcher, traced, not seen to wake */
	add(ev_switch(20 * US, 0, 0, CLIENT, 0, 0));
	add(ev_switch(30 * US, 0, CLIENT, HOG, 0, 1));	/* preempted 70 us */
	add(ev_switch(100 * US, 0, HOG, CLIENT, 0, 1));
	asleep(120, 1, DISP, 0);
	wake(150, 0, CLIENT, DISP, NR_WRITE);
	add(ev_switch(160 * US, 1, 0, DISP, 0, 0));
	cr_assert_eq(chain_stream__links(cs, DISP, 150 * US, l), WP_CHAIN_LINKS);
	cr_assert_eq(ns_of(l[0].ran), 130 * US);
	cr_assert_eq(l[0].preempted, 70 * US);
	cr_assert_eq(ns_of(l[0].runnable), 10 * US);
	/* the client's own link after it: the dispatcher woke it, unseen how the dispatcher came to run */
	cr_assert_eq(l[1].waker_tid, DISP);
	cr_assert_eq(l[1].kind, WP_LINK_THREAD);
	cr_assert_eq(l[1].ran, 0);
}

/*
 * woken_by - @wakee sleeps on CPU 1 at @us - 5; @waker, a WAKER record on
 * CPU 0, then its WAKING of @wakee at @us there, and its switch-in on CPU 1:
 * the links
 */
static void woken_by(struct wp_event waker, uint32_t wakee, uint64_t us, struct wp_lean_link l[WP_CHAIN_LINKS])
{
	asleep(us - 5, 1, wakee, 0);
	add(waker);
	add(ev_waking(us * US, 0, waker.tid, wakee, 1, 0));
	add(ev_wakeup(us * US, 1, 0, wakee, 1));
	add(ev_switch((us + 2) * US, 1, 0, wakee, 0, 0));
	cr_assert_eq(chain_stream__links(cs, wakee, us * US, l), WP_CHAIN_LINKS);
}

Test(chain_stream, an_interrupt_a_timer_and_an_untraced_process_each_end_a_chain_at_their_link)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];

	woken_by(ev_waker_irq(100 * US, 0, 0, CLIENT, WP_WAKER_IRQ, WP_IRQ_HARD, 30, 99 * US, "nvme"), CLIENT, 100, l);
	cr_assert_eq(l[0].kind, WP_LINK_IRQ);
	cr_assert_eq(ns_of(l[0].blocked), 5 * US);
	woken_by(ev_waker_timer(200 * US, 0, 0, CLIENT, 199 * US, 0xffffffff81000000ull), CLIENT, 200, l);
	cr_assert_eq(l[0].kind, WP_LINK_IRQ);
	woken_by(ev_waker_named(300 * US, 0, 777, 777, CLIENT, WP_WAKER_PROCESS, "other"), CLIENT, 300, l);
	cr_assert_eq(l[0].kind, WP_LINK_UNTRACED);
	cr_assert_eq(l[0].waker_tid, 777);
	cr_assert_eq(l[1].kind, WP_LINK_NONE);
}

Test(chain_stream, a_softirq_goes_on_through_the_traced_task_that_raised_it_and_ends_at_one_not_traced)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];
	struct wp_event raised = ev_waker_irq(100 * US, 0, DISP, CLIENT, WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, 0, NULL);

	raised.waker.flags = WP_WAKER_RAISED;
	/* the dispatcher came to run on CPU 0 from a wakeup the stream saw */
	asleep(1, 0, DISP, 0);
	wake(50, 1, WORKER, DISP, NR_WRITE);
	add(ev_switch(60 * US, 0, 0, DISP, 0, 0));
	woken_by(raised, CLIENT, 100, l);
	cr_assert_eq(l[0].kind, WP_LINK_RAISED);
	cr_assert_eq(l[0].waker_tid, DISP);
	cr_assert_eq(ns_of(l[0].ran), 40 * US);
	cr_assert_eq(l[1].waker_tid, WORKER);

	raised.tid = 4444;
	woken_by(raised, CLIENT, 200, l);
	cr_assert_eq(l[0].kind, WP_LINK_UNTRACED);
	woken_by(ev_waker_irq(300 * US, 0, DISP, CLIENT, WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, 0, NULL), CLIENT, 300, l);
	cr_assert_eq(l[0].kind, WP_LINK_SOFTIRQ);
}

Test(chain_stream, a_new_tasks_first_run_is_a_new_link_with_no_sleep_and_a_tid_that_comes_back_is_another_task)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];

	add(ev_switch(1 * US, 0, 0, DISP, 0, 0));
	add(ev_waker_syscall(10 * US, 0, DISP, DISP, 500, 56, 0, 0, 0));
	add(ev_wakeup_new(10 * US, 0, DISP, 500, 1, 0));
	add(ev_switch(15 * US, 1, 0, 500, 0, 0));
	cr_assert_eq(chain_stream__links(cs, 500, 10 * US, l), WP_CHAIN_LINKS);
	cr_assert_eq(l[0].kind, WP_LINK_NEW);
	cr_assert_eq(l[0].waker_tid, DISP);
	cr_assert_eq(l[0].blocked, 0);
	cr_assert_eq(ns_of(l[0].runnable), 0);

	/* it ends; a task that comes under its tid is woken by an interrupt: nothing of the first */
	add(ev_switch(20 * US, 1, 500, 0, WP_TASK_DEAD, 0));
	cr_assert_eq(chain_stream__links(cs, 500, 10 * US, l), 0);
	woken_by(ev_waker_irq(100 * US, 0, 0, 500, WP_WAKER_IRQ, WP_IRQ_HARD, 30, 99 * US, "nvme"), 500, 100, l);
	cr_assert_eq(l[0].kind, WP_LINK_IRQ);
	cr_assert_eq(ns_of(l[0].blocked), 5 * US);
}

Test(chain_stream, a_waking_whose_waker_record_was_lost_makes_an_unsure_link_and_is_counted)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];

	asleep(1, 0, CLIENT, 0);
	/* a WAKER for another wakee is not this waking's */
	add(ev_waker_syscall(9 * US, 0, DISP, DISP, WORKER, NR_WRITE, 3, 0, 0));
	add(ev_waking(10 * US, 0, DISP, CLIENT, 0, 0));
	add(ev_wakeup(10 * US, 0, DISP, CLIENT, 0));
	add(ev_switch(12 * US, 0, DISP, CLIENT, 0, 1));
	cr_assert_eq(chain_stream__links(cs, CLIENT, 10 * US, l), WP_CHAIN_LINKS);
	cr_assert_eq(l[0].kind, WP_LINK_UNSURE);
	cr_assert_eq(chain_stream__counters(cs)->no_waker, 1);
}

Test(chain_stream, a_wakeup_is_given_its_own_links_and_none_for_another_waking_or_one_not_yet_run)
{
	struct wp_lean_link l[WP_CHAIN_LINKS];

	relay();
	cr_assert_eq(chain_stream__links(cs, CLIENT, 4099 * US, l), 0);
	cr_assert_eq(chain_stream__links(cs, 12345, 4100 * US, l), 0);
	cr_assert_eq(chain_stream__links(cs, 0, 4100 * US, l), 0);
	/* woken again and not run yet: the links asked for are still the last run's */
	asleep(4200, 0, CLIENT, 0);
	wake(4300, 1, WORKER, CLIENT, NR_WRITE);
	cr_assert_eq(chain_stream__links(cs, CLIENT, 4300 * US, l), 0);
	cr_assert_eq(chain_stream__links(cs, CLIENT, 4100 * US, l), WP_CHAIN_LINKS);
	cr_assert_eq(l[0].holder_tid, HOG);
}
