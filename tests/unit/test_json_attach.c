// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_attach.c - attach mode's JSON document, from a small run of the
 * engine over synthetic records (attach_fixture.h): read back by python3's json
 * module, strictly, and every figure held to what the run was made of.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "attach_fixture.h"
#include "json_attach.h"
#include "readback.h"

static struct attach_fixture run;
static char path[64];

static void setup(void)
{
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	path[0] = '\0';
}

static void teardown(void)
{
	attach_fixture__free(&run);
	if (path[0])
		unlink(path);
}

TestSuite(attach_json, .init = setup, .fini = teardown);

/* write - the document of the run's report, into a new temporary file */
static void write_document(void)
{
	FILE *f = temp_output("attach-json", path);

	cr_assert_eq(json_attach__print(f, &run.report), 0);
	cr_assert_eq(fclose(f), 0);
}

/* every distribution of the document: the run's, and each pair's two */
static const char every_distribution[] =
	"dists = list(d['stats'].items())\n"
	"for p in d['pairs']:\n"
	"    dists += [('pair wake_to_run', p['wake_to_run']), ('pair notify_to_return', p['notify_to_return'])]\n";

Test(attach_json, the_document_says_it_is_attach_mode_and_has_every_key_docs_json_md_promises)
{
	write_document();
	cr_assert(json_check(path,
			     "has(d, 'schema schema_version kind meta targets options trace ended events threads migrations "
			"explained_cut wakeups stats absent sub_phases pairs pairs_untabled pairs_replaced "
			"pairs_capacity futexes futexes_untabled futexes_replaced futexes_capacity "
			"causes explained_total_ns tasks untabled_task_ns outliers')\n"
			"assert (d['schema'], d['schema_version'], d['kind']) == ('wakeprobe-attach-report', 2, 'attach')\n"
			"has(d['meta'], 'wakeprobe_version kernel machine hostname nr_cpus started_unix_ns')\n"
			"has(d['targets'], 'pids command tids')\n"
			"has(d['options'], 'duration_ns timeout_ns ringbuf_bytes pairs outliers outlier_threshold_ns')\n"
			"has(d['trace'], 'start_ns end_ns duration_ns')\n"
			"has(d['ended'], 'interrupted timed_out duration_reached command_exited targets_exited')\n"
			"has(d['events'], 'recorded dropped dropped_by_type tracked_full missed_runs late evicted "
			"unpaired_wakers stray_wakeups cpu_out_of_range')\n"
			"has(d['threads'], 'peak new exited forgotten')\n"
			"has(d['migrations'], 'all inside_wakeups')\n"
			"has(d['wakeups'], 'total tids_left_out by_class complete not_in_table by_label missing_by_mark "
			"complete_by_family')\n"
			"assert list(d['wakeups']['by_class']) == ['none', 'syscall', 'tracked', 'process', 'kthread', "
			"'irq', 'softirq', 'timer'], d['wakeups']['by_class']\n"
			"assert list(d['stats']) == ['notify_user', 'notify_kernel', 'wake_enqueue', 'runq_wait', "
			"'resume_kernel', 'resume_user', 'wake_to_run', 'notify_to_return', 'idle_exit', 'total']\n"
			"assert list(d['absent']) == list(d['stats'])[:6]\n"
			"for why in d['absent'].values():\n"
			"    assert list(why) == ['present', 'no_user_stamp', 'waker_no_syscall', 'waker_untracked', "
			"'waker_interrupt', 'entry_unseen', 'no_wait_syscall', 'slept_again', 'labelled', 'untimed'], why\n"
			"has(d['sub_phases'], 'target_idle remote_wakeups')\n"
			"%s"
			"for name, s in dists:\n"
			"    has(s, 'count min_ns p50_ns p90_ns p99_ns p999_ns max_ns mean_ns histogram')\n"
			"    hist_ok(name, s)\n"
			"for p in d['pairs']:\n"
			"    has(p, 'waker wakee mechanism family count wake_to_run notify_to_return')\n"
			"    has(p['waker'], 'class name id tid tgid')\n"
			"    has(p['wakee'], 'tid tgid comm')\n"
			"for f in d['futexes']:\n"
			"    has(f, 'tgid addr waits wakes waits_timed wait_total_ns wait_max_ns tids tids_untabled')\n"
			"has(d['outliers'], 'wanted threshold_ns candidates samples')\n"
			"for o in d['outliers']['samples']:\n"
			"    has(o, 'rank seq total_ns median_total_ns ratio_to_median grew_most waking_cpu wakeup_cpu "
			"target_cpu queued_remotely target_was_idle idle_exit_ns phases more_intervals migration "
			"mutex_reacquire_ns t_ns waker wakee mechanism family absent')\n"
			"    assert list(o['absent']) == list(d['absent']), o['absent']\n",
			every_distribution));
}

