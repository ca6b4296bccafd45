// SPDX-License-Identifier: GPL-2.0
/* http_server.c - a non-blocking HTTP/1.x endpoint for Prometheus scrapes, kept alive and pipelined */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "basic_auth.h"
#include "http_conns.h"
#include "http_request.h"
#include "http_server.h"
#include "parse.h"
#include "tls_server.h"

/* how long a connection may stay once its last response is sent, for the client to read it and close */
#define HTTP_DRAIN_MS		1000
/* a head buffer's first size: most heads fit, and one grows to HTTP_HEAD_MAX only if its head needs it */
#define HTTP_HEAD_FIRST		512
/* the connections closed at their deadline in a turn, at most: the rest in the turns after */
#define HTTP_EXPIRES_PER_TURN	1024
/* the listening socket's mark in an epoll event, beside the connections' slots */
#define LISTENER		UINT32_MAX
/* how long a wait lasts at most while a password is checked in basic_auth's thread, which wakes no epoll */
#define HTTP_AUTH_POLL_MS	5

/* the names of this machine the Host check knows (HTTP_NAME_LEN each, http_request.h) */
#define HTTP_NAMES_MAX		8
/* the lines of /etc/hosts read for them, at most: a file that size is no host table */
#define HOSTS_LINES_MAX		4096

#define TYPE_TEXT		"text/plain; version=0.0.4; charset=utf-8"
#define TYPE_OPENMETRICS	"application/openmetrics-text; version=1.0.0; charset=utf-8"

enum conn_state {
	CONN_READ,	/* reading a request head, or waiting for the next one */
	CONN_WRITE,	/* sending the response */
	/*
	 * Sent, and shut for writing: reading whatever the client still sends
	 * until it closes. Closing with unread bytes (a request body, the rest
	 * of a head too large) would send a reset, and a reset can make the
	 * client throw away the response it has not read yet.
	 */
	CONN_DRAIN,
	/* a request's credentials checked by basic_auth's thread: answered when its verdict comes */
	CONN_AUTH,
};

/* a rendering of the metrics, which every response made of it points at until the last is sent */
struct http_body {
	unsigned long refs;
	size_t len;
	char *data;
};

struct conn {
	int fd;			/* -1: the slot is free */
	struct tls_session *tls;	/* --web-config's TLS; NULL: plain HTTP */
	enum conn_state state;
	/* CONN_AUTH: the request parsed, the length of its head, the check's ticket (basic_auth.h) */
	struct http_request rq;
	size_t head_len;
	uint32_t auth_ticket;
	uint32_t events;	/* what epoll watches it for */
	bool last;		/* the response is the connection's last: it is closed once sent */
	bool queued;		/* a request read already waits for its turn (in the server's queue) */
	bool in_queue;		/* its slot is in the queue, even if what queued it is gone */
	uint64_t answered_turn;	/* the turn it was last answered in: one request a turn */
	uint64_t served;	/* responses sent whole on it */
	/*
	 * The response: its head (with the body, when short) in out, of its
	 * own, then body, which may be a rendering that others share
	 */
	char *out;
	size_t out_len;
	const char *body;
	size_t body_len;
	struct http_body *shared;
	size_t sent;		/* of out, then of the body */
	/*
	 * What the client sent that is not answered yet: the head being read
	 * and, once it is whole, whatever came after it, a request pipelined
	 * behind it (RFC 9112 9.3.2), which is answered next, in its turn.
	 * Grown as the head needs, to HTTP_HEAD_MAX + 1 (room for a NUL).
	 */
	char *in;
	size_t in_cap, in_len;
	size_t scanned;		/* of in[], the bytes searched for the head's end */
};

struct http_server {
	int fd;
	int ep;			/* epoll: the listening socket and every connection */
	http_metrics_fn fn;
	void *ctx;
	struct http_server_stats stats;
	/* --web-config: the TLS context new connections get (NULL: plain HTTP), and who may scrape */
	struct tls_server *tls;
	struct basic_auth *auth;
	char names[HTTP_NAMES_MAX][HTTP_NAME_LEN];
	int nr_names;
	uint64_t turn;
	struct http_conns_limits limits;
	struct http_conns *table;	/* which slot, which goes, when */
	struct conn *conns;		/* by slot */
	int max_conns;
	/* the slots with a request read and waiting for a turn: a ring of max_conns */
	int *queue;
	int queue_first, nr_queued;
	/* the last rendering in each format (text, OpenMetrics), shared by the responses made of it */
	struct http_body *rendered[2];
	struct epoll_event events[HTTP_EVENTS_PER_TURN];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * parse_listen - http_server__parse_listen(), with port 0 taken when
 * @any_port: the kernel's pick, for a caller that asks which it was
 */
static int parse_listen(const char *listen_at, struct http_listen *out, bool any_port, char *msg, size_t len)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&out->addr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&out->addr;
	const char *colon, *host;
	char addr[64], shown[PARSE_QUOTE_LEN];
	size_t host_len;
	uint64_t port;
	int err;

