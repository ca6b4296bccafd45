/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_conns.h - the scrape endpoint's connection table as a policy, with
 * no sockets and no clock (the caller gives the times, in ms of a
 * monotonic clock, never going back): which slot a new connection takes,
 * which connection gives way when every slot is taken, and when each must
 * be done with what it waits for.
 *
 * Each connection waits for one thing at a time, and each kind of wait
 * has its limit, counted from when it began: its first request head (from
 * the accept), the next one on a kept connection (from the end of the
 * response before), its response to be taken (from the start of the
 * response), its request's password to be checked (from the end of its
 * head), the client's close after a last response. A connection in
 * each kind is kept in the order its wait began, so that the oldest of a
 * kind is the first to reach its deadline, and the one to give way.
 *
 * The one to give way to a new connection is the one that has waited
 * longest without a complete request: never one whose response is being
 * sent (its request was served; closing it would throw the answer away)
 * or whose password is being checked (its request is whole, and being
 * answered), nor one accepted in the current turn of the caller's loop, which has not
 * yet had a turn to be read: a scraper's connection, accepted in the same
 * burst as a storm's, is read before the storm can push it out.
 */
#ifndef WAKEPROBE_HTTP_CONNS_H
#define WAKEPROBE_HTTP_CONNS_H

#include <stdint.h>

enum http_wait {
	HTTP_WAIT_HEAD,		/* its first request head, from the accept */
	HTTP_WAIT_NEXT,		/* kept: the next head, from the end of the response before */
	HTTP_WAIT_WRITE,	/* its response being sent, from the start of the response */
	HTTP_WAIT_DRAIN,	/* the client's close, after its last response */
	HTTP_WAIT_AUTH,		/* its request's password checked, from the end of its head */
	NR_HTTP_WAITS
};

/* how long each kind of wait may last, in ms */
struct http_conns_limits {
	uint32_t ms[NR_HTTP_WAITS];
};

struct http_conns;

/* http_conns__new - a table of @capacity slots (at least 1), every one free; NULL without memory */
struct http_conns *http_conns__new(int capacity, const struct http_conns_limits *limits);

void http_conns__free(struct http_conns *t);

/* http_conns__set_limits - other limits from now on, for the waits begun already too */
void http_conns__set_limits(struct http_conns *t, const struct http_conns_limits *limits);

int http_conns__capacity(const struct http_conns *t);
int http_conns__used(const struct http_conns *t);

/*
 * http_conns__turn - a turn of the caller's loop begins: the connections
 * accepted before it have had theirs to be read, and may give way from now
 */
void http_conns__turn(struct http_conns *t);

/*
 * http_conns__take - a free slot for a connection accepted at @now, which
 * waits for its first head; -ENOSPC when none is free
 */
int http_conns__take(struct http_conns *t, uint64_t now);

/*
 * http_conns__victim - when the table is full, the slot of the connection
 * to close for a new one (http_conns__release() it, then take): the one
 * waiting longest without a complete request, of those neither sending a
 * response nor accepted in this turn; -1 when no connection may give way
 */
int http_conns__victim(const struct http_conns *t);

/* http_conns__wait - the connection in slot @i waits for @w from @now on */
void http_conns__wait(struct http_conns *t, int i, enum http_wait w, uint64_t now);

/* http_conns__waits - what the connection in slot @i waits for */
enum http_wait http_conns__waits(const struct http_conns *t, int i);

/*
 * http_conns__first, http_conns__next - the connections waiting for @w,
 * the oldest first, then the one after slot @i in its wait's list; -1: no
 * more. A slot moved to another wait or released leaves the list: read
 * the next before doing so.
 */
int http_conns__first(const struct http_conns *t, enum http_wait w);
int http_conns__next(const struct http_conns *t, int i);

/* http_conns__release - slot @i free again */
void http_conns__release(struct http_conns *t, int i);

/* http_conns__expired - the slot of a connection past its deadline at @now, the oldest first; -1: none */
int http_conns__expired(const struct http_conns *t, uint64_t now);

/* http_conns__next_deadline - ms from @now to the nearest deadline (0 if one has passed); -1: no connection */
int64_t http_conns__next_deadline(const struct http_conns *t, uint64_t now);

#endif /* WAKEPROBE_HTTP_CONNS_H */
