// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_build.c - a wakeup the full engine puts together, and what
 * it becomes when it ends: the label its outcome and marks decide, its
 * phases with the absent ones zero wide, the marks of one that is not
 * complete, and its loss window
 */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/syscall.h>
#include "attach_build.h"
#include "events.h"

#define WAKER		2001u
#define T0		1000000000ull
/* the marks of a whole wakeup, from T0 */
#define AT_NOTIFY	0
#define AT_WAKING	300
#define AT_WAKEUP	1100
#define AT_SWITCH_IN	4300
#define AT_WAIT_EXIT	5000

TestSuite(attach_build);

/* whole - a wakeup by WAKER's write() that saw every mark */
static struct build whole(void)
{
	static const uint64_t at[NR_MARKS] = {
		[MARK_NOTIFY_ENTER] = AT_NOTIFY, [MARK_WAKING] = AT_WAKING, [MARK_WAKEUP] = AT_WAKEUP,
		[MARK_SWITCH_IN] = AT_SWITCH_IN, [MARK_WAIT_EXIT] = AT_WAIT_EXIT,
	};
	struct build b;

	memset(&b, 0, sizeof(b));
	b.stage = STAGE_RESUMING;
	b.waker = (struct waker_info){ .cls = WP_WAKER_SYSCALL, .nr = SYS_write, .tid = WAKER, .arg = 5,
				       .since_ns = T0 + AT_NOTIFY };
	for (int k = 0; k < NR_MARKS; k++) {
		b.seen[k] = true;
		b.mark_ns[k] = T0 + at[k];
	}
	b.waking_cpu = 0;
	b.wakeup_cpu = 1;
	b.target_cpu = 1;
	b.wait_end_type = WP_EV_SYS_EXIT;
	b.wait_end_nr = SYS_read;
	return b;
}

static enum sample_label label(const struct build *b, enum outcome how, bool wait_known)
{
	enum mark missing = NR_MARKS;

	return attach_build__label(b, how, wait_known, &missing);
}

Test(attach_build, a_wakeup_that_saw_everything_and_lost_nothing_is_complete)
{
	struct build b = whole();

	cr_assert_eq(label(&b, OUT_COMPLETE, true), LABEL_COMPLETE);
}

Test(attach_build, a_loss_or_a_forgotten_thread_is_lost_events_whatever_else_it_ended_as)
{
	struct build b = whole();
	static const enum outcome every[] = { OUT_COMPLETE, OUT_NO_SLEEP, OUT_MISSING, OUT_WINDOW };

	cr_assert_eq(label(&b, OUT_FORGOTTEN, true), LABEL_LOST_EVENTS);
	b.loss.lost = true;
	for (size_t i = 0; i < sizeof(every) / sizeof(every[0]); i++)
		cr_assert_eq(label(&b, every[i], true), LABEL_LOST_EVENTS, "outcome %d", every[i]);
}

Test(attach_build, each_outcome_short_of_complete_is_its_own_label)
{
	struct build b = whole();

	cr_assert_eq(label(&b, OUT_NO_SLEEP, true), LABEL_NO_SLEEP);
	cr_assert_eq(label(&b, OUT_MISSING, true), LABEL_MISSING_EVENT);
	cr_assert_eq(label(&b, OUT_WINDOW, true), LABEL_OUT_OF_WINDOW);
	b.sleep_unseen = true;
	cr_assert_eq(label(&b, OUT_COMPLETE, true), LABEL_OUT_OF_WINDOW, "its sleep began before tracing saw it");
}

Test(attach_build, a_complete_one_without_its_waker_record_or_its_wait_is_missing_that_end)
{
	struct build b = whole();
	enum mark missing = NR_MARKS;

	cr_assert_eq(attach_build__label(&b, OUT_COMPLETE, false, &missing), LABEL_MISSING_EVENT);
	cr_assert_eq(missing, MARK_WAIT_EXIT, "a sleep whose BLOCK never came");
	memset(&b.waker, 0, sizeof(b.waker));
	cr_assert_eq(attach_build__label(&b, OUT_COMPLETE, false, &missing), LABEL_MISSING_EVENT);
	cr_assert_eq(missing, MARK_NOTIFY_ENTER, "the waker record is the notify's end, and it is checked first");
}

