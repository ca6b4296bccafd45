// SPDX-License-Identifier: GPL-2.0
/*
 * test_svg.c - the streaming SVG writer: the exact document a few calls
 * make, text and attributes escaped into well-formed XML whatever bytes
 * they hold (read back by python through tests/check_svg.py), numbers
 * short and finite, and a misuse or a failed stream reported by
 * svg__finish() with the document cut short.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "readback.h"
#include "svg.h"

static char path[64];
static FILE *file;

static void setup(void)
{
	file = temp_output("svg", path);
}

static void teardown(void)
{
	if (file)
		fclose(file);
	unlink(path);
}

/* written - the file is complete: close it for python to read */
static void written(void)
{
	cr_assert_eq(fclose(file), 0);
	file = NULL;
}

/* written_text - the file is complete: all of it, to be freed */
static char *written_text(void)
{
	size_t len;

	written();
	return read_file(path, &len);
}

TestSuite(svg, .init = setup, .fini = teardown);

Test(svg, text_and_attributes_read_back_as_written_whatever_bytes_they_hold)
{
	/* markup, a control byte, a byte that is no UTF-8, valid UTF-8, and the whitespace XML keeps */
	const char odd[] = "a&b<c>\"d\x01" "e\xff" "f µs\tend";
	struct svg s;

	svg__begin(&s, file, 100, 50);
	svg__title(&s, "plot %d", 1);
	svg__open(&s, "text");
	svg__attr(&s, "class", "odd");
	svg__attr(&s, "data-value", odd);
	svg__attr_num(&s, "x", 10);
	svg__attr_num(&s, "y", 20);
	svg__text(&s, odd);
	svg__close(&s);
	cr_assert_eq(svg__finish(&s), 0);
	written();
	check_svg(path,
		  "[e] = by_class(root, 'odd', 'text')\n"
		  "shown = 'a&b<c>\"d\\u2401e\\u00fff \\u00b5s\\tend'\n"
		  "want(text_of(e) == shown, repr(text_of(e)))\n"
		  "want(e.get('data-value') == shown.replace('\\t', ' '), repr(e.get('data-value')))\n"
		  "want(text_of(root.find(cs.SVG + 'title')) == 'plot 1', 'the title')\n"
		  "want(root.get('width') == '100' and root.get('height') == '50', root.attrib)\n");
}

Test(svg, numbers_are_written_short_and_never_as_nan)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 1.5, "1.5" }, { 2.0, "2" }, { 0.126, "0.13" }, { -0.001, "0" }, { 1e300 * 1e300, "0" },
		{ 12345.678, "12345.68" },
	};
	char buf[1024] = "", *text;
	size_t len;
	struct svg s;

	svg__begin(&s, file, 10, 10);
	svg__title(&s, "numbers");
	svg__open(&s, "g");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[16];

		snprintf(name, sizeof(name), "data-n%zu", i);
		svg__attr_num(&s, name, cases[i].v);
	}
	svg__attr_u64(&s, "data-big", UINT64_MAX);
	cr_assert_eq(svg__finish(&s), 0);
	written();
	text = read_file(path, &len);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(buf, sizeof(buf), " data-n%zu=\"%s\"", i, cases[i].want);
		cr_expect(strstr(text, buf), "%g should be written %s: %s", cases[i].v, buf, text);
	}
	cr_expect(strstr(text, " data-big=\"18446744073709551615\""), "%s", text);
	free(text);
	check_svg(path, "want(len(by_class(root, 'x')) == 0, 'parsed')\n");
}

Test(svg, a_misuse_is_remembered_and_ends_the_document_short)
{
	struct svg s;
	char *text;
	size_t len;

	svg__begin(&s, file, 10, 10);
	svg__open(&s, "text");
	svg__text(&s, "content");
	svg__attr(&s, "class", "late");	/* the start tag is over */
	svg__open(&s, "rect");			/* ignored: the writer has stopped */
	cr_assert_eq(svg__finish(&s), -EINVAL);
	written();
	text = read_file(path, &len);

	cr_assert_null(strstr(text, "late"), "nothing is written after a misuse: %s", text);
	cr_assert_null(strstr(text, "<rect"), "%s", text);
	free(text);

	svg__begin(&s, NULL, 10, 10);	/* lay out only: nothing is written */
	svg__close(&s);
	svg__close(&s);
	cr_assert_eq(svg__finish(&s), 0, "a dry run writes nothing, and fails at nothing");
}

Test(svg, nesting_past_the_stack_is_refused)
{
	struct svg s;

	svg__begin(&s, file, 10, 10);
	for (int i = 0; i < SVG_MAX_DEPTH; i++)
		svg__open(&s, "g");
	cr_assert_eq(svg__finish(&s), -E2BIG);
}

