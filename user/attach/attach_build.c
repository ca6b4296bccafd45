// SPDX-License-Identifier: GPL-2.0
/* attach_build.c - a wakeup put together from the records: its loss window, label, phases or marks (attach_build.h) */
#include <string.h>
#include "attach_build.h"

void loss_window__open(struct loss_window *w, uint64_t from_ns)
{
	w->open = true;
	w->lost = false;
	w->from_ns = from_ns;
}

void loss_window__check(struct loss_window *w, const struct event_window *events, uint64_t to_ns)
{
	if (!w->open)
		return;
	if (!w->lost && to_ns >= w->from_ns && event_window__lost(events, w->from_ns, to_ns))
		w->lost = true;
	if (to_ns > w->from_ns)
		w->from_ns = to_ns;
}

uint64_t attach_build__first_mark_ns(const struct build *b)
{
	int k;

	for (k = 0; k < NR_MARKS; k++)
		if (b->seen[k])
			return b->mark_ns[k];
	return UINT64_MAX;
}

void attach_build__begin_result(struct attach_result *r, const struct build *b)
{
	struct sample_result *sr = &r->sr;
	int k;

	memset(r, 0, sizeof(*r));
	r->waker = b->waker;
	r->wakee_prio = b->prio;
	r->migrations = b->migrations;
	r->wake_to_run_ns = -1;
	r->notify_to_return_ns = -1;
	r->waited_ns = -1;
	for (k = 0; k < NR_MARKS; k++)
		r->mark_seen[k] = b->seen[k];
	/* an interrupt's waker.tid is the task it interrupted: no thread woke the wakee */
	sr->sample.waker_tid = mechanism__waker_is_thread(&b->waker) ? b->waker.tid : 0;
	sr->sample.waker_cpu = (uint16_t)b->waking_cpu;
	sr->sample.wakee_cpu = (uint16_t)b->target_cpu;
	sr->notify_nr = b->waker.cls == WP_WAKER_SYSCALL ? b->waker.nr : -1;
	sr->notify_arg = b->waker.cls == WP_WAKER_SYSCALL ? b->waker.arg : 0;
	sr->notify_arg2 = b->waker.cls == WP_WAKER_SYSCALL ? b->waker.arg2 : 0;
	sr->wait_end_type = b->seen[MARK_WAIT_EXIT] ? b->wait_end_type : 0;
	sr->wait_end_nr = b->seen[MARK_WAIT_EXIT] ? b->wait_end_nr : -1;
	sr->waking_cpu = b->waking_cpu;
	sr->wakeup_cpu = b->wakeup_cpu;
	sr->target_cpu = b->target_cpu;
	sr->target_was_idle = b->target_was_idle;
	sr->idle_exit_seen = b->idle_exit_seen;
	if (b->idle_exit_seen)
		sr->idle_exit_ns = (int64_t)(b->idle_exit_at_ns - b->mark_ns[MARK_WAKING]);
}

enum sample_label attach_build__label(const struct build *b, enum outcome how, bool wait_known,
				      enum mark *missing)
{
	if (b->loss.lost || how == OUT_FORGOTTEN)
		return LABEL_LOST_EVENTS;
	switch (how) {
	case OUT_NO_SLEEP:
		return LABEL_NO_SLEEP;
	case OUT_MISSING:
		return LABEL_MISSING_EVENT;
	case OUT_WINDOW:
		return LABEL_OUT_OF_WINDOW;
	default:
		break;
	}
	if (b->sleep_unseen)
		return LABEL_OUT_OF_WINDOW;
	/* the waker record is the notify's end of the wakeup: without it, which phases exist is unknown */
	if (!b->waker.cls) {
		*missing = MARK_NOTIFY_ENTER;
		return LABEL_MISSING_EVENT;
	}
	/* a sleep whose BLOCK never came: the wait and its end are unknown */
	if (!wait_known) {
		*missing = MARK_WAIT_EXIT;
		return LABEL_MISSING_EVENT;
	}
	if (b->seen[MARK_NOTIFY_ENTER] && b->mark_ns[MARK_NOTIFY_ENTER] > b->mark_ns[MARK_WAKING])
		return LABEL_CLOCK_ORDER;
	return LABEL_COMPLETE;
}

