// SPDX-License-Identifier: GPL-2.0
/*
 * test_prom.c - the Prometheus text format as prom.c writes it: label
 * values escaped, seconds exact, and a histogram's buckets cumulative and
 * equal, le by le, to the samples that went in.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
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
		prom__seconds_text(le_ns, buf, sizeof(buf));
		snprintf(sample, sizeof(sample), "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"%s\"}", buf);
		got = strtoull(prom_value_of(doc, sample, buf, sizeof(buf)), NULL, 10);
		cr_expect_eq(got, upto, "le %" PRIu64 " ns: %" PRIu64 ", want %" PRIu64, le_ns, got, upto);
		cr_expect_geq(got, prev, "buckets must not fall");
		prev = got;
		lines++;
	}
	cr_expect_eq(lines, PROM_LAST_ROW - PROM_FIRST_ROW + 1);
	/* the first le is 127 ns, the last 2^35 - 1 ns: the 40 s sample is in +Inf alone */
	cr_expect_str_eq(prom_value_of(doc, "wakeprobe_phase_seconds_bucket{phase=\"runq_wait\",le=\"0.000000127\"}", buf,
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
