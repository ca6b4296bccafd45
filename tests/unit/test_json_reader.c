// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_reader.c - the strict JSON reader: every form RFC 8259 allows
 * read back to the right value, every form it does not rejected with one
 * line saying where and what was expected, documents of json_writer read
 * back whole, and a throughput workload's --json document
 * (tests/fixtures/throughput-burst-queue.json, written by `burst-queue
 * --mode cond --tasks 10 --repeat 3 --json`) read the way wakeprobe reads it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_reader.h"
#include "json_writer.h"
#include "readback.h"

static char err[256];
static struct json_doc *doc;

static void setup(void)
{
	err[0] = '\0';
	doc = NULL;
}

static void teardown(void)
{
	json_reader__free(doc);
}

TestSuite(json_reader, .init = setup, .fini = teardown);

/* parse - @text as a document kept in doc (freed by the fixture); its root, or NULL with err set */
static const struct json_node *parse_n(const char *text, size_t len)
{
	json_reader__free(doc);
	doc = json_reader__parse(text, len, err, sizeof(err));
	return json_reader__root(doc);
}

static const struct json_node *parse(const char *text)
{
	return parse_n(text, strlen(text));
}

/* ---------------------------------------------------------------- accepted forms */

/* Criterion runs each case in a process of its own, at other addresses: a case holds its bytes, not pointers */
struct accept_case {
	char text[64];
	enum json_type type;
	char string[32];	/* a string's decoded bytes */
	double number;
	bool is_u64;
	uint64_t u64;
	size_t len;		/* a container's members */
};