	memset(out, 0, sizeof(*out));
	if (!listen_at || !*listen_at) {
		snprintf(msg, len, "--listen wants ADDR:PORT, [ADDR]:PORT or :PORT, e.g. 127.0.0.1:9100");
		return -EINVAL;
	}
	parse__quote(listen_at, strlen(listen_at), shown);
	if (listen_at[0] == '[') {
		const char *close = strchr(listen_at, ']');

		if (!close || close[1] != ':') {
			snprintf(msg, len, "--listen %s: an IPv6 address in brackets wants a port after it, "
				 "e.g. [::1]:9100", shown);
			return -EINVAL;
		}
		host = listen_at + 1;
		host_len = close - host;
		colon = close + 1;
	} else {
		colon = strchr(listen_at, ':');
		if (!colon) {
			snprintf(msg, len, "--listen %s: no port: give ADDR:PORT, e.g. 127.0.0.1:9100, or :9100 "
				 "for every address", shown);
			return -EINVAL;
		}
		if (strchr(colon + 1, ':')) {
			snprintf(msg, len, "--listen %s: an IPv6 address goes in brackets, e.g. [::1]:9100", shown);
			return -EINVAL;
		}
		host = listen_at;
		host_len = colon - listen_at;
	}

	err = parse__u64(colon + 1, 0, 65535, &port);
	if (!err && !port && !any_port) {
		/* the kernel would pick a port, and no scraper, unit or firewall rule could know it */
		snprintf(msg, len, "--listen %s: port 0 means any free port, which no "
			 "scraper would know: give one from 1 to 65535, e.g. 9750", shown);
		return -ERANGE;
	}
	if (err == -ERANGE) {
		snprintf(msg, len, "--listen %s: port %s is out of range: give one from 1 to 65535", shown,
			 parse__shown(colon + 1));
		return err;
	}
	if (err) {
		snprintf(msg, len, "--listen %s: the port must be a number from 1 to 65535", shown);
		return err;
	}

	if (host_len >= sizeof(addr))
		host_len = sizeof(addr) - 1;	/* too long for any address: inet_pton() says no */
	memcpy(addr, host, host_len);
	addr[host_len] = '\0';
	if (listen_at[0] != '[' && !host_len) {
		/* every address: IPv6's any takes IPv4 too (IPV6_V6ONLY off); http_server__open() falls back */
		out->any = true;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
		sin6->sin6_port = htons(port);
		out->addr_len = sizeof(*sin6);
	} else if (listen_at[0] == '[') {
		if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) != 1) {
			snprintf(msg, len, "--listen %s: not an IPv6 address: give one such as [::1] or [::]", shown);
			return -EINVAL;
		}
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		out->addr_len = sizeof(*sin6);
	} else {
		if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1) {
			snprintf(msg, len, "--listen %s: not an IPv4 address: give a numeric one such as 127.0.0.1 "
				 "(names are not looked up), or [::1] for IPv6", shown);
			return -EINVAL;
		}
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		out->addr_len = sizeof(*sin);
	}
	return 0;
}

int http_server__parse_listen(const char *listen_at, struct http_listen *out, char *msg, size_t len)
{
	return parse_listen(listen_at, out, false, msg, len);
}

/* open_error - the one line that says why @listen_at could not be listened on (@err), and what to do */
static void open_error(char *msg, size_t len, const char *listen_at, int err)
{
	const char *why;

	switch (err) {
	case -EADDRINUSE:
		why = "address in use: another program listens there; pick another port";
		break;
	case -EACCES:
		why = "permission denied: a port below 1024 needs root or CAP_NET_BIND_SERVICE; pick one from 1024 up";
		break;
	case -EADDRNOTAVAIL:
		why = "no such address on this host: give one it has (ip address shows them), or :PORT for every "
		      "address";
		break;
	case -EAFNOSUPPORT:
		why = "this host has no IPv6: give an IPv4 address, or :PORT for every address";
		break;
	default:
		why = strerror(-err);
		break;
	}
	snprintf(msg, len, "--listen %s: %s", parse__shown(listen_at), why);
}

/* add_name - @name to the names of this machine, without a final dot; 0, or -EINVAL, -ENAMETOOLONG, -ENOSPC */
static int add_name(struct http_server *s, const char *name)
{
	size_t len = strlen(name);

	if (len && name[len - 1] == '.')
		len--;
	if (!len || memchr(name, ':', len) || memchr(name, '/', len))
		return -EINVAL;
	if (len >= HTTP_NAME_LEN)
		return -ENAMETOOLONG;
	for (int i = 0; i < s->nr_names; i++)
		if (strlen(s->names[i]) == len && !strncasecmp(s->names[i], name, len))
			return 0;
	if (s->nr_names == HTTP_NAMES_MAX)
		return -ENOSPC;
	memcpy(s->names[s->nr_names], name, len);
	s->names[s->nr_names++][len] = '\0';
	return 0;
}

/*
 * own_names - the names this machine goes by, for the Host check: its
 * hostname (gethostname(2)), and every name on the lines of /etc/hosts
 * that list it, where hostname -f finds the fully qualified one (hosts(5)).
 * DNS is not asked: with no resolver in reach a lookup stalls for seconds.
 */
static void own_names(struct http_server *s)
{
	char host[HTTP_NAME_LEN + 1], *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (gethostname(host, sizeof(host) - 1))
		return;
	host[sizeof(host) - 1] = '\0';
	if (add_name(s, host))
		return;
	f = fopen("/etc/hosts", "re");
	if (!f)
		return;
	for (int n = 0; n < HOSTS_LINES_MAX && getline(&line, &cap, f) > 0; n++) {
		char *names[HTTP_NAMES_MAX], *word, *rest = line;
		int nr = 0;
		bool ours = false;

		rest[strcspn(rest, "#")] = '\0';
		/* the address first, then its names */
		rest += strspn(rest, " \t");
		strsep(&rest, " \t\r\n");
		while ((word = strsep(&rest, " \t\r\n"))) {
			if (!*word)
				continue;
			if (!strcasecmp(word, host))
				ours = true;
			if (nr < HTTP_NAMES_MAX)
				names[nr++] = word;
		}
		for (int i = 0; ours && i < nr; i++)
			add_name(s, names[i]);
	}
	free(line);
	fclose(f);
}

