// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_wakers.c - a WAKER record held on its CPU until the waking
 * it was written for takes it, and the waker it names: its class's
 * fields, and a syscall waker's comm from its thread or its last switch-in
 */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/syscall.h>
#include "attach_wakers.h"
#include "events.h"

#define PROC		2000u
#define WAKER		2001u
#define WAKEE		2002u
#define OTHER		2003u
#define OUTSIDER	3001u
#define CPU		0u
#define T0		1000000000ull

TestSuite(attach_wakers);

static struct held_waker held;
static struct waker_names names;

/* the waking of WAKEE on CPU, with @current on it, right after its WAKER record */
static struct wp_event waking_by(uint32_t current)
{
	return ev_waking(T0 + 10, CPU, current, WAKEE, 1, 0);
}

static struct wp_event write_by_waker(void)
{
	return ev_waker_syscall(T0 + 10, CPU, WAKER, PROC, WAKEE, SYS_write, 5, 8, T0);
}

Test(attach_wakers, a_syscall_wakers_record_is_taken_by_its_waking_with_its_syscall_and_its_threads_comm)
{
	struct wp_event rec = write_by_waker(), e = waking_by(WAKER);
	struct waker_info w;

	rec.waker.fd_kind = FD_KIND_EVENTFD;
	cr_assert_not(attach_wakers__hold(&held, &rec));
	cr_assert_eq(attach_wakers__take(&held, &names, "producer", &e, &w), WAKER_TAKEN);
	cr_assert_eq(w.cls, WP_WAKER_SYSCALL);
	cr_assert_eq(w.tid, WAKER);
	cr_assert_eq(w.tgid, PROC);
	cr_assert_eq(w.nr, SYS_write);
	cr_assert_eq(w.arg, 5);
	cr_assert_eq(w.arg2, 8);
	cr_assert_eq(w.since_ns, T0);
	cr_assert_eq(w.fd_kind, FD_KIND_EVENTFD);
	cr_assert_not(w.untimed);
	cr_assert_str_eq(w.comm, "producer");
	/* spent: the next waking on the CPU finds nothing held */
	cr_assert_eq(attach_wakers__take(&held, &names, "producer", &e, &w), WAKER_NONE);
	cr_assert_eq(w.cls, 0);
}

Test(attach_wakers, without_its_threads_comm_a_syscall_waker_is_named_by_its_last_switch_in)
{
	struct wp_event rec = write_by_waker(), e = waking_by(WAKER);
	char producer[WP_TASK_COMM_LEN] = "producer", other[WP_TASK_COMM_LEN] = "other";
	struct waker_info w;

	attach_wakers__name(&names, WAKER, producer);
	attach_wakers__hold(&held, &rec);
	cr_assert_eq(attach_wakers__take(&held, &names, "", &e, &w), WAKER_TAKEN);
	cr_assert_str_eq(w.comm, "producer");

	/* a task whose tid shares the slot took it since: the waker is not named for it */
	attach_wakers__name(&names, WAKER + WAKER_NAMES, other);
	attach_wakers__hold(&held, &rec);
	cr_assert_eq(attach_wakers__take(&held, &names, NULL, &e, &w), WAKER_TAKEN);
	cr_assert_str_eq(w.comm, "");
}

Test(attach_wakers, a_record_for_another_wakee_or_written_under_another_task_is_unpaired_and_spent)
{
	struct wp_event rec = write_by_waker(), e = waking_by(WAKER), other_wakee = e;
	struct waker_info w;

	other_wakee.wake.pid = OTHER;
	attach_wakers__hold(&held, &rec);
	cr_assert_eq(attach_wakers__take(&held, &names, "producer", &other_wakee, &w), WAKER_UNPAIRED);
	cr_assert_eq(w.cls, 0, "no waker is known");
	cr_assert_eq(w.tid, WAKER, "but who was current");
	cr_assert_eq(w.nr, -1);
	cr_assert_eq(attach_wakers__take(&held, &names, "producer", &e, &w), WAKER_NONE, "the record is spent");

	e = waking_by(OTHER);
	attach_wakers__hold(&held, &rec);
	cr_assert_eq(attach_wakers__take(&held, &names, NULL, &e, &w), WAKER_UNPAIRED);
}

