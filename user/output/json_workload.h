/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_workload.h - the report a program reads: the text report's facts, and a
 * few more, as one JSON document (docs/json.md is its schema).
 */
#ifndef WAKEPROBE_JSON_WORKLOAD_H
#define WAKEPROBE_JSON_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "aggregate.h"
#include "catalog.h"
#include "histogram.h"
#include "json_writer.h"
#include "run_config.h"
#include "run_result.h"

#define REPORT_JSON_SCHEMA		"wakeprobe-report"
/* adding keys keeps it; renaming or removing one, or changing what it means, bumps it */
#define REPORT_JSON_SCHEMA_VERSION	2

/*
 * json_workload__print - one document for @n runs made with the settings @cfg:
 * run i measured the path @wl[i] into @res[i] (with `--workload all`,
 * cfg->workload is not meaningful: @wl names each run's path). Returns 0, or
 * -EIO if the stream had a write error.
 */
int json_workload__print(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
			 const struct run_result *const *res, size_t n);

/*
 * The parts of a run that attach mode's document (json_attach.h) shares,
 * written the same way so that a reader parses them with the same code.
 * Each writes its key(s) and value(s) into the object open in @w.
 */
/* json_workload__write_meta - "meta": the version, the host, when the run began */
void json_workload__write_meta(struct json_writer *w, const struct run_meta *m);
/*
 * json_workload__write_interruption - "interrupted" and "interrupted_by":
 * the signal's name, null when the run was not interrupted or the
 * recording did not keep which signal (@sig 0)
 */
void json_workload__write_interruption(struct json_writer *w, bool interrupted, int sig);
/*
 * json_workload__write_host - "host_steal": the host's steal over the run, the
 * part of it inside complete wakeups, and /proc/stat's account; null
 * untraced (!@applies)
 */
void json_workload__write_host(struct json_writer *w, const struct host_steal *h, int64_t in_wakeups_ns,
			       bool applies);
/*
 * json_workload__write_cost - "tracing_cost": what tracing cost in all and per
 * wakeup (of @wakeups); null untraced (!@applies)
 */
void json_workload__write_cost(struct json_writer *w, const struct trace_cost *c, uint64_t records, uint64_t dropped,
			       uint64_t wakeups, uint64_t wall_ns, bool applies);
/* json_workload__write_dropped_by_type - "dropped_by_type": the BPF side's drops, by event type */
void json_workload__write_dropped_by_type(struct json_writer *w, const struct wp_counters *c);
/*
 * json_workload__write_labels - "by_label" and "missing_by_mark": wakeups by
 * label (@by_label[NR_LABELS]), and the missing_event ones by the first
 * mark that never came (@missing_by_mark[NR_MARKS])
 */
void json_workload__write_labels(struct json_writer *w, const uint64_t *by_label, const uint64_t *missing_by_mark);
/*
 * json_workload__write_lean_flight - the flight recorder's thresholds at the
 * end of a @lean run by kind of waker (@flight_ns; 0: none; LEAN_ADAPT_NONE:
 * not yet) and whether they were the running p99s (@adaptive): two keys of
 * `events`
 */
void json_workload__write_lean_flight(struct json_writer *w, bool lean, const uint64_t *flight_ns, bool adaptive);
/*
 * json_workload__write_distribution - "@name": count, min, percentiles, max,
 * mean and the log2 rows of @h; null unless it @applies
 */
void json_workload__write_distribution(struct json_writer *w, const char *name, const struct histogram *h,
				       bool applies);
/*
 * json_workload__write_causes - "causes", "explained_total_ns" and
 * "explained_wakeups": the time of the explained wakeups (ct->wakeups) by
 * cause; null unless it @applies
 */
void json_workload__write_causes(struct json_writer *w, const struct cause_totals *ct, bool applies);
/* json_workload__write_tasks - "tasks" and "untabled_task_ns": the tasks that held a CPU a wakeup needed */
void json_workload__write_tasks(struct json_writer *w, const struct cause_totals *ct, bool applies);
/*
 * json_workload__write_outlier_members - the members of outlier @rank, @r:
 * its figures against the medians of @phase[NR_PHASES] and @total, and its
 * phases split into their parts
 */
void json_workload__write_outlier_members(struct json_writer *w, const struct histogram *phase,
					  const struct histogram *total, const struct sample_result *r, uint32_t rank);

#endif /* WAKEPROBE_JSON_WORKLOAD_H */
