// SPDX-License-Identifier: GPL-2.0
/* svg.c - a streaming SVG writer whose output is well-formed whatever its strings hold */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "json_writer.h"
#include "svg.h"

static void fail(struct svg *s, int err)
{
	if (!s->err)
		s->err = err;
}

/*
 * write_escaped - @str as XML character data or an attribute value. Valid
 * UTF-8 goes as it is, and so do tab, LF and CR. XML 1.0 allows no other
 * control character, not even as a reference: each one is shown as its Unicode
 * "control picture" (U+2400 + c: 0x01 is U+2401), which keeps its value
 * readable. A byte that is not part of valid UTF-8 is the character U+00XX,
 * as the JSON outputs read it back.
 */
static void write_escaped(FILE *out, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;
	size_t n = strlen(str), i = 0, len;

	while (i < n) {
		unsigned char c = p[i];

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\t' || c == '\n' || c == '\r')
			fputc(c, out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "&#x%x;", c == 0x7f ? 0x2421 : 0x2400 + c);
		else if (c < 0x80)
			fputc(c, out);
		else if ((len = json_writer__utf8_len(p + i, n - i))) {
			fwrite(p + i, 1, len, out);
			i += len;
			continue;
		} else
			fprintf(out, "&#x%x;", c);
		i++;
	}
}

/* end_start_tag - the innermost element gets content: its start tag ends */
static void end_start_tag(struct svg *s)
{
	if (s->in_start_tag)
		fputc('>', s->out);
	s->in_start_tag = false;
}

void svg__begin(struct svg *s, FILE *out, double width, double height)
{
	char box[64];

	memset(s, 0, sizeof(*s));
	s->out = out;
	if (out)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	svg__open(s, "svg");
	svg__attr(s, "xmlns", "http://www.w3.org/2000/svg");
	svg__attr_num(s, "width", width);
	svg__attr_num(s, "height", height);
	snprintf(box, sizeof(box), "0 0 %.0f %.0f", width, height);
	svg__attr(s, "viewBox", box);
}

void svg__open(struct svg *s, const char *name)
{
	if (s->err || !s->out)
		return;
	if (s->depth == SVG_MAX_DEPTH) {
		fail(s, -E2BIG);
		return;
	}
	end_start_tag(s);
	fprintf(s->out, "%s<%s", s->depth ? "\n" : "", name);
	s->open[s->depth] = name;
	s->depth++;
	s->in_start_tag = true;
}

void svg__attr(struct svg *s, const char *name, const char *value)
{
	if (s->err || !s->out)
		return;
	if (!s->in_start_tag) {
		fail(s, -EINVAL);
		return;
	}
	fprintf(s->out, " %s=\"", name);
	write_escaped(s->out, value);
	fputc('"', s->out);
}

void svg__attr_num(struct svg *s, const char *name, double v)
{
	char buf[48];
	size_t n;

	/* a coordinate off the page is still a number: NaN or inf would make the attribute invalid */
	if (!isfinite(v))
		v = 0;
	snprintf(buf, sizeof(buf), "%.2f", v);
	n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	svg__attr(s, name, buf);
}

void svg__attr_u64(struct svg *s, const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	svg__attr(s, name, buf);
}

void svg__text(struct svg *s, const char *text)
{
	if (s->err || !s->out)
		return;
	if (!s->depth) {
		fail(s, -EINVAL);
		return;
	}
	end_start_tag(s);
	write_escaped(s->out, text);
}

void svg__close(struct svg *s)
{
	if (s->err || !s->out)
		return;
	if (!s->depth) {
		fail(s, -EINVAL);
		return;
	}
	s->depth--;
	if (s->in_start_tag)
		fputs("/>", s->out);
	else
		/* the root's end on a line of its own, as its children are */
		fprintf(s->out, "%s</%s>", s->depth ? "" : "\n", s->open[s->depth]);
	s->in_start_tag = false;
}

void svg__title(struct svg *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	svg__open(s, "title");
	svg__text(s, buf);
	svg__close(s);
}

int svg__finish(struct svg *s)
{
	if (!s->out)
		return 0;
	while (!s->err && s->depth)
		svg__close(s);
	if (!s->err)
		fputc('\n', s->out);
	if (fflush(s->out) || ferror(s->out))
		return -EIO;
	return s->err;
}
