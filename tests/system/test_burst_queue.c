// SPDX-License-Identifier: GPL-2.0
/*
 * burst-queue run by itself (no root, no BPF): every mode's JSON document
 * read back by python3, its counts matching what the run did and its
 * figures in order; bad options one line and exit 2.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"

/*
 * What every result of every mode must hold, with N tasks and R repeats:
 * the counts match what was sent, every figure is positive and in order,
 * and seconds and ns per task say the same thing.
 */
static const char bq_common_checks[] =
	"has(d, 'schema schema_version workload clock machine options results handed_over threads')\n"
	"assert d['schema'] == 'wakeprobe-throughput' and d['schema_version'] == 1, d['schema']\n"
	"assert d['workload'] == 'burst-queue' and d['clock'] == 'CLOCK_MONOTONIC'\n"
	"o = d['options']\n"
	"has(o, 'repeat cpus modes tasks pipe_size pipe_capacity')\n"
	"assert o['repeat'] == R and o['tasks'] == [N] and o['modes'] == [M], o\n"
	"assert o['cpus']['producer'] != o['cpus']['consumer'], o['cpus']\n"
	"assert o['pipe_capacity'] >= 4096, o\n"
	"assert d['threads'] == {'producer': 'bq-producer', 'consumer': 'bq-consumer', 'task': 'bq-task'}\n"
	"starts = [r['start'] for r in d['results']]\n"
	"assert starts == (['seed'] if M == 'thread-per-event' else ['seed', 'ready']), starts\n"
	"for r in d['results']:\n"
	"    has(r, 'mode tasks start runs seconds ns_per_task counts')\n"
	"    assert r['mode'] == M and r['tasks'] == N and r['runs'] == R, r\n"
	"    c = r['counts']\n"
	"    assert c['sent'] == c['received'] == N * R, c\n"
	"    for key in ('seconds', 'ns_per_task'):\n"
	"        s = r[key]\n"
	"        has(s, 'mean sd min median max')\n"
	"        assert s['min'] > 0 and s['sd'] >= 0, (key, s)\n"
	"        assert s['min'] <= s['median'] <= s['max'], (key, s)\n"
	"        assert s['min'] <= s['mean'] <= s['max'], (key, s)\n"
	"    ratio = r['ns_per_task']['mean'] * N / (r['seconds']['mean'] * 1e9)\n"
	"    assert abs(ratio - 1) < 1e-9, ratio\n"
	"assert d['handed_over'] == {M: N * R * len(d['results'])}, d['handed_over']\n";

struct mode_case {
	char mode[20];
	/* python: what this mode's counts say besides sent and received */
	char checks[400];
};

static struct mode_case mode_cases[] = {
	{ "cond", "for r in d['results']:\n"
		  "    assert 0 <= r['counts']['cond_waits'] <= N * R, r['counts']\n" },
	{ "pipe-notify", "for r in d['results']:\n"
			 "    c = r['counts']\n"
			 "    assert c['writes'] == c['bytes_written'] == c['bytes_read'] == N * R, c\n"
			 "    assert R <= c['reads'] <= N * R and c['full_writes'] <= c['writes'], c\n" },
	{ "pipe-record", "for r in d['results']:\n"
			 "    c = r['counts']\n"
			 "    assert c['writes'] == N * R and c['bytes_written'] == c['bytes_read'] == 8 * N * R, c\n"
			 "    assert c['reads'] == N * R + c['short_reads'], c\n"
			 "    assert c['full_writes'] <= c['writes'], c\n" },
	{ "pipe-batch", "for r in d['results']:\n"
			"    c = r['counts']\n"
			"    assert c['writes'] == N * R and c['bytes_written'] == c['bytes_read'] == 8 * N * R, c\n"
			"    assert R <= c['reads'] <= N * R and c['full_writes'] <= c['writes'], c\n" },
	{ "thread-per-event", "for r in d['results']:\n"
			      "    assert r['counts']['threads_joined'] == N * R, r['counts']\n" },
};

ParameterizedTestParameters(burst_queue, each_mode_hands_over_every_task_and_says_so_in_json)
{
	return cr_make_param_array(struct mode_case, mode_cases, sizeof(mode_cases) / sizeof(mode_cases[0]));
}

