/* SPDX-License-Identifier: GPL-2.0 */
/* test_trace_cost.c - what a run's tracing cost, kept and recorded */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include "run_recording.h"
#include "trace_cost.h"

/* burn - spend about @ms of this process's CPU */
static void burn(unsigned int ms)
{
	struct timespec start, now;
	volatile uint64_t x = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
	do {
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

Test(trace_cost, wakeprobes_own_cpu_is_what_it_spent_between_start_and_stop)
{
	struct trace_cost c;

	trace_cost__start(&c, 0);
	burn(30);
	trace_cost__stop(&c, 2400, 2400, 870000);
	cr_assert(c.known && c.bpf_stats_on);
	cr_assert_geq(c.self_cpu_ns, 30000000ull, "%lu ns", c.self_cpu_ns);
	cr_assert_lt(c.self_cpu_ns, 2000000000ull, "%lu ns", c.self_cpu_ns);
	cr_assert_eq(c.bpf_runs, 2400);
	cr_assert_eq(c.bpf_run_ns, 870000);
	cr_assert_eq(c.bpf_timed_permille, 1000, "every run timed");
}

/* stopped - a run the kernel could time, which ended with these totals */
static struct trace_cost stopped(uint64_t counted_runs, uint64_t timed_runs, uint64_t timed_ns)
{
	struct trace_cost c;

	trace_cost__start(&c, 0);
	trace_cost__stop(&c, counted_runs, timed_runs, timed_ns);
	return c;
}

static void assert_timed(const struct trace_cost *c, uint64_t runs, uint64_t run_ns, uint16_t permille)
{
	cr_assert(c->bpf_stats_on, "%s", c->bpf_stats_why_off);
	cr_assert_eq(c->bpf_runs, runs);
	cr_assert_eq(c->bpf_run_ns, run_ns);
	cr_assert_eq(c->bpf_timed_permille, permille);
}

Test(trace_cost, runs_timed_in_windows_give_the_time_of_all_runs_at_their_mean)
{
	struct trace_cost c = stopped(2400, 120, 36000);

	/* 120 of 2400 runs timed, 300 ns each: all 2400 at 300 ns */
	assert_timed(&c, 2400, 720000, 50);
	/* a count read before the kernel's: never fewer runs than it timed */
	c = stopped(98, 100, 30000);
	assert_timed(&c, 100, 30000, 1000);
}

Test(trace_cost, no_run_inside_a_window_leaves_the_time_out_and_says_why)
{
	struct trace_cost c = stopped(2400, 0, 0);

	cr_assert_not(c.bpf_stats_on);
	cr_assert_eq(c.bpf_runs, 0);
	cr_assert(strstr(c.bpf_stats_why_off, "no program ran while the kernel timed them"), "%s",
		  c.bpf_stats_why_off);
}

Test(trace_cost, a_kernel_that_would_not_time_the_programs_leaves_their_figures_out_and_says_why)
{
	struct trace_cost c;

	trace_cost__start(&c, -EINVAL);
	trace_cost__stop(&c, 2400, 2400, 870000);
	cr_assert_not(c.bpf_stats_on);
	cr_assert_eq(c.bpf_runs, 0, "counts the kernel did not keep are not taken");
	cr_assert(strstr(c.bpf_stats_why_off, "Invalid argument"), "%s", c.bpf_stats_why_off);
}

Test(trace_cost, a_recording_keeps_it_and_an_older_one_says_it_did_not)
{
	struct trace_cost c, back;
	struct rec_cost r;

	trace_cost__start(&c, -EPERM);
	trace_cost__stop(&c, 0, 0, 0);
	c.self_cpu_ns = 4242;
	run_recording__encode_cost(&c, &r);
	run_recording__decode_cost(&r, &back);
	cr_assert(back.known);
	cr_assert_not(back.bpf_stats_on);
	cr_assert_eq(back.self_cpu_ns, 4242);
	cr_assert_str_eq(back.bpf_stats_why_off, c.bpf_stats_why_off);
	trace_cost__start(&c, 0);
	trace_cost__stop(&c, 2400, 120, 36000);
	run_recording__encode_cost(&c, &r);
	run_recording__decode_cost(&r, &back);
	cr_assert(back.bpf_stats_on);
	cr_assert_eq(back.bpf_runs, 2400);
	cr_assert_eq(back.bpf_run_ns, 720000);
	cr_assert_eq(back.bpf_timed_permille, 50, "the timed share is kept");
	memset(&r, 0, sizeof(r));
	run_recording__decode_cost(&r, &back);
	cr_assert_not(back.known);
}
