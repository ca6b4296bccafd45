// SPDX-License-Identifier: GPL-2.0
/* prom.c - the Prometheus text exposition format: families, samples, histograms; and it as OpenMetrics */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

static bool canonical_number(const char *v, size_t n, char *buf, size_t len);

void prom__le_text(uint64_t ns, char *buf, size_t len)
{
	char exact[32];

	prom__seconds_text(ns, exact, sizeof(exact));
	if (!canonical_number(exact, strlen(exact), buf, len))
		snprintf(buf, len, "%s", exact);
}

void prom__log2_histogram(FILE *out, const char *name, const struct prom_labels *ls,
			  const uint64_t rows[HIST_LOG2_ROWS], uint64_t count, uint64_t sum_ns)
{
	char sample[128], le[32];
	uint64_t below = 0;

	snprintf(sample, sizeof(sample), "%s_bucket", name);
	for (unsigned int k = 0; k < PROM_FIRST_ROW; k++)
		below += rows[k];
	for (unsigned int k = PROM_FIRST_ROW; k <= PROM_LAST_ROW; k++) {
		below += rows[k];
		prom__le_text(histogram__log2_row_high(k), le, sizeof(le));
		sample_name(out, sample, ls, le);
		fprintf(out, " %" PRIu64 "\n", below);
	}
	sample_name(out, sample, ls, "+Inf");
	fprintf(out, " %" PRIu64 "\n", count);
	snprintf(sample, sizeof(sample), "%s_sum", name);
	prom__seconds(out, sample, ls, sum_ns);
	snprintf(sample, sizeof(sample), "%s_count", name);
	prom__uint(out, sample, ls, count);
}

void prom__histogram(FILE *out, const char *name, const struct prom_labels *ls, const struct histogram *h)
{
	uint64_t rows[HIST_LOG2_ROWS] = { 0 };
	int last;

	histogram__log2_rows(h, rows, &last);
	prom__log2_histogram(out, name, ls, rows, h->count, h->sum);
}

/* the types of the text format's families, as prom__to_openmetrics() tells them apart */
enum om_kind {
	OM_UNTYPED,
	OM_COUNTER,
	OM_GAUGE,
	OM_HISTOGRAM,
	OM_SUMMARY,
};

/* a family, as its TYPE line named it in the text */
struct om_family {
	const char *name;
	size_t len;
	enum om_kind kind;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* name_char - of a metric's name (with ':') or a label's (without) */
static bool name_char(char c, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       (colon && c == ':');
}

/* word - the next run of bytes up to a blank or @end, past the blanks before it: its length, its start in @w */
static size_t word(const char **p, const char *end, const char **w)
{
	const char *s = *p;

	while (s < end && blank(*s))
		s++;
	*w = s;
	while (s < end && !blank(*s))
		s++;
	*p = s;
	return s - *w;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(w, s, n);
}

/* kind_of - a TYPE line's type; -1 for none of the text format's */
static int kind_of(const char *w, size_t n)
{
	static const char *const names[] = {
		[OM_UNTYPED] = "untyped", [OM_COUNTER] = "counter", [OM_GAUGE] = "gauge",
		[OM_HISTOGRAM] = "histogram", [OM_SUMMARY] = "summary",
	};

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (word_is(w, n, names[k]))
			return k;
	return -1;
}

/* total_counter - a counter whose samples end in _total, which OpenMetrics names without it */
static bool total_counter(const char *name, size_t n, int kind)
{
	return kind == OM_COUNTER && n > 6 && !memcmp(name + n - 6, "_total", 6);
}

/*
 * type_ahead - the type of @name by its TYPE line among the comments from
 * @p on: the text format puts HELP first, but OpenMetrics names a counter's
 * family by its type
 */
static int type_ahead(const char *p, const char *end, const char *name, size_t n)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end, *w, *q = p;
		size_t nw = word(&q, eol, &w);

		p = nl ? nl + 1 : end;
		if (!nw)
			continue;
		/* a sample: the family's TYPE, if any, came before it */
		if (*w != '#')
			break;
		q = w + 1;
		nw = word(&q, eol, &w);
		if (!word_is(w, nw, "TYPE"))
			continue;
		nw = word(&q, eol, &w);
		if (nw == n && !memcmp(w, name, n)) {
			nw = word(&q, eol, &w);
			return kind_of(w, nw);
		}
	}
	return OM_UNTYPED;
}

