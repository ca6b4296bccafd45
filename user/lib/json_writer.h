/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_writer.h - a small streaming JSON emitter over a FILE *.
 *
 * Values go straight to the stream, with the commas between members placed
 * for the caller: pretty-printed with two-space indents the way jq prints
 * them, or compact, with no whitespace but the line breaks the caller asks
 * for (a trace of a million events would be half indentation). The writer
 * keeps only a bounded stack of open containers, so it allocates nothing.
 * Write errors are not checked call by call: the stream's error flag is
 * read once, by json_writer__finish().
 *
 * A misuse (a value in an object without its key, a key in an array, an end
 * that does not match its begin, nesting deeper than JSON_WRITER_MAX_DEPTH)
 * is remembered, and the writer then writes nothing more: the document is
 * cut short rather than wrong, and json_writer__finish() says so.
 */
#ifndef WAKEPROBE_JSON_WRITER_H
#define WAKEPROBE_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_WRITER_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	unsigned int depth;			/* containers open */
	bool is_array[JSON_WRITER_MAX_DEPTH];	/* per open container: array, else object */
	bool has_items[JSON_WRITER_MAX_DEPTH];	/* ... and whether it holds a member yet */
	bool has_key;				/* a key was written; its value comes next */
	bool compact;				/* no whitespace but the breaks asked for */
	bool line_break;			/* compact: a break was asked for and not written yet */
	bool done;				/* the top-level value is complete */
	int err;				/* the first misuse, a negative errno */
};

/*
 * json_writer__utf8_len - the length of the valid UTF-8 sequence that starts
 * with the byte @s[0] >= 0x80, within @n bytes; 0 if it is not one. Valid
 * means the shortest form of a scalar value (RFC 3629): no overlong forms,
 * no surrogates, nothing past U+10FFFF. The reader judges what it reads by
 * it, and the other text formats (the SVG plots, prom.h) what they write.
 */
size_t json_writer__utf8_len(const unsigned char *s, size_t n);

/* json_writer__init - a pretty-printed document on @out */
void json_writer__init(struct json_writer *w, FILE *out);
/* json_writer__init_compact - a compact document on @out: see json_writer__line_break() */
void json_writer__init_compact(struct json_writer *w, FILE *out);

void json_writer__begin_object(struct json_writer *w);
void json_writer__end_object(struct json_writer *w);
void json_writer__begin_array(struct json_writer *w);
void json_writer__end_array(struct json_writer *w);
/* json_writer__key - the next member's name, inside an object; its value follows */
void json_writer__key(struct json_writer *w, const char *key);
/*
 * json_writer__line_break - in a compact document, the next member or
 * closing bracket written starts a new line (after the comma that goes
 * before it): one line per event of a trace, say. A pretty-printed
 * document places its own lines and ignores it.
 */
void json_writer__line_break(struct json_writer *w);

/*
 * json_writer__string - a NUL-terminated string. Valid UTF-8 is copied as
 * it is; see json_writer__string_n for every other byte.
 */
void json_writer__string(struct json_writer *w, const char *s);
/*
 * json_writer__string_n - at most @max bytes of @s, fewer if a NUL comes
 * first: for fixed-size arrays that need not be terminated (a task's comm).
 * Quote and backslash are escaped, control characters become \u00XX, and so
 * does every byte that is not part of a valid UTF-8 sequence (see the .c).
 */
void json_writer__string_n(struct json_writer *w, const char *s, size_t max);
void json_writer__int(struct json_writer *w, int64_t v);
void json_writer__uint(struct json_writer *w, uint64_t v);
/*
 * json_writer__fixed_point - @v / 10^@decimals with exactly @decimals digits
 * after the point, (1500123, 3) as 1500.123: a value counted in a finer unit
 * than the one the reader expects, none of it rounded away on the way
 * through a double. @decimals up to 19; more is a misuse.
 */
void json_writer__fixed_point(struct json_writer *w, uint64_t v, unsigned int decimals);
/* json_writer__double - a finite number, shortest form that reads back the same; NaN and inf: null */
void json_writer__double(struct json_writer *w, double v);
void json_writer__bool(struct json_writer *w, bool v);
void json_writer__null(struct json_writer *w);

/*
 * json_writer__put_* - one member of an object: its key, then its value.
 * The _if forms write null where the value does not apply, as the reports'
 * "null, never absent" rule has it (docs/json.md).
 */
void json_writer__put_uint(struct json_writer *w, const char *key, uint64_t v);
void json_writer__put_int(struct json_writer *w, const char *key, int64_t v);
void json_writer__put_double(struct json_writer *w, const char *key, double v);
void json_writer__put_bool(struct json_writer *w, const char *key, bool v);
void json_writer__put_null(struct json_writer *w, const char *key);
void json_writer__put_str(struct json_writer *w, const char *key, const char *s);
/* json_writer__put_strn - at most @max bytes of @s: the fixed-size arrays need not be terminated */
void json_writer__put_strn(struct json_writer *w, const char *key, const char *s, size_t max);
void json_writer__put_uint_if(struct json_writer *w, const char *key, bool applies, uint64_t v);
void json_writer__put_int_if(struct json_writer *w, const char *key, bool applies, int64_t v);

/*
 * json_writer__finish - end the document with a newline and flush it.
 * Returns 0; -EIO if the stream had a write error; -EINVAL after a misuse
 * or with the document unfinished; -E2BIG if it nested too deep.
 */
int json_writer__finish(struct json_writer *w);

#endif /* WAKEPROBE_JSON_WRITER_H */
