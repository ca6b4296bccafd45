// SPDX-License-Identifier: GPL-2.0
/*
 * test_tls_server.c - the scrape endpoint's TLS: a context from a
 * certificate and key made here (P-256, self-signed, in a directory of the
 * suite's), refused in one line when they are not a pair; a handshake and
 * an exchange over a socket pair, both ends non-blocking and driven in
 * turns in one process, as the server's loop drives them; plain HTTP to
 * the TLS end answered 400 and closed; the versions the file allows.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tls_cert.h"
#include "tls_server.h"

static char dir[] = "/tmp/wakeprobe-tls-XXXXXX";
static char cert_path[PATH_MAX], key_path[PATH_MAX], other_key_path[PATH_MAX];
static struct web_config cfg;
static char msg[2 * PATH_MAX + 256];

/* make_files - a key, a certificate of it for localhost, and a second key that is not the certificate's */
static void make_files(void)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cert_path, sizeof(cert_path), "%s/server.crt", dir);
	snprintf(key_path, sizeof(key_path), "%s/server.key", dir);
	snprintf(other_key_path, sizeof(other_key_path), "%s/other.key", dir);
	tls_cert_write(cert_path, key_path);
	EVP_PKEY_free(tls_key_write(other_key_path));

	memset(&cfg, 0, sizeof(cfg));
	cfg.tls = true;
	snprintf(cfg.cert_file, sizeof(cfg.cert_file), "%s", cert_path);
	snprintf(cfg.key_file, sizeof(cfg.key_file), "%s", key_path);
	cfg.min_version = WEB_TLS12;
}

static void remove_files(void)
{
	unlink(cert_path);
	unlink(key_path);
	unlink(other_key_path);
	rmdir(dir);
}

TestSuite(tls_server, .init = make_files, .fini = remove_files, .timeout = 30);

