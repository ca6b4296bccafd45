// SPDX-License-Identifier: GPL-2.0
/*
 * test_prom.c - the Prometheus text format as prom.c writes it: label
 * values escaped, seconds exact, and a histogram's buckets cumulative and
 * equal, le by le, to the samples that went in.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memout.h"
#include "prom.h"
#include "prom_text.h"

TestSuite(prom, .init = memout__open, .fini = memout__close);

/* label_value - @v as prom__label_value() writes it, into @buf */
static const char *label_value(const char *v, char *buf, size_t len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	cr_assert_not_null(f);
	prom__label_value(f, v);
	cr_assert_eq(fclose(f), 0);
	snprintf(buf, len, "%s", s);
	free(s);
	return buf;
}

Test(prom, label_values_escape_backslash_quote_and_line_feed)
{
	char buf[128];

	cr_expect_str_eq(label_value("plain value 1", buf, sizeof(buf)), "plain value 1");
	cr_expect_str_eq(label_value("a\"b", buf, sizeof(buf)), "a\\\"b");
	cr_expect_str_eq(label_value("C:\\path\\", buf, sizeof(buf)), "C:\\\\path\\\\");
	cr_expect_str_eq(label_value("two\nlines", buf, sizeof(buf)), "two\\nlines");
	cr_expect_str_eq(label_value("\\\"\n", buf, sizeof(buf)), "\\\\\\\"\\n");
	/* the other characters are the value's own: a tab, a comma, braces */
	cr_expect_str_eq(label_value("a\tb,{c}", buf, sizeof(buf)), "a\tb,{c}");
}

Test(prom, label_values_stay_utf8_whatever_the_bytes)
{
	char buf[128];

	/* valid UTF-8 is kept as it is */
	cr_expect_str_eq(label_value("caf\xc3\xa9 \xe2\x82\xac", buf, sizeof(buf)), "caf\xc3\xa9 \xe2\x82\xac");
	/* a lone byte (a comm cut inside a character) is the character of its value, U+00E9 here */
	cr_expect_str_eq(label_value("x\xe9y", buf, sizeof(buf)), "x\xc3\xa9y");
	/* a cut sequence: each of its bytes alone */
	cr_expect_str_eq(label_value("\xe2\x82", buf, sizeof(buf)), "\xc3\xa2\xc2\x82");
}

/*
 * Every byte a label value may hold (cgroup labels now escape their
 * control bytes as \xNN, a backslash and hex digits; a thread's name may
 * still hold any): the sample stays one line, its escapes are the
 * format's three, the text is UTF-8, OpenMetrics takes it, and the ASCII
 * reads back as it was.
 */
Test(prom, a_label_value_of_every_byte_is_one_valid_line)
{
	char value[256], *text = NULL, *om = NULL, back[512];
	struct prom_labels ls = { .n = 0 };
	const char *v, *end;
	size_t len, om_len, n = 0;
	FILE *f;

	for (int b = 1; b < 256; b++)
		value[b - 1] = (char)b;
	value[255] = '\0';
	prom__label(&ls, "v", value);
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	prom__uint(f, "m", &ls, 1);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(strchr(text, '\n'), text + len - 1, "more than one line");
	cr_expect(!strncmp(text, "m{v=\"", 5) && !strcmp(text + len - 5, "\"} 1\n"), "%s", text);
	for (v = text + 5, end = text + len - 5; v < end; v++) {
		if (*v == '\\') {
			cr_assert(v + 1 < end && strchr("\\\"n", v[1]), "an escape the format has not: \\%c", v[1]);
			back[n++] = v[1] == 'n' ? '\n' : v[1];
			v++;
		} else {
			cr_assert_neq(*v, '"', "a quote unescaped");
			back[n++] = *v;
		}
	}
	cr_expect_eq(memcmp(back, value, 127), 0, "the ASCII reads back as another value");
	for (size_t i = 0; i < len;) {
		const unsigned char *u = (const unsigned char *)text + i;
		size_t seq = *u < 0x80 ? 1 : (*u & 0xe0) == 0xc0 ? 2 : (*u & 0xf0) == 0xe0 ? 3 : 4;

		cr_assert(*u < 0x80 || (*u >= 0xc2 && *u <= 0xf4), "byte %zu: %#x starts no UTF-8 character", i, *u);
		for (size_t k = 1; k < seq; k++)
			cr_assert(i + k < len && (u[k] & 0xc0) == 0x80, "byte %zu: a UTF-8 character cut short", i);
		i += seq;
	}
	f = open_memstream(&om, &om_len);
	cr_assert_not_null(f);
	cr_expect_eq(prom__to_openmetrics(text, len, f), 0);
	cr_assert_eq(fclose(f), 0);
	free(om);
	free(text);
}