static struct accept_case accept_cases[] = {
	{ .text = "null", .type = JSON_NULL },
	{ .text = "true", .type = JSON_TRUE },
	{ .text = "false", .type = JSON_FALSE },
	{ .text = " \t\r\n true \r\n\t ", .type = JSON_TRUE },
	{ .text = "0", .type = JSON_NUMBER, .number = 0, .is_u64 = true, .u64 = 0 },
	{ .text = "-0", .type = JSON_NUMBER, .number = -0.0 },
	{ .text = "7", .type = JSON_NUMBER, .number = 7, .is_u64 = true, .u64 = 7 },
	{ .text = "123", .type = JSON_NUMBER, .number = 123, .is_u64 = true, .u64 = 123 },
	{ .text = "-123", .type = JSON_NUMBER, .number = -123 },
	{ .text = "1.5", .type = JSON_NUMBER, .number = 1.5 },
	{ .text = "0.25", .type = JSON_NUMBER, .number = 0.25 },
	{ .text = "-1.5e3", .type = JSON_NUMBER, .number = -1500 },
	{ .text = "1E+2", .type = JSON_NUMBER, .number = 100 },
	{ .text = "1e-2", .type = JSON_NUMBER, .number = 0.01 },
	{ .text = "0e0", .type = JSON_NUMBER, .number = 0 },
	{ .text = "1.0", .type = JSON_NUMBER, .number = 1 },
	{ .text = "1e3", .type = JSON_NUMBER, .number = 1000 },
	{ .text = "1e-400", .type = JSON_NUMBER, .number = 0 },	/* below the smallest double: rounds to 0, RFC allows it */
	{ .text = "18446744073709551615", .type = JSON_NUMBER, .number = 18446744073709551615.0, .is_u64 = true,
	  .u64 = UINT64_MAX },
	{ .text = "18446744073709551616", .type = JSON_NUMBER, .number = 18446744073709551616.0 },
	{ .text = "9007199254740993", .type = JSON_NUMBER, .number = 9007199254740992.0, .is_u64 = true, .u64 = 9007199254740993ULL },
	{ .text = "\"\"", .type = JSON_STRING, .string = "" },
	{ .text = "\"abc\"", .type = JSON_STRING, .string = "abc" },
	{ .text = "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .type = JSON_STRING, .string = "\"\\/\b\f\n\r\t" },
	{ .text = "\"\\u0041\\u0001\\u001f\"", .type = JSON_STRING, .string = "A\x01\x1f" },
	{ .text = "\"\\u00e9\\u00E9\"", .type = JSON_STRING, .string = "\xc3\xa9\xc3\xa9" },
	{ .text = "\"\\u07ff\\u0800\"", .type = JSON_STRING, .string = "\xdf\xbf\xe0\xa0\x80" },
	{ .text = "\"\\u20ac\"", .type = JSON_STRING, .string = "\xe2\x82\xac" },
	{ .text = "\"\\uffff\"", .type = JSON_STRING, .string = "\xef\xbf\xbf" },
	{ .text = "\"\\ud83d\\ude00\"", .type = JSON_STRING, .string = "\xf0\x9f\x98\x80" },
	{ .text = "\"\\uD800\\uDC00\"", .type = JSON_STRING, .string = "\xf0\x90\x80\x80" },
	{ .text = "\"\\udbff\\udfff\"", .type = JSON_STRING, .string = "\xf4\x8f\xbf\xbf" },
	{ .text = "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"", .type = JSON_STRING,
	  .string = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf" },
	{ .text = "\"\x7f ~\"", .type = JSON_STRING, .string = "\x7f ~" },
	{ .text = "[]", .type = JSON_ARRAY, .len = 0 },
	{ .text = "[ ]", .type = JSON_ARRAY, .len = 0 },
	{ .text = "{}", .type = JSON_OBJECT, .len = 0 },
	{ .text = "{ \n}", .type = JSON_OBJECT, .len = 0 },
	{ .text = "[1, \"a\", null, [], {}]", .type = JSON_ARRAY, .len = 5 },
	{ .text = "{\"a\":1,\"b\":[true],\"\":{}}", .type = JSON_OBJECT, .len = 3 },
	{ .text = " { \"a\" : 1 , \"b\" : 2 } ", .type = JSON_OBJECT, .len = 2 },
	/* the same key in different objects is no duplicate */
	{ .text = "{\"a\":{\"a\":1},\"b\":{\"a\":2},\"c\":[{\"a\":3},{\"a\":4}]}", .type = JSON_OBJECT, .len = 3 },
};

ParameterizedTestParameters(json_reader, every_form_rfc_8259_allows_reads_back_as_its_value)
{
	return cr_make_param_array(struct accept_case, accept_cases, sizeof(accept_cases) / sizeof(accept_cases[0]));
}

ParameterizedTest(struct accept_case *c, json_reader, every_form_rfc_8259_allows_reads_back_as_its_value)
{
	const struct json_node *n;

	n = parse(c->text);
	uint64_t u = 0;
	double d = NAN;

	cr_assert_not_null(n, "'%s' rejected: %s", c->text, err);
	cr_assert_eq(json_reader__type(n), c->type, "'%s'", c->text);
	switch (c->type) {
	case JSON_NUMBER:
		cr_assert(json_reader__double(n, &d));
		cr_assert(d == c->number && signbit(d) == signbit(c->number), "'%s' read as %.17g", c->text, d);
		cr_assert_eq(json_reader__u64(n, &u), c->is_u64, "'%s'", c->text);
		if (c->is_u64)
			cr_assert_eq(u, c->u64, "'%s' read as %lu", c->text, (unsigned long)u);
		cr_assert_null(json_reader__string(n));
		break;
	case JSON_STRING:
		cr_assert_str_eq(json_reader__string(n), c->string, "'%s'", c->text);
		cr_assert_not(json_reader__double(n, &d));
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		cr_assert_eq(json_reader__len(n), c->len, "'%s'", c->text);
		break;
	default:
		cr_assert_null(json_reader__string(n));
		cr_assert_not(json_reader__double(n, &d));
		cr_assert_eq(json_reader__len(n), 0);
	}
}

/* ---------------------------------------------------------------- rejected forms */

struct reject_case {
	char text[48];
	size_t len;		/* 0: strlen(text) */
	char message[96];	/* what the error says after its position */
	size_t line, column;
};

static struct reject_case reject_cases[] = {
	/* whitespace and the document */
	{ "", 0, "empty input: expected a JSON value", 1, 1 },
	{ " \n ", 0, "expected a value, found the end of the input", 2, 2 },
	{ "\f1", 0, "expected a value, found byte 0x0c", 1, 1 },
	{ "\v1", 0, "expected a value, found byte 0x0b", 1, 1 },
	{ "\xef\xbb\xbf{}", 0, "expected a value, found byte 0xef", 1, 1 },
	{ "1 2", 0, "expected the end of the input after the value, found '2'", 1, 3 },
	{ "{} x", 0, "expected the end of the input after the value, found 'x'", 1, 4 },
	{ "1\0", 2, "expected the end of the input after the value, found byte 0x00", 1, 2 },
	{ "\0", 1, "expected a value, found byte 0x00", 1, 1 },
	/* numbers */
	{ "01", 0, "leading zeros are not allowed in a number", 1, 1 },
	{ "-01", 0, "leading zeros are not allowed in a number", 1, 1 },
	{ "00.5", 0, "leading zeros are not allowed in a number", 1, 1 },
	{ "+1", 0, "expected a value, found '+'", 1, 1 },
	{ ".5", 0, "expected a value, found '.'", 1, 1 },
	{ "1.", 0, "expected a digit after the decimal point", 1, 3 },
	{ "1.e3", 0, "expected a digit after the decimal point", 1, 3 },
	{ "1e", 0, "expected a digit in the exponent", 1, 3 },
	{ "1e+", 0, "expected a digit in the exponent", 1, 4 },
	{ "1E-x", 0, "expected a digit in the exponent", 1, 4 },
	{ "-", 0, "expected a digit after '-'", 1, 2 },
	{ "-a", 0, "expected a digit after '-'", 1, 2 },
	{ "- 1", 0, "expected a digit after '-'", 1, 2 },
	{ "NaN", 0, "expected a value, found 'N'", 1, 1 },
	{ "Infinity", 0, "expected a value, found 'I'", 1, 1 },
	{ "-Infinity", 0, "expected a digit after '-'", 1, 2 },
	{ "1e309", 0, "number out of the range of a double", 1, 1 },
	{ "[-1.8e308]", 0, "number out of the range of a double", 1, 2 },
	{ "0x10", 0, "expected the end of the input after the value, found 'x'", 1, 2 },
	/* literals */
	{ "tru", 0, "invalid literal: expected 'true'", 1, 1 },
	{ "nul", 0, "invalid literal: expected 'null'", 1, 1 },
	{ "fals", 0, "invalid literal: expected 'false'", 1, 1 },
	{ "nULL", 0, "invalid literal: expected 'null'", 1, 1 },
	{ "True", 0, "expected a value, found 'T'", 1, 1 },
	{ "undefined", 0, "expected a value, found 'u'", 1, 1 },
	/* arrays */
	{ "[", 0, "expected a value, found the end of the input", 1, 2 },
	{ "[1", 0, "expected ',' or ']' after an array element, found the end of the input", 1, 3 },
	{ "[1,]", 0, "expected a value, found ']'", 1, 4 },
	{ "[,1]", 0, "expected a value, found ','", 1, 2 },
	{ "[1 2]", 0, "expected ',' or ']' after an array element, found '2'", 1, 4 },
	{ "[1}", 0, "expected ',' or ']' after an array element, found '}'", 1, 3 },
	{ "]", 0, "expected a value, found ']'", 1, 1 },
	/* objects */
	{ "{", 0, "expected a string key or '}', found the end of the input", 1, 2 },
	{ "{,}", 0, "expected a string key or '}', found ','", 1, 2 },
	{ "{a:1}", 0, "expected a string key or '}', found 'a'", 1, 2 },
	{ "{1:2}", 0, "expected a string key or '}', found '1'", 1, 2 },
	{ "{\"a\":1,}", 0, "expected a string key after ',', found '}'", 1, 8 },
	{ "{\"a\" 1}", 0, "expected ':' after an object key, found '1'", 1, 6 },
	{ "{\"a\"}", 0, "expected ':' after an object key, found '}'", 1, 5 },
	{ "{\"a\":}", 0, "expected a value, found '}'", 1, 6 },
	{ "{\"a\":1 \"b\":2}", 0, "expected ',' or '}' after an object member, found '\"'", 1, 8 },
	{ "{\"a\":1]", 0, "expected ',' or '}' after an object member, found ']'", 1, 7 },
	{ "{\"a\":1", 0, "expected ',' or '}' after an object member, found the end of the input", 1, 7 },
	/* duplicate keys, also when written differently */
	{ "{\"a\":1,\"a\":2}", 0, "duplicate key \"a\" in an object", 1, 8 },
	{ "{\"a\":1,\"b\":2,\"\\u0061\":3}", 0, "duplicate key \"a\" in an object", 1, 14 },
	{ "{\"\":1,\"\":2}", 0, "duplicate key \"\" in an object", 1, 7 },
	{ "[{\"x\":{\"y\":1,\"y\":2}}]", 0, "duplicate key \"y\" in an object", 1, 14 },
	{ "{\"a\\nb\":1,\"a\\nb\":2}", 0, "duplicate key \"a\\u000ab\" in an object", 1, 11 },
	/* strings */
	{ "\"abc", 0, "expected '\"' to end the string, found the end of the input", 1, 5 },
	{ "\"", 0, "expected '\"' to end the string, found the end of the input", 1, 2 },
	{ "\"a\nb\"", 0, "control character 0x0a in a string: it must be escaped", 1, 3 },
	{ "\"\t\"", 0, "control character 0x09 in a string", 1, 2 },
	{ "\"\x1f\"", 0, "control character 0x1f in a string", 1, 2 },
	{ "\"a\0b\"", 5, "control character 0x00 in a string", 1, 3 },
	{ "\"\\x\"", 0, "invalid escape '\\x' in a string", 1, 2 },
	{ "\"\\U0041\"", 0, "invalid escape '\\U' in a string", 1, 2 },
	{ "\"\\'\"", 0, "invalid escape '\\'' in a string", 1, 2 },
	{ "\"\\\x01\"", 0, "invalid escape '\\' then byte 0x01 in a string", 1, 2 },
	{ "\"\\", 0, "expected an escape after '\\', found the end of the input", 1, 3 },
	{ "\"\\u12\"", 0, "expected four hex digits after \\u", 1, 2 },
	{ "\"\\u12G4\"", 0, "expected four hex digits after \\u", 1, 2 },
	{ "\"\\u123", 0, "expected four hex digits after \\u", 1, 2 },
	{ "\"\\u0000\"", 0, "\\u0000 is not allowed in a string", 1, 2 },
	{ "\"a\\u0000\"", 0, "\\u0000 is not allowed in a string", 1, 3 },
	{ "\"\\ud800\"", 0, "lone surrogate \\ud800: expected a low surrogate", 1, 2 },
	{ "\"\\ud800x\"", 0, "lone surrogate \\ud800: expected a low surrogate", 1, 2 },
	{ "\"\\ud800\\u0041\"", 0, "lone surrogate \\ud800: expected a low surrogate", 1, 2 },
	{ "\"\\ud800\\ud800\"", 0, "lone surrogate \\ud800: expected a low surrogate", 1, 2 },
	{ "\"\\udbff\\n\"", 0, "lone surrogate \\udbff: expected a low surrogate", 1, 2 },
	{ "\"\\ud800\\uzzzz\"", 0, "expected four hex digits after \\u", 1, 8 },
	{ "\"\\udc00\"", 0, "lone surrogate \\udc00: a low surrogate needs a high one before it", 1, 2 },
	{ "\"\\udfff\\ud800\"", 0, "lone surrogate \\udfff: a low surrogate needs a high one", 1, 2 },
	/* raw bytes that are not UTF-8 */
	{ "\"\x80\"", 0, "invalid UTF-8 byte 0x80 in a string", 1, 2 },
	{ "\"\xbf\"", 0, "invalid UTF-8 byte 0xbf in a string", 1, 2 },
	{ "\"\xc0\xaf\"", 0, "invalid UTF-8 byte 0xc0 in a string", 1, 2 },
	{ "\"\xc1\xbf\"", 0, "invalid UTF-8 byte 0xc1 in a string", 1, 2 },
	{ "\"\xe0\x80\xaf\"", 0, "invalid UTF-8 byte 0xe0 in a string", 1, 2 },
	{ "\"\xe0\x9f\xbf\"", 0, "invalid UTF-8 byte 0xe0 in a string", 1, 2 },
	{ "\"\xf0\x80\x80\xaf\"", 0, "invalid UTF-8 byte 0xf0 in a string", 1, 2 },
	{ "\"\xf0\x8f\xbf\xbf\"", 0, "invalid UTF-8 byte 0xf0 in a string", 1, 2 },
	{ "\"\xed\xa0\x80\"", 0, "invalid UTF-8 byte 0xed in a string", 1, 2 },
	{ "\"\xed\xbf\xbf\"", 0, "invalid UTF-8 byte 0xed in a string", 1, 2 },
	{ "\"\xf4\x90\x80\x80\"", 0, "invalid UTF-8 byte 0xf4 in a string", 1, 2 },
	{ "\"\xf5\x80\x80\x80\"", 0, "invalid UTF-8 byte 0xf5 in a string", 1, 2 },
	{ "\"\xfe\"", 0, "invalid UTF-8 byte 0xfe in a string", 1, 2 },
	{ "\"\xff\"", 0, "invalid UTF-8 byte 0xff in a string", 1, 2 },
	{ "\"\xc3\"", 0, "invalid UTF-8 byte 0xc3 in a string", 1, 2 },
	{ "\"\xe2\x82\"", 0, "invalid UTF-8 byte 0xe2 in a string", 1, 2 },
	{ "\"ab\xe2\x82", 0, "invalid UTF-8 byte 0xe2 in a string", 1, 4 },
	{ "\"\xf0\x9f\x98z\"", 0, "invalid UTF-8 byte 0xf0 in a string", 1, 2 },
	{ "{\"k\xff\":1}", 0, "invalid UTF-8 byte 0xff in a string", 1, 4 },
};

ParameterizedTestParameters(json_reader, every_form_rfc_8259_forbids_is_rejected_where_it_is)
{
	return cr_make_param_array(struct reject_case, reject_cases, sizeof(reject_cases) / sizeof(reject_cases[0]));
}

ParameterizedTest(struct reject_case *c, json_reader, every_form_rfc_8259_forbids_is_rejected_where_it_is)
{
	size_t len = c->len ? c->len : strlen(c->text);
	char where[64];

	cr_assert_null(parse_n(c->text, len), "'%s' accepted", c->text);
	cr_assert_null(doc);
	snprintf(where, sizeof(where), "line %zu, column %zu: ", c->line, c->column);
	cr_assert(!strncmp(err, where, strlen(where)), "'%s': error '%s' is not at '%s'", c->text, err, where);
	cr_assert(strstr(err + strlen(where), c->message) == err + strlen(where), "'%s': error '%s' lacks '%s'",
		  c->text, err, c->message);
	cr_assert_null(strchr(err, '\n'), "error must be one line: '%s'", err);
}

Test(json_reader, an_error_names_the_line_and_column_of_a_known_bad_document)
{
	static const char text[] = "{\n"
				   "  \"a\": 1,\n"
				   "  \"b\": [1, 2]\n"
				   "  \"c\": 3\n"
				   "}\n";

	cr_assert_null(parse(text));
	cr_assert_str_eq(err, "line 4, column 3: expected ',' or '}' after an object member, found '\"'");
	/* CR LF line ends: lines are counted at LF, and CR is the last byte of its line */
	cr_assert_null(parse("[\r\n1,\r\n2,\r\n]"));
	cr_assert_str_eq(err, "line 4, column 1: expected a value, found ']'");
	/* columns count bytes, so a character of three bytes moves the column by three */
	cr_assert_null(parse("[\"\xe2\x82\xac\", x]"));
	cr_assert_str_eq(err, "line 1, column 9: expected a value, found 'x'");
}

Test(json_reader, the_error_is_cut_to_the_buffer_and_no_buffer_is_fine)
{
	char small[12];

	memset(small, 'x', sizeof(small));
	cr_assert_null(json_reader__parse("[1,]", 4, small, sizeof(small)));
	cr_assert_str_eq(small, "line 1, col");
	cr_assert_null(json_reader__parse("[1,]", 4, NULL, 0));
	cr_assert_null(json_reader__parse("[1,]", 4, NULL, 64));
	small[0] = 'y';
	cr_assert_null(json_reader__parse("[1,]", 4, small, 0));
	cr_assert_eq(small[0], 'y', "a buffer of no bytes is not written");
}

Test(json_reader, success_leaves_the_error_buffer_alone)
{
	strcpy(err, "untouched");
	cr_assert_not_null(parse("[1]"));
	cr_assert_str_eq(err, "untouched");
}

Test(json_reader, a_duplicate_key_is_quoted_on_one_line_and_cut_when_long)
{
	char text[512], want[128];
	int n;

	n = snprintf(text, sizeof(text), "{\"%s\":1,\"%s\":2}", "0123456789012345678901234567890123456789tail",
		     "0123456789012345678901234567890123456789tail");
	cr_assert_null(parse_n(text, n));
	snprintf(want, sizeof(want), "duplicate key \"%s...\" in an object", "0123456789012345678901234567890123456789");
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);

