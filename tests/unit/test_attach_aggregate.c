/* SPDX-License-Identifier: GPL-2.0 */
/* test_attach_aggregate.c - attach mode's tables: pairs, futexes, phases, labels, and their bounds */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "attach_aggregate.h"

#define PROC		2000u
#define WAKER		2001u
#define WAKEE		2002u
#define WORKER		2003u
#define OTHER_PROC	4000u
#define FUTEX_A		0x7f1000ull
#define FUTEX_B		0x7f2000ull

static struct attach_aggregate *g;

static void setup(void)
{
	g = attach_aggregate__new();
	cr_assert_not_null(g);
}

static void teardown(void)
{
	attach_aggregate__free(g);
	g = NULL;
}

/* a broken index loops in its probes rather than failing: the timeout makes that a failure */
TestSuite(attach_aggregate, .init = setup, .fini = teardown, .timeout = 30);

/*
 * complete - a complete wakeup of @wakee by a thread @waker of PROC in a
 * syscall, through @mechanism: notify_kernel 100 ns, wake_enqueue 200 ns,
 * the rest of @wake_to_run in runq_wait, resume_kernel 300 ns
 */
static struct attach_result complete(uint32_t waker, uint32_t wakee, const char *mechanism, int64_t wake_to_run)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.phased = true;
	r.sr.sample.waker_tid = waker;
	r.sr.sample.wakee_tid = wakee;
	r.sr.phase_ns[PHASE_NOTIFY_KERNEL] = 100;
	r.sr.phase_ns[PHASE_WAKE_ENQUEUE] = 200;
	r.sr.phase_ns[PHASE_RUNQ_WAIT] = wake_to_run - 200;
	r.sr.phase_ns[PHASE_RESUME_KERNEL] = 300;
	r.sr.total_ns = 100 + wake_to_run + 300;
	r.sr.waking_cpu = 0;
	r.sr.wakeup_cpu = 1;
	r.absent[PHASE_NOTIFY_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r.absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r.waker.cls = WP_WAKER_SYSCALL;
	r.waker.tid = waker;
	r.waker.tgid = PROC;
	r.waker.nr = SYS_write;
	r.wakee_tgid = PROC;
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "consumer");
	r.wait.known = true;
	r.wait.nr = SYS_read;
	r.wake_to_run_ns = wake_to_run;
	r.notify_to_return_ns = -1;
	r.waited_ns = -1;
	r.family = MECH_EVENTFD;
	snprintf(r.mechanism, sizeof(r.mechanism), "%s", mechanism);
	return r;
}

/* timer_woken - as complete(), woken by a timer: no notify_kernel */
static struct attach_result timer_woken(uint32_t wakee, const char *mechanism, int64_t wake_to_run)
{
	struct attach_result r = complete(0, wakee, mechanism, wake_to_run);

	memset(&r.waker, 0, sizeof(r.waker));
	r.waker.cls = WP_WAKER_TIMER;
	r.waker.nr = -1;
	r.absent[PHASE_NOTIFY_KERNEL] = ATTACH_ABSENT_WAKER_INTERRUPT;
	r.sr.phase_ns[PHASE_NOTIFY_KERNEL] = 0;
	r.sr.total_ns -= 100;
	r.family = MECH_TIMER;
	return r;
}

/* futex_handoff - @waker's FUTEX_WAKE on @wake_addr ends @wakee's FUTEX_WAIT on @wait_addr, @waited long */
static struct attach_result futex_handoff(uint32_t waker, uint64_t wake_addr, uint32_t wakee, uint64_t wait_addr,
					  int64_t waited)
{
	struct attach_result r = complete(waker, wakee, "futex", 1000);

	r.waker.nr = SYS_futex;
	r.waker.arg = wake_addr;
	r.waker.arg2 = FUTEX_WAKE_PRIVATE;
	r.wait.nr = SYS_futex;
	r.wait.arg = wait_addr;
	r.wait.arg2 = FUTEX_WAIT_PRIVATE;
	r.waited_ns = waited;
	r.family = MECH_FUTEX;
	return r;
}

static void add(struct attach_result r)
{
	attach_aggregate__add(g, &r);
}