Test(prom, seconds_are_exact_decimals_of_the_nanoseconds)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0" },
		{ 1, "0.000000001" },
		{ 1500, "0.0000015" },
		{ 1000000000ull, "1" },
		{ 1234567890123ull, "1234.567890123" },
		{ 2000000000010ull, "2000.00000001" },
		{ UINT64_MAX, "18446744073.709551615" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		prom__seconds_text(cases[i].ns, buf, sizeof(buf));
		cr_expect_str_eq(buf, cases[i].text, "%" PRIu64 " ns", cases[i].ns);
	}
}

Test(prom, a_family_opens_with_escaped_help_and_its_type)
{
	prom__family(out, "wakeprobe_x_total", "counter", "a \\ and a\nline");
	cr_expect_str_eq(written(), "# HELP wakeprobe_x_total a \\\\ and a\\nline\n# TYPE wakeprobe_x_total counter\n");
}

Test(prom, samples_carry_their_labels_in_order)
{
	struct prom_labels base = { .n = 0 }, ls;

	prom__uint(out, "wakeprobe_a_total", &base, 7);
	prom__label(&base, "host", "h\"1");
	ls = prom__with(&base, "label", "complete");
	prom__uint(out, "wakeprobe_a_total", &ls, 18446744073709551615ull);
	prom__seconds(out, "wakeprobe_b_seconds_total", &base, 2500);
	prom__double(out, "wakeprobe_c", &base, 14.94);
	/* prom__with left its base as it was */
	cr_expect_eq(base.n, 1);
	cr_expect_str_eq(written(), "wakeprobe_a_total 7\n"
			 "wakeprobe_a_total{host=\"h\\\"1\",label=\"complete\"} 18446744073709551615\n"
			 "wakeprobe_b_seconds_total{host=\"h\\\"1\"} 0.0000025\n"
			 "wakeprobe_c{host=\"h\\\"1\"} 14.94\n");
}

Test(prom, labels_past_the_limit_are_ignored_not_overrun)
{
	struct prom_labels ls = { .n = 0 };

	for (int i = 0; i < PROM_MAX_LABELS + 3; i++)
		prom__label(&ls, "l", "v");
	cr_expect_eq(ls.n, PROM_MAX_LABELS);
}