	/* cut inside the euro sign at byte 40: the whole character goes */
	n = snprintf(text, sizeof(text), "{\"%s\xe2\x82\xac\":1,\"%s\xe2\x82\xac\":2}",
		     "012345678901234567890123456789012345678", "012345678901234567890123456789012345678");
	cr_assert_null(parse_n(text, n));
	snprintf(want, sizeof(want), "duplicate key \"%s...\" in an object", "012345678901234567890123456789012345678");
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);

	cr_assert_null(parse("{\"q\\\"\\\\\\r\":1,\"q\\\"\\\\\\r\":2}"));
	cr_assert(strstr(err, "duplicate key \"q\\\"\\\\\\u000d\""), "%s", err);
}

Test(json_reader, a_duplicate_among_many_keys_is_found)
{
	size_t cap = 2000 * 16, len = 0;
	char *text = malloc(cap);
	int i;

	cr_assert_not_null(text);
	len += snprintf(text + len, cap - len, "{");
	for (i = 0; i < 2000; i++)
		len += snprintf(text + len, cap - len, "\"k%d\":%d,", i, i);
	len += snprintf(text + len, cap - len, "\"k1234\":0}");
	cr_assert_null(parse_n(text, len));
	cr_assert(strstr(err, "duplicate key \"k1234\" in an object"), "%s", err);

	/* without it, every key is there, in order */
	len -= strlen(",\"k1234\":0}");
	len += snprintf(text + len, cap - len, "}");
	cr_assert_not_null(parse_n(text, len), "%s", err);
	cr_assert_eq(json_reader__len(json_reader__root(doc)), 2000);
	for (i = 0; i < 2000; i += 111) {
		char key[16];
		uint64_t v;

		snprintf(key, sizeof(key), "k%d", i);
		cr_assert(json_reader__get_u64(json_reader__root(doc), key, &v));
		cr_assert_eq(v, (uint64_t)i);
		cr_assert_str_eq(json_reader__key_at(json_reader__root(doc), i), key);
	}
	free(text);
}

