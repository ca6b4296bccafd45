// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_workload.c - the JSON report of workload runs (json_workload.c),
 * and the JSON writer it is written with. Every document written here is
 * read back by python3's json module, strictly (no NaN, no duplicate keys,
 * UTF-8 only), and its content compared with what was written.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "explain.h"
#include "json_workload.h"
#include "json_writer.h"
#include "readback.h"

static char path[64];
static FILE *out;

static void open_tmp(void)
{
	out = temp_output("json", path);
}

static void remove_tmp(void)
{
	if (out)
		fclose(out);
	out = NULL;
	if (path[0])
		unlink(path);
	path[0] = '\0';
}

/* close_tmp - the document is complete: close it so python reads all of it */
static void close_tmp(void)
{
	cr_assert_eq(fclose(out), 0);
	out = NULL;
}

/* py_literal - @s as a python string literal, every byte but letters, digits and spaces escaped */
static const char *py_literal(char *buf, size_t len, const char *s)
{
	size_t n = snprintf(buf, len, "'");

	for (; *s && n + 6 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ')
			n += snprintf(buf + n, len - n, "%c", c);
		else
			n += snprintf(buf + n, len - n, "\\x%02x", c);
	}
	cr_assert_eq(*s, '\0', "python literal longer than %zu bytes", len);
	snprintf(buf + n, len - n, "'");
	return buf;
}

static char *slurp(void)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	cr_assert_not_null(f);
	cr_assert_not_null(buf);
	n = fread(buf, 1, 65535, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

TestSuite(json_writer, .init = open_tmp, .fini = remove_tmp);

/* write_nested - {"a": [1, [], {}, [-2, true]], "b": {"c": {"d": null}}, "e": false}, whole */
static void write_nested(struct json_writer *w)
{
	json_writer__begin_object(w);
	json_writer__key(w, "a");
	json_writer__begin_array(w);
	json_writer__uint(w, 1);
	json_writer__begin_array(w);
	json_writer__end_array(w);
	json_writer__begin_object(w);
	json_writer__end_object(w);
	json_writer__begin_array(w);
	json_writer__int(w, -2);
	json_writer__bool(w, true);
	json_writer__end_array(w);
	json_writer__end_array(w);
	json_writer__key(w, "b");
	json_writer__begin_object(w);
	json_writer__key(w, "c");
	json_writer__begin_object(w);
	json_writer__key(w, "d");
	json_writer__null(w);
	json_writer__end_object(w);
	json_writer__end_object(w);
	json_writer__key(w, "e");
	json_writer__bool(w, false);
	json_writer__end_object(w);
}

Test(json_writer, quote_backslash_and_control_characters_are_escaped)
{
	struct json_writer w;
	char *text;

	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__string(&w, "say \"hi\"");
	json_writer__string(&w, "back\\slash");
	json_writer__string(&w, "nl\n tab\t one\x01 us\x1f del\x7f");
	json_writer__string(&w, "");
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "assert d == ['say \"hi\"', 'back\\\\slash', 'nl\\n tab\\t one\\x01 us\\x1f del\\x7f', "
			   "''], d"));
	text = slurp();
	/* controls as \u00XX, never raw: a raw one would not parse above anyway */
	cr_assert(strstr(text, "nl\\u000a tab\\u0009 one\\u0001 us\\u001f"), "%s", text);
	cr_assert(strstr(text, "\"say \\\"hi\\\"\""), "%s", text);
	free(text);
}

Test(json_writer, valid_utf8_passes_and_every_other_high_byte_becomes_its_u00XX)
{
	/* a comm of exactly 16 bytes, no NUL, then more bytes that must not be read */
	static const char comm[20] = "wp-hog\xff-abcdefghXYZ";
	struct json_writer w;
	char *text;

	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__string(&w, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");	/* é € and an emoji */
	json_writer__string(&w, "lone \xff");
	json_writer__string_n(&w, "cut \xc3\xa9", 5);				/* the é cut after its first byte */
	json_writer__string(&w, "overlong \xc0\xaf");
	json_writer__string(&w, "surrogate \xed\xa0\x80");
	json_writer__string(&w, "past max \xf4\x90\x80\x80");
	json_writer__string(&w, "stray continuation \x80");
	json_writer__string_n(&w, comm, 16);
	json_writer__string_n(&w, "short\0hidden", 16);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "assert d == ['caf\\u00e9 \\u20ac \\U0001F600', 'lone \\xff', 'cut \\xc3', "
			   "'overlong \\xc0\\xaf', 'surrogate \\xed\\xa0\\x80', 'past max \\xf4\\x90\\x80\\x80', "
			   "'stray continuation \\x80', 'wp-hog\\xff-abcdefgh', 'short'], d"));
	text = slurp();
	cr_assert(strstr(text, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "valid UTF-8 is copied: %s", text);
	cr_assert(strstr(text, "lone \\u00ff"), "%s", text);
	free(text);
}

Test(json_writer, nesting_places_commas_and_pretty_prints_like_jq)
{
	static const char expected[] =
		"{\n"
		"  \"a\": [\n"
		"    1,\n"
		"    [],\n"
		"    {},\n"
		"    [\n"
		"      -2,\n"
		"      true\n"
		"    ]\n"
		"  ],\n"
		"  \"b\": {\n"
		"    \"c\": {\n"
		"      \"d\": null\n"
		"    }\n"
		"  },\n"
		"  \"e\": false\n"
		"}\n";
	struct json_writer w;
	char *text;

	json_writer__init(&w, out);
	write_nested(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "assert d == {'a': [1, [], {}, [-2, True]], 'b': {'c': {'d': None}}, 'e': False}, d"));
	text = slurp();
	cr_assert_str_eq(text, expected);
	free(text);
}

