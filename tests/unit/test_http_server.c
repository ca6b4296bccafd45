// SPDX-License-Identifier: GPL-2.0
/*
 * test_http_server.c - the scrape endpoint over loopback, driven from the
 * test: the client's sockets and the server's turns take turns in one
 * process, so nothing waits on a thread. What a scraper gets in each
 * format, which status everything else gets, requests kept alive and
 * pipelined, and the bounds: a full table, where the connection idle the
 * longest gives way to a new one (never one being answered, nor one not
 * yet read), a head's size, the head and idle timeouts, a client that
 * reads slowly or is gone, one request a turn, a rendering shared. With a
 * web configuration: the password asked, a request whose check runs kept
 * from giving way, and HTTPS, whose handshake is read as a head is.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>
#include "bcrypt_hash.h"
#include "http_server.h"
#include "tls_cert.h"
#include "web_config.h"

/* what the scrape callback was asked, and what it does */
struct scrape {
	int calls;
	bool openmetrics;
	int fail;	/* returned, after half a line, when not 0 */
	size_t big;	/* bytes of comment lines after the metrics, for a body no socket takes at once */
};

#define METRICS_TEXT	"# HELP wakeprobe_up Whether it runs.\n# TYPE wakeprobe_up gauge\nwakeprobe_up 1\n"
#define METRICS_OM	METRICS_TEXT "# EOF\n"
#define GET_METRICS	"GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"
/* what Prometheus 2.x sends */
#define PROMETHEUS_ACCEPT                                                                                            \
	"Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"      \
	"text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"

static struct http_server *server;
static struct scrape scrape;

static int metrics(FILE *out, bool openmetrics, void *ctx)
{
	static const char pad[] = "# padding padding padding padding padding padding padding padding padding\n";
	struct scrape *sc = ctx;

	sc->calls++;
	sc->openmetrics = openmetrics;
	if (sc->fail) {
		fputs("wakeprobe_up", out);
		return sc->fail;
	}
	fputs(openmetrics ? METRICS_OM : METRICS_TEXT, out);
	for (size_t n = 0; n < sc->big; n += sizeof(pad) - 1)
		fwrite(pad, 1, sizeof(pad) - 1, out);
	return 0;
}

static void setup(void)
{
	char msg[256];

	memset(&scrape, 0, sizeof(scrape));
	cr_assert_eq(http_server__open_any_port(&server, "127.0.0.1:0", metrics, &scrape, msg, sizeof(msg)), 0, "%s",
		     msg);
	cr_assert_gt(http_server__port(server), 0);
}

static void teardown(void)
{
	http_server__close(server);
	server = NULL;
}

TestSuite(http_server, .init = setup, .fini = teardown, .timeout = 60);

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* dial_at - a non-blocking client connected to @port on the loopback address of @family; -1 if there is none */
static int dial_at(int family, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = in6addr_loopback };
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* loopback: the kernel completes the handshake into the backlog, before any accept */
	if (family == AF_INET6 ? connect(fd, (struct sockaddr *)&sin6, sizeof(sin6))
			       : connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return -1;
	}
	cr_assert_eq(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	return fd;
}

static int dial(void)
{
	int fd = dial_at(AF_INET, http_server__port(server));

	cr_assert_geq(fd, 0, "connect: %s", strerror(errno));
	return fd;
}

/* send_all - @n bytes of @req on @fd, with the server's turns whenever the socket is full */
static void send_all(int fd, const char *req, size_t n)
{
	double give_up = now_s() + 10;

	for (size_t sent = 0; sent < n;) {
		ssize_t k = send(fd, req + sent, n - sent, MSG_NOSIGNAL);

		if (k > 0) {
			sent += k;
			continue;
		}
		cr_assert(k < 0 && errno == EAGAIN, "send: %s", strerror(errno));
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up, "the server took nothing for 10 s");
	}
}

/* receive - all that @fd gets until the server closes it, with the server's turns between: a string to free */
static char *receive(int fd)
{
	double give_up = now_s() + 10;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);

	cr_assert_not_null(buf);
	for (;;) {
		ssize_t k = recv(fd, buf + len, cap - len, 0);

		if (k > 0) {
			len += k;
			if (len == cap) {
				cap *= 2;
				buf = realloc(buf, cap + 1);
				cr_assert_not_null(buf);
			}
			/* a turn with the client's socket still full, as a reader slower than the server has */
			http_server__serve(server, 0);
			continue;
		}
		if (!k)
			break;
		cr_assert_eq(errno, EAGAIN, "recv: %s (after %zu bytes)", strerror(errno), len);
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up, "no end to the response in 10 s (%zu bytes)", len);
	}
	buf[len] = '\0';
	return buf;
}

/*
 * exchange_at - @req sent on a new connection to @family's loopback, and
 * all the server answers until it closes, to free: done sending, as nc -N
 * is, so that a connection kept alive ends once answered
 */
static char *exchange_at(int family, const char *req, size_t n)
{
	int fd = dial_at(family, http_server__port(server));
	char *response;

	cr_assert_geq(fd, 0, "connect: %s", strerror(errno));
	send_all(fd, req, n);
	cr_assert_eq(shutdown(fd, SHUT_WR), 0);
	response = receive(fd);
	close(fd);
	return response;
}

static char *exchange(const char *req)
{
	return exchange_at(AF_INET, req, strlen(req));
}

static int status_of(const char *response)
{
	int status = 0;

	cr_assert_eq(sscanf(response, "HTTP/1.1 %d ", &status), 1, "no status line: %.60s", response);
	return status;
}

/* status_for - the status of the response to @req, on a connection of its own */
static int status_for(const char *req)
{
	char *r = exchange(req);
	int status = status_of(r);

	free(r);
	return status;
}

/* body_of - what follows the head */
static const char *body_of(const char *response)
{
	const char *end = strstr(response, "\r\n\r\n");

	cr_assert_not_null(end, "no end to the head: %.200s", response);
	return end + 4;
}

/* header - the value of the header @name in the head of @response, into @buf; NULL if there is none */
static const char *header(const char *response, const char *name, char *buf, size_t len)
{
	const char *end = body_of(response);
	size_t n = strlen(name);

	for (const char *line = strstr(response, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2) {
		if (!strncasecmp(line, name, n) && line[n] == ':') {
			const char *v = line + n + 1 + strspn(line + n + 1, " ");

			snprintf(buf, len, "%.*s", (int)(strstr(v, "\r\n") - v), v);
			return buf;
		}
	}
	return NULL;
}

/* content_length - the Content-Length of @response, which must have one */
static size_t content_length(const char *response)
{
	char buf[32];

	cr_assert_not_null(header(response, "Content-Length", buf, sizeof(buf)), "no Content-Length");
	return strtoull(buf, NULL, 10);
}

/* next_response - the response after the one at @r, by its Content-Length: for a connection's answers to GETs */
static const char *next_response(const char *r)
{
	return body_of(r) + content_length(r);
}

/* count_responses - how many responses @r holds, one after another, each a GET's */
static int count_responses(const char *r)
{
	int n = 0;

	for (; *r; r = next_response(r))
		n++;
	return n;
}

/* receive_one - one whole response on @fd, by its Content-Length, with the server's turns between: to free */
static char *receive_one(int fd)
{
	double give_up = now_s() + 10;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);

	cr_assert_not_null(buf);
	for (;;) {
		const char *end;
		ssize_t k;

		buf[len] = '\0';
		end = strstr(buf, "\r\n\r\n");
		if (end && len >= (size_t)(end + 4 - buf) + content_length(buf))
			return buf;
		k = recv(fd, buf + len, cap - len, 0);
		if (k > 0) {
			len += k;
			cr_assert_lt(len, cap, "a response larger than the test reads");
			continue;
		}
		cr_assert(k < 0 && errno == EAGAIN, "closed or failed after %zu bytes: %s", len, strerror(errno));
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up, "no whole response in 10 s (%zu bytes)", len);
	}
}