Test(prom, histogram_buckets_are_cumulative_counts_of_the_samples_up_to_le)
{
	/* below the first le, on an le, just past one, in the middle, past the last le */
	static const uint64_t values[] = { 0, 50, 127, 128, 1000, 1023, 1024, 1024, 5000000, 40000000000ull };
	size_t nv = sizeof(values) / sizeof(values[0]);
	struct prom_labels ls = { .n = 0 };
	struct histogram *h = malloc(sizeof(*h));
	uint64_t sum = 0, prev = 0;
	char sample[160], buf[64], want[64];
	const char *doc;
	int lines = 0;

	cr_assert_not_null(h);
	histogram__init(h);
	for (size_t i = 0; i < nv; i++) {
		histogram__add(h, values[i]);
		sum += values[i];
	}
	prom__label(&ls, "phase", "runq_wait");
	prom__histogram(out, "wakeprobe_phase_seconds", &ls, h);
	doc = written();

	for (unsigned int k = PROM_FIRST_ROW; k <= PROM_LAST_ROW; k++) {
		uint64_t le_ns = (2ull << k) - 1, upto = 0, got;

		for (size_t i = 0; i < nv; i++)
			upto += values[i] <= le_ns;
		prom__le_text(le_ns, buf, sizeof(buf));
		snprintf(sample, sizeof(sample), "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"%s\"}", buf);
		got = strtoull(prom_value_of(doc, sample, buf, sizeof(buf)), NULL, 10);
		cr_expect_eq(got, upto, "le %" PRIu64 " ns: %" PRIu64 ", want %" PRIu64, le_ns, got, upto);
		cr_expect_geq(got, prev, "buckets must not fall");
		prev = got;
		lines++;
	}
	cr_expect_eq(lines, PROM_LAST_ROW - PROM_FIRST_ROW + 1);
	/* the first le is 127 ns, the last 2^35 - 1 ns: the 40 s sample is in +Inf alone */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"1.27e-07\"}", buf,
				  sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"34.359738367\"}", buf,
				  sizeof(buf)), "9");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"+Inf\"}", buf,
				  sizeof(buf)), "10");
	prom__seconds_text(sum, want, sizeof(want));
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_sum{phase=\"runq_wait\"}", buf, sizeof(buf)), want);
	cr_expect_str_eq(want, "40.005004376");
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_count{phase=\"runq_wait\"}", buf, sizeof(buf)), "10");
	free(h);
}

Test(prom, an_empty_histogram_is_written_whole_with_zeros)
{
	struct prom_labels ls = { .n = 0 };
	struct histogram *h = calloc(1, sizeof(*h));
	const char *doc, *p;
	int buckets = 0;

	cr_assert_not_null(h);
	histogram__init(h);
	prom__histogram(out, "wakeprobe_wakeup_seconds", &ls, h);
	doc = written();
	for (p = doc; (p = strstr(p, "_bucket{le=")); p++) {
		buckets++;
		cr_expect(!strncmp(strchr(p, '}'), "} 0\n", 4));
	}
	/* the same buckets as a full one: a series never comes and goes with the data */
	cr_expect_eq(buckets, PROM_LAST_ROW - PROM_FIRST_ROW + 2);
	cr_expect(strstr(doc, "wakeprobe_wakeup_seconds_sum 0\nwakeprobe_wakeup_seconds_count 0\n"));
	free(h);
}

/* openmetrics - @text as prom__to_openmetrics() turns it, into @om (to free); its return */
static int openmetrics(const char *text, char **om)
{
	size_t n = 0;
	FILE *f = open_memstream(om, &n);
	int err;

	cr_assert_not_null(f);
	err = prom__to_openmetrics(text, strlen(text), f);
	cr_assert_eq(fclose(f), 0);
	return err;
}

Test(prom, openmetrics_names_a_counter_family_without_total_and_keeps_the_rest)
{
	struct prom_labels ls = { .n = 0 };
	char *om;

	prom__label(&ls, "label", "complete");
	prom__family(out, "wakeprobe_wakeups_total", "counter", "Wakeups seen.");
	prom__uint(out, "wakeprobe_wakeups_total", &ls, 3);
	prom__family(out, "wakeprobe_trace_records_per_wakeup", "gauge", "Records per wakeup.");
	prom__double(out, "wakeprobe_trace_records_per_wakeup", &ls, 11.25);
	prom__family(out, "wakeprobe_run_start_timestamp_seconds", "gauge", "When the run began.");
	prom__seconds(out, "wakeprobe_run_start_timestamp_seconds", &ls, 1700000000500000000ull);
	cr_assert_eq(openmetrics(written(), &om), 0);
	cr_expect_str_eq(om, "# HELP wakeprobe_wakeups Wakeups seen.\n"
			     "# TYPE wakeprobe_wakeups counter\n"
			     "wakeprobe_wakeups_total{label=\"complete\"} 3\n"
			     "# HELP wakeprobe_trace_records_per_wakeup Records per wakeup.\n"
			     "# TYPE wakeprobe_trace_records_per_wakeup gauge\n"
			     "wakeprobe_trace_records_per_wakeup{label=\"complete\"} 11.25\n"
			     "# HELP wakeprobe_run_start_timestamp_seconds When the run began.\n"
			     "# TYPE wakeprobe_run_start_timestamp_seconds gauge\n"
			     "wakeprobe_run_start_timestamp_seconds{label=\"complete\"} 1700000000.5\n"
			     "# EOF\n");
	free(om);
}

