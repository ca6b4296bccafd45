// SPDX-License-Identifier: GPL-2.0
/* web_config.c - exporter-toolkit's web configuration file, read as a small YAML subset (web_config.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "parse.h"
#include "web_config.h"

/* the longest line taken: a path, or a hash, and a comment */
#define LINE_MAX_BYTES		(PATH_MAX + 256)

enum section { SECTION_NONE, SECTION_TLS, SECTION_USERS };

/* the reading of one file: where it is, and what the messages call it */
struct reader {
	const char *name;
	const char *dir;
	int line;
	char *msg;
	size_t msg_len;
	struct web_config *cfg;
	enum section section;
	int child_indent;	/* the indent of the current section's keys; -1: none seen yet */
	/* which keys were given, to refuse a second: top level, then tls_server_config's */
	bool seen_tls, seen_users;
	bool seen_cert, seen_key, seen_client_auth, seen_min, seen_max;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* fail - one line, "--web-config FILE: line N: ...", and -EINVAL */
static int fail(struct reader *r, const char *fmt, ...)
{
	char what[LINE_MAX_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->line)
		snprintf(r->msg, r->msg_len, "--web-config %s: line %d: %s", r->name, r->line, what);
	else
		snprintf(r->msg, r->msg_len, "--web-config %s: %s", r->name, what);
	return -EINVAL;
}

bool web_config__is_bcrypt(const char *hash)
{
	static const char alphabet[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	if (strlen(hash) != WEB_CONFIG_HASH_LEN || hash[0] != '$' || hash[1] != '2' ||
	    !strchr("aby", hash[2]) || hash[3] != '$' || hash[6] != '$')
		return false;
	if (hash[4] < '0' || hash[4] > '3' || hash[5] < '0' || hash[5] > '9')
		return false;
	/* bcrypt's costs: 2^4 to 2^31 rounds */
	cost = (hash[4] - '0') * 10 + hash[5] - '0';
	if (cost < 4 || cost > 31)
		return false;
	return strspn(hash + 7, alphabet) == WEB_CONFIG_HASH_LEN - 7;
}

/*
 * quoted - the 'single' ('' for a quote) or "double" quoted scalar at @p
 * (\\ and \" the only escapes a path or a hash needs), unquoted into
 * @out; *@end past its closing quote. 0, or a refusal.
 */
static int quoted(struct reader *r, const char *p, char *out, size_t out_len, const char **end)
{
	char quote = *p++;
	size_t n = 0;

	for (;; p++) {
		char ch = *p;

		if (!ch)
			return fail(r, "a %s-quoted %s is not closed on its line", quote == '"' ? "double" : "single",
				    out_len > WEB_CONFIG_USER_LEN * 2 ? "value" : "key");
		if (ch == quote && quote == '\'' && p[1] == '\'')
			p++;
		else if (ch == quote)
			break;
		else if (ch == '\\' && quote == '"') {
			if (p[1] != '\\' && p[1] != '"')
				return fail(r, "only \\\\ and \\\" are taken as escapes in double quotes");
			ch = *++p;
		}
		if (n + 1 >= out_len)
			return fail(r, "longer than %zu bytes", out_len - 1);
		out[n++] = ch;
	}
	out[n] = '\0';
	*end = p + 1;
	return 0;
}

/*
 * scalar - the scalar at @p, which runs to the line's end or a comment:
 * plain or quoted, unquoted into @out. 0, or a refusal.
 */
static int scalar(struct reader *r, const char *p, char *out, size_t out_len)
{
	size_t n = 0;
	int err;

	if (*p == '\'' || *p == '"') {
		err = quoted(r, p, out, out_len, &p);
		if (err)
			return err;
		p += strspn(p, " ");
		if (*p && *p != '#')
			return fail(r, "text after a quoted value: put a comment after ' #'");
		return 0;
	}
	/* YAML's indicators: flow collections, anchors, aliases, tags, block scalars, reserved */
	if (*p && strchr("[]{}&*!|>%@`,?", *p))
		return fail(r, "'%c' starts YAML this reader does not take (lists, flow maps, anchors, tags, "
			    "block text): write the value plainly or in quotes", *p);
	for (; *p; p++) {
		/* a comment starts at a '#' after a space; a '#' within a word is the value's */
		if (*p == '#' && n && (out[n - 1] == ' ' || out[n - 1] == '\t'))
			break;
		if (n + 1 >= out_len)
			return fail(r, "a value longer than %zu bytes", out_len - 1);
		out[n++] = *p;
	}
	while (n && (out[n - 1] == ' ' || out[n - 1] == '\t'))
		n--;
	out[n] = '\0';
	return 0;
}

/*
 * split_key - the key of the line at @p ("key: value" or "key:"), plain or
 * quoted, into @key, and where its value starts in *@value ("" for none)
 */
static int split_key(struct reader *r, char *p, char *key, size_t key_len, char **value)
{
	size_t klen;
	char *colon;

	if (*p == '\'' || *p == '"') {
		const char *end;
		int err = quoted(r, p, key, key_len, &end);

		if (err)
			return err;
		if (*end != ':')
			return fail(r, "a quoted key wants ':' right after it");
		colon = (char *)end;
	} else {
		if (p[0] == '-' && (p[1] == ' ' || !p[1]))
			return fail(r, "a list item: no key here takes a list");
		/* "key:" ends at a ':' at the line's end or before a space: "a:b" is a plain scalar, no key */
		for (colon = p; *colon; colon++)
			if (*colon == ':' && (colon[1] == ' ' || !colon[1]))
				break;
		if (!*colon)
			return fail(r, "'%s' is not 'key: value'", parse__shown(p));
		klen = colon - p;
		while (klen && p[klen - 1] == ' ')
			klen--;
		if (klen >= key_len)
			return fail(r, "a key longer than %zu bytes", key_len - 1);
		memcpy(key, p, klen);
		key[klen] = '\0';
	}
	if (!key[0])
		return fail(r, "an empty key");
	*value = colon + 1;
	*value += strspn(*value, " ");
	if (**value == '#')
		*value += strlen(*value);
	return 0;
}

/* join_path - @file as the server opens it: relative ones from the configuration file's directory */
static int join_path(struct reader *r, const char *key, const char *file, char *out, size_t len)
{
	int n = file[0] == '/' || !r->dir[0] ? snprintf(out, len, "%s", file) :
					       snprintf(out, len, "%s/%s", r->dir, file);

	if (n < 0 || (size_t)n >= len)
		return fail(r, "%s is too long a path", key);
	if (access(out, R_OK))
		return fail(r, "%s %s: %s", key, parse__shown(out), errno == ENOENT ? "no such file" :
			    errno == EACCES ? "not readable by this user" : strerror(errno));
	return 0;
}

/* tls_version - "TLS12" or "TLS13": older versions (TLS10, TLS11) are exporter-toolkit's, not served here */
static int tls_version(struct reader *r, const char *key, const char *v, int *out)
{
	if (!strcmp(v, "TLS12"))
		*out = WEB_TLS12;
	else if (!strcmp(v, "TLS13"))
		*out = WEB_TLS13;
	else if (!strcmp(v, "TLS10") || !strcmp(v, "TLS11"))
		return fail(r, "%s %s: TLS 1.2 is the oldest served; give TLS12 or TLS13", key, v);
	else
		return fail(r, "%s wants TLS12 or TLS13, not '%s'", key, parse__shown(v));
	return 0;
}

/*
 * tls_key_name - whether @key is one of tls_server_config's that wakeprobe
 * takes: a refusal names any other, before its value is looked at
 */
static int tls_key_name(struct reader *r, const char *key)
{
	/* exporter-toolkit's, which wakeprobe does not implement: refused, so that none is thought in force */
	static const char *const unsupported[] = {
		"cert", "key", "client_ca_file", "client_ca", "client_allowed_sans", "cipher_suites",
		"prefer_server_cipher_suites", "curve_preferences",
	};
	static const char *const taken[] = {
		"cert_file", "key_file", "client_auth_type", "min_version", "max_version",
	};

	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (!strcmp(key, unsupported[i]))
			return fail(r, "tls_server_config: %s is not supported by wakeprobe: remove it%s", key,
				    !strcmp(key, "cert") || !strcmp(key, "key") ?
					    " and give the PEM in a file by cert_file and key_file" : "");
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (!strcmp(key, taken[i]))
			return 0;
	return fail(r, "tls_server_config: unknown key '%s' (cert_file, key_file, client_auth_type, "
		    "min_version, max_version are taken)", parse__shown(key));
}

/* tls_key - one key of tls_server_config, as tls_key_name() took it */
static int tls_key(struct reader *r, const char *key, const char *value)
{
	struct web_config *cfg = r->cfg;
	bool *seen = NULL;

	if (!strcmp(key, "cert_file"))
		seen = &r->seen_cert;
	else if (!strcmp(key, "key_file"))
		seen = &r->seen_key;
	else if (!strcmp(key, "client_auth_type"))
		seen = &r->seen_client_auth;
	else if (!strcmp(key, "min_version"))
		seen = &r->seen_min;
	else
		seen = &r->seen_max;
	if (*seen)
		return fail(r, "tls_server_config: %s given twice", key);
	*seen = true;
	if (!value[0])
		return fail(r, "tls_server_config: %s wants a value", key);

	if (seen == &r->seen_cert)
		return join_path(r, key, value, cfg->cert_file, sizeof(cfg->cert_file));
	if (seen == &r->seen_key)
		return join_path(r, key, value, cfg->key_file, sizeof(cfg->key_file));
	if (seen == &r->seen_min)
		return tls_version(r, key, value, &cfg->min_version);
	if (seen == &r->seen_max)
		return tls_version(r, key, value, &cfg->max_version);
	if (strcmp(value, "NoClientCert"))
		return fail(r, "tls_server_config: client_auth_type %s is not supported by wakeprobe: only "
			    "NoClientCert (client certificates are not asked)", parse__shown(value));
	return 0;
}

/* user_key - one of basic_auth_users: a name and its bcrypt hash */
static int user_key(struct reader *r, const char *name, const char *hash)
{
	struct web_config *cfg = r->cfg;
	struct web_user *u;

	for (int i = 0; i < cfg->nr_users; i++)
		if (!strcmp(cfg->users[i].name, name))
			return fail(r, "basic_auth_users: %s given twice", parse__shown(name));
	if (cfg->nr_users == WEB_CONFIG_MAX_USERS)
		return fail(r, "basic_auth_users: more than %d users", WEB_CONFIG_MAX_USERS);
	if (strlen(name) >= WEB_CONFIG_USER_LEN)
		return fail(r, "basic_auth_users: a name longer than %d bytes", WEB_CONFIG_USER_LEN - 1);
	/* Basic auth sends "user:password": a name with a ':' could never be sent */
	if (strchr(name, ':'))
		return fail(r, "basic_auth_users: %s: a user name cannot hold ':'", parse__shown(name));
	if (!web_config__is_bcrypt(hash))
		return fail(r, "basic_auth_users: %s: not a bcrypt hash ($2y$, $2b$ or $2a$, 60 characters): make "
			    "one with htpasswd -nbBC 10 USER PASSWORD", parse__shown(name));
	u = &cfg->users[cfg->nr_users++];
	memcpy(u->name, name, strlen(name) + 1);
	memcpy(u->hash, hash, WEB_CONFIG_HASH_LEN + 1);
	return 0;
}

/* top_key_name - whether @key is a section wakeprobe takes: a refusal names any other */
static int top_key_name(struct reader *r, const char *key)
{
	if (!strcmp(key, "http_server_config") || !strcmp(key, "rate_limit"))
		return fail(r, "%s is not supported by wakeprobe: remove it", key);
	if (strcmp(key, "tls_server_config") && strcmp(key, "basic_auth_users"))
		return fail(r, "unknown key '%s' (tls_server_config and basic_auth_users are taken)",
			    parse__shown(key));
	return 0;
}

/* top_key - a key at the left margin, as top_key_name() took it: one of the file's sections */
static int top_key(struct reader *r, const char *key, const char *value)
{
	bool tls = !strcmp(key, "tls_server_config");
	bool *seen = tls ? &r->seen_tls : &r->seen_users;

	r->section = tls ? SECTION_TLS : SECTION_USERS;
	if (*seen)
		return fail(r, "%s given twice", key);
	*seen = true;
	r->child_indent = -1;
	if (value[0])
		return fail(r, "%s wants its keys on the lines below it, indented", key);
	if (r->section == SECTION_TLS)
		r->cfg->tls = true;
	return 0;
}

/* one_line - a line of the file, without its line end */
static int one_line(struct reader *r, char *line)
{
	char key[WEB_CONFIG_USER_LEN * 2], value[LINE_MAX_BYTES], *rest = NULL;
	size_t indent = strspn(line, " ");
	int err;

	if (line[indent] == '\t')
		return fail(r, "a tab in the indentation: YAML indents with spaces");
	if (!line[indent] || line[indent] == '#')
		return 0;
	if (!indent && (!strcmp(line, "---") || !strncmp(line, "--- ", 4) || !strcmp(line, "...")))
		return fail(r, "a YAML document marker: the file holds one document, without markers");
	err = split_key(r, line + indent, key, sizeof(key), &rest);
	/* a key not taken is named as such, whatever its value looks like */
	if (!err && !indent)
		err = top_key_name(r, key);
	else if (!err && r->section == SECTION_TLS)
		err = tls_key_name(r, key);
	if (!err)
		err = scalar(r, rest, value, sizeof(value));
	if (err)
		return err;
	if (!indent)
		return top_key(r, key, value);
	if (r->section == SECTION_NONE)
		return fail(r, "indented, under no key");
	if (r->child_indent < 0)
		r->child_indent = (int)indent;
	if ((int)indent != r->child_indent)
		return fail(r, "indented by %zu spaces, where the key before was by %d: a value below these "
			    "keys is not taken", indent, r->child_indent);
	return r->section == SECTION_TLS ? tls_key(r, key, value) : user_key(r, key, value);
}

int web_config__parse(const char *text, size_t len, const char *dir, const char *name, struct web_config *out,
		      char *msg, size_t msg_len)
{
	struct reader r = { .name = name, .dir = dir, .msg = msg, .msg_len = msg_len, .cfg = out };
	char line[LINE_MAX_BYTES];
	size_t at = 0;
	int err;

	memset(out, 0, sizeof(*out));
	out->min_version = WEB_TLS12;
	if (memchr(text, '\0', len))
		return fail(&r, "a NUL byte: not a text file");
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;

		r.line++;
		if (n >= sizeof(line))
			return fail(&r, "longer than %zu bytes", sizeof(line) - 1);
		memcpy(line, text + at, n);
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		at = nl ? (size_t)(nl - text) + 1 : len;
		err = one_line(&r, line);
		if (err)
			return err;
	}
	r.line = 0;
	if (!r.seen_tls && !r.seen_users)
		return fail(&r, "no tls_server_config and no basic_auth_users: an empty file would serve as "
			    "--listen alone does; give either, or drop --web-config");
	if (r.seen_tls && (!r.seen_cert || !r.seen_key))
		return fail(&r, "tls_server_config wants cert_file and key_file both");
	if (r.seen_users && !out->nr_users)
		return fail(&r, "basic_auth_users names no user: give USER: BCRYPT-HASH lines below it");
	if (out->max_version && out->max_version < out->min_version)
		return fail(&r, "tls_server_config: max_version is older than min_version");
	return 0;
}

int web_config__load(const char *path, struct web_config *out, char *msg, size_t len)
{
	char dir[PATH_MAX], *text = NULL, *slash;
	struct stat st;
	ssize_t n = 0;
	int fd, err;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, len, "--web-config %s: %s", path, err == -ENOENT ? "no such file" : strerror(-err));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > WEB_CONFIG_MAX_BYTES) {
		snprintf(msg, len, "--web-config %s: not a regular file of at most %d KiB", path,
			 WEB_CONFIG_MAX_BYTES / 1024);
		close(fd);
		return -EINVAL;
	}
	text = malloc(st.st_size + 1);
	if (!text) {
		close(fd);
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	while (n < st.st_size) {
		ssize_t got = read(fd, text + n, st.st_size - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += got;
	}
	close(fd);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
	else
		dir[0] = '\0';
	err = web_config__parse(text, n, dir, path, out, msg, len);
	free(text);
	return err;
}
