// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "event_window.h"
#include "ring.h"

#define EVENTS_INITIAL		4096
#define EVENTS_MAX		(1u << 19)	/* 24 MiB of events in flight at most */
#define GAPS_MAX		256

/* a stretch of time in which the BPF side failed to emit at least one event */
struct loss_gap {
	uint64_t from_ns;
	uint64_t to_ns;
};

struct event_window {
	/* events sorted by time, as a ring (ring.h): index i lives at (head + i) & (cap - 1) */
	struct wp_event *events;
	size_t cap, head, len;
	uint64_t last_arrival_ns;	/* ts of the previous event in arrival order; 0 before the first */
	uint32_t last_drops;		/* the drop count the previous record carried */
	uint64_t evicted_until_ns;	/* events up to here were pushed out: that time is lost */
	uint64_t finished_until_ns;	/* pruned up to here: events before it arrive late */

	struct loss_gap gaps[GAPS_MAX];
	size_t nr_gaps;
	/*
	 * The drop counter, read after a drain, moved past every record seen:
	 * events were lost after open_gap_from, and until a record carrying
	 * that count arrives nothing says where the loss ends.
	 */
	bool gap_open;
	uint64_t open_gap_from_ns;
	uint64_t open_gap_drops;

	/* event_window__span()'s events, contiguous */
	struct wp_event *span;
	size_t span_cap;
};

struct event_window *event_window__new(void)
{
	struct event_window *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->cap = EVENTS_INITIAL;
	w->events = calloc(w->cap, sizeof(*w->events));
	if (!w->events) {
		event_window__free(w);
		return NULL;
	}
	return w;
}

void event_window__free(struct event_window *w)
{
	if (!w)
		return;
	free(w->events);
	free(w->span);
	free(w);
}

static struct wp_event *slot(const struct event_window *w, size_t i)
{
	return &w->events[(w->head + i) & (w->cap - 1)];
}

const struct wp_event *event_window__at(const struct event_window *w, size_t i)
{
	return i < w->len ? slot(w, i) : NULL;
}

static void pop_front(struct event_window *w)
{
	w->head = (w->head + 1) & (w->cap - 1);
	w->len--;
}

static void gap_add(struct event_window *w, uint64_t from_ns, uint64_t to_ns)
{
	if (from_ns > to_ns) {
		uint64_t t = from_ns;

		from_ns = to_ns;
		to_ns = t;
	}
	if (w->nr_gaps == GAPS_MAX) {
		/* fold the oldest two: a wider gap only marks more samples, never fewer */
		w->gaps[1].from_ns = w->gaps[0].from_ns < w->gaps[1].from_ns ? w->gaps[0].from_ns : w->gaps[1].from_ns;
		w->gaps[1].to_ns = w->gaps[0].to_ns > w->gaps[1].to_ns ? w->gaps[0].to_ns : w->gaps[1].to_ns;
		memmove(&w->gaps[0], &w->gaps[1], (GAPS_MAX - 1) * sizeof(w->gaps[0]));
		w->nr_gaps--;
	}
	w->gaps[w->nr_gaps++] = (struct loss_gap){ from_ns, to_ns };
}

bool event_window__lost(const struct event_window *w, uint64_t from_ns, uint64_t to_ns)
{
	size_t i;

	if (w->evicted_until_ns && from_ns <= w->evicted_until_ns)
		return true;
	if (w->gap_open && to_ns >= w->open_gap_from_ns)
		return true;
	for (i = 0; i < w->nr_gaps; i++)
		if (w->gaps[i].from_ns <= to_ns && w->gaps[i].to_ns >= from_ns)
			return true;
	return false;
}

unsigned int event_window__add(struct event_window *w, const struct wp_event *e)
{
	unsigned int what = 0;
	size_t i;

	/*
	 * The ring buffer is filled in reservation order. When the drop counter
	 * moved since the previous record, something between the two was lost.
	 */
	if (e->drops != w->last_drops) {
		gap_add(w, w->last_arrival_ns, e->ts_ns);
		w->last_drops = e->drops;
	}
	/* reserved after the drops that opened the gap: the gap above now ends at it */
	if (w->gap_open && e->drops >= w->open_gap_drops) {
		gap_add(w, w->open_gap_from_ns, e->ts_ns);
		w->gap_open = false;
	}
	w->last_arrival_ns = e->ts_ns;
	if (e->ts_ns < w->finished_until_ns)
		what |= EVENT_WINDOW_LATE;

	if (w->len == w->cap) {
		if (w->cap < EVENTS_MAX && !ring__grow((void **)&w->events, &w->cap, &w->head, w->len, sizeof(*e))) {
			/* grown */
		} else {
			w->evicted_until_ns = slot(w, 0)->ts_ns;
			pop_front(w);
			what |= EVENT_WINDOW_EVICTED;
		}
	}
	/* insertion from the back: records are at most a few microseconds out of order */
	i = w->len++;
	while (i > 0 && slot(w, i - 1)->ts_ns > e->ts_ns) {
		*slot(w, i) = *slot(w, i - 1);
		i--;
	}
	*slot(w, i) = *e;
	return what;
}

bool event_window__note_drops(struct event_window *w, uint64_t drops)
{
	/* the records carry the count in 32 bits: compare as they do */
	uint32_t now = (uint32_t)drops;

	if (now == w->last_drops)
		return false;
	if (!w->gap_open) {
		w->gap_open = true;
		w->open_gap_from_ns = w->last_arrival_ns;
	}
	w->open_gap_drops = now;
	return true;
}

void event_window__note_final_drops(struct event_window *w, uint64_t final_drops)
{
	if (final_drops > w->last_drops)
		gap_add(w, w->last_arrival_ns, UINT64_MAX);
}

void event_window__prune(struct event_window *w, uint64_t keep_from_ns)
{
	size_t i, kept = 0;

	if (keep_from_ns > w->finished_until_ns)
		w->finished_until_ns = keep_from_ns;
	while (w->len && slot(w, 0)->ts_ns < keep_from_ns)
		pop_front(w);
	for (i = 0; i < w->nr_gaps; i++)
		if (w->gaps[i].to_ns >= keep_from_ns)
			w->gaps[kept++] = w->gaps[i];
	w->nr_gaps = kept;
}

size_t event_window__first_at(const struct event_window *w, uint64_t ts_ns)
{
	size_t lo = 0, hi = w->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (slot(w, mid)->ts_ns < ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int event_window__span(struct event_window *w, uint64_t from_ns, uint64_t to_ns, const struct wp_event **evs,
		       size_t *n)
{
	size_t first = event_window__first_at(w, from_ns), len = 0, i;

	for (i = first; i < w->len && slot(w, i)->ts_ns <= to_ns; i++)
		len++;
	if (len > w->span_cap) {
		size_t cap = w->span_cap ? w->span_cap : 256;
		struct wp_event *p;

		while (cap < len)
			cap *= 2;
		p = realloc(w->span, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->span = p;
		w->span_cap = cap;
	}
	for (i = 0; i < len; i++)
		w->span[i] = *slot(w, first + i);
	*evs = w->span;
	*n = len;
	return 0;
}
