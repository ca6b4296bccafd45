/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_recording.h - a workload run to and from the record file: its
 * description as RUN_BEGIN, its end, steal and cost as RUN_END. The run's
 * own types (run_config.h, run_result.h, host_steal.h, trace_cost.h) know
 * nothing of the file; this is where they meet it.
 */
#ifndef WAKEPROBE_RUN_RECORDING_H
#define WAKEPROBE_RUN_RECORDING_H

#include "analysis.h"
#include "recorder.h"
#include "recording.h"
#include "run_config.h"
#include "run_result.h"

/* a path as a recording describes it: the catalog entry of the wakeprobe that measured it */
struct recorded_workload {
	struct workload_desc desc;	/* its strings point below */
	char name[REC_NAME_LEN];
	char summary[REC_SUMMARY_LEN];
};

/* run_recording__encode_begin - @cfg, @meta and where the tracing window opened, as RUN_BEGIN */
void run_recording__encode_begin(const struct run_config *cfg, const struct run_meta *meta, uint64_t trace_start_ns,
				 struct rec_run_begin *b);
/*
 * run_recording__decode_begin - RUN_BEGIN, as the record reader checked it, back
 * into @cfg, @meta and @trace_start_ns. @cfg's workload is @wl, which must
 * live as long as @cfg does.
 */
void run_recording__decode_begin(const struct rec_run_begin *b, struct run_config *cfg, struct recorded_workload *wl,
				 struct run_meta *meta, uint64_t *trace_start_ns);

/* run_recording__encode_end - how @res's run ended, and the BPF side's counters, as RUN_END */
void run_recording__encode_end(const struct run_result *res, struct rec_run_end *e);
/*
 * run_recording__decode_end - RUN_END, as the record reader checked it, into
 * @res; its tids only where no sample brought them
 */
void run_recording__decode_end(const struct rec_run_end *e, struct run_result *res);

/* run_recording__encode_steal - @h's measured parts (not seen_ns: the records say it) for RUN_END or ATTACH_END */
void run_recording__encode_steal(const struct host_steal *h, struct rec_steal *s);
/* run_recording__decode_steal - the recorded parts into @h, which keeps its CPUs and what the records added up to */
void run_recording__decode_steal(const struct rec_steal *s, struct host_steal *h);

void run_recording__encode_cost(const struct trace_cost *c, struct rec_cost *r);
void run_recording__decode_cost(const struct rec_cost *r, struct trace_cost *c);
/* run_recording__encode_lean - a lean run's counters and flight thresholds (WP_SLOW_KINDS), as both ends keep them */
void run_recording__encode_lean(const struct wp_lean_counters *c, const uint64_t *flight_ns, struct rec_lean *l);
void run_recording__decode_lean(const struct rec_lean *l, struct wp_lean_counters *c, uint64_t *flight_ns);

/* what writes a workload run down as it goes: analysis_opts.tap, with the struct recorder as its ctx */
extern const struct analysis_tap run_recording_tap;

#endif /* WAKEPROBE_RUN_RECORDING_H */
