/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event_window.h - the kernel events a merger may still need, in time order,
 * and the stretches of time in which some were lost.
 *
 * Events arrive in ring-buffer order, which is nearly but not exactly time
 * order; the window keeps them sorted. It grows up to a bound, then pushes
 * its oldest event out, and every time up to that event counts as lost. The
 * drop counter the BPF side stamps on each record, and reads after a drain,
 * tell where else events were lost: a question about any stretch of time
 * that overlaps such a gap gets "lost". Its owner says which events no
 * unfinished sample can reach any more (event_window__prune()), so memory
 * stays bounded by what lies in between.
 *
 * Pure code: it knows events and time, nothing of samples or phases.
 */
#ifndef WAKEPROBE_EVENT_WINDOW_H
#define WAKEPROBE_EVENT_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

struct event_window;

struct event_window *event_window__new(void);
void event_window__free(struct event_window *w);

/* what event_window__add() did besides keeping the event, for its owner's counters */
#define EVENT_WINDOW_LATE	(1u << 0)	/* stamped before the time event_window__prune() let go of */
#define EVENT_WINDOW_EVICTED	(1u << 1)	/* the window was full: its oldest event was pushed out */

/* event_window__add - keep @e in time order; EVENT_WINDOW_* flags, or 0 */
unsigned int event_window__add(struct event_window *w, const struct wp_event *e);
/*
 * event_window__note_drops - the BPF side's drop counter, read once the ring
 * buffer was drained. When it is past the count the last record carried,
 * events were lost after that record, and every time from there on is lost
 * until a record carrying the count bounds the loss. True when it was past.
 */
bool event_window__note_drops(struct event_window *w, uint64_t drops);
/*
 * event_window__note_final_drops - the drop counter once the stream is over:
 * drops after the last record reached no event the window saw, so every time
 * after that record is lost.
 */
void event_window__note_final_drops(struct event_window *w, uint64_t final_drops);
/* event_window__lost - might an event stamped in [@from_ns, @to_ns] have been lost? */
bool event_window__lost(const struct event_window *w, uint64_t from_ns, uint64_t to_ns);
/*
 * event_window__prune - no one asks about time before @keep_from_ns any more:
 * forget its events and gaps. An event stamped before it that arrives later
 * is still added, flagged EVENT_WINDOW_LATE.
 */
void event_window__prune(struct event_window *w, uint64_t keep_from_ns);

/*
 * Lookup by time: event_window__first_at() is the index of the first event
 * stamped at or after @ts_ns, and event_window__at() the event at an index,
 * NULL past the last one. An index holds until the window changes.
 */
size_t event_window__first_at(const struct event_window *w, uint64_t ts_ns);
const struct wp_event *event_window__at(const struct event_window *w, size_t i);
/*
 * event_window__span - the events stamped in [@from_ns, @to_ns], in time
 * order and in one piece, as explain__sample() takes them: *@evs stays valid
 * until the next call on the window. 0, or -ENOMEM when they did not fit.
 */
int event_window__span(struct event_window *w, uint64_t from_ns, uint64_t to_ns, const struct wp_event **evs,
		       size_t *n);

#endif /* WAKEPROBE_EVENT_WINDOW_H */