Test(json_writer, compact_has_no_whitespace_but_the_line_breaks_asked_for)
{
	static const char expected[] =
		"{\"a\":[1,[],{},[-2,true]],\"b\":{\"c\":{\"d\":null}},\"e\":false}\n"
		"{\"events\":[\n"
		"{\"n\":1,\"s\":\"x y\"},\n"
		"{\"n\":2}\n"
		"],\n"
		"\"none\":[\n"
		"],\n"
		"\"other\":{\"k\":[3,4]}}\n";
	struct json_writer w;
	char *text;

	json_writer__init_compact(&w, out);
	write_nested(&w);
	cr_assert_eq(json_writer__finish(&w), 0);

	/* a trace's shape: one event a line, the closing bracket on its own, an empty list too */
	json_writer__init_compact(&w, out);
	json_writer__begin_object(&w);
	json_writer__key(&w, "events");
	json_writer__begin_array(&w);
	json_writer__line_break(&w);
	json_writer__begin_object(&w);
	json_writer__key(&w, "n");
	json_writer__uint(&w, 1);
	json_writer__key(&w, "s");
	json_writer__string(&w, "x y");
	json_writer__end_object(&w);
	json_writer__line_break(&w);
	json_writer__begin_object(&w);
	json_writer__key(&w, "n");
	json_writer__uint(&w, 2);
	json_writer__end_object(&w);
	json_writer__line_break(&w);
	json_writer__end_array(&w);
	json_writer__line_break(&w);
	json_writer__key(&w, "none");
	json_writer__begin_array(&w);
	json_writer__line_break(&w);
	json_writer__end_array(&w);
	json_writer__line_break(&w);
	json_writer__key(&w, "other");
	json_writer__begin_object(&w);
	json_writer__key(&w, "k");
	json_writer__begin_array(&w);
	json_writer__uint(&w, 3);
	json_writer__uint(&w, 4);
	json_writer__end_array(&w);
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	text = slurp();
	cr_assert_str_eq(text, expected);
	free(text);
}

Test(json_writer, a_pretty_document_places_its_own_lines_and_ignores_line_breaks)
{
	static const char expected[] =
		"{\n"
		"  \"a\": [\n"
		"    1,\n"
		"    []\n"
		"  ]\n"
		"}\n";
	struct json_writer w;
	char *text;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__line_break(&w);
	json_writer__key(&w, "a");
	json_writer__begin_array(&w);
	json_writer__line_break(&w);
	json_writer__uint(&w, 1);
	json_writer__begin_array(&w);
	json_writer__line_break(&w);
	json_writer__end_array(&w);
	json_writer__end_array(&w);
	json_writer__line_break(&w);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	text = slurp();
	cr_assert_str_eq(text, expected);
	free(text);
}

Test(json_writer, fixed_point_numbers_keep_every_digit_and_read_back_exactly)
{
	static const char expected[] =
		"[0.000,1000000200.123,18446744073709551.615,5,1.8446744073709551615,0.0000000000000000007]\n";
	struct json_writer w;
	FILE *sink;
	char *text;

	json_writer__init_compact(&w, out);
	json_writer__begin_array(&w);
	json_writer__fixed_point(&w, 0, 3);
	json_writer__fixed_point(&w, 1000000200123ull, 3);
	json_writer__fixed_point(&w, UINT64_MAX, 3);
	json_writer__fixed_point(&w, 5, 0);
	json_writer__fixed_point(&w, UINT64_MAX, 19);
	json_writer__fixed_point(&w, 7, 19);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	text = slurp();
	cr_assert_str_eq(text, expected);
	free(text);
	cr_assert(json_check(path, "import decimal\n"
			   "D = decimal.Decimal\n"
			   "x = json.load(open(sys.argv[1]), parse_float=D)\n"
			   "assert x == [D('0'), D('1000000200.123'), D('18446744073709551.615'), 5,\n"
			   "             D('1.8446744073709551615'), D('7e-19')], x"));

	/* 10^20 does not fit: a misuse */
	sink = fopen("/dev/null", "w");
	cr_assert_not_null(sink);
	json_writer__init(&w, sink);
	json_writer__begin_array(&w);
	json_writer__fixed_point(&w, 1, 20);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);
	fclose(sink);
}

Test(json_writer, integers_are_exact_to_the_last_digit)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__uint(&w, UINT64_MAX);
	json_writer__uint(&w, UINT64_MAX - 1);
	json_writer__int(&w, INT64_MIN);
	json_writer__int(&w, INT64_MAX);
	json_writer__uint(&w, 0);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "assert d == [18446744073709551615, 18446744073709551614, -9223372036854775808, "
			   "9223372036854775807, 0], d\n"
			   "assert all(type(x) is int for x in d), d"));
}

Test(json_writer, doubles_read_back_the_same_and_nan_or_inf_become_null)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__double(&w, NAN);
	json_writer__double(&w, INFINITY);
	json_writer__double(&w, -INFINITY);
	json_writer__double(&w, 0.1);
	json_writer__double(&w, 1.0 / 3.0);
	json_writer__double(&w, -2.5e-7);
	json_writer__double(&w, 1e300);
	json_writer__double(&w, 2793.435762953727);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "assert d[:3] == [None, None, None], d\n"
			   "assert d[3:] == [0.1, 1 / 3, -2.5e-7, 1e300, 2793.435762953727], d"));
	cr_assert(json_check(path, "assert open(sys.argv[1]).read().count('0.1,') == 1, 'shortest form'"));
}

Test(json_writer, misuse_cuts_the_document_short_and_finish_says_so)
{
	struct json_writer w;
	int i;

	/* a value in an object without its key */
	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__uint(&w, 1);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);

	/* a key in an array */
	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__key(&w, "k");
	cr_assert_eq(json_writer__finish(&w), -EINVAL);

	/* an end that does not match its begin */
	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);

	/* a second top-level value */
	json_writer__init(&w, out);
	json_writer__null(&w);
	json_writer__null(&w);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);

	/* unfinished */
	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);

	/* one level too deep */
	json_writer__init(&w, out);
	for (i = 0; i <= JSON_WRITER_MAX_DEPTH; i++)
		json_writer__begin_array(&w);
	cr_assert_eq(json_writer__finish(&w), -E2BIG);
}

Test(json_writer, the_deepest_allowed_nesting_is_valid_json)
{
	struct json_writer w;
	int i;

	json_writer__init(&w, out);
	for (i = 0; i < JSON_WRITER_MAX_DEPTH; i++)
		json_writer__begin_array(&w);
	json_writer__uint(&w, 7);
	for (i = 0; i < JSON_WRITER_MAX_DEPTH; i++)
		json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(json_check(path, "x = d\n"
			   "for _ in range(%d):\n"
			   "    assert type(x) is list and len(x) == 1, x\n"
			   "    x = x[0]\n"
			   "assert x == 7, x", JSON_WRITER_MAX_DEPTH));
}

Test(json_writer, a_write_error_is_reported_at_the_end)
{
	FILE *full = fopen("/dev/full", "w");
	struct json_writer w;

	if (!full)
		cr_skip_test("no /dev/full here");
	json_writer__init(&w, full);
	json_writer__begin_object(&w);
	json_writer__key(&w, "k");
	json_writer__string(&w, "v");
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), -EIO);
	fclose(full);
}

/* ---- the report ---- */