Test(attach_aggregate, pairs_come_most_frequent_or_most_costly_first_with_their_figures)
{
	const struct attach_pair *by_count[8], *by_cost[8];
	struct attach_result r;
	size_t n;

	/* WAKER -> WAKEE through a futex, three times; two of them with both ends known */
	r = complete(WAKER, WAKEE, "futex 0x7f1000 wake -> wait", 1000);
	r.notify_to_return_ns = 5000;
	add(r);
	r = complete(WAKER, WAKEE, "futex 0x7f1000 wake -> wait", 2000);
	r.notify_to_return_ns = 7000;
	add(r);
	add(complete(WAKER, WAKEE, "futex 0x7f1000 wake -> wait", 3000));
	/* a timer, once, slowly */
	add(timer_woken(WAKEE, "timer (sleep ended)", 50000));
	/* two pairs alike in count and time: the key decides, the waker's tid first */
	add(complete(WORKER + 1, WAKEE, "eventfd write -> read", 100));
	add(complete(WORKER + 1, WAKEE, "eventfd write -> read", 100));
	add(complete(WORKER, WAKEE, "eventfd write -> read", 100));
	add(complete(WORKER, WAKEE, "eventfd write -> read", 100));

	n = attach_aggregate__pairs(g, ATTACH_ORDER_COUNT, by_count, 8);
	cr_assert_eq(n, 4);
	cr_assert_eq(g->nr_pairs, 4);
	cr_assert_str_eq(by_count[0]->mechanism, "futex 0x7f1000 wake -> wait");
	cr_assert_eq(by_count[0]->count, 3);
	cr_assert_eq(by_count[0]->waker_id, WAKER);
	cr_assert_str_eq(by_count[0]->waker, "thread 2001");
	cr_assert_eq(by_count[0]->wakee_tid, WAKEE);
	cr_assert_str_eq(by_count[0]->wakee_comm, "consumer");
	/* nearest rank: the 2nd of 3, the midpoint of its bucket [2000, 2007]; the top rank is the max */
	cr_assert_eq(histogram__percentile(&by_count[0]->wake_to_run, 50), 2003);
	cr_assert_eq(histogram__percentile(&by_count[0]->wake_to_run, 99), 3000);
	cr_assert_eq(by_count[0]->wake_to_run.max, 3000);
	cr_assert_eq(by_count[0]->wake_to_run.sum, 6000);
	cr_assert_eq(by_count[0]->notify_to_return.count, 2, "only where both ends are known");
	cr_assert_eq(by_count[0]->notify_to_return.max, 7000);
	cr_assert_eq(by_count[1]->waker_id, WORKER);
	cr_assert_eq(by_count[1]->count, 2);
	cr_assert_eq(by_count[2]->waker_id, WORKER + 1);
	cr_assert_str_eq(by_count[3]->mechanism, "timer (sleep ended)");
	cr_assert_str_eq(by_count[3]->waker, "timer");
	cr_assert_eq(by_count[3]->count, 1);

	n = attach_aggregate__pairs(g, ATTACH_ORDER_COST, by_cost, 2);
	cr_assert_eq(n, 2, "no more than asked for");
	cr_assert_str_eq(by_cost[0]->mechanism, "timer (sleep ended)");
	cr_assert_eq(by_cost[0]->wake_to_run.sum, 50000);
	cr_assert_eq(by_cost[1], by_count[0]);
}

/*
 * A process-shared semaphore: the word is mapped at another address in
 * each process, and its key (the file and offset) makes it one row with
 * the waits of one process and the wakes of the other, and both named
 */
Test(attach_aggregate, a_shared_futex_word_is_one_row_for_every_process_that_uses_it)
{
	const struct futex_key key = { .shared = true, .dev = 0x2d, .ino = 4711, .offset = 0x40 };
	const struct attach_futex *rows[4];
	struct attach_result r;

	for (int i = 0; i < 3; i++) {
		r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_B, 1000);
		r.waker.arg2 = FUTEX_WAKE;
		r.wait.arg2 = FUTEX_WAIT_BITSET;
		r.waker.tgid = OTHER_PROC;
		r.waker.futex = key;
		r.wait.futex = key;
		add(r);
	}
	/* a private word at the same address as the waker's is another row */
	add(futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 1000));
	cr_assert_eq(attach_aggregate__futexes(g, ATTACH_ORDER_COUNT, rows, 4), 2);
	cr_assert(rows[0]->key.shared);
	cr_assert_eq(rows[0]->key.ino, 4711);
	cr_assert_eq(rows[0]->waits, 3);
	cr_assert_eq(rows[0]->wakes, 3);
	cr_assert_eq(rows[0]->nr_tgids, 2);
	cr_assert_eq(rows[0]->tgids[0], PROC, "the waiter's process");
	cr_assert_eq(rows[0]->tgids[1], OTHER_PROC, "the waker's");
	cr_assert_not(rows[1]->key.shared);
	cr_assert_eq(rows[1]->addr, FUTEX_A);
	cr_assert_eq(rows[1]->count, 2);
}

