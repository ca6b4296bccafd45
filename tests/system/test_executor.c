// SPDX-License-Identifier: GPL-2.0
/*
 * executor run by itself (no root, no BPF): every mode's JSON document read
 * back by python3, its counts matching what the runs did (every handler run
 * once, every lock counted, waits only where a queue is shared), its
 * figures in order, the handler's loop not optimised away; bad options one
 * line and exit 2.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"

/*
 * What every result of every mode must hold, with H handlers, loops LS,
 * threads NS and R repeats of mode M: every handler posted and run once per
 * run, one lock per handler plus one per thread, one stop per queue,
 * waits on an empty queue only where threads share it (and at most once
 * per thread that did not finish last), positive figures in order, and
 * rates that say what the times say.
 */
static const char ex_common_checks[] =
	"has(d, 'schema schema_version workload clock machine options results handler_cost rates handlers_run "
	"thread_names')\n"
	"assert d['schema'] == 'wakeprobe-throughput' and d['schema_version'] == 1, d['schema']\n"
	"assert d['workload'] == 'executor' and d['clock'] == 'CLOCK_MONOTONIC'\n"
	"o = d['options']\n"
	"has(o, 'repeat cpus modes handlers loops threads')\n"
	"assert o['repeat'] == R and o['handlers'] == H and o['modes'] == [M], o\n"
	"assert o['loops'] == LS and o['threads'] == NS, o\n"
	"assert len(o['cpus']) >= 1 and len(set(o['cpus'])) == len(o['cpus']), o['cpus']\n"
	"want = [(L, N) for L in LS for N in ([1] if M == 'single' else NS)]\n"
	"assert [(r['loops'], r['threads']) for r in d['results']] == want, d['results']\n"
	"for r in d['results']:\n"
	"    has(r, 'mode handlers threads loops start runs seconds ns_per_handler counts')\n"
	"    assert r['mode'] == M and r['handlers'] == H and r['runs'] == R and r['start'] == 'go', r\n"
	"    N, c = r['threads'], r['counts']\n"
	"    queues = N if M == 'per-thread' else 1\n"
	"    assert c['posted'] == c['run'] == H * R, c\n"
	"    assert c['threads_joined'] == N * R and c['queues'] == queues * R, c\n"
	"    assert c['locks'] == (H + N) * R, c\n"
	"    assert c['broadcasts'] == queues * R, c\n"
	"    assert c['cond_wakeups'] == c['empty_waits'] <= (N - 1) * R, c\n"
	"    assert 0 <= c['locks_contended'] <= c['locks'], c\n"
	"    assert 0 < c['cpu_ns'], c\n"
	"    if M != 'pool':\n"
	"        assert c['empty_waits'] == c['signals'] == c['locks_contended'] == 0, c\n"
	"    for key in ('seconds', 'ns_per_handler'):\n"
	"        s = r[key]\n"
	"        has(s, 'mean sd min median max')\n"
	"        assert s['min'] > 0 and s['sd'] >= 0, (key, s)\n"
	"        assert s['min'] <= s['median'] <= s['max'], (key, s)\n"
	"        assert s['min'] <= s['mean'] <= s['max'], (key, s)\n"
	"    ratio = r['ns_per_handler']['mean'] * H / (r['seconds']['mean'] * 1e9)\n"
	"    assert abs(ratio - 1) < 1e-9, ratio\n"
	"assert len(d['rates']) == len(d['results']), d['rates']\n"
	"for r, q in zip(d['results'], d['rates']):\n"
	"    c = r['counts']\n"
	"    assert (q['mode'], q['threads'], q['loops']) == (M, r['threads'], r['loops']), q\n"
	"    h = q['handlers_per_second']\n"
	"    assert 0 < h['min'] <= h['median'] <= h['max'], h\n"
	"    assert abs(h['median'] * r['seconds']['median'] / H - 1) < 1e-9, (h, r['seconds'])\n"
	"    assert abs(q['cpus'] * r['seconds']['mean'] * 1e9 * R - c['cpu_ns']) < 1e-6 * c['cpu_ns'], q\n"
	"    assert abs(q['cpu_ns_per_handler'] * H * R - c['cpu_ns']) < 1e-6 * c['cpu_ns'], q\n"
	"    if M == 'single':\n"
	"        assert q['ratio_to_single'] == 1.0, q\n"
	"    else:\n"
	"        assert q['ratio_to_single'] is None, q\n"
	"assert [x['loops'] for x in d['handler_cost']] == LS, d['handler_cost']\n"
	"for x in d['handler_cost']:\n"
	"    has(x, 'loops ns_per_handler ns_per_loop calls rounds cpu')\n"
	"    assert x['ns_per_handler'] > 0 and x['calls'] > 0 and x['rounds'] == 5, x\n"
	"    assert x['cpu'] == o['cpus'][0], x\n"
	"    if x['loops'] == 0:\n"
	"        assert x['ns_per_loop'] is None, x\n"
	"    else:\n"
	"        assert x['ns_per_loop'] >= 0.05, x\n"
	"assert d['handlers_run'] == {M: H * R * len(d['results'])}, d['handlers_run']\n"
	"assert d['thread_names'] == {'single': 'ex-single', 'pool': 'ex-pool-I', 'per-thread': 'ex-pt-I'}\n";