#define NR_PLAIN	20	/* complete samples of the synthetic run, before the slow one */
#define SLOW_SEQ	(NR_PLAIN + 1)
#define HOG_PID		4242
/* 16 bytes, no NUL: a comm as the kernel leaves it, with a byte that is not UTF-8 */
#define HOG_COMM	"wp-hog\xff-abcdefgh"
#define HOG_COMM_PY	"wp-hog\\xff-abcdefgh"

static struct run_result *res[2];

static void report_setup(void)
{
	open_tmp();
	res[0] = calloc(1, sizeof(*res[0]));
	res[1] = calloc(1, sizeof(*res[1]));
	cr_assert(res[0] && res[1]);
}

static void report_teardown(void)
{
	free(res[0]);
	free(res[1]);
	remove_tmp();
}

TestSuite(json_report, .init = report_setup, .fini = report_teardown);

static struct sample_result labelled_sample(uint64_t seq, enum sample_label label, int64_t total_ns)
{
	struct sample_result s;

	memset(&s, 0, sizeof(s));
	s.sample.seq = seq;
	s.t_notify_ns = 1000000 * seq;
	s.t_woken_ns = s.t_notify_ns + (uint64_t)total_ns;
	s.total_ns = total_ns;
	s.label = label;
	return s;
}

/* a complete phased sample whose phases are all unexplained time */
static struct sample_result phased_sample(uint64_t seq, const int64_t phase_ns[NR_PHASES])
{
	struct sample_result s = labelled_sample(seq, LABEL_COMPLETE, 0);
	int k;

	s.phased = true;
	for (k = 0; k < NR_PHASES; k++) {
		s.phase_ns[k] = phase_ns[k];
		s.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = phase_ns[k];
		s.total_ns += phase_ns[k];
	}
	s.why.by_cause[CAUSE_UNEXPLAINED] = s.total_ns;
	s.t_woken_ns = s.t_notify_ns + (uint64_t)s.total_ns;
	s.waking_cpu = 0;
	s.wakeup_cpu = 1;
	s.target_cpu = 1;
	return s;
}

/* name - move @ns of phase @k from unexplained to @iv's cause */
static void name_part(struct sample_result *s, struct interval iv)
{
	s->why.iv[s->why.nr_iv++] = iv;
	s->why.by_phase_cause[iv.phase][CAUSE_UNEXPLAINED] -= (int64_t)iv.dur_ns;
	s->why.by_cause[CAUSE_UNEXPLAINED] -= (int64_t)iv.dur_ns;
	s->why.by_phase_cause[iv.phase][iv.cause] += (int64_t)iv.dur_ns;
	s->why.by_cause[iv.cause] += (int64_t)iv.dur_ns;
}

/*
 * the slow one: runq_wait held by a task, an irq and a softirq, an idle
 * target in wake_enqueue, a migration and a second wait
 */
static struct sample_result slow_sample(void)
{
	static const int64_t phases[NR_PHASES] = { 500, 1000, 4000, 50000, 800, 700 };
	struct sample_result s = phased_sample(SLOW_SEQ, phases);
	struct interval irq = { .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 5000,
				.irq_kind = WP_IRQ_HARD, .nr = 24, .name = "virtio0-input.0" };
	struct interval task = { .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 30000,
				 .pid = HOG_PID, .prio = 120, .left_known = true, .preempted = true };
	struct interval softirq = { .cause = CAUSE_SOFTIRQ, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 2000,
				    .irq_kind = WP_IRQ_SOFT, .nr = 1 };
	struct interval idle = { .cause = CAUSE_IDLE, .phase = PHASE_WAKE_ENQUEUE, .cpu = 1, .dur_ns = 3000 };

	memcpy(task.name, HOG_COMM, sizeof(task.name));
	/* not in time order, nor by length: the report sorts them */
	name_part(&s, irq);
	name_part(&s, task);
	name_part(&s, softirq);
	name_part(&s, idle);
	s.target_was_idle = true;
	s.idle_exit_seen = true;
	s.idle_exit_ns = 1234;
	s.why.migrations = 1;
	s.why.migrated_from = 0;
	s.why.migrated_to = 1;
	s.rewait_seen = true;
	s.rewait_ns = 300;
	return s;
}

static void fill_meta(struct run_result *r)
{
	snprintf(r->meta.version, sizeof(r->meta.version), "0.1.0");
	snprintf(r->meta.kernel, sizeof(r->meta.kernel), "6.1.0-test");
	snprintf(r->meta.machine, sizeof(r->meta.machine), "x86_64");
	snprintf(r->meta.hostname, sizeof(r->meta.hostname), "probe-host");
	r->meta.nr_cpus = 2;
	r->meta.started_unix_ns = 1700000000123456789ull;
	r->waker_tid = 100;
	r->wakee_tid = 101;
	snprintf(r->workload_exit, sizeof(r->workload_exit), "exited with status 0");
}

/* a clock of 3000 MHz, five pairs 1 ms apart: a perfect fit */
static void fill_clock(struct tsc_clock *clk)
{
	unsigned int i;

	tsc_clock__init(clk);
	for (i = 0; i < 5; i++) {
		struct tsc_pair p = { .tsc = 1000000000ull + i * 3000000ull, .mono_ns = 5000000000ull + i * 1000000ull,
				      .width = 10 };

		tsc_clock__add_pair(clk, &p);
	}
}

/*
 * traced_eventfd - 20 plain complete samples, the slow one, and four kept
 * out of the table; one sample sent was never read, and the run was
 * interrupted
 */
static void traced_eventfd(struct run_result *r)
{
	struct sample_result s;
	uint64_t seq;

	fill_meta(r);
	fill_clock(&r->clock);
	aggregate__init(&r->agg);
	aggregate__want_outliers(&r->agg, 3, 0);
	for (seq = 1; seq <= NR_PLAIN; seq++) {
		int64_t phases[NR_PHASES] = { 500, 1000, 2000 + 10 * (int64_t)seq, 3000, 800, 400 };

		s = phased_sample(seq, phases);
		aggregate__add(&r->agg, &s);
	}
	s = slow_sample();
	aggregate__add(&r->agg, &s);
	s = labelled_sample(SLOW_SEQ + 1, LABEL_NO_SLEEP, 9000);
	aggregate__add(&r->agg, &s);
	s = labelled_sample(SLOW_SEQ + 2, LABEL_NO_SLEEP, 9500);
	aggregate__add(&r->agg, &s);
	s = labelled_sample(SLOW_SEQ + 3, LABEL_MISSING_EVENT, 12000);
	s.missing = MARK_SWITCH_IN;
	aggregate__add(&r->agg, &s);
	s = labelled_sample(SLOW_SEQ + 4, LABEL_LOST_EVENTS, 15000);
	aggregate__add(&r->agg, &s);
	cause_totals__sort_tasks(&r->agg.causes);

	r->traced = true;
	r->samples_sent = r->agg.samples + 1;
	r->interrupted = true;
	r->counters.dropped[WP_EV_SWITCH] = 4;
	r->counters.dropped[WP_EV_IRQ] = 1;
	r->drops_total = 5;
	r->missed_runs = 2;
	r->merge.events = 12345;
	r->merge.late_events = 3;
	r->merge.migrations = 2;
}

