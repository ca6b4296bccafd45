/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_common.h - the members that the workload's, attach mode's and a
 * design's JSON documents share (docs/json.md), written the same way so
 * that a reader parses them with the same code. Each writes its key(s)
 * and value(s) into the object open in @w.
 */
#ifndef WAKEPROBE_JSON_COMMON_H
#define WAKEPROBE_JSON_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include "cause_totals.h"
#include "histogram.h"
#include "host_steal.h"
#include "json_writer.h"
#include "run_meta.h"
#include "trace_cost.h"
#include "wakeprobe.h"
#include "wakeup.h"

/* json_common__round_ns - a computed time (a mean, a time per wakeup) as whole nanoseconds */
int64_t json_common__round_ns(double ns);
/* json_common__write_meta - "meta": the version, the host, when the run began */
void json_common__write_meta(struct json_writer *w, const struct run_meta *m);
/*
 * json_common__write_interruption - "interrupted" and "interrupted_by":
 * the signal's name, null when the run was not interrupted or the
 * recording did not keep which signal (@sig 0)
 */
void json_common__write_interruption(struct json_writer *w, bool interrupted, int sig);
/*
 * json_common__write_host - "host_steal": the host's steal over the run, the
 * part of it inside complete wakeups, and /proc/stat's account; null
 * untraced (!@applies)
 */
void json_common__write_host(struct json_writer *w, const struct host_steal *h, int64_t in_wakeups_ns,
			     bool applies);
/*
 * json_common__write_cost - "tracing_cost": what tracing cost in all and per
 * wakeup (of @wakeups); null untraced (!@applies)
 */
void json_common__write_cost(struct json_writer *w, const struct trace_cost *c, uint64_t records, uint64_t dropped,
			     uint64_t wakeups, uint64_t wall_ns, bool applies);
/* json_common__write_dropped_by_type - "dropped_by_type": the BPF side's drops, by event type */
void json_common__write_dropped_by_type(struct json_writer *w, const struct wp_counters *c);
/*
 * json_common__write_labels - "by_label" and "missing_by_mark": wakeups by
 * label (@by_label[NR_LABELS]), and the missing_event ones by the first
 * mark that never came (@missing_by_mark[NR_MARKS])
 */
void json_common__write_labels(struct json_writer *w, const uint64_t *by_label, const uint64_t *missing_by_mark);
/*
 * json_common__write_lean_flight - the flight recorder's thresholds at the
 * end of a @lean run by kind of waker (@flight_ns; 0: none; LEAN_ADAPT_NONE:
 * not yet) and whether they were the running p99s (@adaptive): two keys of
 * `events`
 */
void json_common__write_lean_flight(struct json_writer *w, bool lean, const uint64_t *flight_ns, bool adaptive);
/*
 * json_common__write_distribution - "@name": count, min, percentiles, max,
 * mean and the log2 rows of @h; null unless it @applies
 */
void json_common__write_distribution(struct json_writer *w, const char *name, const struct histogram *h,
				     bool applies);
/*
 * json_common__write_causes - "causes", "explained_total_ns" and
 * "explained_wakeups": the time of the explained wakeups (ct->wakeups) by
 * cause; null unless it @applies
 */
void json_common__write_causes(struct json_writer *w, const struct cause_totals *ct, bool applies);
/* json_common__write_tasks - "tasks" and "untabled_task_ns": the tasks that held a CPU a wakeup needed */
void json_common__write_tasks(struct json_writer *w, const struct cause_totals *ct, bool applies);
/*
 * json_common__write_outlier_members - the members of outlier @rank, @r:
 * its figures against the medians of @phase[NR_PHASES] and @total, and its
 * phases split into their parts
 */
void json_common__write_outlier_members(struct json_writer *w, const struct histogram *phase,
					const struct histogram *total, const struct sample_result *r, uint32_t rank);

#endif /* WAKEPROBE_JSON_COMMON_H */