Test(attach_build, a_waker_syscall_entered_after_its_waking_is_clock_order)
{
	struct build b = whole();

	b.mark_ns[MARK_NOTIFY_ENTER] = b.mark_ns[MARK_WAKING] + 1;
	cr_assert_eq(label(&b, OUT_COMPLETE, true), LABEL_CLOCK_ORDER);
	b.seen[MARK_NOTIFY_ENTER] = false;
	cr_assert_eq(label(&b, OUT_COMPLETE, true), LABEL_COMPLETE, "an entry not seen is not out of order");
}

Test(attach_build, the_result_begins_with_what_the_wakeup_itself_saw)
{
	struct build b = whole();
	struct attach_result r;

	b.idle_exit_seen = true;
	b.target_was_idle = true;
	b.idle_exit_at_ns = T0 + AT_WAKING + 700;
	b.prio = 120;
	b.migrations = 2;
	memset(&r, 0xa5, sizeof(r));
	attach_build__begin_result(&r, &b);
	cr_assert_eq(r.sr.sample.waker_tid, WAKER);
	cr_assert_eq(r.sr.sample.waker_cpu, 0);
	cr_assert_eq(r.sr.sample.wakee_cpu, 1);
	cr_assert_eq(r.sr.notify_nr, SYS_write);
	cr_assert_eq(r.sr.notify_arg, 5);
	cr_assert_eq(r.sr.wait_end_type, WP_EV_SYS_EXIT);
	cr_assert_eq(r.sr.wait_end_nr, SYS_read);
	cr_assert(r.sr.idle_exit_seen);
	cr_assert_eq(r.sr.idle_exit_ns, 700, "from the waking");
	cr_assert_eq(r.wakee_prio, 120);
	cr_assert_eq(r.migrations, 2);
	for (int k = 0; k < NR_MARKS; k++)
		cr_assert(r.mark_seen[k]);
	/* what only a complete wakeup's phases give is not known yet */
	cr_assert_eq(r.wake_to_run_ns, -1);
	cr_assert_eq(r.notify_to_return_ns, -1);
	cr_assert_eq(r.waited_ns, -1);
	cr_assert_not(r.sr.phased);
	cr_assert_eq(r.sr.sample.seq, 0, "the engine numbers it");
}

Test(attach_build, a_wakeup_by_an_interrupt_has_no_waker_thread_nor_notify_syscall)
{
	struct build b = whole();
	struct attach_result r;

	b.waker = (struct waker_info){ .cls = WP_WAKER_IRQ, .nr = 24, .tid = WAKER, .since_ns = T0 };
	b.seen[MARK_WAIT_EXIT] = false;
	attach_build__begin_result(&r, &b);
	cr_assert_eq(r.sr.sample.waker_tid, 0, "the tid is the task it interrupted, which woke nobody");
	cr_assert_eq(r.sr.notify_nr, -1);
	cr_assert_eq(r.sr.notify_arg, 0);
	cr_assert_eq(r.sr.wait_end_type, 0);
	cr_assert_eq(r.sr.wait_end_nr, -1, "no wait's end was seen");
}

/* phased - @b's result, complete, its wait entered at @wait_since (0: unknown) */
static struct attach_result phased(const struct build *b, enum attach_absence resume, uint64_t wait_since)
{
	struct attach_result r;

	attach_build__begin_result(&r, b);
	r.wait = (struct wait_info){ .known = true, .nr = SYS_read, .since_ns = wait_since };
	attach_build__fill_phases(&r, b, resume);
	return r;
}

