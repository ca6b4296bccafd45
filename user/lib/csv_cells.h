/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv_cells.h - the cells of an RFC 4180 CSV file, as every CSV wakeprobe writes
 * them (the workload's samples, attach mode's wakeups): a cell is quoted
 * only when it holds a comma, a quote or a line break, an empty cell is a
 * value that does not apply, and every record ends in CRLF.
 *
 * A record is built in a struct csv_row and handed to its stream in one
 * fwrite() at its end: a row is some forty cells, written as the wakeups
 * come, and stdio's lock and checks on each cell's writes cost wakeprobe
 * more than the digits did. A record longer than the row's buffer goes out
 * in more than one write, whole all the same.
 */
#ifndef WAKEPROBE_CSV_CELLS_H
#define WAKEPROBE_CSV_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* RFC 4180 ends records with CRLF; readers that want LF accept it too */
#define CSV_EOL "\r\n"

#define CSV_ROW_BYTES	2048

struct csv_row {
	FILE *out;
	size_t len;		/* bytes in buf, not yet written */
	bool started;		/* a cell was put: the next comes after a separator */
	char buf[CSV_ROW_BYTES];
};

/* csv_row__begin - a new record for @out */
void csv_row__begin(struct csv_row *row, FILE *out);
/* csv_row__str - a text cell, quoted where it must be */
void csv_row__str(struct csv_row *row, const char *s);
/* csv_row__u64, csv_row__i64 - a number cell: @v, or empty where it does not apply */
void csv_row__u64(struct csv_row *row, bool applies, uint64_t v);
void csv_row__i64(struct csv_row *row, bool applies, int64_t v);
/* csv_row__end - the record's CRLF, and the record to its stream */
void csv_row__end(struct csv_row *row);

/* csv_cells__flush - everything written reached @out: 0, or -EIO */
int csv_cells__flush(FILE *out);

#endif /* WAKEPROBE_CSV_CELLS_H */