Test(attach_aggregate, the_futex_table_counts_waits_wakes_the_time_waited_and_the_threads)
{
	const struct attach_futex *by_count[4], *by_cost[4];
	struct attach_result r;
	size_t n;

	/* WAKER wakes WAKEE, both on A: one row, a wait and a wake */
	add(futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 10000));
	/* WORKER's wait on A times out: a wait, no wake */
	r = futex_handoff(0, 0, WORKER, FUTEX_A, 30000);
	memset(&r.waker, 0, sizeof(r.waker));
	r.waker.cls = WP_WAKER_TIMER;
	add(r);
	/* a wake on A ends a wait on B (requeued): a wake for A, a wait for B */
	add(futex_handoff(WAKER, FUTEX_A, WORKER, FUTEX_B, 90000));
	/* woken on A, asleep again in the same futex call: a wake, and the wait is not over */
	r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, -1);
	r.absent[PHASE_RESUME_KERNEL] = ATTACH_ABSENT_SLEPT_AGAIN;
	add(r);
	/* a wait whose entry was not seen: counted, not timed */
	add(futex_handoff(WAKER, FUTEX_A, WORKER + 2, FUTEX_A, -1));
	/* the same address in another process is another futex */
	r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 500);
	r.wakee_tgid = OTHER_PROC;
	r.waker.tgid = OTHER_PROC;
	add(r);
	/* a wakeup that is not complete is in no table */
	r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 1000000);
	r.sr.label = LABEL_LOST_EVENTS;
	add(r);

	n = attach_aggregate__futexes(g, ATTACH_ORDER_COUNT, by_count, 4);
	cr_assert_eq(n, 3);
	cr_assert_eq(by_count[0]->tgid, PROC);
	cr_assert_eq(by_count[0]->addr, FUTEX_A);
	cr_assert_eq(by_count[0]->waits, 3);
	cr_assert_eq(by_count[0]->wakes, 4);
	cr_assert_eq(by_count[0]->waits_timed, 2);
	cr_assert_eq(by_count[0]->wait_total_ns, 40000);
	cr_assert_eq(by_count[0]->wait_max_ns, 30000);
	cr_assert_eq(by_count[0]->nr_tids, 4);
	cr_assert_eq(by_count[0]->tids[0], WAKEE);
	cr_assert_eq(by_count[0]->tids[1], WAKER);
	cr_assert_eq(by_count[0]->tids[2], WORKER);
	cr_assert_eq(by_count[0]->tids[3], WORKER + 2);
	cr_assert_eq(by_count[1]->tgid, OTHER_PROC, "two entries, before B's one");
	cr_assert_eq(by_count[1]->waits, 1);
	cr_assert_eq(by_count[1]->wakes, 1);
	cr_assert_eq(by_count[2]->addr, FUTEX_B);
	cr_assert_eq(by_count[2]->waits, 1);
	cr_assert_eq(by_count[2]->wakes, 0);
	cr_assert_eq(by_count[2]->wait_total_ns, 90000);

	n = attach_aggregate__futexes(g, ATTACH_ORDER_COST, by_cost, 4);
	cr_assert_eq(n, 3);
	cr_assert_eq(by_cost[0]->addr, FUTEX_B, "the most time waited");
	cr_assert_eq(by_cost[1]->addr, FUTEX_A);
	cr_assert_eq(by_cost[1]->tgid, PROC);
	cr_assert_eq(by_cost[2]->tgid, OTHER_PROC);
	cr_assert_eq(g->futexes_evicted, 0);
	cr_assert_eq(g->futexes_replaced, 0);
	/* every word's, summed: the waits that ended, the wakes, and their time */
	cr_assert_eq(g->futex_waits, 5);
	cr_assert_eq(g->futex_wakes, 5);
	cr_assert_eq(g->futex_waits_timed, 4);
	cr_assert_eq(g->futex_wait_total_ns, 130500);
	for (n = 0; n < 3; n++) {
		cr_assert_eq(by_count[n]->count, by_count[n]->waits + by_count[n]->wakes, "exact: no row replaced");
		cr_assert_eq(by_count[n]->error, 0);
	}
}

/*
 * Untimed waits (no program on syscalls, as with the lean engine): the
 * switch-in ends a complete one, and it is counted with no length; one
 * whose wakeup is not complete is not.
 */
Test(attach_aggregate, untimed_waits_end_at_their_switch_in_and_count_without_a_length)
{
	static const uint8_t why[] = { ATTACH_ABSENT_UNTIMED, ATTACH_ABSENT_UNTIMED };
	const struct attach_futex *rows[2];
	struct attach_result r;

	for (size_t i = 0; i < sizeof(why); i++) {
		r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, -1);
		r.absent[PHASE_RESUME_KERNEL] = why[i];
		add(r);
	}
	r = futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, -1);
	r.absent[PHASE_RESUME_KERNEL] = ATTACH_ABSENT_UNTIMED;
	r.sr.label = LABEL_MISSING_EVENT;
	add(r);

	cr_assert_eq(attach_aggregate__futexes(g, ATTACH_ORDER_COUNT, rows, 2), 1);
	cr_assert_eq(rows[0]->waits, 2);
	cr_assert_eq(rows[0]->waits_timed, 0);
	cr_assert_eq(rows[0]->wait_total_ns, 0);
	cr_assert_eq(rows[0]->wakes, 2, "a wakeup that is not complete is in no table");
}

/* ---------------------------------------------------- the Space-Saving tables */

#define ONE_OFF		100000u	/* wakers from here on come once */

