/* SPDX-License-Identifier: GPL-2.0 */
/* test_decimal.c - integers in decimal, as printf would write them, in one write */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include "decimal.h"
#include "memout.h"

TestSuite(decimal, .init = memout__open, .fini = memout__close);

Test(decimal, every_magnitude_reads_as_printf_writes_it)
{
	static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 123456789, 4294967295u, 4294967296u,
					   UINT64_MAX / 10, UINT64_MAX };
	char want[4096] = "", one[32];

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		decimal__put(out, i ? ' ' : '\0', values[i], false);
		snprintf(one, sizeof(one), "%s%" PRIu64, i ? " " : "", values[i]);
		strcat(want, one);
	}
	cr_assert_str_eq(written(), want);
}

Test(decimal, signed_values_keep_their_sign_int64_min_too)
{
	decimal__put_i64(out, ',', -1);
	decimal__put_i64(out, ',', 0);
	decimal__put_i64(out, ',', INT64_MAX);
	decimal__put_i64(out, ',', INT64_MIN);
	cr_assert_str_eq(written(), ",-1,0,9223372036854775807,-9223372036854775808");
}
