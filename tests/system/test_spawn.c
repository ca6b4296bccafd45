// SPDX-License-Identifier: GPL-2.0
/*
 * spawn run by itself (no root, no BPF): every mode's JSON document read
 * back by python3, its counts matching what the run did (threads created,
 * joined and run once each, coroutines queued and run once each, switches
 * handed off in turn) and its figures positive and in order; bad options
 * one line and exit 2.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"

/*
 * sp_stderr_clean - nothing on stderr but, in a sanitized build, ASan's
 * one warning that it does not follow swapcontext() fully: the coroutine
 * modes call it by design.
 */
static bool sp_stderr_clean(const char *err)
{
	const char *sanitized = getenv("WAKEPROBE_SANITIZED");
	const char *line = err, *end;

	if (!sanitized || strcmp(sanitized, "1"))
		return !*err;
	for (; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			return false;
		if (!strstr(line, "WARNING: ASan doesn't fully support makecontext/swapcontext") || end == line)
			return false;
	}
	return true;
}

/*
 * What every document must hold, with counts NS, S switches, R repeats and
 * mode M: its options, one result per n (or one for a switch mode), every
 * figure positive and in order, and the totals a tracer divides by.
 */
static const char sp_common_checks[] =
	"has(d, 'schema schema_version workload clock machine options results stack_bytes totals threads')\n"
	"assert d['schema'] == 'wakeprobe-throughput' and d['schema_version'] == 1, d['schema']\n"
	"assert d['workload'] == 'spawn' and d['clock'] == 'CLOCK_MONOTONIC'\n"
	"o = d['options']\n"
	"has(o, 'repeat cpus modes counts switches placement glibc_tunables')\n"
	"assert o['repeat'] == R and o['counts'] == NS and o['modes'] == [M] and o['switches'] == S, o\n"
	"assert o['cpus']['creator'] != o['cpus']['other'], o['cpus']\n"
	"assert d['threads'] == {'creator': 'sp-creator', 'created': 'sp-thread', 'partner': 'sp-partner'}\n"
	"switch = M.startswith('switch-')\n"
	"size, per = ('switches', 'ns_per_switch') if switch else ('count', 'ns_per_create')\n"
	"assert [r[size] for r in d['results']] == ([S] if switch else NS), d['results']\n"
	"for r in d['results']:\n"
	"    has(r, 'mode start runs seconds counts ' + size + ' ' + per)\n"
	"    assert r['mode'] == M and r['runs'] == R, r\n"
	"    assert r['start'] == ('ready' if switch else 'seed'), r\n"
	"    for key in ('seconds', per):\n"
	"        s = r[key]\n"
	"        has(s, 'mean sd min median max')\n"
	"        assert s['min'] > 0 and s['sd'] >= 0, (key, s)\n"
	"        assert s['min'] <= s['median'] <= s['max'], (key, s)\n"
	"        assert s['min'] <= s['mean'] <= s['max'], (key, s)\n"
	"    ratio = r[per]['mean'] * r[size] / (r['seconds']['mean'] * 1e9)\n"
	"    assert abs(ratio - 1) < 1e-9, ratio\n"
	"unit = {'thread-32k': 'thread', 'thread-default': 'thread', 'coroutine': 'coroutine'}.get(M, 'switch')\n"
	"done = R * S if switch else R * sum(NS)\n"
	"assert d['totals'] == {M: {'unit': unit, 'count': done}}, d['totals']\n";

struct mode_case {
	char mode[20];
	/* python: what this mode's counts and figures say besides the common checks */
	char checks[720];
};

