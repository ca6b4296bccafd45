/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_text.h - reading back what the Prometheus writers wrote (test_prom.c,
 * test_prometheus_common.c, test_prometheus_workload.c,
 * test_prometheus_attach.c, test_prometheus_live.c): a sample's value by
 * its name and labels, whether a line occurs, every family whole in one
 * place once, and the document as OpenMetrics wants it.
 */
#ifndef WAKEPROBE_TEST_PROM_TEXT_H
#define WAKEPROBE_TEST_PROM_TEXT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prom.h"

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

/*
 * prom_check_families - every sample of @doc comes after its family's HELP and
 * TYPE, which come once each, and a family's samples come together; a
 * histogram's _bucket, _sum and _count are its samples; at least @min families
 */
static inline void prom_check_families(const char *doc, int min)
{
	char families[64][96];
	int n = 0;
	char current[96] = "";

	for (const char *line = doc; line; line = prom_line_after(line)) {
		char name[96];

		if (!strncmp(line, "# HELP ", 7))
			continue;
		if (!strncmp(line, "# TYPE ", 7)) {
			cr_assert_eq(sscanf(line + 7, "%95s", current), 1);
			for (int i = 0; i < n; i++)
				cr_expect_str_neq(families[i], current, "%s opened twice", current);
			cr_assert_lt(n, 64);
			snprintf(families[n++], sizeof(families[0]), "%s", current);
			continue;
		}
		cr_assert_eq(sscanf(line, "%95[a-z_]", name), 1, "a line that is no sample: %.40s", line);
		cr_expect(!strncmp(name, current, strlen(current)) &&
				  (!name[strlen(current)] || !strcmp(name + strlen(current), "_bucket") ||
				   !strcmp(name + strlen(current), "_sum") || !strcmp(name + strlen(current), "_count")),
			  "%s outside its family (in %s)", name, current);
		cr_expect(!strncmp(name, "wakeprobe_", 10));
	}
	cr_expect_geq(n, min);
}

/*
 * prom_check_openmetrics - @om as OpenMetrics 1.0 wants wakeprobe's families:
 * metadata naming each family once, before its samples; a counter's family
 * without _total and its samples with it; a gauge's samples its name; a
 * histogram's _bucket, _sum and _count, le in the exponent form below 1e-4;
 * no empty line, "# EOF" once, last. At least @min families.
 */
static inline void prom_check_openmetrics(const char *om, int min)
{
	char families[64][96], current[96] = "", type[16] = "";
	int n = 0, samples = 0;

	cr_assert_not_null(om);
	cr_expect(strlen(om) > 6 && !strcmp(om + strlen(om) - 6, "# EOF\n"), "no # EOF at the end");
	cr_expect_eq(strstr(om, "# EOF\n"), om + strlen(om) - 6, "# EOF before the end");
	cr_expect_null(strstr(om, "\n\n"), "an empty line");
	for (const char *line = om; line; line = prom_line_after(line)) {
		char name[96], rest[96];
		const char *le;

		if (!strncmp(line, "# EOF", 5))
			break;
		if (!strncmp(line, "# HELP ", 7) || !strncmp(line, "# TYPE ", 7)) {
			cr_assert_eq(sscanf(line + 7, "%95s", name), 1);
			if (strcmp(name, current)) {
				for (int i = 0; i < n; i++)
					cr_expect_str_neq(families[i], name, "%s opened twice", name);
				cr_assert_lt(n, 64);
				snprintf(families[n++], sizeof(families[0]), "%s", name);
				snprintf(current, sizeof(current), "%s", name);
				type[0] = '\0';
				samples = 0;
			}
			cr_expect_eq(samples, 0, "metadata of %s after its samples", name);
			if (line[2] == 'T')
				cr_assert_eq(sscanf(line + 7, "%*s %15s", type), 1);
			continue;
		}
		samples++;
		cr_assert_eq(sscanf(line, "%95[a-z_]%95s", name, rest), 2, "a line that is no sample: %.40s", line);
		if (!strcmp(type, "counter")) {
			cr_expect(strlen(current) < 6 || strcmp(current + strlen(current) - 6, "_total"),
				  "a counter family named with _total: %s", current);
			cr_expect(!strncmp(name, current, strlen(current)) && !strcmp(name + strlen(current), "_total"),
				  "%s in the counter %s", name, current);
		} else if (!strcmp(type, "histogram")) {
			cr_expect(!strncmp(name, current, strlen(current)) &&
					  (!strcmp(name + strlen(current), "_bucket") ||
					   !strcmp(name + strlen(current), "_sum") ||
					   !strcmp(name + strlen(current), "_count")),
				  "%s in the histogram %s", name, current);
		} else {
			cr_expect_str_eq(type, "gauge", "%s: no type, or another", current);
			cr_expect_str_eq(name, current);
		}
		le = strstr(line, "le=\"");
		if (le && strchr(le, '\n') > le)
			cr_expect(strncmp(le + 4, "0.0000", 6), "le not canonical: %.80s", line);
	}
	cr_expect_geq(n, min);
}

/* prom_openmetrics_of - the Prometheus text @doc as OpenMetrics, to free */
static inline char *prom_openmetrics_of(const char *doc)
{
	char *om = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&om, &n);

	cr_assert_not_null(f);
	cr_assert_eq(prom__to_openmetrics(doc, strlen(doc), f), 0);
	cr_assert_eq(fclose(f), 0);
	return om;
}

#endif /* WAKEPROBE_TEST_PROM_TEXT_H */