/* conns_the_limit_allows - the connections the file limit leaves room for, HTTP_FDS_KEPT kept for the rest */
static int conns_the_limit_allows(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) || lim.rlim_cur == RLIM_INFINITY)
		return HTTP_CONNS_MAX;
	if (lim.rlim_cur <= HTTP_FDS_KEPT + 16)
		return 16;
	return lim.rlim_cur - HTTP_FDS_KEPT < HTTP_CONNS_MAX ? (int)(lim.rlim_cur - HTTP_FDS_KEPT) : HTTP_CONNS_MAX;
}

/* size_table - @s's table, its connections and its queue for @n connections, none open; 0 or -ENOMEM */
static int size_table(struct http_server *s, int n)
{
	struct http_conns *table = http_conns__new(n, &s->limits);
	struct conn *conns = calloc(n, sizeof(*conns));
	int *queue = calloc(n, sizeof(*queue));

	if (!table || !conns || !queue) {
		http_conns__free(table);
		free(conns);
		free(queue);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		conns[i].fd = -1;
	http_conns__free(s->table);
	free(s->conns);
	free(s->queue);
	s->table = table;
	s->conns = conns;
	s->queue = queue;
	s->max_conns = n;
	s->queue_first = s->nr_queued = 0;
	return 0;
}

/* open_at - http_server__open(), or with port 0 the kernel's pick when @any_port */
static int open_at(struct http_server **sp, const char *listen_at, bool any_port, http_metrics_fn fn, void *ctx,
		   char *msg, size_t len)
{
	struct http_listen at;
	struct http_server *s;
	int err, one = 1, zero = 0;

	*sp = NULL;
	err = parse_listen(listen_at, &at, any_port, msg, len);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s) {
		err = -ENOMEM;
		goto fail;
	}
	s->fd = -1;
	s->ep = -1;
	s->fn = fn;
	s->ctx = ctx;
	s->limits = (struct http_conns_limits){ .ms = {
		[HTTP_WAIT_HEAD] = HTTP_HEAD_MS,
		[HTTP_WAIT_NEXT] = HTTP_IDLE_MS,
		[HTTP_WAIT_WRITE] = HTTP_WRITE_MS,
		[HTTP_WAIT_DRAIN] = HTTP_DRAIN_MS,
		[HTTP_WAIT_AUTH] = HTTP_AUTH_MS,
	} };
	err = size_table(s, conns_the_limit_allows());
	if (err)
		goto fail;
	own_names(s);
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (s->ep < 0) {
		err = -errno;
		goto fail;
	}

	s->fd = socket(at.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0 && errno == EAFNOSUPPORT && at.any) {
		/* no IPv6 here: every address is every IPv4 one */
		struct sockaddr_in *sin = (struct sockaddr_in *)&at.addr;
		in_port_t port = ((struct sockaddr_in6 *)&at.addr)->sin6_port;

		memset(&at.addr, 0, sizeof(at.addr));
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
		sin->sin_port = port;
		at.addr_len = sizeof(*sin);
		s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	}
	if (s->fd < 0) {
		err = -errno;
		goto fail;
	}
	/* a restarted service binds again at once, its old connections in TIME_WAIT notwithstanding */
	if (setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one))) {
		err = -errno;
		goto fail;
	}
	/* IPv6's any answers IPv4 too, whatever net.ipv6.bindv6only says */
	if (at.addr.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&at.addr)->sin6_addr) &&
	    setsockopt(s->fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) {
		err = -errno;
		goto fail;
	}
	/*
	 * A backlog as deep as the kernel allows (it trims this to
	 * net.core.somaxconn, 4096 since Linux 5.4): the connections that come
	 * between two turns wait there, and once it is full the kernel drops
	 * a scraper's SYN, which its client sends again only a second later
	 */
	if (bind(s->fd, (struct sockaddr *)&at.addr, at.addr_len) || listen(s->fd, 65535)) {
		err = -errno;
		goto fail;
	}
	if (epoll_ctl(s->ep, EPOLL_CTL_ADD, s->fd, &(struct epoll_event){ .events = EPOLLIN,
									    .data.u32 = LISTENER })) {
		err = -errno;
		goto fail;
	}
	*sp = s;
	return 0;
fail:
	open_error(msg, len, listen_at, err);
	http_server__close(s);
	return err;
}

int http_server__open(struct http_server **s, const char *listen_at, http_metrics_fn fn, void *ctx, char *msg,
		      size_t len)
{
	return open_at(s, listen_at, false, fn, ctx, msg, len);
}

int http_server__open_any_port(struct http_server **s, const char *listen_at, http_metrics_fn fn, void *ctx,
			       char *msg, size_t len)
{
	return open_at(s, listen_at, true, fn, ctx, msg, len);
}

int http_server__allow_name(struct http_server *s, const char *name)
{
	return add_name(s, name);
}

int http_server__fd(const struct http_server *s)
{
	return s ? s->fd : -1;
}

int http_server__port(const struct http_server *s)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (!s || getsockname(s->fd, (struct sockaddr *)&ss, &len))
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/*
 * The socket I/O of a connection, each in one place: what reads from,
 * writes to, ends and closes a client's socket goes through these, and
 * through its TLS session when it has one (tls_server.h). Each says how
 * many bytes, 0 when the client closed, -EAGAIN when it cannot go on now
 * (conn_events() says for what), or another negative errno.
 */

/* conn_recv - up to @len bytes the client sent: decrypted with TLS, which may write a handshake's reply */
static ssize_t conn_recv(struct conn *c, void *buf, size_t len)
{
	return tls_server__recv(c->tls, c->fd, buf, len);
}

