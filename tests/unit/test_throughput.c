// SPDX-License-Identifier: GPL-2.0
/*
 * test_throughput.c - the throughput workloads' harness (workloads/throughput.c):
 * statistics over repeats, the number and CPU lists, counters, parameters,
 * the table, and the JSON document read back by python3.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "readback.h"
#include "throughput.h"

#define EPS 1e-9

Test(throughput_stats, odd_count_gives_the_middle_value_and_the_sample_sd)
{
	double v[] = { 9, 1, 5, 3, 7 };
	struct tp_stats s;

	tp_stats__of(v, 5, &s);
	cr_assert_eq(s.n, 5);
	cr_assert_float_eq(s.mean, 5.0, EPS);
	cr_assert_float_eq(s.median, 5.0, EPS);
	cr_assert_float_eq(s.min, 1.0, EPS);
	cr_assert_float_eq(s.max, 9.0, EPS);
	/* deviations -4 -2 0 2 4: squares sum to 40, over n - 1 = 4 */
	cr_assert_float_eq(s.sd, sqrt(10.0), EPS);
	/* sorted in place, as the header says */
	cr_assert_float_eq(v[0], 1.0, EPS);
	cr_assert_float_eq(v[4], 9.0, EPS);
}

Test(throughput_stats, even_count_gives_the_mean_of_the_middle_two)
{
	double v[] = { 40, 10, 30, 20 };
	struct tp_stats s;

	tp_stats__of(v, 4, &s);
	cr_assert_float_eq(s.median, 25.0, EPS);
	cr_assert_float_eq(s.mean, 25.0, EPS);
	cr_assert_float_eq(s.sd, sqrt(500.0 / 3), EPS);
}

Test(throughput_stats, one_value_has_no_spread_and_none_gives_zeros)
{
	double one = 42, none = 7;
	struct tp_stats s;

	tp_stats__of(&one, 1, &s);
	cr_assert_eq(s.n, 1);
	cr_assert_float_eq(s.sd, 0.0, EPS);
	cr_assert_float_eq(s.min, 42.0, EPS);
	cr_assert_float_eq(s.median, 42.0, EPS);
	cr_assert_float_eq(s.max, 42.0, EPS);
	tp_stats__of(&none, 0, &s);
	cr_assert_eq(s.n, 0);
	cr_assert_float_eq(s.mean, 0.0, EPS);
	cr_assert_float_eq(s.max, 0.0, EPS);
}

Test(throughput_stats, large_equal_values_keep_a_zero_sd)
{
	/* sum(x^2) - n mean^2 would cancel to noise here; the two-pass form does not */
	double v[] = { 1e12 + 1, 1e12 + 1, 1e12 + 1 };
	struct tp_stats s;

	tp_stats__of(v, 3, &s);
	cr_assert_eq(s.sd, 0.0, "sd %g", s.sd);
}

Test(throughput_stats, scaling_scales_every_figure_but_the_count)
{
	double v[] = { 1000, 3000 };
	struct tp_stats s, per;

	tp_stats__of(v, 2, &s);
	per = tp_stats__scaled(&s, 0.001);
	cr_assert_eq(per.n, 2);
	cr_assert_float_eq(per.mean, 2.0, EPS);
	cr_assert_float_eq(per.min, 1.0, EPS);
	cr_assert_float_eq(per.median, 2.0, EPS);
	cr_assert_float_eq(per.max, 3.0, EPS);
	cr_assert_float_eq(per.sd, s.sd * 0.001, EPS);
}

