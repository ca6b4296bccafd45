// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - the JSON writer. Every document written
 * here is read back by python3's json module, strictly (no NaN, no duplicate
 * keys, UTF-8 only), and its content compared with what was written.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "json_writer.h"

extern char **environ;

/*
 * Loads argv[1] into d, refusing what Python would let through but JSON does
 * not allow, then runs argv[2]: its asserts are the test's checks. has()
 * names the keys an object lacks.
 */
static const char py_prelude[] =
	"import json, sys\n"
	"def no_constant(name):\n"
	"    raise ValueError('not JSON: ' + name)\n"
	"def no_duplicates(pairs):\n"
	"    keys = [k for k, _ in pairs]\n"
	"    dup = sorted({k for k in keys if keys.count(k) > 1})\n"
	"    if dup:\n"
	"        raise ValueError('duplicate keys %s' % dup)\n"
	"    return dict(pairs)\n"
	"with open(sys.argv[1], encoding='utf-8') as f:\n"
	"    d = json.load(f, parse_constant=no_constant, object_pairs_hook=no_duplicates)\n"
	"def has(o, keys):\n"
	"    missing = [k for k in keys.split() if k not in o]\n"
	"    assert not missing, 'missing keys %s in %s' % (missing, sorted(o))\n"
	"def hist_ok(name, s):\n"
	"    h = s['histogram']\n"
	"    assert sum(b['count'] for b in h) == s['count'], (name, 'rows do not add up', h)\n"
	"    for a, b in zip(h, h[1:]):\n"
	"        assert b['low_ns'] == a['high_ns'] + 1, (name, 'rows not contiguous', a, b)\n"
	"    for b in h:\n"
	"        assert b['low_ns'] in (0, 2) or b['low_ns'] & (b['low_ns'] - 1) == 0, (name, b)\n"
	"    if h:\n"
	"        assert h[0]['count'] and h[-1]['count'], (name, 'empty end row', h)\n"
	"exec(sys.argv[2])\n";

static char path[64];
static FILE *out;

static void open_tmp(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/wakeprobe-json-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	out = fdopen(fd, "w");
	cr_assert_not_null(out);
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

/* py_check - run the python @fmt... over the document at path; true when all its asserts hold */
static bool py_check(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static bool py_check(const char *fmt, ...)
{
	char *code, *argv[6];
	va_list ap;
	pid_t pid;
	int status, err;

	va_start(ap, fmt);
	cr_assert_geq(vasprintf(&code, fmt, ap), 0);
	va_end(ap);
	argv[0] = "python3";
	argv[1] = "-c";
	argv[2] = (char *)py_prelude;
	argv[3] = path;
	argv[4] = code;
	argv[5] = NULL;
	err = posix_spawnp(&pid, "python3", NULL, NULL, argv, environ);
	cr_assert_eq(err, 0, "cannot run python3: %s", strerror(err));
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	free(code);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
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

	cr_assert(py_check("assert d == ['say \"hi\"', 'back\\\\slash', 'nl\\n tab\\t one\\x01 us\\x1f del\\x7f', ''], d"));
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

	cr_assert(py_check("assert d == ['caf\\u00e9 \\u20ac \\U0001F600', 'lone \\xff', 'cut \\xc3', "
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
	json_writer__begin_object(&w);
	json_writer__key(&w, "a");
	json_writer__begin_array(&w);
	json_writer__uint(&w, 1);
	json_writer__begin_array(&w);
	json_writer__end_array(&w);
	json_writer__begin_object(&w);
	json_writer__end_object(&w);
	json_writer__begin_array(&w);
	json_writer__int(&w, -2);
	json_writer__bool(&w, true);
	json_writer__end_array(&w);
	json_writer__end_array(&w);
	json_writer__key(&w, "b");
	json_writer__begin_object(&w);
	json_writer__key(&w, "c");
	json_writer__begin_object(&w);
	json_writer__key(&w, "d");
	json_writer__null(&w);
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	json_writer__key(&w, "e");
	json_writer__bool(&w, false);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	close_tmp();

	cr_assert(py_check("assert d == {'a': [1, [], {}, [-2, True]], 'b': {'c': {'d': None}}, 'e': False}, d"));
	text = slurp();
	cr_assert_str_eq(text, expected);
	free(text);
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

	cr_assert(py_check("assert d == [18446744073709551615, 18446744073709551614, -9223372036854775808, "
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

	cr_assert(py_check("assert d[:3] == [None, None, None], d\n"
			   "assert d[3:] == [0.1, 1 / 3, -2.5e-7, 1e300, 2793.435762953727], d"));
	cr_assert(py_check("assert open(sys.argv[1]).read().count('0.1,') == 1, 'shortest form'"));
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

	cr_assert(py_check("x = d\n"
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