/* report_config - the settings of the runs made up here; they keep 3 outliers (aggregate__want_outliers) */
static struct run_config report_config(const char *workload, bool trace)
{
	struct run_config cfg = {
		.workload = catalog__find(workload),
		.samples = 25,
		.interval_us = 500,
		.waker_cpu = 0,
		.wakee_cpu = 1,
		.traced = trace,
		.ringbuf_bytes = 8 << 20,
	};

	cr_assert_not_null(cfg.workload);
	return cfg;
}

static void print_json(const struct run_config *cfg, const struct workload_desc *const *wl, size_t n)
{
	cr_assert_eq(json_workload__print(out, cfg, wl, (const struct run_result *const *)res, n), 0);
	close_tmp();
}

/*
 * expect_stats - a python dict of what each distribution must say, from the
 * histograms themselves: count, min, p50, p90, p99, p99.9, max, mean
 */
static char *expect_stats(const struct aggregate *a, bool phased)
{
	const struct {
		const char *name;
		const struct histogram *h;
	} dists[] = {
		{ "notify_user", &a->phase[PHASE_NOTIFY_USER] },
		{ "notify_kernel", &a->phase[PHASE_NOTIFY_KERNEL] },
		{ "wake_enqueue", &a->phase[PHASE_WAKE_ENQUEUE] },
		{ "runq_wait", &a->phase[PHASE_RUNQ_WAIT] },
		{ "resume_kernel", &a->phase[PHASE_RESUME_KERNEL] },
		{ "resume_user", &a->phase[PHASE_RESUME_USER] },
		{ "idle_exit", &a->idle_exit },
		{ "mutex_reacquire", &a->rewait },
		{ "total", &a->total },
		{ "all_samples_total", &a->all_total },
		{ "waiter_cpu", &a->wait_cpu },
	};
	char *buf = calloc(1, 8192);
	size_t len = 0, i;

	cr_assert_not_null(buf);
	len += snprintf(buf + len, 8192 - len, "{");
	for (i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		const struct histogram *h = dists[i].h;

		if (!phased && i < 8)
			continue;
		if (!h->count) {
			len += snprintf(buf + len, 8192 - len, "'%s': (0, None, None, None, None, None, None, None), ",
					dists[i].name);
			continue;
		}
		len += snprintf(buf + len, 8192 - len, "'%s': (%lu, %lu, %lu, %lu, %lu, %lu, %lu, %lld), ",
				dists[i].name, h->count, h->min, histogram__percentile(h, 50),
				histogram__percentile(h, 90), histogram__percentile(h, 99),
				histogram__percentile(h, 99.9), h->max, llround(histogram__mean(h)));
	}
	snprintf(buf + len, 8192 - len, "}");
	return buf;
}

Test(json_report, a_traced_run_carries_every_key_and_the_figures_of_the_text_report)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };
	const struct aggregate *a = &res[0]->agg;
	char *stats, labels[512], *p = labels, summary[512];
	int l;

	traced_eventfd(res[0]);
	print_json(&cfg, wl, 1);

	cr_assert(json_check(path, "%s", json_report_keys));
	cr_assert_eq(a->by_label[LABEL_COMPLETE], SLOW_SEQ);
	for (l = 0; l < NR_LABELS; l++)
		p += sprintf(p, "'%s': %lu, ", wakeup__label_name(l), a->by_label[l]);
	cr_assert(json_check(path, "run = d['runs'][0]\n"
			   "s = run['samples']\n"
			   "assert s['by_label'] == {%s}, s['by_label']\n"
			   "assert s['by_label']['complete'] == 21 and s['by_label']['no_sleep'] == 2, s\n"
			   "assert sum(s['by_label'].values()) == s['seen'] == 25, s\n"
			   "assert (s['sent'], s['complete'], s['not_in_table']) == (26, 21, 4), s\n"
			   "assert s['missing_by_mark'] == {'notify_enter': 0, 'waking': 0, 'wakeup': 0, "
			   "'switch_in': 1, 'wait_exit': 0}, s\n"
			   "assert run['warnings'] == ['WARNING: 7 events lost, 1 samples marked lost_events (not attributed); "
			    "raise --ringbuf-kb', 'WARNING: 26 samples were sent but 25 were read', "
			   "'NOTE: interrupted: the figures cover the samples taken until then'], run['warnings']\n"
			   "assert run['interrupted'] is True and run['workload_failed'] is False, run\n"
			   "assert run['workload_error'] is None, run\n"
			   "assert run['workload_exit'] == 'exited with status 0', run\n"
			   "assert run['workload'] == {'name': 'eventfd', 'summary': %s, 'user_only': False}\n"
			   "assert run['options'] == {'samples': 25, 'interval_us': 500, 'waker_cpu': 0, "
			   "'wakee_cpu': 1, 'traced': True, 'lean': False, 'ringbuf_bytes': 8388608, 'outliers': 3, "
			   "'outlier_threshold_ns': 0}, run['options']\n"
			   "assert run['meta'] == {'wakeprobe_version': '0.1.0', 'kernel': '6.1.0-test', "
			   "'machine': 'x86_64', 'hostname': 'probe-host', 'nr_cpus': 2, "
			   "'started_unix_ns': 1700000000123456789}, run['meta']\n"
			   "assert run['threads'] == {'waker_tid': 100, 'wakee_tid': 101}\n"
			   "assert run['duration_ns'] == %lu, run['duration_ns']\n"
			   "c = run['clock']\n"
			   "assert abs(c['tsc_mhz'] - 3000) < 1e-6 and c['pairs'] == 5, c\n"
			   "assert abs(c['span_s'] - 0.004) < 1e-12, c\n"
			   "assert c['fit_residual_max_ns'] == 0 and c['conversion_error_max_ns'] == 0, c\n"
			   "e = run['events']\n"
			   "assert (e['recorded'], e['dropped'], e['missed_runs'], e['late'], e['evicted']) == "
			   "(12345, 5, 2, 3, 0), e\n"
			   "assert e['dropped_by_type']['switch'] == 4 and e['dropped_by_type']['irq'] == 1, e\n"
			   "assert sum(e['dropped_by_type'].values()) == 5 and len(e['dropped_by_type']) == 15, e\n"
			   "assert e['lean_woke_running'] is None and e['lean_no_storage'] is None, e\n"
			   "assert run['migrations'] == {'all': 2, 'inside_wakeups': 1}, run['migrations']\n"
			   "assert run['sub_phases'] == {'target_idle': 1, 'remote_wakeups': 21, 'waker_preempted': 0, "
			   "'waiter_syscalls': None, 'phase_sum_mismatch': 0}, run['sub_phases']\n",
			   labels, py_literal(summary, sizeof(summary), cfg.workload->summary),
			   a->last_woken_ns - a->first_notify_ns));

	stats = expect_stats(a, true);
	cr_assert(json_check(path, "exp = %s\n"
			   "st = d['runs'][0]['stats']\n"
			   "assert sorted(exp) == sorted(st), sorted(st)\n"
			   "for name, e in exp.items():\n"
			   "    s = st[name]\n"
			   "    got = (s['count'], s['min_ns'], s['p50_ns'], s['p90_ns'], s['p99_ns'], s['p999_ns'], "
			   "s['max_ns'], s['mean_ns'])\n"
			   "    assert got == e, (name, got, e)\n"
			   "assert st['notify_user']['histogram'] == [{'low_ns': 256, 'high_ns': 511, 'count': 21}]\n"
			   "assert [(b['low_ns'], b['count']) for b in st['runq_wait']['histogram']] == "
			   "[(2048, 20), (4096, 0), (8192, 0), (16384, 0), (32768, 1)], st['runq_wait']['histogram']\n"
			   "assert st['idle_exit']['count'] == 1 and st['mutex_reacquire']['p50_ns'] == 300, st\n"
			   "assert st['waiter_cpu'] == {'count': 0, 'min_ns': None, 'p50_ns': None, 'p90_ns': None, "
			   "'p99_ns': None, 'p999_ns': None, 'max_ns': None, 'mean_ns': None, 'histogram': []}, st\n",
			   stats));
	free(stats);
}

