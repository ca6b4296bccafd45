/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tls_server.h - HTTPS for the scrape endpoint: a server context made from
 * --web-config's tls_server_config (OpenSSL 3; TLS 1.2 and 1.3 only), and
 * for each connection a session read and written through non-blocking
 * calls that never wait, as the server's plain sockets are.
 *
 * A session's calls take the place of recv(2), send(2), shutdown(2) and
 * close(2) on its socket, and with a NULL session they are exactly those:
 * the server calls them whether it serves HTTPS or not. The handshake is
 * done by the first reads and writes, inside the connection's deadline.
 * A call that cannot go on says -EAGAIN, and tls_server__events() which
 * poll(2) events it waits for: a TLS read may need to write (a handshake's
 * reply), a write to read.
 */
#ifndef WAKEPROBE_TLS_SERVER_H
#define WAKEPROBE_TLS_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "web_config.h"

struct tls_server;
struct tls_session;

/*
 * tls_server__new - the context @cfg's tls_server_config asks (cfg->tls):
 * its certificate chain and key loaded and checked to be a pair, its
 * protocol versions set. 0, or a negative errno with one line in @msg
 * naming the file at fault ("--web-config FILE: ...", @name being FILE)
 */
int tls_server__new(const struct web_config *cfg, const char *name, struct tls_server **out, char *msg, size_t len);

/* tls_server__free - the context; sessions made from it keep what they use until closed. NULL is fine */
void tls_server__free(struct tls_server *t);

/*
 * tls_server__accept - a session for @fd, a connection just accepted,
 * which the client's first bytes will start the handshake of: 0, or
 * -ENOMEM (the caller closes @fd)
 */
int tls_server__accept(struct tls_server *t, int fd, struct tls_session **out);

/*
 * tls_server__recv - up to @len bytes of the request: how many, 0 when the
 * client closed, -EAGAIN when none can be had now, or another negative
 * errno when the connection failed (-EPROTO: a failed handshake, plain
 * HTTP to an HTTPS port among them)
 */
ssize_t tls_server__recv(struct tls_session *s, int fd, void *buf, size_t len);

/* tls_server__send - up to @len bytes of the response: how many, -EAGAIN, or a negative errno */
ssize_t tls_server__send(struct tls_session *s, int fd, const void *buf, size_t len);

/* tls_server__events - the poll(2) events @fd waits for, @events being the plain socket's: with TLS, maybe others */
short tls_server__events(const struct tls_session *s, short events);

/* tls_server__pending - whether bytes already read and decrypted wait in @s, which poll(2) cannot see */
bool tls_server__pending(const struct tls_session *s);

/* tls_server__shutdown - no more writes: TLS's close_notify if it can go at once, then shutdown(SHUT_WR) */
void tls_server__shutdown(struct tls_session *s, int fd);

/* tls_server__close - the session freed and @fd closed; a NULL session just closes @fd */
void tls_server__close(struct tls_session *s, int fd);

#endif /* WAKEPROBE_TLS_SERVER_H */
