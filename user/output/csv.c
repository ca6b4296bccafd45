// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - --csv: one RFC 4180 row per wakeup as the run goes, a workload's
 * merged samples (csv_workload.c) or attach mode's wakeups (csv_attach.c)
 */
#include <errno.h>
#include <stdlib.h>
#include "csv_attach.h"
#include "csv_workload.h"
#include "sink.h"

struct csv_stream {
	enum run_kind kind;
	struct csv_workload *workload;
	struct csv_attach *attach;
};

static int csv_close(void *w)
{
	struct csv_stream *c = w;
	int err = c->kind == RUN_ATTACH ? csv_attach__close(c->attach) : csv_workload__close(c->workload);

	free(c);
	return err;
}

static int csv_open(void **w, FILE *f, enum run_kind kind)
{
	struct csv_stream *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->kind = kind;
	if (kind == RUN_ATTACH)
		c->attach = csv_attach__open(f);
	else
		c->workload = csv_workload__open(f);
	if (!c->attach && !c->workload) {
		free(c);
		return -ENOMEM;
	}
	*w = c;
	return 0;
}

static int csv_begin(void *w, const char *name, bool traced)
{
	struct csv_stream *c = w;

	if (c->workload)
		csv_workload__begin_run(c->workload, name, traced);
	return 0;
}

static void csv_sample(void *w, const struct sample_result *r)
{
	csv_workload__add(((struct csv_stream *)w)->workload, r);
}

static void csv_wakeup(void *w, const struct attach_result *r)
{
	csv_attach__add(((struct csv_stream *)w)->attach, r);
}

const struct sink csv_sink = {
	.option = "--csv",
	.open = csv_open,
	.begin = csv_begin,
	.sample = csv_sample,
	.wakeup = csv_wakeup,
	.close = csv_close,
};