/* conn_send - up to @len bytes of @buf to the client; @more: more follows at once, hold a part segment */
static ssize_t conn_send(struct conn *c, const void *buf, size_t len, bool more)
{
	ssize_t n;

	if (c->tls)
		return tls_server__send(c->tls, c->fd, buf, len);
	/* MSG_NOSIGNAL: a client gone makes this EPIPE, not a SIGPIPE that ends the process */
	do
		n = send(c->fd, buf, len, MSG_NOSIGNAL | (more ? MSG_MORE : 0));
	while (n < 0 && errno == EINTR);
	return n >= 0 ? n : errno == EWOULDBLOCK ? -EAGAIN : -errno;
}

/*
 * conn_discard - up to @len bytes of the socket's own, with TLS too: what
 * a client sends after its last response is thrown away unread, and a
 * session would only spend time decrypting it
 */
static ssize_t conn_discard(struct conn *c, void *buf, size_t len)
{
	return tls_server__recv(NULL, c->fd, buf, len);
}

/*
 * conn_events - the epoll events @c waits for, @events being those of a
 * plain socket in its state: with TLS, a read may wait to write (a
 * handshake's reply the socket could not take), a write to read
 */
static uint32_t conn_events(const struct conn *c, uint32_t events)
{
	short wants = tls_server__events(c->tls, 0);

	return events | (wants & POLLIN ? EPOLLIN : 0) | (wants & POLLOUT ? EPOLLOUT : 0);
}

/* conn_shut - nothing more to send: the client reads the end of the stream (after TLS's close_notify) */
static void conn_shut(struct conn *c)
{
	tls_server__shutdown(c->tls, c->fd);
}

/* conn_close - the session freed and the socket closed, which takes it out of the epoll set too */
static void conn_close(struct conn *c)
{
	tls_server__close(c->tls, c->fd);
	c->tls = NULL;
	c->fd = -1;
}

static struct http_body *body_get(struct http_body *b)
{
	b->refs++;
	return b;
}

static void body_put(struct http_body *b)
{
	if (b && !--b->refs) {
		free(b->data);
		free(b);
	}
}

/* forget_response - what @c had of a response, freed or let go */
static void forget_response(struct conn *c)
{
	free(c->out);
	c->out = NULL;
	body_put(c->shared);
	c->shared = NULL;
	c->body = NULL;
	c->out_len = c->body_len = c->sent = 0;
}

/* slot_of - @c's slot in the table */
static int slot_of(const struct http_server *s, const struct conn *c)
{
	return (int)(c - s->conns);
}

/* only_line_ends - whether the @n bytes at @p are empty lines: what a client may send after a request */
static bool only_line_ends(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

/*
 * unanswered - whether closing @c now loses a request: a response not sent
 * whole, a request whose password is being checked, or a head begun; a
 * kept connection idle between requests, or one done, loses none
 */
static bool unanswered(const struct conn *c)
{
	if (c->state == CONN_WRITE || c->state == CONN_AUTH)
		return true;
	return c->state == CONN_READ && (!c->served || !only_line_ends(c->in, c->in_len));
}

/* finish - close @c and free its slot; @failed: it ended before its response was sent */
static void finish(struct http_server *s, struct conn *c, bool failed)
{
	if (failed)
		s->stats.errors++;
	if (c->state == CONN_AUTH)
		basic_auth__cancel(s->auth, c->auth_ticket);
	c->state = CONN_READ;
	conn_close(c);
	http_conns__release(s->table, slot_of(s, c));
	forget_response(c);
	free(c->in);
	c->in = NULL;
	c->in_cap = c->in_len = c->scanned = 0;
	c->served = 0;
	c->last = false;
	c->queued = false;
}

/* watch - epoll to wake for @events of @c: what its state waits for */
static int watch(struct http_server *s, struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.u32 = (uint32_t)slot_of(s, c) };

	if (c->events == events)
		return 0;
	if (epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev))
		return -errno;
	c->events = events;
	return 0;
}

/* enqueue - @c has a request read already: it is answered in the next turn, with no wait for its socket */
static void enqueue(struct http_server *s, struct conn *c)
{
	c->queued = true;
	if (c->in_queue)
		return;
	c->in_queue = true;
	s->queue[(s->queue_first + s->nr_queued++) % s->max_conns] = slot_of(s, c);
}
static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 421:
		return "Misdirected Request";
	case 431:
		return "Request Header Fields Too Large";
	case 503:
		return "Service Unavailable";
	default:
		return "Internal Server Error";
	}
}

/* http_date - now, as the Date header wants it; by hand, as strftime's names follow the locale */
static void http_date(char *buf, size_t len)
{
	static const char days[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, len, "%s, %02d %s %d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * reply - @c's response: its status line, headers (@extra, whole lines,
 * may be ""), and @body unless @head_only; the body copied with the head
 * when @copy (a short one, made on the stack), or pointed at (a page, a
 * rendering that @c then holds a reference to, in c->shared)
 */
static int reply(struct conn *c, int status, const char *type, const char *extra, const char *body, size_t body_len,
		 bool head_only, bool copy)
{
	char date[64];
	FILE *f;

	c->out = NULL;
	f = open_memstream(&c->out, &c->out_len);
	if (!f)
		return -ENOMEM;
	http_date(date, sizeof(date));
	/* HTTP/1.1 keeps a connection unless told: only the last response says so (RFC 9112 9.6) */
	fprintf(f, "HTTP/1.1 %d %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%s\r\n", status,
		reason(status), date, type, body_len, extra, c->last ? "Connection: close\r\n" : "");
	if (!head_only && copy)
		fwrite(body, 1, body_len, f);
	if (fclose(f)) {
		free(c->out);
		c->out = NULL;
		return -ENOMEM;
	}
	c->body = head_only || copy ? NULL : body;
	c->body_len = c->body ? body_len : 0;
	return 0;
}

/* reply_error - a short text body that says the status */
static int reply_error(struct conn *c, int status, const char *extra, bool head_only)
{
	char body[64];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, reason(status));

	return reply(c, status, "text/plain; charset=utf-8", extra, body, n, head_only, true);
}

