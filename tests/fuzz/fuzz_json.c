// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_json.c - libFuzzer harness for the JSON reader: any bytes end in a
 * document or in one line that says where ("line L, column C: ...") or
 * "out of memory". A document read is walked whole through every
 * accessor, written again with json_reader__write() and read back: it must
 * be the same tree. The same bytes read again under a memory bound taken from
 * them must give the same answer or "out of memory", and nothing leaks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_reader.h"
#include "json_writer.h"

/* an error is one line naming its place, or the one without a place */
static void check_error(const char *err)
{
	if (strchr(err, '\n') || (strncmp(err, "line ", 5) && strcmp(err, "out of memory")))
		abort();
}

/* same - @b, read back from what @a wrote, holds the same values */
static bool same(const struct json_node *a, const struct json_node *b)
{
	uint64_t ua, ub;
	double da, db;
	size_t i;

	if (json_reader__type(a) != json_reader__type(b) || json_reader__len(a) != json_reader__len(b))
		return false;
	switch (json_reader__type(a)) {
	case JSON_NUMBER:
		if (!json_reader__double(a, &da) || !json_reader__double(b, &db))
			return false;
		if (da != db || signbit(da) != signbit(db))
			return false;
		/* a whole number stays exact; "1.0" may come back as "1", which is one */
		if (json_reader__u64(a, &ua) && (!json_reader__u64(b, &ub) || ua != ub))
			return false;
		return true;
	case JSON_STRING:
		return !strcmp(json_reader__string(a), json_reader__string(b));
	case JSON_ARRAY:
	case JSON_OBJECT:
		for (i = 0; i < json_reader__len(a); i++) {
			const char *ka = json_reader__key_at(a, i), *kb = json_reader__key_at(b, i);

			if ((ka || kb) && (!ka || !kb || strcmp(ka, kb)))
				return false;
			/* the member found by its key is the one at its place: keys are unique */
			if (ka && json_reader__get(a, ka) != json_reader__at(a, i))
				abort();
			if (!same(json_reader__at(a, i), json_reader__at(b, i)))
				return false;
		}
		return true;
	default:
		return true;
	}
}

static void round_trip(const struct json_node *root)
{
	char err[256] = "", *buf = NULL;
	struct json_doc *again;
	struct json_writer w;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return;
	json_writer__init_compact(&w, f);
	json_reader__write(&w, root);
	ret = json_writer__finish(&w);
	fclose(f);
	/* the writer nests less deep than the reader: such a document is not written, and that is all */
	if (ret == -E2BIG) {
		free(buf);
		return;
	}
	if (ret)
		abort();
	again = json_reader__parse(buf, len, err, sizeof(err));
	if (!again || !same(root, json_reader__root(again)))
		abort();
	json_reader__free(again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "", bounded_err[256] = "";
	struct json_doc *doc, *bounded;
	size_t bound;

	doc = json_reader__parse((const char *)data, size, err, sizeof(err));
	if (doc)
		round_trip(json_reader__root(doc));
	else
		check_error(err);

	/* a bound from the input's bytes, up to 64 KiB: the allocation failures in every path */
	bound = size ? (size_t)data[0] << 8 | data[size - 1] : 0;
	bounded = json_reader__parse_bounded((const char *)data, size, bound, bounded_err, sizeof(bounded_err));
	if (!bounded) {
		check_error(bounded_err);
		if (strcmp(bounded_err, "out of memory") && (doc || strcmp(bounded_err, err)))
			abort();	/* a bound changes nothing but whether memory runs out */
	} else if (!doc || !same(json_reader__root(doc), json_reader__root(bounded))) {
		abort();
	}
	json_reader__free(bounded);
	json_reader__free(doc);
	return 0;
}
