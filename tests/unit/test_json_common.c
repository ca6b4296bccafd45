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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "json_common.h"
#include "lean_adapt.h"
#include "readback.h"
#include "samples.h"

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

Test(json_common, meta_keeps_a_field_of_its_whole_size_whole)
{
	struct run_meta m;

	memset(&m, 0, sizeof(m));
	snprintf(m.version, sizeof(m.version), "0.1.0");
	snprintf(m.kernel, sizeof(m.kernel), "6.12.0-test");
	snprintf(m.machine, sizeof(m.machine), "x86_64");
	/* no NUL inside the field: the kernel's name as it came */
	memset(m.hostname, 'h', sizeof(m.hostname));
	m.nr_cpus = 4;
	m.started_unix_ns = 1700000000123456789ull;
	begin_doc();
	json_common__write_meta(&shared, &m);
	end_doc();
	cr_assert(json_check(path,
		"assert d['meta'] == {'wakeprobe_version': '0.1.0', 'kernel': '6.12.0-test', 'machine': 'x86_64', "
		"'hostname': 'h' * %zu, 'nr_cpus': 4, 'started_unix_ns': 1700000000123456789}, d\n"
		"assert list(d['meta']) == ['wakeprobe_version', 'kernel', 'machine', 'hostname', 'nr_cpus', "
		"'started_unix_ns']\n", sizeof(m.hostname)));
}

Test(json_common, the_drops_are_by_every_event_type_in_the_records_order)
{
	struct wp_counters c;

	memset(&c, 0, sizeof(c));
	c.dropped[WP_EV_SWITCH] = 5;
	c.dropped[WP_EV_LEAN] = 2;
	begin_doc();
	json_common__write_dropped_by_type(&shared, &c);
	end_doc();
	cr_assert(json_check(path,
		"t = d['dropped_by_type']\n"
		"assert list(t) == ['switch', 'waking', 'wakeup', 'sys_enter', 'sys_exit', 'idle_exit', 'fork', "
		"'signal_deliver', 'irq', 'idle_enter', 'migrate', 'waker', 'block', 'steal', 'lean'], list(t)\n"
		"assert t['switch'] == 5 and t['lean'] == 2 and sum(t.values()) == 7, t\n"));
}

Test(json_common, the_labels_and_the_missing_marks_are_keyed_as_the_csv_spells_them)
{
	uint64_t by_label[NR_LABELS] = { 0 }, by_mark[NR_MARKS] = { 0 };

	by_label[LABEL_COMPLETE] = 9;
	by_label[LABEL_MISSING_EVENT] = 2;
	by_mark[MARK_SWITCH_IN] = 2;
	begin_doc();
	json_common__write_labels(&shared, by_label, by_mark);
	end_doc();
	cr_assert(json_check(path,
		"assert list(d) == ['by_label', 'missing_by_mark'], list(d)\n"
		"assert len(d['by_label']) == %d and d['by_label']['complete'] == 9, d['by_label']\n"
		"assert d['by_label']['missing_event'] == 2 and sum(d['by_label'].values()) == 11\n"
		"assert d['missing_by_mark'] == {'notify_enter': 0, 'waking': 0, 'wakeup': 0, 'switch_in': 2, "
		"'wait_exit': 0}, d['missing_by_mark']\n", NR_LABELS));
}

Test(json_common, the_flight_recorders_thresholds_are_by_kind_of_waker_or_null)
{
	const uint64_t none[WP_SLOW_KINDS] = { 0 };
	uint64_t adaptive[WP_SLOW_KINDS], fixed[WP_SLOW_KINDS] = { 0 };

	for (int k = 0; k < WP_SLOW_KINDS; k++)
		adaptive[k] = 40000 + (uint64_t)k;
	adaptive[WP_SLOW_IRQ] = LEAN_ADAPT_NONE;
	fixed[WP_SLOW_THREAD] = fixed[WP_SLOW_IRQ] = fixed[WP_SLOW_SOFTIRQ] = 200000;
	begin_doc();
	json_common__write_lean_flight(member("full"), false, adaptive, true);
	end_member();
	json_common__write_lean_flight(member("no_recorder"), true, none, false);
	end_member();
	json_common__write_lean_flight(member("adaptive"), true, adaptive, true);
	end_member();
	json_common__write_lean_flight(member("fixed"), true, fixed, true);
	end_member();
	end_doc();
	/* an adaptive kind that never had enough wakeups has no threshold yet */
	cr_assert(json_check(path,
		"assert d['full'] == {'lean_flight_threshold_ns': None, 'lean_flight_adaptive': None}, d['full']\n"
		"assert d['no_recorder'] == {'lean_flight_threshold_ns': None, 'lean_flight_adaptive': False}\n"
		"assert d['adaptive'] == {'lean_flight_threshold_ns': {'thread': 40000, 'irq': None, 'softirq': 40002}, "
		"'lean_flight_adaptive': True}, d['adaptive']\n"
		"assert d['fixed']['lean_flight_threshold_ns'] == {'thread': 200000, 'irq': 200000, 'softirq': 200000}\n"));
}

