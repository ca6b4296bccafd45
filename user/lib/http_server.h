/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_server.h - the scrape endpoint of a long-lived wakeprobe: GET /metrics
 * (and HEAD) for Prometheus, in its text format or in OpenMetrics when the
 * scraper's Accept header asks for it, a page at / that links there, and
 * nothing else. HTTP/1.1 connections are kept for the next request, and
 * requests pipelined on one are each answered, in order (RFC 9112 9.3);
 * a connection is closed after a response that says "Connection: close":
 * to HTTP/1.0, to a client that asked it, after a request with a body
 * (which is not read), after a refused head (400, 421, 431).
 *
 * Only for this machine's names: a request whose Host is not an IP
 * literal, "localhost" or a name the machine goes by (its hostname, the
 * names /etc/hosts gives it, those a caller adds) is answered 421, so that
 * a web page cannot reach the metrics through a name of its own pointed
 * here (DNS rebinding). An HTTP/1.1 request without one Host is a 400.
 *
 * It never blocks its caller: the sockets are non-blocking, and the caller's
 * loop calls http_server__serve() between its own work, which handles what is
 * ready (epoll: what is idle costs nothing) and returns. A turn's work is
 * bounded: HTTP_EVENTS_PER_TURN sockets read or written, one request
 * answered a connection, however many it pipelined (the rest kept read for
 * the turns after), HTTP_ACCEPTS_PER_TURN connections accepted, after the
 * reads, so that a scraper's request that came is read before a storm of
 * connections can push it out. The metrics are rendered into memory that
 * every response of the same rendering shares, and written as each client
 * takes them: a slow client costs its connection, not the loop's time.
 *
 * Bounded, and hard to starve: a table of connections sized to the file
 * limit (http_server__max_conns(), at most HTTP_CONNS_MAX), each with a
 * request head of HTTP_HEAD_MAX bytes at most. A request head must be
 * whole HTTP_HEAD_MS after the accept, the next one on a kept connection
 * HTTP_IDLE_MS after the response before, and a response taken within
 * HTTP_WRITE_MS: a connection that dribbles a head is closed then. When
 * the table is full, a new connection takes the place of the one that has
 * waited longest without a complete request (http_conns.h), never one being
 * answered: a flood of idle connections keeps no scraper out.
 *
 * With a web configuration (http_server__set_web_config(), web_config.h),
 * it serves HTTPS (tls_server.h) and asks every request for a user and
 * password (basic_auth.h), which are checked out of the caller's thread:
 * a request waits for its verdict without holding the loop, and is
 * answered 401 with "WWW-Authenticate: Basic" without the right ones. A
 * TLS handshake is part of reading the first head, within HTTP_HEAD_MS and
 * given way like any head; a request whose password is being checked is
 * one being answered, never given way, and closed HTTP_AUTH_MS after its
 * check began if no verdict came.
 */
#ifndef WAKEPROBE_HTTP_SERVER_H
#define WAKEPROBE_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define HTTP_HEAD_MAX		8192
/*
 * A request head is one segment or a few, sent at once by any scraper or
 * browser: 3 s lets two lost segments be sent again (RTO from 200 ms,
 * doubled) on a path of a second's round trip, and no more to a client
 * that dribbles. A kept connection has 2 s for its next request: a client
 * with one ready sends it at once, and a scraper comes back only at its
 * next interval (10 s and up), on a connection it opens again.
 */
#define HTTP_HEAD_MS		3000
#define HTTP_IDLE_MS		2000
/* a response, from its start to its last byte taken: a slow reader of a large body */
#define HTTP_WRITE_MS		10000
/*
 * a password's check, from its request's head to its verdict: it may wait
 * behind BASIC_AUTH_QUEUE - 1 others, each tens of ms at bcrypt's usual
 * cost of 10 and a few hundred at 12 or 13; past 5 s the worker is stuck
 * behind costlier hashes than a scrape endpoint should have
 */
#define HTTP_AUTH_MS		5000
/*
 * The most connections at once: 4096 heads of HTTP_HEAD_MAX bytes are 32
 * MiB, the memory a flood can take at worst. Fewer when the file limit is
 * lower: HTTP_FDS_KEPT of it are left to the rest of the process.
 */
#define HTTP_CONNS_MAX		4096
#define HTTP_FDS_KEPT		256
/* the work of a turn: sockets handled, connections accepted */
#define HTTP_EVENTS_PER_TURN	512
#define HTTP_ACCEPTS_PER_TURN	512

struct http_server;
struct web_config;

/*
 * What a scrape gets: the metrics written into @out, in the Prometheus text
 * format 0.0.4, or in OpenMetrics 1.0.0 when @openmetrics. 0, or a negative
 * errno, which the scraper sees as a 500.
 */
typedef int (*http_metrics_fn)(FILE *out, bool openmetrics, void *ctx);