Test(prom, openmetrics_keeps_a_histograms_samples_with_its_le_as_canonical_numbers)
{
	static const uint64_t values[] = { 100, 1000, 200000, 40000000000ull };
	struct prom_labels ls = { .n = 0 };
	struct histogram *h = malloc(sizeof(*h));
	const char *text, *line;
	char *om, buf[64];
	int buckets = 0, lines = 0;

	cr_assert_not_null(h);
	histogram__init(h);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		histogram__add(h, values[i]);
	prom__label(&ls, "phase", "runq_wait");
	prom__family(out, "wakeprobe_phase_seconds", "histogram", "Each phase.");
	prom__histogram(out, "wakeprobe_phase_seconds", &ls, h);
	text = written();
	cr_assert_eq(openmetrics(text, &om), 0);

#define OPENING "# HELP wakeprobe_phase_seconds Each phase.\n# TYPE wakeprobe_phase_seconds histogram\n"
	cr_expect(!strncmp(om, OPENING, strlen(OPENING)));
#undef OPENING
	/* below 1e-4 with an exponent, the shortest digits that read back the same */
#define BUCKET(le) "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"" le "\"}"
	cr_expect_str_eq(prom_value_of(om, BUCKET("1.27e-07"), buf, sizeof(buf)), "1");
	cr_expect_str_eq(prom_value_of(om, BUCKET("6.5535e-05"), buf, sizeof(buf)), "2");
	cr_expect_str_eq(prom_value_of(om, BUCKET("0.000262143"), buf, sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(om, BUCKET("34.359738367"), buf, sizeof(buf)), "3");
	cr_expect_str_eq(prom_value_of(om, BUCKET("+Inf"), buf, sizeof(buf)), "4");
#undef BUCKET
	/* the rest as the text format has it */
	cr_expect(strstr(om, "\nwakeprobe_phase_seconds_sum{phase=\"runq_wait\"} 40.0002011\n"
			     "wakeprobe_phase_seconds_count{phase=\"runq_wait\"} 4\n# EOF\n"));
	for (line = om; line; line = prom_line_after(line))
		buckets += !strncmp(line, "wakeprobe_phase_seconds_bucket{", 31);
	cr_expect_eq(buckets, PROM_LAST_ROW - PROM_FIRST_ROW + 2);
	/* a line for each of the text's, and the end */
	for (line = text; line; line = prom_line_after(line))
		lines++;
	for (line = om; line; line = prom_line_after(line))
		lines--;
	cr_expect_eq(lines, -1);
	free(om);
	free(h);
}

Test(prom, openmetrics_writes_le_and_quantile_as_canonical_numbers_and_no_other_label)
{
	static const char text[] = "# TYPE h histogram\n"
				   "h_bucket{le=\"0.005\"} 1\n"
				   "h_bucket{le=\"1\"} 1\n"
				   "h_bucket{le=\"2.50\"} 1\n"
				   "h_bucket{le=\"10\"} 1\n"
				   "h_bucket{le=\"100000\"} 1\n"
				   "h_bucket{le=\"1e6\"} 1\n"
				   "h_bucket{le=\"+inf\"} 2\n"
				   "h_sum 4\n"
				   "h_count 2\n"
				   "# TYPE s summary\n"
				   "s{quantile=\"0.0001\"} 1\n"
				   "s{quantile=\"0.00001\"} 1\n"
				   "s{quantile=\"1\"} 1\n"
				   "s{quantile=\"0\"} 1\n"
				   "s_count{quantile=\"1\"} 1\n"
				   "# TYPE g gauge\n"
				   "g{le=\"1\"} 1\n";
	char *om;

	cr_assert_eq(openmetrics(text, &om), 0);
	cr_expect_str_eq(om, "# TYPE h histogram\n"
			     "h_bucket{le=\"0.005\"} 1\n"
			     "h_bucket{le=\"1.0\"} 1\n"
			     "h_bucket{le=\"2.5\"} 1\n"
			     "h_bucket{le=\"10.0\"} 1\n"
			     "h_bucket{le=\"100000.0\"} 1\n"
			     "h_bucket{le=\"1e+06\"} 1\n"
			     "h_bucket{le=\"+Inf\"} 2\n"
			     "h_sum 4\n"
			     "h_count 2\n"
			     "# TYPE s summary\n"
			     "s{quantile=\"0.0001\"} 1\n"
			     "s{quantile=\"1e-05\"} 1\n"
			     "s{quantile=\"1.0\"} 1\n"
			     "s{quantile=\"0.0\"} 1\n"
			     "s_count{quantile=\"1\"} 1\n"
			     "# TYPE g gauge\n"
			     "g{le=\"1\"} 1\n"
			     "# EOF\n");
	free(om);
}

Test(prom, openmetrics_has_no_place_for_comments_blank_lines_or_milliseconds)
{
	static const char text[] = "# A comment, and an empty line\n"
				   "\n"
				   "# HELP a_total A \"quoted\" \\\\ back\\nslash, and \\x.\n"
				   "# TYPE a_total counter\n"
				   "a_total { x=\"1\" , y=\"\\\"2\\\"\", }  1\t1700000000123\n"
				   "# TYPE b_total counter\n"
				   "# HELP b_total Typed first.\n"
				   "b_total 1\n"
				   "# HELP c A counter with no _total.\n"
				   "# TYPE c counter\n"
				   "c{} 2\n"
				   "# TYPE d untyped\n"
				   "d -Inf\n"
				   "e nan -5\n"
				   "  f Inf 0";
	char *om;

	cr_assert_eq(openmetrics(text, &om), 0);
	cr_expect_str_eq(om, "# HELP a A \\\"quoted\\\" \\\\ back\\nslash, and \\\\x.\n"
			     "# TYPE a counter\n"
			     "a_total{x=\"1\",y=\"\\\"2\\\"\"} 1 1700000000.123\n"
			     "# TYPE b counter\n"
			     "# HELP b Typed first.\n"
			     "b_total 1\n"
			     "# HELP c A counter with no _total.\n"
			     "# TYPE c unknown\n"
			     "c 2\n"
			     "# TYPE d unknown\n"
			     "d -Inf\n"
			     "e NaN -0.005\n"
			     "f +Inf 0.000\n"
			     "# EOF\n");
	free(om);
}

Test(prom, openmetrics_refuses_a_line_that_is_not_the_text_formats)
{
	static const char *const bad[] = {
		"a 1 2 3\n", "{x=\"1\"} 1\n", "a{x=1} 1\n", "a{x=\"1} 1\n", "a{x=\"1\"\n", "a{=\"1\"} 1\n", "a\n",
		"a 1 12x\n", "# TYPE a sometype\n", "# TYPE a counter extra\n", "# HELP\n", "a{x=\"1\"y=\"2\"} 1\n",
	};
	char *om;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(openmetrics(bad[i], &om), -EINVAL, "%s", bad[i]);
		free(om);
	}
	/* nothing at all is a valid exposition: no family, the end */
	cr_expect_eq(openmetrics("", &om), 0);
	cr_expect_str_eq(om, "# EOF\n");
	free(om);
}
