/* SPDX-License-Identifier: GPL-2.0 */
/*
 * basic_auth.h - the scrape endpoint's HTTP Basic authentication (RFC 7617)
 * against --web-config's basic_auth_users, whose passwords are bcrypt
 * hashes checked by libcrypt (crypt_rn(3)).
 *
 * bcrypt is slow on purpose, tens of milliseconds at cost 10, and the
 * server runs in the tracing loop's thread, which must never wait that
 * long: a check runs in a worker thread of its own, and the caller polls
 * for its verdict. Bounded: BASIC_AUTH_QUEUE checks at once, queued or
 * running; past that a request is told BASIC_AUTH_BUSY, to be answered 503.
 *
 * A scraper sends the same password every 15 s: the last
 * BASIC_AUTH_CACHE pairs found good are kept, by a SHA-256 of the user,
 * the password and the hash (never the password itself), so that a
 * scraper costs one bcrypt per set of users, not one per scrape. A user
 * not in the table is checked against a hash of no one's, as long as a
 * known one's wrong password, so that the time taken does not tell which
 * names exist.
 */
#ifndef WAKEPROBE_BASIC_AUTH_H
#define WAKEPROBE_BASIC_AUTH_H

#include <stdint.h>
#include "web_config.h"

#define BASIC_AUTH_QUEUE	8
#define BASIC_AUTH_CACHE	16
/* the longest password taken: bcrypt reads 72 bytes, and no scraper's is longer than this */
#define BASIC_AUTH_PASSWORD_MAX	1024

enum basic_auth_verdict {
	BASIC_AUTH_GRANTED,
	BASIC_AUTH_DENIED,	/* no credentials, malformed ones, or the wrong ones: 401 */
	BASIC_AUTH_PENDING,	/* the check runs: ask basic_auth__verdict() again later */
	BASIC_AUTH_BUSY,	/* BASIC_AUTH_QUEUE checks already wait: 503 */
};

struct basic_auth;

/* basic_auth__new - no users yet, and the worker thread started: 0, or a negative errno */
int basic_auth__new(struct basic_auth **out);

/*
 * basic_auth__set_users - @nr users of @users replace the table (0: no
 * authentication asked), and the cache is emptied. A check running
 * meanwhile is judged against the table as it is when it ends.
 */
int basic_auth__set_users(struct basic_auth *a, const struct web_user *users, int nr);

/* basic_auth__required - whether a table of users is in force */
bool basic_auth__required(const struct basic_auth *a);

/*
 * basic_auth__check - a request's Authorization header value (@value, NULL
 * for none): GRANTED from the cache, DENIED at once when there is nothing
 * to check, BUSY, or PENDING with *@ticket to ask basic_auth__verdict() of
 */
enum basic_auth_verdict basic_auth__check(struct basic_auth *a, const char *value, uint32_t *ticket);

/*
 * basic_auth__verdict - PENDING while @ticket's check runs, then its
 * verdict, once: the ticket is spent
 */
enum basic_auth_verdict basic_auth__verdict(struct basic_auth *a, uint32_t ticket);

/* basic_auth__cancel - @ticket's verdict is not wanted (the connection closed): its slot is freed once it ends */
void basic_auth__cancel(struct basic_auth *a, uint32_t ticket);

/* basic_auth__bcrypt_runs - how many hashes the worker computed: for tests, and the cache's worth */
uint64_t basic_auth__bcrypt_runs(struct basic_auth *a);

/* basic_auth__free - stop the worker (waiting out a check in progress) and forget every secret; NULL is fine */
void basic_auth__free(struct basic_auth *a);

#endif /* WAKEPROBE_BASIC_AUTH_H */