/* fixed-seed xorshift64: every run sees the same stream */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* shuffle - @v in an order fixed by @seed (Fisher-Yates) */
static void shuffle(uint32_t *v, size_t n, uint64_t seed)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = next_random(&seed) % (i + 1);
		uint32_t t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* find_pair - the row of waker @waker's pair with WAKEE, NULL when it has none */
static const struct attach_pair *find_pair(uint32_t waker)
{
	for (uint32_t i = 0; i < g->nr_pairs; i++)
		if (g->pairs[i]->waker_id == waker)
			return g->pairs[i];
	return NULL;
}

static const struct attach_futex *find_futex(uint64_t addr)
{
	for (uint32_t i = 0; i < g->nr_futexes; i++)
		if (g->futexes[i].addr == addr)
			return &g->futexes[i];
	return NULL;
}

/*
 * assert_pairs_add_up - every complete wakeup is in one row's own count
 * (count - error, which its histogram holds) or in pairs_evicted; the
 * counts add up to the stream and the errors to what was evicted
 */
static void assert_pairs_add_up(void)
{
	uint64_t own = 0, counts = 0, errors = 0;

	for (uint32_t i = 0; i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];

		cr_assert_geq(p->count, p->error + 1, "row %u", i);
		cr_assert_eq(p->wake_to_run.count, p->count - p->error, "row %u: its histogram is its own wakeups", i);
		own += p->count - p->error;
		counts += p->count;
		errors += p->error;
	}
	cr_assert_eq(own + g->pairs_evicted, g->complete);
	cr_assert_eq(counts, g->complete);
	cr_assert_eq(errors, g->pairs_evicted);
}

/* assert_futexes_add_up - as assert_pairs_add_up(), over every futex wait and wake */
static void assert_futexes_add_up(void)
{
	uint64_t own = 0, counts = 0, errors = 0;

	for (uint32_t i = 0; i < g->nr_futexes; i++) {
		const struct attach_futex *f = &g->futexes[i];

		cr_assert_geq(f->count, f->error + 1, "row %u", i);
		cr_assert_eq(f->waits + f->wakes, f->count - f->error, "row %u", i);
		own += f->count - f->error;
		counts += f->count;
		errors += f->error;
	}
	cr_assert_eq(own + g->futexes_evicted, g->futex_waits + g->futex_wakes);
	cr_assert_eq(counts, g->futex_waits + g->futex_wakes);
	cr_assert_eq(errors, g->futexes_evicted);
}

/* assert_index_holds_each_row_once - @index (@slots) names each of @rows rows once, and nothing else */
static void assert_index_holds_each_row_once(const uint16_t *index, size_t slots, uint32_t rows)
{
	uint32_t seen[ATTACH_AGG_MAX_FUTEXES + 1] = { 0 };
	uint32_t used = 0;

	for (size_t i = 0; i < slots; i++) {
		if (!index[i])
			continue;
		cr_assert_leq(index[i], rows, "slot %zu", i);
		seen[index[i]]++;
		used++;
	}
	cr_assert_eq(used, rows);
	for (uint32_t r = 1; r <= rows; r++)
		cr_assert_eq(seen[r], 1, "row %u", r);
}

Test(attach_aggregate, the_counts_are_exact_while_every_pair_and_word_has_a_row)
{
	uint32_t i;

	for (i = 0; i < ATTACH_AGG_MAX_PAIRS; i++)
		add(complete(10000 + i, WAKEE, "eventfd write -> read", 1000));
	add(complete(10000, WAKEE, "eventfd write -> read", 1000));
	cr_assert_eq(g->nr_pairs, ATTACH_AGG_MAX_PAIRS);
	cr_assert_eq(g->pairs_replaced, 0);
	cr_assert_eq(g->pairs_evicted, 0);
	cr_assert_eq(g->pairs[0]->count, 2);
	for (i = 0; i < g->nr_pairs; i++)
		cr_assert_eq(g->pairs[i]->error, 0);
	assert_pairs_add_up();

	for (i = 0; i < ATTACH_AGG_MAX_FUTEXES; i++)
		add(futex_handoff(WAKER, FUTEX_A + 4 * i, WAKEE, FUTEX_A + 4 * i, 100));
	cr_assert_eq(g->nr_futexes, ATTACH_AGG_MAX_FUTEXES);
	cr_assert_eq(g->futexes_replaced, 0);
	cr_assert_eq(g->futexes_evicted, 0);
	for (i = 0; i < g->nr_futexes; i++) {
		cr_assert_eq(g->futexes[i].count, 2, "a wait and a wake");
		cr_assert_eq(g->futexes[i].error, 0);
	}
	assert_futexes_add_up();
}

