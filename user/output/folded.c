// SPDX-License-Identifier: GPL-2.0
/*
 * folded.c - --folded: the run's combinations of stacks as folded stacks,
 * for flame graphs (folded_common.c says the format): attach mode's pairs
 * (folded_attach.c) or a workload's runs (folded_workload.c)
 */
#include <errno.h>
#include "folded_attach.h"
#include "folded_workload.h"
#include "sink.h"

static int folded_write(FILE *f, const struct results *r)
{
	switch (r->kind) {
	case RUN_ATTACH:
		return r->attach.report ? folded_attach__print(f, r->attach.report) : 0;
	case RUN_WORKLOAD:
		return folded_workload__print(f, r->workload.wl, r->workload.res, r->workload.n);
	case RUN_DESIGN:
		break;
	}
	return -EINVAL;
}

const struct sink folded_sink = {
	.option = "--folded",
	.write = folded_write,
};
