/* SPDX-License-Identifier: GPL-2.0 */
/*
 * web_config.h - --web-config FILE: TLS and basic auth for the scrape
 * endpoint, in the web configuration format of Prometheus's
 * exporter-toolkit (its docs/web-configuration.md), so that a file written
 * for node_exporter works here as it is. What wakeprobe implements of it:
 *
 *	tls_server_config:
 *	  cert_file: server.crt		# PEM; relative to the file's directory
 *	  key_file: server.key
 *	  client_auth_type: NoClientCert	# the one value taken
 *	  min_version: TLS12		# or TLS13; TLS12 by default
 *	  max_version: TLS13
 *	basic_auth_users:
 *	  alice: $2y$10$...		# bcrypt ($2y$, $2b$, $2a$)
 *
 * Any other key exporter-toolkit knows (client_ca_file, cipher_suites,
 * http_server_config, rate_limit, ...) is refused by name, rather than
 * ignored: a file that asks for client certificates must not be served
 * without them. An unknown key is refused too, as exporter-toolkit does.
 *
 * The YAML read is the subset such files are written in, and no more:
 * two levels of block maps indented by spaces, plain, 'single' or "double"
 * quoted scalars, comments and blank lines. Flow collections, anchors,
 * multi-line scalars, tabs in indentation and documents are refused. Each
 * refusal is one line that names the file's line.
 */
#ifndef WAKEPROBE_WEB_CONFIG_H
#define WAKEPROBE_WEB_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* the most basic_auth_users, and the longest name: a scrape config's, not a user database */
#define WEB_CONFIG_MAX_USERS	64
#define WEB_CONFIG_USER_LEN	128
/* a bcrypt hash: "$2b$", the cost, "$", 22 characters of salt and 31 of hash */
#define WEB_CONFIG_HASH_LEN	60
/* the largest file read: exporter-toolkit's are a few hundred bytes */
#define WEB_CONFIG_MAX_BYTES	(64 * 1024)

/* TLS protocol versions, as on the wire (and OpenSSL's TLS1_2_VERSION, TLS1_3_VERSION) */
#define WEB_TLS12		0x0303
#define WEB_TLS13		0x0304

struct web_user {
	char name[WEB_CONFIG_USER_LEN];
	char hash[WEB_CONFIG_HASH_LEN + 1];
};

/* web_config - what a file asks, checked: a file missing or malformed gives none */
struct web_config {
	bool tls;			/* tls_server_config given: serve HTTPS */
	char cert_file[PATH_MAX];	/* absolute, or relative to the working directory as the file gave it */
	char key_file[PATH_MAX];
	int min_version, max_version;	/* WEB_TLS12 or WEB_TLS13; max 0: the newest there is */
	int nr_users;			/* basic_auth_users: 0, none asked */
	struct web_user users[WEB_CONFIG_MAX_USERS];
};

/*
 * web_config__load - read and check @path: 0, or a negative errno with one
 * line in @msg ("--web-config FILE: line N: ...") that names the fix. The
 * cert_file and key_file named must exist and be readable; whether they
 * are a matching pair is for tls_server__new() to say.
 */
int web_config__load(const char *path, struct web_config *out, char *msg, size_t len);

/*
 * web_config__parse - as web_config__load(), from the @len bytes at @text;
 * @dir is where relative paths are found (the file's directory), @name
 * what the messages call the file
 */
int web_config__parse(const char *text, size_t len, const char *dir, const char *name, struct web_config *out,
		      char *msg, size_t msg_len);

/* web_config__is_bcrypt - whether @hash has the form of a bcrypt hash that libcrypt takes */
bool web_config__is_bcrypt(const char *hash);

#endif /* WAKEPROBE_WEB_CONFIG_H */
