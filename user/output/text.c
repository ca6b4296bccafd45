// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - the report a person reads, for any kind of run: a workload's
 * (text_workload.c), or its paths side by side, attach mode's
 * (text_attach.c), a throughput workload's modes (text_design.c)
 */
#include "sink.h"
#include "text_attach.h"
#include "text_design.h"
#include "text_workload.h"

static int text_write(FILE *f, const struct results *r)
{
	switch (r->kind) {
	case RUN_WORKLOAD:
		if (r->workload.compare) {
			fprintf(f, "\n");
			text_workload__print_comparison(f, r->workload.cfg, r->workload.wl, r->workload.res,
							r->workload.n);
		} else if (r->workload.n) {
			text_workload__print_text(f, r->workload.cfg, r->workload.res[0]);
		}
		break;
	case RUN_ATTACH:
		text_attach__print_text(f, r->attach.report);
		break;
	case RUN_DESIGN:
		for (size_t i = 0; i < r->design.n; i++) {
			if (i)
				fprintf(f, "\n");
			text_design__print_text(f, r->design.runs[i]);
		}
		break;
	}
	return 0;
}

const struct sink text_sink = {
	.option = "the text report",
	.write = text_write,
};
