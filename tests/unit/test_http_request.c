// SPDX-License-Identifier: GPL-2.0
/*
 * test_http_request.c - a request's head read as RFC 9112 has a server
 * read it: the line, whom it is for, what it asks for, and whether its
 * body could be told apart from what follows. test_http_server.c holds the
 * server that answers them, through a socket.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "http_request.h"

/* parse - @text (a head, in a buffer of the test's: parsing writes into it) into @rq: 0, or the status */
static int parse(const char *text, struct http_request *rq, char buf[1024])
{
	snprintf(buf, 1024, "%s", text);
	*rq = (struct http_request){ .method = "" };
	return http_request__parse(buf, rq);
}

Test(http_request, a_scrapers_request_is_read_whole)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse("GET /metrics?x=1 HTTP/1.1\r\nHost: 10.0.0.7:9750\r\n"
			   "Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n\r\n",
			   &rq, buf), 0);
	cr_assert_str_eq(rq.method, "GET");
	cr_assert_str_eq(rq.path, "/metrics", "the query is no other resource");
	cr_assert_str_eq(rq.host, "10.0.0.7:9750");
	cr_assert(rq.http11);
	cr_assert(rq.openmetrics, "weighed above the text format");
	cr_assert_not(rq.close);
	cr_assert_not(rq.body);
}

Test(http_request, the_text_format_is_chosen_unless_openmetrics_weighs_as_much)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: h\r\nAccept: text/plain;q=0.9,"
			   "application/openmetrics-text;q=0.5\r\n\r\n", &rq, buf), 0);
	cr_assert_not(rq.openmetrics);
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: h\r\n\r\n", &rq, buf), 0);
	cr_assert_not(rq.openmetrics, "no Accept: the text format");
}

Test(http_request, an_absolute_target_is_for_its_authority_not_its_host_header)
{
	struct http_request rq;
	char buf[1024];

	/* RFC 9112 3.2.3: the target's authority counts, whatever Host says */
	cr_assert_eq(parse("GET http://evil.example:80/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", &rq, buf), 0);
	cr_assert_str_eq(rq.host, "evil.example:80");
	cr_assert_str_eq(rq.path, "/metrics");
}

Test(http_request, http_1_0_needs_no_host_and_asks_for_a_close_as_told)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse("GET / HTTP/1.0\r\n\r\n", &rq, buf), 0);
	cr_assert_null(rq.host);
	cr_assert_not(rq.http11);
	cr_assert_eq(parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n", &rq, buf), 0);
	cr_assert(rq.close);
}

/* arrays, not pointers: Criterion copies parameters into each test's process */
struct bad_head {
	char text[200];
	char why[64];
};

static struct bad_head bad_heads[] = {
	{ "GET /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
	  "framed two ways (RFC 9112 6.1)" },
	{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", "two lengths" },
	{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5x\r\n\r\n", "a length that is no number" },
	{ "GET /metrics HTTP/1.1\r\n\r\n", "HTTP/1.1 without a Host" },
	{ "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "two Hosts" },
	{ "GET / HTTP/1.1\r\nHost: user@h\r\n\r\n", "a Host that is none" },
	{ "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", "an obsolete folded line" },
	{ "GET / HTTP/2.0\r\nHost: h\r\n\r\n", "not HTTP/1.x" },
	{ "GET metrics HTTP/1.1\r\nHost: h\r\n\r\n", "a target that is no path" },
	{ "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", "a method that is no token" },
};

ParameterizedTestParameters(http_request, a_head_that_could_be_read_two_ways_is_a_bad_request)
{
	return cr_make_param_array(struct bad_head, bad_heads, sizeof(bad_heads) / sizeof(bad_heads[0]));
}

ParameterizedTest(struct bad_head *b, http_request, a_head_that_could_be_read_two_ways_is_a_bad_request)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse(b->text, &rq, buf), 400, "%s", b->why);
}

Test(http_request, a_body_is_known_so_that_the_connection_ends_after_it)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse("POST /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n", &rq, buf), 0);
	cr_assert(rq.body);
	cr_assert_eq(parse("POST /metrics HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", &rq, buf), 0);
	cr_assert(rq.body);
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", &rq, buf), 0);
	cr_assert_not(rq.body);
}

Test(http_request, the_authorization_header_is_kept_for_basic_auth)
{
	struct http_request rq;
	char buf[1024];

	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization:  Basic YWxpY2U6c2VjcmV0 \r\n\r\n",
			   &rq, buf), 0);
	cr_assert_str_eq(rq.authorization, "Basic YWxpY2U6c2VjcmV0");
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", &rq, buf), 0);
	cr_assert_null(rq.authorization, "none sent");
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic YTpi\r\n"
			   "authorization: Basic Yzpk\r\n\r\n", &rq, buf), 400,
		     "two credentials: which one a proxy checked cannot be told");
}