Test(json_report, causes_tasks_and_outliers_are_computed_as_the_text_report_does)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };
	const struct aggregate *a;
	char desc[128];

	traced_eventfd(res[0]);
	a = &res[0]->agg;
	print_json(&cfg, wl, 1);
	explain__describe_interval(&a->outliers[0].why.iv[1], desc, sizeof(desc));
	cr_assert_eq(a->outliers[0].why.iv[1].cause, CAUSE_OTHER_TASK);

	cr_assert(json_check(path, "run = d['runs'][0]\n"
			   "complete = 21\n"
			   "total = sum(7700 + 10 * s for s in range(1, 21)) + 57000\n"
			   "assert run['explained_total_ns'] == total == %ld, run['explained_total_ns']\n"
			   "causes = {c['cause']: c for c in run['causes']}\n"
			   "assert sorted(causes) == ['idle', 'irq', 'other_task', 'softirq', 'unexplained'], causes\n"
			   "assert [c['ns'] for c in run['causes']] == [3000, 30000, 5000, 2000, total - 40000]\n"
			   "for c in run['causes']:\n"
			   "    assert abs(c['share'] - c['ns'] / total) < 1e-12, c\n"
			   "    assert c['per_wakeup_ns'] == int(c['ns'] / complete + 0.5), c\n"
			   "    assert c['meaning'], c\n"
			   "assert abs(sum(c['share'] for c in run['causes']) - 1) < 1e-9\n"
			   "assert run['tasks'] == [{'pid': %d, 'comm': '" HOG_COMM_PY "', 'ns': 30000, "
			   "'share': 30000 / total, 'per_wakeup_ns': 1429}], run['tasks']\n"
			   "assert run['untabled_task_ns'] == 0\n",
			   a->causes.explained_total_ns, HOG_PID));

	cr_assert(json_check(path, "o = d['runs'][0]['outliers']\n"
			   "assert (o['wanted'], o['threshold_ns'], o['candidates']) == (3, 0, 21), o\n"
			   "s = o['samples']\n"
			   "assert [(x['rank'], x['seq']) for x in s] == [(1, 21), (2, 20), (3, 19)], s\n"
			   "assert [x['total_ns'] for x in s] == [57000, 7900, 7890], s\n"
			   "median = %lu\n"
			   "assert all(x['median_total_ns'] == median for x in s)\n"
			   "assert abs(s[0]['ratio_to_median'] - 57000 / median) < 1e-12, s[0]\n"
			   "assert s[0]['grew_most'] == {'phase': 'runq_wait', 'over_median_ns': 50000 - %lu}, s[0]\n"
			   "assert s[1]['grew_most'] == {'phase': 'wake_enqueue', 'over_median_ns': 2200 - %lu}, s[1]\n"
			   "x = s[0]\n"
			   "assert (x['waking_cpu'], x['wakeup_cpu'], x['target_cpu']) == (0, 1, 1), x\n"
			   "assert x['queued_remotely'] is True and x['target_was_idle'] is True, x\n"
			   "assert x['idle_exit_ns'] == 1234 and x['mutex_reacquire_ns'] == 300, x\n"
			   "assert x['migration'] == {'from': 0, 'to': 1, 'count': 1} and x['more_intervals'] == 0, x\n"
			   "runq = x['phases'][3]\n"
			   "assert runq['ns'] == 50000 and runq['unexplained_ns'] == 13000, runq\n"
			   "parts = runq['parts']\n"
			   "assert [p['ns'] for p in parts] == [30000, 5000, 2000], 'longest first: %%s' %% parts\n"
			   "assert parts[0] == {'cause': 'other_task', 'description': \"%s\", "
			   "'ns': 30000, 'cpu': 1, 'pid': %d, 'name': '" HOG_COMM_PY "', 'prio': 120, "
			   "'irq_kind': None, 'nr': None, 'left_known': True, 'preempted': True}, parts[0]\n"
			   "assert parts[1] == {'cause': 'irq', 'description': \"irq 24 'virtio0-input.0' on CPU 1\", "
			   "'ns': 5000, 'cpu': 1, 'pid': None, 'name': 'virtio0-input.0', 'prio': None, "
			   "'irq_kind': 'irq', 'nr': 24, 'left_known': None, 'preempted': None}, parts[1]\n"
			   "assert parts[2] == {'cause': 'softirq', 'description': 'softirq TIMER on CPU 1', "
			   "'ns': 2000, 'cpu': 1, 'pid': None, 'name': None, 'prio': None, 'irq_kind': 'softirq', "
			   "'nr': 1, 'left_known': None, 'preempted': None}, parts[2]\n"
			   "enq = x['phases'][2]\n"
			   "assert [p['cause'] for p in enq['parts']] == ['idle'], enq\n"
			   "assert enq['unexplained_ns'] == 1000, enq\n"
			   "assert enq['parts'][0]['description'] == 'CPU 1 idle', enq\n"
			   "y = s[1]\n"
			   "assert y['idle_exit_ns'] is None and y['migration'] is None, y\n"
			   "assert y['mutex_reacquire_ns'] is None, y\n"
			   "assert all(p['parts'] == [] and p['unexplained_ns'] == p['ns'] for p in y['phases']), y\n",
			   histogram__percentile(&a->total, 50), histogram__percentile(&a->phase[PHASE_RUNQ_WAIT], 50),
			   histogram__percentile(&a->phase[PHASE_WAKE_ENQUEUE], 50),
			   "'" HOG_COMM_PY "' pid 4242 prio 120 ran on CPU 1 (then preempted)", HOG_PID));
	/* the description is explain.c's, byte for byte */
	cr_assert_str_eq(desc, "'" HOG_COMM "' pid 4242 prio 120 ran on CPU 1 (then preempted)");
}

