// SPDX-License-Identifier: GPL-2.0
/* http_request.c - a request's head read and judged (http_request.h) */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "http_request.h"
#include "parse.h"

/* how a head frames the body after it (RFC 9112 6): what http_request__parse() gathers of its headers */
struct framing {
	bool length_seen;
	uint64_t length;
	bool chunked_or_other;	/* a Transfer-Encoding, whatever its codings */
};

/* trim - @s without the spaces and tabs around it, in place */
static char *trim(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	return s;
}

/* qvalue - "0.5" as 500: a weight in thousandths; a malformed one counts as absent, 1 */
static int qvalue(const char *v)
{
	int q, scale = 100;

	if (*v != '0' && *v != '1')
		return 1000;
	q = (*v++ - '0') * 1000;
	if (*v == '.')
		for (v++; *v >= '0' && *v <= '9' && scale; v++, scale /= 10)
			q += (*v - '0') * scale;
	return *v || q > 1000 ? 1000 : q;
}

/*
 * accept_weights - fold one Accept header's media ranges into the best
 * weights of OpenMetrics (@om) and of the text format (@text: text/plain,
 * and the wildcards that cover it). Each range is "type/subtype;param=value;...", a q
 * parameter its weight; q=0 means "not this".
 */
static void accept_weights(char *value, int *om, int *text)
{
	char *range, *rest = value;

	while ((range = strsep(&rest, ","))) {
		char *param, *params = range, *type = trim(strsep(&params, ";"));
		int q = 1000;

		while ((param = strsep(&params, ";"))) {
			param = trim(param);
			if ((param[0] == 'q' || param[0] == 'Q') && param[1] == '=')
				q = qvalue(param + 2);
		}
		if (!strcasecmp(type, "application/openmetrics-text"))
			*om = q > *om ? q : *om;
		else if (!strcasecmp(type, "text/plain") || !strcasecmp(type, "text/*") || !strcmp(type, "*/*"))
			*text = q > *text ? q : *text;
	}
}

/* what a Host may hold: RFC 3986's reg-name, IP-literal and port; no user@, no blank */
#define HOST_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%!$&'()*+,;=:[]"

/* is_token - a method or header name: one or more of RFC 9110's tchar */
static bool is_token(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9') &&
		    !strchr("!#$%&'*+-.^_`|~", *s))
			return false;
	return true;
}

/* next_line - the line at *@p, NUL-terminated without its CRLF or LF, *@p moved past it; NULL for a bad byte */
static char *next_line(char **p)
{
	char *line = *p, *nl = strchr(line, '\n');

	*nl = '\0';
	*p = nl + 1;
	if (nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	/* control bytes but tab have no place in a head; a bare CR could split it differently elsewhere */
	for (char *b = line; *b; b++)
		if (((unsigned char)*b < 0x20 && *b != '\t') || *b == 0x7f)
			return NULL;
	return line;
}

/*
 * content_length - one Content-Length header's @value into @f: false when
 * it is not a number, or not the number an earlier one said. RFC 9112 6.3
 * makes either an unrecoverable framing error; a list of one number
 * repeated ("5, 5") may be taken or refused, and is refused.
 */
static bool content_length(const char *value, struct framing *f)
{
	uint64_t n;

	if (parse__u64(value, 0, UINT64_MAX, &n) || (f->length_seen && n != f->length))
		return false;
	f->length_seen = true;
	f->length = n;
	return true;
}

/* connection_close - whether a Connection header's @value has the option "close" among its tokens */
static bool connection_close(char *value)
{
	char *option, *rest = value;

	while ((option = strsep(&rest, ",")))
		if (!strcasecmp(trim(option), "close"))
			return true;
	return false;
}

int http_request__parse(char *head, struct http_request *rq)
{
	char *p = head, *line, *target, *version;
	int om = 0, text = 0, hosts = 0, authorizations = 0;
	struct framing framing = { 0 };
	bool http11;

	/* a client may send an empty line before its request (RFC 9112 2.2) */
	if (*p == '\r' && p[1] == '\n')
		p += 2;
	else if (*p == '\n')
		p++;
	line = next_line(&p);
	if (!line)
		return 400;
	rq->method = strsep(&line, " ");
	target = strsep(&line, " ");
	version = line;
	if (!target || !version || !is_token(rq->method) || !*target || strncmp(version, "HTTP/1.", 7) ||
	    version[7] < '0' || version[7] > '9' || version[8])
		return 400;
	http11 = version[7] != '0';
	rq->http11 = http11;

	while ((line = next_line(&p)) && *line) {
		char *name, *value = line;

		/* a line folded onto the one before was made obsolete, and splits headers ambiguously */
		if (*line == ' ' || *line == '\t')
			return 400;
		name = strsep(&value, ":");
		if (!value || !is_token(name))
			return 400;
		if (!strcasecmp(name, "Host") && ++hosts == 1)
			rq->host = trim(value);
		else if (!strcasecmp(name, "Accept"))
			accept_weights(value, &om, &text);
		else if (!strcasecmp(name, "Content-Length") && !content_length(trim(value), &framing))
			return 400;
		else if (!strcasecmp(name, "Transfer-Encoding"))
			framing.chunked_or_other = true;
		else if (!strcasecmp(name, "Connection"))
			rq->close |= connection_close(value);
		else if (!strcasecmp(name, "Authorization") && ++authorizations == 1)
			rq->authorization = trim(value);
	}
	/* two sets of credentials: which one a proxy before us checked cannot be told */
	if (!line || (http11 && hosts != 1) || hosts > 1 || authorizations > 1)
		return 400;
	/*
	 * Both: two parties may split the stream at different places, which
	 * is how requests are smuggled past a proxy. RFC 9112 6.1 lets a
	 * server refuse it, and has it close the connection either way.
	 */
	if (framing.length_seen && framing.chunked_or_other)
		return 400;
	rq->body = framing.chunked_or_other || framing.length;

	/* the query is no other resource: /metrics?collect[]=x is /metrics */
	target[strcspn(target, "?")] = '\0';
	/* absolute-form, as to a proxy: the path is what is asked for, the authority whom (RFC 9112 3.2.2) */
	if (!strncasecmp(target, "http://", 7) || !strncasecmp(target, "https://", 8)) {
		const char *authority = strstr(target, "//") + 2, *path = strchr(authority, '/');
		size_t n = path ? (size_t)(path - authority) : strlen(authority);

		if (n >= sizeof(rq->authority))
			n = sizeof(rq->authority) - 1;	/* too long for any name: no host of ours */
		memcpy(rq->authority, authority, n);
		rq->authority[n] = '\0';
		rq->host = rq->authority;
		rq->path = path ? path : "/";
	} else if (target[0] == '/' || !strcmp(target, "*")) {
		rq->path = target;
	} else {
		return 400;
	}
	/* a Host that is not one (a space, a user@): RFC 9112 3.2's invalid field value */
	if (rq->host && rq->host[strspn(rq->host, HOST_CHARS)])
		return 400;
	/* OpenMetrics when the scraper weighs it at least as high as the text format */
	rq->openmetrics = om > 0 && om >= text;
	return 0;
}
