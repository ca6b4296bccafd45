// SPDX-License-Identifier: GPL-2.0
/* basic_auth.c - Basic credentials checked by bcrypt in a worker thread, good ones cached by digest (basic_auth.h) */
#define _GNU_SOURCE
#include <crypt.h>
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "basic_auth.h"

/*
 * what a name not in the table is checked against: a cost-10 bcrypt hash
 * of random bytes nobody kept, so that it takes as long as a user's
 */
#define NOBODY_HASH	"$2y$10$90OQ9eBVS5rWoLu52liaxOZdj6KvyM9E6mnSYNqRqrfpKvDytstAK"

#define DIGEST_LEN	32	/* SHA-256 */

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE, SLOT_ABANDONED };

/* one check: queued by the server's thread, run by the worker, its verdict taken back */
struct slot {
	enum slot_state state;
	uint32_t ticket;
	uint64_t order;		/* queued in this order: the worker takes the oldest */
	char user[WEB_CONFIG_USER_LEN];
	char password[BASIC_AUTH_PASSWORD_MAX + 1];
	char hash[WEB_CONFIG_HASH_LEN + 1];
	bool known;		/* the user is in the table: else checked against NOBODY_HASH, and denied */
	unsigned char digest[DIGEST_LEN];	/* the cache's key, for a pair found good */
	enum basic_auth_verdict verdict;
};

struct cached {
	bool used;
	uint64_t stamp;		/* when last found or used: the oldest goes first */
	unsigned char digest[DIGEST_LEN];
};

struct basic_auth {
	pthread_mutex_t lock;
	pthread_cond_t work;
	pthread_t worker;
	bool stop;
	struct web_user users[WEB_CONFIG_MAX_USERS];
	int nr_users;
	struct slot slots[BASIC_AUTH_QUEUE];
	uint32_t next_ticket;
	uint64_t next_order;
	struct cached cache[BASIC_AUTH_CACHE];
	uint64_t clock;		/* the cache's stamps */
	uint64_t bcrypt_runs;
};

/* find_user - the table's entry for @name, or NULL; under the lock */
static const struct web_user *find_user(const struct basic_auth *a, const char *name)
{
	for (int i = 0; i < a->nr_users; i++)
		if (!strcmp(a->users[i].name, name))
			return &a->users[i];
	return NULL;
}

/* put_len - @n as four bytes, so that the fields of a digest's input cannot be shifted into one another */
static void put_len(EVP_MD_CTX *md, size_t n)
{
	unsigned char b[4] = { n >> 24, n >> 16, n >> 8, n };

	EVP_DigestUpdate(md, b, sizeof(b));
}

/* digest - SHA-256 of the user, the password and the hash: what the cache keeps of a good pair */
static int digest(const char *user, const char *password, size_t password_len, const char *hash,
		  unsigned char out[DIGEST_LEN])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int n = 0;
	int ok;

	if (!md)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	put_len(md, strlen(user));
	EVP_DigestUpdate(md, user, strlen(user));
	put_len(md, password_len);
	EVP_DigestUpdate(md, password, password_len);
	put_len(md, strlen(hash));
	EVP_DigestUpdate(md, hash, strlen(hash));
	ok = ok && EVP_DigestFinal_ex(md, out, &n) && n == DIGEST_LEN;
	EVP_MD_CTX_free(md);
	return ok ? 0 : -EIO;
}

/* cache_find - whether @d is a pair found good lately; under the lock */
static bool cache_find(struct basic_auth *a, const unsigned char *d)
{
	for (int i = 0; i < BASIC_AUTH_CACHE; i++)
		if (a->cache[i].used && !CRYPTO_memcmp(a->cache[i].digest, d, DIGEST_LEN)) {
			a->cache[i].stamp = ++a->clock;
			return true;
		}
	return false;
}

/* cache_add - @d among the good pairs, in place of the one unused longest; under the lock */
static void cache_add(struct basic_auth *a, const unsigned char *d)
{
	struct cached *victim = &a->cache[0];

	if (cache_find(a, d))
		return;
	for (int i = 0; i < BASIC_AUTH_CACHE; i++) {
		if (!a->cache[i].used) {
			victim = &a->cache[i];
			break;
		}
		if (a->cache[i].stamp < victim->stamp)
			victim = &a->cache[i];
	}
	victim->used = true;
	victim->stamp = ++a->clock;
	memcpy(victim->digest, d, DIGEST_LEN);
}

/* oldest_queued - the slot queued first, or NULL; under the lock */
static struct slot *oldest_queued(struct basic_auth *a)
{
	struct slot *best = NULL;

