// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv_cells.c - the cells of every CSV wakeprobe writes (RFC 4180): a text
 * cell quoted only when it must be and its quotes doubled, a number cell
 * after its separator or empty where the value does not apply, a record
 * read back whole by python's csv module, and a failed stream named at
 * the flush.
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
	csv_cells__put_str(out, c->cell);
	cr_assert_str_eq(written(), c->want, "cell '%s'", c->cell);
}

Test(csv_cells, a_number_cell_follows_its_separator_and_is_empty_where_it_does_not_apply)
{
	csv_cells__put_u64(out, true, 0);
	csv_cells__put_u64(out, true, UINT64_MAX);
	csv_cells__put_u64(out, false, 12345);
	csv_cells__put_i64(out, true, -1);
	csv_cells__put_i64(out, true, INT64_MIN);
	csv_cells__put_i64(out, true, INT64_MAX);
	csv_cells__put_i64(out, false, -7);
	cr_assert_str_eq(written(), ",0,18446744073709551615,,-1,-9223372036854775808,9223372036854775807,");
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

	fputs("name,count,delta,none,note" CSV_EOL, f);
	csv_cells__put_str(f, "a \"quoted\", name");
	csv_cells__put_u64(f, true, UINT64_MAX);
	csv_cells__put_i64(f, true, -42);
	csv_cells__put_u64(f, false, 9);
	fputc(',', f);
	csv_cells__put_str(f, "1,2 \"three\"");
	fputs(CSV_EOL, f);
	csv_cells__put_str(f, "");
	csv_cells__put_u64(f, true, 0);
	csv_cells__put_i64(f, false, 5);
	csv_cells__put_i64(f, false, 6);
	fputc(',', f);
	csv_cells__put_str(f, "plain");
	fputs(CSV_EOL, f);
	cr_assert_eq(csv_cells__flush(f), 0);
	cr_assert_eq(fclose(f), 0);
	cr_expect(csv_check(path, want), "the record does not read back as written (see above)");
	unlink(path);
}

Test(csv_cells, a_flush_says_whether_everything_written_reached_the_file)
{
	FILE *full = fopen("/dev/full", "w");

	/* a good stream */
	csv_cells__put_str(out, "x");
	cr_assert_eq(csv_cells__flush(out), 0);

	if (!full)
		cr_skip_test("no /dev/full here");
	/* the buffered cells fail only once flushed: the flush names it */
	csv_cells__put_str(full, "never stored");
	csv_cells__put_u64(full, true, 1);
	cr_assert_eq(csv_cells__flush(full), -EIO);
	/* a stream that failed before stays failed, even with nothing new to flush */
	clearerr(full);
	fputc('x', full);
	fflush(full);
	cr_assert_eq(csv_cells__flush(full), -EIO);
	fclose(full);
}