Test(json_report, an_untraced_run_has_totals_and_null_wherever_tracing_was_needed)
{
	struct run_config cfg = report_config("eventfd", false);
	const struct workload_desc *wl[] = { cfg.workload };
	struct run_result *r = res[0];
	char *stats;
	uint64_t i;

	fill_meta(r);
	fill_clock(&r->clock);
	aggregate__init(&r->agg);
	aggregate__want_outliers(&r->agg, 3, 0);
	for (i = 1; i <= 10; i++)
		aggregate__add_untraced(&r->agg, 1000000 * i, 1000000 * i + 20000 + 1000 * i, 0);
	r->samples_sent = 10;
	print_json(&cfg, wl, 1);

	cr_assert(json_check(path, "%s", json_report_keys));
	stats = expect_stats(&r->agg, false);
	cr_assert(json_check(path, "run = d['runs'][0]\n"
			   "assert run['options']['traced'] is False\n"
			   "assert all(v is None for v in run['events'].values()), run['events']\n"
			   "s = run['samples']\n"
			   "assert (s['sent'], s['seen'], s['out_of_sequence']) == (10, 10, 0), s\n"
			   "assert [s[k] for k in ('complete', 'not_in_table', 'by_label', 'missing_by_mark')] == "
			   "[None] * 4, s\n"
			   "st = run['stats']\n"
			   "for k in ('notify_user', 'notify_kernel', 'wake_enqueue', 'runq_wait', 'resume_kernel', "
			   "'resume_user', 'total', 'idle_exit', 'mutex_reacquire'):\n"
			   "    assert st[k] is None, (k, st[k])\n"
			   "exp = %s\n"
			   "for name in ('all_samples_total', 'waiter_cpu'):\n"
			   "    t = st[name]\n"
			   "    got = (t['count'], t['min_ns'], t['p50_ns'], t['p90_ns'], t['p99_ns'], t['p999_ns'], "
			   "t['max_ns'], t['mean_ns'])\n"
			   "    assert got == exp[name], (name, got, exp[name])\n"
			   "assert st['all_samples_total']['count'] == 10, st\n"
			   "assert st['all_samples_total']['min_ns'] == 21000, st\n"
			   "assert all(v is None for v in run['sub_phases'].values()), run['sub_phases']\n"
			   "assert all(v is None for v in run['migrations'].values()), run['migrations']\n"
			   "for k in ('causes', 'explained_total_ns', 'tasks', 'untabled_task_ns'):\n"
			   "    assert run[k] is None, (k, run[k])\n"
			   "assert run['outliers'] == {'wanted': 3, 'threshold_ns': 0, 'candidates': None, "
			   "'samples': None}\n"
			   "assert run['warnings'] == [] and run['duration_ns'] == 10000000 + 30000 - 1000000, run\n",
			   stats));
	free(stats);
}

Test(json_report, two_runs_one_with_no_kernel_in_its_path_make_one_document)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { catalog__find("eventfd"), catalog__find("spin") };
	struct run_result *r = res[1];
	struct sample_result s;
	char summary[512];
	uint64_t seq;

	cr_assert_not_null(wl[1]);
	cr_assert(wl[1]->user_only);
	traced_eventfd(res[0]);
	fill_meta(r);
	fill_clock(&r->clock);
	aggregate__init(&r->agg);
	aggregate__want_outliers(&r->agg, 3, 0);
	for (seq = 1; seq <= 8; seq++) {
		s = labelled_sample(seq, seq == 8 ? LABEL_PREEMPTED : LABEL_COMPLETE, 300 + (int64_t)seq);
		s.t_wait_start_ns = s.t_notify_ns - 50000;
		s.waiter_syscalls = seq == 8 ? 2 : 0;
		aggregate__add(&r->agg, &s);
	}
	r->traced = true;
	r->samples_sent = 8;
	r->workload_failed = true;
	snprintf(r->workload_error, sizeof(r->workload_error), "the workload was killed by SIGKILL before it finished");
	print_json(&cfg, wl, 2);

	cr_assert(json_check(path, "%s", json_report_keys));
	cr_assert(json_check(path, "assert len(d['runs']) == 2, len(d['runs'])\n"
			   "a, b = d['runs']\n"
			   "assert a['workload']['name'] == 'eventfd' and a['samples']['complete'] == 21, "
			   "a['workload']\n"
			   "assert b['workload'] == {'name': 'spin', 'summary': %s, 'user_only': True}, b['workload']\n"
			   "assert b['samples']['by_label']['complete'] == 7 and "
			   "b['samples']['by_label']['preempted'] == 1\n"
			   "st = b['stats']\n"
			   "assert st['runq_wait'] is None and st['idle_exit'] is None, st\n"
			   "assert st['mutex_reacquire'] is None, st\n"
			   "assert st['total']['count'] == 7 and st['total']['max_ns'] == 307, st['total']\n"
			   "assert st['all_samples_total']['count'] == 8 and st['waiter_cpu']['count'] == 8, st\n"
			   "assert b['sub_phases'] == {'target_idle': None, 'remote_wakeups': None, "
			   "'waker_preempted': None, "
			   "'waiter_syscalls': 2, 'phase_sum_mismatch': None}, b['sub_phases']\n"
			   "assert b['causes'] is None and b['tasks'] is None and b['outliers']['samples'] is None, b\n"
			   "assert b['events']['recorded'] == 0, b['events']\n"
			   "assert b['migrations'] == {'all': 0, 'inside_wakeups': None}, b['migrations']\n"
			   "assert b['workload_failed'] is True, b\n"
			   "assert b['workload_error'] == 'the workload was killed by SIGKILL before it finished', b\n"
			   "assert b['warnings'] == ['WARNING: workload failed: ' + b['workload_error']], "
			   "b['warnings']\n",
			   py_literal(summary, sizeof(summary), wl[1]->summary)));
}

