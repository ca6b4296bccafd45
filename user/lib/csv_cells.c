// SPDX-License-Identifier: GPL-2.0
/* csv_cells.c - RFC 4180 cells */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "csv_cells.h"

void csv_cells__put_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * put_number - a separator, then @magnitude in decimal, after a minus sign
 * when @negative, in one write. A CSV row is some forty numbers, written
 * as the wakeups come: fprintf()'s parsing of its format cost more than
 * everything else the row takes (a replay with --csv spent a third of its
 * time in it).
 */
static void put_number(FILE *out, uint64_t magnitude, bool negative)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (negative)
		*--p = '-';
	*--p = ',';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

void csv_cells__put_u64(FILE *out, bool applies, uint64_t v)
{
	if (applies)
		put_number(out, v, false);
	else
		fputc(',', out);
}

void csv_cells__put_i64(FILE *out, bool applies, int64_t v)
{
	/* the magnitude of INT64_MIN does not fit an int64_t: negate as unsigned */
	if (applies)
		put_number(out, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
	else
		fputc(',', out);
}

int csv_cells__flush(FILE *out)
{
	return fflush(out) || ferror(out) ? -EIO : 0;
}