Test(attach_json, the_run_its_targets_and_the_engines_counters_are_written_as_numbers)
{
	const struct attach_counters *c = run.report.counters;

	/* what the --pid target had forked before the attach, traced with it */
	run.run.descendants = 2;

	write_document();
	cr_assert(json_check(path,
			     "assert d['meta'] == {'wakeprobe_version': '9.9.9', 'kernel': '6.1.0-test', 'machine': 'x86_64', "
			"'hostname': 'testhost', 'nr_cpus': 2, 'started_unix_ns': 1700000000123456789}, d['meta']\n"
			"assert d['targets'] == {'pids': [%u], 'descendants': 2, 'command': None, 'tids': [], 'all': False, "
			"'cgroups': None}, d['targets']\n"
			"assert d['options'] == {'duration_ns': 2000000000, 'timeout_ns': None, 'ringbuf_bytes': 1048576, "
			"'pairs': 10, 'order': 'count', 'lean': False, 'syscall_phases': False, 'softirqs': True, 'chains': False, "
			"'outliers': %d, 'outlier_threshold_ns': 0}, d['options']\n"
			"assert d['trace'] == {'start_ns': %llu, 'end_ns': %llu, 'duration_ns': %llu}, d['trace']\n"
			"assert d['ended'] == {'interrupted': False, 'interrupted_by': None, 'timed_out': False, 'duration_reached': True, "
			"'command_exited': False, 'targets_exited': 0}, d['ended']\n"
			"e = d['events']\n"
			"assert (e['recorded'], e['dropped'], e['missed_runs'], e['late'], e['evicted']) == "
			"(%llu, 0, 3, 0, 0), e\n"
			"assert set(e['dropped_by_type'].values()) == {0}, e\n"
			"assert d['threads'] == {'peak': %llu, 'new': %llu, 'exited': %llu, 'forgotten': 0}, d['threads']\n"
			"w = d['wakeups']\n"
			"assert (w['total'], w['complete'], w['not_in_table'], w['tids_left_out']) == (%d, %d, 1, None), w\n"
			"assert w['by_class'] == {'none': 1, 'syscall': 5, 'tracked': 0, 'process': 0, 'kthread': 0, "
			"'irq': 0, 'softirq': 0, 'timer': 1}, w['by_class']\n"
			"assert {k: v for k, v in w['by_label'].items() if v} == {'complete': 6, 'missing_event': 1}, w\n"
			"assert sum(w['missing_by_mark'].values()) == 1, w\n"
			"assert {k: v for k, v in w['complete_by_family'].items() if v} == "
			"{'eventfd': 3, 'futex': 2, 'timer': 1}, w\n",
			RUN_PROC, RUN_OUTLIERS, (unsigned long long)RUN_T0 - 5000,
			(unsigned long long)run.run.trace_end_ns, (unsigned long long)(run.run.trace_end_ns - RUN_T0 + 5000),
			(unsigned long long)c->events, (unsigned long long)c->threads_peak,
			(unsigned long long)c->new_threads, (unsigned long long)c->exited_threads, RUN_WAKEUPS,
			RUN_COMPLETE));
}