/*
 * canonical_number - @v (@n bytes) as OpenMetrics's canonical numbers want
 * an le or a quantile, so that a number is one label value whoever wrote
 * it (Go's clients, node_exporter re-exposing a textfile): the shortest
 * digits that read back the same, as Go's %g writes them (an exponent
 * below 1e-4 and from 1e+06 on), ".0" after an integer, +Inf, -Inf, NaN;
 * into @buf. False, with nothing written, when it is not a number.
 */
static bool canonical_number(const char *v, size_t n, char *buf, size_t len)
{
	char in[64], num[48], *end;
	int prec, exp;
	double d;

	if (n >= sizeof(in))
		return false;
	memcpy(in, v, n);
	in[n] = '\0';
	/* wakeprobe never sets LC_NUMERIC: the point is a '.' both ways */
	d = strtod(in, &end);
	if (end == in || *end)
		return false;
	if (isnan(d) || isinf(d)) {
		snprintf(buf, len, "%s", isnan(d) ? "NaN" : d > 0 ? "+Inf" : "-Inf");
		return true;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(num, sizeof(num), "%.*e", prec - 1, d);
		if (strtod(num, NULL) == d)
			break;
	}
	snprintf(num, sizeof(num), "%.*e", prec - 1, d);
	exp = atoi(strchr(num, 'e') + 1);
	if (exp < -4 || exp >= 6) {
		snprintf(buf, len, "%s", num);
		return true;
	}
	snprintf(num, sizeof(num), "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0, d);
	if (!strchr(num, '.') && strlen(num) + 2 < sizeof(num))
		strcat(num, ".0");
	snprintf(buf, len, "%s", num);
	return true;
}

/* om_number - @v (@n bytes) canonical (canonical_number()), or as it is when it is not a number */
static void om_number(FILE *out, const char *v, size_t n)
{
	char buf[48];

	if (canonical_number(v, n, buf, sizeof(buf)))
		fputs(buf, out);
	else
		fwrite(v, 1, n, out);
}

/* om_value - a sample's value: infinity and NaN as OpenMetrics spells them, the rest as written */
static void om_value(FILE *out, const char *v, size_t n)
{
	const char *s = v + (n && (*v == '+' || *v == '-'));
	size_t ns = n - (s - v);

	if ((ns == 3 && !strncasecmp(s, "inf", 3)) || (ns == 8 && !strncasecmp(s, "infinity", 8)) ||
	    (n == 3 && !strncasecmp(v, "nan", 3)))
		om_number(out, v, n);
	else
		fwrite(v, 1, n, out);
}

/* om_timestamp - the text format's milliseconds as OpenMetrics's seconds */
static int om_timestamp(FILE *out, const char *t, size_t n)
{
	bool negative = n && *t == '-';
	uint64_t ms = 0;

	if (negative || (n && *t == '+')) {
		t++;
		n--;
	}
	if (!n || n > 19)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (t[i] < '0' || t[i] > '9')
			return -EINVAL;
		ms = ms * 10 + (t[i] - '0');
	}
	fprintf(out, " %s%" PRIu64 ".%03" PRIu64, negative ? "-" : "", ms / 1000, ms % 1000);
	return 0;
}

/* om_help - HELP's text: the text format escapes backslash and line feed there, OpenMetrics the quote too */
static void om_help(FILE *out, const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '"') {
			fputs("\\\"", out);
		} else if (*p == '\\' && p + 1 < end && (p[1] == '\\' || p[1] == 'n')) {
			fwrite(p, 1, 2, out);
			p++;
		} else if (*p == '\\') {
			/* escaping nothing, it is itself */
			fputs("\\\\", out);
		} else {
			fputc(*p, out);
		}
	}
}

/* om_comment - a line that began with '#', from past it to @eol; the text's next line at @next */
static int om_comment(FILE *out, const char *p, const char *eol, const char *next, const char *end,
		      struct om_family *fam)
{
	const char *kw, *name, *w;
	size_t nk = word(&p, eol, &kw), nn, nw;
	int kind;

