// SPDX-License-Identifier: GPL-2.0
/* prometheus.c - --prometheus: a run's numbers as wakeprobe_* metrics for Prometheus (docs/fleet.md) */
#include <errno.h>
#include <stdio.h>
#include "attach_analysis.h"
#include "prometheus_attach.h"
#include "prometheus_workload.h"
#include "sink.h"

/* attach_metrics - attach mode's run as its metrics take it */
static void attach_metrics(FILE *f, const struct results *r)
{
	const struct attach_report *report = r->attach.report;
	const struct attach_session_result *run = report->run;
	char host[sizeof(run->meta.hostname) + 1];
	struct prometheus_attach pa = {
		.host = host,
		.target = r->attach.target,
		.started_unix_ns = run->meta.started_unix_ns,
		.traced_ns = run->trace_end_ns > run->trace_start_ns ? run->trace_end_ns - run->trace_start_ns : 0,
		.agg = report->agg,
		.counters = report->counters,
		.drops = run->drops_total,
		.missed_runs_known = !r->attach.so_far || r->attach.missed_runs_read,
		.missed_runs = run->missed_runs,
		.lean = report->targets->lean,
		.bpf = &run->counters,
		.lean_counters = &run->lean,
		.cost = r->attach.so_far ? NULL : &run->cost,
		.cgroups = report->cgroups,
		.self = r->attach.self,
	};

	snprintf(host, sizeof(host), "%.*s", (int)sizeof(run->meta.hostname), run->meta.hostname);
	prometheus_attach__print(f, &pa);
}

static int prometheus_write(FILE *f, const struct results *r)
{
	switch (r->kind) {
	case RUN_WORKLOAD:
		return prometheus_workload__print(f, r->workload.wl, r->workload.res, r->workload.n);
	case RUN_ATTACH:
		if (!r->attach.report)
			return 0;
		/* a stream that failed is found as the file is put in place (outfile__commit) */
		attach_metrics(f, r);
		return 0;
	case RUN_DESIGN:
		break;
	}
	return -EINVAL;
}

const struct sink prometheus_sink = {
	.option = "--prometheus",
	.write = prometheus_write,
};