/* nest - @depth arrays (or objects under key "k") around 0 */
static char *nest(unsigned int depth, bool objects)
{
	char *text = malloc(depth * 6 + 2), *p = text;
	unsigned int i;

	cr_assert_not_null(text);
	for (i = 0; i < depth; i++)
		p += sprintf(p, objects ? "{\"k\":" : "[");
	*p++ = '0';
	for (i = 0; i < depth; i++)
		*p++ = objects ? '}' : ']';
	*p = '\0';
	return text;
}

Test(json_reader, nesting_stops_past_the_depth_limit)
{
	const struct json_node *n;
	char *text;
	unsigned int i;
	uint64_t v = 1;

	text = nest(JSON_READER_MAX_DEPTH, false);
	n = parse(text);
	cr_assert_not_null(n, "%s", err);
	for (i = 0; i < JSON_READER_MAX_DEPTH; i++)
		n = json_reader__at(n, 0);
	cr_assert(json_reader__u64(n, &v));
	cr_assert_eq(v, 0);
	free(text);

	text = nest(JSON_READER_MAX_DEPTH + 1, false);
	cr_assert_null(parse(text));
	cr_assert_str_eq(err, "line 1, column 65: arrays and objects nested deeper than 64 levels");
	free(text);

	text = nest(JSON_READER_MAX_DEPTH, true);
	cr_assert_not_null(parse(text), "%s", err);
	free(text);
	text = nest(JSON_READER_MAX_DEPTH + 1, true);
	cr_assert_null(parse(text));
	cr_assert(strstr(err, "column 321: arrays and objects nested deeper than 64 levels"), "%s", err);
	free(text);

	/* a deep document is cut at once, not walked down first */
	text = nest(100000, false);
	cr_assert_null(parse(text));
	cr_assert(strstr(err, "column 65: arrays and objects nested deeper"), "%s", err);
	free(text);
}

