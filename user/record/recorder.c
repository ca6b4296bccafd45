// SPDX-License-Identifier: GPL-2.0
/* recorder.c - write a record file: buffer, count, keep the first error */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "recorder.h"

struct recorder {
	FILE *out;
	uint64_t bytes;
	int err;		/* the first write error */
};

static void put(struct recorder *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (fwrite(p, 1, n, w->out) != n) {
		w->err = errno ? -errno : -EIO;
		return;
	}
	w->bytes += n;
}

struct recorder *recorder__new(FILE *out)
{
	struct rec_file_header fh = { .version = REC_VERSION, .header_size = REC_FILE_HEADER_SIZE };
	struct recorder *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	memcpy(fh.magic, REC_MAGIC, sizeof(fh.magic));
	put(w, &fh, sizeof(fh));
	return w;
}

int recorder__write(struct recorder *w, enum rec_type type, const void *payload, uint32_t length)
{
	struct rec_header h = { .type = (uint16_t)type, .length = length };

	put(w, &h, sizeof(h));
	put(w, payload, length);
	return w->err;
}

uint64_t recorder__bytes(const struct recorder *w)
{
	return w->bytes;
}

int recorder__finish(struct recorder *w)
{
	int err;

	if (!w)
		return 0;
	if (!w->err && fflush(w->out))
		w->err = errno ? -errno : -EIO;
	err = w->err;
	free(w);
	return err;
}
