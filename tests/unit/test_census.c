// SPDX-License-Identifier: GPL-2.0
/* test_census.c - a throughput run's wakeups by kind and its threads' CPU time by name, from synthetic records */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include "census.h"
#include "events.h"

#define ROOT	500
#define CHILD	600
#define OTHER	900

static struct wp_event to(struct wp_event e, uint32_t tgid, const char *comm)
{
	return with_next_comm(with_next_tgid(e, tgid), comm);
}

/* a traced thread's time on a CPU is from its switch-in to its switch-out, by its name */
Test(census, cpu_time_runs_from_switch_in_to_switch_out_by_name)
{
	struct census *c = census__new();
	const struct census_name *rows[CENSUS_MAX_NAMES];
	struct wp_event e;

	cr_assert(c);
	census__process(c, ROOT);
	e = to(ev_switch(1000, 0, 0, 501, 0, 0), ROOT, "producer");
	census__event(c, &e);
	e = to(ev_switch(1000, 1, 0, 502, 0, 0), ROOT, "consumer");
	census__event(c, &e);
	/* the producer runs 4000 ns, gives way to a task of another process, and comes back for 500 */
	e = to(ev_switch(5000, 0, 501, 77, 1, 0), OTHER, "other");
	census__event(c, &e);
	e = to(ev_switch(6000, 0, 77, 501, 0, 0), ROOT, "producer");
	census__event(c, &e);
	e = ev_switch(6500, 0, 501, 0, WP_TASK_DEAD, 0);
	census__event(c, &e);
	/* the consumer forks a process whose thread is traced as well, and is still on its CPU at the end */
	e = ev_fork(2000, 1, 502, ROOT, CHILD);
	census__event(c, &e);
	e = to(ev_switch(3000, 1, 502, 601, 0, 1), CHILD, "child");
	census__event(c, &e);
	e = to(ev_switch(3500, 1, 601, 502, 1, 0), ROOT, "consumer");
	census__event(c, &e);
	census__end(c, 10000);

	cr_assert_eq(census__names(c, rows, CENSUS_MAX_NAMES), 3);
	cr_assert_str_eq(rows[0]->comm, "consumer");
	cr_assert_eq(rows[0]->cpu_ns, 2000 + 6500);
	cr_assert_eq(rows[0]->slices, 2);
	cr_assert_str_eq(rows[1]->comm, "producer");
	cr_assert_eq(rows[1]->cpu_ns, 4500);
	cr_assert_eq(rows[1]->ended, 1);
	cr_assert_str_eq(rows[2]->comm, "child");
	cr_assert_eq(rows[2]->cpu_ns, 500);
	/* the other process's task is not counted */
	cr_assert_eq(census__cpu_ns(c), 8500 + 4500 + 500);
	cr_assert_eq(c->unseen_slices, 0);
	census__free(c);
}

/* a switch-out of another thread than the one seen coming in: a record was lost, and it is said */
Test(census, a_lost_switch_is_counted_not_guessed)
{
	struct census *c = census__new();
	struct wp_event e;

	census__process(c, ROOT);
	e = to(ev_switch(1000, 0, 0, 501, 0, 0), ROOT, "a");
	census__event(c, &e);
	e = to(ev_switch(3000, 0, 503, 0, 1, 0), 0, "");
	census__event(c, &e);
	cr_assert_eq(c->unseen_slices, 1);
	cr_assert_eq(census__cpu_ns(c), 0);
	census__free(c);
}

static struct attach_result result(uint32_t waker_tid, const char *waker_comm, const char *wakee_comm,
				   uint64_t addr, int64_t wake_to_run)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.waker.cls = WP_WAKER_SYSCALL;
	r.waker.nr = SYS_futex;
	r.waker.arg = addr;
	r.waker.arg2 = FUTEX_WAKE_PRIVATE;
	r.waker.tid = waker_tid;
	snprintf(r.waker.comm, sizeof(r.waker.comm), "%s", waker_comm);
	r.wait.known = true;
	r.wait.nr = SYS_futex;
	r.wait.arg = addr;
	r.wait.arg2 = FUTEX_WAIT_PRIVATE;
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "%s", wakee_comm);
	r.wake_to_run_ns = wake_to_run;
	return r;
}

/* the wakeups of many threads of one name, on the futex words of many runs, are one kind */
Test(census, wakeups_of_one_design_decision_are_one_kind)
{
	struct census *c = census__new();
	const struct census_kind *rows[CENSUS_MAX_KINDS];
	struct attach_result r;

	for (uint32_t i = 0; i < 30; i++) {
		r = result(1000 + i, "worker", "main", 0x1000 + 64 * i, 2000 + i);
		census__result(c, &r);
	}
	for (uint32_t i = 0; i < 10; i++) {
		r = result(7, "main", "worker", 0x9000, -1);
		r.sr.label = LABEL_NO_SLEEP;
		census__result(c, &r);
	}
	cr_assert_eq(c->wakeups, 40);
	cr_assert_eq(census__kinds(c, rows, CENSUS_MAX_KINDS), 2);
	cr_assert_str_eq(rows[0]->waker, "thread worker");
	cr_assert_str_eq(rows[0]->wakee, "main");
	cr_assert_str_eq(rows[0]->mechanism, "futex wake -> wait");
	cr_assert_eq(rows[0]->wakeups, 30);
	cr_assert_eq(rows[0]->complete, 30);
	cr_assert_eq(rows[0]->wake_to_run.min, 2000);
	cr_assert_eq(rows[1]->wakeups, 10);
	cr_assert_eq(rows[1]->complete, 0, "not complete: counted, not in the histogram");
	census__free(c);
}

/* more kinds than the table holds: the rest are counted, never lost */
Test(census, kinds_past_the_table_are_counted)
{
	struct census *c = census__new();
	struct attach_result r;
	char comm[16];

	for (int i = 0; i < CENSUS_MAX_KINDS + 5; i++) {
		snprintf(comm, sizeof(comm), "w%d", i);
		r = result(1, comm, "main", 0x1000, 100);
		census__result(c, &r);
	}
	cr_assert_eq(c->nr_kinds, CENSUS_MAX_KINDS);
	cr_assert_eq(c->kinds_untabled, 5);
	cr_assert_eq(c->wakeups, CENSUS_MAX_KINDS + 5);
	census__free(c);
}