ParameterizedTest(struct mode_case *c, burst_queue, each_mode_hands_over_every_task_and_says_so_in_json)
{
	const char *args[] = { "--mode", c->mode, "--tasks", "50", "--repeat", "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("burst-queue", &o, args), 0, "%s: stderr: %s", c->mode, o.err);
	cr_assert_eq(o.err[0], '\0', "%s: stderr: %s", c->mode, o.err);
	cr_assert(workload_json_check(&o, "N, R, M = 50, 3, '%s'\n%s%s", c->mode, bq_common_checks, c->checks),
		  "%s:\n%s", c->mode, o.out);
}

Test(burst_queue, a_pipe_smaller_than_the_burst_is_reported_and_still_delivers_every_record)
{
	const char *args[] = { "--mode", "pipe-record", "--tasks", "2000", "--repeat", "2", "--pipe-size", "4096",
			       "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("burst-queue", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "N, R, M = 2000, 2, 'pipe-record'\n%s"
				      "assert o['pipe_size'] == 4096 and o['pipe_capacity'] == 4096, o\n"
				      "for r in d['results']:\n"
				      "    c = r['counts']\n"
				      "    assert c['bytes_read'] == 8 * N * R and "
				      "c['full_writes'] <= c['writes'], c\n",
				      bq_common_checks), "%s", o.out);
}

Test(burst_queue, the_table_has_one_row_per_mode_size_and_start)
{
	const char *args[] = { "--mode", "cond,thread-per-event", "--tasks", "10,20", "--repeat", "2", NULL };
	static const char *const rows[] = { "cond                  10 seed ", "cond                  10 ready ",
					    "cond                  20 seed ", "cond                  20 ready ",
					    "thread-per-event      10 seed ", "thread-per-event      20 seed " };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("burst-queue", &o, args), 0, "stderr: %s", o.err);
	cr_assert(strstr(o.out, "mode                   N start        mean s    ns/task"), "%s", o.out);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		cr_assert(strstr(o.out, rows[i]), "no row '%s' in:\n%s", rows[i], o.out);
	cr_assert_null(strstr(o.out, "thread-per-event      10 ready"), "%s", o.out);
	/* two lines of heading, a blank one, the column names, then the rows */
	cr_assert_eq(text_count_lines(o.out), 4 + (int)(sizeof(rows) / sizeof(rows[0])), "%s", o.out);
}

Test(burst_queue, help_names_every_mode_and_shows_examples)
{
	const char *args[] = { "--help", NULL };
	static const char *const words[] = { "cond", "pipe-notify", "pipe-record", "pipe-batch", "thread-per-event",
					     "--repeat", "--cpus", "--json", "Examples:" };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("burst-queue", &o, args), 0, "stderr: %s", o.err);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		cr_assert(strstr(o.out, words[i]), "no '%s' in --help:\n%s", words[i], o.out);
}

struct bad_case {
	char args[3][24];
	char message[48];	/* what the one line must say */
};

static struct bad_case bad_cases[] = {
	{ { "--mode", "bogus" }, "--mode wants cond, pipe-notify" },
	{ { "--mode", "cond," }, "--mode wants" },
	{ { "--tasks", "0" }, "--tasks wants up to 8 whole numbers from 1" },
	{ { "--tasks", "10,,100" }, "not '10,,100'" },
	{ { "--tasks", "1,2,3,4,5,6,7,8,9" }, "--tasks wants up to 8" },
	{ { "--repeat", "0" }, "--repeat wants a whole number from 1" },
	{ { "--repeat", "x" }, "not 'x'" },
	{ { "--cpus", "0,0" }, "--cpus wants two different CPUs" },
	{ { "--cpus", "0" }, "--cpus wants" },
	{ { "--pipe-size", "-1" }, "--pipe-size wants bytes" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--tasks" }, "--tasks needs a value" },
	{ { "stray" }, "unexpected argument 'stray'" },
};

ParameterizedTestParameters(burst_queue, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	return cr_make_param_array(struct bad_case, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, burst_queue, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	const char *args[4] = { NULL };
	struct workload_outcome o;
	int i;

	for (i = 0; i < 3 && c->args[i][0]; i++)
		args[i] = c->args[i];
	cr_assert_eq(workload_run("burst-queue", &o, args), 2, "%s: stderr: %s", c->args[0], o.err);
	cr_assert_eq(text_count_lines(o.err), 1, "%s: stderr: %s", c->args[0], o.err);
	cr_assert(strstr(o.err, c->message), "%s: '%s' lacks '%s'", c->args[0], o.err, c->message);
	cr_assert(strstr(o.err, "(see --help)"), "%s: %s", c->args[0], o.err);
	cr_assert_eq(o.out[0], '\0', "%s: stdout: %s", c->args[0], o.out);
}