/* is_closed - has the server closed @fd, within @ms? */
static bool is_closed(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&p, 1, ms) == 1 && recv(fd, &c, 1, 0) == 0;
}

Test(http_server, metrics_are_the_text_format_unless_asked_otherwise)
{
	char *r = exchange(GET_METRICS);
	char buf[128];

	cr_expect_eq(status_of(r), 200);
	cr_expect_str_eq(header(r, "Content-Type", buf, sizeof(buf)), "text/plain; version=0.0.4; charset=utf-8");
	/* HTTP/1.1: the connection goes on, so no Connection: close */
	cr_expect_null(header(r, "Connection", buf, sizeof(buf)), "Connection: %s", buf);
	cr_expect_str_eq(body_of(r), METRICS_TEXT);
	cr_expect_eq(content_length(r), strlen(METRICS_TEXT));
	/* the server's clock, in the one form HTTP has, whatever the locale */
	cr_assert_not_null(header(r, "Date", buf, sizeof(buf)));
	cr_expect_eq(strlen(buf), 29, "%s", buf);
	cr_expect_str_eq(buf + 25, " GMT");
	cr_expect_eq(scrape.calls, 1);
	cr_expect_not(scrape.openmetrics);
	free(r);
}

Test(http_server, openmetrics_when_the_scraper_asks_for_it)
{
	static const char *const reqs[] = {
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\n" PROMETHEUS_ACCEPT "\r\n",
		/* HTTP/1.0, no Host, any version, case and spacing */
		"GET /metrics HTTP/1.0\r\naccept:   Application/OpenMetrics-Text; version=0.0.1 \r\n\r\n",
		/* a range per header line, lists split across lines */
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain;q=0.5\r\n"
		"Accept: application/openmetrics-text\r\n\r\n",
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		char *r = exchange(reqs[i]);

		cr_expect_eq(status_of(r), 200, "request %zu", i);
		cr_expect_str_eq(header(r, "Content-Type", buf, sizeof(buf)),
				 "application/openmetrics-text; version=1.0.0; charset=utf-8", "request %zu", i);
		cr_expect_str_eq(body_of(r), METRICS_OM, "request %zu", i);
		cr_expect(scrape.openmetrics, "request %zu", i);
		free(r);
	}
}

Test(http_server, openmetrics_weighed_zero_or_below_the_text_format_is_not_what_is_sent)
{
	static const char *const accepts[] = {
		"application/openmetrics-text;q=0,text/plain;version=0.0.4",
		"application/openmetrics-text; version=1.0.0; q=0.000",
		"text/plain;version=0.0.4;q=1, application/openmetrics-text;q=0.5",
		"application/json",
		"*/*",
	};
	char req[256], buf[128];

	for (size_t i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		char *r;

		snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept: %s\r\n\r\n",
			 accepts[i]);
		r = exchange(req);
		cr_expect_eq(status_of(r), 200, "%s", accepts[i]);
		cr_expect_str_eq(header(r, "Content-Type", buf, sizeof(buf)),
				 "text/plain; version=0.0.4; charset=utf-8", "%s", accepts[i]);
		cr_expect_not(scrape.openmetrics, "%s", accepts[i]);
		free(r);
	}
}

Test(http_server, head_has_the_headers_of_get_and_no_body)
{
	char *r = exchange("HEAD /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");

	cr_expect_eq(status_of(r), 200);
	cr_expect_eq(content_length(r), strlen(METRICS_TEXT));
	cr_expect_str_empty(body_of(r));
	free(r);
	r = exchange("HEAD /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n");
	cr_expect_eq(status_of(r), 404);
	cr_expect_gt(content_length(r), 0);
	cr_expect_str_empty(body_of(r));
	free(r);
}

Test(http_server, the_root_is_a_page_that_links_to_the_metrics)
{
	char *r = exchange("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
	char buf[128];

	cr_expect_eq(status_of(r), 200);
	cr_expect_str_eq(header(r, "Content-Type", buf, sizeof(buf)), "text/html; charset=utf-8");
	cr_expect_not_null(strstr(body_of(r), "<a href=\"/metrics\">"));
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	cr_expect_eq(scrape.calls, 0);
	free(r);
}

Test(http_server, other_paths_are_not_found_and_a_query_is_no_other_path)
{
	static const char *const paths[] = { "/metric", "/metrics/", "/metricsx", "/favicon.ico", "*" };
	char req[128];
	char *r;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n", paths[i]);
		r = exchange(req);
		cr_expect_eq(status_of(r), 404, "%s", paths[i]);
		cr_expect_eq(content_length(r), strlen(body_of(r)), "%s", paths[i]);
		free(r);
	}
	r = exchange("GET /metrics?collect[]=all HTTP/1.1\r\nHost: localhost\r\n\r\n");
	cr_expect_eq(status_of(r), 200);
	free(r);
	/* absolute-form, as to a proxy */
	r = exchange("GET http://localhost:9100/metrics HTTP/1.1\r\nHost: localhost:9100\r\n\r\n");
	cr_expect_eq(status_of(r), 200);
	free(r);
}

Test(http_server, other_methods_are_not_allowed_and_say_which_are)
{
	static const char post[] = "POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\nhello world";
	static const char *const methods[] = { "PUT", "DELETE", "OPTIONS", "get" };
	char req[128], buf[64];
	char *r = exchange(post);

	/* the body, unread, is drained: the client gets the whole response, no reset */
	cr_expect_eq(status_of(r), 405);
	cr_expect_str_eq(header(r, "Allow", buf, sizeof(buf)), "GET, HEAD");
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	free(r);
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		snprintf(req, sizeof(req), "%s /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", methods[i]);
		r = exchange(req);
		cr_expect_eq(status_of(r), 405, "%s", methods[i]);
		free(r);
	}
	cr_expect_eq(scrape.calls, 0);
}

Test(http_server, a_malformed_request_is_a_bad_request)
{
	static const struct {
		const char *req;
		size_t len;
	} reqs[] = {
#define REQ(s) { s, sizeof(s) - 1 }
		REQ("GARBAGE\r\n\r\n"),
		REQ("GET /metrics\r\n\r\n"),
		REQ("GET /metrics HTTP/2.0\r\nHost: localhost\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1 \r\nHost: localhost\r\n\r\n"),
		REQ("GET  /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"),
		REQ("GET metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"),
		REQ("G(T /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"),
		/* HTTP/1.1 needs one Host (RFC 9112 3.2), and a Host that is one */
		REQ("GET /metrics HTTP/1.1\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: user@127.0.0.1\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1 evil.example\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept : text/plain\r\n\r\n"),
		/* a folded line, a NUL, a bare CR: each parsed another way by someone */
		REQ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain,\r\n"
		    " application/openmetrics-text\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: x\0y\r\n\r\n"),
		REQ("GET /metrics HTTP/1.1\r\nHost: x\rAccept: */*\r\n\r\n"),
		REQ("\r\n\r\n"),
#undef REQ
	};

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		char *r = exchange_at(AF_INET, reqs[i].req, reqs[i].len);

		cr_expect_eq(status_of(r), 400, "request %zu: %.40s", i, reqs[i].req);
		cr_expect_eq(content_length(r), strlen(body_of(r)), "request %zu", i);
		free(r);
	}
	cr_expect_eq(scrape.calls, 0);
}

