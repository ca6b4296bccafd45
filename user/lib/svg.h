/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - a small streaming SVG (XML) writer over a FILE *.
 *
 * Elements go straight to the stream: svg__open() starts one, svg__attr*()
 * add its attributes, svg__text() its character data, svg__close() ends it
 * (as an empty element when nothing went inside). The writer keeps a bounded
 * stack of the open elements' names, so it allocates nothing, and escapes
 * every attribute value and text: the document is well-formed XML whatever
 * the strings hold (a comm cut inside a character, control bytes).
 *
 * Write errors are not checked call by call: the stream's error flag is read
 * once, by svg__finish(). A misuse (an attribute after an element's content,
 * a close with nothing open, nesting past SVG_MAX_DEPTH) is remembered, and
 * the writer then writes nothing more: the document is cut short rather than
 * wrong, and svg__finish() says so.
 */
#ifndef WAKEPROBE_SVG_H
#define WAKEPROBE_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SVG_MAX_DEPTH 16

struct svg {
	FILE *out;
	const char *open[SVG_MAX_DEPTH];	/* the names of the elements open, outermost first */
	unsigned int depth;
	bool in_start_tag;			/* the innermost element's start tag takes attributes */
	int err;				/* the first misuse, a negative errno */
};

/*
 * svg__begin - the XML declaration and the <svg> root of @width x @height
 * px; the root stays open for the drawing, svg__finish() ends it. With
 * @out NULL the writer writes nothing: a drawing can be laid out once to
 * learn its height, then drawn.
 */
void svg__begin(struct svg *s, FILE *out, double width, double height);
/* svg__open - start element @name (a literal: the writer keeps the pointer); attributes may follow */
void svg__open(struct svg *s, const char *name);
void svg__attr(struct svg *s, const char *name, const char *value);
/* svg__attr_num - a length or coordinate: two decimals at most, no trailing zeros */
void svg__attr_num(struct svg *s, const char *name, double v);
void svg__attr_u64(struct svg *s, const char *name, uint64_t v);
/* svg__text - character data inside the innermost element */
void svg__text(struct svg *s, const char *text);
/* svg__close - end the innermost element */
void svg__close(struct svg *s);
/* svg__title - a <title> child of the innermost element: what a browser shows on hovering it */
void svg__title(struct svg *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * svg__finish - close what is open, end the document with a newline and
 * flush it: 0, -EIO if the stream failed, or the first misuse's error
 */
int svg__finish(struct svg *s);

#endif /* WAKEPROBE_SVG_H */