Test(attach_build, a_complete_wakeups_kernel_phases_run_mark_to_mark_and_add_up)
{
	struct build b = whole();
	struct attach_result r = phased(&b, ATTACH_PRESENT, T0 - 500);
	int64_t sum = 0;

	cr_assert(r.sr.phased);
	cr_assert_eq(r.sr.phase_ns[PHASE_NOTIFY_USER], 0);
	cr_assert_eq(r.sr.phase_ns[PHASE_NOTIFY_KERNEL], AT_WAKING - AT_NOTIFY);
	cr_assert_eq(r.sr.phase_ns[PHASE_WAKE_ENQUEUE], AT_WAKEUP - AT_WAKING);
	cr_assert_eq(r.sr.phase_ns[PHASE_RUNQ_WAIT], AT_SWITCH_IN - AT_WAKEUP);
	cr_assert_eq(r.sr.phase_ns[PHASE_RESUME_KERNEL], AT_WAIT_EXIT - AT_SWITCH_IN);
	cr_assert_eq(r.sr.phase_ns[PHASE_RESUME_USER], 0);
	for (int k = 0; k < NR_PHASES; k++)
		sum += r.sr.phase_ns[k];
	cr_assert_eq(sum, r.sr.total_ns);
	cr_assert_eq(r.sr.total_ns, AT_WAIT_EXIT - AT_NOTIFY);
	cr_assert_eq(r.sr.t_notify_ns, T0 + AT_NOTIFY);
	cr_assert_eq(r.sr.t_woken_ns, T0 + AT_WAIT_EXIT);
	cr_assert_eq(r.absent[PHASE_NOTIFY_USER], ATTACH_ABSENT_NO_USER_STAMP);
	cr_assert_eq(r.absent[PHASE_NOTIFY_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(r.absent[PHASE_RESUME_KERNEL], ATTACH_PRESENT);
	cr_assert_eq(r.absent[PHASE_RESUME_USER], ATTACH_ABSENT_NO_USER_STAMP);
	cr_assert_eq(r.wake_to_run_ns, AT_SWITCH_IN - AT_WAKING);
	cr_assert_eq(r.notify_to_return_ns, AT_WAIT_EXIT - AT_NOTIFY);
	cr_assert_eq(r.waited_ns, AT_WAIT_EXIT + 500);
}

Test(attach_build, an_absent_notify_kernel_is_zero_wide_at_the_waking)
{
	struct build b = whole();
	struct attach_result r;

	b.waker = (struct waker_info){ .cls = WP_WAKER_TIMER, .nr = -1, .since_ns = T0 };
	r = phased(&b, ATTACH_PRESENT, T0 - 500);
	cr_assert_eq(r.absent[PHASE_NOTIFY_KERNEL], ATTACH_ABSENT_WAKER_INTERRUPT);
	cr_assert_eq(r.sr.phase_ns[PHASE_NOTIFY_KERNEL], 0);
	cr_assert_eq(r.sr.mark_ns[MARK_NOTIFY_ENTER], T0 + AT_WAKING);
	cr_assert_eq(r.sr.t_notify_ns, T0 + AT_WAKING, "it begins at sched_waking");
	cr_assert_eq(r.sr.total_ns, AT_WAIT_EXIT - AT_WAKING);
	cr_assert_eq(r.notify_to_return_ns, -1);
	cr_assert_eq(r.waited_ns, AT_WAIT_EXIT + 500, "the wait is still whole");
}

Test(attach_build, an_absent_resume_kernel_is_zero_wide_at_the_switch_in_and_the_wait_not_over)
{
	struct build b = whole();
	struct attach_result r;

	b.seen[MARK_WAIT_EXIT] = false;
	r = phased(&b, ATTACH_ABSENT_SLEPT_AGAIN, T0 - 500);
	cr_assert_eq(r.absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_SLEPT_AGAIN);
	cr_assert_eq(r.sr.phase_ns[PHASE_RESUME_KERNEL], 0);
	cr_assert_eq(r.sr.mark_ns[MARK_WAIT_EXIT], T0 + AT_SWITCH_IN);
	cr_assert_eq(r.sr.t_woken_ns, T0 + AT_SWITCH_IN);
	cr_assert_eq(r.notify_to_return_ns, -1);
	cr_assert_eq(r.waited_ns, -1);
	cr_assert_eq(r.wake_to_run_ns, AT_SWITCH_IN - AT_WAKING);
}

Test(attach_build, a_wait_entered_after_its_exit_or_at_no_known_time_has_no_waited)
{
	struct build b = whole();

	cr_assert_eq(phased(&b, ATTACH_PRESENT, 0).waited_ns, -1);
	cr_assert_eq(phased(&b, ATTACH_PRESENT, T0 + AT_WAIT_EXIT + 1).waited_ns, -1);
	cr_assert_eq(phased(&b, ATTACH_PRESENT, T0 + AT_WAIT_EXIT).waited_ns, 0);
}

Test(attach_build, a_wakeup_that_is_not_complete_spans_the_marks_it_saw_and_no_phase)
{
	struct build b = whole();
	struct attach_result r;

	b.seen[MARK_NOTIFY_ENTER] = false;
	b.seen[MARK_WAIT_EXIT] = false;
	b.seen[MARK_SWITCH_IN] = false;
	attach_build__begin_result(&r, &b);
	attach_build__fill_marks(&r, &b, T0 + 9000);
	cr_assert_eq(r.sr.t_notify_ns, T0 + AT_WAKING, "the first mark seen");
	cr_assert_eq(r.sr.t_woken_ns, T0 + AT_WAKEUP, "the last mark seen");
	cr_assert_eq(r.sr.total_ns, AT_WAKEUP - AT_WAKING);
	cr_assert_eq(r.sr.mark_ns[MARK_SWITCH_IN], 0, "a mark not seen stays 0");
	cr_assert_eq(r.sr.mark_ns[MARK_WAKEUP], T0 + AT_WAKEUP);
	cr_assert_not(r.sr.phased);
	cr_assert_eq(r.absent[PHASE_NOTIFY_USER], ATTACH_ABSENT_NO_USER_STAMP);
	for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++)
		cr_assert_eq(r.absent[k], ATTACH_ABSENT_LABELLED, "phase %d", k);
	cr_assert_eq(r.absent[PHASE_RESUME_USER], ATTACH_ABSENT_NO_USER_STAMP);
}

Test(attach_build, a_wakeup_that_saw_no_mark_sits_where_it_was_decided)
{
	struct build b;
	struct attach_result r;

	memset(&b, 0, sizeof(b));
	attach_build__begin_result(&r, &b);
	attach_build__fill_marks(&r, &b, T0 + 9000);
	cr_assert_eq(r.sr.t_notify_ns, T0 + 9000);
	cr_assert_eq(r.sr.t_woken_ns, T0 + 9000);
	cr_assert_eq(r.sr.total_ns, 0);
	cr_assert_eq(attach_build__first_mark_ns(&b), UINT64_MAX);
	b.seen[MARK_WAKEUP] = true;
	b.mark_ns[MARK_WAKEUP] = T0 + 7;
	cr_assert_eq(attach_build__first_mark_ns(&b), T0 + 7);
}

/* ---------------------------------------------------------------- loss windows */

static struct event_window *events;

static void open_events(void)
{
	events = event_window__new();
	cr_assert_not_null(events);
}

static void free_events(void)
{
	event_window__free(events);
}

TestSuite(loss_window, .init = open_events, .fini = free_events);

static void add(struct wp_event e)
{
	event_window__add(events, &e);
}

Test(loss_window, a_loss_inside_the_window_is_seen_and_stays_seen)
{
	struct loss_window w = { 0 };

	/* the record at T0 + 1000 carries one more drop than the one before: records were lost between */
	add(ev_idle_exit(T0, 0, T0 - 10));
	add(with_drops(ev_idle_exit(T0 + 1000, 0, T0 + 900), 1));
	add(with_drops(ev_idle_exit(T0 + 2000, 0, T0 + 1900), 1));
	loss_window__open(&w, T0 - 100);
	loss_window__check(&w, events, T0 - 50);
	cr_assert_not(w.lost, "nothing lost before the first record");
	cr_assert_eq(w.from_ns, T0 - 50, "checked up to there");
	loss_window__check(&w, events, T0 + 1500);
	cr_assert(w.lost);
	loss_window__check(&w, events, T0 + 2000);
	cr_assert(w.lost, "once lost, always lost");
}

Test(loss_window, a_window_opened_after_the_loss_does_not_see_it)
{
	struct loss_window w = { 0 };

	add(ev_idle_exit(T0, 0, T0 - 10));
	add(with_drops(ev_idle_exit(T0 + 1000, 0, T0 + 900), 1));
	add(with_drops(ev_idle_exit(T0 + 2000, 0, T0 + 1900), 1));
	/* the gap runs from the last record before the loss to the first after it, both included */
	loss_window__open(&w, T0 + 1001);
	loss_window__check(&w, events, T0 + 2000);
	cr_assert_not(w.lost);
	loss_window__check(&w, events, T0 + 1500);
	cr_assert_eq(w.from_ns, T0 + 2000, "a check never moves it back");
}

Test(loss_window, a_closed_window_watches_nothing)
{
	struct loss_window w = { 0 };

	add(ev_idle_exit(T0, 0, T0 - 10));
	add(with_drops(ev_idle_exit(T0 + 1000, 0, T0 + 900), 1));
	loss_window__check(&w, events, T0 + 2000);
	cr_assert_not(w.lost);
	cr_assert_eq(w.from_ns, 0);
	loss_window__open(&w, T0);
	loss_window__check(&w, events, T0 + 2000);
	cr_assert(w.lost, "opened, it sees the same loss");
}
