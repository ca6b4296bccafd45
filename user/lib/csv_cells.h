/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv_cells.h - the cells of an RFC 4180 CSV file, as every CSV wakeprobe writes
 * them (the workload's samples, attach mode's wakeups): a cell is quoted
 * only when it holds a comma, a quote or a line break, an empty cell is a
 * value that does not apply, and every record ends in CRLF.
 */
#ifndef WAKEPROBE_CSV_CELLS_H
#define WAKEPROBE_CSV_CELLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* RFC 4180 ends records with CRLF; readers that want LF accept it too */
#define CSV_EOL "\r\n"

/* csv_cells__put_str - one text cell, quoted where it must be; the caller writes the separator before it */
void csv_cells__put_str(FILE *out, const char *s);
/* csv_cells__put_u64, csv_cells__put_i64 - a separator, then @v, or nothing where it does not apply */
void csv_cells__put_u64(FILE *out, bool applies, uint64_t v);
void csv_cells__put_i64(FILE *out, bool applies, int64_t v);

/* csv_cells__flush - everything written reached @out: 0, or -EIO */
int csv_cells__flush(FILE *out);

#endif /* WAKEPROBE_CSV_CELLS_H */