Test(throughput_lists, a_list_is_read_whole_and_in_range)
{
	uint64_t v[4];
	size_t n = 0;

	cr_assert_eq(tp_parse_u64_list("10,100,1000", 1, 100000, v, 4, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(v[0], 10);
	cr_assert_eq(v[2], 1000);
	cr_assert_eq(tp_parse_u64_list("7", 1, 10, v, 4, &n), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(v[0], 7);
}

Test(throughput_lists, empty_items_junk_range_and_overflow_are_refused)
{
	uint64_t v[2];
	size_t n = 99;

	cr_assert_eq(tp_parse_u64_list("", 1, 10, v, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_list("1,,2", 1, 10, v, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_list("1,", 1, 10, v, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_list("1x", 1, 10, v, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_list("0", 1, 10, v, 2, &n), -ERANGE);
	cr_assert_eq(tp_parse_u64_list("1,2,3", 1, 10, v, 2, &n), -E2BIG);
	cr_assert_eq(n, 99, "a refused list must not set the count");
}

static const char *const demo_names[] = { "cond", "pipe", "shm-a", "shm-b" };
#define NR_DEMO (sizeof(demo_names) / sizeof(demo_names[0]))

Test(throughput_lists, names_are_chosen_by_name_by_all_and_by_an_alias)
{
	static const bool shm[NR_DEMO] = { false, false, true, true };
	bool set[NR_DEMO] = { true, true, true, true };

	cr_assert_eq(tp_parse_names("pipe", demo_names, NR_DEMO, NULL, NULL, set), 0);
	cr_assert(!set[0] && set[1] && !set[2] && !set[3], "one name clears the others");
	cr_assert_eq(tp_parse_names("shm-b,cond,shm-b", demo_names, NR_DEMO, NULL, NULL, set), 0);
	cr_assert(set[0] && !set[1] && !set[2] && set[3]);
	cr_assert_eq(tp_parse_names("all", demo_names, NR_DEMO, NULL, NULL, set), 0);
	cr_assert(set[0] && set[1] && set[2] && set[3]);
	cr_assert_eq(tp_parse_names("shm", demo_names, NR_DEMO, "shm", shm, set), 0);
	cr_assert(!set[0] && !set[1] && set[2] && set[3]);
	cr_assert_eq(tp_parse_names("pipe,shm", demo_names, NR_DEMO, "shm", shm, set), 0);
	cr_assert(!set[0] && set[1] && set[2] && set[3]);
	cr_assert_eq(tp_parse_names("shm", demo_names, NR_DEMO, NULL, NULL, set), -EINVAL,
		     "without the alias, shm is no name");
}

Test(throughput_lists, empty_items_unknown_names_and_an_overlong_list_are_refused)
{
	static const char *const bad[] = { "", ",", "cond,", ",cond", "cond,,pipe", "pipes", "Cond", "cond pipe" };
	bool set[NR_DEMO] = { false, true, false, true };
	char list[TP_MAX_NAMES_ARG + 2];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(tp_parse_names(bad[i], demo_names, NR_DEMO, NULL, NULL, set), -EINVAL, "'%s'", bad[i]);
	cr_assert(!set[0] && set[1] && !set[2] && set[3], "a refused list leaves the set as it was");

	/* valid names, TP_MAX_NAMES_ARG characters (4 + 6 + 49 x 5), then one more (4 + 2 x 6 + 48 x 5) */
	strcpy(list, "cond,shm-a");
	for (i = 0; i < 49; i++)
		strcat(list, ",cond");
	cr_assert_eq(strlen(list), TP_MAX_NAMES_ARG);
	cr_assert_eq(tp_parse_names(list, demo_names, NR_DEMO, NULL, NULL, set), 0);
	cr_assert(set[0] && !set[1] && set[2] && !set[3]);
	strcpy(list, "cond,shm-a,shm-a");
	for (i = 0; i < 48; i++)
		strcat(list, ",cond");
	cr_assert_eq(strlen(list), TP_MAX_NAMES_ARG + 1);
	cr_assert_eq(tp_parse_names(list, demo_names, NR_DEMO, NULL, NULL, set), -EINVAL);
}

Test(throughput_result, counters_add_up_by_name_and_a_full_table_says_so)
{
	struct tp_result r = { 0 };
	static char names[TP_MAX_COUNTERS][8];
	size_t i;

	cr_assert_eq(tp_result__count(&r, "sent", 10), 0);
	cr_assert_eq(tp_result__count(&r, "sent", 5), 0);
	cr_assert_eq(tp_result__counter(&r, "sent"), 15);
	cr_assert_eq(tp_result__counter(&r, "missing"), 0);
	for (i = 1; i < TP_MAX_COUNTERS; i++) {
		snprintf(names[i], sizeof(names[i]), "c%zu", i);
		cr_assert_eq(tp_result__count(&r, names[i], i), 0);
	}
	cr_assert_eq(tp_result__count(&r, "one-too-many", 1), -E2BIG);
	cr_assert_eq(tp_result__count_max(&r, "one-too-many", 1), -E2BIG);
	cr_assert_eq(r.nr_counters, TP_MAX_COUNTERS);
	cr_assert_eq(tp_result__counter(&r, names[TP_MAX_COUNTERS - 1]), TP_MAX_COUNTERS - 1);
	cr_assert_eq(tp_result__counter(&r, "sent"), 15);
}

Test(throughput_json, the_document_holds_options_results_and_the_workloads_own_keys)
{
	double v[] = { 2000, 4000, 3000 };
	struct tp_options o;
	struct tp_result r[2] = { { 0 } };
	struct json_writer w;
	char path[64];
	FILE *f = temp_output("tp-json", path);

	tp_options__init(&o, "demo");
	o.repeat = 3;
	o.cpu[0] = 0;
	o.cpu[1] = 1;
	r[0].mode = "fast";
	r[0].units = 10;
	r[0].start = "seed";
	tp_stats__of(v, 3, &r[0].ns);
	tp_result__count(&r[0], "sent", 30);
	r[1] = r[0];
	r[1].start = "ready";

	json_writer__init(&w, f);
	tp_json__begin(&w, &o, "producer", "consumer");
	json_writer__key(&w, "extra");
	json_writer__uint(&w, 7);
	tp_json__results(&w, r, 2, "tasks", "task");
	json_writer__key(&w, "tail");
	json_writer__bool(&w, true);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);

	cr_assert(json_check(path,
			   "has(d, 'schema schema_version workload clock machine options results tail')\n"
			   "assert d['schema'] == 'wakeprobe-throughput' and d['workload'] == 'demo'\n"
			   "has(d['machine'], 'kernel machine nr_cpus')\n"
			   "assert d['options'] == {'repeat': 3, 'cpus': {'producer': 0, 'consumer': 1}, 'extra': 7}\n"
			   "assert [r['start'] for r in d['results']] == ['seed', 'ready']\n"
			   "r = d['results'][0]\n"
			   "assert r['mode'] == 'fast' and r['tasks'] == 10 and r['runs'] == 3, r\n"
			   "def near(got, want):\n"
			   "    assert set(got) == set(want), got\n"
			   "    assert all(abs(got[k] - want[k]) <= 1e-9 * abs(want[k]) for k in want), (got, want)\n"
			   "near(r['seconds'], {'mean': 3e-6, 'sd': 1e-6, 'min': 2e-6, 'median': 3e-6, 'max': 4e-6})\n"
			   "near(r['ns_per_task'], {'mean': 300, 'sd': 100, 'min': 200, 'median': 300, 'max': 400})\n"
			   "assert r['counts'] == {'sent': 30}, r['counts']\n"
			   "assert d['tail'] is True\n"));
	unlink(path);
}

Test(throughput_json, chosen_names_lists_and_counts_per_name_keep_their_order)
{
	static const bool chosen[NR_DEMO] = { true, false, false, true };
	static const uint64_t per_name[NR_DEMO] = { 10, 20, 30, 40 };
	static const uint64_t sizes[] = { 1000, 10, 100 };
	static const bool none[NR_DEMO];
	struct json_writer w;
	char path[64];
	FILE *f = temp_output("tp-json-lists", path);

	json_writer__init(&w, f);
	json_writer__begin_object(&w);
	tp_json__names(&w, "modes", demo_names, chosen, NR_DEMO);
	tp_json__names(&w, "no_modes", demo_names, none, NR_DEMO);
	tp_json__u64s(&w, "sizes", sizes, 3);
	tp_json__u64s(&w, "no_sizes", sizes, 0);
	tp_json__per_name(&w, "handed_over", demo_names, chosen, per_name, NR_DEMO);
	tp_json__per_name(&w, "none_handed_over", demo_names, none, per_name, NR_DEMO);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);

	cr_assert(json_check(path,
			   "assert d == {'modes': ['cond', 'shm-b'], 'no_modes': [], 'sizes': [1000, 10, 100],\n"
			   "             'no_sizes': [], 'handed_over': {'cond': 10, 'shm-b': 40},\n"
			   "             'none_handed_over': {}}, d\n"
			   "assert list(d['handed_over']) == ['cond', 'shm-b']\n"));
	unlink(path);
}

static void demo_extra(struct json_writer *w, const struct tp_result *r, void *ctx)
{
	(*(int *)ctx)++;
	json_writer__key(w, "extra");
	json_writer__string(w, r->mode);
}

Test(throughput_table, a_row_gives_seconds_and_ns_per_unit)
{
	double v[] = { 2000, 4000, 3000 };
	struct tp_result r = { .mode = "fast", .units = 10, .start = "ready" };
	char path[64], *text;
	FILE *f = temp_output("tp-table", path);
	size_t len;

	tp_stats__of(v, 3, &r.ns);
	tp_table__header(f, "N", "task");
	tp_table__row(f, &r, "3 reads");
	cr_assert_eq(fclose(f), 0);
	text = read_file(path, &len);
	cr_assert(strstr(text, "mode                   N start        mean s    ns/task        sd        min     "
			       "median        max  per run\n"), "%s", text);
	cr_assert(strstr(text, "fast                  10 ready      0.000003      300.0     100.0      200.0      "
			       "300.0      400.0  3 reads\n"), "%s", text);
	free(text);
	unlink(path);
}

Test(throughput_stats, percentiles_are_nearest_rank_values_of_the_sorted_set)
{
	double v[100];
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = (double)(i + 1);
	cr_assert_float_eq(tp_percentile(v, 100, 0.5), 50.0, EPS);
	/* 0.99 * 100 is 98.999... or 99.000...01 in binary: either way the 99th value */
	cr_assert_float_eq(tp_percentile(v, 100, 0.99), 99.0, EPS);
	cr_assert_float_eq(tp_percentile(v, 100, 1.0), 100.0, EPS);
	cr_assert_float_eq(tp_percentile(v, 100, 0.001), 1.0, EPS);
	/* three values: p50 is the second, p99 the largest */
	cr_assert_float_eq(tp_percentile(v, 3, 0.5), 2.0, EPS);
	cr_assert_float_eq(tp_percentile(v, 3, 0.99), 3.0, EPS);
	cr_assert_float_eq(tp_percentile(v, 1, 0.99), 1.0, EPS);
	cr_assert_float_eq(tp_percentile(v, 0, 0.5), 0.0, EPS);
}

Test(throughput_lists, a_range_gives_its_steps_and_ends_on_its_last_value)
{
	static const uint64_t want[] = { 1, 251, 501, 751, 1000, 5, 2000, 3, 4, 5 };
	uint64_t v[16];
	size_t n = 0, i;

	/* 751 + 250 jumps past 1000: the range still ends on 1000; no STEP is a step of 1 */
	cr_assert_eq(tp_parse_u64_steps("1-1000/250,5,2000,3-5", 1, 100000, v, 16, &n), 0);
	cr_assert_eq(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++)
		cr_assert_eq(v[i], want[i], "item %zu: %llu, not %llu", i, (unsigned long long)v[i],
			     (unsigned long long)want[i]);
	cr_assert_eq(tp_parse_u64_steps("7-7/3", 1, 10, v, 16, &n), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(v[0], 7);
	/* a step landing on LAST exactly does not repeat it */
	cr_assert_eq(tp_parse_u64_steps("0-10/5", 0, 10, v, 16, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(v[2], 10);
}

Test(throughput_lists, a_bad_range_is_refused_and_a_long_one_does_not_overrun)
{
	uint64_t v[4];
	size_t n = 99;

	cr_assert_eq(tp_parse_u64_steps("10-1", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_steps("1-10/0", 1, 100, v, 4, &n), -ERANGE);
	cr_assert_eq(tp_parse_u64_steps("1-", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_steps("-5", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_steps("1-5/x", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_steps("1-500", 1, 100, v, 4, &n), -ERANGE);
	cr_assert_eq(tp_parse_u64_steps("1-5", 1, 100, v, 4, &n), -E2BIG);
	cr_assert_eq(tp_parse_u64_steps("1,2,3-4,9", 1, 100, v, 4, &n), -E2BIG);
	cr_assert_eq(tp_parse_u64_steps("1,,2", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(tp_parse_u64_steps("", 1, 100, v, 4, &n), -EINVAL);
	cr_assert_eq(n, 99, "a refused list must not set the count");
	cr_assert_eq(tp_parse_u64_steps("18446744073709551614-18446744073709551615/7", 1, UINT64_MAX, v, 4, &n),
		     0, "a step past the largest number must not wrap around");
	cr_assert_eq(n, 2);
	cr_assert_eq(v[1], UINT64_MAX);
}

Test(throughput_json, a_result_may_name_its_own_unit_and_carry_the_workloads_keys)
{
	double v[] = { 1000, 1000 };
	struct tp_options o;
	struct tp_result r[2] = { { 0 } };
	struct json_writer w;
	char path[64];
	FILE *f = temp_output("tp-json-with", path);
	int calls = 0;

	tp_options__init(&o, "demo");
	o.repeat = 2;
	o.cpu[0] = 0;
	o.cpu[1] = 1;
	r[0].mode = "make";
	r[0].units = 10;
	r[0].start = "seed";
	tp_stats__of(v, 2, &r[0].ns);
	r[1] = r[0];
	r[1].mode = "switch";
	r[1].units = 100;
	r[1].size_name = "switches";
	r[1].unit = "switch";

	json_writer__init(&w, f);
	tp_json__begin(&w, &o, "a", "b");
	tp_json__results_with(&w, r, 2, "count", "creation", demo_extra, &calls);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(calls, 2);

	cr_assert(json_check(path,
			   "a, b = d['results']\n"
			   "assert a['count'] == 10 and 'switches' not in a, a\n"
			   "assert abs(a['ns_per_creation']['median'] - 100) < 1e-9, a\n"
			   "assert b['switches'] == 100 and 'count' not in b, b\n"
			   "assert abs(b['ns_per_switch']['median'] - 10) < 1e-9, b\n"
			   "assert a['extra'] == 'make' and b['extra'] == 'switch', (a, b)\n"
			   "assert list(a)[-1] == 'extra', list(a)\n"));
	unlink(path);
}

Test(throughput_lists, a_cpu_list_holds_different_cpus_below_the_count)
{
	int cpus[4] = { -1, -1, -1, -1 };
	size_t n = 99;

	cr_assert_eq(tp_parse_cpu_list("3,0,2", 4, cpus, 4, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(cpus[0], 3);
	cr_assert_eq(cpus[1], 0);
	cr_assert_eq(cpus[2], 2);
	cr_assert_eq(tp_parse_cpu_list("0", 1, cpus, 4, &n), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(cpus[0], 0);
}

Test(throughput_lists, a_cpu_list_refuses_repeats_range_junk_and_excess)
{
	int cpus[2] = { -1, -1 };
	size_t n = 99;

	cr_assert_eq(tp_parse_cpu_list("1,1", 4, cpus, 2, &n), -EEXIST);
	cr_assert_eq(tp_parse_cpu_list("4", 4, cpus, 2, &n), -ERANGE);
	cr_assert_eq(tp_parse_cpu_list("0,", 4, cpus, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_cpu_list("-1", 4, cpus, 2, &n), -EINVAL);
	cr_assert_eq(tp_parse_cpu_list("0,1,2", 4, cpus, 2, &n), -E2BIG);
	cr_assert_eq(n, 99, "a refused list must not set the count");
	cr_assert_eq(cpus[0], -1, "a refused list must not set a CPU");
}

static void demo_usage(FILE *out)
{
	fprintf(out, "Usage: demo [--json]\n");
}

/* read_all - @fd to its end into @buf: an error line comes in three writes to the unbuffered stderr */
static void read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
}

/*
 * in_child - @body(@ctx) in a child with its stdout and stderr into @out
 * and @err (@len bytes each): the child's exit status. The body is to end
 * the child; a sanitized build may add its own lines on stderr then.
 */
static int in_child(void (*body)(void *ctx), void *ctx, char *out, char *err, size_t len)
{
	int o[2], e[2], status;
	pid_t pid;

	cr_assert_eq(pipe(o), 0);
	cr_assert_eq(pipe(e), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		body(ctx);
		_exit(77);
	}
	close(o[1]);
	close(e[1]);
	read_all(o[0], out, len);
	read_all(e[0], err, len);
	close(o[0]);
	close(e[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "0x%x", status);
	return WEXITSTATUS(status);
}

/* has_line - @line (with its newline) is one of the lines of @text */
static bool has_line(const char *text, const char *line)
{
	const char *at;

	for (at = strstr(text, line); at; at = strstr(at + 1, line))
		if (at == text || at[-1] == '\n')
			return true;
	return false;
}

static void finish_demo(void *ctx)
{
	char *argv[] = { "demo", "stray", NULL };

	optind = 1;
	tp_options__finish(ctx, 2, argv, demo_usage);
}

Test(throughput_options, help_prints_the_usage_and_exits_0_before_a_stray_argument_is_refused)
{
	struct tp_options o;
	char out[256], err[256];

	tp_options__init(&o, "demo");
	o.help = true;
	cr_assert_eq(in_child(finish_demo, &o, out, err, sizeof(out)), 0, "%s", err);
	cr_assert_str_eq(out, "Usage: demo [--json]\n");

	tp_options__init(&o, "demo");
	cr_assert_eq(in_child(finish_demo, &o, out, err, sizeof(out)), 2, "%s", err);
	cr_assert_str_empty(out);
	cr_assert(has_line(err, "demo: unexpected argument 'stray' (see --help)\n"), "%s", err);
}

Test(throughput_options, a_cpu_list_is_parsed_and_defaults_to_every_allowed_cpu)
{
	char *argv[] = { "demo", NULL };
	cpu_set_t allowed;
	struct tp_options o;
	size_t i = 0;
	int cpu;

	tp_options__init(&o, "demo");
	o.list_cpus = true;
	cr_assert(tp_options__parse(&o, 'c', "0", 1, argv));
	cr_assert(o.cpus_given);
	cr_assert_eq(o.nr_cpu_list, 1);
	cr_assert_eq(o.cpu_list[0], 0);

	tp_options__init(&o, "demo");
	o.list_cpus = true;
	optind = 1;
	tp_options__finish(&o, 1, argv, demo_usage);
	cr_assert_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	cr_assert_eq(o.nr_cpu_list, (size_t)CPU_COUNT(&allowed));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			cr_assert_eq(o.cpu_list[i++], cpu, "CPU %zu of the list", i);
	cr_assert_eq(o.cpu[0], -1, "a list leaves the pair unset");
}

struct results_out {
	const char *stdout_path;
	int err;
};

/* results_out_demo - "x" on the stdout @ctx names, then tp_results_out(), its value the exit status */
static void results_out_demo(void *ctx)
{
	const struct results_out *r = ctx;

	if (!freopen(r->stdout_path, "w", stdout))
		_exit(99);
	fputs("x", stdout);
	/* _exit: the flush under test is the only one */
	_exit(tp_results_out("demo", r->err));
}

Test(throughput_options, results_that_do_not_reach_stdout_are_one_line_and_exit_1)
{
	static const char failed[] = "demo: cannot write the results to stdout\n";
	struct results_out ok = { "/dev/null", 0 }, full = { "/dev/full", 0 }, bad = { "/dev/null", -EIO };
	char out[256], err[256];

	cr_assert_eq(in_child(results_out_demo, &ok, out, err, sizeof(out)), 0);
	cr_assert_str_empty(err);
	cr_assert_eq(in_child(results_out_demo, &full, out, err, sizeof(out)), 1, "the flush fails: ENOSPC");
	cr_assert_str_eq(err, failed);
	cr_assert_eq(in_child(results_out_demo, &bad, out, err, sizeof(out)), 1, "the writer failed before");
	cr_assert_str_eq(err, failed);
}

struct where {
	int cpu;
	int allowed;		/* CPUs the thread may use */
};

static void *where_main(void *arg)
{
	struct where *at = arg;
	cpu_set_t set;

	at->cpu = sched_getcpu();
	at->allowed = pthread_getaffinity_np(pthread_self(), sizeof(set), &set) ? -1 : CPU_COUNT(&set);
	return NULL;
}

Test(throughput_threads, a_thread_runs_pinned_to_its_cpu_or_where_this_one_may_and_is_waited_for)
{
	struct where at = { -1, -1 };
	cpu_set_t mine;
	int cpu;

	cr_assert_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET(cpu, &mine); cpu--)
		;
	cr_assert_eq(tp_run_thread(cpu, where_main, &at), 0);
	cr_assert_eq(at.cpu, cpu, "the thread ran to its end before the call returned, on CPU %d", cpu);
	cr_assert_eq(at.allowed, 1);

	at.cpu = at.allowed = -1;
	cr_assert_eq(tp_run_thread(-1, where_main, &at), 0);
	cr_assert(at.cpu >= 0 && CPU_ISSET(at.cpu, &mine), "CPU %d", at.cpu);
	cr_assert_eq(at.allowed, CPU_COUNT(&mine), "unpinned, it inherits this thread's CPUs");


	/* past the last CPU this process may use: no thread, and the error */
	at.cpu = -1;
	cr_assert_lt(tp_run_thread(cpu + 1, where_main, &at), 0);
	cr_assert_eq(at.cpu, -1, "nothing ran");
}

Test(throughput_threads, a_threads_cpu_time_grows_with_its_work_not_with_its_sleep)
{
	uint64_t t0 = tp_thread_cpu_ns(), t1, wall = tp_now_ns();
	volatile uint64_t spin = 0;

	while (tp_now_ns() - wall < 20000000ull)
		spin++;
	t1 = tp_thread_cpu_ns();
	cr_assert_gt(t1, t0);
	t0 = tp_thread_cpu_ns();
	usleep(50000);
	t1 = tp_thread_cpu_ns();
	cr_assert_lt(t1 - t0, 25000000ull, "%llu ns of CPU over a 50 ms sleep", (unsigned long long)(t1 - t0));
}

struct sleeper {
	int fds[2];
	pid_t tid;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	char byte;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	return read(s->fds[0], &byte, 1) == 1 ? NULL : s;
}

Test(throughput_threads, a_task_blocked_in_a_read_is_asleep_and_a_running_one_is_not)
{
	struct sleeper s = { .tid = 0 };
	char path[64];
	pthread_t th;
	int i, asleep = 0;
	void *ret;

	cr_assert_eq(tp_proc_asleep("/proc/self/stat"), 0, "this thread runs while it reads its own state");
	cr_assert_eq(tp_proc_asleep("/proc/self/task/0/stat"), -ENOENT);

	cr_assert_eq(pipe(s.fds), 0);
	cr_assert_eq(pthread_create(&th, NULL, sleeper_main, &s), 0);
	while (!__atomic_load_n(&s.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)s.tid);
	/* it announced itself before its read: give it up to 10 s to get there */
	for (i = 0; i < 10000 && !(asleep = tp_proc_asleep(path)); i++)
		usleep(1000);
	cr_assert_eq(asleep, 1, "the reader never slept: %d", asleep);
	cr_assert_eq(write(s.fds[1], "x", 1), 1);
	cr_assert_eq(pthread_join(th, &ret), 0);
	cr_assert_null(ret);
	close(s.fds[0]);
	close(s.fds[1]);
}

Test(throughput_result, parameters_are_set_by_name_in_order_and_a_full_set_says_so)
{
	struct tp_result r = { 0 };

	cr_assert_eq(tp_result__param(&r, "threads", 4), 0);
	cr_assert_eq(tp_result__param(&r, "loops", 1000), 0);
	cr_assert_eq(tp_result__param(&r, "threads", 8), 0);
	cr_assert_eq(r.nr_params, 2);
	cr_assert_str_eq(r.params[0].name, "threads");
	cr_assert_eq(r.params[0].value, 8, "setting it again replaces the value");
	cr_assert_eq(r.params[1].value, 1000);
	cr_assert_eq(tp_result__param(&r, "c", 1), 0);
	cr_assert_eq(tp_result__param(&r, "d", 1), 0);
	cr_assert_eq(tp_result__param(&r, "e", 1), -E2BIG);
	cr_assert_eq(r.nr_params, TP_MAX_PARAMS);
}

Test(throughput_table, parameters_get_a_column_each_between_size_and_start)
{
	static const char *const names[] = { "threads", "loops" };
	double v[] = { 2000, 4000, 3000 };
	struct tp_result r = { .mode = "pool", .units = 10, .start = "go" };
	char path[64], *text;
	FILE *f = temp_output("tp-table", path);
	size_t len;

	tp_stats__of(v, 3, &r.ns);
	tp_result__param(&r, "threads", 4);
	tp_result__param(&r, "loops", 1000);
	tp_table__header_params(f, "H", names, 2, "handler");
	tp_table__row(f, &r, NULL);
	cr_assert_eq(fclose(f), 0);
	text = read_file(path, &len);
	cr_assert(strstr(text, "mode                   H threads   loops start        mean s ns/handler        sd"
			       "        min     median        max  per run\n"), "%s", text);
	cr_assert(strstr(text, "pool                  10       4    1000 go         0.000003      300.0     100.0"
			       "      200.0      300.0      400.0  \n"), "%s", text);
	free(text);
	unlink(path);
}

Test(throughput_json, a_cpu_list_and_parameters_appear_as_keys)
{
	double v[] = { 1000 };
	struct tp_options o;
	struct tp_result r = { .mode = "pool", .units = 5, .start = "go" };
	struct json_writer w;
	char path[64];
	FILE *f = temp_output("tp-json", path);

	tp_options__init(&o, "demo");
	o.list_cpus = true;
	o.cpu_list[0] = 1;
	o.cpu_list[1] = 0;
	o.nr_cpu_list = 2;
	tp_stats__of(v, 1, &r.ns);
	tp_result__param(&r, "threads", 3);
	tp_result__param(&r, "loops", 0);

	json_writer__init(&w, f);
	tp_json__begin(&w, &o, NULL, NULL);
	tp_json__results(&w, &r, 1, "handlers", "handler");
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);

	cr_assert(json_check(path,
			   "assert d['options'] == {'repeat': 100, 'cpus': [1, 0]}, d['options']\n"
			   "r = d['results'][0]\n"
			   "assert list(r)[:5] == ['mode', 'handlers', 'threads', 'loops', 'start'], list(r)\n"
			   "assert r['threads'] == 3 and r['loops'] == 0 and r['handlers'] == 5, r\n"
			   "assert r['ns_per_handler']['median'] == 200, r\n"));
	unlink(path);
}

Test(throughput_result, a_max_counter_keeps_the_largest_value_not_the_sum)
{
	struct tp_result r = { 0 };

	cr_assert_eq(tp_result__count_max(&r, "peak_bytes_max", 300), 0);
	cr_assert_eq(tp_result__count_max(&r, "peak_bytes_max", 100), 0);
	cr_assert_eq(tp_result__counter(&r, "peak_bytes_max"), 300);
	cr_assert_eq(tp_result__count_max(&r, "peak_bytes_max", 700), 0);
	cr_assert_eq(tp_result__counter(&r, "peak_bytes_max"), 700);
	cr_assert_eq(r.nr_counters, 1);
}

Test(throughput_result, a_rate_is_each_runs_amount_over_its_own_time)
{
	/* 100 units in 1 s, 2 s and 4 s: 100, 50 and 25 per second; the mean of those, not 100 / (7/3) */
	double ns[] = { 2e9, 1e9, 4e9 };
	struct tp_result r = { 0 };
	const struct tp_stats *s;
	size_t i;

	cr_assert_eq(tp_result__rate(&r, "units_per_s", "u/s", 100, ns, 3), 0);
	cr_assert_eq(r.nr_rates, 1);
	cr_assert_str_eq(r.rates[0].key, "units_per_s");
	cr_assert_str_eq(r.rates[0].title, "u/s");
	s = &r.rates[0].per_s;
	cr_assert_eq(s->n, 3);
	cr_assert_float_eq(s->min, 25.0, EPS);
	cr_assert_float_eq(s->median, 50.0, EPS);
	cr_assert_float_eq(s->max, 100.0, EPS);
	cr_assert_float_eq(s->mean, 175.0 / 3, EPS);
	/* the times are not sorted or changed */
	cr_assert_float_eq(ns[0], 2e9, EPS);
	cr_assert_float_eq(ns[1], 1e9, EPS);
	for (i = 1; i < TP_MAX_RATES; i++)
		cr_assert_eq(tp_result__rate(&r, "more", "m", 1, ns, 3), 0);
	cr_assert_eq(tp_result__rate(&r, "one-too-many", "x", 1, ns, 3), -E2BIG);
}

Test(throughput_result, a_run_that_took_no_time_has_no_rate)
{
	double ns[] = { 1e9, 0 };
	struct tp_result r = { 0 };

	cr_assert_eq(tp_result__rate(&r, "units_per_s", "u/s", 100, ns, 2), -EINVAL);
	cr_assert_eq(r.nr_rates, 0);
}

Test(throughput_json, variant_stop_and_rates_appear_only_when_set)
{
	double v[] = { 2e9, 1e9, 4e9 };
	struct tp_options o;
	struct tp_result r[2] = { { 0 } };
	struct json_writer w;
	char path[64];
	FILE *f = temp_output("tp-json-rates", path);

	tp_options__init(&o, "demo");
	o.repeat = 3;
	o.cpu[0] = 0;
	o.cpu[1] = 1;
	r[0].mode = "shm";
	r[0].units = 100;
	r[0].start = "ready";
	tp_stats__of(v, 3, &r[0].ns);
	r[1] = r[0];
	r[1].variant_key = "receiver";
	r[1].variant = "busy";
	r[1].stop = "end-to-end";
	cr_assert_eq(tp_result__rate(&r[1], "messages_per_s", "msg/s", 100, v, 3), 0);

	json_writer__init(&w, f);
	tp_json__begin(&w, &o, "producer", "consumer");
	tp_json__results(&w, r, 2, "messages", "message");
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);

	cr_assert(json_check(path,
			   "a, b = d['results']\n"
			   "assert list(a) == ['mode', 'messages', 'start', 'runs', 'seconds', 'ns_per_message', "
			   "'counts'], list(a)\n"
			   "assert list(b) == ['mode', 'messages', 'start', 'receiver', 'stop', 'runs', 'seconds', "
			   "'ns_per_message', 'messages_per_s', 'counts'], list(b)\n"
			   "assert b['receiver'] == 'busy' and b['stop'] == 'end-to-end', b\n"
			   "m = b['messages_per_s']\n"
			   "assert abs(m['min'] - 25) < 1e-9 and abs(m['median'] - 50) < 1e-9 and abs(m['max'] - 100) < 1e-9, m\n"));
	unlink(path);
}

Test(throughput_table, a_rates_row_gives_the_median_seconds_and_each_rates_median)
{
	double v[] = { 2e9, 1e9, 4e9 };
	struct tp_result r = { .mode = "shm", .units = 100, .start = "ready" };
	char path[64], *text;
	FILE *f = temp_output("tp-rates-table", path);
	size_t len;

	tp_stats__of(v, 3, &r.ns);
	cr_assert_eq(tp_result__rate(&r, "units_per_s", "u/s", 100, v, 3), 0);
	cr_assert_eq(tp_result__rate(&r, "mib_per_s", "MiB/s", 3.0, v, 3), 0);
	tp_table__rates_header(f, "mode", &r, "msg");
	tp_table__rates_row(f, "shm busy end-to-end", &r, "2 batches");
	cr_assert_eq(fclose(f), 0);
	text = read_file(path, &len);
	cr_assert(strstr(text, "mode                               median s        u/s      MiB/s     ns/msg        sd"
			       "        min     median        max  per run\n"), "%s", text);
	cr_assert(strstr(text, "shm busy end-to-end                  2.0000       50.0        1.5 23333333.3 "
			       "15275252.3 10000000.0 20000000.0 40000000.0  2 batches\n"), "%s", text);
	free(text);
	unlink(path);
}