Test(http_server, a_host_that_is_no_address_and_no_name_of_this_machine_is_misdirected)
{
	static const char *const foreign[] = {
		"evil.example", "evil.example:9750", "127.0.0.1.evil.example", "localhost.evil.example",
		"localhostx", "1.2.3", "127.1", "0x7f000001", "[::1", "[::1]x", "[::1]:9750x", "[evil.example]:80",
		"localhost:x", "localhost:123456", "",
	};
	char req[512], buf[64];

	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		char *r;

		snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nHost: %s\r\n\r\n", foreign[i]);
		r = exchange(req);
		cr_expect_eq(status_of(r), 421, "Host: %s", foreign[i]);
		cr_expect_str_eq(header(r, "Connection", buf, sizeof(buf)), "close", "Host: %s", foreign[i]);
		free(r);
	}
	/* the page at / too, and whatever the method: nothing of the server's for a name not its own */
	cr_expect_eq(status_for("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"), 421);
	cr_expect_eq(status_for("HEAD /metrics HTTP/1.0\r\nHost: evil.example:9750\r\n\r\n"), 421);
	cr_expect_eq(status_for("POST /metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n"), 421);
	/* an absolute target's authority counts, not the Host beside it (RFC 9112 3.2.3) */
	cr_expect_eq(status_for("GET http://evil.example:9750/metrics HTTP/1.1\r\nHost: 127.0.0.1:9750\r\n\r\n"),
		     421);
	cr_expect_eq(status_for("GET http://127.0.0.1:9750/metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n"), 200);
	cr_expect_eq(scrape.calls, 1);
}

