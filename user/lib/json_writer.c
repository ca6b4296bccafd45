// SPDX-License-Identifier: GPL-2.0
/* json_writer.c - a small streaming JSON emitter over a FILE * */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decimal.h"
#include "json_writer.h"

#define INDENT_WIDTH 2

/* the most digits after the point: 10^19 is the largest power of ten a uint64_t holds */
#define MAX_DECIMALS 19

/*
 * A writer's stream is its own, written from one thread: its single bytes go
 * in with putc_unlocked(), a store into the buffer, where fputc() was a
 * call a byte (a timeline has hundreds of millions of them)
 */

void json_writer__init(struct json_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

void json_writer__init_compact(struct json_writer *w, FILE *out)
{
	json_writer__init(w, out);
	w->compact = true;
}

static void fail(struct json_writer *w, int err)
{
	if (!w->err)
		w->err = err;
}

/*
 * new_line - where a member or a closing bracket at @depth starts: an
 * indented line of its own when pretty; when compact, a new line only if
 * one was asked for
 */
static void new_line(struct json_writer *w, unsigned int depth)
{
	static const char spaces[] = "\n                                                                ";
	size_t indent = (size_t)depth * INDENT_WIDTH;

	if (!w->compact) {
		/* the line break and its indentation in one write: a timeline has millions of lines */
		if (indent < sizeof(spaces) - 1) {
			fwrite(spaces, 1, indent + 1, w->out);
		} else {
			putc_unlocked('\n', w->out);
			fprintf(w->out, "%*s", (int)indent, "");
		}
	} else if (w->line_break) {
		putc_unlocked('\n', w->out);
		w->line_break = false;
	}
}

/* start_member - the comma after the innermost container's previous member, then the new one's line */
static void start_member(struct json_writer *w)
{
	unsigned int top = w->depth - 1;

	if (w->has_items[top])
		putc_unlocked(',', w->out);
	w->has_items[top] = true;
	new_line(w, w->depth);
}

/*
 * before_value - place the next value: after its key in an object, on a
 * line of its own in an array. False when nothing may be written.
 */
static bool before_value(struct json_writer *w)
{
	unsigned int top;

	if (w->err)
		return false;
	if (w->done) {
		/* a second top-level value would not be one document */
		fail(w, -EINVAL);
		return false;
	}
	if (!w->depth)
		return true;
	top = w->depth - 1;
	if (!w->is_array[top]) {
		if (!w->has_key) {
			fail(w, -EINVAL);
			return false;
		}
		w->has_key = false;
		return true;
	}
	start_member(w);
	return true;
}

static void after_value(struct json_writer *w)
{
	if (!w->depth)
		w->done = true;
}

static void begin(struct json_writer *w, bool array)
{
	if (!before_value(w))
		return;
	if (w->depth == JSON_WRITER_MAX_DEPTH) {
		fail(w, -E2BIG);
		return;
	}
	putc_unlocked(array ? '[' : '{', w->out);
	w->is_array[w->depth] = array;
	w->has_items[w->depth] = false;
	w->depth++;
}

static void end(struct json_writer *w, bool array)
{
	if (w->err)
		return;
	if (!w->depth || w->is_array[w->depth - 1] != array || w->has_key) {
		fail(w, -EINVAL);
		return;
	}
	w->depth--;
	/* pretty, an empty container stays on one line: {} or []; compact, only a break asked for ends a line */
	if (w->compact || w->has_items[w->depth])
		new_line(w, w->depth);
	putc_unlocked(array ? ']' : '}', w->out);
	after_value(w);
}

void json_writer__begin_object(struct json_writer *w)
{
	begin(w, false);
}

void json_writer__end_object(struct json_writer *w)
{
	end(w, false);
}

void json_writer__begin_array(struct json_writer *w)
{
	begin(w, true);
}

void json_writer__end_array(struct json_writer *w)
{
	end(w, true);
}

size_t json_writer__utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;	/* the range of the second byte */
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates U+D800..U+DFFF */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void write_string(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;

	putc_unlocked('"', out);
	while (i < n) {
		unsigned char c = s[i];
		size_t run = i;

		/* plain ASCII, the most of every name: the whole run in one write */
		while (run < n && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			fwrite(s + i, 1, run - i, out);
			i = run;
			continue;
		}
		if (c == '"' || c == '\\') {
			putc_unlocked('\\', out);
			putc_unlocked(c, out);
			i++;
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else if ((len = json_writer__utf8_len(s + i, n - i))) {
			fwrite(s + i, 1, len, out);
			i += len;
		} else {
			/*
			 * Not UTF-8 (a comm cut inside a character, a name in
			 * another encoding): written raw it would make the whole
			 * document invalid. \u00XX keeps the byte's value, read
			 * back as the character U+00XX, so nothing is lost and the
			 * document stays valid.
			 */
			fprintf(out, "\\u%04x", c);
			i++;
		}
	}
	putc_unlocked('"', out);
}

void json_writer__key(struct json_writer *w, const char *key)
{
	if (w->err)
		return;
	if (!w->depth || w->is_array[w->depth - 1] || w->has_key) {
		fail(w, -EINVAL);
		return;
	}
	start_member(w);
	write_string(w->out, key, strlen(key));
	fputs(w->compact ? ":" : ": ", w->out);
	w->has_key = true;
}

void json_writer__line_break(struct json_writer *w)
{
	if (w->compact)
		w->line_break = true;
}

void json_writer__string_n(struct json_writer *w, const char *s, size_t max)
{
	if (!before_value(w))
		return;
	write_string(w->out, s, strnlen(s, max));
	after_value(w);
}

void json_writer__string(struct json_writer *w, const char *s)
{
	if (!before_value(w))
		return;
	write_string(w->out, s, strlen(s));
	after_value(w);
}

void json_writer__int(struct json_writer *w, int64_t v)
{
	if (!before_value(w))
		return;
	decimal__put_i64(w->out, '\0', v);
	after_value(w);
}

void json_writer__uint(struct json_writer *w, uint64_t v)
{
	if (!before_value(w))
		return;
	decimal__put(w->out, '\0', v, false);
	after_value(w);
}

void json_writer__fixed_point(struct json_writer *w, uint64_t v, unsigned int decimals)
{
	uint64_t scale = 1;
	unsigned int i;

	if (decimals > MAX_DECIMALS) {
		fail(w, -EINVAL);
		return;
	}
	if (!before_value(w))
		return;
	for (i = 0; i < decimals; i++)
		scale *= 10;
	/* every timeline event's ts and dur: no fprintf() */
	decimal__put(w->out, '\0', v / scale, false);
	if (decimals) {
		char frac[MAX_DECIMALS + 1];
		uint64_t f = v % scale;

		frac[0] = '.';
		for (i = decimals; i > 0; i--, f /= 10)
			frac[i] = (char)('0' + f % 10);
		fwrite(frac, 1, decimals + 1, w->out);
	}
	after_value(w);
}

void json_writer__double(struct json_writer *w, double v)
{
	char buf[32];
	int prec;

	if (!isfinite(v)) {
		/* JSON has no NaN or infinity; null is what a reader can take */
		json_writer__null(w);
		return;
	}
	if (!before_value(w))
		return;
	/*
	 * The fewest digits that read back as the same double, so 0.1 stays
	 * 0.1; 17 always do. %g writes an exponent as e+20 or e-07, which JSON
	 * allows; wakeprobe never sets a locale, so the point is a '.'.
	 */
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, w->out);
	after_value(w);
}

void json_writer__bool(struct json_writer *w, bool v)
{
	if (!before_value(w))
		return;
	fputs(v ? "true" : "false", w->out);
	after_value(w);
}

void json_writer__null(struct json_writer *w)
{
	if (!before_value(w))
		return;
	fputs("null", w->out);
	after_value(w);
}

void json_writer__put_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_writer__key(w, key);
	json_writer__uint(w, v);
}