/* port_or_none - "" or ":" and digits, as a Host's port may be (RFC 3986 3.2.3) */
static bool port_or_none(const char *p)
{
	return !*p || (*p == ':' && strlen(p + 1) <= 5 && p[1 + strspn(p + 1, "0123456789")] == '\0');
}

/*
 * host_is_ours - whether @host, a request's Host (or authority), names
 * this server as a scraper or a local client does: an IP literal (v4, or
 * v6 in brackets), "localhost", or a name of this machine, with or
 * without a port. Any other name may be one an attacker's DNS points here
 * (DNS rebinding): a page of theirs in a browser on this machine or its
 * network would then read /metrics as its own origin's. A scraper sends
 * its target's address, an IP or the machine's name, and passes.
 */
static bool host_is_ours(const struct http_server *s, const char *host)
{
	char name[HTTP_NAME_LEN];
	struct in6_addr a6;
	struct in_addr a4;
	const char *port;
	size_t len;

	if (host[0] == '[') {
		const char *close = strchr(host, ']');

		len = close ? (size_t)(close - host - 1) : 0;
		if (!len || len >= sizeof(name))
			return false;
		memcpy(name, host + 1, len);
		name[len] = '\0';
		return inet_pton(AF_INET6, name, &a6) == 1 && port_or_none(close + 1);
	}
	port = host + strcspn(host, ":");
	len = port - host;
	if (!len || len >= sizeof(name) || !port_or_none(port))
		return false;
	memcpy(name, host, len);
	name[len] = '\0';
	if (inet_pton(AF_INET, name, &a4) == 1)
		return true;
	/* a fully qualified name may end in the root's dot */
	if (name[len - 1] == '.')
		name[--len] = '\0';
	if (!strcasecmp(name, "localhost"))
		return true;
	for (int i = 0; i < s->nr_names; i++)
		if (!strcasecmp(name, s->names[i]))
			return true;
	return false;
}

/* render - the metrics into memory: all of them, or none when @fn fails, wherever it stopped */
static int render(struct http_server *s, bool openmetrics, char **body, size_t *len)
{
	FILE *f;
	int err;

	*body = NULL;
	f = open_memstream(body, len);
	if (!f)
		return -ENOMEM;
	err = s->fn ? s->fn(f, openmetrics, s->ctx) : -ENOSYS;
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err) {
		free(*body);
		*body = NULL;
	}
	return err;
}

/*
 * rendering - the metrics in @openmetrics' format, as a body to share,
 * with a reference for the caller: the one kept from before when the
 * callback wrote the same bytes (a caller that renders at most once a
 * second gives the same ones to every scrape in that second), else a new
 * one, kept for the scrapes after. A thousand responses being sent then
 * hold one copy of the metrics, not a thousand.
 */
static int rendering(struct http_server *s, bool openmetrics, struct http_body **out)
{
	struct http_body *b, **kept = &s->rendered[openmetrics];
	size_t len;
	char *text;
	int err;

	err = render(s, openmetrics, &text, &len);
	if (err)
		return err;
	if (*kept && (*kept)->len == len && !memcmp((*kept)->data, text, len)) {
		free(text);
		*out = body_get(*kept);
		return 0;
	}
	b = malloc(sizeof(*b));
	if (!b) {
		free(text);
		return -ENOMEM;
	}
	*b = (struct http_body){ .refs = 1, .len = len, .data = text };
	body_put(*kept);
	*kept = b;
	*out = body_get(b);
	return 0;
}

/*
 * authorize - whether @c's request, parsed, may be answered: the status it
 * gets if not (401, 503), 0 if so, or -EINPROGRESS while its password is
 * checked, @c waiting in CONN_AUTH meanwhile (basic_auth.h)
 */
static int authorize(struct http_server *s, struct conn *c)
{
	enum basic_auth_verdict v;

	if (c->state == CONN_AUTH)
		v = basic_auth__verdict(s->auth, c->auth_ticket);
	else
		v = basic_auth__check(s->auth, c->rq.authorization, &c->auth_ticket);
	if (v == BASIC_AUTH_PENDING) {
		c->state = CONN_AUTH;
		return -EINPROGRESS;
	}
	c->state = CONN_READ;
	return v == BASIC_AUTH_GRANTED ? 0 : v == BASIC_AUTH_BUSY ? 503 : 401;
}

/*
 * answer - the response to the head at the start of @c's input
 * (NUL-terminated), ready to send; @status if known without parsing it.
 * -EINPROGRESS while the credentials are checked: called again, in
 * CONN_AUTH, with the head still there and parsed in c->rq.
 */
