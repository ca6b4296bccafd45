// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - what wakeprobe and the workloads take from a command line:
 * numbers whole and in range, CPU pairs, id lists, and what a message
 * quotes of what was typed, one line whatever the bytes.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"

TestSuite(parse);

Test(parse, id_lists_are_distinct_ids_in_range)
{
	int32_t ids[3];
	size_t n = 0;

	cr_assert_eq(parse__id_list("5", 100, ids, 3, &n), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(ids[0], 5);
	cr_assert_eq(parse__id_list("1,100,7", 100, ids, 3, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(ids[1], 100);
	cr_assert_eq(ids[2], 7);
	cr_assert_eq(parse__id_list("1,2,3,4", 100, ids, 3, &n), -E2BIG);
	cr_assert_eq(parse__id_list("1,1", 100, ids, 3, &n), -EEXIST);
	cr_assert_eq(parse__id_list("101", 100, ids, 3, &n), -ERANGE);
	cr_assert_eq(parse__id_list("0", 100, ids, 3, &n), -ERANGE);
	cr_assert_eq(parse__id_list("1,", 100, ids, 3, &n), -EINVAL);
	cr_assert_eq(parse__id_list(",1", 100, ids, 3, &n), -EINVAL);
	cr_assert_eq(parse__id_list("", 100, ids, 3, &n), -EINVAL);
	cr_assert_eq(parse__id_list("1 2", 100, ids, 3, &n), -EINVAL);
}

Test(parse, numbers_are_parsed_whole_and_in_range)
{
	uint64_t v = 0;

	cr_assert_eq(parse__u64("42", 0, 100, &v), 0);
	cr_assert_eq(v, 42);
	cr_assert_eq(parse__u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(parse__u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	cr_assert_eq(parse__u64("101", 0, 100, &v), -ERANGE);
	cr_assert_eq(parse__u64(" 1", 0, 100, &v), -EINVAL);
	cr_assert_eq(parse__u64("+1", 0, 100, &v), -EINVAL);
	cr_assert_eq(parse__u64("1 ", 0, 100, &v), -EINVAL);
	cr_assert_eq(parse__u64("", 0, 100, &v), -EINVAL);
	cr_assert_eq(parse__u64(NULL, 0, 100, &v), -EINVAL);
}

Test(parse, cpu_pairs_must_be_two_distinct_cpus_in_range)
{
	int a = -1, b = -1;

	cr_assert_eq(parse__cpu_pair("0,1", 2, &a, &b), 0);
	cr_assert_eq(a, 0);
	cr_assert_eq(b, 1);
	cr_assert_eq(parse__cpu_pair("1,0", 2, &a, &b), 0);
	cr_assert_eq(a, 1);
	cr_assert_eq(parse__cpu_pair("1,1", 2, &a, &b), -EEXIST);
	cr_assert_eq(parse__cpu_pair("0,2", 2, &a, &b), -ERANGE);
	cr_assert_eq(parse__cpu_pair("0;1", 2, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair("0,1,2", 4, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair(",1", 2, &a, &b), -EINVAL);
}

struct u64_case {
	char str[32];
	uint64_t min, max;
	int err;
	uint64_t want;		/* with err 0 */
};

ParameterizedTestParameters(parse, a_number_is_all_digits_in_its_range_or_named_wrong)
{
	static struct u64_case cases[] = {
		{ "0", 0, 10, 0, 0 },
		{ "007", 0, 10, 0, 7 },			/* leading zeros are still decimal */
		{ "10", 0, 10, 0, 10 },			/* both bounds are in the range */
		{ "5", 5, 10, 0, 5 },
		{ "4", 5, 10, -ERANGE, 0 },
		{ "11", 0, 10, -ERANGE, 0 },
		{ "99999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
		{ "-1", 0, 10, -EINVAL, 0 },		/* strtoull would take it as 2^64 - 1 */
		{ "\t1", 0, 10, -EINVAL, 0 },
		{ "1\n", 0, 10, -EINVAL, 0 },
		{ "0x10", 0, 100, -EINVAL, 0 },
		{ "1e3", 0, 10000, -EINVAL, 0 },
		{ "1.5", 0, 10, -EINVAL, 0 },
		{ "12ab", 0, 100, -EINVAL, 0 },
		{ "abc", 0, 100, -EINVAL, 0 },
	};

	return cr_make_param_array(struct u64_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct u64_case *c, parse, a_number_is_all_digits_in_its_range_or_named_wrong)
{
	uint64_t v = 0xdeadbeef;

	cr_assert_eq(parse__u64(c->str, c->min, c->max, &v), c->err, "'%s' in [%lu, %lu]", c->str,
		     (unsigned long)c->min, (unsigned long)c->max);
	/* a failed parse leaves the value as it was */
	cr_assert_eq(v, c->err ? 0xdeadbeef : c->want, "'%s' gave %lu", c->str, (unsigned long)v);
}

Test(parse, a_cpu_pair_that_is_refused_leaves_both_cpus_as_they_were)
{
	char too_long[80];
	int a = -1, b = -1;

	cr_assert_eq(parse__cpu_pair("63,0", 64, &a, &b), 0);
	cr_assert_eq(a, 63);
	cr_assert_eq(b, 0);
	a = b = -1;
	/* a number no CPU could have is malformed, not merely out of range */
	cr_assert_eq(parse__cpu_pair("4294967296,1", 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair("1,-2", 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair("1,", 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair("", 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair(NULL, 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair("8,1", 8, &a, &b), -ERANGE);
	/* a pair padded past the parser's buffer is refused whole, not cut */
	memset(too_long, '0', sizeof(too_long) - 4);
	memcpy(too_long + sizeof(too_long) - 4, "1,2", 4);
	cr_assert_eq(parse__cpu_pair(too_long, 8, &a, &b), -EINVAL);
	cr_assert_eq(parse__cpu_pair(too_long + sizeof(too_long) - 40, 8, &a, &b), 0, "39 bytes fit");
	cr_assert_eq(a, 1);
	cr_assert_eq(b, 2);
}

Test(parse, an_id_list_is_judged_id_by_id_in_the_order_given)
{
	int32_t ids[4] = { 0 };
	size_t n = 99;

	/* a repeat is found before the list overflows its room */
	cr_assert_eq(parse__id_list("1,2,1", 100, ids, 2, &n), -EEXIST);
	cr_assert_eq(parse__id_list("1,2,3", 100, ids, 2, &n), -E2BIG);
	cr_assert_eq(parse__id_list("1", 100, ids, 0, &n), -E2BIG);
	/* the first bad id decides: out of range before malformed, and the other way round */
	cr_assert_eq(parse__id_list("101,x", 100, ids, 4, &n), -ERANGE);
	cr_assert_eq(parse__id_list("x,101", 100, ids, 4, &n), -EINVAL);
	cr_assert_eq(parse__id_list("1,,2", 100, ids, 4, &n), -EINVAL);
	cr_assert_eq(parse__id_list("123456789012345678901234", UINT64_MAX, ids, 4, &n), -EINVAL,
		     "an id longer than any number");
	cr_assert_eq(parse__id_list(NULL, 100, ids, 4, &n), -EINVAL);
	cr_assert_eq(n, 99, "a refused list leaves the count alone");
	cr_assert_eq(parse__id_list("4194304,1", 4194304, ids, 4, &n), 0);
	cr_assert_eq(n, 2);
	cr_assert_eq(ids[0], 4194304);
	cr_assert_eq(ids[1], 1);
}

struct quote_case {
	char in[80];
	size_t n;
	char want[200];
};

ParameterizedTestParameters(parse, a_quote_shows_printable_ascii_as_it_is_and_every_other_byte_as_hex)
{
	static struct quote_case cases[] = {
		{ "eventfd", SIZE_MAX, "eventfd" },
		{ "", SIZE_MAX, "" },
		{ "a b~!", SIZE_MAX, "a b~!" },
		{ "line\nbreak", SIZE_MAX, "line\\x0abreak" },
		{ "\x1b[31mred", SIZE_MAX, "\\x1b[31mred" },
		{ "del\x7f", SIZE_MAX, "del\\x7f" },
		{ "caf\xc3\xa9", SIZE_MAX, "caf\\xc3\\xa9" },
		{ "\t", SIZE_MAX, "\\x09" },
		/* only the first n bytes, and no "..." for what n leaves out */
		{ "cond,pipe", 4, "cond" },
		{ "cond", 0, "" },
		/* past PARSE_QUOTE_MAX bytes, cut with "..." */
		{ "0123456789012345678901234567890123456789012345678", SIZE_MAX,
		  "012345678901234567890123456789012345678901234567..." },
		/* exactly PARSE_QUOTE_MAX bytes: whole */
		{ "012345678901234567890123456789012345678901234567", SIZE_MAX,
		  "012345678901234567890123456789012345678901234567" },
	};

	return cr_make_param_array(struct quote_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct quote_case *c, parse, a_quote_shows_printable_ascii_as_it_is_and_every_other_byte_as_hex)
{
	char out[PARSE_QUOTE_LEN];
	char *to = NULL;
	size_t len = 0;
	FILE *f;

	parse__quote(c->in, c->n, out);
	cr_assert_str_eq(out, c->want);
	/* parse__quote_to() writes the same bytes, with no "..." of its own */
	f = open_memstream(&to, &len);
	cr_assert_not_null(f);
	parse__quote_to(f, c->in, c->n);
	cr_assert_eq(fclose(f), 0);
	if (strlen(c->want) > 3 && !strcmp(c->want + strlen(c->want) - 3, "..."))
		cr_assert_eq(strncmp(to, c->want, strlen(c->want) - 3), 0, "%s", to);
	else
		cr_assert_str_eq(to, c->want);
	free(to);
}

Test(parse, the_longest_quote_fills_its_buffer_exactly)
{
	char in[PARSE_QUOTE_MAX + 10], out[PARSE_QUOTE_LEN + 8];

	memset(in, 0xff, sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	memset(out, '#', sizeof(out));
	parse__quote(in, SIZE_MAX, out);
	cr_assert_eq(strlen(out), PARSE_QUOTE_MAX * 4 + 3, "%zu", strlen(out));
	cr_assert_eq(strncmp(out, "\\xff\\xff", 8), 0, "%s", out);
	cr_assert_str_eq(out + PARSE_QUOTE_MAX * 4, "...");
	cr_assert_eq(out[PARSE_QUOTE_LEN], '#', "nothing is written past PARSE_QUOTE_LEN");
}

Test(parse, a_report_quotes_no_more_than_it_is_given_and_nothing_past_a_nul)
{
	char *to = NULL, many[61];
	size_t len = 0;
	FILE *f = open_memstream(&to, &len);

	cr_assert_not_null(f);
	memset(many, 'x', 60);
	many[60] = '\0';
	parse__quote_to(f, "ab\x01" "cdef", 4);
	fputc('|', f);
	/* not cut at PARSE_QUOTE_MAX here: the caller says how much */
	parse__quote_to(f, many, 100);
	fputc('|', f);
	parse__quote_to(f, "stop\0hidden", 100);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(strncmp(to, "ab\\x01c|", 8), 0, "%s", to);
	cr_assert_eq(strspn(to + 8, "x"), 60, "%s", to);
	cr_assert_str_eq(to + 8 + 60, "|stop", "%s", to);
	free(to);
}

Test(parse, four_quotes_may_be_shown_in_one_message)
{
	const char *a = parse__shown("one\n");
	const char *b = parse__shown("two");
	const char *c = parse__shown("three");
	const char *d = parse__shown("\xe9");
	char msg[128];
	const char *e;

	snprintf(msg, sizeof(msg), "%s %s %s %s", a, b, c, d);
	cr_assert_str_eq(msg, "one\\x0a two three \\xe9");
	/* a fifth takes the first one's buffer back */
	e = parse__shown("five");
	cr_assert_eq(e, a);
	cr_assert_str_eq(a, "five");
	cr_assert_str_eq(b, "two");
}
