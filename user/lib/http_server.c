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
#include <time.h>
#include <unistd.h>
#include "http_request.h"
#include "http_server.h"
#include "parse.h"

/* how long a connection may stay once its response is sent, for the client to read it and close */
#define HTTP_DRAIN_MS		1000

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
};

struct conn {
	int fd;			/* -1: the slot is free */
	enum conn_state state;
	uint64_t deadline;	/* CLOCK_MONOTONIC ms: closed then, whatever its state */
	char *out;		/* the whole response, head and body */
	size_t out_len, sent;
	bool last;		/* the response is the connection's last: it is closed once sent */
	uint64_t served;	/* responses sent whole on it */
	/*
	 * What the client sent that is not answered yet: the head being read
	 * and, once it is whole, whatever came after it, a request pipelined
	 * behind it (RFC 9112 9.3.2), which is answered next, in its turn.
	 */
	size_t in_len;
	size_t scanned;		/* of in[], the bytes searched for the head's end */
	char in[HTTP_HEAD_MAX + 1];	/* + 1: room for a NUL after a head that fills it */
};

struct http_server {
	int fd;
	http_metrics_fn fn;
	void *ctx;
	int deadline_ms;
	struct http_server_stats stats;
	char names[HTTP_NAMES_MAX][HTTP_NAME_LEN];
	int nr_names;
	struct conn conns[HTTP_MAX_CONNS];
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
	for (int i = 0; i < HTTP_MAX_CONNS; i++)
		s->conns[i].fd = -1;
	s->fn = fn;
	s->ctx = ctx;
	s->deadline_ms = HTTP_DEADLINE_MS;
	own_names(s);

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
	if (bind(s->fd, (struct sockaddr *)&at.addr, at.addr_len) || listen(s->fd, SOMAXCONN)) {
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

/* finish - close @c and free its slot; @failed: it ended before its response was sent */
static void finish(struct http_server *s, struct conn *c, bool failed)
{
	if (failed)
		s->stats.errors++;
	close(c->fd);
	c->fd = -1;
	free(c->out);
	c->out = NULL;
	c->out_len = c->sent = c->in_len = c->scanned = 0;
	c->served = 0;
	c->last = false;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 421:
		return "Misdirected Request";
	case 431:
		return "Request Header Fields Too Large";
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

/* reply - @c's response: its status line, headers (@extra, whole lines, may be ""), and @body unless @head_only */
static int reply(struct conn *c, int status, const char *type, const char *extra, const char *body, size_t body_len,
		 bool head_only)
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
	if (!head_only)
		fwrite(body, 1, body_len, f);
	if (fclose(f)) {
		free(c->out);
		c->out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* reply_error - a short text body that says the status */
static int reply_error(struct conn *c, int status, const char *extra, bool head_only)
{
	char body[64];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, reason(status));

	return reply(c, status, "text/plain; charset=utf-8", extra, body, n, head_only);
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
 * answer - the response to the head at the start of @c's input
 * (NUL-terminated), ready to send; @status if known without parsing it
 */
static int answer(struct http_server *s, struct conn *c, int status)
{
	static const char page[] = "<!DOCTYPE html>\n<html><head><title>wakeprobe</title></head>\n"
				   "<body><h1>wakeprobe</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
	struct http_request rq = { .method = "" };
	bool head_only = false;
	char *body;
	size_t len;
	int err;

	if (!status)
		status = http_request__parse(c->in, &rq);
	/*
	 * The connection goes on after the response (RFC 9112 9.3) unless
	 * the client said close, or it is HTTP/1.0, whose keep-alive is an
	 * extension not taken here; or a body follows, unread, where the
	 * next request would be looked for; or the head was refused, and
	 * where it ends cannot be trusted to be where the next begins.
	 */
	c->last = status || !rq.http11 || rq.close || rq.body;
	if (!status && rq.host && !host_is_ours(s, rq.host)) {
		status = 421;	/* RFC 9110 15.5.20: not a server for that name */
		c->last = true;
	}
	if (!status) {
		head_only = !strcmp(rq.method, "HEAD");
		if (strcmp(rq.method, "GET") && !head_only)
			status = 405;
		else if (!strcmp(rq.path, "/"))
			status = 200;
		else if (strcmp(rq.path, "/metrics"))
			status = 404;
	}
	s->stats.requests++;
	if (status == 405)
		return reply_error(c, status, "Allow: GET, HEAD\r\n", head_only);
	if (status == 200 && !strcmp(rq.path, "/"))
		return reply(c, status, "text/html; charset=utf-8", "", page, sizeof(page) - 1, head_only);
	if (status)
		return reply_error(c, status, "", head_only);

	if (render(s, rq.openmetrics, &body, &len))
		return reply_error(c, 500, "", head_only);
	s->stats.scrapes++;
	err = reply(c, 200, rq.openmetrics ? TYPE_OPENMETRICS : TYPE_TEXT, "Vary: Accept\r\n", body, len, head_only);
	free(body);
	return err;
}

/*
 * respond - answer the head of @head_len bytes at the start of @c's
 * input, with @status if known without parsing it (a NUL in it, one too
 * large), and start sending; what came after the head stays, for its turn
 */
static void respond(struct http_server *s, struct conn *c, size_t head_len, int status)
{
	char after = c->in[head_len];
	int err;

	/* the head as a string, for the parse; the byte after it, a pipelined request's first, put back */
	c->in[head_len] = '\0';
	err = answer(s, c, status);
	c->in[head_len] = after;
	memmove(c->in, c->in + head_len, c->in_len - head_len);
	c->in_len -= head_len;
	c->scanned = 0;
	if (err) {
		finish(s, c, true);
		return;
	}
	/* the status code is the response's first number */
	if (c->out_len > 9 && c->out[9] != '2')
		s->stats.errors++;
	c->sent = 0;
	c->state = CONN_WRITE;
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

/* only_line_ends - whether the @n bytes at @p are empty lines: what a client may send after a request */
static bool only_line_ends(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

/*
 * read_request - read what @c sent, and once a head is whole answer it:
 * one request a turn, whatever else came with it, so that a client that
 * pipelines many costs the loop no more than one that sends one
 */
static void read_request(struct http_server *s, struct conn *c)
{
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
		n = recv(c->fd, c->in + c->in_len, HTTP_HEAD_MAX - c->in_len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			/* closed or reset: between requests a client done, within one a request lost */
			finish(s, c, n < 0 || !only_line_ends(c->in, c->in_len));
			return;
		}
		c->in_len += n;
	}
}

static void write_out(struct http_server *s, struct conn *c)
{
	uint64_t drained_by;

	while (c->sent < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->sent, c->out_len - c->sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0) {
			finish(s, c, true);
			return;
		}
		c->sent += n;
		s->stats.bytes_sent += n;
	}
	free(c->out);
	c->out = NULL;
	c->served++;
	if (!c->last) {
		/* kept alive: the next request, pipelined or to come, has a deadline of its own */
		c->state = CONN_READ;
		c->deadline = now_ms() + s->deadline_ms;
		return;
	}
	shutdown(c->fd, SHUT_WR);
	c->state = CONN_DRAIN;
	drained_by = now_ms() + HTTP_DRAIN_MS;
	if (drained_by < c->deadline)
		c->deadline = drained_by;
}

static void drain(struct http_server *s, struct conn *c)
{
	char junk[4096];

	/* a bounded turn: a client that keeps sending must not hold the loop */
	for (int i = 0; i < 16; i++) {
		ssize_t n = recv(c->fd, junk, sizeof(junk), 0);

		if (n > 0)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return;
		finish(s, c, false);
		return;
	}
}

/*
 * step - whatever @c can do now: from reading a head to sending its
 * response, and to draining after the last; a request pipelined behind it
 * waits for the next turn
 */
static void step(struct http_server *s, struct conn *c)
{
	if (c->fd >= 0 && c->state == CONN_READ)
		read_request(s, c);
	if (c->fd >= 0 && c->state == CONN_WRITE)
		write_out(s, c);
	if (c->fd >= 0 && c->state == CONN_DRAIN)
		drain(s, c);
}

static void accept_ready(struct http_server *s)
{
	/* a bounded turn: a flood of connections must not hold the loop */
	for (int k = 0; k < 2 * HTTP_MAX_CONNS; k++) {
		int fd = accept4(s->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c = NULL;

		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return;	/* none left, or no fd to take one (EMFILE): the next call tries again */
		for (int i = 0; i < HTTP_MAX_CONNS && !c; i++)
			if (s->conns[i].fd < 0)
				c = &s->conns[i];
		if (!c) {
			close(fd);
			s->stats.refused++;
			continue;
		}
		c->fd = fd;
		c->state = CONN_READ;
		c->deadline = now_ms() + s->deadline_ms;
		/* the request is often there already */
		step(s, c);
	}
}

void http_server__serve(struct http_server *s, int timeout_ms)
{
	struct pollfd fds[1 + HTTP_MAX_CONNS];
	struct conn *of[1 + HTTP_MAX_CONNS];
	bool queued[1 + HTTP_MAX_CONNS];
	uint64_t now = now_ms();
	nfds_t n = 0;
	int ready;

	if (!s)
		return;
	if (timeout_ms < 0)
		timeout_ms = 0;
	fds[n++] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
	for (int i = 0; i < HTTP_MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		if (c->fd < 0)
			continue;
		/* a request read already, pipelined behind the last one answered: no wait for the socket */
		queued[n] = c->state == CONN_READ && c->in_len > c->scanned;
		/* woken for the nearest deadline too, so that a long wait closes it in time */
		if (c->deadline <= now || queued[n])
			timeout_ms = 0;
		else if (c->deadline - now < (uint64_t)timeout_ms)
			timeout_ms = c->deadline - now;
		of[n] = c;
		fds[n++] = (struct pollfd){ .fd = c->fd, .events = c->state == CONN_WRITE ? POLLOUT : POLLIN };
	}
	/* a signal ends the wait: the caller sees it at once, and calls again */
	ready = poll(fds, n, timeout_ms);
	for (nfds_t k = 1; k < n; k++)
		if ((ready > 0 && fds[k].revents) || queued[k])
			step(s, of[k]);
	if (ready > 0 && (fds[0].revents & POLLIN))
		accept_ready(s);

	now = now_ms();
	for (int i = 0; i < HTTP_MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		/* a kept connection idle between requests is done, not failed */
		if (c->fd >= 0 && c->deadline <= now)
			finish(s, c, c->state == CONN_WRITE ||
			       (c->state == CONN_READ && (!c->served || !only_line_ends(c->in, c->in_len))));
	}
}

void http_server__stats(const struct http_server *s, struct http_server_stats *out)
{
	*out = s ? s->stats : (struct http_server_stats){ 0 };
}

void http_server__set_deadline(struct http_server *s, int ms)
{
	s->deadline_ms = ms;
}

void http_server__close(struct http_server *s)
{
	if (!s)
		return;
	for (int i = 0; i < HTTP_MAX_CONNS; i++)
		if (s->conns[i].fd >= 0)
			finish(s, &s->conns[i], false);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
