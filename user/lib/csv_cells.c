// SPDX-License-Identifier: GPL-2.0
/* csv_cells.c - RFC 4180 cells */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "csv_cells.h"
#include "decimal.h"

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
 * A CSV row is some forty numbers, written as the wakeups come: a separator
 * and the number in one write, without fprintf(), whose parsing of its
 * format cost more than everything else the row takes (a replay with --csv
 * spent a third of its time in it).
 */
void csv_cells__put_u64(FILE *out, bool applies, uint64_t v)
{
	if (applies)
		decimal__put(out, ',', v, false);
	else
		fputc(',', out);
}

void csv_cells__put_i64(FILE *out, bool applies, int64_t v)
{
	if (applies)
		decimal__put_i64(out, ',', v);
	else
		fputc(',', out);
}

int csv_cells__flush(FILE *out)
{
	return fflush(out) || ferror(out) ? -EIO : 0;
}
