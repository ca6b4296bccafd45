// SPDX-License-Identifier: GPL-2.0
/* tls_server.c - OpenSSL server sessions over non-blocking sockets (tls_server.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tls_server.h"

/*
 * what a plain HTTP request to the HTTPS port is answered, as Go's server
 * (and so node_exporter) answers it: in the clear, and without metrics
 */
#define PLAIN_HTTP_REPLY                                                                                             \
	"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"          \
	"Client sent an HTTP request to an HTTPS server.\n"

struct tls_server {
	SSL_CTX *ctx;
};

struct tls_session {
	SSL *ssl;
	/* what the last call that could not go on waits for: POLLIN or POLLOUT; 0, nothing */
	short wants;
};

/*
 * The sockets' BIO: OpenSSL's own writes with write(2), and a client gone
 * would raise SIGPIPE in whatever process serves; send(2) with
 * MSG_NOSIGNAL says EPIPE instead, as the plain server's writes do.
 */
static int bio_write(BIO *b, const char *buf, int len)
{
	ssize_t n;

	BIO_clear_retry_flags(b);
	do
		n = send((int)(intptr_t)BIO_get_data(b), buf, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		BIO_set_retry_write(b);
	return (int)n;
}

static int bio_read(BIO *b, char *buf, int len)
{
	ssize_t n;

	BIO_clear_retry_flags(b);
	do
		n = recv((int)(intptr_t)BIO_get_data(b), buf, len, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		BIO_set_retry_read(b);
	return (int)n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	(void)b;
	(void)num;
	(void)ptr;
	/* nothing is buffered here: a flush is done at once; every other request is not known */
	return cmd == BIO_CTRL_FLUSH ? 1 : 0;
}

static int bio_create(BIO *b)
{
	BIO_set_init(b, 1);
	return 1;
}

/* the sockets' BIO method: made once, and kept for the process, as any session may use it until it closes */
static BIO_METHOD *socket_method;
static pthread_once_t socket_method_once = PTHREAD_ONCE_INIT;

static void make_socket_method(void)
{
	BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "wakeprobe socket");

	if (m && BIO_meth_set_write(m, bio_write) && BIO_meth_set_read(m, bio_read) &&
	    BIO_meth_set_ctrl(m, bio_ctrl) && BIO_meth_set_create(m, bio_create))
		socket_method = m;
	else
		BIO_meth_free(m);
}

/* file_error - one line for @key's @file that OpenSSL would not take, with its reason */
static int file_error(char *msg, size_t len, const char *name, const char *key, const char *file, const char *fix)
{
	unsigned long e = ERR_peek_last_error();
	char why[256];

	ERR_error_string_n(e, why, sizeof(why));
	ERR_clear_error();
	snprintf(msg, len, "--web-config %s: %s %s: %s%s", name, key, file, e ? ERR_reason_error_string(e) ?
		 ERR_reason_error_string(e) : why : "not read", fix);
	return -EINVAL;
}

int tls_server__new(const struct web_config *cfg, const char *name, struct tls_server **out, char *msg, size_t len)
{
	struct tls_server *t = calloc(1, sizeof(*t));
	int err = -ENOMEM;

	*out = NULL;
	if (!t)
		goto fail_nomem;
	ERR_clear_error();
	t->ctx = SSL_CTX_new(TLS_server_method());
	pthread_once(&socket_method_once, make_socket_method);
	if (!t->ctx || !socket_method)
		goto fail_nomem;
	/* TLS 1.2 and up, whatever the system's configuration allows below */
	if (!SSL_CTX_set_min_proto_version(t->ctx, cfg->min_version) ||
	    (cfg->max_version && !SSL_CTX_set_max_proto_version(t->ctx, cfg->max_version))) {
		snprintf(msg, len, "--web-config %s: this OpenSSL will not serve the TLS versions asked", name);
		err = -EINVAL;
		goto fail;
	}
	/*
	 * No renegotiation a client asks: each costs the server a handshake's
	 * work, and no scraper needs it. Partial writes: a write says how
	 * much went, as send(2) does, and the rest is given again from
	 * wherever the response's buffer is then.
	 */
	SSL_CTX_set_options(t->ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
	SSL_CTX_set_mode(t->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (SSL_CTX_use_certificate_chain_file(t->ctx, cfg->cert_file) != 1) {
		err = file_error(msg, len, name, "cert_file", cfg->cert_file, ": give a PEM certificate");
		goto fail;
	}
	/* a key of another certificate is found here, by OpenSSL's load, or by the check after it */
	if (SSL_CTX_use_PrivateKey_file(t->ctx, cfg->key_file, SSL_FILETYPE_PEM) != 1 &&
	    ERR_GET_REASON(ERR_peek_last_error()) != X509_R_KEY_VALUES_MISMATCH) {
		err = file_error(msg, len, name, "key_file", cfg->key_file, ": give a PEM private key, unencrypted");
		goto fail;
	}
	if (ERR_peek_last_error() || SSL_CTX_check_private_key(t->ctx) != 1) {
		ERR_clear_error();
		snprintf(msg, len, "--web-config %s: key_file %s is not the key of cert_file %s: give the pair made "
			 "together", name, cfg->key_file, cfg->cert_file);
		err = -EINVAL;
		goto fail;
	}
	*out = t;
	return 0;
fail_nomem:
	snprintf(msg, len, "out of memory");
fail:
	ERR_clear_error();
	tls_server__free(t);
	return err;
}

void tls_server__free(struct tls_server *t)
{
	if (!t)
		return;
	/* the sessions hold a reference of their own to the context */
	SSL_CTX_free(t->ctx);
	free(t);
}

int tls_server__accept(struct tls_server *t, int fd, struct tls_session **out)
{
	struct tls_session *s = calloc(1, sizeof(*s));
	BIO *bio = NULL;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->ssl = SSL_new(t->ctx);
	bio = BIO_new(socket_method);
	if (!s->ssl || !bio) {
		BIO_free(bio);
		SSL_free(s->ssl);
		free(s);
		ERR_clear_error();
		return -ENOMEM;
	}
	BIO_set_data(bio, (void *)(intptr_t)fd);
	SSL_set_bio(s->ssl, bio, bio);
	SSL_set_accept_state(s->ssl);
	*out = s;
	return 0;
}

/*
 * io_result - what an SSL_read or SSL_write that returned @n means, with
 * @s->wants set for a call that cannot go on; @fd answers a plain HTTP
 * request (its head is what the handshake found instead of a hello)
 */
static ssize_t io_result(struct tls_session *s, int fd, int n)
{
	int e = SSL_get_error(s->ssl, n);
	unsigned long reason;

	s->wants = 0;
	switch (e) {
	case SSL_ERROR_NONE:
		return n;
	case SSL_ERROR_WANT_READ:
		s->wants = POLLIN;
		return -EAGAIN;
	case SSL_ERROR_WANT_WRITE:
		s->wants = POLLOUT;
		return -EAGAIN;
	case SSL_ERROR_ZERO_RETURN:
		return 0;	/* the client's close_notify */
	case SSL_ERROR_SYSCALL:
		ERR_clear_error();
		/* closed without close_notify: as a plain socket's end */
		return errno && errno != EPIPE ? -errno : 0;
	default:
		reason = ERR_GET_REASON(ERR_peek_error());
		ERR_clear_error();
		if (reason == SSL_R_HTTP_REQUEST)
			(void)!send(fd, PLAIN_HTTP_REPLY, sizeof(PLAIN_HTTP_REPLY) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
		return -EPROTO;
	}
}

ssize_t tls_server__recv(struct tls_session *s, int fd, void *buf, size_t len)
{
	ssize_t n;
	int got;

	if (!s) {
		do
			n = recv(fd, buf, len, 0);
		while (n < 0 && errno == EINTR);
		return n < 0 ? (errno == EWOULDBLOCK ? -EAGAIN : -errno) : n;
	}
	if (!len)
		return -EAGAIN;
	ERR_clear_error();
	errno = 0;
	got = SSL_read(s->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	return io_result(s, fd, got);
}

ssize_t tls_server__send(struct tls_session *s, int fd, const void *buf, size_t len)
{
	ssize_t n;
	int put;

	if (!s) {
		do
			n = send(fd, buf, len, MSG_NOSIGNAL);
		while (n < 0 && errno == EINTR);
		return n < 0 ? (errno == EWOULDBLOCK ? -EAGAIN : -errno) : n;
	}
	ERR_clear_error();
	errno = 0;
	put = SSL_write(s->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	return io_result(s, fd, put);
}

short tls_server__events(const struct tls_session *s, short events)
{
	return s ? events | s->wants : events;
}

bool tls_server__pending(const struct tls_session *s)
{
	return s && SSL_pending(s->ssl) > 0;
}

void tls_server__shutdown(struct tls_session *s, int fd)
{
	if (s && SSL_is_init_finished(s->ssl)) {
		/* one try: a client that does not take it at once does not get it */
		ERR_clear_error();
		SSL_shutdown(s->ssl);
		ERR_clear_error();
	}
	shutdown(fd, SHUT_WR);
}

void tls_server__close(struct tls_session *s, int fd)
{
	if (s) {
		SSL_free(s->ssl);
		free(s);
	}
	if (fd >= 0)
		close(fd);
}
