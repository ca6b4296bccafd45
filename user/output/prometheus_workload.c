// SPDX-License-Identifier: GPL-2.0
/*
 * prometheus_workload.c - the runs of wakeprobe's own workloads as
 * wakeprobe_* metrics, labelled with the host and the workload's path: a
 * family's samples together, run after run
 */
#include <errno.h>
#include <stdlib.h>
#include "prometheus_common.h"
#include "prometheus_workload.h"

/* a run of a workload, with what its metrics need to know of it */
struct run_view {
	const struct workload_desc *wl;
	const struct run_result *r;
	struct prom_labels ls;
	char host[sizeof(((struct run_meta *)0)->hostname) + 1];
	bool phased;
};

/* run_applies - does the family @f have a sample for @v? */
static bool run_applies(enum prometheus_family f, const struct run_view *v)
{
	switch (f) {
	case FAMILY_START:
		return v->r->meta.started_unix_ns;
	case FAMILY_PHASE:
	case FAMILY_CAUSE:
	case FAMILY_EXPLAINED:
		return v->phased;
	case FAMILY_WAKEUP:
	case FAMILY_WAKEUPS:
		return true;
	case FAMILY_TRACED:
	case FAMILY_DROPPED:
	case FAMILY_RECORDS:
	case FAMILY_MISSED_RUNS:
		return v->r->traced;
	case FAMILY_RECORDS_PER_WAKEUP:
		return v->r->traced && v->r->agg.samples;
	case FAMILY_BPF_RUNS:
	case FAMILY_BPF_RUN_SECONDS:
		return v->r->traced && v->r->cost.bpf_stats_on;
	case FAMILY_SELF_CPU:
		return v->r->traced && v->r->cost.known;
	default:
		return false;	/* attach mode's own */
	}
}

static void print_run(FILE *out, enum prometheus_family f, const struct run_view *v)
{
	const struct run_result *r = v->r;
	const char *name = prometheus_common__name(f);
	const struct prom_labels *ls = &v->ls;

	switch (f) {
	case FAMILY_START:
		prom__seconds(out, name, ls, r->meta.started_unix_ns);
		break;
	case FAMILY_TRACED:
		prom__seconds(out, name, ls, r->trace_end_ns > r->trace_start_ns ? r->trace_end_ns - r->trace_start_ns : 0);
		break;
	case FAMILY_PHASE:
		for (int p = 0; p < NR_PHASES; p++) {
			struct prom_labels l = prom__with(ls, "phase", wakeup__phase_name(p));

			prom__histogram(out, name, &l, &r->agg.phase[p]);
		}
		break;
	case FAMILY_WAKEUP:
		prom__histogram(out, name, ls, r->traced ? &r->agg.total : &r->agg.all_total);
		break;
	case FAMILY_WAKEUPS:
		if (r->traced) {
			prometheus_common__labels(out, ls, r->agg.by_label);
		} else {
			struct prom_labels l = prom__with(ls, "label", "untraced");

			prom__uint(out, name, &l, r->agg.samples);
		}
		break;
	case FAMILY_CAUSE:
		prometheus_common__causes(out, ls, &r->agg.causes);
		break;
	case FAMILY_EXPLAINED:
		prom__uint(out, name, ls, r->agg.causes.wakeups);
		break;
	case FAMILY_DROPPED:
		prom__uint(out, name, ls, r->drops_total);
		break;
	case FAMILY_RECORDS:
		prom__uint(out, name, ls, r->merge.events);
		break;
	case FAMILY_RECORDS_PER_WAKEUP:
		prom__double(out, name, ls, (double)r->merge.events / (double)r->agg.samples);
		break;
	case FAMILY_MISSED_RUNS:
		prom__uint(out, name, ls, r->missed_runs);
		break;
	case FAMILY_BPF_RUNS:
		prom__uint(out, name, ls, r->cost.bpf_runs);
		break;
	case FAMILY_BPF_RUN_SECONDS:
		prom__seconds(out, name, ls, r->cost.bpf_run_ns);
		break;
	case FAMILY_SELF_CPU:
		prom__seconds(out, name, ls, r->cost.self_cpu_ns);
		break;
	default:
		break;
	}
}

int prometheus_workload__print(FILE *out, const struct workload_desc *const *wl,
			       const struct run_result *const *res, size_t n)
{
	struct run_view *views = calloc(n ? n : 1, sizeof(*views));

	if (!views)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct run_view *v = &views[i];

		v->wl = wl[i];
		v->r = res[i];
		v->phased = res[i]->traced && !wl[i]->user_only;
		snprintf(v->host, sizeof(v->host), "%.*s", (int)sizeof(res[i]->meta.hostname),
			 res[i]->meta.hostname);
		prom__label(&v->ls, "host", v->host);
		prom__label(&v->ls, "workload", wl[i]->name);
	}
	/* a family's samples go together, run after run */
	for (int f = 0; f < NR_FAMILIES; f++) {
		bool begun = false;

		for (size_t i = 0; i < n; i++) {
			if (!run_applies(f, &views[i]))
				continue;
			if (!begun)
				prometheus_common__begin(out, f);
			begun = true;
			print_run(out, f, &views[i]);
		}
	}
	free(views);
	return 0;
}
