/* SPDX-License-Identifier: GPL-2.0 */
/* test_cpus.c - Criterion tests for the default waker and wakee CPUs */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>

#include "cpus.h"

TestSuite(cpus);

Test(cpus, the_waker_and_the_wakee_get_the_two_lowest_allowed_cpus)
{
	int waker = -1, wakee = -1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(9, &set);
	CPU_SET(3, &set);
	CPU_SET(5, &set);
	cr_assert_eq(cpus__first_two(&set, &waker, &wakee), 0);
	cr_assert_eq(waker, 3);
	cr_assert_eq(wakee, 5);
}

Test(cpus, the_highest_cpus_of_the_set_count_too)
{
	int waker = -1, wakee = -1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(CPU_SETSIZE - 2, &set);
	CPU_SET(CPU_SETSIZE - 1, &set);
	cr_assert_eq(cpus__first_two(&set, &waker, &wakee), 0);
	cr_assert_eq(waker, CPU_SETSIZE - 2);
	cr_assert_eq(wakee, CPU_SETSIZE - 1);
}

Test(cpus, one_allowed_cpu_is_not_enough_and_sets_neither)
{
	int waker = -1, wakee = -1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(7, &set);
	cr_assert_eq(cpus__first_two(&set, &waker, &wakee), -ENODEV);
	cr_assert_eq(waker, -1);
	cr_assert_eq(wakee, -1);
	CPU_ZERO(&set);
	cr_assert_eq(cpus__first_two(&set, &waker, &wakee), -ENODEV);
}