Test(tls_server, a_certificate_and_its_key_make_a_context)
{
	struct tls_server *t = NULL;

	cr_assert_eq(tls_server__new(&cfg, "web.yml", &t, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not_null(t);
	tls_server__free(t);
}

Test(tls_server, a_key_that_is_not_the_certificates_is_refused_naming_both)
{
	struct tls_server *t = NULL;

	snprintf(cfg.key_file, sizeof(cfg.key_file), "%s", other_key_path);
	cr_assert_eq(tls_server__new(&cfg, "web.yml", &t, msg, sizeof(msg)), -EINVAL);
	cr_assert_null(t);
	cr_assert(strstr(msg, "--web-config web.yml: key_file ") && strstr(msg, "other.key is not the key of cert_file") &&
		  strstr(msg, "server.crt"), "%s", msg);
	cr_assert_null(strchr(msg, '\n'));
}

Test(tls_server, files_that_are_not_pem_are_refused_naming_the_key)
{
	struct tls_server *t = NULL;

	/* the key where the certificate should be */
	snprintf(cfg.cert_file, sizeof(cfg.cert_file), "%s", key_path);
	cr_assert_eq(tls_server__new(&cfg, "web.yml", &t, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "--web-config web.yml: cert_file ") && strstr(msg, "give a PEM certificate"), "%s", msg);
	snprintf(cfg.cert_file, sizeof(cfg.cert_file), "%s", cert_path);
	snprintf(cfg.key_file, sizeof(cfg.key_file), "%s", cert_path);
	cr_assert_eq(tls_server__new(&cfg, "web.yml", &t, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "key_file ") && strstr(msg, "give a PEM private key"), "%s", msg);
}

/* a client's end of a socket pair, and the server's session on the other */
struct pair {
	int client_fd, server_fd;
	SSL_CTX *client_ctx;
	SSL *client;
	struct tls_server *t;
	struct tls_session *session;
};

static void pair_open(struct pair *p, int client_max_version)
{
	int fds[2];

	cr_assert_eq(tls_server__new(&cfg, "web.yml", &p->t, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), 0);
	p->client_fd = fds[0];
	p->server_fd = fds[1];
	cr_assert_eq(tls_server__accept(p->t, p->server_fd, &p->session), 0);
	p->client_ctx = SSL_CTX_new(TLS_client_method());
	cr_assert_not_null(p->client_ctx);
	if (client_max_version)
		SSL_CTX_set_max_proto_version(p->client_ctx, client_max_version);
	/* the certificate is the suite's own: what is tested is the server's end */
	SSL_CTX_set_verify(p->client_ctx, SSL_VERIFY_NONE, NULL);
	p->client = SSL_new(p->client_ctx);
	cr_assert_not_null(p->client);
	SSL_set_fd(p->client, p->client_fd);
	SSL_set_connect_state(p->client);
}

static void pair_close(struct pair *p)
{
	SSL_free(p->client);
	SSL_CTX_free(p->client_ctx);
	close(p->client_fd);
	tls_server__close(p->session, p->server_fd);
	tls_server__free(p->t);
}

/*
 * handshake - the client's and the server's turns until the client is
 * connected: 0, or the server's error. The server reads as the http
 * server does, and wants nothing but -EAGAIN until a request comes.
 */
static int handshake(struct pair *p)
{
	char buf[64];

	for (int turn = 0; turn < 100; turn++) {
		int c = SSL_do_handshake(p->client);
		ssize_t n = tls_server__recv(p->session, p->server_fd, buf, sizeof(buf));

		if (n != -EAGAIN)
			return n < 0 ? (int)n : -EBADMSG;
		cr_assert(tls_server__events(p->session, POLLIN) & (POLLIN | POLLOUT));
		if (c == 1)
			return 0;
		cr_assert(SSL_get_error(p->client, c) == SSL_ERROR_WANT_READ, "the client failed");
	}
	cr_assert_fail("no handshake in 100 turns");
	return -ETIMEDOUT;
}

Test(tls_server, a_handshake_and_an_exchange_over_non_blocking_sockets)
{
	static const char request[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n";
	char buf[256] = { 0 };
	struct pair p;
	ssize_t n;

	pair_open(&p, 0);
	cr_assert_eq(handshake(&p), 0);
	cr_assert_eq(SSL_version(p.client), TLS1_3_VERSION, "the newest both take");
	cr_assert_eq(SSL_write(p.client, request, sizeof(request) - 1), (int)sizeof(request) - 1);
	n = tls_server__recv(p.session, p.server_fd, buf, sizeof(buf) - 1);
	cr_assert_eq(n, (ssize_t)sizeof(request) - 1, "%zd", n);
	cr_assert_str_eq(buf, request);
	cr_assert_not(tls_server__pending(p.session));
	cr_assert_eq(tls_server__send(p.session, p.server_fd, "HTTP/1.1 200 OK\r\n", 17), 17);
	memset(buf, 0, sizeof(buf));
	cr_assert_eq(SSL_read(p.client, buf, sizeof(buf) - 1), 17);
	cr_assert_str_eq(buf, "HTTP/1.1 200 OK\r\n");
	/* the server done: close_notify, and the client sees a clean end */
	tls_server__shutdown(p.session, p.server_fd);
	cr_assert_eq(SSL_read(p.client, buf, sizeof(buf)), 0);
	cr_assert_eq(SSL_get_error(p.client, 0), SSL_ERROR_ZERO_RETURN);
	/* and the client's end of it is the server's 0, a connection done */
	SSL_shutdown(p.client);
	cr_assert_eq(tls_server__recv(p.session, p.server_fd, buf, sizeof(buf)), 0);
	pair_close(&p);
}

Test(tls_server, plain_http_to_the_tls_end_gets_a_400_and_no_session)
{
	static const char request[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n";
	char buf[512] = { 0 };
	struct pair p;

	pair_open(&p, 0);
	cr_assert_eq(send(p.client_fd, request, sizeof(request) - 1, 0), (ssize_t)sizeof(request) - 1);
	cr_assert_eq(tls_server__recv(p.session, p.server_fd, buf, sizeof(buf)), -EPROTO);
	cr_assert_gt(recv(p.client_fd, buf, sizeof(buf) - 1, 0), 0);
	cr_assert(!strncmp(buf, "HTTP/1.0 400 Bad Request\r\n", 26), "%s", buf);
	cr_assert(strstr(buf, "Client sent an HTTP request to an HTTPS server."), "%s", buf);
	pair_close(&p);
}

Test(tls_server, min_version_tls13_refuses_a_tls12_client)
{
	struct pair p;

	cfg.min_version = WEB_TLS13;
	pair_open(&p, TLS1_2_VERSION);
	cr_assert_eq(handshake(&p), -EPROTO);
	pair_close(&p);
	ERR_clear_error();

	cfg.min_version = WEB_TLS12;
	cfg.max_version = WEB_TLS12;
	pair_open(&p, 0);
	cr_assert_eq(handshake(&p), 0, "a TLS 1.3 client comes down to 1.2");
	cr_assert_eq(SSL_version(p.client), TLS1_2_VERSION);
	pair_close(&p);
}

Test(tls_server, without_a_session_the_calls_are_the_sockets_own)
{
	char buf[16] = { 0 };
	int fds[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
	cr_assert_eq(tls_server__recv(NULL, fds[1], buf, sizeof(buf)), -EAGAIN);
	cr_assert_eq(tls_server__events(NULL, POLLIN), POLLIN);
	cr_assert_eq(tls_server__send(NULL, fds[0], "ping", 4), 4);
	cr_assert_eq(tls_server__recv(NULL, fds[1], buf, sizeof(buf)), 4);
	cr_assert_str_eq(buf, "ping");
	tls_server__shutdown(NULL, fds[0]);
	cr_assert_eq(tls_server__recv(NULL, fds[1], buf, sizeof(buf)), 0);
	tls_server__close(NULL, fds[0]);
	close(fds[1]);
	cr_assert_eq(tls_server__send(NULL, fds[0], "x", 1), -EBADF);
}