Test(json_report, a_write_error_is_reported_as_eio)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		cr_skip_test("no /dev/full here");
	traced_eventfd(res[0]);
	cr_assert_eq(json_workload__print(full, &cfg, wl, (const struct run_result *const *)res, 1), -EIO);
	fclose(full);
}

Test(json_report, a_traced_run_carries_its_host_steal_and_tracing_cost)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };
	struct run_result *r = res[0];

	traced_eventfd(r);
	r->steal = (struct host_steal){ .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .nr_cpus = 2,
					.seen_ns = 40000 };
	r->agg.causes.cause_ns[CAUSE_HOST] = 2500;
	r->cost = (struct trace_cost){ .known = true, .self_cpu_ns = 1000 };
	snprintf(r->cost.bpf_stats_why_off, sizeof(r->cost.bpf_stats_why_off), "off");
	r->trace_start_ns = 1000;
	r->trace_end_ns = 3001000;
	r->interrupted = true;
	r->stop_signal = SIGHUP;
	print_json(&cfg, wl, 1);
	/* the cost is per wakeup sent, the records the merger's */
	cr_assert(json_check(path,
		"run = d['runs'][0]\n"
		"h = run['host_steal']\n"
		"assert (h['stolen_ns'], h['in_wakeups_ns'], h['proc_stat_bound_ns']) == (40000, 2500, 40000000), h\n"
		"c = run['tracing_cost']\n"
		"assert (c['wakeups'], c['records'], c['dropped'], c['traced_ns']) == (26, 12345, 5, 3000000), c\n"
		"assert c['bpf_stats_why_not'] == 'off', c\n"
		"assert run['interrupted'] is True and run['interrupted_by'] == 'SIGHUP', run['interrupted_by']\n"
		"assert 'NOTE: interrupted by SIGHUP: the figures cover the samples taken until then' in "
		"run['warnings'], run['warnings']\n"));
}

/* lean_run - a lean run of three complete wakeups, the slowest with its CPU's flight records */
static void lean_run(struct run_result *r)
{
	static const int64_t phases[NR_PHASES] = { 400, 1500, 2000, 3000, 1200, 300 };
	struct sample_result s;
	uint64_t seq;

	fill_meta(r);
	fill_clock(&r->clock);
	aggregate__init(&r->agg);
	aggregate__want_outliers(&r->agg, 2, 0);
	r->agg.lean = true;
	for (seq = 1; seq <= 3; seq++) {
		s = phased_sample(seq, phases);
		memset(&s.why, 0, sizeof(s.why));
		s.lean = true;
		s.wakeup_cpu = seq == 1 ? 1 : 0;
		if (seq == 3) {
			struct interval idle = { .cause = CAUSE_IDLE, .phase = PHASE_WAKE_ENQUEUE, .cpu = 1,
						 .dur_ns = 1500 };

			s.phase_ns[PHASE_RUNQ_WAIT] += 10000;
			s.total_ns += 10000;
			s.t_woken_ns += 10000;
			s.lean_flight = true;
			for (int k = 0; k < NR_PHASES; k++)
				s.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = s.phase_ns[k];
			s.why.by_cause[CAUSE_UNEXPLAINED] = s.total_ns;
			name_part(&s, idle);
		}
		aggregate__add(&r->agg, &s);
	}
	r->traced = true;
	r->samples_sent = 3;
	r->lean.woke_running = 9;
	r->lean.no_storage = 1;
}

/* and its causes are those of the wakeups its flight recorder explained, which it counts */
Test(json_report, a_lean_run_has_six_phases_and_null_for_what_lean_mode_does_not_see)
{
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };

	cfg.lean = true;
	lean_run(res[0]);
	print_json(&cfg, wl, 1);
	cr_assert(json_check(path,
		"run = d['runs'][0]\n"
		"assert run['options']['lean'] is True, run['options']\n"
		"st = run['stats']\n"
		"assert list(st) == ['notify_user', 'notify_kernel', 'wake_enqueue', 'runq_wait', 'resume_kernel', "
		"'resume_user', 'total', 'all_samples_total', 'idle_exit', 'mutex_reacquire', 'waiter_cpu'], list(st)\n"
		"assert (st['notify_kernel']['count'], st['notify_kernel']['p50_ns'], st['resume_kernel']['max_ns']) == "
		"(3, 1500, 1200), st\n"
		"assert (st['notify_user']['p50_ns'], st['resume_user']['p50_ns']) == (400, 300), st\n"
		"assert st['runq_wait']['max_ns'] == 13000 and st['idle_exit'] is None, st\n"
		"assert st['mutex_reacquire'] is None, st\n"
		"e = run['events']\n"
		"assert (e['lean_woke_running'], e['lean_no_storage']) == (9, 1), e\n"
		"assert run['sub_phases'] == {'target_idle': None, 'remote_wakeups': 1, 'waker_preempted': None, "
		"'waiter_syscalls': None, 'phase_sum_mismatch': 0}, run['sub_phases']\n"
		/* the one wakeup its flight records explained */
		"assert run['explained_wakeups'] == 1 and run['explained_total_ns'] == 18400, run\n"
		"assert [(c['cause'], c['ns'], c['per_wakeup_ns']) for c in run['causes']] == "
		"[('idle', 1500, 1500), ('unexplained', 16900, 16900)], run['causes']\n"
		"assert run['tasks'] == [], run['tasks']\n"
		"assert run['migrations'] == {'all': 0, 'inside_wakeups': 0}, run['migrations']\n"
		"o = run['outliers']\n"
		"assert (o['candidates'], len(o['samples'])) == (3, 2), o\n"
		"x, y = o['samples']\n"
		"assert x['seq'] == 3 and x['grew_most'] == {'phase': 'runq_wait', 'over_median_ns': 10000}, x\n"
		"assert x['target_was_idle'] is None and y['target_was_idle'] is None, (x, y)\n"
		"assert [p['phase'] for p in x['phases']] == ['notify_user', 'notify_kernel', 'wake_enqueue', "
		"'runq_wait', 'resume_kernel', 'resume_user'], x\n"
		"enq = x['phases'][2]\n"
		"assert [(p['cause'], p['ns']) for p in enq['parts']] == [('idle', 1500)], enq\n"
		"assert (enq['ns'], enq['own_work_ns'], enq['unexplained_ns']) == (2000, 0, 500), enq\n"
		"assert all(set(p) == {'phase', 'ns'} for p in y['phases']), 'no flight records: no parts'\n"
		"assert [p['ns'] for p in y['phases']] == [400, 1500, 2000, 3000, 1200, 300], y['phases']\n"));
}