	/* OpenMetrics has no comments but its metadata */
	if (!word_is(kw, nk, "HELP") && !word_is(kw, nk, "TYPE"))
		return 0;
	nn = word(&p, eol, &name);
	if (!nn)
		return -EINVAL;
	if (kw[0] == 'T') {
		nw = word(&p, eol, &w);
		kind = kind_of(w, nw);
		if (kind < 0 || word(&p, eol, &w))
			return -EINVAL;
		*fam = (struct om_family){ .name = name, .len = nn, .kind = kind };
		fprintf(out, "# TYPE %.*s %s\n", (int)(total_counter(name, nn, kind) ? nn - 6 : nn), name,
			kind == OM_COUNTER ? (total_counter(name, nn, kind) ? "counter" : "unknown") :
			kind == OM_GAUGE ? "gauge" : kind == OM_HISTOGRAM ? "histogram" :
			kind == OM_SUMMARY ? "summary" : "unknown");
		return 0;
	}
	kind = fam->name && fam->len == nn && !memcmp(fam->name, name, nn) ? (int)fam->kind
									    : type_ahead(next, end, name, nn);
	fprintf(out, "# HELP %.*s ", (int)(total_counter(name, nn, kind) ? nn - 6 : nn), name);
	while (p < eol && blank(*p))
		p++;
	om_help(out, p, eol);
	fputc('\n', out);
	return 0;
}

/* number_label - the label whose value OpenMetrics wants canonical in the sample @name of @fam, or NULL */
static const char *number_label(const struct om_family *fam, const char *name, size_t n)
{
	if (!fam->name || n < fam->len || memcmp(name, fam->name, fam->len))
		return NULL;
	if (fam->kind == OM_HISTOGRAM && word_is(name + fam->len, n - fam->len, "_bucket"))
		return "le";
	if (fam->kind == OM_SUMMARY && n == fam->len)
		return "quantile";
	return NULL;
}

/* om_sample - a sample line, from @p to @eol: written without blanks but one between its parts */
static int om_sample(FILE *out, const char *p, const char *eol, const struct om_family *fam)
{
	const char *name = p, *canon, *w;
	size_t labels = 0, nw;

	while (p < eol && name_char(*p, true))
		p++;
	if (p == name)
		return -EINVAL;
	fwrite(name, 1, p - name, out);
	canon = number_label(fam, name, p - name);
	while (p < eol && blank(*p))
		p++;
	if (p < eol && *p == '{') {
		for (p++;;) {
			const char *label, *value;

			while (p < eol && blank(*p))
				p++;
			if (p < eol && *p == '}')
				break;
			for (label = p; p < eol && name_char(*p, false); p++)
				;
			nw = p - label;
			while (p < eol && blank(*p))
				p++;
			if (!nw || p + 1 >= eol || p[0] != '=' || p[1] != '"')
				return -EINVAL;
			for (p += 2, value = p; p < eol && *p != '"'; p++)
				if (*p == '\\' && p + 1 < eol)
					p++;
			if (p >= eol)
				return -EINVAL;
			fprintf(out, "%c%.*s=\"", labels++ ? ',' : '{', (int)nw, label);
			if (canon && word_is(label, nw, canon))
				om_number(out, value, p - value);
			else
				fwrite(value, 1, p - value, out);
			fputc('"', out);
			for (p++; p < eol && blank(*p); p++)
				;
			if (p < eol && *p == ',')
				p++;
			else if (p >= eol || *p != '}')
				return -EINVAL;
		}
		p++;
		if (labels)
			fputc('}', out);
	}
	nw = word(&p, eol, &w);
	if (!nw)
		return -EINVAL;
	fputc(' ', out);
	om_value(out, w, nw);
	nw = word(&p, eol, &w);
	if (nw && om_timestamp(out, w, nw))
		return -EINVAL;
	if (word(&p, eol, &w))
		return -EINVAL;
	fputc('\n', out);
	return 0;
}

int prom__to_openmetrics(const char *text, size_t len, FILE *out)
{
	const char *p = text, *end = text + len;
	struct om_family fam = { .name = NULL };

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end, *s = p;
		int err;

		p = nl ? nl + 1 : end;
		while (s < eol && blank(*s))
			s++;
		/* OpenMetrics has no empty lines */
		if (s == eol)
			continue;
		err = *s == '#' ? om_comment(out, s + 1, eol, p, end, &fam) : om_sample(out, s, eol, &fam);
		if (err)
			return err;
	}
	fputs("# EOF\n", out);
	return ferror(out) ? -EIO : 0;
}
