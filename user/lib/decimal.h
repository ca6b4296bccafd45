/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decimal.h - integers in decimal, without printf: for the writers that put
 * out millions of them as a run goes (CSV rows, JSON timelines), where
 * fprintf()'s parsing of its format cost more than the rest of the line
 */
#ifndef WAKEPROBE_DECIMAL_H
#define WAKEPROBE_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the longest a number takes: 20 digits of UINT64_MAX, a sign, a prefix */
#define DECIMAL_MAX	24

/*
 * decimal__format - @magnitude in decimal after a minus sign when
 * @negative, written backwards so that it ends just before @end, which has
 * DECIMAL_MAX - 1 bytes before it; returns its length
 */
size_t decimal__format(char *end, uint64_t magnitude, bool negative);

/*
 * decimal__put - @prefix (none when '\0'), then @magnitude in decimal after
 * a minus sign when @negative, to @out in one write
 */
void decimal__put(FILE *out, char prefix, uint64_t magnitude, bool negative);

/* decimal__put_i64 - @v in decimal; INT64_MIN too */
static inline void decimal__put_i64(FILE *out, char prefix, int64_t v)
{
	/* the magnitude of INT64_MIN does not fit an int64_t: negate as unsigned */
	decimal__put(out, prefix, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

#endif /* WAKEPROBE_DECIMAL_H */
