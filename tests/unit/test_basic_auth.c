// SPDX-License-Identifier: GPL-2.0
/*
 * test_basic_auth.c - Basic credentials against bcrypt hashes libcrypt
 * makes here (cost 4, milliseconds): the right password granted and the
 * wrong ones denied by the worker thread, never in the caller's; a good
 * pair granted again from the cache without bcrypt; the queue's bound; a
 * new table of users in force for the checks after it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "basic_auth.h"
#include "bcrypt_hash.h"

static struct basic_auth *auth;
static struct web_user users[2];

static void setup(void)
{
	snprintf(users[0].name, sizeof(users[0].name), "alice");
	bcrypt_hash("secret", users[0].hash);
	snprintf(users[1].name, sizeof(users[1].name), "bob");
	bcrypt_hash("hunter2", users[1].hash);
	cr_assert_eq(basic_auth__new(&auth), 0);
	cr_assert_eq(basic_auth__set_users(auth, users, 2), 0);
}

static void teardown(void)
{
	basic_auth__free(auth);
	auth = NULL;
}

TestSuite(basic_auth, .init = setup, .fini = teardown, .timeout = 30);

/* header - "Basic " and the base64 of "@user:@password", as a client sends it */
static const char *header(const char *user, const char *password)
{
	static char value[512];
	char plain[256];
	int n = snprintf(plain, sizeof(plain), "%s:%s", user, password);

	memcpy(value, "Basic ", 6);
	EVP_EncodeBlock((unsigned char *)value + 6, (const unsigned char *)plain, n);
	return value;
}

/* verdict_of - the verdict on @value, waited for as the server waits: by asking again */
static enum basic_auth_verdict verdict_of(const char *value)
{
	struct timespec pause = { .tv_nsec = 1000000 };
	uint32_t ticket = 0;
	enum basic_auth_verdict v = basic_auth__check(auth, value, &ticket);

	for (int i = 0; v == BASIC_AUTH_PENDING && i < 10000; i++) {
		nanosleep(&pause, NULL);
		v = basic_auth__verdict(auth, ticket);
	}
	return v;
}

Test(basic_auth, the_right_password_is_granted_and_wrong_ones_denied)
{
	cr_assert_eq(verdict_of(header("alice", "secret")), BASIC_AUTH_GRANTED);
	cr_assert_eq(verdict_of(header("bob", "hunter2")), BASIC_AUTH_GRANTED);
	cr_assert_eq(verdict_of(header("alice", "hunter2")), BASIC_AUTH_DENIED, "bob's password");
	cr_assert_eq(verdict_of(header("alice", "Secret")), BASIC_AUTH_DENIED);
	cr_assert_eq(verdict_of(header("alice", "")), BASIC_AUTH_DENIED);
	cr_assert_eq(verdict_of(header("mallory", "secret")), BASIC_AUTH_DENIED, "no such user");
	cr_assert_eq(verdict_of(header("alice", "secret\x01")), BASIC_AUTH_DENIED);
}

Test(basic_auth, a_check_runs_in_the_worker_and_not_in_the_caller)
{
	uint32_t ticket = 0;

	/* the first time: nothing cached, so the caller is told to come back */
	cr_assert_eq(basic_auth__check(auth, header("alice", "secret"), &ticket), BASIC_AUTH_PENDING);
	while (basic_auth__verdict(auth, ticket) == BASIC_AUTH_PENDING)
		;
	cr_assert_eq(basic_auth__bcrypt_runs(auth), 1);
	cr_assert_eq(basic_auth__verdict(auth, ticket), BASIC_AUTH_DENIED, "a ticket is spent once read");
}

Test(basic_auth, unknown_users_cost_a_bcrypt_as_known_ones_do)
{
	cr_assert_eq(verdict_of(header("mallory", "x")), BASIC_AUTH_DENIED);
	cr_assert_eq(basic_auth__bcrypt_runs(auth), 1, "checked against a hash of no one's");
}

Test(basic_auth, malformed_or_missing_credentials_are_denied_without_bcrypt)
{
	static const char *const bad[] = {
		NULL, "", "Basic", "Basic ", "Bearer YWxpY2U6c2VjcmV0", "Basic YWxpY2U6c2VjcmV0=",
		"Basic YWxp Y2U6", "Basic !!!!", "Basic YWxpY2U=", /* "alice", no ':' */
		"Basic YWxpY2U6c2VjcmV0AA==", /* a NUL after the password */
	};
	uint32_t ticket;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(basic_auth__check(auth, bad[i], &ticket), BASIC_AUTH_DENIED, "%s taken",
			     bad[i] ? bad[i] : "none");
	cr_assert_eq(basic_auth__bcrypt_runs(auth), 0);
	/* the scheme's name in any case, and padding as base64 has it */
	cr_assert_eq(verdict_of("basic YWxpY2U6c2VjcmV0"), BASIC_AUTH_GRANTED);
	cr_assert_eq(verdict_of("BASIC   Ym9iOmh1bnRlcjI="), BASIC_AUTH_GRANTED);
}