static struct mode_case mode_cases[] = {
	{ "thread-32k", "assert d['stack_bytes'] == {M: 32768}, d['stack_bytes']\n"
			"for r in d['results']:\n"
			"    c, n = r['counts'], r['count']\n"
			"    assert c['created'] == c['joined'] == c['first_runs'] == n * R, c\n"
			"    assert 0 <= c['ran_before_create_returned'] <= n * R, c\n"
			"    f = r['first_run_ns']\n"
			"    has(f, 'threads mean sd min median p90 p99 max')\n"
			"    assert f['threads'] == n * R, f\n"
			"    assert 0 <= f['min'] <= f['median'] <= f['p90'] <= f['p99'] <= f['max'], f\n"
			"    assert f['max'] > 0, f\n" },
	{ "thread-default", "assert d['stack_bytes'][M] > 32768, d['stack_bytes']\n"
			    "for r in d['results']:\n"
			    "    c, n = r['counts'], r['count']\n"
			    "    assert c['created'] == c['joined'] == c['first_runs'] == n * R, c\n"
			    "    f = r['first_run_ns']\n"
			    "    assert f['threads'] == n * R, f\n"
			    "    assert 0 <= f['min'] <= f['median'] <= f['p99'] <= f['max'], f\n" },
	{ "coroutine", "assert d['stack_bytes'] == {M: 32768}, d['stack_bytes']\n"
		       "for r in d['results']:\n"
		       "    c, n = r['counts'], r['count']\n"
		       "    assert c == {'created': n * R, 'queued': n * R, 'ran_after': n * R}, c\n"
		       "    assert 'first_run_ns' not in r, r\n" },
	{ "switch-coroutine", "for r in d['results']:\n"
			      "    assert r['counts'] == {'switches': S * R}, r['counts']\n"
			      "    assert 'first_run_ns' not in r, r\n" },
	{ "switch-thread", "assert d['stack_bytes'] == {}, d['stack_bytes']\n"
			   "for r in d['results']:\n"
			   "    c = r['counts']\n"
			   "    assert c['switches'] == c['futex_wakes'] == S * R, c\n"
			   "    assert 0 < c['futex_woken'] <= c['futex_wakes'], c\n"
			   "    assert 0 < c['futex_waits'] <= S * R and c['futex_wait_again'] <= S * R, c\n" },
	{ "switch-cross-cpu", "for r in d['results']:\n"
			      "    c = r['counts']\n"
			      "    assert c['switches'] == c['futex_wakes'] == S * R, c\n"
			      "    assert 0 < c['futex_woken'] <= c['futex_wakes'], c\n"
			      "    assert 0 < c['futex_waits'] <= S * R, c\n" },
};

ParameterizedTestParameters(spawn, each_mode_does_what_it_counts_and_says_so_in_json)
{
	return cr_make_param_array(struct mode_case, mode_cases, sizeof(mode_cases) / sizeof(mode_cases[0]));
}