/* ---------------------------------------------------------------- numbers */

Test(json_reader, u64_is_exact_to_uint64_max_and_refuses_past_it)
{
	uint64_t v = 0;
	double d;

	cr_assert(json_reader__u64(parse("18446744073709551615"), &v));
	cr_assert_eq(v, UINT64_MAX);
	cr_assert(json_reader__u64(parse("18446744073709551614"), &v));
	cr_assert_eq(v, UINT64_MAX - 1);

	/* one past it is still a number, as a double, but no u64 */
	v = 7;
	cr_assert_not(json_reader__u64(parse("18446744073709551616"), &v));
	cr_assert_eq(v, 7, "*out is left alone on false");
	cr_assert(json_reader__double(json_reader__root(doc), &d));
	cr_assert(d == 18446744073709551616.0);
	cr_assert_not(json_reader__u64(parse("99999999999999999999"), &v));
	cr_assert_not(json_reader__u64(parse("184467440737095516150"), &v));

	/* exact where a double is not: 2^53 + 1 */
	cr_assert(json_reader__u64(parse("9007199254740993"), &v));
	cr_assert_eq(v, 9007199254740993ULL);

	cr_assert_not(json_reader__u64(parse("-1"), &v));
	cr_assert_not(json_reader__u64(parse("-0"), &v));
	cr_assert_not(json_reader__u64(parse("1.0"), &v));
	cr_assert_not(json_reader__u64(parse("1e3"), &v));
	cr_assert_not(json_reader__u64(parse("1E0"), &v));
	cr_assert_not(json_reader__u64(parse("\"1\""), &v));
	cr_assert_not(json_reader__u64(parse("true"), &v));
	cr_assert_not(json_reader__u64(NULL, &v));
	cr_assert(json_reader__u64(parse("0"), &v));
	cr_assert_eq(v, 0);
}

Test(json_reader, doubles_read_as_the_nearest_double)
{
	static const struct {
		const char *text;
		double want;
	} cases[] = {
		{ "0.1", 0.1 },
		{ "-2.5", -2.5 },
		{ "3.141592653589793", 3.141592653589793 },
		{ "1.7976931348623157e308", DBL_MAX },
		{ "-1.7976931348623157E+308", -DBL_MAX },
		{ "2.2250738585072014e-308", DBL_MIN },
		{ "5e-324", 5e-324 },
		{ "4.9406564584124654e-324", 5e-324 },
		{ "123456789012345678901234567890", 123456789012345678901234567890.0 },
		{ "0.000001", 1e-6 },
		{ "1e22", 1e22 },
		{ "903.9000000000001", 903.9000000000001 },
		/* 1 + 2^-53, halfway between two doubles, goes to the even one; a hair above it, up */
		{ "1.00000000000000011102230246251565404236316680908203125", 1.0 },
		{ "1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002 },
	};
	size_t i;
	double d;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert(json_reader__double(parse(cases[i].text), &d), "'%s': %s", cases[i].text, err);
		cr_assert(d == cases[i].want, "'%s' read as %.17g", cases[i].text, d);
	}
	cr_assert_not(json_reader__double(parse("null"), &d));
	cr_assert_not(json_reader__double(NULL, &d));
}

