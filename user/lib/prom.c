// SPDX-License-Identifier: GPL-2.0
/* prom.c - the Prometheus text exposition format: families, samples, histograms */
#include <inttypes.h>
#include <string.h>
#include "json_writer.h"
#include "prom.h"

void prom__label(struct prom_labels *ls, const char *name, const char *value)
{
	if (ls->n >= PROM_MAX_LABELS)
		return;
	ls->name[ls->n] = name;
	ls->value[ls->n] = value;
	ls->n++;
}

struct prom_labels prom__with(const struct prom_labels *base, const char *name, const char *value)
{
	struct prom_labels ls = *base;

	prom__label(&ls, name, value);
	return ls;
}

/* help_text - HELP's text: only backslash and line feed are escaped there */
static void help_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

void prom__family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s ", name);
	help_text(out, help);
	fprintf(out, "\n# TYPE %s %s\n", name, type);
}

void prom__label_value(FILE *out, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t n = strlen(v), len;

	for (size_t i = 0; i < n; i += len) {
		unsigned char c = s[i];

		len = c < 0x80 ? 1 : json_writer__utf8_len(s + i, n - i);
		if (c == '\\' || c == '"') {
			fprintf(out, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (len) {
			fwrite(s + i, 1, len, out);
		} else {
			/* a comm cut inside a character: the byte's value as a character keeps the file valid */
			fprintf(out, "%c%c", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
			len = 1;
		}
	}
}

void prom__seconds_text(uint64_t ns, char *buf, size_t len)
{
	uint64_t frac = ns % 1000000000u;
	int digits = 9;

	if (!frac) {
		snprintf(buf, len, "%" PRIu64, ns / 1000000000u);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, ns / 1000000000u, digits, frac);
}

/* sample_name - "name{a="x",b="y"}", the part before the value; @le, if not NULL, is the last label */
static void sample_name(FILE *out, const char *name, const struct prom_labels *ls, const char *le)
{
	fputs(name, out);
	if (!ls->n && !le)
		return;
	fputc('{', out);
	for (size_t i = 0; i < ls->n; i++) {
		fprintf(out, "%s%s=\"", i ? "," : "", ls->name[i]);
		prom__label_value(out, ls->value[i]);
		fputc('"', out);
	}
	if (le)
		fprintf(out, "%sle=\"%s\"", ls->n ? "," : "", le);
	fputc('}', out);
}

void prom__uint(FILE *out, const char *name, const struct prom_labels *ls, uint64_t v)
{
	sample_name(out, name, ls, NULL);
	fprintf(out, " %" PRIu64 "\n", v);
}

void prom__seconds(FILE *out, const char *name, const struct prom_labels *ls, uint64_t ns)
{
	char text[32];

	prom__seconds_text(ns, text, sizeof(text));
	sample_name(out, name, ls, NULL);
	fprintf(out, " %s\n", text);
}

void prom__double(FILE *out, const char *name, const struct prom_labels *ls, double v)
{
	sample_name(out, name, ls, NULL);
	fprintf(out, " %.6g\n", v);
}

void prom__histogram(FILE *out, const char *name, const struct prom_labels *ls, const struct histogram *h)
{
	uint64_t rows[HIST_LOG2_ROWS] = { 0 }, below = 0;
	char sample[128], le[32];
	int last;

	histogram__log2_rows(h, rows, &last);
	snprintf(sample, sizeof(sample), "%s_bucket", name);
	for (unsigned int k = 0; k < PROM_FIRST_ROW; k++)
		below += rows[k];
	for (unsigned int k = PROM_FIRST_ROW; k <= PROM_LAST_ROW; k++) {
		below += rows[k];
		prom__seconds_text(histogram__log2_row_high(k), le, sizeof(le));
		sample_name(out, sample, ls, le);
		fprintf(out, " %" PRIu64 "\n", below);
	}
	sample_name(out, sample, ls, "+Inf");
	fprintf(out, " %" PRIu64 "\n", h->count);
	snprintf(sample, sizeof(sample), "%s_sum", name);
	prom__seconds(out, sample, ls, h->sum);
	snprintf(sample, sizeof(sample), "%s_count", name);
	prom__uint(out, sample, ls, h->count);
}