Test(attach_wakers, a_record_held_over_one_no_waking_took_says_so)
{
	struct wp_event rec = write_by_waker(), e = waking_by(WAKER);
	struct waker_info w;

	cr_assert_not(attach_wakers__hold(&held, &rec));
	rec.waker.arg = 6;
	cr_assert(attach_wakers__hold(&held, &rec));
	cr_assert_eq(attach_wakers__take(&held, &names, NULL, &e, &w), WAKER_TAKEN);
	cr_assert_eq(w.arg, 6, "the later record is the one kept");
}

Test(attach_wakers, a_cpu_that_holds_nothing_gives_only_who_was_current)
{
	struct wp_event e = waking_by(OUTSIDER);
	struct waker_info w;

	cr_assert_eq(attach_wakers__take(NULL, &names, NULL, &e, &w), WAKER_NONE);
	cr_assert_eq(w.cls, 0);
	cr_assert_eq(w.tid, OUTSIDER);
	cr_assert_eq(w.nr, -1);
	cr_assert_eq(attach_wakers__take(&held, &names, NULL, &e, &w), WAKER_NONE);
}

Test(attach_wakers, each_class_keeps_what_its_record_says_of_the_waker)
{
	struct wp_event e = waking_by(OUTSIDER), rec;
	struct waker_info w;

	rec = ev_waker_named(T0 + 10, CPU, OUTSIDER, 3000, WAKEE, WP_WAKER_PROCESS, "bash");
	attach_wakers__hold(&held, &rec);
	cr_assert_eq(attach_wakers__take(&held, &names, NULL, &e, &w), WAKER_TAKEN);
	cr_assert_eq(w.cls, WP_WAKER_PROCESS);
	cr_assert_eq(w.tgid, 3000);
	cr_assert_str_eq(w.comm, "bash");

	rec = ev_waker_irq(T0 + 10, CPU, OUTSIDER, WAKEE, WP_WAKER_IRQ, WP_IRQ_HARD, 24, T0 + 5, "eth0");
	attach_wakers__hold(&held, &rec);
	attach_wakers__take(&held, &names, NULL, &e, &w);
	cr_assert_eq(w.cls, WP_WAKER_IRQ);
	cr_assert_eq(w.irq_kind, WP_IRQ_HARD);
	cr_assert_eq(w.nr, 24);
	cr_assert_eq(w.since_ns, T0 + 5);
	cr_assert_str_eq(w.comm, "eth0");

	rec = ev_waker_timer(T0 + 10, CPU, OUTSIDER, WAKEE, T0 + 5, 0xffffffff81234560ull);
	attach_wakers__hold(&held, &rec);
	attach_wakers__take(&held, &names, NULL, &e, &w);
	cr_assert_eq(w.cls, WP_WAKER_TIMER);
	cr_assert_eq(w.timer_fn, 0xffffffff81234560ull);
	cr_assert_str_eq(w.comm, "");
}

Test(attach_wakers, a_softirq_is_named_for_its_task_only_when_that_task_raised_it)
{
	struct wp_event e = waking_by(OUTSIDER);
	struct wp_event rec = ev_waker_irq(T0 + 10, CPU, OUTSIDER, WAKEE, WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, T0 + 5,
					   "client");
	struct waker_info w;

	attach_wakers__hold(&held, &rec);
	attach_wakers__take(&held, &names, NULL, &e, &w);
	cr_assert_not(w.raised);
	cr_assert_str_eq(w.comm, "", "a softirq run for whoever was in: no task behind it");

	rec.waker.flags |= WP_WAKER_RAISED;
	attach_wakers__hold(&held, &rec);
	attach_wakers__take(&held, &names, NULL, &e, &w);
	cr_assert(w.raised);
	cr_assert_str_eq(w.comm, "client");
}

Test(attach_wakers, a_syscall_traced_without_its_phases_is_named_untimed)
{
	struct wp_event rec = write_by_waker(), e = waking_by(WAKER);
	struct waker_info w;

	rec.waker.since_ns = 0;
	rec.waker.flags = WP_WAKER_UNTIMED;
	attach_wakers__hold(&held, &rec);
	attach_wakers__take(&held, &names, "producer", &e, &w);
	cr_assert(w.untimed);
	cr_assert_eq(w.since_ns, 0);
	cr_assert_eq(w.nr, SYS_write);
}
