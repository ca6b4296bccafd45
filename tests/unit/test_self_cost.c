// SPDX-License-Identifier: GPL-2.0
/*
 * test_self_cost.c - what a running service costs, from its readings: the
 * resident set from statm's text, the machine's steal from its ticks,
 * the programs' time from their totals, each counter only growing; and
 * a reading of the test itself, which needs no BPF side and no root
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "collector.h"
#include "self_cost.h"

TestSuite(self_cost);

/* statm_of - @text as the file /proc/PID/statm would give it */
static FILE *statm_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	cr_assert_not_null(f);
	return f;
}

Test(self_cost, the_resident_set_is_statms_second_number_in_pages)
{
	struct self_cost s = { 0 };
	FILE *f = statm_of("163840 2345 1024 160 0 4096 0\n");

	cr_assert_eq(self_cost__take_statm(&s, f, 4096), 0);
	cr_assert_eq(s.rss_bytes, 2345ull * 4096);
	fclose(f);
}

Test(self_cost, a_statm_that_does_not_parse_leaves_the_resident_set_as_it_was)
{
	static const char *const bad[] = { "", "163840\n", "pages: many\n" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct self_cost s = { .rss_bytes = 777 };
		FILE *f = statm_of(bad[i]);

		cr_assert_eq(self_cost__take_statm(&s, f, 4096), -EINVAL, "\"%s\"", bad[i]);
		cr_assert_eq(s.rss_bytes, 777, "\"%s\"", bad[i]);
		fclose(f);
	}
}

Test(self_cost, the_steal_is_its_ticks_in_nanoseconds_and_never_goes_back)
{
	struct self_cost s = { 0 };

	self_cost__take_steal(&s, 7994, 100);
	cr_assert(s.steal_known);
	cr_assert_eq(s.steal_ns, 79940000000ull, "7994 ticks of 10 ms");
	/* a CPU gone offline takes its column with it: the counter stays where it was */
	self_cost__take_steal(&s, 7000, 100);
	cr_assert_eq(s.steal_ns, 79940000000ull);
	self_cost__take_steal(&s, 8000, 100);
	cr_assert_eq(s.steal_ns, 80000000000ull);
	self_cost__take_steal(&s, 8000, 1000);
	cr_assert_eq(s.steal_ns, 80000000000ull, "8000 ticks of 1 ms are less: kept as it was");
}

Test(self_cost, a_machine_that_never_stole_has_its_steal_known_as_zero)
{
	struct self_cost s = { 0 };

	self_cost__take_steal(&s, 0, 100);
	cr_assert(s.steal_known);
	cr_assert_eq(s.steal_ns, 0);
}

Test(self_cost, the_programs_time_is_the_timed_runs_mean_times_every_run_kept_at_its_highest)
{
	struct self_cost s = { 0 };
	struct collector_prog_totals t = { .counted_runs = 1000, .runs = 40, .run_ns = 8000 };

	self_cost__take_programs(&s, &t);
	cr_assert(s.bpf_known);
	cr_assert_eq(s.bpf_runs, 1000);
	cr_assert_eq(s.bpf_run_ns, 200000, "200 ns a run, the 40 timed ones' mean, for 1000 runs");
	/* a later window timed cheaper runs: the estimate falls, the counter does not */
	t = (struct collector_prog_totals){ .counted_runs = 1500, .runs = 60, .run_ns = 6000 };
	self_cost__take_programs(&s, &t);
	cr_assert_eq(s.bpf_runs, 1500);
	cr_assert_eq(s.bpf_run_ns, 200000);
	t = (struct collector_prog_totals){ .counted_runs = 3000, .runs = 60, .run_ns = 6000 };
	self_cost__take_programs(&s, &t);
	cr_assert_eq(s.bpf_run_ns, 300000);
}

Test(self_cost, without_a_timed_or_a_counted_run_the_programs_time_is_unknown)
{
	struct self_cost s = { 0 };
	struct collector_prog_totals untimed = { .counted_runs = 1000 }, uncounted = { .runs = 40, .run_ns = 8000 };

	self_cost__take_programs(&s, &untimed);
	self_cost__take_programs(&s, &uncounted);
	cr_assert_not(s.bpf_known);
	cr_assert_eq(s.bpf_runs, 0);
	cr_assert_eq(s.bpf_run_ns, 0);
}

Test(self_cost, a_reading_of_a_process_without_programs_has_its_cpu_and_memory_and_no_program_time)
{
	struct self_cost s = { 0 };
	struct timespec start, now;
	uint64_t first;
	volatile uint64_t spin = 0;

	self_cost__read(&s, NULL);
	first = s.cpu_ns;
	cr_assert_gt(s.rss_bytes, 0);
	cr_assert_not(s.bpf_known);
	/* 20 ms of CPU, then read again */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
	do {
		spin++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000ll + (now.tv_nsec - start.tv_nsec) < 20000000);
	self_cost__read(&s, NULL);
	cr_assert_geq(s.cpu_ns, first + 10000000, "%llu ns after %llu", (unsigned long long)s.cpu_ns,
		      (unsigned long long)first);
}