Test(attach_aggregate, a_pair_past_the_full_table_takes_the_least_counted_row_afresh)
{
	const struct attach_pair *p;
	struct attach_result r;
	uint32_t i;

	for (i = 0; i < ATTACH_AGG_MAX_PAIRS; i++)
		add(complete(10000 + i, WAKEE, "eventfd write -> read", 1000));
	/* the first row is counted three times: the second is the first of the least counted */
	add(complete(10000, WAKEE, "eventfd write -> read", 1000));
	add(complete(10000, WAKEE, "eventfd write -> read", 1000));
	r = timer_woken(WAKEE, "timer (sleep ended)", 7777);
	r.notify_to_return_ns = 9999;
	add(r);

	cr_assert_eq(g->nr_pairs, ATTACH_AGG_MAX_PAIRS);
	cr_assert_eq(g->pairs_replaced, 1);
	cr_assert_eq(g->pairs_evicted, 1, "the replaced pair's one wakeup is in no row now");
	cr_assert_null(find_pair(10001), "the replaced pair has no row");
	p = g->pairs[1];
	cr_assert_str_eq(p->mechanism, "timer (sleep ended)");
	cr_assert_str_eq(p->waker, "timer", "named by its own wakeup");
	cr_assert_eq(p->family, MECH_TIMER);
	cr_assert_eq(p->count, 2, "the least count, 1, and its own");
	cr_assert_eq(p->error, 1);
	cr_assert_eq(p->wake_to_run.count, 1, "only its own wakeup");
	cr_assert_eq(p->wake_to_run.min, 7777);
	cr_assert_eq(p->wake_to_run.sum, 7777);
	cr_assert_eq(p->notify_to_return.count, 1);
	cr_assert_eq(p->notify_to_return.max, 9999);
	cr_assert_eq(g->pairs[0]->count, 3, "the busiest kept its row");
	assert_pairs_add_up();
	assert_index_holds_each_row_once(g->pair_index, 2 * ATTACH_AGG_MAX_PAIRS, g->nr_pairs);
}

Test(attach_aggregate, a_replaced_pair_that_comes_back_takes_a_row_again)
{
	uint32_t i;

	for (i = 0; i < ATTACH_AGG_MAX_PAIRS; i++)
		add(complete(10000 + i, WAKEE, "eventfd write -> read", 1000));
	/* all at 1: a new pair takes the first row, 10000's */
	add(complete(ONE_OFF, WAKEE, "eventfd write -> read", 1000));
	cr_assert_null(find_pair(10000));
	/* 10000 again: the least counted row now is the second, 10001's */
	add(complete(10000, WAKEE, "eventfd write -> read", 2000));
	cr_assert_null(find_pair(10001));
	cr_assert_eq(find_pair(10000), g->pairs[1]);
	cr_assert_eq(g->pairs[1]->count, 2);
	cr_assert_eq(g->pairs[1]->error, 1);
	cr_assert_eq(g->pairs[1]->wake_to_run.max, 2000, "its wakeup since it came back, not 10001's");
	/* both found again in their rows, not given new ones */
	add(complete(10000, WAKEE, "eventfd write -> read", 2000));
	add(complete(ONE_OFF, WAKEE, "eventfd write -> read", 1000));
	cr_assert_eq(g->pairs_replaced, 2);
	cr_assert_eq(g->pairs[1]->count, 3);
	cr_assert_eq(g->pairs[0]->count, 3);
	cr_assert_eq(g->pairs[0]->waker_id, ONE_OFF);
	assert_pairs_add_up();
}

/*
 * A few heavy pairs among thousands that come once, shuffled: each heavy
 * one has more than N / k of the N wakeups, so Space-Saving keeps it, its
 * true count within its bounds, and its histogram holds only its own
 * wakeups (each pair's wake -> run is its own value).
 */
Test(attach_aggregate, heavy_pairs_among_thousands_of_one_off_pairs_keep_their_rows_within_their_bounds)
{
	static const uint32_t heavy[] = { 180, 250, 400, 570, 1000 };
	enum { NR_HEAVY = sizeof(heavy) / sizeof(heavy[0]), ONE_OFFS = 20000 };
	const struct attach_pair *top[NR_HEAVY];
	uint32_t *stream, n = 0, h, i;

	stream = malloc((ONE_OFFS + 2400) * sizeof(*stream));
	cr_assert_not_null(stream);
	for (h = 0; h < NR_HEAVY; h++)
		for (i = 0; i < heavy[h]; i++)
			stream[n++] = 100 + h;
	for (i = 0; i < ONE_OFFS; i++)
		stream[n++] = ONE_OFF + i;
	cr_assert_eq(n, ONE_OFFS + 2400);
	shuffle(stream, n, 0x9e3779b97f4a7c15ull);
	for (i = 0; i < n; i++)
		add(complete(stream[i], WAKEE, "eventfd write -> read", stream[i] < ONE_OFF ? stream[i] * 10 : 5));
	free(stream);

	cr_assert_eq(g->complete, n);
	cr_assert_gt(g->pairs_replaced, ONE_OFFS - ATTACH_AGG_MAX_PAIRS);
	for (h = 0; h < NR_HEAVY; h++) {
		const struct attach_pair *p = find_pair(100 + h);

		cr_assert_gt(heavy[h], n / ATTACH_AGG_MAX_PAIRS, "the stream must make it heavy");
		cr_assert_not_null(p, "heavy pair %u (%u of %u wakeups) has a row", h, heavy[h], n);
		cr_assert_leq(p->count - p->error, heavy[h], "pair %u: count %lu error %lu", h, p->count, p->error);
		cr_assert_geq(p->count, heavy[h], "pair %u: count %lu error %lu", h, p->count, p->error);
		cr_assert_eq(p->wake_to_run.min, (100 + h) * 10, "pair %u's own wakeups alone", h);
		cr_assert_eq(p->wake_to_run.max, (100 + h) * 10, "pair %u's own wakeups alone", h);
	}
	for (i = 0; i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];

		if (p->waker_id < ONE_OFF)
			continue;
		cr_assert_leq(p->count - p->error, 1, "a one-off pair counted once at most");
		cr_assert_eq(p->wake_to_run.max, 5);
	}
	/* a one-off row counts at most the least count + 1, and that is at most N / k: below every heavy one */
	cr_assert_eq(attach_aggregate__pairs(g, ATTACH_ORDER_COUNT, top, NR_HEAVY), NR_HEAVY);
	for (i = 0; i < NR_HEAVY; i++)
		cr_assert_lt(top[i]->waker_id, ONE_OFF, "the busiest rows are the heavy pairs");
	assert_pairs_add_up();
}