struct mode_case {
	char mode[12];
};

static struct mode_case mode_cases[] = { { "single" }, { "pool" }, { "per-thread" } };

ParameterizedTestParameters(executor, each_mode_runs_every_handler_once_and_says_so_in_json)
{
	return cr_make_param_array(struct mode_case, mode_cases, sizeof(mode_cases) / sizeof(mode_cases[0]));
}

ParameterizedTest(struct mode_case *c, executor, each_mode_runs_every_handler_once_and_says_so_in_json)
{
	/* 1001 handlers over 3 queues: per-thread's shares differ by one, and still add up */
	const char *args[] = { "--mode", c->mode, "--handlers", "1001", "--loops", "0,200", "--threads", "1,3",
			       "--repeat", "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("executor", &o, args), 0, "%s: stderr: %s", c->mode, o.err);
	cr_assert_eq(o.err[0], '\0', "%s: stderr: %s", c->mode, o.err);
	cr_assert(workload_json_check(&o, "H, LS, NS, R, M = 1001, [0, 200], [1, 3], 3, '%s'\n%s", c->mode,
				      ex_common_checks), "%s:\n%s", c->mode, o.out);
}

Test(executor, ratios_are_to_single_at_the_same_loops)
{
	const char *args[] = { "--mode", "single,per-thread", "--handlers", "500", "--loops", "0,100", "--threads",
			       "2", "--repeat", "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "single = {r['loops']: r['seconds']['median'] for r in d['results'] "
					  "if r['mode'] == 'single'}\n"
					  "assert sorted(single) == [0, 100], single\n"
					  "assert len(d['rates']) == 4, d['rates']\n"
					  "for r, q in zip(d['results'], d['rates']):\n"
					  "    want = single[r['loops']] / r['seconds']['median']\n"
					  "    assert abs(q['ratio_to_single'] - want) < 1e-9 * want, (q, want)\n"
					  "assert d['handlers_run'] == {'single': 3000, 'per-thread': 3000}, "
					  "d['handlers_run']\n"),
		  "%s", o.out);
}

Test(executor, the_handler_loop_is_kept_its_cost_grows_with_the_loops_and_bounds_the_drain)
{
	/*
	 * An optimised-away loop costs the same at any L. Five times the loops
	 * must cost well over twice as much, and a drain of handlers by one
	 * thread cannot beat running them (half the calibration: room for a
	 * calibration slowed by a busy machine).
	 */
	const char *args[] = { "--mode", "single", "--handlers", "2000", "--loops", "1000,5000", "--repeat", "3",
			       "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "a, b = d['handler_cost']\n"
					  "assert (a['loops'], b['loops']) == (1000, 5000), (a, b)\n"
					  "assert b['ns_per_handler'] > 2.5 * a['ns_per_handler'], (a, b)\n"
					  "for r, x in zip(d['results'], d['handler_cost']):\n"
					  "    assert r['ns_per_handler']['median'] >= 0.5 * x['ns_per_handler'], "
					  "(r, x)\n"),
		  "%s", o.out);
}

Test(executor, the_table_has_one_row_per_mode_threads_and_loops)
{
	const char *args[] = { "--handlers", "300", "--loops", "0,10", "--threads", "1,2", "--repeat", "2",
			       "--cpus", "0", NULL };
	static const char *const rows[] = {
		"single               300       1       0 go ", "pool                 300       1       0 go ",
		"pool                 300       2       0 go ", "per-thread           300       1       0 go ",
		"per-thread           300       2       0 go ", "single               300       1      10 go ",
		"pool                 300       1      10 go ", "pool                 300       2      10 go ",
		"per-thread           300       1      10 go ", "per-thread           300       2      10 go ",
	};
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	cr_assert(strstr(o.out, "pinned in turn to CPU 0 (1 of "), "%s", o.out);
	cr_assert(strstr(o.out, "one handler of 0 loops: "), "%s", o.out);
	cr_assert(strstr(o.out, "one handler of 10 loops: "), "%s", o.out);
	cr_assert(strstr(o.out, "mode                   H threads   loops start        mean s ns/handler"), "%s",
		  o.out);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		cr_assert(strstr(o.out, rows[i]), "no row '%s' in:\n%s", rows[i], o.out);
	cr_assert(strstr(o.out, " x1.00, "), "%s", o.out);
	cr_assert(strstr(o.out, " CPU ns/h, 0.0 empty waits, 0.0 contended\n"), "%s", o.out);
	/* a heading line, one per L, two more, a blank one, the column names, then the rows */
	cr_assert_eq(text_count_lines(o.out), 7 + (int)(sizeof(rows) / sizeof(rows[0])), "%s", o.out);
}