Test(basic_auth, a_scraper_costs_one_bcrypt_then_the_cache_answers)
{
	for (int i = 0; i < 20; i++)
		cr_assert_eq(verdict_of(header("alice", "secret")), BASIC_AUTH_GRANTED);
	cr_assert_eq(basic_auth__bcrypt_runs(auth), 1);
	/* a wrong password is not cached: each costs a bcrypt, so guessing stays slow */
	cr_assert_eq(verdict_of(header("alice", "guess")), BASIC_AUTH_DENIED);
	cr_assert_eq(verdict_of(header("alice", "guess")), BASIC_AUTH_DENIED);
	cr_assert_eq(basic_auth__bcrypt_runs(auth), 3);
	/* nor does a good pair grant another password of the same user */
	cr_assert_eq(verdict_of(header("alice", "secreT")), BASIC_AUTH_DENIED);
}

Test(basic_auth, the_cache_is_bounded_and_keeps_the_pairs_used_lately)
{
	struct web_user many[BASIC_AUTH_CACHE + 1];
	char name[32];

	/* BASIC_AUTH_CACHE + 1 users, one password: the hash made once, the names differing */
	for (int i = 0; i <= BASIC_AUTH_CACHE; i++) {
		snprintf(many[i].name, sizeof(many[i].name), "user%d", i);
		memcpy(many[i].hash, users[0].hash, sizeof(many[i].hash));
	}
	cr_assert_eq(basic_auth__set_users(auth, many, BASIC_AUTH_CACHE + 1), 0);
	for (int i = 0; i <= BASIC_AUTH_CACHE; i++) {
		snprintf(name, sizeof(name), "user%d", i);
		cr_assert_eq(verdict_of(header(name, "secret")), BASIC_AUTH_GRANTED);
	}
	cr_assert_eq(basic_auth__bcrypt_runs(auth), BASIC_AUTH_CACHE + 1);
	/* user0 went first, for user16: the others are still there */
	cr_assert_eq(verdict_of(header("user16", "secret")), BASIC_AUTH_GRANTED);
	cr_assert_eq(verdict_of(header("user1", "secret")), BASIC_AUTH_GRANTED);
	cr_assert_eq(basic_auth__bcrypt_runs(auth), BASIC_AUTH_CACHE + 1);
	cr_assert_eq(verdict_of(header("user0", "secret")), BASIC_AUTH_GRANTED);
	cr_assert_eq(basic_auth__bcrypt_runs(auth), BASIC_AUTH_CACHE + 2, "evicted, and checked again");
}

Test(basic_auth, new_users_are_in_force_at_once_and_the_old_password_is_not)
{
	struct web_user next = { .name = "alice" };

	cr_assert_eq(verdict_of(header("alice", "secret")), BASIC_AUTH_GRANTED);
	bcrypt_hash("rotated", next.hash);
	cr_assert_eq(basic_auth__set_users(auth, &next, 1), 0);
	cr_assert_eq(verdict_of(header("alice", "secret")), BASIC_AUTH_DENIED, "cached before, and not now");
	cr_assert_eq(verdict_of(header("alice", "rotated")), BASIC_AUTH_GRANTED);
	cr_assert_eq(verdict_of(header("bob", "hunter2")), BASIC_AUTH_DENIED, "bob is gone");
	/* no users: nothing asked */
	cr_assert_eq(basic_auth__set_users(auth, NULL, 0), 0);
	cr_assert_not(basic_auth__required(auth));
	cr_assert_eq(verdict_of(NULL), BASIC_AUTH_GRANTED);
}

Test(basic_auth, a_check_ended_after_a_reload_is_judged_by_the_new_users)
{
	struct web_user next = { .name = "alice" };
	enum basic_auth_verdict v;
	uint32_t ticket = 0;

	bcrypt_hash("rotated", next.hash);
	cr_assert_eq(basic_auth__check(auth, header("alice", "secret"), &ticket), BASIC_AUTH_PENDING);
	cr_assert_eq(basic_auth__set_users(auth, &next, 1), 0);

	while ((v = basic_auth__verdict(auth, ticket)) == BASIC_AUTH_PENDING)
		;
	cr_assert_eq(v, BASIC_AUTH_DENIED, "the hash it matched is no longer alice's");
}

Test(basic_auth, past_the_queues_bound_a_request_is_told_busy)
{
	uint32_t tickets[BASIC_AUTH_QUEUE + 1];
	int pending = 0, busy = 0;

	/* wrong passwords: never cached, each a bcrypt; queued faster than the worker takes them */
	for (int i = 0; i < BASIC_AUTH_QUEUE + 1; i++) {
		char pw[16];

		snprintf(pw, sizeof(pw), "guess%d", i);
		switch (basic_auth__check(auth, header("alice", pw), &tickets[pending])) {
		case BASIC_AUTH_PENDING:
			pending++;
			break;
		case BASIC_AUTH_BUSY:
			busy++;
			break;
		default:
			cr_assert_fail("a wrong password neither pending nor refused for the bound");
		}
	}
	cr_assert_geq(pending, BASIC_AUTH_QUEUE - 1, "the queue takes its bound (one may have ended meanwhile)");
	cr_assert_eq(busy, BASIC_AUTH_QUEUE + 1 - pending);
	cr_assert_geq(busy, 1, "bounded");
	/* one given up (its connection closed): its slot comes back, and the rest end denied */
	basic_auth__cancel(auth, tickets[0]);
	for (int i = 1; i < pending; i++) {
		enum basic_auth_verdict v;

		while ((v = basic_auth__verdict(auth, tickets[i])) == BASIC_AUTH_PENDING)
			;
		cr_assert_eq(v, BASIC_AUTH_DENIED);
	}
	cr_assert_eq(verdict_of(header("alice", "secret")), BASIC_AUTH_GRANTED, "room again");
}
