// SPDX-License-Identifier: GPL-2.0
/* json.c - --json: the whole report as one JSON document, for any kind of run (docs/json.md) */
#include <errno.h>
#include "json_attach.h"
#include "json_design.h"
#include "json_workload.h"
#include "sink.h"

static int json_write(FILE *f, const struct results *r)
{
	switch (r->kind) {
	case RUN_WORKLOAD:
		/* its writer says only whether the stream failed */
		return json_workload__print(f, r->workload.cfg, r->workload.wl, r->workload.res, r->workload.n) ?
			-EIO : 0;
	case RUN_ATTACH:
		return json_attach__print(f, r->attach.report) ? -EIO : 0;
	case RUN_DESIGN:
		return json_design__print(f, r->design.workload, r->design.runs, r->design.n);
	}
	return -EINVAL;
}

const struct sink json_sink = {
	.option = "--json",
	.write = json_write,
};
