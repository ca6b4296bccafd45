/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus_common.h - the metric families of wakeprobe's Prometheus
 * files (docs/fleet.md), which prometheus_workload.c and
 * prometheus_attach.c write: their names and HELP, and the families both
 * kinds of run fill alike. Every name starts with wakeprobe_; each family
 * has the same HELP whatever the run, as node_exporter wants of a metric
 * that several files carry.
 */
#ifndef WAKEPROBE_PROMETHEUS_COMMON_H
#define WAKEPROBE_PROMETHEUS_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include "cause_totals.h"
#include "prom.h"
#include "wakeup.h"

/* the families, in the order a workload's runs write theirs */
enum prometheus_family {
	FAMILY_START,
	FAMILY_TRACED,
	FAMILY_PHASE,
	FAMILY_WAKEUP,
	FAMILY_PAIR_WAKE_TO_RUN,
	FAMILY_PAIR_NOTIFY_TO_RETURN,
	FAMILY_WAKEUPS,
	FAMILY_WAKER_CLASS,
	FAMILY_PAIRS_UNTABLED,
	FAMILY_PAIRS_REPLACED,
	FAMILY_CAUSE,
	FAMILY_EXPLAINED,
	FAMILY_DROPPED,
	FAMILY_RECORDS,
	FAMILY_RECORDS_PER_WAKEUP,
	FAMILY_MISSED_RUNS,
	FAMILY_LOST,
	FAMILY_BPF_RUNS,
	FAMILY_BPF_RUN_SECONDS,
	FAMILY_SELF_CPU,
	FAMILY_SELF_RSS,
	FAMILY_SCRAPES,
	FAMILY_CONNECTIONS_CLOSED,
	FAMILY_STEAL,
	FAMILY_CGROUP_WAKE_TO_RUN,
	FAMILY_CGROUP_RUNQ_WAIT,
	FAMILY_CGROUP_NEIGHBOUR,
	FAMILY_CGROUP_PAIR_WAKEUPS,
	FAMILY_CGROUP_PAIR_SECONDS,
	FAMILY_CGROUP_CHAIN_HELD,
	FAMILY_MECH_WAKEUPS,
	FAMILY_MECH_SECONDS,
	FAMILY_SERIES_LIMIT,
	FAMILY_SERIES_KEYS,
	NR_FAMILIES,
};

/* prometheus_common__name - the metric name of family @f */
const char *prometheus_common__name(enum prometheus_family f);
/* prometheus_common__begin - the HELP and TYPE lines of @f, before its first sample */
void prometheus_common__begin(FILE *out, enum prometheus_family f);
/* prometheus_common__only_uint - the family @f, of one sample: @v */
void prometheus_common__only_uint(FILE *out, enum prometheus_family f, const struct prom_labels *ls, uint64_t v);
/* prometheus_common__causes - wakeprobe_cause_seconds_total's samples: @ct's time by cause, labelled @ls */
void prometheus_common__causes(FILE *out, const struct prom_labels *ls, const struct cause_totals *ct);
/* prometheus_common__labels - wakeprobe_wakeups_total's samples: the wakeups by label, labelled @ls */
void prometheus_common__labels(FILE *out, const struct prom_labels *ls, const uint64_t by_label[NR_LABELS]);

#endif /* WAKEPROBE_PROMETHEUS_COMMON_H */