/* ---------------------------------------------------------------- lookups */

Test(json_reader, objects_and_arrays_are_walked_in_document_order)
{
	const struct json_node *root, *arr;
	uint64_t v;
	double d;

	root = parse("{\"name\": \"cond\", \"n\": 3, \"x\": -0.5, \"list\": [10, \"two\", null, false], "
		     "\"caf\xc3\xa9\": true, \"empty\": {}}");
	cr_assert_not_null(root, "%s", err);
	cr_assert_eq(json_reader__type(root), JSON_OBJECT);
	cr_assert_eq(json_reader__len(root), 6);
	cr_assert_str_eq(json_reader__key_at(root, 0), "name");
	cr_assert_str_eq(json_reader__key_at(root, 3), "list");
	cr_assert_str_eq(json_reader__key_at(root, 4), "caf\xc3\xa9");
	cr_assert_null(json_reader__key_at(root, 6));
	cr_assert_str_eq(json_reader__string(json_reader__at(root, 0)), "cond");
	cr_assert_eq(json_reader__type(json_reader__at(root, 4)), JSON_TRUE);
	cr_assert_null(json_reader__at(root, 6));
	cr_assert_eq(json_reader__get(root, "caf\xc3\xa9"), json_reader__at(root, 4));

	cr_assert_str_eq(json_reader__get_string(root, "name"), "cond");
	cr_assert(json_reader__get_u64(root, "n", &v));
	cr_assert_eq(v, 3);
	cr_assert(json_reader__get_double(root, "n", &d));
	cr_assert(d == 3.0);
	cr_assert(json_reader__get_double(root, "x", &d));
	cr_assert(d == -0.5);
	cr_assert_not(json_reader__get_u64(root, "x", &v));
	cr_assert_not(json_reader__get_u64(root, "name", &v));
	cr_assert_null(json_reader__get_string(root, "n"));
	cr_assert_null(json_reader__get(root, "missing"));
	cr_assert_null(json_reader__get(root, "Name"));
	cr_assert_null(json_reader__get(root, NULL));
	cr_assert_not(json_reader__get_u64(root, "missing", &v));
	cr_assert_not(json_reader__get_double(root, "missing", &d));
	cr_assert_null(json_reader__get_string(root, "missing"));
	cr_assert_eq(json_reader__len(json_reader__get(root, "empty")), 0);
	cr_assert_eq(json_reader__type(json_reader__get(root, "empty")), JSON_OBJECT);
	cr_assert_null(json_reader__at(json_reader__get(root, "empty"), 0));

	arr = json_reader__get(root, "list");
	cr_assert_eq(json_reader__type(arr), JSON_ARRAY);
	cr_assert_eq(json_reader__len(arr), 4);
	cr_assert(json_reader__u64(json_reader__at(arr, 0), &v));
	cr_assert_eq(v, 10);
	cr_assert_str_eq(json_reader__string(json_reader__at(arr, 1)), "two");
	cr_assert_eq(json_reader__type(json_reader__at(arr, 2)), JSON_NULL);
	cr_assert_not_null(json_reader__at(arr, 2), "a null element is a node, not a missing one");
	cr_assert_eq(json_reader__type(json_reader__at(arr, 3)), JSON_FALSE);
	cr_assert_null(json_reader__at(arr, 4));
	cr_assert_null(json_reader__key_at(arr, 0), "an array has no keys");
	cr_assert_null(json_reader__get(arr, "0"), "an array has no members by name");
}

Test(json_reader, every_accessor_takes_null_and_the_wrong_type)
{
	const struct json_node *s;
	uint64_t v = 5;
	double d = 5;

	cr_assert_null(json_reader__root(NULL));
	json_reader__free(NULL);
	cr_assert_eq(json_reader__type(NULL), JSON_NULL);
	cr_assert_null(json_reader__get(NULL, "a"));
	cr_assert_eq(json_reader__len(NULL), 0);
	cr_assert_null(json_reader__at(NULL, 0));
	cr_assert_null(json_reader__key_at(NULL, 0));
	cr_assert_null(json_reader__string(NULL));
	cr_assert_not(json_reader__double(NULL, &d));
	cr_assert_not(json_reader__u64(NULL, &v));
	cr_assert_not(json_reader__get_u64(NULL, "a", &v));
	cr_assert_not(json_reader__get_double(NULL, "a", &d));
	cr_assert_null(json_reader__get_string(NULL, "a"));
	cr_assert_eq(v, 5);
	cr_assert(d == 5);

	s = parse("\"abc\"");
	cr_assert_null(json_reader__get(s, "a"));
	cr_assert_eq(json_reader__len(s), 0, "a string's length is not a container's");
	cr_assert_null(json_reader__at(s, 0));
	cr_assert_null(json_reader__key_at(s, 0));
}

/* ---------------------------------------------------------------- memory */