static int answer(struct http_server *s, struct conn *c, int status)
{
	static const char page[] = "<!DOCTYPE html>\n<html><head><title>wakeprobe</title></head>\n"
				   "<body><h1>wakeprobe</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
	struct http_request *rq = &c->rq;
	bool head_only;
	struct http_body *body;
	int err;

	if (c->state == CONN_AUTH)
		goto authorize;
	*rq = (struct http_request){ .method = "" };
	if (!status)
		status = http_request__parse(c->in, rq);
	/*
	 * The connection goes on after the response (RFC 9112 9.3) unless
	 * the client said close, or it is HTTP/1.0, whose keep-alive is an
	 * extension not taken here; or a body follows, unread, where the
	 * next request would be looked for; or the head was refused, and
	 * where it ends cannot be trusted to be where the next begins.
	 */
	c->last = status || !rq->http11 || rq->close || rq->body;
	if (!status && rq->host && !host_is_ours(s, rq->host)) {
		status = 421;	/* RFC 9110 15.5.20: not a server for that name */
		c->last = true;
	}
authorize:
	/* a HEAD is answered with the head alone, whatever the status (RFC 9110 9.3.2): 401 and 421 too */
	head_only = !strcmp(rq->method, "HEAD");
	/* every page is behind the password, as exporter-toolkit's are; a refused head is answered without */
	if (!status && (c->state == CONN_AUTH || basic_auth__required(s->auth))) {
		status = authorize(s, c);
		if (status < 0)
			return status;
	}
	if (!status) {
		if (strcmp(rq->method, "GET") && !head_only)
			status = 405;
		else if (!strcmp(rq->path, "/"))
			status = 200;
		else if (strcmp(rq->path, "/metrics"))
			status = 404;
	}
	s->stats.requests++;
	if (status == 405)
		return reply_error(c, status, "Allow: GET, HEAD\r\n", head_only);
	if (status == 401)
		return reply_error(c, status, "WWW-Authenticate: Basic realm=\"wakeprobe\", charset=\"UTF-8\"\r\n",
				   head_only);
	if (status == 503)
		return reply_error(c, status, "Retry-After: 1\r\n", head_only);
	if (status == 200 && !strcmp(rq->path, "/"))
		return reply(c, status, "text/html; charset=utf-8", "", page, sizeof(page) - 1, head_only, false);
	if (status)
		return reply_error(c, status, "", head_only);

	if (rendering(s, rq->openmetrics, &body))
		return reply_error(c, 500, "", head_only);
	s->stats.scrapes++;
	err = reply(c, 200, rq->openmetrics ? TYPE_OPENMETRICS : TYPE_TEXT, "Vary: Accept\r\n", body->data, body->len,
		    head_only, false);
	if (err || !c->body)
		body_put(body);
	else
		c->shared = body;
	return err;
}

static void write_out(struct http_server *s, struct conn *c);

/*
 * respond - answer the head of @head_len bytes at the start of @c's
 * input, with @status if known without parsing it (a NUL in it, one too
 * large), and start sending; what came after the head stays, for its turn
 */
static void respond(struct http_server *s, struct conn *c, size_t head_len, int status)
{
	bool checking = c->state == CONN_AUTH;
	char after = c->in[head_len];
	int err;

	/* the head as a string, for the parse; the byte after it, a pipelined request's first, put back */
	c->in[head_len] = '\0';
	err = answer(s, c, status);
	c->in[head_len] = after;
	if (err == -EINPROGRESS) {
		if (checking)
			return;	/* the verdict is not in yet */
		/*
		 * The head stays where c->rq points into, and nothing more is
		 * read until it is answered: the socket is watched for nothing
		 * meanwhile (what the client pipelines waits in the kernel),
		 * and a wait of its own begins, which no new connection cuts
		 */
		c->head_len = head_len;
		http_conns__wait(s->table, slot_of(s, c), HTTP_WAIT_AUTH, now_ms());
		if (watch(s, c, 0))
			finish(s, c, true);
		return;
	}
	memmove(c->in, c->in + head_len, c->in_len - head_len);
	c->in_len -= head_len;
	c->scanned = 0;
	c->answered_turn = s->turn;
	if (err) {
		finish(s, c, true);
		return;
	}
	/* the status code is the response's first number */
	if (c->out_len > 9 && c->out[9] != '2')
		s->stats.errors++;
	c->sent = 0;
	c->state = CONN_WRITE;
	http_conns__wait(s->table, slot_of(s, c), HTTP_WAIT_WRITE, now_ms());
	write_out(s, c);
}