/* an address to listen on, as http_server__parse_listen() made it */
struct http_listen {
	struct sockaddr_storage addr;
	socklen_t addr_len;
	/*
	 * ":PORT": every address, IPv6 and IPv4 both, or IPv4 alone where
	 * there is no IPv6. "[::]:PORT" takes IPv4 too, but wants IPv6.
	 */
	bool any;
};

/*
 * http_server__parse_listen - "ADDR:PORT", "[V6ADDR]:PORT" or ":PORT" (every
 * address), numeric addresses only (a name would need a resolver that may
 * block), the port from 1 to 65535: port 0 would have the kernel pick a
 * free one, which no scraper, unit file or firewall rule could be told of.
 * 0, or -EINVAL or -ERANGE with a one-line message in @msg that names the
 * fix. Binds nothing: a command line can be checked before anything starts.
 */
int http_server__parse_listen(const char *listen_at, struct http_listen *out, char *msg, size_t len);

/*
 * http_server__open - listen on @listen_at (as http_server__parse_listen()
 * takes it) and answer scrapes with @fn(out, openmetrics, @ctx). 0, or a
 * negative errno with a one-line message in @msg that names the fix (the
 * address in use, no permission, an address not of this host).
 */
int http_server__open(struct http_server **s, const char *listen_at, http_metrics_fn fn, void *ctx, char *msg,
		      size_t len);

/*
 * http_server__open_any_port - for tests: as http_server__open(), but a
 * port of 0 is taken, and the kernel picks a free one: http_server__port()
 * says which
 */
int http_server__open_any_port(struct http_server **s, const char *listen_at, http_metrics_fn fn, void *ctx,
			       char *msg, size_t len);

/*
 * http_server__allow_name - @name (a DNS alias of this machine that
 * scrapers use) is taken in a request's Host, as the machine's own names
 * are: for a caller's option, and the tests. 0, or -EINVAL (empty, or with
 * a ':' or '/'), -ENAMETOOLONG, -ENOSPC (eight names are known already).
 */
int http_server__allow_name(struct http_server *s, const char *name);

/* http_server__fd - the listening socket, for a caller that polls it with its own fds */
int http_server__fd(const struct http_server *s);

/* http_server__port - the port listened on: the one the kernel picked, for http_server__open_any_port() */
int http_server__port(const struct http_server *s);

/*
 * http_server__serve - accept, read and answer whatever is ready, waiting for
 * something at most @timeout_ms (0: not at all), and close the connections
 * past their deadline. Returns early when a signal arrives, so that the
 * caller sees it.
 */
void http_server__serve(struct http_server *s, int timeout_ms);

/*
 * http_server__set_web_config - serve as @cfg asks (NULL: plain HTTP, no
 * password), from now on: new connections get its TLS, every request
 * after this its users. @name is what messages call the file. 0, or a
 * negative errno with one line in @msg, the configuration before kept in
 * force (a key that is not the certificate's, a file OpenSSL will not read).
 */
int http_server__set_web_config(struct http_server *s, const struct web_config *cfg, const char *name, char *msg,
				size_t len);

/* what the server did, for the service's own metrics */
struct http_server_stats {
	uint64_t scrapes;	/* /metrics answered with 200 */
	uint64_t requests;	/* requests answered, whatever the status */
	uint64_t errors;	/* answered 4xx or 5xx, or closed before its answer was sent (deadline, reset) */
	uint64_t bytes_sent;
	uint64_t refused;	/* connections closed at once: the table was full, and none could give way */
	uint64_t evicted;	/* connections closed to give their place to a new one */
	uint64_t timed_out;	/* connections closed at their deadline (HTTP_HEAD_MS and the others) */
};

void http_server__stats(const struct http_server *s, struct http_server_stats *out);

/*
 * http_server__max_conns - how many connections the table holds: what the
 * file limit (RLIMIT_NOFILE) left room for at the open, or
 * http_server__set_max_conns()'s
 */
int http_server__max_conns(const struct http_server *s);

/*
 * http_server__set_max_conns - the table sized for @n connections (1 to
 * HTTP_CONNS_MAX), before any is accepted: for a caller that knows how
 * many files it keeps, and the tests. 0, or -EINVAL, -EBUSY (connections
 * are open), -ENOMEM.
 */
int http_server__set_max_conns(struct http_server *s, int n);

/*
 * http_server__set_timeouts - for tests: how long a request head may take
 * from the accept (@head_ms), and the next from the response before
 * (@idle_ms), instead of HTTP_HEAD_MS and HTTP_IDLE_MS
 */
void http_server__set_timeouts(struct http_server *s, int head_ms, int idle_ms);

/* http_server__set_auth_timeout - for tests: how long a password's check may take, instead of HTTP_AUTH_MS */
void http_server__set_auth_timeout(struct http_server *s, int auth_ms);

/* http_server__close - stop listening, close every connection; NULL is fine */
void http_server__close(struct http_server *s);

#endif /* WAKEPROBE_HTTP_SERVER_H */
