/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom.h - the Prometheus text exposition format (version 0.0.4, what
 * node_exporter's textfile collector reads): a metric family's HELP and
 * TYPE lines, samples with escaped label values, and a histogram made from
 * the log2 rows of a struct histogram. What the numbers are is
 * prometheus_common.h's; this file only knows how they are written.
 *
 * Times are seconds, Prometheus's base unit, written as exact decimals of
 * the integer nanoseconds (1500 ns as 0.0000015): nothing is rounded on the
 * way through a double.
 */
#ifndef WAKEPROBE_PROM_H
#define WAKEPROBE_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "histogram.h"

#define PROM_MAX_LABELS	8

/*
 * The log2 rows a histogram's buckets are made of: le is a row's largest
 * value, 127 ns for the first (everything up to it) to 2^35 - 1 ns (34.4 s)
 * for the last; what lies above is in +Inf only. A fixed set, the same in
 * every file, so that buckets of many hosts and many runs add up by le.
 */
#define PROM_FIRST_ROW	6
#define PROM_LAST_ROW	34

/* a sample's labels, in the order they are written */
struct prom_labels {
	const char *name[PROM_MAX_LABELS];
	const char *value[PROM_MAX_LABELS];
	size_t n;
};

/* prom__label - @ls with name="value" added at the end; past PROM_MAX_LABELS it is a misuse, and ignored */
void prom__label(struct prom_labels *ls, const char *name, const char *value);
/* prom__with - a copy of @base with name="value" added: the labels of one sample of a family */
struct prom_labels prom__with(const struct prom_labels *base, const char *name, const char *value);

/* prom__family - the HELP and TYPE lines that open the family @name ("counter", "gauge", "histogram") */
void prom__family(FILE *out, const char *name, const char *type, const char *help);
/*
 * prom__label_value - @v as a label value, between its quotes: backslash,
 * quote and line feed escaped (\\, \", \n) as the format asks; a byte that
 * is not part of valid UTF-8, which the format requires, is written as
 * the character of that value (0xe9 as U+00E9), as the JSON writer does.
 */
void prom__label_value(FILE *out, const char *v);
/* prom__seconds_text - @ns as decimal seconds into @buf: 1500 as "0.0000015", 0 as "0" */
void prom__seconds_text(uint64_t ns, char *buf, size_t len);
/*
 * prom__le_text - @ns as a bucket's le: seconds in OpenMetrics's canonical
 * form (127 ns as "1.27e-07", 2^35 - 1 as "34.359738367"), which
 * OpenMetrics scrapes want and node_exporter writes whatever a textfile
 * said, so that a bucket is one series whoever exposed it
 */
void prom__le_text(uint64_t ns, char *buf, size_t len);

/* one sample of @name with @ls, of an integer, of nanoseconds as seconds, of any number */
void prom__uint(FILE *out, const char *name, const struct prom_labels *ls, uint64_t v);
void prom__seconds(FILE *out, const char *name, const struct prom_labels *ls, uint64_t ns);
void prom__double(FILE *out, const char *name, const struct prom_labels *ls, double v);
/*
 * prom__histogram - @h (nanoseconds) as the histogram @name in seconds:
 * @name_bucket for each row from PROM_FIRST_ROW to PROM_LAST_ROW with its
 * cumulative count, +Inf, then @name_sum and @name_count
 */
void prom__histogram(FILE *out, const char *name, const struct prom_labels *ls, const struct histogram *h);
/* prom__log2_histogram - the same of @count values summing to @sum_ns, in histogram__log2_rows()'s @rows */
void prom__log2_histogram(FILE *out, const char *name, const struct prom_labels *ls,
			  const uint64_t rows[HIST_LOG2_ROWS], uint64_t count, uint64_t sum_ns);

/*
 * prom__to_openmetrics - @text (@len bytes), an exposition in the text
 * format 0.0.4, as OpenMetrics 1.0.0 into @out, for a scraper that asks for
 * it. The samples keep their names, so that a series is the same in both;
 * what OpenMetrics asks for differently:
 *  - a counter family is named without its samples' _total, in its HELP and
 *    TYPE lines; a counter whose samples have no _total is typed unknown,
 *    as untyped is
 *  - a histogram's le and a summary's quantile are canonical numbers
 *    (1.27e-07, 0.5, 1.0, +Inf), one text per number
 *  - a quote in a HELP text is escaped; a value of infinity or NaN is
 *    written +Inf, -Inf, NaN; a timestamp is in seconds, not milliseconds
 *  - no empty lines, no comments but HELP and TYPE, no blanks but one
 *    between the parts of a line; "# EOF" last
 * 0, or -EINVAL for a line that is not the text format's (what came
 * before it written), -EIO when @out failed.
 */
int prom__to_openmetrics(const char *text, size_t len, FILE *out);

#endif /* WAKEPROBE_PROM_H */