Test(executor, the_default_threads_reach_four_times_the_cpus)
{
	const char *args[] = { "--mode", "pool", "--handlers", "64", "--loops", "0", "--repeat", "1", "--json",
			       NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "n = len(d['options']['cpus'])\n"
					  "want = [1 << i for i in range(12) if 1 << i <= 4 * n]\n"
					  "assert d['options']['threads'] == want, (n, d['options']['threads'])\n"
					  "assert [r['threads'] for r in d['results']] == want, d['results']\n"),
		  "%s", o.out);
}

Test(executor, help_names_every_mode_and_shows_examples)
{
	const char *args[] = { "--help", NULL };
	static const char *const words[] = { "single", "pool", "per-thread", "--handlers", "--loops", "--threads",
					     "--repeat", "--cpus", "--json", "Examples:", "The defaults take" };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		cr_assert(strstr(o.out, words[i]), "no '%s' in --help:\n%s", words[i], o.out);
}

struct bad_case {
	char args[5][24];
	char message[64];	/* what the one line must say */
};

static struct bad_case bad_cases[] = {
	{ { "--mode", "bogus" }, "--mode wants single, pool, per-thread or all" },
	{ { "--mode", "pool," }, "--mode wants" },
	{ { "--handlers", "0" }, "--handlers wants a whole number from 1 to 10000000" },
	{ { "--handlers", "1e6" }, "not '1e6'" },
	{ { "--loops", "1,,2" }, "--loops wants up to 12 whole numbers from 0" },
	{ { "--loops", "-1" }, "not '-1'" },
	{ { "--threads", "0" }, "--threads wants up to 12 whole numbers from 1 to 1024" },
	{ { "--threads", "2000" }, "--threads wants" },
	{ { "--threads", "4", "--handlers", "3" }, "--threads 4 is more than --handlers 3" },
	{ { "--repeat", "0" }, "--repeat wants a whole number from 1" },
	{ { "--cpus", "0,0" }, "--cpus wants up to 256 different CPUs" },
	{ { "--cpus", "99999" }, "--cpus wants" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--loops" }, "--loops needs a value" },
	{ { "stray" }, "unexpected argument 'stray'" },
};

ParameterizedTestParameters(executor, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	return cr_make_param_array(struct bad_case, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, executor, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	const char *args[6] = { NULL };
	struct workload_outcome o;
	int i;

	for (i = 0; i < 5 && c->args[i][0]; i++)
		args[i] = c->args[i];
	cr_assert_eq(workload_run("executor", &o, args), 2, "%s: stderr: %s", c->args[0], o.err);
	cr_assert_eq(text_count_lines(o.err), 1, "%s: stderr: %s", c->args[0], o.err);
	cr_assert(strstr(o.err, c->message), "%s: '%s' lacks '%s'", c->args[0], o.err, c->message);
	cr_assert(strstr(o.err, "(see --help)"), "%s: %s", c->args[0], o.err);
	cr_assert_eq(o.out[0], '\0', "%s: stdout: %s", c->args[0], o.out);
}

Test(executor, a_pool_of_one_thread_never_waits_and_more_threads_than_handlers_still_drain)
{
	/*
	 * Pool threads beyond the handlers find the queue empty and wait for
	 * the stop, or find it stopped already: either way joined, and no more
	 * than one wait each for those that did not run the last handler.
	 */
	const char *args[] = { "--mode", "pool", "--handlers", "2", "--loops", "0", "--threads", "1,6", "--repeat",
			       "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("executor", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "one, six = d['results']\n"
					  "assert one['counts']['empty_waits'] == 0, one['counts']\n"
					  "c = six['counts']\n"
					  "assert c['threads_joined'] == 18 and c['run'] == 6, c\n"
					  "assert c['cond_wakeups'] == c['empty_waits'] <= 15, c\n"
					  "assert c['broadcasts'] == 3 and c['locks'] == 3 * (2 + 6), c\n"),
		  "%s", o.out);
}