Test(json_common, a_distribution_has_its_figures_and_its_log2_rows_or_null)
{
	struct histogram *h = calloc(1, sizeof(*h)), *empty = calloc(1, sizeof(*empty));

	cr_assert(h && empty);
	histogram__add(h, 3000);
	histogram__add(h, 3000);
	histogram__add(h, 40000);
	begin_doc();
	json_common__write_distribution(&shared, "runq_wait", h, true);
	json_common__write_distribution(&shared, "none", empty, true);
	json_common__write_distribution(&shared, "untraced", h, false);
	end_doc();
	/* the rows from the first with a count to the last, the empty ones between included */
	cr_assert(json_check(path,
		"r = d['runq_wait']\n"
		"assert list(r) == ['count', 'min_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'p999_ns', 'max_ns', 'mean_ns', "
		"'histogram'], list(r)\n"
		"assert (r['count'], r['min_ns'], r['max_ns'], r['mean_ns']) == (3, 3000, 40000, 15333), r\n"
		"assert r['p50_ns'] <= 3000 and r['p99_ns'] <= 40000 and r['p99_ns'] > 30000, r\n"
		"assert r['histogram'] == [{'low_ns': 2048, 'high_ns': 4095, 'count': 2}, "
		"{'low_ns': 4096, 'high_ns': 8191, 'count': 0}, {'low_ns': 8192, 'high_ns': 16383, 'count': 0}, "
		"{'low_ns': 16384, 'high_ns': 32767, 'count': 0}, {'low_ns': 32768, 'high_ns': 65535, 'count': 1}], r\n"
		"n = d['none']\n"
		"assert n['count'] == 0 and n['histogram'] == [], n\n"
		"assert all(n[k] is None for k in n if k not in ('count', 'histogram')), n\n"
		"assert d['untraced'] is None\n"));
	free(h);
	free(empty);
}

Test(json_common, the_causes_with_time_come_with_their_share_and_time_per_wakeup)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	ct->cause_ns[CAUSE_IDLE] = 3000;
	ct->cause_ns[CAUSE_OTHER_TASK] = 1000;
	ct->explained_total_ns = 4000;
	ct->wakeups = 3;
	begin_doc();
	json_common__write_causes(member("run"), ct, true);
	end_member();
	json_common__write_causes(member("untraced"), ct, false);
	end_member();
	end_doc();
	/* 1000 ns over 3 wakeups: 333 each, in whole nanoseconds */
	cr_assert(json_check(path,
		"c = d['run']['causes']\n"
		"assert [x['cause'] for x in c] == ['idle', 'other_task'], c\n"
		"assert c[0]['ns'] == 3000 and c[0]['share'] == 0.75 and c[0]['per_wakeup_ns'] == 1000, c[0]\n"
		"assert c[1]['per_wakeup_ns'] == 333 and c[1]['meaning'], c[1]\n"
		"assert (d['run']['explained_total_ns'], d['run']['explained_wakeups']) == (4000, 3), d['run']\n"
		"assert d['untraced'] == {'causes': None, 'explained_total_ns': None, 'explained_wakeups': None}\n"));
	free(ct);
}

