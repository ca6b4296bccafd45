/* SPDX-License-Identifier: GPL-2.0 */
/* test_attach_aggregate.c - attach mode's tables: pairs, futexes, phases, labels, and their bounds */
#include <criterion/criterion.h>
#include <stdio.h>
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

TestSuite(attach_aggregate, .init = setup, .fini = teardown);

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
	cr_assert_eq(g->futexes_untabled, 0);
}

/*
 * Untimed waits (no program on syscalls, as with --explain slow): the switch-in ends a
 * complete one, and it is counted with no length; one whose wakeup is not
 * complete is not.
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

Test(attach_aggregate, what_does_not_fit_the_bounded_tables_is_counted)
{
	uint32_t i;

	for (i = 0; i < ATTACH_AGG_MAX_PAIRS + 5; i++)
		add(complete(10000 + i, WAKEE, "eventfd write -> read", 1000));
	add(complete(10000, WAKEE, "eventfd write -> read", 1000));
	cr_assert_eq(g->nr_pairs, ATTACH_AGG_MAX_PAIRS);
	cr_assert_eq(g->pairs_untabled, 5);
	cr_assert_eq(g->complete, ATTACH_AGG_MAX_PAIRS + 6);
	cr_assert_eq(g->wake_to_run.count, ATTACH_AGG_MAX_PAIRS + 6, "the phase tables have every one");
	cr_assert_eq(g->pairs[0]->count, 2, "a pair in the table still counts");

	for (i = 0; i < ATTACH_AGG_MAX_FUTEXES + 3; i++)
		add(futex_handoff(WAKER, FUTEX_A + 4 * i, WAKEE, FUTEX_A + 4 * i, 100));
	cr_assert_eq(g->nr_futexes, ATTACH_AGG_MAX_FUTEXES);
	cr_assert_eq(g->futexes_untabled, 2 * 3, "a wait and a wake for each futex past the table");

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