Test(attach_json, a_command_its_exit_and_the_tids_asked_for_are_written)
{
	char *argv[] = { "/bin/sh", "-c", "exit 3", NULL };
	int32_t tids[] = { RUN_WAKEE };

	run.targets.pids = NULL;
	run.targets.nr_pids = 0;
	run.targets.argv = argv;
	run.run.command_pid = 4242;
	run.run.command_status = 3 << 8;	/* what waitpid() gives for exit(3) */
	cr_assert(WIFEXITED(run.run.command_status) && WEXITSTATUS(run.run.command_status) == 3);
	snprintf(run.run.command_exit, sizeof(run.run.command_exit), "exited with status 3");
	run.run.command_exited = true;
	run.report.tids = tids;
	run.report.nr_tids = 1;
	run.report.tids_left_out = 11;
	write_document();
	cr_assert(json_check(path, "assert d['targets'] == {'pids': [], 'descendants': 0, 'command': {'argv': ['/bin/sh', '-c', 'exit 3'], "
			"'pid': 4242, 'exit_code': 3, 'signal': None, 'exit': 'exited with status 3', 'others_stopped': 0}, "
			"'tids': [%u], 'all': False, 'cgroups': None}, d['targets']\n"
			"assert d['ended']['command_exited'] is True\n"
			"assert d['wakeups']['tids_left_out'] == 11\n",
			RUN_WAKEE));
}

Test(attach_json, every_pair_comes_in_count_order_with_who_woke_whom_and_its_two_distributions)
{
	const struct attach_pair *p[ATTACH_AGG_MAX_PAIRS];
	size_t n = attach_aggregate__pairs(run.agg, ATTACH_ORDER_COUNT, p, ATTACH_AGG_MAX_PAIRS);

	cr_assert_eq(n, 3);
	write_document();
	cr_assert(json_check(path, "assert len(d['pairs']) == 3 and d['pairs_untabled'] == 0, d['pairs']\n"
			"assert (d['pairs_replaced'], d['pairs_capacity']) == (0, %d)\n"
			"assert [p['error'] for p in d['pairs']] == [0, 0, 0], 'every pair has a row: exact counts'\n"
			"efd, ftx, tmr = d['pairs']\n"
			"assert efd['waker'] == {'class': 'syscall', 'name': 'thread producer %u', 'id': %u, 'tid': %u, "
			"'tgid': %u, 'raised_by_task': False}, efd['waker']\n"
			"assert efd['wakee'] == {'tid': %u, 'tgid': %u, 'comm': 'con,\"sumer'}, efd['wakee']\n"
			"assert (efd['mechanism'], efd['family'], efd['count']) == ('eventfd write -> read', 'eventfd', 3)\n"
			"s = efd['wake_to_run']\n"
			"assert (s['count'], s['min_ns'], s['p50_ns'], s['max_ns']) == (3, 4000, %llu, 34000), s\n"
			"s = efd['notify_to_return']\n"
			"assert (s['count'], s['min_ns'], s['max_ns'], s['mean_ns']) == (3, 6000, 36000, 16667), s\n"
			"assert ftx['mechanism'].startswith('futex 0x7f0042a0 wake'), ftx['mechanism']\n"
			"assert (ftx['family'], ftx['count'], ftx['wake_to_run']['max_ns']) == ('futex', 2, 4000), ftx\n"
			"assert tmr['waker'] == {'class': 'timer', 'name': 'timer', 'id': 0, 'tid': None, 'tgid': None, "
			"'raised_by_task': False}\n"
			"assert (tmr['family'], tmr['count']) == ('timer', 1), tmr\n"
			"assert tmr['notify_to_return']['count'] == 0 and tmr['notify_to_return']['p50_ns'] is None\n"
			"assert tmr['notify_to_return']['histogram'] == []\n",
			ATTACH_AGG_MAX_PAIRS, RUN_WAKER, RUN_WAKER, RUN_WAKER, RUN_PROC, RUN_WAKEE, RUN_PROC,
			(unsigned long long)histogram__percentile(&p[0]->wake_to_run, 50)));
}

