// SPDX-License-Identifier: GPL-2.0
/* test_run_meta.c - where and when a run is measured: this machine, this wakeprobe, this moment */
#include <criterion/criterion.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "run_meta.h"

Test(run_meta, the_machine_and_the_moment_are_this_ones)
{
	struct run_meta m;
	struct utsname u;
	struct timespec before, after;

	memset(&m, 0xa5, sizeof(m));
	cr_assert_eq(uname(&u), 0);
	clock_gettime(CLOCK_REALTIME, &before);
	run_meta__now(&m);
	clock_gettime(CLOCK_REALTIME, &after);
	cr_assert_str_eq(m.version, WAKEPROBE_VERSION);
	cr_assert_str_eq(m.kernel, u.release);
	cr_assert_str_eq(m.machine, u.machine);
	cr_assert_str_eq(m.hostname, u.nodename);
	cr_assert_eq(m.nr_cpus, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	cr_assert_geq(m.started_unix_ns, (uint64_t)before.tv_sec * 1000000000ull + (uint64_t)before.tv_nsec);
	cr_assert_leq(m.started_unix_ns, (uint64_t)after.tv_sec * 1000000000ull + (uint64_t)after.tv_nsec);
}