	for (int i = 0; i < BASIC_AUTH_QUEUE; i++)
		if (a->slots[i].state == SLOT_QUEUED && (!best || a->slots[i].order < best->order))
			best = &a->slots[i];
	return best;
}

/*
 * worker - bcrypt, one check at a time, out of the tracing loop's thread.
 * The password and hash are copied out under the lock, hashed without it,
 * and the verdict put back; a slot abandoned meanwhile is freed instead.
 */
static void *worker(void *arg)
{
	struct basic_auth *a = arg;
	struct crypt_data *data = calloc(1, sizeof(*data));
	char password[BASIC_AUTH_PASSWORD_MAX + 1], hash[WEB_CONFIG_HASH_LEN + 1];

	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		struct slot *s = oldest_queued(a);
		const struct web_user *now;
		const char *out;
		bool good;

		if (!s) {
			pthread_cond_wait(&a->work, &a->lock);
			continue;
		}
		s->state = SLOT_RUNNING;
		memcpy(password, s->password, sizeof(password));
		memcpy(hash, s->hash, sizeof(hash));
		pthread_mutex_unlock(&a->lock);

		out = data ? crypt_rn(password, hash, data, sizeof(*data)) : NULL;
		/* the hashes are the same length, and compared in constant time */
		good = out && strlen(out) == strlen(hash) && !CRYPTO_memcmp(out, hash, strlen(hash));
		explicit_bzero(password, sizeof(password));
		if (data)
			explicit_bzero(data, sizeof(*data));

		pthread_mutex_lock(&a->lock);
		a->bcrypt_runs++;
		/* judged by the table as it is now: a reload meanwhile may have changed or removed the user */
		now = find_user(a, s->user);
		good = good && s->known && now && !strcmp(now->hash, hash);
		if (good)
			cache_add(a, s->digest);
		explicit_bzero(s->password, sizeof(s->password));
		if (s->state == SLOT_ABANDONED) {
			s->state = SLOT_FREE;
		} else {
			s->verdict = good ? BASIC_AUTH_GRANTED : BASIC_AUTH_DENIED;
			s->state = SLOT_DONE;
		}
	}
	pthread_mutex_unlock(&a->lock);
	free(data);
	return NULL;
}

int basic_auth__new(struct basic_auth **out)
{
	struct basic_auth *a = calloc(1, sizeof(*a));
	int err;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->work, NULL);
	err = -pthread_create(&a->worker, NULL, worker, a);
	if (err) {
		pthread_cond_destroy(&a->work);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return err;
	}
	*out = a;
	return 0;
}

int basic_auth__set_users(struct basic_auth *a, const struct web_user *users, int nr)
{
	if (nr < 0 || nr > WEB_CONFIG_MAX_USERS)
		return -EINVAL;
	pthread_mutex_lock(&a->lock);
	explicit_bzero(a->users, sizeof(a->users));
	if (nr)
		memcpy(a->users, users, nr * sizeof(*users));
	a->nr_users = nr;
	/* a new file: its passwords are proven anew, once each */
	explicit_bzero(a->cache, sizeof(a->cache));
	pthread_mutex_unlock(&a->lock);
	return 0;
}

bool basic_auth__required(const struct basic_auth *a)
{
	/* read without the lock: only the server's thread changes it */
	return a && a->nr_users > 0;
}

/*
 * decode - the base64 of "user:password" after "Basic " into @user and
 * @password (@password_len bytes, NUL-terminated); false when malformed
 */
static bool decode(const char *value, char *user, char *password, size_t *password_len)
{
	unsigned char plain[WEB_CONFIG_USER_LEN + BASIC_AUTH_PASSWORD_MAX + 8];
	size_t n, pad = 0;
	const char *colon;
	int got;

	/* the scheme's name is case-insensitive (RFC 9110 11.1) */
	if (strncasecmp(value, "Basic", 5) || value[5] != ' ')
		return false;
	value += 6;
	value += strspn(value, " ");
	n = strlen(value);
	if (!n || n % 4 || n / 4 * 3 > sizeof(plain) || strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
							      "0123456789+/=") != n)
		return false;
	if (value[n - 1] == '=')
		pad = value[n - 2] == '=' ? 2 : 1;
	if (memchr(value, '=', n - pad))
		return false;
	got = EVP_DecodeBlock(plain, (const unsigned char *)value, (int)n);
	if (got < 0 || (size_t)got < pad)
		return false;
	got -= (int)pad;
	colon = memchr(plain, ':', got);
	/* a NUL would cut the password short of what was sent, and crypt would hash less */
	if (!colon || memchr(plain, '\0', got) || (size_t)(colon - (char *)plain) >= WEB_CONFIG_USER_LEN ||
	    (size_t)(got - (colon - (char *)plain) - 1) > BASIC_AUTH_PASSWORD_MAX) {
		explicit_bzero(plain, sizeof(plain));
		return false;
	}
	memcpy(user, plain, colon - (char *)plain);
	user[colon - (char *)plain] = '\0';
	*password_len = got - (colon - (char *)plain) - 1;
	memcpy(password, colon + 1, *password_len);
	password[*password_len] = '\0';
	explicit_bzero(plain, sizeof(plain));
	return true;
}

