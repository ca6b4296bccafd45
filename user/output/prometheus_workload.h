/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus_workload.h - the runs of wakeprobe's own workloads as
 * Prometheus metrics (docs/fleet.md): the phases as histograms in seconds,
 * the wakeups by label, the time by cause, the drops and what tracing
 * cost, labelled with the host and the workload. The numbers are those of
 * the text and JSON reports, read from the same aggregates.
 */
#ifndef WAKEPROBE_PROMETHEUS_WORKLOAD_H
#define WAKEPROBE_PROMETHEUS_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>
#include "catalog.h"
#include "run_result.h"

/* prometheus_workload__print - the @n runs of wakeprobe's workloads @wl, one set of labels each; -ENOMEM */
int prometheus_workload__print(FILE *out, const struct workload_desc *const *wl, const struct run_result *const *res,
			       size_t n);

#endif /* WAKEPROBE_PROMETHEUS_WORKLOAD_H */
