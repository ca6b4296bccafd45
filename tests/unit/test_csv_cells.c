// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv_cells.c - the cells of every CSV wakeprobe writes (RFC 4180): a text
 * cell quoted only when it must be and its quotes doubled, a number cell
 * after its separator or empty where the value does not apply, a record
 * read back whole by python's csv module, one longer than a row's buffer
 * whole too, and a failed stream named at the flush.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "csv_cells.h"
#include "memout.h"
#include "readback.h"

TestSuite(csv_cells, .init = memout__open, .fini = memout__close);

struct str_case {
	char cell[32];
	char want[48];
};

ParameterizedTestParameters(csv_cells, a_text_cell_is_quoted_only_when_it_must_be_and_its_quotes_doubled)
{
	static struct str_case cases[] = {
		{ "eventfd", "eventfd" },
		{ "", "" },				/* an empty cell: nothing at all */
		{ " padded ", " padded " },		/* spaces are part of the cell, no quotes needed */
		{ "tab\there", "tab\there" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },	/* bytes past ASCII go as they are */
		{ "a,b", "\"a,b\"" },
		{ ",", "\",\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "\"", "\"\"\"\"" },
		{ "line\nbreak", "\"line\nbreak\"" },
		{ "cr\r", "\"cr\r\"" },
		{ "all, \"of\"\r\nit", "\"all, \"\"of\"\"\r\nit\"" },
	};

	return cr_make_param_array(struct str_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct str_case *c, csv_cells, a_text_cell_is_quoted_only_when_it_must_be_and_its_quotes_doubled)
{
	struct csv_row row;
	char want[64];

	csv_row__begin(&row, out);
	csv_row__str(&row, c->cell);
	csv_row__end(&row);
	snprintf(want, sizeof(want), "%s" CSV_EOL, c->want);
	cr_assert_str_eq(written(), want, "cell '%s'", c->cell);
}

Test(csv_cells, a_number_cell_follows_its_separator_and_is_empty_where_it_does_not_apply)
{
	struct csv_row row;

	csv_row__begin(&row, out);
	csv_row__u64(&row, true, 0);
	csv_row__u64(&row, true, UINT64_MAX);
	csv_row__u64(&row, false, 12345);
	csv_row__i64(&row, true, -1);
	csv_row__i64(&row, true, INT64_MIN);
	csv_row__i64(&row, true, INT64_MAX);
	csv_row__i64(&row, false, -7);
	csv_row__end(&row);
	/* and a record that begins with an empty cell */
	csv_row__u64(&row, false, 1);
	csv_row__u64(&row, true, 2);
	csv_row__end(&row);
	cr_assert_str_eq(written(), "0,18446744073709551615,,-1,-9223372036854775808,9223372036854775807," CSV_EOL
			 ",2" CSV_EOL);
}

/*
 * a record of every kind of cell, read back strictly by python's csv module
 * (which holds each record to one CRLF: the line breaks inside a cell are
 * checked above)
 */
Test(csv_cells, a_record_of_every_kind_of_cell_reads_back_as_written)
{
	const char *const want[] = {
		"header=name,count,delta,none,note", "rows=2",
		"0:name=a \"quoted\", name", "0:count=18446744073709551615", "0:delta=-42", "0:none=",
		"0:note=1,2 \"three\"",
		"1:name=", "1:count=0", "1:delta=", "1:none=", "1:note=plain",
		NULL,
	};
	char path[64];
	FILE *f = temp_output("csv-cells", path);
	struct csv_row row;

	fputs("name,count,delta,none,note" CSV_EOL, f);
	csv_row__begin(&row, f);
	csv_row__str(&row, "a \"quoted\", name");
	csv_row__u64(&row, true, UINT64_MAX);
	csv_row__i64(&row, true, -42);
	csv_row__u64(&row, false, 9);
	csv_row__str(&row, "1,2 \"three\"");
	csv_row__end(&row);
	csv_row__str(&row, "");
	csv_row__u64(&row, true, 0);
	csv_row__i64(&row, false, 5);
	csv_row__i64(&row, false, 6);
	csv_row__str(&row, "plain");
	csv_row__end(&row);
	cr_assert_eq(csv_cells__flush(f), 0);
	cr_assert_eq(fclose(f), 0);
	cr_expect(csv_check(path, want), "the record does not read back as written (see above)");
	unlink(path);
}

Test(csv_cells, a_flush_says_whether_everything_written_reached_the_file)
{
	FILE *full = fopen("/dev/full", "w");

	struct csv_row row;

	/* a good stream */
	csv_row__begin(&row, out);
	csv_row__str(&row, "x");
	csv_row__end(&row);
	cr_assert_eq(csv_cells__flush(out), 0);

	if (!full)
		cr_skip_test("no /dev/full here");
	/* the buffered cells fail only once flushed: the flush names it */
	csv_row__begin(&row, full);
	csv_row__str(&row, "never stored");
	csv_row__u64(&row, true, 1);
	csv_row__end(&row);
	cr_assert_eq(csv_cells__flush(full), -EIO);
	/* a stream that failed before stays failed, even with nothing new to flush */
	clearerr(full);
	fputc('x', full);
	fflush(full);
	cr_assert_eq(csv_cells__flush(full), -EIO);
	fclose(full);
}

/*
 * A record longer than a row's buffer (a cell of quotes, a cell of plain
 * bytes longer than the buffer itself) goes out in more than one write,
 * and reads back as written
 */
Test(csv_cells, a_record_longer_than_the_rows_buffer_is_written_whole)
{
	static char quotes[CSV_ROW_BYTES], plain[CSV_ROW_BYTES + 100];
	struct csv_row row;
	char path[64];
	FILE *f = temp_output("csv-cells-long", path);
	const char *args[] = { path, NULL };
	static const char script[] =
		"import csv, sys\n"
		"rows = list(csv.reader(open(sys.argv[1], newline='')))\n"
		"assert len(rows) == 2, len(rows)\n"
		"assert rows[0] == ['7', '\"' * (%d - 1), 'x' * (%d + 99), '-3'], [len(c) for c in rows[0]]\n"
		"assert rows[1] == ['end'], rows[1]\n";
	char checked[sizeof(script) + 32];

	memset(quotes, '"', sizeof(quotes) - 1);
	memset(plain, 'x', sizeof(plain) - 1);
	csv_row__begin(&row, f);
	csv_row__u64(&row, true, 7);
	csv_row__str(&row, quotes);
	csv_row__str(&row, plain);
	csv_row__i64(&row, true, -3);
	csv_row__end(&row);
	csv_row__str(&row, "end");
	csv_row__end(&row);
	cr_assert_eq(csv_cells__flush(f), 0);
	cr_assert_eq(fclose(f), 0);
	snprintf(checked, sizeof(checked), script, CSV_ROW_BYTES, CSV_ROW_BYTES);
	cr_assert_eq(run_python(checked, args), 0, "the long record (see above)");
	unlink(path);
}
