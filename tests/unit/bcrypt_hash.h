/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bcrypt_hash.h - a bcrypt hash made by libcrypt, as htpasswd -B makes
 * them, at the lowest cost (4) so that the tests of what checks them run
 * in milliseconds
 */
#ifndef WAKEPROBE_TEST_BCRYPT_HASH_H
#define WAKEPROBE_TEST_BCRYPT_HASH_H

#include <criterion/criterion.h>
#include <crypt.h>
#include <string.h>

/* bcrypt_hash_cost - @password's hash at @cost: a costly one for a test that needs a check to take its time */
static inline void bcrypt_hash_cost(const char *password, int cost, char out[61])
{
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data data;

	memset(&data, 0, sizeof(data));
	cr_assert_not_null(crypt_gensalt_rn("$2b$", cost, NULL, 0, salt, sizeof(salt)));
	cr_assert_not_null(crypt_rn(password, salt, &data, sizeof(data)));
	cr_assert_eq(strlen(data.output), 60, "%s", data.output);
	memcpy(out, data.output, 61);
}

/* bcrypt_hash - @password's "$2b$04$..." into @out */
static inline void bcrypt_hash(const char *password, char out[61])
{
	bcrypt_hash_cost(password, 4, out);
}

#endif /* WAKEPROBE_TEST_BCRYPT_HASH_H */