enum basic_auth_verdict basic_auth__check(struct basic_auth *a, const char *value, uint32_t *ticket)
{
	char user[WEB_CONFIG_USER_LEN], password[BASIC_AUTH_PASSWORD_MAX + 1];
	unsigned char d[DIGEST_LEN];
	enum basic_auth_verdict v = BASIC_AUTH_BUSY;
	const struct web_user *u;
	const char *hash;
	size_t password_len;

	if (!basic_auth__required(a))
		return BASIC_AUTH_GRANTED;
	if (!value || !decode(value, user, password, &password_len))
		return BASIC_AUTH_DENIED;
	pthread_mutex_lock(&a->lock);
	u = find_user(a, user);
	hash = u ? u->hash : NOBODY_HASH;
	if (digest(user, password, password_len, hash, d)) {
		v = BASIC_AUTH_DENIED;
	} else if (u && cache_find(a, d)) {
		v = BASIC_AUTH_GRANTED;
	} else {
		for (int i = 0; i < BASIC_AUTH_QUEUE; i++) {
			struct slot *s = &a->slots[i];

			if (s->state != SLOT_FREE)
				continue;
			/* the ticket names the slot, and a count past it so that an old one is never taken for it */
			s->ticket = (++a->next_ticket << 8) | (uint32_t)i;
			s->order = a->next_order++;
			snprintf(s->user, sizeof(s->user), "%s", user);
			memcpy(s->password, password, password_len + 1);
			snprintf(s->hash, sizeof(s->hash), "%s", hash);
			s->known = u != NULL;
			memcpy(s->digest, d, DIGEST_LEN);
			s->state = SLOT_QUEUED;
			*ticket = s->ticket;
			v = BASIC_AUTH_PENDING;
			pthread_cond_signal(&a->work);
			break;
		}
	}
	pthread_mutex_unlock(&a->lock);
	explicit_bzero(password, sizeof(password));
	return v;
}

/* slot_of - @ticket's slot, if it is still that ticket's; under the lock */
static struct slot *slot_of(struct basic_auth *a, uint32_t ticket)
{
	struct slot *s = &a->slots[(ticket & 0xff) % BASIC_AUTH_QUEUE];

	return s->state != SLOT_FREE && s->ticket == ticket ? s : NULL;
}

enum basic_auth_verdict basic_auth__verdict(struct basic_auth *a, uint32_t ticket)
{
	enum basic_auth_verdict v = BASIC_AUTH_DENIED;
	struct slot *s;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ticket);
	if (s && s->state == SLOT_DONE) {
		const struct web_user *now = find_user(a, s->user);

		/* judged by the users in force when it is answered: a reload since may have changed the hash */
		v = s->verdict == BASIC_AUTH_GRANTED && now && !strcmp(now->hash, s->hash) ? BASIC_AUTH_GRANTED :
											 BASIC_AUTH_DENIED;
		s->state = SLOT_FREE;
	} else if (s && s->state != SLOT_ABANDONED) {
		v = BASIC_AUTH_PENDING;
	}
	pthread_mutex_unlock(&a->lock);
	return v;
}

void basic_auth__cancel(struct basic_auth *a, uint32_t ticket)
{
	struct slot *s;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ticket);
	if (s && s->state == SLOT_RUNNING) {
		s->state = SLOT_ABANDONED;
	} else if (s) {
		explicit_bzero(s->password, sizeof(s->password));
		s->state = SLOT_FREE;
	}
	pthread_mutex_unlock(&a->lock);
}

uint64_t basic_auth__bcrypt_runs(struct basic_auth *a)
{
	uint64_t n;

	pthread_mutex_lock(&a->lock);
	n = a->bcrypt_runs;
	pthread_mutex_unlock(&a->lock);
	return n;
}

void basic_auth__free(struct basic_auth *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->worker, NULL);
	explicit_bzero(a->slots, sizeof(a->slots));
	explicit_bzero(a->users, sizeof(a->users));
	explicit_bzero(a->cache, sizeof(a->cache));
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