ParameterizedTest(struct mode_case *c, spawn, each_mode_does_what_it_counts_and_says_so_in_json)
{
	const char *args[] = { "--mode", c->mode, "--count", "1,7,40", "--switches", "200", "--repeat", "3",
			       "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("spawn", &o, args), 0, "%s: stderr: %s", c->mode, o.err);
	cr_assert(sp_stderr_clean(o.err), "%s: stderr: %s", c->mode, o.err);
	cr_assert(workload_json_check(&o, "NS, S, R, M = [1, 7, 40], 200, 3, '%s'\n%s%s", c->mode, sp_common_checks,
				      c->checks), "%s:\n%s", c->mode, o.out);
}

struct placement_case {
	char placement[8];
};

static struct placement_case placement_cases[] = { { "spread" }, { "same" }, { "other" } };

ParameterizedTestParameters(spawn, every_placement_creates_runs_and_joins_every_thread)
{
	return cr_make_param_array(struct placement_case, placement_cases,
				   sizeof(placement_cases) / sizeof(placement_cases[0]));
}

ParameterizedTest(struct placement_case *c, spawn, every_placement_creates_runs_and_joins_every_thread)
{
	const char *args[] = { "--mode", "thread-32k", "--count", "25", "--repeat", "2", "--placement",
			       c->placement, "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("spawn", &o, args), 0, "%s: stderr: %s", c->placement, o.err);
	cr_assert(workload_json_check(&o, "NS, S, R, M = [25], 20000, 2, 'thread-32k'\n%s"
				      "assert o['placement'] == '%s', o\n"
				      "c = d['results'][0]['counts']\n"
				      "assert c['created'] == c['joined'] == c['first_runs'] == 50, c\n"
				      "assert d['stack_bytes'] == {M: 32768}, d['stack_bytes']\n",
				      sp_common_checks, c->placement), "%s:\n%s", c->placement, o.out);
}

Test(spawn, a_range_of_counts_gives_one_result_per_step)
{
	const char *args[] = { "--mode", "coroutine", "--count", "1-100/40", "--repeat", "2", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("spawn", &o, args), 0, "stderr: %s", o.err);
	/* 1, 41, 81, then 100 itself: the last step jumps past it */
	cr_assert(workload_json_check(&o, "NS, S, R, M = [1, 41, 81, 100], 20000, 2, 'coroutine'\n%s",
				      sp_common_checks),
		  "%s", o.out);
}

Test(spawn, the_tables_have_one_row_per_mode_and_n_and_one_per_switch_mode)
{
	const char *args[] = { "--mode", "thread-32k,coroutine,switch-coroutine", "--count", "3,9", "--switches",
			       "100", "--repeat", "2", NULL };
	static const char *const rows[] = { "thread-32k             3 seed ", "thread-32k             9 seed ",
					    "coroutine              3 seed ", "coroutine              9 seed ",
					    "switch-coroutine     100 ready " };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("spawn", &o, args), 0, "stderr: %s", o.err);
	cr_assert(strstr(o.out, "stacks: thread-32k 32 KiB coroutine 32 KiB switch-coroutine 32 KiB\n"), "%s", o.out);
	cr_assert(strstr(o.out, "mode                   n start        mean s  ns/create"), "%s", o.out);
	cr_assert(strstr(o.out, "mode                   S start        mean s  ns/switch"), "%s", o.out);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		cr_assert(strstr(o.out, rows[i]), "no row '%s' in:\n%s", rows[i], o.out);
	cr_assert(strstr(o.out, "first run "), "%s", o.out);
	/* two heading lines; per table a blank line, its title, a blank line, the column names; the rows */
	cr_assert_eq(text_count_lines(o.out), 2 + 4 + 4 + 4 + 1, "%s", o.out);
}

Test(spawn, help_names_every_mode_and_shows_examples)
{
	const char *args[] = { "--help", NULL };
	static const char *const words[] = { "thread-32k", "thread-default", "coroutine", "switch-coroutine",
					     "switch-thread", "switch-cross-cpu", "--count", "--switches",
					     "--placement", "--repeat", "--cpus", "--json", "Examples:",
					     "stack_cache_size" };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("spawn", &o, args), 0, "stderr: %s", o.err);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		cr_assert(strstr(o.out, words[i]), "no '%s' in --help:\n%s", words[i], o.out);
}

struct bad_case {
	char args[4][24];
	char message[64];	/* what the one line must say */
};

static struct bad_case bad_cases[] = {
	{ { "--mode", "bogus" }, "--mode wants thread-32k, thread-default" },
	{ { "--mode", "coroutine," }, "--mode wants" },
	{ { "--count", "0" }, "--count wants up to 1000 whole numbers from 1" },
	{ { "--count", "100001" }, "to 100000" },
	{ { "--count", "10-1" }, "not '10-1'" },
	{ { "--count", "1-10/0" }, "ranges A-B/S" },
	{ { "--count", "1-2000" }, "--count wants up to 1000" },
	{ { "--switches", "3" }, "--switches wants an even number" },
	{ { "--switches", "0" }, "--switches wants" },
	{ { "--placement", "up" }, "--placement wants spread, same or other" },
	{ { "--repeat", "0" }, "--repeat wants a whole number from 1" },
	{ { "--repeat", "1000", "--count", "100000" }, "fewer repeats or a smaller count" },
	{ { "--cpus", "1,1" }, "--cpus wants two different CPUs" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--count" }, "--count needs a value" },
	{ { "stray" }, "unexpected argument 'stray'" },
};

ParameterizedTestParameters(spawn, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	return cr_make_param_array(struct bad_case, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, spawn, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	const char *args[5] = { NULL };
	struct workload_outcome o;
	int i;

	for (i = 0; i < 4 && c->args[i][0]; i++)
		args[i] = c->args[i];
	cr_assert_eq(workload_run("spawn", &o, args), 2, "%s: stderr: %s", c->args[0], o.err);
	cr_assert_eq(text_count_lines(o.err), 1, "%s: stderr: %s", c->args[0], o.err);
	cr_assert(strstr(o.err, c->message), "%s: '%s' lacks '%s'", c->args[0], o.err, c->message);
	cr_assert(strstr(o.err, "(see --help)"), "%s: %s", c->args[0], o.err);
	cr_assert_eq(o.out[0], '\0', "%s: stdout: %s", c->args[0], o.out);
}
