// SPDX-License-Identifier: GPL-2.0
/* csv_cells.c - RFC 4180 cells */
#include <errno.h>
#include <inttypes.h>
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

void csv_cells__put_u64(FILE *out, bool applies, uint64_t v)
{
	if (applies)
		fprintf(out, ",%" PRIu64, v);
	else
		fputc(',', out);
}

void csv_cells__put_i64(FILE *out, bool applies, int64_t v)
{
	if (applies)
		fprintf(out, ",%" PRId64, v);
	else
		fputc(',', out);
}

int csv_cells__flush(FILE *out)
{
	return fflush(out) || ferror(out) ? -EIO : 0;
}
