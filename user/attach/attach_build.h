/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_build.h - one wakeup of a tracked thread as the full engine
 * (attach.h) puts it together from the streamed records, mark by mark,
 * and what it becomes when it ends: its label, and its kernel phases when
 * it is complete or the marks it saw when it is not (attach_result.h).
 *
 * A wakeup is trusted only if no record was lost while it was open: its
 * loss window follows it from the start of the sleep it ends (or its
 * waking), checked piece by piece as the stream is complete, before the
 * event window forgets the gaps it prunes (event_window.h).
 *
 * Pure code: the marks and the event window's gaps, nothing of threads.
 */
#ifndef WAKEPROBE_ATTACH_BUILD_H
#define WAKEPROBE_ATTACH_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "attach_result.h"
#include "event_window.h"
#include "mechanism.h"
#include "wakeup.h"

/* how far a wakeup has got: the mark it waits for next */
enum stage {
	STAGE_NONE,
	STAGE_WOKEN,	/* sched_waking seen: sched_wakeup next */
	STAGE_QUEUED,	/* sched_wakeup seen: the switch-in next */
	STAGE_RESUMING,	/* switched in: the wait syscall's exit next */
};

/* how a wakeup ended, before its label is decided (attach_build__label()) */
enum outcome {
	OUT_COMPLETE,	/* every mark it should have, seen */
	OUT_NO_SLEEP,	/* woken while it ran: it never slept */
	OUT_MISSING,	/* a mark did not come */
	OUT_WINDOW,	/* it began before anything was seen of the thread, or tracing stopped first */
	OUT_FORGOTTEN,	/* the thread table was full: its state was given up */
};

/*
 * A stretch of time in which every record must have arrived for a wakeup
 * to be trusted: checked piece by piece, at each attach__advance() and when
 * the wakeup ends, so that the loss gaps the window forgets at pruning have
 * been looked at first.
 */
struct loss_window {
	uint64_t from_ns;	/* checked up to here */
	bool open;
	bool lost;
};

/* one wakeup being put together */
struct build {
	enum stage stage;
	bool sleep_unseen;	/* woken before anything else was seen of the thread */
	struct waker_info waker;
	uint64_t mark_ns[NR_MARKS];
	bool seen[NR_MARKS];
	uint32_t waking_cpu;
	uint32_t wakeup_cpu;
	uint32_t target_cpu;
	bool target_was_idle;
	bool idle_exit_seen;
	uint64_t idle_exit_at_ns;
	uint16_t prio;
	uint32_t migrations;
	uint32_t wait_end_type;
	int64_t wait_end_nr;
	struct loss_window loss;
};

/* loss_window__open - @w watches for losses from @from_ns on, none seen yet */
void loss_window__open(struct loss_window *w, uint64_t from_ns);
/* loss_window__check - were records lost between where @w was checked up to and @to_ns? Kept in @w->lost */
void loss_window__check(struct loss_window *w, const struct event_window *events, uint64_t to_ns);

/* attach_build__first_mark_ns - the first mark @b has seen; UINT64_MAX for none */
uint64_t attach_build__first_mark_ns(const struct build *b);
/*
 * attach_build__begin_result - @r emptied, then what @b alone says of it:
 * its waker, the marks it saw, its CPUs and idle exit, the notify's
 * syscall and the wait's end; the measures only a complete wakeup has, -1
 */
void attach_build__begin_result(struct attach_result *r, const struct build *b);
/*
 * attach_build__label - what @b, which ended @how, is labelled; *@missing
 * names the absent mark of missing_event. @wait_known: the sleep it ended
 * was seen whole, its BLOCK with it.
 */
enum sample_label attach_build__label(const struct build *b, enum outcome how, bool wait_known,
				      enum mark *missing);
/*
 * attach_build__fill_phases - a complete wakeup's marks and phases into
 * @r, whose waker and wait are in; @resume says what became of
 * resume_kernel. An absent phase is zero wide (attach_result.h).
 */
void attach_build__fill_phases(struct attach_result *r, const struct build *b, enum attach_absence resume);
/* attach_build__fill_marks - a wakeup that is not complete: the marks seen into @r, no phase; none: @decided_ns */
void attach_build__fill_marks(struct attach_result *r, const struct build *b, uint64_t decided_ns);

#endif /* WAKEPROBE_ATTACH_BUILD_H */