/* min_pair_count - the smallest count of the rows, the one Space-Saving must hand over */
static uint64_t min_pair_count(void)
{
	uint64_t min = UINT64_MAX;

	for (uint32_t i = 0; i < g->nr_pairs; i++)
		if (g->pairs[i]->count < min)
			min = g->pairs[i]->count;
	return min;
}

Test(attach_aggregate, a_new_pair_always_takes_a_row_with_the_smallest_count)
{
	uint64_t seed = 11, least;
	const struct attach_pair *p;
	uint32_t i, w;

	for (i = 0; i < ATTACH_AGG_MAX_PAIRS; i++)
		add(complete(20000 + i, WAKEE, "eventfd write -> read", 1000));
	for (i = 0; i < 20000; i++) {
		/* the low keys often, the others seldom: counts spread over many values */
		w = 20000 + (uint32_t)(next_random(&seed) % (i % 3 ? 40 : 2000));
		if (find_pair(w)) {
			add(complete(w, WAKEE, "eventfd write -> read", 1000));
			continue;
		}
		least = min_pair_count();
		add(complete(w, WAKEE, "eventfd write -> read", 1000));
		p = find_pair(w);
		cr_assert_not_null(p);
		cr_assert_eq(p->error, least, "wakeup %u: waker %u took a row counting %lu, the least was %lu", i, w,
			     p->error, least);
		cr_assert_eq(p->count, least + 1);
	}
	assert_pairs_add_up();
}

/*
 * After thousands of rows changing hands over keys that collide in the
 * index, every key with a row is still found: a wakeup of it adds to its
 * row instead of taking another.
 */
Test(attach_aggregate, every_pair_with_a_row_is_found_after_many_replacements)
{
	uint64_t seed = 42, replaced;
	uint32_t i, w;

	for (i = 0; i < 30000; i++) {
		/* 600 keys over 128 rows: a mix of rows kept a while and taken over */
		w = 20000 + (uint32_t)(next_random(&seed) % 600);
		add(complete(w, WAKEE, "eventfd write -> read", 1000));
	}
	cr_assert_gt(g->pairs_replaced, 1000);
	assert_index_holds_each_row_once(g->pair_index, 2 * ATTACH_AGG_MAX_PAIRS, g->nr_pairs);
	replaced = g->pairs_replaced;
	for (i = 0; i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];
		uint64_t before = p->count;

		add(complete(p->waker_id, WAKEE, "eventfd write -> read", 1000));
		cr_assert_eq(g->pairs_replaced, replaced, "waker %u found in row %u", p->waker_id, i);
		cr_assert_eq(p->count, before + 1);
	}
	assert_pairs_add_up();
}

