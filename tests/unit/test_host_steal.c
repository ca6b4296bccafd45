/* SPDX-License-Identifier: GPL-2.0 */
/* test_host_steal.c - a run's steal: its records on the run's CPUs, /proc/stat's bound, the recording */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include "events.h"
#include "host_steal.h"
#include "run_recording.h"
#include "steal_clock.h"

Test(host_steal, only_the_steal_records_of_the_runs_cpus_add_up)
{
	struct host_steal h, all;

	host_steal__init(&h, 0, 3);
	host_steal__init(&all, HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS);
	struct wp_event evs[] = {
		ev_steal(1000, 0, 7, 20000, 500), ev_steal(2000, 3, 7, 5000, 900), ev_steal(3000, 1, 7, 70000, 10),
		ev_waking(4000, 0, 7, 8, 3, 0),
	};
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		host_steal__add_event(&h, &evs[i]);
		host_steal__add_event(&all, &evs[i]);
	}
	cr_assert_eq(h.seen_ns, 25000, "CPUs 0 and 3 only");
	cr_assert_eq(all.seen_ns, 95000, "attach mode: every CPU");
}

Test(host_steal, proc_stat_bounds_the_steal_by_its_ticks_and_a_tick_per_cpu_at_each_end)
{
	struct host_steal h;

	host_steal__init(&h, 0, 1);
	cr_assert_eq(host_steal__proc_bound_ns(&h), 0, "not read: no bound");
	h.clk_tck = 100;
	h.nr_cpus = 2;
	h.proc_ticks = 3;
	cr_assert_eq(host_steal__proc_bound_ns(&h), (3 + 4) * 10000000ull);
}

Test(host_steal, this_machines_proc_stat_reads_for_two_cpus_and_for_all)
{
	struct host_steal two, all;
	uint64_t ticks, all_ticks;
	uint32_t n, all_n;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	host_steal__init(&two, 0, 0);
	host_steal__init(&all, HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS);
	cr_assert_eq(host_steal__read_proc(&two, &ticks, &n), 0);
	cr_assert_eq(n, 1, "CPU 0 alone, named twice");
	cr_assert_eq(host_steal__read_proc(&all, &all_ticks, &all_n), 0);
	cr_assert_eq(all_n, (uint32_t)cpus);
	cr_assert_geq(all_ticks, ticks);
}

Test(host_steal, a_recording_keeps_what_was_measured_and_says_when_it_was_not_looked_at)
{
	struct steal_layout off = { .on = false };
	struct host_steal h, back;
	struct rec_steal s;

	host_steal__init(&h, 0, 1);
	snprintf(off.why_off, sizeof(off.why_off), "no hypervisor (bare metal): no host to take the CPUs");
	host_steal__start(&h, &off);
	h.proc_ticks = 2;
	h.seen_ns = 123;
	run_recording__encode_steal(&h, &s);
	cr_assert_eq(s.known, 1);
	host_steal__init(&back, 0, 1);
	run_recording__decode_steal(&s, &back);
	cr_assert_not(back.measured);
	cr_assert_str_eq(back.why_off, off.why_off);
	cr_assert_eq(back.proc_ticks, 2);
	cr_assert_eq(back.seen_ns, 0, "what the records add up to is the replay's to count");
	memset(&s, 0, sizeof(s));
	run_recording__decode_steal(&s, &back);
	cr_assert(strstr(back.why_off, "did not read it"), "%s", back.why_off);
}
