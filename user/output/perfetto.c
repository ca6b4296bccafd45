// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto.c - --perfetto: the run as a timeline for ui.perfetto.dev,
 * written as it goes (perfetto_timeline.h): a workload's runs, or attach mode's
 * traced threads, with the CPUs' history beside them
 */
#include <errno.h>
#include <stdlib.h>
#include "perfetto_timeline.h"
#include "sink.h"

struct perfetto_stream {
	enum run_kind kind;
	struct perfetto_timeline *timeline;
};

static int perfetto_open(void **w, FILE *f, enum run_kind kind)
{
	struct perfetto_stream *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->kind = kind;
	p->timeline = perfetto_timeline__open(f);
	if (!p->timeline) {
		free(p);
		return -ENOMEM;
	}
	*w = p;
	return 0;
}

static int perfetto_begin(void *w, const char *name, bool traced)
{
	struct perfetto_stream *p = w;

	if (p->kind == RUN_ATTACH)
		return perfetto_timeline__begin_attach(p->timeline, name);
	perfetto_timeline__begin_run(p->timeline, name, traced);
	return 0;
}

static void perfetto_sample(void *w, const struct sample_result *r)
{
	perfetto_timeline__sample(((struct perfetto_stream *)w)->timeline, r);
}

static void perfetto_wakeup(void *w, const struct attach_result *r)
{
	perfetto_timeline__attach_result(((struct perfetto_stream *)w)->timeline, r);
}

static void perfetto_event(void *w, const struct wp_event *e)
{
	struct perfetto_stream *p = w;

	if (p->kind == RUN_ATTACH)
		perfetto_timeline__attach_event(p->timeline, e);
	else
		perfetto_timeline__event(p->timeline, e);
}

static void perfetto_end(void *w)
{
	perfetto_timeline__end_run(((struct perfetto_stream *)w)->timeline);
}

static int perfetto_close(void *w)
{
	struct perfetto_stream *p = w;
	int err = perfetto_timeline__close(p->timeline);

	free(p);
	return err;
}

const struct sink perfetto_sink = {
	.option = "--perfetto",
	.open = perfetto_open,
	.begin = perfetto_begin,
	.sample = perfetto_sample,
	.wakeup = perfetto_wakeup,
	.event = perfetto_event,
	.end = perfetto_end,
	.close = perfetto_close,
};