void attach_build__fill_phases(struct attach_result *r, const struct build *b, enum attach_absence resume)
{
	struct sample_result *sr = &r->sr;
	uint64_t *m = sr->mark_ns;
	int k;

	r->absent[PHASE_NOTIFY_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r->absent[PHASE_NOTIFY_KERNEL] = attach__notify_absence(&r->waker);
	r->absent[PHASE_WAKE_ENQUEUE] = ATTACH_PRESENT;
	r->absent[PHASE_RUNQ_WAIT] = ATTACH_PRESENT;
	r->absent[PHASE_RESUME_KERNEL] = resume;
	r->absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;

	m[MARK_WAKING] = b->mark_ns[MARK_WAKING];
	m[MARK_WAKEUP] = b->mark_ns[MARK_WAKEUP];
	m[MARK_SWITCH_IN] = b->mark_ns[MARK_SWITCH_IN];
	m[MARK_NOTIFY_ENTER] = r->absent[PHASE_NOTIFY_KERNEL] == ATTACH_PRESENT ? b->mark_ns[MARK_NOTIFY_ENTER] :
										  m[MARK_WAKING];
	m[MARK_WAIT_EXIT] = resume == ATTACH_PRESENT ? b->mark_ns[MARK_WAIT_EXIT] : m[MARK_SWITCH_IN];
	sr->t_notify_ns = m[MARK_NOTIFY_ENTER];
	sr->t_woken_ns = m[MARK_WAIT_EXIT];
	sr->total_ns = (int64_t)(sr->t_woken_ns - sr->t_notify_ns);
	sr->phase_ns[PHASE_NOTIFY_KERNEL] = (int64_t)(m[MARK_WAKING] - m[MARK_NOTIFY_ENTER]);
	sr->phase_ns[PHASE_WAKE_ENQUEUE] = (int64_t)(m[MARK_WAKEUP] - m[MARK_WAKING]);
	sr->phase_ns[PHASE_RUNQ_WAIT] = (int64_t)(m[MARK_SWITCH_IN] - m[MARK_WAKEUP]);
	sr->phase_ns[PHASE_RESUME_KERNEL] = (int64_t)(m[MARK_WAIT_EXIT] - m[MARK_SWITCH_IN]);
	sr->phased = true;

	r->wake_to_run_ns = (int64_t)(m[MARK_SWITCH_IN] - m[MARK_WAKING]);
	if (resume == ATTACH_PRESENT && r->absent[PHASE_NOTIFY_KERNEL] == ATTACH_PRESENT)
		r->notify_to_return_ns = (int64_t)(m[MARK_WAIT_EXIT] - m[MARK_NOTIFY_ENTER]);
	if (resume == ATTACH_PRESENT && r->wait.since_ns && r->wait.since_ns <= m[MARK_WAIT_EXIT])
		r->waited_ns = (int64_t)(m[MARK_WAIT_EXIT] - r->wait.since_ns);
	for (k = 0; k < NR_PHASES; k++)
		if (sr->phase_ns[k] < 0)
			sr->phase_ns[k] = 0;	/* cannot happen: marks are taken in time order */
}

void attach_build__fill_marks(struct attach_result *r, const struct build *b, uint64_t decided_ns)
{
	struct sample_result *sr = &r->sr;
	bool any = false;
	int k;

	for (k = 0; k < NR_PHASES; k++)
		r->absent[k] = ATTACH_ABSENT_LABELLED;
	r->absent[PHASE_NOTIFY_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r->absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	for (k = 0; k < NR_MARKS; k++) {
		if (!b->seen[k])
			continue;
		sr->mark_ns[k] = b->mark_ns[k];
		if (!any || b->mark_ns[k] < sr->t_notify_ns)
			sr->t_notify_ns = b->mark_ns[k];
		if (!any || b->mark_ns[k] > sr->t_woken_ns)
			sr->t_woken_ns = b->mark_ns[k];
		any = true;
	}
	if (!any)
		sr->t_notify_ns = sr->t_woken_ns = decided_ns;
	sr->total_ns = (int64_t)(sr->t_woken_ns - sr->t_notify_ns);
}