Test(http_server, addresses_localhost_and_the_machines_own_names_are_served)
{
	const char *ours[] = {
		"127.0.0.1", "127.0.0.1:9750", "10.1.2.3:", "[::1]", "[::1]:9750", "[2001:db8::7]:9750",
		"[::ffff:127.0.0.1]", "localhost", "LocalHost:9750", "localhost.:9750", NULL, NULL, NULL,
	};
	char host[256], upper[300], dotted[300], req[512];
	size_t n = sizeof(ours) / sizeof(ours[0]) - 3;

	/* the name the machine goes by, as a scraper that targets it by name sends it */
	cr_assert_eq(gethostname(host, sizeof(host)), 0);
	ours[n++] = host;
	snprintf(upper, sizeof(upper), "%s:9750", host);
	for (char *p = upper; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	ours[n++] = upper;
	snprintf(dotted, sizeof(dotted), "%s.", host);
	ours[n++] = dotted;
	for (size_t i = 0; i < n; i++) {
		char *r;

		snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nHost: %s\r\n\r\n", ours[i]);
		r = exchange(req);
		cr_expect_eq(status_of(r), 200, "Host: %s", ours[i]);
		free(r);
	}
	/* a name the server is given, as a DNS alias a fleet's targets use */
	cr_expect_eq(status_for("GET /metrics HTTP/1.1\r\nHost: node-7.metrics.example:9750\r\n\r\n"), 421);
	cr_expect_eq(scrape.calls, n);
	cr_assert_eq(http_server__allow_name(server, "node-7.metrics.example."), 0);
	cr_expect_eq(status_for("GET /metrics HTTP/1.1\r\nHost: Node-7.metrics.example:9750\r\n\r\n"), 200);
	cr_expect_eq(http_server__allow_name(server, "a:b"), -EINVAL);
	cr_expect_eq(http_server__allow_name(server, ""), -EINVAL);
	/* HTTP/1.0 needs no Host, and a scraper of old sends none: nothing to check */
	cr_expect_eq(status_for("GET /metrics HTTP/1.0\r\n\r\n"), 200);
}

Test(http_server, a_body_framed_two_ways_or_by_a_length_that_is_no_number_is_a_bad_request)
{
	static const char *const reqs[] = {
		/* RFC 9112 6.1: both, in either order and any case; refused, and the connection closed */
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
		"0\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\ntransfer-encoding: chunked\r\ncontent-length: 0\r\n\r\n"
		"0\r\n\r\n",
		"POST /metrics HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 3\r\n"
		"\r\nabc",
		/* RFC 9112 6.3: a length that is not one number */
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1e3\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3, 3\r\n\r\nabc",
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999999999999999\r\n\r\n",
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		char *r = exchange(reqs[i]);

		cr_expect_eq(status_of(r), 400, "request %zu", i);
		cr_expect_str_eq(header(r, "Connection", buf, sizeof(buf)), "close", "request %zu", i);
		free(r);
	}
	cr_expect_eq(scrape.calls, 0);
	/* one length said twice alike is one length */
	free(exchange("GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\ncontent-length: 0\r\n\r\n"));
	cr_expect_eq(scrape.calls, 1);
}

Test(http_server, a_head_over_8_kib_is_too_large_and_one_just_under_is_fine)
{
	static const char start[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Pad: ";
	size_t n = HTTP_HEAD_MAX + 4096;
	char *req = malloc(n + 1), *r;

	cr_assert_not_null(req);
	/* the head as long as the limit, its empty line the last bytes */
	memcpy(req, start, strlen(start));
	memset(req + strlen(start), 'a', HTTP_HEAD_MAX - strlen(start) - 4);
	memcpy(req + HTTP_HEAD_MAX - 4, "\r\n\r\n", 4);
	r = exchange_at(AF_INET, req, HTTP_HEAD_MAX);
	cr_expect_eq(status_of(r), 200);
	free(r);

	/* longer, with no end in sight: refused once the limit is read, the rest drained */
	memset(req + strlen(start), 'a', n - strlen(start));
	r = exchange_at(AF_INET, req, n);
	cr_expect_eq(status_of(r), 431);
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	free(r);
	free(req);
}

Test(http_server, a_request_with_a_body_unread_gets_the_whole_response)
{
	static const char head[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 262144\r\n\r\n";
	size_t n = strlen(head) + 262144;
	char *req = malloc(n), *r;

	/*
	 * Closing a socket with a request body unread would reset it, and the
	 * reset would throw away what of a large response the client has yet
	 * to read: the server drains the body instead, until the client closes
	 */
	cr_assert_not_null(req);
	memcpy(req, head, strlen(head));
	memset(req + strlen(head), 'b', n - strlen(head));
	scrape.big = 16 << 20;
	r = exchange_at(AF_INET, req, n);
	cr_expect_eq(status_of(r), 200);
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	free(r);
	free(req);
}

Test(http_server, a_failing_callback_is_a_server_error_without_its_half_written_body)
{
	char *r;

	scrape.fail = -EIO;
	r = exchange(GET_METRICS);
	cr_expect_eq(status_of(r), 500);
	cr_expect_null(strstr(body_of(r), "wakeprobe_up"));
	free(r);
}

Test(http_server, a_request_in_pieces_and_with_bare_line_feeds_is_answered)
{
	static const char req[] = "GET /metrics HTTP/1.0\nAccept: application/openmetrics-text\n\n";
	int fd = dial();
	char *r;

	for (size_t i = 0; i < sizeof(req) - 1; i++) {
		send_all(fd, req + i, 1);
		http_server__serve(server, 0);
	}
	r = receive(fd);
	cr_expect_eq(status_of(r), 200);
	cr_expect_str_eq(body_of(r), METRICS_OM);
	free(r);
	close(fd);
}

/* dial_full - @n connections, to a table of @n, accepted in one turn, and a turn after: all of them read once */
static void dial_full(int *fds, int n)
{
	cr_assert_eq(http_server__set_max_conns(server, n), 0);
	for (int i = 0; i < n; i++)
		fds[i] = dial();
	http_server__serve(server, 100);
	http_server__serve(server, 0);
}

/* get - GET /metrics on @fd, and its one response's status */
static int get(int fd)
{
	char *r;
	int status;

	send_all(fd, GET_METRICS, strlen(GET_METRICS));
	r = receive_one(fd);
	status = status_of(r);
	free(r);
	return status;
}

Test(http_server, the_table_is_sized_to_the_file_limit_and_can_be_set)
{
	int fds[2];

	cr_expect_gt(http_server__max_conns(server), 0);
	cr_expect_leq(http_server__max_conns(server), HTTP_CONNS_MAX);
	cr_expect_eq(http_server__set_max_conns(server, 0), -EINVAL);
	cr_expect_eq(http_server__set_max_conns(server, HTTP_CONNS_MAX + 1), -EINVAL);
	dial_full(fds, 2);
	cr_expect_eq(http_server__max_conns(server), 2);
	cr_expect_eq(http_server__set_max_conns(server, 8), -EBUSY, "resized under open connections");
	close(fds[0]);
	close(fds[1]);
}

Test(http_server, a_new_connection_takes_the_place_of_the_one_idle_the_longest)
{
	struct http_server_stats st;
	int fds[4], late;

	dial_full(fds, 4);
	late = dial();
	http_server__serve(server, 100);
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	cr_expect_eq(st.refused, 0);
	cr_expect(is_closed(fds[0], 1000), "the oldest is still open");
	for (int i = 1; i < 4; i++)
		cr_expect_not(is_closed(fds[i], 0), "connection %d was closed", i);
	cr_expect_eq(get(late), 200);
	/* it had sent nothing: closed with nothing lost, but before a request it was owed an answer to */
	http_server__stats(server, &st);
	cr_expect_eq(st.errors, 1);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	close(late);
}

Test(http_server, a_kept_connection_idle_since_before_the_others_came_gives_way_first)
{
	struct http_server_stats st;
	int fds[4], late;

	dial_full(fds, 4);
	/* the last one answered and kept: idle from now, after the other three were accepted */
	cr_expect_eq(get(fds[3]), 200);
	cr_expect_eq(get(fds[0]), 200);
	late = dial();
	http_server__serve(server, 100);
	/* fds[1] waits for its first head since its accept, the longest of all */
	cr_expect(is_closed(fds[1], 1000), "the one waiting longest is still open");
	cr_expect_not(is_closed(fds[0], 0));
	cr_expect_not(is_closed(fds[3], 0));
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	close(late);
}

Test(http_server, connections_accepted_in_one_turn_do_not_push_each_other_out)
{
	struct http_server_stats st;
	int fds[5];

	cr_assert_eq(http_server__set_max_conns(server, 4), 0);
	for (int i = 0; i < 5; i++)
		fds[i] = dial();
	/* all wait in the backlog; one turn takes them, in the order they came: none has been read yet */
	http_server__serve(server, 100);
	http_server__stats(server, &st);
	cr_expect_eq(st.refused, 1);
	cr_expect_eq(st.evicted, 0);
	cr_expect(is_closed(fds[4], 1000), "the fifth is still open");
	for (int i = 0; i < 4; i++) {
		cr_expect_not(is_closed(fds[i], 0), "connection %d was closed", i);
		cr_expect_eq(get(fds[i]), 200, "connection %d", i);
		close(fds[i]);
	}
	close(fds[4]);
}

Test(http_server, one_being_answered_does_not_give_way)
{
	struct http_server_stats st;
	int fds[2], late;
	char *r;

	scrape.big = 16 << 20;
	dial_full(fds, 2);
	/* fds[0] asks first and reads nothing: its response waits on it, the oldest connection */
	send_all(fds[0], GET_METRICS, strlen(GET_METRICS));
	cr_assert_eq(shutdown(fds[0], SHUT_WR), 0);
	http_server__serve(server, 100);
	late = dial();
	http_server__serve(server, 100);
	cr_expect(is_closed(fds[1], 1000), "the idle one is still open");
	r = receive(fds[0]);
	cr_expect_eq(status_of(r), 200);
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	free(r);
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	close(fds[0]);
	close(fds[1]);
	close(late);
}

Test(http_server, a_full_table_of_connections_being_answered_refuses_the_next)
{
	struct http_server_stats st;
	int fds[2], late;

	scrape.big = 16 << 20;
	dial_full(fds, 2);
	for (int i = 0; i < 2; i++)
		send_all(fds[i], GET_METRICS, strlen(GET_METRICS));
	http_server__serve(server, 100);
	late = dial();
	http_server__serve(server, 100);
	http_server__stats(server, &st);
	cr_expect_eq(st.refused, 1);
	cr_expect_eq(st.evicted, 0);
	cr_expect(is_closed(late, 1000), "the third is still open");
	close(fds[0]);
	close(fds[1]);
	close(late);
}

Test(http_server, a_scraper_gets_through_a_table_full_of_clients_that_dribble)
{
	struct http_server_stats st;
	int fds[8], scraper;

	dial_full(fds, 8);
	for (int i = 0; i < 8; i++)
		send_all(fds[i], "GET /metrics HTTP/1.1\r\n", strlen("GET /metrics HTTP/1.1\r\n"));
	http_server__serve(server, 0);
	scraper = dial();
	http_server__serve(server, 100);
	/* a turn of its own for its request to be read, whatever comes after it */
	cr_expect_eq(get(scraper), 200);
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	cr_expect_eq(st.scrapes, 1);
	for (int i = 0; i < 8; i++)
		close(fds[i]);
	close(scraper);
}

Test(http_server, two_requests_pipelined_on_one_connection_get_two_answers_in_order)
{
	static const char two[] = GET_METRICS "GET /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n";
	struct http_server_stats st;
	const char *second;
	char buf[64];
	char *r;

	/* one send, so both heads reach the server in one read */
	r = exchange(two);
	cr_assert_eq(count_responses(r), 2, "%s", r);
	cr_expect_eq(status_of(r), 200);
	cr_expect_str_eq(header(r, "Content-Type", buf, sizeof(buf)), "text/plain; version=0.0.4; charset=utf-8");
	cr_expect_eq(strncmp(body_of(r), METRICS_TEXT, strlen(METRICS_TEXT)), 0);
	second = next_response(r);
	cr_expect_eq(status_of(second), 404);
	free(r);
	cr_expect_eq(scrape.calls, 1);
	http_server__stats(server, &st);
	cr_expect_eq(st.requests, 2);
	cr_expect_eq(st.errors, 1);	/* the 404 */
}

Test(http_server, a_request_pipelined_in_pieces_is_answered_once_whole)
{
	static const char first[] = GET_METRICS "GET /metr";
	int fd = dial();
	char *r;

	send_all(fd, first, strlen(first));
	http_server__serve(server, 100);
	http_server__serve(server, 0);
	send_all(fd, "ics HTTP/1.1\r\nHost: localhost\r\n", strlen("ics HTTP/1.1\r\nHost: localhost\r\n"));
	http_server__serve(server, 0);
	send_all(fd, "\r\n", 2);
	cr_assert_eq(shutdown(fd, SHUT_WR), 0);
	r = receive(fd);
	cr_assert_eq(count_responses(r), 2, "%s", r);
	cr_expect_eq(status_of(r), 200);
	cr_expect_eq(status_of(next_response(r)), 200);
	cr_expect_eq(scrape.calls, 2);
	free(r);
	close(fd);
}

Test(http_server, pipelined_requests_are_answered_one_a_turn)
{
	char reqs[8 * sizeof(GET_METRICS)] = "";
	int fd = dial();
	char *r;

	/* eight heads in one read: each a render, and a turn renders once per connection, as one request would */
	for (int i = 0; i < 8; i++)
		strcat(reqs, GET_METRICS);
	send_all(fd, reqs, strlen(reqs));
	http_server__serve(server, 100);
	cr_expect_eq(scrape.calls, 1, "the first turn rendered %d times", scrape.calls);
	http_server__serve(server, 0);
	cr_expect_eq(scrape.calls, 2, "the second turn: %d renders in all", scrape.calls);
	/* the rest, each in a turn of its own, with no wait: they were read already */
	for (int i = 2; i < 8; i++) {
		double start = now_s();

		http_server__serve(server, 1000);
		cr_expect_lt(now_s() - start, 0.5, "turn %d waited for the socket", i);
	}
	cr_expect_eq(scrape.calls, 8);
	cr_assert_eq(shutdown(fd, SHUT_WR), 0);
	r = receive(fd);
	cr_expect_eq(count_responses(r), 8);
	free(r);
	close(fd);
}

Test(http_server, a_connection_is_kept_for_the_next_request_until_the_client_says_close)
{
	struct http_server_stats st;
	char buf[64];
	int fd = dial();
	char *r;

	for (int i = 0; i < 3; i++) {
		send_all(fd, GET_METRICS, strlen(GET_METRICS));
		r = receive_one(fd);
		cr_expect_eq(status_of(r), 200, "request %d", i);
		cr_expect_null(header(r, "Connection", buf, sizeof(buf)), "request %d: Connection: %s", i, buf);
		free(r);
		http_server__serve(server, 0);
		cr_expect_not(is_closed(fd, 0), "closed after request %d", i);
	}
	send_all(fd, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive, Close\r\n\r\n",
		 strlen("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive, Close\r\n\r\n"));
	r = receive(fd);
	cr_expect_eq(count_responses(r), 1);
	cr_expect_str_eq(header(r, "Connection", buf, sizeof(buf)), "close");
	free(r);
	close(fd);
	http_server__stats(server, &st);
	cr_expect_eq(st.scrapes, 4);
	cr_expect_eq(st.errors, 0);
}

Test(http_server, what_follows_a_last_response_is_not_answered)
{
	static const char *const pipelines[] = {
		/* HTTP/1.0, whose keep-alive is not taken */
		"GET /metrics HTTP/1.0\r\n\r\n" GET_METRICS,
		/* a head refused: where it ends cannot be trusted */
		"GET /metrics HTTP/1.1\r\n\r\n" GET_METRICS,
		"GET /metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n" GET_METRICS,
		/* a body, not read: the next request would be looked for in it */
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: " "41\r\n\r\n" GET_METRICS,
		"GET /metrics HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" GET_METRICS,
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(pipelines) / sizeof(pipelines[0]); i++) {
		char *r = exchange(pipelines[i]);

		cr_expect_eq(count_responses(r), 1, "pipeline %zu: %s", i, r);
		cr_expect_str_eq(header(r, "Connection", buf, sizeof(buf)), "close", "pipeline %zu", i);
		free(r);
	}
}

Test(http_server, a_kept_connection_idle_past_its_timeout_is_closed_without_an_error)
{
	struct http_server_stats st;
	double start;
	int fd = dial();
	char *r;

	http_server__set_timeouts(server, 5000, 200);
	send_all(fd, GET_METRICS, strlen(GET_METRICS));
	r = receive_one(fd);
	cr_expect_eq(status_of(r), 200);
	free(r);
	start = now_s();
	while (!is_closed(fd, 0)) {
		http_server__serve(server, 5000);
		cr_assert_lt(now_s() - start, 5, "still open after 5 s");
	}
	cr_expect_lt(now_s() - start, 1.5, "closed after %.3f s", now_s() - start);
	http_server__stats(server, &st);
	cr_expect_eq(st.errors, 0);
	cr_expect_eq(st.scrapes, 1);
	close(fd);
}

Test(http_server, a_client_that_never_sends_is_closed_at_the_head_timeout)
{
	struct http_server_stats st;
	double start, took;
	int fd;

	http_server__set_timeouts(server, 200, 5000);
	fd = dial();
	start = now_s();
	while (!is_closed(fd, 0)) {
		/* a long wait, cut short by the timeout */
		http_server__serve(server, 5000);
		cr_assert_lt(now_s() - start, 5, "still open after 5 s");
	}
	took = now_s() - start;
	cr_expect_geq(took, 0.15, "closed after %.3f s", took);
	cr_expect_lt(took, 1.5, "closed after %.3f s", took);
	http_server__stats(server, &st);
	cr_expect_eq(st.errors, 1);
	cr_expect_eq(st.requests, 0);
	cr_expect_eq(st.timed_out, 1);
	close(fd);
}

Test(http_server, a_client_that_trickles_its_request_is_closed_at_the_head_timeout_all_the_same)
{
	struct http_server_stats st;
	double start, took;
	int fd;

	http_server__set_timeouts(server, 300, 5000);
	fd = dial();
	start = now_s();
	while (!is_closed(fd, 0)) {
		/* a byte every 20 ms: never idle long, never done */
		send_all(fd, "G", 1);
		http_server__serve(server, 0);
		usleep(20000);
		cr_assert_lt(now_s() - start, 5, "still open after 5 s");
	}
	took = now_s() - start;
	cr_expect_geq(took, 0.25, "closed after %.3f s", took);
	cr_expect_lt(took, 1.5, "closed after %.3f s", took);
	http_server__stats(server, &st);
	cr_expect_eq(st.errors, 1);
	cr_expect_eq(st.requests, 0);
	close(fd);
}

Test(http_server, a_client_that_does_not_read_does_not_hold_the_loop)
{
	int fd = dial();
	char *r;

	scrape.big = 16 << 20;
	send_all(fd, GET_METRICS, strlen(GET_METRICS));
	cr_assert_eq(shutdown(fd, SHUT_WR), 0);
	/* the turn that renders the body and sends what the socket takes */
	http_server__serve(server, 100);
	for (int i = 0; i < 10; i++) {
		double start = now_s();

		http_server__serve(server, 0);
		cr_expect_lt(now_s() - start, 0.5, "a turn took %.3f s", now_s() - start);
	}
	r = receive(fd);
	cr_expect_eq(status_of(r), 200);
	cr_expect_eq(content_length(r), strlen(body_of(r)));
	cr_expect_geq(strlen(body_of(r)), 16u << 20);
	free(r);
	close(fd);
}

Test(http_server, responses_of_one_rendering_being_sent_at_once_each_get_it_whole)
{
	int fds[3];
	char *r[3];

	/* the same bytes each time: the second and third point at the first's rendering, still being sent */
	scrape.big = 4 << 20;
	for (int i = 0; i < 3; i++) {
		fds[i] = dial();
		send_all(fds[i], GET_METRICS, strlen(GET_METRICS));
		cr_assert_eq(shutdown(fds[i], SHUT_WR), 0);
		http_server__serve(server, 100);
	}
	cr_expect_eq(scrape.calls, 3);
	for (int i = 0; i < 3; i++) {
		r[i] = receive(fds[i]);
		cr_expect_eq(status_of(r[i]), 200, "response %d", i);
		cr_expect_eq(content_length(r[i]), strlen(body_of(r[i])), "response %d", i);
		cr_expect_str_eq(body_of(r[i]), body_of(r[0]), "response %d", i);
		close(fds[i]);
	}
	for (int i = 0; i < 3; i++)
		free(r[i]);
}

Test(http_server, a_turn_waits_no_longer_than_asked)
{
	double start = now_s();

	http_server__serve(server, 0);
	cr_expect_lt(now_s() - start, 0.05);
	start = now_s();
	http_server__serve(server, 100);
	cr_expect_geq(now_s() - start, 0.09);
	cr_expect_lt(now_s() - start, 0.5);
}

Test(http_server, a_client_gone_before_its_response_costs_an_error_not_the_process)
{
	struct http_server_stats st;
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	double start = now_s();
	int fd = dial();

	scrape.big = 16 << 20;
	/* done sending, as nc -N is: the server's side is then in CLOSE_WAIT, where a reset makes a send EPIPE */
	send_all(fd, GET_METRICS, strlen(GET_METRICS));
	cr_assert_eq(shutdown(fd, SHUT_WR), 0);
	http_server__serve(server, 100);
	/* gone with the response half sent: the server's next send fails, and SIGPIPE would kill the process */
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	close(fd);
	do {
		http_server__serve(server, 10);
		http_server__stats(server, &st);
		cr_assert_lt(now_s() - start, 5);
	} while (!st.errors);
	cr_expect_eq(st.errors, 1);
	cr_expect_eq(st.scrapes, 1);
}

Test(http_server, the_counters_add_up_what_was_served)
{
	static const char *const reqs[] = { GET_METRICS, GET_METRICS, "GET /nope HTTP/1.1\r\nHost: localhost\r\n\r\n",
					    "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", "junk\r\n\r\n" };
	struct http_server_stats st;
	uint64_t bytes = 0;

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		char *r = exchange(reqs[i]);

		bytes += strlen(r);
		free(r);
	}
	http_server__stats(server, &st);
	cr_expect_eq(st.scrapes, 2);
	cr_expect_eq(st.requests, 5);
	cr_expect_eq(st.errors, 2);
	cr_expect_eq(st.bytes_sent, bytes);
	cr_expect_eq(st.refused, 0);
}

Test(http_server, every_address_takes_ipv4_and_ipv6_alike)
{
	char msg[256];
	char *r;
	int fd;

	http_server__close(server);
	cr_assert_eq(http_server__open_any_port(&server, ":0", metrics, &scrape, msg, sizeof(msg)), 0, "%s", msg);
	r = exchange_at(AF_INET, GET_METRICS, strlen(GET_METRICS));
	cr_expect_eq(status_of(r), 200);
	free(r);
	fd = dial_at(AF_INET6, http_server__port(server));
	if (fd < 0)
		cr_skip_test("no IPv6 loopback here");
	close(fd);
	r = exchange_at(AF_INET6, GET_METRICS, strlen(GET_METRICS));
	cr_expect_eq(status_of(r), 200);
	free(r);
}

Test(http_server, an_ipv6_address_in_brackets_is_listened_on)
{
	char msg[256];
	char *r;
	int err;

	http_server__close(server);
	err = http_server__open_any_port(&server, "[::1]:0", metrics, &scrape, msg, sizeof(msg));
	if (err == -EAFNOSUPPORT || err == -EADDRNOTAVAIL)
		cr_skip_test("no IPv6 loopback here: %s", msg);
	cr_assert_eq(err, 0, "%s", msg);
	r = exchange_at(AF_INET6, GET_METRICS, strlen(GET_METRICS));
	cr_expect_eq(status_of(r), 200);
	free(r);
}

Test(http_server, a_listen_string_that_does_not_parse_says_how_to_write_one)
{
	static const struct {
		const char *listen;
		int err;
		const char *hint;
	} cases[] = {
		{ "", -EINVAL, "ADDR:PORT" },
		{ "127.0.0.1", -EINVAL, "no port" },
		{ "9100", -EINVAL, "no port" },
		{ "localhost:9100", -EINVAL, "numeric" },
		{ "1.2.3.4.5:80", -EINVAL, "IPv4" },
		{ "127.0.0.1:http", -EINVAL, "number" },
		{ "127.0.0.1:", -EINVAL, "number" },
		{ ":", -EINVAL, "number" },
		{ "127.0.0.1:-1", -EINVAL, "number" },
		{ "127.0.0.1:65536", -ERANGE, "out of range" },
		/* the kernel's pick, which no scraper would be told of */
		{ "127.0.0.1:0", -ERANGE, "port 0" },
		{ ":0", -ERANGE, "port 0" },
		{ "[::1]:00", -ERANGE, "port 0" },
		{ ":99999999999999999999999", -ERANGE, "out of range" },
		{ "::1:9100", -EINVAL, "brackets" },
		{ "[::1]", -EINVAL, "port" },
		{ "[::1:9100", -EINVAL, "port" },
		{ "[127.0.0.1]:9100", -EINVAL, "IPv6" },
		{ "[nope]:9100", -EINVAL, "IPv6" },
		{ "\x1b[2J\n:9100", -EINVAL, "IPv4" },
	};
	struct http_server *s;
	char msg[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err;

		s = (struct http_server *)&msg;
		err = http_server__open(&s, cases[i].listen, metrics, &scrape, msg, sizeof(msg));

		cr_expect_eq(err, cases[i].err, "case %zu: %d", i, err);
		cr_expect_null(s, "case %zu", i);
		cr_expect(!strncmp(msg, "--listen ", 9), "case %zu: %s", i, msg);
		cr_expect_null(strchr(msg, '\n'), "case %zu: more than one line: %s", i, msg);
		cr_expect_null(strchr(msg, '\x1b'), "case %zu: a control byte as it was: %s", i, msg);
		cr_expect_not_null(strstr(msg, cases[i].hint), "case %zu: %s", i, msg);
	}
	/* the whole line, for one */
	http_server__open(&s, "127.0.0.1:65536", metrics, &scrape, msg, sizeof(msg));
	cr_expect_str_eq(msg, "--listen 127.0.0.1:65536: port 65536 is out of range: give one from 1 to 65535");
}

Test(http_server, port_0_is_refused_with_the_options_and_taken_by_tests_alone)
{
	struct http_server *s = (struct http_server *)&scrape;
	struct http_listen at;
	char msg[256];

	/* what --listen's check calls: one line, which the command line's usage error (exit 2) prints */
	cr_expect_eq(http_server__parse_listen("127.0.0.1:0", &at, msg, sizeof(msg)), -ERANGE);
	cr_expect_str_eq(msg, "--listen 127.0.0.1:0: port 0 means any free port, which no "
			 "scraper would know: give one from 1 to 65535, e.g. 9750");
	cr_expect_eq(http_server__open(&s, ":0", metrics, &scrape, msg, sizeof(msg)), -ERANGE);
	cr_expect_null(s);
	/* the tests' own way, which tells the port */
	cr_expect_gt(http_server__port(server), 0);
	cr_expect_eq(http_server__parse_listen("127.0.0.1:1", &at, msg, sizeof(msg)), 0, "%s", msg);
}

Test(http_server, an_address_in_use_says_so_in_one_line)
{
	struct http_server *other = (struct http_server *)&scrape;
	char listen_at[32], msg[256], want[256];

	snprintf(listen_at, sizeof(listen_at), "127.0.0.1:%d", http_server__port(server));
	cr_expect_eq(http_server__open(&other, listen_at, metrics, &scrape, msg, sizeof(msg)), -EADDRINUSE);
	cr_expect_null(other);
	snprintf(want, sizeof(want), "--listen %s: address in use: another program listens there; pick another port",
		 listen_at);
	cr_expect_str_eq(msg, want);
}

Test(http_server, a_listen_string_is_checked_without_binding)
{
	struct http_listen at;
	char msg[256];

	cr_assert_eq(http_server__parse_listen("127.0.0.1:9100", &at, msg, sizeof(msg)), 0, "%s", msg);
	cr_expect_eq(at.addr.ss_family, AF_INET);
	cr_expect_eq(ntohs(((struct sockaddr_in *)&at.addr)->sin_port), 9100);
	cr_expect_not(at.any);
	cr_assert_eq(http_server__parse_listen(":9100", &at, msg, sizeof(msg)), 0, "%s", msg);
	cr_expect(at.any);
	cr_assert_eq(http_server__parse_listen("[::]:9100", &at, msg, sizeof(msg)), 0, "%s", msg);
	cr_expect_eq(at.addr.ss_family, AF_INET6);
	cr_expect_not(at.any);
	cr_expect_eq(ntohs(((struct sockaddr_in6 *)&at.addr)->sin6_port), 9100);
}

/* web_users - a web configuration of one user, @user with @password's hash, no TLS */
static void web_users(struct web_config *cfg, const char *user, const char *password)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_users = 1;
	snprintf(cfg->users[0].name, sizeof(cfg->users[0].name), "%s", user);
	bcrypt_hash(password, cfg->users[0].hash);
}

/* "alice:secret", "alice:wrong", in base64 */
#define AUTH_ALICE	"Authorization: Basic YWxpY2U6c2VjcmV0\r\n"
#define AUTH_WRONG	"Authorization: Basic YWxpY2U6d3Jvbmc=\r\n"

Test(http_server, with_basic_auth_users_a_request_without_the_password_gets_401_and_no_metrics)
{
	struct web_config cfg;
	char msg[256], buf[128];
	char *r;

	web_users(&cfg, "alice", "secret");
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	r = exchange(GET_METRICS);
	cr_assert_eq(status_of(r), 401, "%s", r);
	cr_assert_not_null(header(r, "WWW-Authenticate", buf, sizeof(buf)), "%s", r);
	cr_assert(!strncmp(buf, "Basic ", 6), "%s", buf);
	cr_assert_null(strstr(r, "wakeprobe_up"));
	free(r);
	cr_assert_eq(status_for("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_WRONG "\r\n"), 401);
	cr_assert_eq(status_for("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"), 401, "the page too");
	/* a HEAD's 401 is a head alone: the GET pipelined behind it is read as the next request, not as its body */
	r = exchange("HEAD /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n" GET_METRICS);
	cr_assert_eq(status_of(r), 401, "%s", r);
	cr_assert_gt(content_length(r), 0, "the length a GET's body would have");
	cr_assert(!strncmp(body_of(r), "HTTP/1.1 401 ", 13), "a body after the HEAD's head:\n%s", r);
	cr_assert_eq(status_of(body_of(r)), 401);
	free(r);
	cr_assert_eq(scrape.calls, 0, "nothing rendered for them");
	/* a head refused before: its status, as without a password */
	cr_assert_eq(status_for("GET /metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n"), 421);
}

Test(http_server, with_the_password_a_scrape_is_answered_once_the_worker_has_checked_it)
{
	struct web_config cfg;
	char msg[256];
	char *r;

	web_users(&cfg, "alice", "secret");
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	r = exchange("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n");
	cr_assert_eq(status_of(r), 200, "%s", r);
	cr_assert_str_eq(body_of(r), METRICS_TEXT);
	free(r);
	/* pipelined: both answered, in order, the second from the cache */
	r = exchange("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n"
		     "GET / HTTP/1.1\r\nHost: localhost\r\n" AUTH_WRONG "\r\n"
		     "GET / HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n");
	cr_assert_eq(count_responses(r), 3, "%s", r);
	cr_assert_eq(status_of(r), 200);
	cr_assert_eq(status_of(next_response(r)), 401);
	cr_assert_eq(status_of(next_response(next_response(r))), 200);
	free(r);
	cr_assert_eq(scrape.calls, 2);
}

Test(http_server, a_connection_gone_while_its_password_is_checked_is_closed_cleanly)
{
	struct web_config cfg;
	char msg[256];
	int fd;

	web_users(&cfg, "alice", "secret");
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	fd = dial();
	send_all(fd, "GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n",
		 strlen("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n"));
	http_server__serve(server, 0);
	close(fd);
	for (int i = 0; i < 50; i++)
		http_server__serve(server, 10);
	/* the server goes on: the next client is answered */
	cr_assert_eq(status_for("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n"), 200);
}

Test(http_server, a_new_web_config_is_in_force_and_a_bad_one_keeps_the_old)
{
	struct web_config cfg;
	char msg[512];

	web_users(&cfg, "alice", "secret");
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	/* a TLS file that is no certificate: refused, and the password still asked */
	cfg.tls = true;
	snprintf(cfg.cert_file, sizeof(cfg.cert_file), "/dev/null");
	snprintf(cfg.key_file, sizeof(cfg.key_file), "/dev/null");
	cfg.min_version = WEB_TLS12;
	cr_assert_neq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0);
	cr_assert(strstr(msg, "--web-config web.yml: cert_file /dev/null"), "%s", msg);
	cr_assert_eq(status_for(GET_METRICS), 401, "the old one in force, and plain HTTP still");
	/* none: plain HTTP, no password */
	cr_assert_eq(http_server__set_web_config(server, NULL, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(status_for(GET_METRICS), 200);
}

Test(http_server, a_connection_whose_password_is_being_checked_does_not_give_way)
{
	const char *req = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n";
	struct http_server_stats st;
	struct pollfd p = { .events = POLLIN };
	struct web_config cfg;
	int checked, idle, late;
	char msg[256];
	char *r;

	/* cost 12: a check of some 300 ms, that runs while the table fills */
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_users = 1;
	snprintf(cfg.users[0].name, sizeof(cfg.users[0].name), "alice");
	bcrypt_hash_cost("secret", 12, cfg.users[0].hash);
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(http_server__set_max_conns(server, 2), 0);
	/*
	 * however slow the machine (an emulated one takes seconds a check), its
	 * verdict is what is waited for, and the late one's head waits for it
	 */
	http_server__set_auth_timeout(server, 120 * 1000);
	http_server__set_timeouts(server, 120 * 1000, 120 * 1000);
	checked = dial();
	send_all(checked, req, strlen(req));
	/* accepted, the request read and its check begun: the longest wait of the table's, from here on */
	http_server__serve(server, 100);
	usleep(20 * 1000);
	idle = dial();
	http_server__serve(server, 100);
	late = dial();
	http_server__serve(server, 100);
	p.fd = checked;
	cr_assert_eq(poll(&p, 1, 0), 0, "answered before the table was full: the check was too quick to test");
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	cr_expect(is_closed(idle, 1000), "the idle one is still open");
	r = receive_one(checked);
	cr_expect_eq(status_of(r), 200, "%s", r);
	free(r);
	cr_expect_eq(get(late), 401, "served once it had its place: asked for the password");
	close(checked);
	close(idle);
	close(late);
}

Test(http_server, a_password_check_past_its_time_closes_the_connection_as_a_failure)
{
	const char *req = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n" AUTH_ALICE "\r\n";
	struct http_server_stats st;
	struct web_config cfg;
	double start, took, verdict;
	char msg[256];
	int fd;

	/* cost 12: a check of some 300 ms here (as long as making its hash), against a limit of 100 */
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_users = 1;
	snprintf(cfg.users[0].name, sizeof(cfg.users[0].name), "alice");
	start = now_s();
	bcrypt_hash_cost("secret", 12, cfg.users[0].hash);
	verdict = now_s() - start;
	cr_assert_gt(verdict, 0.2, "a check of %.3f s: too quick for a limit of 0.1 s to be told from it", verdict);
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	http_server__set_auth_timeout(server, 100);
	fd = dial();
	send_all(fd, req, strlen(req));
	start = now_s();
	while (!is_closed(fd, 0)) {
		http_server__serve(server, 5000);
		cr_assert_lt(now_s() - start, 5, "still open after 5 s");
	}
	took = now_s() - start;
	/*
	 * closed at its limit, not once the verdict came: timed out, nothing
	 * answered, and sooner than a check takes on this machine (a loaded
	 * one stretches both alike)
	 */
	http_server__stats(server, &st);
	cr_expect_eq(st.timed_out, 1);
	cr_expect_eq(st.errors, 1, "a request lost");
	cr_expect_eq(st.scrapes, 0, "answered: closed at the verdict, not at its limit");
	cr_expect_lt(took, verdict, "closed after %.3f s (a check takes %.3f s): at the check's verdict, not its limit",
		     took, verdict);
	close(fd);
}

/* tls_files - a certificate and key in a directory of @dir's template, and a web configuration of them */
static void tls_files(char *dir, char *cert, char *key, struct web_config *cfg)
{
	cr_assert_not_null(mkdtemp(dir));
	sprintf(cert, "%s/server.crt", dir);
	sprintf(key, "%s/server.key", dir);
	tls_cert_write(cert, key);
	memset(cfg, 0, sizeof(*cfg));
	cfg->tls = true;
	snprintf(cfg->cert_file, sizeof(cfg->cert_file), "%s", cert);
	snprintf(cfg->key_file, sizeof(cfg->key_file), "%s", key);
	cfg->min_version = WEB_TLS12;
}

static void tls_files_remove(const char *dir, const char *cert, const char *key)
{
	unlink(cert);
	unlink(key);
	rmdir(dir);
}

/* tls_serve - the server made to serve HTTPS with a new certificate; the files removed once loaded */
static void tls_serve(void)
{
	char dir[] = "/tmp/wakeprobe-https-XXXXXX", cert[64], key[64], msg[512];
	struct web_config cfg;

	tls_files(dir, cert, key, &cfg);
	cr_assert_eq(http_server__set_web_config(server, &cfg, "web.yml", msg, sizeof(msg)), 0, "%s", msg);
	tls_files_remove(dir, cert, key);
}

/* tls_dial - a client's TLS session on a new connection, its handshake done in turns with the server's */
static SSL *tls_dial(SSL_CTX *ctx, int *fd)
{
	double give_up = now_s() + 10;
	SSL *ssl;
	int r;

	*fd = dial();
	ssl = SSL_new(ctx);
	cr_assert_not_null(ssl);
	cr_assert(SSL_set_fd(ssl, *fd));
	while ((r = SSL_connect(ssl)) != 1) {
		int e = SSL_get_error(ssl, r);

		cr_assert(e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE, "handshake failed (%d)", e);
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up, "no handshake in 10 s");
	}
	return ssl;
}

/* tls_get - GET /metrics over @ssl, and the status of its one response, read whole */
static int tls_get(SSL *ssl)
{
	double give_up = now_s() + 10;
	char buf[4096];
	const char *body;
	size_t len = 0;
	int r;

	while ((r = SSL_write(ssl, GET_METRICS, strlen(GET_METRICS))) <= 0) {
		cr_assert_eq(SSL_get_error(ssl, r), SSL_ERROR_WANT_WRITE);
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up);
	}
	for (;;) {
		buf[len] = '\0';
		body = strstr(buf, "\r\n\r\n");
		if (body && len >= (size_t)(body + 4 - buf) + content_length(buf))
			return status_of(buf);
		r = SSL_read(ssl, buf + len, sizeof(buf) - 1 - len);
		if (r > 0) {
			len += r;
			cr_assert_lt(len, sizeof(buf) - 1, "a response larger than the test reads");
			continue;
		}
		cr_assert_eq(SSL_get_error(ssl, r), SSL_ERROR_WANT_READ, "closed after %zu bytes", len);
		http_server__serve(server, 10);
		cr_assert_lt(now_s(), give_up, "no whole response in 10 s");
	}
}

/* half_hello - a client's ClientHello, as a real one is, cut in half: a handshake begun that never ends */
static void send_half_hello(SSL_CTX *ctx, int fd)
{
	BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem());
	SSL *ssl = SSL_new(ctx);
	char *hello;
	long len;

	cr_assert(in && out && ssl);
	SSL_set_bio(ssl, in, out);
	cr_assert_leq(SSL_connect(ssl), 0);
	len = BIO_get_mem_data(out, &hello);
	cr_assert_gt(len, 10, "no hello written");
	send_all(fd, hello, len / 2);
	SSL_free(ssl);
}

Test(http_server, over_tls_scrapes_are_answered_on_a_kept_connection)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *ssl;
	int fd;

	cr_assert_not_null(ctx);
	tls_serve();
	ssl = tls_dial(ctx, &fd);
	cr_expect_eq(tls_get(ssl), 200);
	cr_expect_eq(tls_get(ssl), 200, "the second on the same connection");
	cr_expect_eq(scrape.calls, 2);
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	close(fd);
}

