// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_writer.c - the JSON writer, beyond the documents test_json_workload.c
 * reads back: what counts as valid UTF-8 byte by byte, the members the
 * put_* calls write (null where a value does not apply), keys escaped as
 * strings are, a document of one value, and what a misuse leaves: the
 * document cut where it happened, nothing after it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "json_writer.h"
#include "memout.h"
#include "readback.h"

TestSuite(json_emit, .init = memout__open, .fini = memout__close);

struct utf8_case {
	unsigned char bytes[5];
	size_t n;		/* the bytes there are */
	size_t want;		/* the sequence's length, 0: not valid UTF-8 */
};

ParameterizedTestParameters(json_emit, utf8_is_valid_only_in_its_shortest_form_up_to_u10ffff)
{
	static struct utf8_case cases[] = {
		{ { 0xc2, 0x80 }, 2, 2 },			/* U+0080, the first two-byte character */
		{ { 0xdf, 0xbf }, 2, 2 },			/* U+07FF */
		{ { 0xc3, 0xa9, 'x' }, 3, 2 },			/* what follows is not its business */
		{ { 0xc0, 0xaf }, 2, 0 },			/* overlong '/' */
		{ { 0xc1, 0xbf }, 2, 0 },			/* overlong U+007F */
		{ { 0xe0, 0xa0, 0x80 }, 3, 3 },			/* U+0800 */
		{ { 0xe0, 0x9f, 0xbf }, 3, 0 },			/* overlong U+07FF */
		{ { 0xed, 0x9f, 0xbf }, 3, 3 },			/* U+D7FF, just below the surrogates */
		{ { 0xed, 0xa0, 0x80 }, 3, 0 },			/* U+D800, a surrogate */
		{ { 0xed, 0xbf, 0xbf }, 3, 0 },			/* U+DFFF */
		{ { 0xee, 0x80, 0x80 }, 3, 3 },			/* U+E000 */
		{ { 0xef, 0xbf, 0xbf }, 3, 3 },			/* U+FFFF */
		{ { 0xf0, 0x90, 0x80, 0x80 }, 4, 4 },		/* U+10000 */
		{ { 0xf0, 0x8f, 0xbf, 0xbf }, 4, 0 },		/* overlong U+FFFF */
		{ { 0xf4, 0x8f, 0xbf, 0xbf }, 4, 4 },		/* U+10FFFF, the last */
		{ { 0xf4, 0x90, 0x80, 0x80 }, 4, 0 },		/* past it */
		{ { 0xf5, 0x80, 0x80, 0x80 }, 4, 0 },
		{ { 0xff }, 1, 0 },
		{ { 0x80, 0x80 }, 2, 0 },			/* a continuation byte cannot start one */
		{ { 0xbf }, 1, 0 },
		{ { 0xe2, 0x82 }, 2, 0 },			/* cut short by the end */
		{ { 0xe2, 0x82, 0xac }, 2, 0 },			/* ... by @n, whatever lies past it */
		{ { 0xf0, 0x9f, 0x98 }, 3, 0 },
		{ { 0xe2, 0x28, 0xa1 }, 3, 0 },			/* second byte not a continuation */
		{ { 0xe2, 0x82, 0x28 }, 3, 0 },			/* third byte not a continuation */
		{ { 0xf0, 0x9f, 0x98, 0xc0 }, 4, 0 },		/* fourth byte past the continuations */
	};

	return cr_make_param_array(struct utf8_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct utf8_case *c, json_emit, utf8_is_valid_only_in_its_shortest_form_up_to_u10ffff)
{
	cr_assert_eq(json_writer__utf8_len(c->bytes, c->n), c->want, "%02x %02x %02x %02x within %zu", c->bytes[0],
		     c->bytes[1], c->bytes[2], c->bytes[3], c->n);
}

Test(json_emit, each_put_writes_its_member_and_the_if_forms_write_null_where_nothing_applies)
{
	static const char expected[] =
		"{\"u\":18446744073709551615,\"i\":-9223372036854775808,\"d\":0.25,\"nan\":null,\"t\":true,"
		"\"f\":false,\"n\":null,\"s\":\"x\\\"y\",\"comm\":\"0123456789abcdef\",\"cut\":\"ab\","
		"\"u_no\":null,\"u_yes\":7,\"i_no\":null,\"i_yes\":-7}\n";
	static const char comm[20] = "0123456789abcdefXYZ";	/* 16 bytes, then more that must not be read */
	char path[64];
	struct json_writer w;
	FILE *f;

	json_writer__init_compact(&w, out);
	json_writer__begin_object(&w);
	json_writer__put_uint(&w, "u", UINT64_MAX);
	json_writer__put_int(&w, "i", INT64_MIN);
	json_writer__put_double(&w, "d", 0.25);
	json_writer__put_double(&w, "nan", NAN);
	json_writer__put_bool(&w, "t", true);
	json_writer__put_bool(&w, "f", false);
	json_writer__put_null(&w, "n");
	json_writer__put_str(&w, "s", "x\"y");
	json_writer__put_strn(&w, "comm", comm, 16);
	json_writer__put_strn(&w, "cut", "ab\0cd", 16);
	json_writer__put_uint_if(&w, "u_no", false, 5);
	json_writer__put_uint_if(&w, "u_yes", true, 7);
	json_writer__put_int_if(&w, "i_no", false, -5);
	json_writer__put_int_if(&w, "i_yes", true, -7);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_str_eq(written(), expected);

	/* and python reads the same members back */
	f = temp_output("json-put", path);
	fputs(expected, f);
	cr_assert_eq(fclose(f), 0);
	cr_expect(json_check(path, "assert d == {'u': 2**64 - 1, 'i': -2**63, 'd': 0.25, 'nan': None, 't': True,\n"
				   "  'f': False, 'n': None, 's': 'x\"y', 'comm': '0123456789abcdef', 'cut': 'ab',\n"
				   "  'u_no': None, 'u_yes': 7, 'i_no': None, 'i_yes': -7}, d"));
	unlink(path);
}

Test(json_emit, a_key_is_escaped_as_a_string_is)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__put_uint(&w, "a\"b\\c\n\x01\xff", 1);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_str_eq(written(), "{\n  \"a\\\"b\\\\c\\u000a\\u0001\\u00ff\": 1\n}\n");
}

