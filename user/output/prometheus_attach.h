/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus_attach.h - an attach run's numbers as Prometheus metrics
 * (docs/fleet.md): the kernel phases as histograms in seconds, the wakeups
 * by label and by waker, the time by cause, the drops and what tracing
 * cost, labelled with the host and the target, and each waker -> wakee
 * pair through its mechanism, or with --all, --cgroup, --listen the
 * wakeups by cgroup.
 *
 * The numbers are those of the text and JSON reports, read from the same
 * aggregates. The counters only grow while the run goes on, so a file
 * rewritten during it (--prometheus-every) or a scrape of a service
 * (--listen) is one Prometheus can take rate() of.
 */
#ifndef WAKEPROBE_PROMETHEUS_ATTACH_H
#define WAKEPROBE_PROMETHEUS_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "attach_result.h"
#include "attach_aggregate.h"
#include "cgroup_stats.h"
#include "trace_cost.h"

/* an attach run, so far or whole */
struct prometheus_attach {
	const char *host;
	const char *target;			/* "pid 1234", "./server --port 80" */
	uint64_t started_unix_ns;		/* 0: not known */
	uint64_t traced_ns;			/* how long it has traced */
	const struct attach_aggregate *agg;
	const struct attach_counters *counters;
	uint64_t drops;
	bool missed_runs_known;			/* the programs' runs were read (at the end, or by a service) */
	uint64_t missed_runs;
	/* the losses besides: the BPF side's drops by kind and forks not tracked, the lean engine's */
	bool lean;
	const struct wp_counters *bpf;
	const struct wp_lean_counters *lean_counters;
	const struct trace_cost *cost;		/* at the end only; NULL during the run */
	/* --all, --cgroup, --listen: by cgroup, in place of the pairs of threads; NULL: none */
	const struct cgroup_stats *cgroups;
	const struct prometheus_self *self;	/* a service's own cost as it runs; NULL: none */
};

/* what a service (--listen) costs, read as it answers a scrape */
struct prometheus_self {
	uint64_t cpu_ns;			/* its own CPU time, user and system, since it started */
	uint64_t rss_bytes;
	uint64_t scrapes;
	/* connections the server closed before they were done: at their deadline, for a new one, at once */
	uint64_t conns_timed_out, conns_evicted, conns_refused;
	bool bpf_known;				/* the kernel timed the programs (kernel.bpf_stats_enabled) */
	uint64_t bpf_runs;
	uint64_t bpf_run_ns;
	bool steal_known;
	uint64_t steal_ns;			/* the machine's, from /proc/stat */
};

/* prometheus_attach__print - the attach run @a */
void prometheus_attach__print(FILE *out, const struct prometheus_attach *a);

#endif /* WAKEPROBE_PROMETHEUS_ATTACH_H */