Test(attach_json, with_order_cost_the_pairs_come_by_their_summed_wake_to_run)
{
	run.report.order = ATTACH_ORDER_COST;
	write_document();
	cr_assert(json_check(path, "assert d['options']['order'] == 'cost', d['options']\n"
			"cost = [p['wake_to_run']['mean_ns'] * p['wake_to_run']['count'] for p in d['pairs']]\n"
			"assert len(cost) == 3 and cost == sorted(cost, reverse=True), cost\n"));
}

Test(attach_json, each_phase_has_its_distribution_and_why_it_was_absent_where_it_was)
{
	write_document();
	cr_assert(json_check(path, "s = d['stats']\n"
			"def figures(name):\n"
			"    x = s[name]\n"
			"    return (x['count'], x['min_ns'], x['max_ns'])\n"
			"assert figures('notify_user') == (0, None, None)\n"
			"assert figures('notify_kernel') == (5, 1000, 1000)\n"
			"assert figures('wake_enqueue') == (6, 1000, 1000)\n"
			"assert figures('runq_wait') == (6, 3000, 33000)\n"
			"assert figures('resume_kernel') == (6, 1000, 1000)\n"
			"assert figures('wake_to_run') == (6, 4000, 34000)\n"
			"assert figures('notify_to_return') == (5, 6000, 36000)\n"
			"assert figures('idle_exit') == (6, 1500, 1500)\n"
			"assert figures('total') == (6, 5000, 36000)\n"
			"assert s['runq_wait']['mean_ns'] == 3000 + (2000 + 30000) // 6, s['runq_wait']\n"
			"a = d['absent']\n"
			"nonzero = lambda k: {why: n for why, n in a[k].items() if n}\n"
			"assert nonzero('notify_user') == {'no_user_stamp': 6}, a\n"
			"assert nonzero('notify_kernel') == {'present': 5, 'waker_interrupt': 1}, a\n"
			"assert nonzero('runq_wait') == {'present': 6}, a\n"
			"assert d['sub_phases'] == {'target_idle': 6, 'remote_wakeups': 6}, d['sub_phases']\n"));
}

Test(attach_json, every_futex_word_is_written_with_its_waits_wakes_and_threads)
{
	write_document();
	cr_assert(json_check(path,
			     "assert d['futexes'] == [{'tgid': %u, 'addr': %llu, 'count': 4, 'error': 0, 'waits': 2, "
			"'wakes': 2, 'waits_timed': 2, 'wait_total_ns': 15000, 'wait_max_ns': 7500, 'tids': [%u, %u], "
			"'tids_untabled': 0, 'tgids': [%u], 'tgids_untabled': False, 'shared': None}], d['futexes']\n"
			"assert (d['futexes_untabled'], d['futexes_replaced'], d['futexes_capacity']) == (0, 0, %d)\n",
			RUN_PROC, (unsigned long long)RUN_FUTEX, RUN_WAKEE, RUN_WAKER, RUN_PROC, ATTACH_AGG_MAX_FUTEXES));
}

/*
 * 300 more wakeups, each of a pair and a word of its own: more pairs and
 * words than rows. The document's sums hold every complete wakeup, and
 * every futex wait and wake, once: in a row's count - error or in what the
 * replaced ones saw.
 */