Test(json_common, each_task_that_held_a_cpu_has_its_share_and_what_the_table_left_out)
{
	struct cause_totals *ct = calloc(1, sizeof(*ct));

	cr_assert_not_null(ct);
	ct->nr_tasks = 1;
	ct->tasks[0].pid = 4242;
	memcpy(ct->tasks[0].comm, "wp-hog\xff-abcdefgh", sizeof(ct->tasks[0].comm));
	ct->tasks[0].ns = 2000;
	ct->untabled_task_ns = 500;
	ct->explained_total_ns = 8000;
	ct->wakeups = 0;
	begin_doc();
	json_common__write_tasks(member("run"), ct, true);
	end_member();
	json_common__write_tasks(member("untraced"), ct, false);
	end_member();
	end_doc();
	/*
	 * a comm as the kernel left it, 16 bytes and no NUL, one not UTF-8 (read
	 * back as \u00ff); no wakeup explained, no time per one
	 */
	cr_assert(json_check(path,
		"t = d['run']['tasks']\n"
		"assert t == [{'pid': 4242, 'comm': 'wp-hog\\xff-abcdefgh', 'ns': 2000, 'share': 0.25, "
		"'per_wakeup_ns': None}], t\n"
		"assert d['run']['untabled_task_ns'] == 500\n"
		"assert d['untraced'] == {'tasks': None, 'untabled_task_ns': None}\n"));
	free(ct);
}

Test(json_common, a_computed_time_is_whole_nanoseconds_and_saturates)
{
	cr_assert_eq(json_common__round_ns(2.5), 3);
	cr_assert_eq(json_common__round_ns(-2.5), -3);
	cr_assert_eq(json_common__round_ns(1e19), INT64_MAX);
	cr_assert_eq(json_common__round_ns(-1e19), INT64_MIN);
}

/* outlier - slow_sample() of samples.h as outlier @rank against 20 plain samples' medians, into @key */
static void outlier(const char *key, const struct sample_result *r, uint32_t rank)
{
	static const int64_t plain[NR_PHASES] = { 500, 1000, 2000, 3000, 800, 400 };
	struct histogram *phase = calloc(NR_PHASES + 1, sizeof(*phase)), *total = &phase[NR_PHASES];

	cr_assert_not_null(phase);
	for (int i = 0; i < 20; i++) {
		for (int k = 0; k < NR_PHASES; k++)
			histogram__add(&phase[k], (uint64_t)plain[k]);
		histogram__add(total, 7700);
	}
	json_writer__key(&shared, key);
	json_writer__begin_object(&shared);
	json_common__write_outlier_members(&shared, phase, total, r, rank);
	json_writer__end_object(&shared);
	free(phase);
}

Test(json_common, an_outlier_has_its_figures_against_the_medians_and_each_phase_split)
{
	struct sample_result r = slow_sample(9), lean = phased_sample(10, (const int64_t[NR_PHASES]){ 1, 1, 1, 1, 1, 1 });

	r.why.migrations = 1;
	r.why.migrated_from = EXPLAIN_CPU_UNKNOWN;
	r.why.migrated_to = 1;
	lean.lean = true;
	begin_doc();
	outlier("slow", &r, 1);
	outlier("lean", &lean, 2);
	end_doc();
	/* runq_wait grew most: 50000 against its median of 3000 (the floor of its bucket) */
	cr_assert(json_check(path,
		"o = d['slow']\n"
		"assert list(o)[:4] == ['rank', 'seq', 'total_ns', 'median_total_ns'], list(o)\n"
		"assert (o['rank'], o['seq'], o['total_ns']) == (1, 9, 57000), o\n"
		"assert abs(o['ratio_to_median'] - 57000 / o['median_total_ns']) < 1e-9, o\n"
		"assert o['grew_most']['phase'] == 'runq_wait' and o['grew_most']['over_median_ns'] >= 47000, o\n"
		"assert (o['waking_cpu'], o['wakeup_cpu'], o['target_cpu'], o['queued_remotely']) == (0, 1, 1, True), o\n"
		"assert o['target_was_idle'] is True and o['idle_exit_ns'] is None and o['mutex_reacquire_ns'] is None\n"
		"rq = o['phases'][3]\n"
		"assert rq['phase'] == 'runq_wait' and rq['ns'] == 50000, rq\n"
		"assert [(p['cause'], p['ns'], p['pid'], p['name']) for p in rq['parts']] == [('other_task', 30000, 42, "
		"'wp-hog'), ('irq', 5000, None, 'eth0')], rq['parts']\n"
		"assert (rq['own_work_ns'], rq['unexplained_ns']) == (2000, 13000), rq\n"
		"assert rq['parts'][1]['irq_kind'] == 'irq' and rq['parts'][1]['nr'] == 24, rq['parts'][1]\n"
		"assert o['migration'] == {'from': None, 'to': 1, 'count': 1}, o['migration']\n"
		"l = d['lean']\n"
		"assert l['target_was_idle'] is None and l['migration'] is None, l\n"
		"assert all(list(p) == ['phase', 'ns'] for p in l['phases']), 'no parts without flight records'\n"));
}