Test(json_reader, a_memory_bound_fails_cleanly_with_out_of_memory)
{
	char path[512];
	size_t len, bound;
	char *text;

	snprintf(path, sizeof(path), "%s/throughput-burst-queue.json", fixtures_dir());
	text = read_file(path, &len);
	cr_assert_null(json_reader__parse_bounded(text, len, 0, err, sizeof(err)));
	cr_assert_str_eq(err, "out of memory");
	/* every bound fails whole, with the one message, until one is enough; the sanitized build checks for leaks */
	for (bound = 16;; bound += 64) {
		struct json_doc *d = json_reader__parse_bounded(text, len, bound, err, sizeof(err));

		if (d) {
			uint64_t tasks;

			cr_assert(json_reader__get_u64(json_reader__at(json_reader__get(json_reader__root(d), "results"),
								       0), "tasks", &tasks));
			cr_assert_eq(tasks, 10);
			json_reader__free(d);
			break;
		}
		cr_assert_str_eq(err, "out of memory");
		cr_assert_lt(bound, 64 * len, "a %zu-byte document still fails with %zu bytes", len, bound);
	}
	/* and within a small multiple of the input's size */
	cr_assert_lt(bound, 16 * len + 8192, "%zu bytes to read %zu", bound, len);
	/* a syntax error found before the bound is reached is still that error */
	cr_assert_null(json_reader__parse_bounded("[1,]", 4, 1 << 20, err, sizeof(err)));
	cr_assert_str_eq(err, "line 1, column 4: expected a value, found ']'");
	free(text);
}

/* ---------------------------------------------------------------- json_writer round trip */

static const double round_trip_doubles[] = { 0.1, -2.5, 1.0 / 3, 1e300, -2.5e-300, 5e-324, DBL_MAX, 1e-7, 123456.789 };
static const char *const round_trip_strings[] = {
	"", "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t\x01\x1f\x7f",
	"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
};

/* write_document - every kind of value the writer has, compact or pretty, into a string of *@len bytes */
static char *write_document(bool compact, size_t *len)
{
	struct json_writer w;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t i;

	cr_assert_not_null(f);
	if (compact)
		json_writer__init_compact(&w, f);
	else
		json_writer__init(&w, f);
	json_writer__begin_object(&w);
	json_writer__put_uint(&w, "zero", 0);
	json_writer__put_uint(&w, "u64_max", UINT64_MAX);
	json_writer__put_int(&w, "i64_min", INT64_MIN);
	json_writer__put_int(&w, "i64_max", INT64_MAX);
	json_writer__put_int(&w, "minus_one", -1);
	json_writer__key(&w, "fixed");
	json_writer__fixed_point(&w, 1500123, 3);
	json_writer__put_bool(&w, "yes", true);
	json_writer__put_bool(&w, "no", false);
	json_writer__put_null(&w, "nothing");
	json_writer__put_uint_if(&w, "absent", false, 3);
	json_writer__put_double(&w, "nan", NAN);
	json_writer__put_strn(&w, "comm", "bq-producer\xe2\x82", 14);	/* a comm cut inside a character */
	json_writer__key(&w, "doubles");
	json_writer__begin_array(&w);
	for (i = 0; i < sizeof(round_trip_doubles) / sizeof(round_trip_doubles[0]); i++)
		json_writer__double(&w, round_trip_doubles[i]);
	json_writer__end_array(&w);
	json_writer__key(&w, "strings");
	json_writer__begin_array(&w);
	for (i = 0; i < sizeof(round_trip_strings) / sizeof(round_trip_strings[0]); i++) {
		json_writer__line_break(&w);
		json_writer__string(&w, round_trip_strings[i]);
	}
	json_writer__end_array(&w);
	json_writer__key(&w, "nested");
	json_writer__begin_array(&w);
	json_writer__begin_array(&w);
	json_writer__end_array(&w);
	json_writer__begin_object(&w);
	json_writer__end_object(&w);
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "\xe2\x82\xac key \"q\"\n", "v");
	json_writer__end_object(&w);
	json_writer__end_array(&w);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void check_round_trip(bool compact)
{
	const struct json_node *root, *arr, *obj;
	size_t len, i;
	char *text = write_document(compact, &len);
	uint64_t v;
	double d;

	root = parse_n(text, len);
	cr_assert_not_null(root, "%s in:\n%s", err, text);
	cr_assert_eq(json_reader__len(root), 15);
	cr_assert(json_reader__get_u64(root, "zero", &v));
	cr_assert_eq(v, 0);
	cr_assert(json_reader__get_u64(root, "u64_max", &v));
	cr_assert_eq(v, UINT64_MAX);
	cr_assert(json_reader__get_double(root, "i64_min", &d));
	cr_assert(d == (double)INT64_MIN);
	cr_assert_not(json_reader__get_u64(root, "i64_min", &v));
	cr_assert(json_reader__get_u64(root, "i64_max", &v));
	cr_assert_eq(v, (uint64_t)INT64_MAX);
	cr_assert(json_reader__get_double(root, "minus_one", &d));
	cr_assert(d == -1);
	cr_assert(json_reader__get_double(root, "fixed", &d));
	cr_assert(d == 1500.123);
	cr_assert_eq(json_reader__type(json_reader__get(root, "yes")), JSON_TRUE);
	cr_assert_eq(json_reader__type(json_reader__get(root, "no")), JSON_FALSE);
	cr_assert_eq(json_reader__type(json_reader__get(root, "nothing")), JSON_NULL);
	cr_assert_not_null(json_reader__get(root, "nothing"));
	cr_assert_eq(json_reader__type(json_reader__get(root, "absent")), JSON_NULL);
	cr_assert_eq(json_reader__type(json_reader__get(root, "nan")), JSON_NULL);
	/* the writer keeps a byte that is not UTF-8 as the character of that value: U+00E2, U+0082 */
	cr_assert_str_eq(json_reader__get_string(root, "comm"), "bq-producer\xc3\xa2\xc2\x82");

	arr = json_reader__get(root, "doubles");
	cr_assert_eq(json_reader__len(arr), sizeof(round_trip_doubles) / sizeof(round_trip_doubles[0]));
	for (i = 0; i < json_reader__len(arr); i++) {
		cr_assert(json_reader__double(json_reader__at(arr, i), &d));
		cr_assert(d == round_trip_doubles[i], "doubles[%zu]: %.17g read as %.17g", i, round_trip_doubles[i], d);
	}
	arr = json_reader__get(root, "strings");
	cr_assert_eq(json_reader__len(arr), sizeof(round_trip_strings) / sizeof(round_trip_strings[0]));
	for (i = 0; i < json_reader__len(arr); i++)
		cr_assert_str_eq(json_reader__string(json_reader__at(arr, i)), round_trip_strings[i], "strings[%zu]", i);

	arr = json_reader__get(root, "nested");
	cr_assert_eq(json_reader__len(arr), 3);
	cr_assert_eq(json_reader__type(json_reader__at(arr, 0)), JSON_ARRAY);
	cr_assert_eq(json_reader__len(json_reader__at(arr, 0)), 0);
	cr_assert_eq(json_reader__type(json_reader__at(arr, 1)), JSON_OBJECT);
	cr_assert_eq(json_reader__len(json_reader__at(arr, 1)), 0);
	obj = json_reader__at(arr, 2);
	cr_assert_str_eq(json_reader__get_string(obj, "\xe2\x82\xac key \"q\"\n"), "v");
	free(text);
}