Test(attach_json, once_rows_changed_hands_each_row_has_its_error_and_every_wakeup_is_accounted_for)
{
	struct attach_result r;

	for (uint32_t i = 0; i < 300; i++) {
		r = attach_fixture__one_off(10000 + i, 0x10000000ull + 8 * i);
		attach_aggregate__add(run.agg, &r);
	}
	write_document();
	cr_assert(json_check(path, "ps, complete = d['pairs'], d['wakeups']['complete']\n"
			"assert complete == %d + 300, complete\n"
			"assert len(ps) == d['pairs_capacity'] == %d, len(ps)\n"
			"assert d['pairs_replaced'] == 3 + 300 - %d, d['pairs_replaced']\n"
			"assert sum(p['count'] - p['error'] for p in ps) + d['pairs_untabled'] == complete\n"
			"assert sum(p['count'] for p in ps) == complete\n"
			"assert all(p['wake_to_run']['count'] == p['count'] - p['error'] for p in ps), ps\n"
			"assert any(p['error'] for p in ps) and d['pairs_untabled'] > 0\n"
			"fs = d['futexes']\n"
			"assert len(fs) == d['futexes_capacity'] == %d, len(fs)\n"
			"assert d['futexes_replaced'] == 1 + 300 - %d, d['futexes_replaced']\n"
			"assert sum(f['waits'] + f['wakes'] for f in fs) + d['futexes_untabled'] == 4 + 2 * 300\n"
			"assert all(f['count'] - f['error'] == f['waits'] + f['wakes'] for f in fs), fs\n"
			"assert fs[0]['addr'] == %llu and fs[0]['error'] == 0, 'the busiest word kept its row'\n",
			RUN_COMPLETE, ATTACH_AGG_MAX_PAIRS, ATTACH_AGG_MAX_PAIRS, ATTACH_AGG_MAX_FUTEXES,
			ATTACH_AGG_MAX_FUTEXES, (unsigned long long)RUN_FUTEX));
}

Test(attach_json, the_causes_add_up_and_the_slowest_wakeups_come_with_their_explanation)
{
	write_document();
	cr_assert(json_check(path, "totals = 6000 + 8000 + 36000 + 6000 + 6000 + 5000\n"
			"assert d['explained_total_ns'] == totals, d['explained_total_ns']\n"
			"assert sum(c['ns'] for c in d['causes']) == totals, d['causes']\n"
			"assert abs(sum(c['share'] for c in d['causes']) - 1) < 1e-9, d['causes']\n"
			"o = d['outliers']\n"
			"assert (o['wanted'], o['threshold_ns'], o['candidates']) == (%d, 0, 6), o\n"
			"first, second = o['samples']\n"
			"assert (first['rank'], first['seq'], first['total_ns']) == (1, 3, 36000), first\n"
			"assert (second['rank'], second['seq'], second['total_ns']) == (2, 2, 8000), second\n"
			"assert first['t_ns'] == %llu, first['t_ns']\n"
			"assert first['grew_most']['phase'] == 'runq_wait', first['grew_most']\n"
			"assert (first['waking_cpu'], first['target_cpu'], first['queued_remotely']) == (0, 1, True)\n"
			"assert first['idle_exit_ns'] == 1500 and first['mutex_reacquire_ns'] is None\n"
			"assert first['mechanism'] == 'eventfd write -> read' and first['waker']['class'] == 'syscall'\n"
			"assert first['wakee']['comm'] == 'con,\"sumer'\n"
			"assert first['absent']['notify_user'] == 'no_user_stamp' and first['absent']['runq_wait'] == "
			"'present'\n"
			"ph = {p['phase']: p for p in first['phases']}\n"
			"assert ph['runq_wait']['ns'] == 33000, ph['runq_wait']\n"
			"for p in first['phases']:\n"
			"    assert sum(x['ns'] for x in p['parts']) + p['own_work_ns'] + p['unexplained_ns'] == p['ns'], p\n",
			RUN_OUTLIERS, (unsigned long long)(RUN_T0 + 2 * RUN_STEP + 1000)));
}

Test(attach_json, a_stream_that_fails_to_write_is_an_error)
{
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		cr_skip_test("no /dev/full here");
	cr_assert_eq(json_attach__print(full, &run.report), -EIO);
	fclose(full);
}