/* head_end - where the head in @h ends, past its empty line, looking from @from on; 0: not yet */
static size_t head_end(const char *h, size_t from, size_t len)
{
	for (size_t i = from; i < len; i++) {
		if (h[i] != '\n')
			continue;
		if (i + 1 < len && h[i + 1] == '\n')
			return i + 2;
		if (i + 2 < len && h[i + 1] == '\r' && h[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* room - @c's head buffer with room for more, doubled up to HTTP_HEAD_MAX; false without memory */
static bool room(struct conn *c)
{
	size_t cap = c->in_cap ? 2 * c->in_cap : HTTP_HEAD_FIRST;
	char *in;

	if (c->in_len < c->in_cap)
		return true;
	if (cap > HTTP_HEAD_MAX)
		cap = HTTP_HEAD_MAX;
	/* + 1: room for a NUL after a head that fills it */
	in = realloc(c->in, cap + 1);
	if (!in)
		return false;
	c->in = in;
	c->in_cap = cap;
	return true;
}

/*
 * read_request - read what @c sent, and once a head is whole answer it:
 * one request a turn, whatever else came with it, so that a client that
 * pipelines many costs the loop no more than one that sends one
 */
static void read_request(struct http_server *s, struct conn *c)
{
	if (c->answered_turn == s->turn) {
		/* answered in this turn already: what it sent since waits for the next */
		enqueue(s, c);
		return;
	}
	c->queued = false;
	for (;;) {
		size_t end = head_end(c->in, c->scanned > 2 ? c->scanned - 2 : 0, c->in_len);
		ssize_t n;

		c->scanned = c->in_len;
		if (end) {
			/* a NUL in the head would cut it short where the client did not */
			respond(s, c, end, memchr(c->in, '\0', end) ? 400 : 0);
			return;
		}
		if (c->in_len == HTTP_HEAD_MAX) {
			respond(s, c, c->in_len, 431);
			return;
		}
		if (!room(c)) {
			finish(s, c, true);
			return;
		}
		n = conn_recv(c, c->in + c->in_len, c->in_cap - c->in_len);
		if (n == -EAGAIN) {
			/* a TLS handshake may wait to write its reply: the head's deadline runs on meanwhile */
			if (watch(s, c, conn_events(c, EPOLLIN)))
				finish(s, c, true);
			return;
		}
		if (n <= 0) {
			/* closed or reset: between requests a client done, within one a request lost */
			finish(s, c, n < 0 || !only_line_ends(c->in, c->in_len));
			return;
		}
		c->in_len += n;
	}
}

/* sent - @c's response is all sent: the connection kept for the next request, or ended */
static void sent(struct http_server *s, struct conn *c)
{
	int slot = slot_of(s, c);

	forget_response(c);
	c->served++;
	if (!c->last) {
		/* kept alive: the next request, pipelined or to come, has a deadline of its own */
		c->state = CONN_READ;
		http_conns__wait(s->table, slot, HTTP_WAIT_NEXT, now_ms());
		if (!c->in_len) {
			/* an idle connection keeps no buffer */
			free(c->in);
			c->in = NULL;
			c->in_cap = c->scanned = 0;
		}
		/* what TLS decrypted already is in no socket buffer that epoll would wake for */
		if (c->in_len || tls_server__pending(c->tls))
			enqueue(s, c);
		if (watch(s, c, EPOLLIN))
			finish(s, c, false);
		return;
	}
	conn_shut(c);
	c->state = CONN_DRAIN;
	http_conns__wait(s->table, slot, HTTP_WAIT_DRAIN, now_ms());
	if (watch(s, c, EPOLLIN))
		finish(s, c, false);
}

static void write_out(struct http_server *s, struct conn *c)
{
	while (c->sent < c->out_len + c->body_len) {
		bool in_head = c->sent < c->out_len;
		const char *from = in_head ? c->out + c->sent : c->body + (c->sent - c->out_len);
		size_t left = in_head ? c->out_len - c->sent : c->out_len + c->body_len - c->sent;
		ssize_t n = conn_send(c, from, left, in_head && c->body_len);

		if (n == -EAGAIN) {
			/* the client's window is full: woken when it takes more */
			if (watch(s, c, conn_events(c, EPOLLOUT)))
				finish(s, c, true);
			return;
		}
		if (n < 0) {
			finish(s, c, true);
			return;
		}
		c->sent += n;
		s->stats.bytes_sent += n;
	}
	sent(s, c);
}

static void drain(struct http_server *s, struct conn *c)
{
	char junk[4096];

	/* a bounded turn: a client that keeps sending must not hold the loop */
	for (int i = 0; i < 16; i++) {
		ssize_t n = conn_discard(c, junk, sizeof(junk));

		if (n > 0)
			continue;
		if (n == -EAGAIN)
			return;
		finish(s, c, false);
		return;
	}
}

/*
 * step - whatever @c can do now: read a head and answer it, answer one
 * whose password's verdict came, send, or drain after the last response
 */
static void step(struct http_server *s, struct conn *c)
{
	if (c->fd >= 0 && c->state == CONN_AUTH)
		respond(s, c, c->head_len, 0);
	else if (c->fd >= 0 && c->state == CONN_READ)
		read_request(s, c);
	else if (c->fd >= 0 && c->state == CONN_WRITE)
		write_out(s, c);
	else if (c->fd >= 0 && c->state == CONN_DRAIN)
		drain(s, c);
}

/*
 * make_room - the table is full: the connection that has waited longest
 * without a request gives way (http_conns__victim()); false when none may
 */
static bool make_room(struct http_server *s)
{
	int victim = http_conns__victim(s->table);

	if (victim < 0)
		return false;
	s->stats.evicted++;
	finish(s, &s->conns[victim], unanswered(&s->conns[victim]));
	return true;
}

static void accept_ready(struct http_server *s)
{
	/* a bounded turn: a flood of connections must not hold the loop; the backlog keeps the rest */
	for (int k = 0; k < HTTP_ACCEPTS_PER_TURN; k++) {
		int fd = accept4(s->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC), slot;
		struct epoll_event ev = { .events = EPOLLIN };
		struct tls_session *tls = NULL;
		struct conn *c;

		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return;	/* none left, or no fd to take one (EMFILE): the next turn tries again */
		slot = http_conns__take(s->table, now_ms());
		if (slot < 0 && make_room(s))
			slot = http_conns__take(s->table, now_ms());
		if (slot < 0) {
			close(fd);
			s->stats.refused++;
			continue;
		}
		c = &s->conns[slot];
		ev.data.u32 = (uint32_t)slot;
		/* its TLS session, whose handshake is read as the first head is, within HTTP_HEAD_MS */
		if ((s->tls && tls_server__accept(s->tls, fd, &tls)) || epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev)) {
			tls_server__close(tls, fd);
			http_conns__release(s->table, slot);
			s->stats.refused++;
			continue;
		}
		/* a slot may still be in the queue for the connection it had: it stays there once */
		*c = (struct conn){ .fd = fd, .tls = tls, .state = CONN_READ, .events = EPOLLIN, .in_queue = c->in_queue };
		/* the request is often there already (with TLS, the client's hello) */
		step(s, c);
	}
}

/* run_queue - a turn for each connection with a request read already, as it stood when the turn began */
static void run_queue(struct http_server *s)
{
	for (int n = s->nr_queued; n > 0; n--) {
		struct conn *c = &s->conns[s->queue[s->queue_first]];

		s->queue_first = (s->queue_first + 1) % s->max_conns;
		s->nr_queued--;
		c->in_queue = false;
		if (c->fd >= 0 && c->queued)
			step(s, c);
	}
}

/*
 * checked - a turn for each connection whose password is being checked:
 * answered if its verdict came (BASIC_AUTH_QUEUE of them at most)
 */
static void checked(struct http_server *s)
{
	int slot = http_conns__first(s->table, HTTP_WAIT_AUTH);

	while (slot >= 0) {
		/* answered, it leaves the list: the next is read first */
		int next = http_conns__next(s->table, slot);

		step(s, &s->conns[slot]);
		slot = next;
	}
}

/* expire - the connections past their deadline closed: a kept one idle between requests is done, not failed */
static void expire(struct http_server *s)
{
	uint64_t now = now_ms();

	for (int k = 0; k < HTTP_EXPIRES_PER_TURN; k++) {
		int slot = http_conns__expired(s->table, now);

		if (slot < 0)
			return;
		s->stats.timed_out++;
		finish(s, &s->conns[slot], unanswered(&s->conns[slot]));
	}
}

void http_server__serve(struct http_server *s, int timeout_ms)
{
	bool accept = false;
	int64_t due;
	int ready;

	if (!s)
		return;
	s->turn++;
	http_conns__turn(s->table);
	if (timeout_ms < 0)
		timeout_ms = 0;
	/* a request read already, pipelined behind the last one answered: no wait for a socket */
	if (s->nr_queued)
		timeout_ms = 0;
	/* a password checked in another thread, which cannot wake epoll: looked at again soon */
	if (http_conns__first(s->table, HTTP_WAIT_AUTH) >= 0 && timeout_ms > HTTP_AUTH_POLL_MS)
		timeout_ms = HTTP_AUTH_POLL_MS;
	/* woken for the nearest deadline too, so that a long wait closes it in time */
	due = http_conns__next_deadline(s->table, now_ms());
	if (due >= 0 && due < timeout_ms)
		timeout_ms = (int)due;
	/* a signal ends the wait: the caller sees it at once, and calls again */
	ready = epoll_wait(s->ep, s->events, HTTP_EVENTS_PER_TURN, timeout_ms);
	/* what the connections sent, or can take, first: then the new ones (http_conns.h) */
	for (int k = 0; k < ready; k++) {
		uint32_t slot = s->events[k].data.u32;

		if (slot == LISTENER)
			accept = true;
		else if (s->conns[slot].fd >= 0 && s->conns[slot].state == CONN_AUTH)
			/* watched for nothing, and woken: an error or a hang-up, the client gone before its answer */
			finish(s, &s->conns[slot], true);
		else
			step(s, &s->conns[slot]);
	}
	checked(s);
	run_queue(s);
	if (accept)
		accept_ready(s);
	expire(s);
}

int http_server__set_web_config(struct http_server *s, const struct web_config *cfg, const char *name, char *msg,
				size_t len)
{
	struct tls_server *tls = NULL;
	int err;

	if (cfg && cfg->tls && (err = tls_server__new(cfg, name, &tls, msg, len)))
		return err;
	if (cfg && cfg->nr_users && !s->auth && (err = basic_auth__new(&s->auth))) {
		snprintf(msg, len, "--web-config %s: no thread for the password checks: %s", name, strerror(-err));
		tls_server__free(tls);
		return err;
	}
	if (s->auth)
		basic_auth__set_users(s->auth, cfg ? cfg->users : NULL, cfg ? cfg->nr_users : 0);
	/* the connections open keep the session they began with; the new context is for those to come */
	tls_server__free(s->tls);
	s->tls = tls;
	return 0;
}

void http_server__stats(const struct http_server *s, struct http_server_stats *out)
{
	*out = s ? s->stats : (struct http_server_stats){ 0 };
}

int http_server__max_conns(const struct http_server *s)
{
	return s ? s->max_conns : 0;
}

int http_server__set_max_conns(struct http_server *s, int n)
{
	if (n < 1 || n > HTTP_CONNS_MAX)
		return -EINVAL;
	if (http_conns__used(s->table))
		return -EBUSY;
	return size_table(s, n);
}

void http_server__set_timeouts(struct http_server *s, int head_ms, int idle_ms)
{
	s->limits.ms[HTTP_WAIT_HEAD] = head_ms;
	s->limits.ms[HTTP_WAIT_NEXT] = idle_ms;
	http_conns__set_limits(s->table, &s->limits);
}

void http_server__set_auth_timeout(struct http_server *s, int auth_ms)
{
	s->limits.ms[HTTP_WAIT_AUTH] = auth_ms;
	http_conns__set_limits(s->table, &s->limits);
}

void http_server__close(struct http_server *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->max_conns; i++)
		if (s->conns[i].fd >= 0)
			finish(s, &s->conns[i], false);
	if (s->ep >= 0)
		close(s->ep);
	if (s->fd >= 0)
		close(s->fd);
	body_put(s->rendered[0]);
	body_put(s->rendered[1]);
	tls_server__free(s->tls);
	basic_auth__free(s->auth);
	http_conns__free(s->table);
	free(s->conns);
	free(s->queue);
	free(s);
}
