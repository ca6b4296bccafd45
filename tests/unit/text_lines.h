/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_lines.h - reading back what the text reports printed
 * (test_text_common.c, test_text_workload.c, test_text_attach.c,
 * test_text_design.c): whole lines found in their order, and a stats row as
 * text_common prints it.
 */
#ifndef WAKEPROBE_TEST_TEXT_LINES_H
#define WAKEPROBE_TEST_TEXT_LINES_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "text_common.h"

/* text_line_at - where @line is a whole line of @doc at or after @from; NULL if it is not */
static inline const char *text_line_at(const char *doc, const char *from, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = from; (p = strstr(p, line)); p++)
		if ((p == doc || p[-1] == '\n') && p[n] == '\n')
			return p;
	return NULL;
}

/* expect_lines - each of the NULL-terminated @want is a whole line of @doc, in this order */
static inline void expect_lines(const char *doc, const char *const want[])
{
	const char *at = doc;

	for (size_t i = 0; want[i]; i++) {
		const char *p = text_line_at(doc, at, want[i]);

		cr_assert_not_null(p, "no line\n%s\nafter byte %zu of:\n%s", want[i], (size_t)(at - doc), doc);
		at = p + strlen(want[i]);
	}
}

/* has_line - is @line a whole line of @doc? */
static inline bool has_line(const char *doc, const char *line)
{
	return text_line_at(doc, doc, line) != NULL;
}

/* stats_line - the stats row of @h under @name, as a line without its newline, into @buf */
static inline const char *stats_line(char *buf, size_t len, const char *name, const struct histogram *h)
{
	FILE *f = fmemopen(buf, len, "w");

	cr_assert_not_null(f);
	text_common__stats_row(f, name, h);
	cr_assert_eq(fclose(f), 0);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

#define STATS_HEADER \
	"phase (us)            count       min       p50       p90       p99     p99.9       max      mean"

#endif /* WAKEPROBE_TEST_TEXT_LINES_H */