Test(json_reader, a_pretty_json_writer_document_reads_back_whole)
{
	check_round_trip(false);
}

Test(json_reader, a_compact_json_writer_document_reads_back_whole)
{
	check_round_trip(true);
}

/* ---------------------------------------------------------------- a workload's document */

Test(json_reader, a_throughput_workload_document_gives_its_figures)
{
	const struct json_node *root, *results, *r, *ns;
	char path[512];
	size_t len;
	char *text;
	uint64_t v;
	double d;

	snprintf(path, sizeof(path), "%s/throughput-burst-queue.json", fixtures_dir());
	text = read_file(path, &len);
	root = parse_n(text, len);
	cr_assert_not_null(root, "%s: %s", path, err);
	cr_assert_str_eq(json_reader__get_string(root, "schema"), "wakeprobe-throughput");
	cr_assert(json_reader__get_u64(root, "schema_version", &v));
	cr_assert_eq(v, 1);
	cr_assert_str_eq(json_reader__get_string(root, "workload"), "burst-queue");
	cr_assert(json_reader__get_u64(json_reader__get(root, "options"), "repeat", &v));
	cr_assert_eq(v, 3);

	results = json_reader__get(root, "results");
	cr_assert_eq(json_reader__type(results), JSON_ARRAY);
	cr_assert_eq(json_reader__len(results), 2);
	r = json_reader__at(results, 0);
	cr_assert_str_eq(json_reader__get_string(r, "mode"), "cond");
	cr_assert(json_reader__get_u64(r, "tasks", &v));
	cr_assert_eq(v, 10);
	cr_assert(json_reader__get_u64(r, "runs", &v));
	cr_assert_eq(v, 3);
	cr_assert_str_eq(json_reader__get_string(r, "start"), "seed");
	ns = json_reader__get(r, "ns_per_task");
	cr_assert(json_reader__get_double(ns, "median", &d));
	cr_assert(d == 903.9000000000001, "median %.17g", d);
	cr_assert(json_reader__get_double(ns, "min", &d));
	cr_assert(json_reader__get_double(json_reader__get(r, "seconds"), "median", &d));
	cr_assert(d == 9.039000000000001e-06, "seconds median %.17g", d);
	cr_assert(json_reader__get_u64(json_reader__get(r, "counts"), "sent", &v));
	cr_assert_eq(v, 30);
	cr_assert_str_eq(json_reader__get_string(json_reader__at(results, 1), "start"), "ready");
	free(text);
}

/* a document read and written again through json_reader__write() is the same text: nothing lost, nothing moved */
Test(json_reader, a_workload_document_written_again_is_the_same_text)
{
	char path[PATH_MAX], *text, *again = NULL;
	struct json_writer w;
	size_t len, again_len = 0;
	const struct json_node *root;
	FILE *f;

	snprintf(path, sizeof(path), "%s/throughput-burst-queue.json", fixtures_dir());
	text = read_file(path, &len);
	root = parse_n(text, len);
	cr_assert_not_null(root, "%s: %s", path, err);
	f = open_memstream(&again, &again_len);
	cr_assert_not_null(f);
	json_writer__init(&w, f);
	json_reader__write(&w, root);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_str_eq(again, text);
	free(again);
	free(text);
}

/* a number that is not a whole count comes back as the same double; one nested too deep is refused, not cut */
Test(json_reader, numbers_keep_their_value_and_depth_stays_bounded)
{
	static const char text[] = "[-1,-0.5,1e3,18446744073709551615,2.5e-300]";
	char *deep, *out = NULL;
	struct json_writer w;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);

	cr_assert_not_null(f);
	json_writer__init_compact(&w, f);
	json_reader__write(&w, parse(text));
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_str_eq(out, "[-1,-0.5,1000,18446744073709551615,2.5e-300]\n");
	free(out);

	deep = nest(JSON_WRITER_MAX_DEPTH + 1, false);
	out = NULL;
	f = open_memstream(&out, &out_len);
	cr_assert_not_null(f);
	json_writer__init_compact(&w, f);
	json_reader__write(&w, parse(deep));
	cr_assert_eq(json_writer__finish(&w), -E2BIG);
	cr_assert_eq(fclose(f), 0);
	free(out);
	free(deep);
}
