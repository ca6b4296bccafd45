// SPDX-License-Identifier: GPL-2.0
/*
 * test_file_limit.c - the open-file limit raised to the hard one, and put
 * back as it was for a program started after (each test runs in a process
 * of its own: the limits it sets end with it)
 */
#include <criterion/criterion.h>
#include <sys/resource.h>
#include "file_limit.h"

static struct rlimit now_limit(void)
{
	struct rlimit lim;

	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
	return lim;
}

Test(file_limit, the_soft_limit_is_raised_to_the_hard_one_and_put_back)
{
	struct rlimit lim = now_limit();
	rlim_t got = 0;

	cr_assert_gt(lim.rlim_max, 64, "a hard limit of %lu leaves nothing to test", (unsigned long)lim.rlim_max);
	lim.rlim_cur = 64;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	cr_assert_eq(file_limit__raise(&got), 0);
	cr_expect_eq(got, lim.rlim_max);
	cr_expect_eq(now_limit().rlim_cur, lim.rlim_max);
	file_limit__restore();
	cr_expect_eq(now_limit().rlim_cur, 64);
	cr_expect_eq(now_limit().rlim_max, lim.rlim_max);
}

Test(file_limit, a_soft_limit_at_the_hard_one_already_is_left_alone)
{
	struct rlimit lim = now_limit();
	rlim_t got = 0;

	lim.rlim_cur = lim.rlim_max;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	cr_assert_eq(file_limit__raise(&got), 0);
	cr_expect_eq(got, lim.rlim_max);
	file_limit__restore();
	cr_expect_eq(now_limit().rlim_cur, lim.rlim_max);
}