Test(json_report, a_run_with_no_sample_and_a_new_thread_each_time_has_null_where_nothing_was_measured)
{
	struct run_config cfg = report_config("thread-start", true);
	const struct workload_desc *wl[] = { cfg.workload };
	struct run_result *r = res[0];
	struct tsc_pair p = { .tsc = 1000, .mono_ns = 5000, .width = 10 };

	cr_assert(cfg.workload->new_task);
	aggregate__init(&r->agg);
	tsc_clock__init(&r->clock);
	tsc_clock__add_pair(&r->clock, &p);
	r->traced = true;
	print_json(&cfg, wl, 1);
	cr_assert(json_check(path,
		"run = d['runs'][0]\n"
		"assert run['threads'] == {'waker_tid': None, 'wakee_new_each_time': True}, run['threads']\n"
		"assert run['duration_ns'] is None, run['duration_ns']\n"
		"assert run['clock'] == {'tsc_mhz': None, 'pairs': 1, 'span_s': None, 'fit_residual_max_ns': None, "
		"'conversion_error_max_ns': None}, run['clock']\n"
		"assert run['workload_exit'] is None and run['interrupted_by'] is None, run\n"
		"s = run['samples']\n"
		"assert (s['sent'], s['seen'], s['out_of_sequence'], s['complete'], s['not_in_table']) == (0,) * 5, s\n"
		"assert set(s['by_label'].values()) == {0} and set(s['missing_by_mark'].values()) == {0}, s\n"
		"assert run['stats']['total']['count'] == 0 and run['stats']['total']['histogram'] == [], run['stats']\n"
		"assert run['causes'] == [] and run['explained_total_ns'] == 0 and run['tasks'] == [], run\n"
		"assert run['outliers']['samples'] == [] and run['outliers']['candidates'] == 0, run['outliers']\n"));
}

/* each kind of part names what its events name, and null what they do not */
Test(json_report, every_kind_of_part_is_written_with_what_its_events_name)
{
	static const int64_t phases[NR_PHASES] = { 100, 200, 5000, 9000, 300, 100 };
	struct run_config cfg = report_config("eventfd", true);
	const struct workload_desc *wl[] = { cfg.workload };
	struct run_result *r = res[0];
	struct interval parts[] = {
		{ .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 1900, .irq_kind = WP_IRQ_TIMER,
		  .nr = 236, .name = "x" },
		{ .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 1800, .irq_kind = WP_IRQ_RESCHED,
		  .nr = 253 },
		{ .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 1700, .irq_kind = WP_IRQ_CALL_FUNC,
		  .nr = 251 },
		{ .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 1600, .pid = 77, .prio = 100,
		  .name = "other" },
		{ .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .cpu = 1, .dur_ns = 1500, .pid = 78, .prio = 120,
		  .left_known = true, .preempted = false, .name = "sleeper" },
		{ .cause = CAUSE_IPI, .phase = PHASE_WAKE_ENQUEUE, .cpu = 1, .dur_ns = 4000 },
		{ .cause = CAUSE_HOST, .phase = PHASE_WAKE_ENQUEUE, .cpu = 1, .dur_ns = 900 },
		{ .cause = CAUSE_WAKEE_PREEMPTED, .phase = PHASE_RESUME_KERNEL, .cpu = 1, .dur_ns = 250,
		  .pid = WP_PID_OUTSIDE | 7, .prio = 120, .left_known = true, .preempted = true, .name = "kworker/1:1" },
	};
	struct sample_result s = phased_sample(1, phases);

	fill_meta(r);
	fill_clock(&r->clock);
	aggregate__init(&r->agg);
	aggregate__want_outliers(&r->agg, 1, 0);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		name_part(&s, parts[i]);
	aggregate__add(&r->agg, &s);
	r->traced = true;
	r->samples_sent = 1;
	print_json(&cfg, wl, 1);
	cr_assert(json_check(path, "%s", json_report_keys));
	cr_assert(json_check(path,
		"x = d['runs'][0]['outliers']['samples'][0]\n"
		"ph = {p['phase']: p for p in x['phases']}\n"
		"rq = ph['runq_wait']['parts']\n"
		"assert [(p['irq_kind'], p['nr'], p['name']) for p in rq[:3]] == [('timer', 236, None), "
		"('resched_ipi', 253, None), ('call_func_ipi', 251, None)], rq[:3]\n"
		"assert [p['description'] for p in rq[:3]] == ['timer on CPU 1', 'resched IPI on CPU 1', "
		"'call-func IPI on CPU 1'], rq\n"
		"assert all(p['pid'] is None and p['prio'] is None and p['left_known'] is None for p in rq[:3]), rq\n"
		"assert rq[3] == {'cause': 'other_task', 'description': \"'other' pid 77 prio 100 ran on CPU 1\", "
		"'ns': 1600, 'cpu': 1, 'pid': 77, 'name': 'other', 'prio': 100, 'irq_kind': None, 'nr': None, "
		"'left_known': False, 'preempted': None}, rq[3]\n"
		"assert (rq[4]['left_known'], rq[4]['preempted']) == (True, False), rq[4]\n"
		"assert rq[4]['description'].endswith('(until it slept)'), rq[4]\n"
		"enq = ph['wake_enqueue']['parts']\n"
		"assert enq == [{'cause': 'ipi_in_flight', 'description': 'IPI in flight to CPU 1', 'ns': 4000, 'cpu': 1, "
		"'pid': None, 'name': None, 'prio': None, 'irq_kind': None, 'nr': None, 'left_known': None, "
		"'preempted': None}, {'cause': 'host', 'description': \"host held CPU 1's vCPU\", 'ns': 900, 'cpu': 1, "
		"'pid': None, 'name': None, 'prio': None, 'irq_kind': None, 'nr': None, 'left_known': None, "
		"'preempted': None}], enq\n"
		"rk = ph['resume_kernel']['parts']\n"
		"assert len(rk) == 1 and rk[0]['pid'] == 2**30 + 7 and rk[0]['name'] == 'kworker/1:1', rk\n"
		"assert rk[0]['description'] == \"wakee preempted on CPU 1, 'kworker/1:1' pid host:7 ran\", rk\n"
		"assert (rk[0]['left_known'], rk[0]['preempted']) == (True, True), rk\n"));
}
