/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_text.h - reading back what the Prometheus writers wrote (test_prom.c,
 * test_prometheus_metrics.c, test_prometheus_live.c): a sample's value by its
 * name and labels, and how often a line occurs.
 */
#ifndef WAKEPROBE_TEST_PROM_TEXT_H
#define WAKEPROBE_TEST_PROM_TEXT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

/* prom_line_after - the start of the line after the one @line is in; NULL at the end */
static inline const char *prom_line_after(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}

/* prom_value_of - the value on the line that starts with @sample (name and labels), into @buf; fails if none */
static inline const char *prom_value_of(const char *doc, const char *sample, char *buf, size_t len)
{
	size_t n = strlen(sample);

	for (const char *line = doc; line; line = prom_line_after(line)) {
		if (!strncmp(line, sample, n) && line[n] == ' ') {
			const char *v = line + n + 1, *end = strchr(v, '\n');

			snprintf(buf, len, "%.*s", (int)(end ? end - v : (long)strlen(v)), v);
			return buf;
		}
	}
	cr_assert(false, "no sample %s in:\n%s", sample, doc);
	return NULL;
}

/* prom_has_sample - is there a line that starts with @prefix? */
static inline bool prom_has_sample(const char *doc, const char *prefix)
{
	for (const char *line = doc; line; line = prom_line_after(line))
		if (!strncmp(line, prefix, strlen(prefix)))
			return true;
	return false;
}

#endif /* WAKEPROBE_TEST_PROM_TEXT_H */