Test(http_server, a_tls_handshake_that_never_ends_is_closed_at_the_head_timeout)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	struct http_server_stats st;
	int silent, half;
	double start, took;

	cr_assert_not_null(ctx);
	tls_serve();
	http_server__set_timeouts(server, 200, 5000);
	silent = dial();
	half = dial();
	send_half_hello(ctx, half);
	start = now_s();
	while (!is_closed(silent, 0) || !is_closed(half, 0)) {
		/* a long wait, cut short by the timeout */
		http_server__serve(server, 5000);
		cr_assert_lt(now_s() - start, 5, "still open after 5 s");
	}
	took = now_s() - start;
	cr_expect_geq(took, 0.15, "closed after %.3f s", took);
	cr_expect_lt(took, 1.5, "closed after %.3f s", took);
	http_server__stats(server, &st);
	cr_expect_eq(st.timed_out, 2);
	cr_expect_eq(st.errors, 2);
	cr_expect_eq(st.requests, 0);
	SSL_CTX_free(ctx);
	close(silent);
	close(half);
}

Test(http_server, a_stalled_tls_handshake_gives_way_to_a_scraper_as_an_idle_connection_does)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	struct http_server_stats st;
	int fds[2], fd;
	SSL *ssl;

	cr_assert_not_null(ctx);
	tls_serve();
	/* a table of two: a handshake cut in half, the oldest, then a connection that sends nothing */
	cr_assert_eq(http_server__set_max_conns(server, 2), 0);
	fds[0] = dial();
	send_half_hello(ctx, fds[0]);
	http_server__serve(server, 100);
	fds[1] = dial();
	http_server__serve(server, 100);
	http_server__serve(server, 0);
	ssl = tls_dial(ctx, &fd);
	cr_expect_eq(tls_get(ssl), 200);
	http_server__stats(server, &st);
	cr_expect_eq(st.evicted, 1);
	cr_expect(is_closed(fds[0], 1000), "the stalled handshake is still open");
	cr_expect_not(is_closed(fds[1], 0), "the newer one was closed");
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	close(fd);
	close(fds[0]);
	close(fds[1]);
}
