// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_common.c - the members every JSON document shares
 * (json_common.c), each written into an object of its own and read back
 * by python3's json module, strictly: its keys in order, its figures as
 * they went in, and null where a figure does not apply.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "json_common.h"
#include "readback.h"

static char path[64];
static FILE *out;

static void setup(void)
{
	out = temp_output("json-common", path);
}

static void teardown(void)
{
	if (out)
		fclose(out);
	out = NULL;
	unlink(path);
}

TestSuite(json_common, .init = setup, .fini = teardown);

static struct json_writer shared;

/* begin_doc - a document of one object, for the shared writers to put their members into */
static void begin_doc(void)
{
	json_writer__init(&shared, out);
	json_writer__begin_object(&shared);
}

/* end_doc - the document is complete: close it so python reads all of it */
static void end_doc(void)
{
	json_writer__end_object(&shared);
	cr_assert_eq(json_writer__finish(&shared), 0);
	cr_assert_eq(fclose(out), 0);
	out = NULL;
}

/* member - open the object @key, for a shared writer to write its own key into */
static struct json_writer *member(const char *key)
{
	json_writer__key(&shared, key);
	json_writer__begin_object(&shared);
	return &shared;
}

static void end_member(void)
{
	json_writer__end_object(&shared);
}

Test(json_common, host_steal_gives_the_steal_clocks_figures_and_proc_stats_account_or_why_not)
{
	struct host_steal two = { .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 3, .nr_cpus = 2,
				  .seen_ns = 1500000 };
	struct host_steal one = { .cpus = { 2, 2 } }, all = { .measured = true, .seen_ns = 9,
							     .cpus = { HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS } };

	snprintf(one.why_off, sizeof(one.why_off), "no steal clock in this kernel's BTF");
	begin_doc();
	json_common__write_host(member("two"), &two, 250000, true);
	end_member();
	json_common__write_host(member("one"), &one, 0, true);
	end_member();
	json_common__write_host(member("all"), &all, 4, true);
	end_member();
	json_common__write_host(member("untraced"), &two, 250000, false);
	end_member();
	end_doc();
	/* /proc/stat allows its 3 ticks and 2 more per CPU, of 10 ms */
	cr_assert(json_check(path,
		"assert d['two'] == {'host_steal': {'measured': True, 'why_not': None, 'cpus': [0, 1], "
		"'stolen_ns': 1500000, 'in_wakeups_ns': 250000, 'proc_stat_ticks': 3, 'proc_stat_tick_ns': 10000000, "
		"'proc_stat_bound_ns': 70000000}}, d['two']\n"
		"assert list(d['two']['host_steal']) == ['measured', 'why_not', 'cpus', 'stolen_ns', 'in_wakeups_ns', "
		"'proc_stat_ticks', 'proc_stat_tick_ns', 'proc_stat_bound_ns'], d['two']\n"
		"assert d['one'] == {'host_steal': {'measured': False, 'why_not': \"no steal clock in this kernel's BTF\", "
		"'cpus': [2], 'stolen_ns': None, 'in_wakeups_ns': None, 'proc_stat_ticks': None, "
		"'proc_stat_tick_ns': None, 'proc_stat_bound_ns': None}}, d['one']\n"
		"assert d['all']['host_steal']['cpus'] is None and d['all']['host_steal']['stolen_ns'] == 9, d['all']\n"
		"assert d['untraced'] == {'host_steal': None}, d['untraced']\n"));
}

Test(json_common, tracing_cost_gives_the_bpf_time_per_wakeup_or_why_it_is_missing)
{
	struct trace_cost on = { .known = true, .bpf_stats_on = true, .bpf_runs = 3000, .bpf_run_ns = 600000,
				 .bpf_timed_permille = 500, .self_cpu_ns = 2500000 };
	struct trace_cost off = { .known = true, .self_cpu_ns = 7 }, unknown = on;

	snprintf(off.bpf_stats_why_off, sizeof(off.bpf_stats_why_off), "kernel.bpf_stats_enabled is off");
	unknown.known = false;
	begin_doc();
	json_common__write_cost(member("on"), &on, 12345, 5, 26, 1000000000, true);
	end_member();
	json_common__write_cost(member("no_wakeup"), &on, 10, 0, 0, 5, true);
	end_member();
	json_common__write_cost(member("off"), &off, 40, 1, 4, 9, true);
	end_member();
	json_common__write_cost(member("unknown"), &unknown, 40, 1, 4, 9, true);
	end_member();
	json_common__write_cost(member("untraced"), &on, 40, 1, 4, 9, false);
	end_member();
	end_doc();
	/* 600 us of BPF over 26 wakeups: 23076 ns each, in whole nanoseconds */
	cr_assert(json_check(path,
		"assert d['on'] == {'tracing_cost': {'wakeups': 26, 'bpf_stats_on': True, 'bpf_stats_why_not': None, "
		"'bpf_runs': 3000, 'bpf_run_ns': 600000, 'bpf_run_ns_per_wakeup': 23076, 'bpf_timed_share': 0.5, "
		"'records': 12345, 'dropped': 5, 'self_cpu_ns': 2500000, 'traced_ns': 1000000000}}, d['on']\n"
		"assert d['no_wakeup']['tracing_cost']['bpf_run_ns_per_wakeup'] is None, d['no_wakeup']\n"
		"assert d['no_wakeup']['tracing_cost']['bpf_run_ns'] == 600000, d['no_wakeup']\n"
		"assert d['off'] == {'tracing_cost': {'wakeups': 4, 'bpf_stats_on': False, "
		"'bpf_stats_why_not': 'kernel.bpf_stats_enabled is off', 'bpf_runs': None, 'bpf_run_ns': None, "
		"'bpf_run_ns_per_wakeup': None, 'bpf_timed_share': None, 'records': 40, 'dropped': 1, "
		"'self_cpu_ns': 7, 'traced_ns': 9}}, d['off']\n"
		"assert d['unknown'] == {'tracing_cost': None} and d['untraced'] == {'tracing_cost': None}, d\n"));
}

Test(json_common, the_interruption_names_its_signal_when_it_is_known)
{
	begin_doc();
	json_common__write_interruption(member("by_sigint"), true, SIGINT);
	end_member();
	json_common__write_interruption(member("unknown"), true, 0);
	end_member();
	json_common__write_interruption(member("not"), false, SIGTERM);
	end_member();
	end_doc();
	cr_assert(json_check(path,
		"assert d['by_sigint'] == {'interrupted': True, 'interrupted_by': 'SIGINT'}, d\n"
		"assert d['unknown'] == {'interrupted': True, 'interrupted_by': None}, d\n"
		"assert d['not'] == {'interrupted': False, 'interrupted_by': None}, d\n"));
}
