// SPDX-License-Identifier: GPL-2.0
/* http_conns.c - which connection of the scrape endpoint goes, and when: the table's policy, without sockets */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include "http_conns.h"

#define NONE		(-1)

struct slot {
	bool used;
	enum http_wait wait;
	uint64_t since;		/* when its wait began */
	uint64_t turn;		/* the turn it was accepted in */
	int prev, next;		/* in its wait's list, or (next) in the free list */
};

/* the connections of one kind of wait, in the order their waits began: the oldest first */
struct list {
	int first, last;
};

struct http_conns {
	int capacity, used;
	uint64_t turn;
	struct http_conns_limits limits;
	struct list waiting[NR_HTTP_WAITS];
	int free;
	struct slot *slots;
};

struct http_conns *http_conns__new(int capacity, const struct http_conns_limits *limits)
{
	struct http_conns *t;

	if (capacity < 1)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->slots = calloc(capacity, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->capacity = capacity;
	t->limits = *limits;
	for (int w = 0; w < NR_HTTP_WAITS; w++)
		t->waiting[w] = (struct list){ NONE, NONE };
	/* the free list in slot order: the lowest free slot is taken first */
	for (int i = 0; i < capacity; i++)
		t->slots[i].next = i + 1 < capacity ? i + 1 : NONE;
	t->free = 0;
	return t;
}

void http_conns__free(struct http_conns *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

void http_conns__set_limits(struct http_conns *t, const struct http_conns_limits *limits)
{
	t->limits = *limits;
}

int http_conns__capacity(const struct http_conns *t)
{
	return t->capacity;
}

int http_conns__used(const struct http_conns *t)
{
	return t->used;
}

void http_conns__turn(struct http_conns *t)
{
	t->turn++;
}

static void unlink_slot(struct http_conns *t, int i)
{
	struct slot *s = &t->slots[i];
	struct list *l = &t->waiting[s->wait];

	if (s->prev == NONE)
		l->first = s->next;
	else
		t->slots[s->prev].next = s->next;
	if (s->next == NONE)
		l->last = s->prev;
	else
		t->slots[s->next].prev = s->prev;
}

/* append - @i last of its wait's list: the times never go back, so the list stays in the order of since */
static void append(struct http_conns *t, int i)
{
	struct slot *s = &t->slots[i];
	struct list *l = &t->waiting[s->wait];

	s->prev = l->last;
	s->next = NONE;
	if (l->last == NONE)
		l->first = i;
	else
		t->slots[l->last].next = i;
	l->last = i;
}

int http_conns__take(struct http_conns *t, uint64_t now)
{
	int i = t->free;
	struct slot *s;

	if (i == NONE)
		return -ENOSPC;
	s = &t->slots[i];
	t->free = s->next;
	*s = (struct slot){ .used = true, .wait = HTTP_WAIT_HEAD, .since = now, .turn = t->turn };
	append(t, i);
	t->used++;
	return i;
}

int http_conns__victim(const struct http_conns *t)
{
	/* the kinds of wait without a request in hand: not its password's check, nor the sending of its response */
	static const enum http_wait idle[] = { HTTP_WAIT_HEAD, HTTP_WAIT_NEXT, HTTP_WAIT_DRAIN };
	int victim = NONE;

	for (size_t k = 0; k < sizeof(idle) / sizeof(idle[0]); k++) {
		int i = t->waiting[idle[k]].first;

		/*
		 * A list's first is its oldest. Those accepted in this turn are
		 * the newest of all, so when the first of the heads is one, every
		 * head is: none of them may go.
		 */
		if (i == NONE || (idle[k] == HTTP_WAIT_HEAD && t->slots[i].turn == t->turn))
			continue;
		if (victim == NONE || t->slots[i].since < t->slots[victim].since)
			victim = i;
	}
	return victim;
}

void http_conns__wait(struct http_conns *t, int i, enum http_wait w, uint64_t now)
{
	struct slot *s = &t->slots[i];

	unlink_slot(t, i);
	s->wait = w;
	s->since = now;
	append(t, i);
}

enum http_wait http_conns__waits(const struct http_conns *t, int i)
{
	return t->slots[i].wait;
}

int http_conns__first(const struct http_conns *t, enum http_wait w)
{
	return t->waiting[w].first;
}

int http_conns__next(const struct http_conns *t, int i)
{
	return t->slots[i].next;
}

void http_conns__release(struct http_conns *t, int i)
{
	struct slot *s = &t->slots[i];

	if (!s->used)
		return;
	unlink_slot(t, i);
	s->used = false;
	s->next = t->free;
	t->free = i;
	t->used--;
}

/* deadline - when the wait of the first of @w's list ends; UINT64_MAX: none waits so */
static uint64_t deadline(const struct http_conns *t, enum http_wait w, int *slot)
{
	int i = t->waiting[w].first;

	*slot = i;
	return i == NONE ? UINT64_MAX : t->slots[i].since + t->limits.ms[w];
}

int http_conns__expired(const struct http_conns *t, uint64_t now)
{
	uint64_t oldest = UINT64_MAX;
	int found = NONE;

	for (int w = 0; w < NR_HTTP_WAITS; w++) {
		int i;
		uint64_t at = deadline(t, w, &i);

		if (i != NONE && at <= now && at < oldest) {
			oldest = at;
			found = i;
		}
	}
	return found;
}

int64_t http_conns__next_deadline(const struct http_conns *t, uint64_t now)
{
	uint64_t nearest = UINT64_MAX;

	for (int w = 0; w < NR_HTTP_WAITS; w++) {
		int i;
		uint64_t at = deadline(t, w, &i);

		if (at < nearest)
			nearest = at;
	}
	if (nearest == UINT64_MAX)
		return -1;
	return nearest <= now ? 0 : (int64_t)(nearest - now);
}
