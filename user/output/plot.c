// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - --plot: the run as an SVG picture, a workload's phases and their
 * tail (plot_workload.c) or attach mode's busiest pairs (plot_attach.c)
 */
#include <errno.h>
#include "plot_attach.h"
#include "plot_workload.h"
#include "sink.h"

static int plot_write(FILE *f, const struct results *r)
{
	switch (r->kind) {
	case RUN_WORKLOAD:
		return plot_workload__runs(f, r->workload.cfg, r->workload.wl, r->workload.res, r->workload.n);
	case RUN_ATTACH:
		return r->attach.report ? plot_attach__print(f, r->attach.report) : 0;
	case RUN_DESIGN:
		break;
	}
	return -EINVAL;
}

const struct sink plot_sink = {
	.option = "--plot",
	.write = plot_write,
};