Test(json_emit, a_document_may_be_one_value_and_must_be_one)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__string(&w, "only");
	cr_assert_eq(json_writer__finish(&w), 0);
	json_writer__init_compact(&w, out);
	json_writer__fixed_point(&w, 1500123, 3);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_str_eq(written(), "\"only\"\n1500.123\n");

	/* nothing at all is not a document, and no line ends it */
	json_writer__init(&w, out);
	cr_assert_eq(json_writer__finish(&w), -EINVAL);
	cr_assert_str_eq(written(), "\"only\"\n1500.123\n");
}

/* the wrong calls misuse_run() makes */
enum wrong {
	KEY_IN_ARRAY,
	END_OF_WRONG_KIND,
	VALUE_WITHOUT_KEY,
	KEY_AFTER_KEY,
	END_WITHOUT_VALUE,
	TWENTY_DECIMALS,
};

/* the document a misuse leaves: everything before it, nothing after, not even the final newline */
struct misuse_case {
	char what[48];
	int step;		/* the call of misuse_run() that is replaced; -1: none */
	enum wrong wrong;	/* ... by this one */
	char left[32];
};

/*
 * misuse_run - a compact [1,{"k":2}] whose call @step is replaced by the
 * wrong call @wrong, then a second document: the writer's result
 */
static int misuse_run(struct json_writer *w, FILE *out, int step, enum wrong wrong)
{
	json_writer__init_compact(w, out);
	for (int i = 0; i < 7; i++) {
		if (i == step) {
			switch (wrong) {
			case KEY_IN_ARRAY: json_writer__key(w, "k"); break;
			case END_OF_WRONG_KIND: json_writer__end_object(w); break;
			case VALUE_WITHOUT_KEY: json_writer__uint(w, 9); break;
			case KEY_AFTER_KEY: json_writer__key(w, "again"); break;
			case END_WITHOUT_VALUE: json_writer__end_object(w); break;
			case TWENTY_DECIMALS: json_writer__fixed_point(w, 1, 20); break;
			}
			continue;
		}
		switch (i) {
		case 0: json_writer__begin_array(w); break;
		case 1: json_writer__uint(w, 1); break;
		case 2: json_writer__begin_object(w); break;
		case 3: json_writer__key(w, "k"); break;
		case 4: json_writer__uint(w, 2); break;
		case 5: json_writer__end_object(w); break;
		case 6: json_writer__end_array(w); break;
		}
	}
	/* a second top-level value: never written, whatever came before */
	json_writer__null(w);
	return json_writer__finish(w);
}

ParameterizedTestParameters(json_emit, a_misuse_leaves_the_document_cut_where_it_happened)
{
	static struct misuse_case cases[] = {
		{ "a second document only", -1, KEY_IN_ARRAY, "[1,{\"k\":2}]" },
		{ "a key in an array", 1, KEY_IN_ARRAY, "[" },
		{ "an end of the wrong kind", 2, END_OF_WRONG_KIND, "[1" },
		{ "a value without its key", 3, VALUE_WITHOUT_KEY, "[1,{" },
		{ "a key after a key", 4, KEY_AFTER_KEY, "[1,{\"k\":" },
		{ "an end with the value missing", 4, END_WITHOUT_VALUE, "[1,{\"k\":" },
		{ "twenty decimals", 4, TWENTY_DECIMALS, "[1,{\"k\":" },
	};

	return cr_make_param_array(struct misuse_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct misuse_case *c, json_emit, a_misuse_leaves_the_document_cut_where_it_happened)
{
	struct json_writer w;

	cr_assert_eq(misuse_run(&w, out, c->step, c->wrong), -EINVAL, "%s", c->what);
	cr_assert_str_eq(written(), c->left, "%s", c->what);
}

Test(json_emit, a_pretty_array_of_containers_indents_each_level_by_two)
{
	static const char expected[] =
		"[\n"
		"  {\n"
		"    \"a\": []\n"
		"  },\n"
		"  {}\n"
		"]\n";
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_array(&w);
	json_writer__begin_object(&w);
	json_writer__key(&w, "a");
	json_writer__begin_array(&w);
	json_writer__end_array(&w);
	json_writer__end_object(&w);
	json_writer__begin_object(&w);
	json_writer__end_object(&w);
	json_writer__end_array(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_str_eq(written(), expected);
}
