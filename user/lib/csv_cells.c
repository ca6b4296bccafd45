// SPDX-License-Identifier: GPL-2.0
/* csv_cells.c - RFC 4180 cells, a record at a time */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "csv_cells.h"
#include "decimal.h"

/* room - @n more bytes fit the row's buffer, once what it holds is written if they would not */
static void room(struct csv_row *row, size_t n)
{
	if (row->len + n <= sizeof(row->buf))
		return;
	fwrite(row->buf, 1, row->len, row->out);
	row->len = 0;
}

static void put_char(struct csv_row *row, char c)
{
	room(row, 1);
	row->buf[row->len++] = c;
}

/* separator - the comma before every cell but a record's first */
static void separator(struct csv_row *row)
{
	if (row->started)
		put_char(row, ',');
	row->started = true;
}

void csv_row__begin(struct csv_row *row, FILE *out)
{
	row->out = out;
	row->len = 0;
	row->started = false;
}

void csv_row__str(struct csv_row *row, const char *s)
{
	size_t n = strlen(s);

	separator(row);
	if (!strpbrk(s, ",\"\r\n")) {
		if (n > sizeof(row->buf)) {
			room(row, sizeof(row->buf));
			fwrite(s, 1, n, row->out);
			return;
		}
		room(row, n);
		memcpy(row->buf + row->len, s, n);
		row->len += n;
		return;
	}
	put_char(row, '"');
	for (; *s; s++) {
		if (*s == '"')
			put_char(row, '"');
		put_char(row, *s);
	}
	put_char(row, '"');
}

static void put_number(struct csv_row *row, bool applies, uint64_t magnitude, bool negative)
{
	char digits[DECIMAL_MAX];
	size_t n;

	separator(row);
	if (!applies)
		return;
	n = decimal__format(digits + sizeof(digits), magnitude, negative);
	room(row, n);
	memcpy(row->buf + row->len, digits + sizeof(digits) - n, n);
	row->len += n;
}

void csv_row__u64(struct csv_row *row, bool applies, uint64_t v)
{
	put_number(row, applies, v, false);
}

void csv_row__i64(struct csv_row *row, bool applies, int64_t v)
{
	/* the magnitude of INT64_MIN does not fit an int64_t: negate as unsigned */
	put_number(row, applies, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void csv_row__end(struct csv_row *row)
{
	room(row, sizeof(CSV_EOL) - 1);
	memcpy(row->buf + row->len, CSV_EOL, sizeof(CSV_EOL) - 1);
	row->len += sizeof(CSV_EOL) - 1;
	fwrite(row->buf, 1, row->len, row->out);
	row->len = 0;
	row->started = false;
}

int csv_cells__flush(FILE *out)
{
	return fflush(out) || ferror(out) ? -EIO : 0;
}
