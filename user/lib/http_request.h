/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_request.h - a request's head, read as a server on a machine's
 * network must (RFC 9112): its line, whom it is for, what it asks for,
 * and whether a body follows that could not be told apart from the next
 * request (http_server.c answers it)
 */
#ifndef WAKEPROBE_HTTP_REQUEST_H
#define WAKEPROBE_HTTP_REQUEST_H

#include <stdbool.h>

/* a host name of a request, without a final dot: a DNS name is at most 253 bytes */
#define HTTP_NAME_LEN		256

/* http_request - what http_request__parse() found in a head */
struct http_request {
	const char *method;
	const char *path;	/* without its query */
	/*
	 * whom it is for: the Host header's value, or an absolute target's
	 * authority, which RFC 9112 3.2.3 has count instead; NULL: neither
	 * (HTTP/1.0 needs no Host)
	 */
	const char *host;
	char authority[HTTP_NAME_LEN + 8];
	/* the Authorization header's value, for Basic auth (basic_auth.h); NULL: none */
	const char *authorization;
	bool openmetrics;
	bool http11;		/* HTTP/1.1, not 1.0 */
	bool close;		/* "Connection: close" */
	bool body;		/* a body follows the head: Content-Length above 0, or Transfer-Encoding */
};

/*
 * http_request__parse - the request line and headers of @head
 * (NUL-terminated, ending with its empty line) into @rq, in place: 0, or
 * 400 for a head that is not HTTP/1.x's or whose body cannot be told apart
 * from what follows it
 */
int http_request__parse(char *head, struct http_request *rq);

#endif /* WAKEPROBE_HTTP_REQUEST_H */