Test(attach_aggregate, heavy_futex_words_among_thousands_of_one_off_words_keep_their_rows_within_their_bounds)
{
	static const uint32_t heavy[] = { 300, 500, 1000 };
	enum { NR_HEAVY = sizeof(heavy) / sizeof(heavy[0]), ONE_OFFS = 30000 };
	uint32_t *stream, n = 0, h, i;
	uint64_t events;

	stream = malloc((ONE_OFFS + 1800) * sizeof(*stream));
	cr_assert_not_null(stream);
	for (h = 0; h < NR_HEAVY; h++)
		for (i = 0; i < heavy[h]; i++)
			stream[n++] = h;
	for (i = 0; i < ONE_OFFS; i++)
		stream[n++] = 16 + i;
	shuffle(stream, n, 7);
	/* a wait and a wake on one word each: the word's own wait time names it */
	for (i = 0; i < n; i++)
		add(futex_handoff(WAKER, FUTEX_A + 4 * stream[i], WAKEE, FUTEX_A + 4 * stream[i], 100 + stream[i]));
	free(stream);

	events = 2ull * n;
	cr_assert_eq(g->futex_waits + g->futex_wakes, events);
	cr_assert_gt(g->futexes_replaced, ONE_OFFS - ATTACH_AGG_MAX_FUTEXES);
	for (h = 0; h < NR_HEAVY; h++) {
		const struct attach_futex *f = find_futex(FUTEX_A + 4 * h);

		cr_assert_gt(2 * heavy[h], events / ATTACH_AGG_MAX_FUTEXES, "the stream must make it heavy");
		cr_assert_not_null(f, "heavy word %u has a row", h);
		cr_assert_leq(f->count - f->error, 2 * heavy[h]);
		cr_assert_geq(f->count, 2 * heavy[h]);
		cr_assert_eq(f->waits, f->wakes);
		cr_assert_eq(f->wait_max_ns, 100 + h, "its own waits alone");
		cr_assert_eq(f->wait_total_ns, (100 + h) * f->waits_timed);
	}
	assert_futexes_add_up();
	assert_index_holds_each_row_once(g->futex_index, 2 * ATTACH_AGG_MAX_FUTEXES, g->nr_futexes);
}

Test(attach_aggregate, a_futex_word_past_the_full_table_takes_the_least_counted_row_afresh)
{
	const struct attach_futex *f;
	struct attach_result r;
	uint64_t seed = 3, replaced;
	uint32_t i;

	for (i = 0; i < ATTACH_AGG_MAX_FUTEXES; i++)
		add(futex_handoff(WAKER, FUTEX_A + 4 * i, WAKEE, FUTEX_A + 4 * i, 100));
	/* a wait by WORKER alone, timed out: the word takes the first row, 2 counted there */
	r = futex_handoff(0, 0, WORKER, FUTEX_B, 777);
	memset(&r.waker, 0, sizeof(r.waker));
	r.waker.cls = WP_WAKER_TIMER;
	add(r);
	f = &g->futexes[0];
	cr_assert_eq(f->addr, FUTEX_B);
	cr_assert_null(find_futex(FUTEX_A));
	cr_assert_eq(f->count, 3);
	cr_assert_eq(f->error, 2);
	cr_assert_eq(f->waits, 1);
	cr_assert_eq(f->wakes, 0, "the replaced word's wake is not its");
	cr_assert_eq(f->wait_total_ns, 777);
	cr_assert_eq(f->wait_max_ns, 777);
	cr_assert_eq(f->nr_tids, 1);
	cr_assert_eq(f->tids[0], WORKER, "the replaced word's threads are not its");
	cr_assert_eq(g->futexes_replaced, 1);
	cr_assert_eq(g->futexes_evicted, 2);
	cr_assert_eq(g->futex_waits, ATTACH_AGG_MAX_FUTEXES + 1);
	cr_assert_eq(g->futex_waits_timed, ATTACH_AGG_MAX_FUTEXES + 1);
	cr_assert_eq(g->futex_wait_total_ns, 100 * ATTACH_AGG_MAX_FUTEXES + 777);
	assert_futexes_add_up();

	/* the word replaced comes back, and many more change hands: every word with a row is found */
	add(futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 100));
	cr_assert_not_null(find_futex(FUTEX_A));
	for (i = 0; i < 20000; i++) {
		uint64_t a = FUTEX_A + 4 * (next_random(&seed) % 1200);

		add(futex_handoff(WAKER, a, WAKEE, a, 100));
	}
	assert_index_holds_each_row_once(g->futex_index, 2 * ATTACH_AGG_MAX_FUTEXES, g->nr_futexes);
	replaced = g->futexes_replaced;
	for (i = 0; i < g->nr_futexes; i++) {
		uint64_t a = g->futexes[i].addr, before = g->futexes[i].count;

		add(futex_handoff(WAKER, a, WAKEE, a, 100));
		cr_assert_eq(g->futexes_replaced, replaced, "word %#lx found in row %u", a, i);
		cr_assert_eq(g->futexes[i].count, before + 2);
	}
	assert_futexes_add_up();
}

Test(attach_aggregate, a_futex_word_lists_its_first_threads_and_counts_the_others)
{
	uint32_t i;

	add(futex_handoff(WAKER, FUTEX_A, WAKEE, FUTEX_A, 100));
	for (i = 0; i < ATTACH_AGG_FUTEX_TIDS + 2; i++)
		add(futex_handoff(WAKER, FUTEX_A, 20000 + i, FUTEX_A, 100));
	cr_assert_eq(g->futexes[0].nr_tids, ATTACH_AGG_FUTEX_TIDS);
	cr_assert_eq(g->futexes[0].tids_untabled, 4, "WAKEE and WAKER came first: the last four waiters are past it");
	cr_assert_eq(g->futexes[0].waits, 1 + ATTACH_AGG_FUTEX_TIDS + 2);
}