Test(svg, a_few_calls_make_exactly_this_document)
{
	static const char expected[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120.5\" height=\"40\" viewBox=\"0 0 120 40\">\n"
		"<title>a plot</title>\n"
		"<g class=\"panel\" data-count=\"3\">\n"
		"<rect x=\"1\" y=\"2.25\"/>\n"
		"<text x=\"0\">p99</text></g>\n"
		"<g/>\n"
		"</svg>\n";
	struct svg s;
	char *text;

	svg__begin(&s, file, 120.5, 40);
	svg__title(&s, "a %s", "plot");
	svg__open(&s, "g");
	svg__attr(&s, "class", "panel");
	svg__attr_u64(&s, "data-count", 3);
	svg__open(&s, "rect");
	svg__attr_num(&s, "x", 1);
	svg__attr_num(&s, "y", 2.25);
	svg__close(&s);
	svg__open(&s, "text");
	svg__attr_num(&s, "x", 0);
	svg__text(&s, "p99");
	svg__close(&s);
	svg__close(&s);
	svg__open(&s, "g");	/* nothing inside: an empty element, closed by svg__finish() */
	cr_assert_eq(svg__finish(&s), 0);
	text = written_text();
	cr_assert_str_eq(text, expected);
	free(text);
}

Test(svg, every_control_byte_is_drawn_as_its_control_picture_and_stray_bytes_as_their_code)
{
	char ctl[40], want[512], *text, *got;
	size_t n = 0, w = 0;
	struct svg s;

	/* 0x01..0x1f but tab, LF and CR, then DEL */
	for (int c = 1; c < 0x20; c++) {
		if (c == '\t' || c == '\n' || c == '\r')
			continue;
		ctl[n++] = (char)c;
		w += (size_t)snprintf(want + w, sizeof(want) - w, "&#x%x;", 0x2400 + c);
	}
	ctl[n++] = 0x7f;
	w += (size_t)snprintf(want + w, sizeof(want) - w, "&#x2421;");
	ctl[n] = '\0';
	/* a lone continuation byte, an overlong form, a cut sequence: not UTF-8, each byte its own character */
	snprintf(want + w, sizeof(want) - w, "|&#x80;|&#xc0;&#xaf;|&#xe2;&#x82;|\xe2\x82\xac");

	svg__begin(&s, file, 10, 10);
	svg__title(&s, "bytes");
	svg__open(&s, "text");
	svg__text(&s, ctl);
	svg__text(&s, "|\x80|\xc0\xaf|\xe2\x82|\xe2\x82\xac");
	svg__close(&s);
	cr_assert_eq(svg__finish(&s), 0);
	text = written_text();
	got = strstr(text, "<text>");
	cr_assert_not_null(got, "%s", text);
	got += strlen("<text>");
	cr_assert_eq(strncmp(got, want, strlen(want)), 0, "got  %.*s\nwant %s", (int)strlen(want), got, want);
	cr_assert_eq(strncmp(got + strlen(want), "</text>", 7), 0, "%s", got);
	free(text);
	check_svg(path, "want(len(texts) > 0, 'parsed')\n");
}

Test(svg, a_title_is_escaped_and_cut_at_its_buffer)
{
	char long_title[700], *text, *t;
	struct svg s;

	memset(long_title, 'x', sizeof(long_title) - 1);
	long_title[sizeof(long_title) - 1] = '\0';
	svg__begin(&s, file, 10, 10);
	svg__title(&s, "<%s> & \"%d\"", "a", 1);
	svg__open(&s, "g");
	svg__title(&s, "%s", long_title);
	cr_assert_eq(svg__finish(&s), 0);
	text = written_text();
	cr_assert(strstr(text, "<title>&lt;a&gt; &amp; &quot;1&quot;</title>"), "%s", text);
	t = strstr(text, "<g>\n<title>");
	cr_assert_not_null(t, "%s", text);
	t += strlen("<g>\n<title>");
	cr_assert_eq(strspn(t, "x"), 511, "a title holds 511 bytes");
	cr_assert_eq(strncmp(t + 511, "</title>", 8), 0);
	free(text);
}

Test(svg, whole_numbers_keep_their_zeros_and_the_view_box_is_whole)
{
	struct svg s;
	char *text;

	svg__begin(&s, file, 1000.4, 99.6);
	svg__title(&s, "numbers");
	svg__open(&s, "g");
	svg__attr_num(&s, "data-a", 100);
	svg__attr_num(&s, "data-b", 10.1);
	svg__attr_num(&s, "data-c", -1.5);
	svg__attr_num(&s, "data-d", -0.004);
	svg__attr_num(&s, "data-e", 0.005001);
	svg__attr_num(&s, "data-f", -INFINITY);
	svg__attr_num(&s, "data-g", NAN);
	svg__attr_num(&s, "data-h", 2e6);
	svg__attr_u64(&s, "data-i", 0);
	cr_assert_eq(svg__finish(&s), 0);
	text = written_text();
	cr_assert(strstr(text, "width=\"1000.4\" height=\"99.6\" viewBox=\"0 0 1000 100\""), "%s", text);
	cr_assert(strstr(text, "<g data-a=\"100\" data-b=\"10.1\" data-c=\"-1.5\" data-d=\"0\" data-e=\"0.01\" "
			       "data-f=\"0\" data-g=\"0\" data-h=\"2000000\" data-i=\"0\"/>"), "%s", text);
	free(text);
}

Test(svg, the_first_misuse_is_the_one_reported)
{
	struct svg s;
	char *text;

	/* a close past the root, then text with nothing open: the close is what finish names */
	svg__begin(&s, file, 10, 10);
	svg__close(&s);
	svg__close(&s);
	cr_assert_eq(s.err, -EINVAL);
	svg__text(&s, "late");
	cr_assert_eq(svg__finish(&s), -EINVAL);

	/* nesting too deep first: a later attribute misuse does not replace it */
	svg__begin(&s, file, 10, 10);
	for (int i = 0; i <= SVG_MAX_DEPTH; i++)
		svg__open(&s, "g");
	svg__text(&s, "x");
	svg__attr(&s, "late", "1");
	cr_assert_eq(svg__finish(&s), -E2BIG);
	text = written_text();
	cr_assert_null(strstr(text, "late"), "%s", text);
	free(text);
}

Test(svg, a_stream_that_failed_is_reported_at_the_end)
{
	FILE *full = fopen("/dev/full", "w");
	struct svg s;

	if (!full)
		cr_skip_test("no /dev/full here");
	svg__begin(&s, full, 10, 10);
	svg__title(&s, "lost");
	cr_assert_eq(svg__finish(&s), -EIO);
	fclose(full);
}
