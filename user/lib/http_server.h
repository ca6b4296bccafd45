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
 * ready and returns. A response is rendered once into memory and written as
 * the client takes it, so a slow client costs memory, not the loop's time;
 * a connection gets one request answered a turn, however many it pipelined,
 * the rest kept read for the turns after. Bounded: HTTP_MAX_CONNS
 * connections at once (more are closed as soon as they are accepted), a
 * request head of HTTP_HEAD_MAX bytes, and HTTP_DEADLINE_MS for each
 * exchange: from the accept, or the end of the response before, to the
 * last byte of its response. A kept connection idle that long is closed.
 */
#ifndef WAKEPROBE_HTTP_SERVER_H
#define WAKEPROBE_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define HTTP_MAX_CONNS		16
#define HTTP_HEAD_MAX		8192
#define HTTP_DEADLINE_MS	10000

struct http_server;

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

/* what the server did, for the service's own metrics */
struct http_server_stats {
	uint64_t scrapes;	/* /metrics answered with 200 */
	uint64_t requests;	/* requests answered, whatever the status */
	uint64_t errors;	/* answered 4xx or 5xx, or closed before its answer was sent (deadline, reset) */
	uint64_t bytes_sent;
	uint64_t refused;	/* connections closed at once: HTTP_MAX_CONNS were open */
};

void http_server__stats(const struct http_server *s, struct http_server_stats *out);

/*
 * http_server__set_deadline - for tests: how long a connection may take,
 * from its accept to its last byte, instead of HTTP_DEADLINE_MS
 */
void http_server__set_deadline(struct http_server *s, int ms);

/* http_server__close - stop listening, close every connection; NULL is fine */
void http_server__close(struct http_server *s);

#endif /* WAKEPROBE_HTTP_SERVER_H */