Test(attach_aggregate, labelled_wakeups_are_counted_by_label_and_class_and_nowhere_else)
{
	struct attach_result r;

	r = complete(WAKER, WAKEE, "eventfd write -> read", 1000);
	r.sr.label = LABEL_LOST_EVENTS;
	add(r);
	r.sr.label = LABEL_MISSING_EVENT;
	r.sr.missing = MARK_SWITCH_IN;
	add(r);
	r.sr.label = LABEL_NO_SLEEP;
	add(r);
	r = timer_woken(WAKEE, "timer (sleep ended)", 1000);
	r.sr.label = LABEL_OUT_OF_WINDOW;
	add(r);
	add(complete(WAKER, WAKEE, "eventfd write -> read", 1000));

	cr_assert_eq(g->wakeups, 5);
	cr_assert_eq(g->complete, 1);
	cr_assert_eq(g->by_label[LABEL_COMPLETE], 1);
	cr_assert_eq(g->by_label[LABEL_LOST_EVENTS], 1);
	cr_assert_eq(g->by_label[LABEL_MISSING_EVENT], 1);
	cr_assert_eq(g->missing_by_mark[MARK_SWITCH_IN], 1);
	cr_assert_eq(g->by_label[LABEL_NO_SLEEP], 1);
	cr_assert_eq(g->by_label[LABEL_OUT_OF_WINDOW], 1);
	cr_assert_eq(g->by_class[WP_WAKER_SYSCALL], 4);
	cr_assert_eq(g->by_class[WP_WAKER_TIMER], 1);
	cr_assert_eq(g->nr_pairs, 1);
	cr_assert_eq(g->pairs[0]->count, 1);
	cr_assert_eq(g->wake_to_run.count, 1);
	cr_assert_eq(g->by_family[MECH_EVENTFD], 1);
	cr_assert_eq(g->by_family[MECH_TIMER], 0);
}

Test(attach_aggregate, each_phase_is_histogrammed_where_present_and_its_absences_counted_by_reason)
{
	struct attach_result r;

	r = complete(WAKER, WAKEE, "eventfd write -> read", 1000);
	r.notify_to_return_ns = 1400;
	r.sr.target_was_idle = true;
	r.sr.idle_exit_seen = true;
	r.sr.idle_exit_ns = 700;
	add(r);
	add(timer_woken(WAKEE, "timer (sleep ended)", 2000));
	r = complete(WAKER, WAKEE, "eventfd write -> read", 3000);
	r.absent[PHASE_RESUME_KERNEL] = ATTACH_ABSENT_SLEPT_AGAIN;
	r.sr.phase_ns[PHASE_RESUME_KERNEL] = 0;
	r.sr.wakeup_cpu = r.sr.waking_cpu;
	r.sr.target_was_idle = true;
	add(r);

	cr_assert_eq(g->complete, 3);
	cr_assert_eq(g->absent[PHASE_NOTIFY_KERNEL][ATTACH_PRESENT], 2);
	cr_assert_eq(g->absent[PHASE_NOTIFY_KERNEL][ATTACH_ABSENT_WAKER_INTERRUPT], 1);
	cr_assert_eq(g->absent[PHASE_RESUME_KERNEL][ATTACH_PRESENT], 2);
	cr_assert_eq(g->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_SLEPT_AGAIN], 1);
	cr_assert_eq(g->absent[PHASE_NOTIFY_USER][ATTACH_ABSENT_NO_USER_STAMP], 3);
	cr_assert_eq(g->absent[PHASE_RUNQ_WAIT][ATTACH_PRESENT], 3);
	cr_assert_eq(g->phase[PHASE_NOTIFY_KERNEL].count, 2);
	cr_assert_eq(g->phase[PHASE_NOTIFY_KERNEL].sum, 200);
	cr_assert_eq(g->phase[PHASE_RUNQ_WAIT].count, 3);
	cr_assert_eq(g->phase[PHASE_RUNQ_WAIT].sum, 800 + 1800 + 2800);
	cr_assert_eq(g->phase[PHASE_RESUME_KERNEL].count, 2);
	cr_assert_eq(g->phase[PHASE_NOTIFY_USER].count, 0);
	cr_assert_eq(g->wake_to_run.count, 3);
	cr_assert_eq(g->wake_to_run.max, 3000);
	cr_assert_eq(g->notify_to_return.count, 1);
	cr_assert_eq(g->notify_to_return.max, 1400);
	cr_assert_eq(g->target_idle, 2);
	cr_assert_eq(g->idle_exit.count, 1, "only where the exit was seen");
	cr_assert_eq(g->idle_exit.max, 700);
	cr_assert_eq(g->remote_wakeups, 2);
	cr_assert_eq(g->by_family[MECH_EVENTFD], 2);
	cr_assert_eq(g->by_family[MECH_TIMER], 1);
}