void json_writer__put_int(struct json_writer *w, const char *key, int64_t v)
{
	json_writer__key(w, key);
	json_writer__int(w, v);
}

void json_writer__put_double(struct json_writer *w, const char *key, double v)
{
	json_writer__key(w, key);
	json_writer__double(w, v);
}

void json_writer__put_bool(struct json_writer *w, const char *key, bool v)
{
	json_writer__key(w, key);
	json_writer__bool(w, v);
}

void json_writer__put_null(struct json_writer *w, const char *key)
{
	json_writer__key(w, key);
	json_writer__null(w);
}

void json_writer__put_str(struct json_writer *w, const char *key, const char *s)
{
	json_writer__key(w, key);
	json_writer__string(w, s);
}

void json_writer__put_strn(struct json_writer *w, const char *key, const char *s, size_t max)
{
	json_writer__key(w, key);
	json_writer__string_n(w, s, max);
}

void json_writer__put_uint_if(struct json_writer *w, const char *key, bool applies, uint64_t v)
{
	if (applies)
		json_writer__put_uint(w, key, v);
	else
		json_writer__put_null(w, key);
}

void json_writer__put_int_if(struct json_writer *w, const char *key, bool applies, int64_t v)
{
	if (applies)
		json_writer__put_int(w, key, v);
	else
		json_writer__put_null(w, key);
}

int json_writer__finish(struct json_writer *w)
{
	if (!w->err && w->done)
		putc_unlocked('\n', w->out);
	/* the last buffer's write error shows only once it is flushed */
	fflush(w->out);
	if (ferror(w->out))
		return -EIO;
	if (w->err)
		return w->err;
	return w->done ? 0 : -EINVAL;
}
