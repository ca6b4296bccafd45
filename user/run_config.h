/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_config.h - what a run is: the wakeup path it measured and the
 * settings it ran with, and where and when it ran. A live session runs one,
 * a recording keeps it in RUN_BEGIN, a replay reads it back, and the
 * reports print it.
 *
 * The outliers to explain and their threshold are not part of it: they are
 * the analysis's choice (struct analysis_opts), which `wakeprobe report`
 * makes anew for a recording, and the reports read them from the aggregate
 * that kept them.
 */
#ifndef WAKEPROBE_RUN_CONFIG_H
#define WAKEPROBE_RUN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include "catalog.h"
#include "recording.h"

struct run_config {
	/* the path: the catalog's entry, or what a recording kept of it */
	const struct workload_desc *workload;
	uint64_t samples;
	uint64_t interval_us;		/* between two wakeups; 0: back to back */
	int waker_cpu;
	int wakee_cpu;
	bool traced;			/* the BPF side ran: phases, not just totals */
	bool lean;			/* ... lean: one record per wakeup (--lean; never recorded) */
	uint32_t ringbuf_bytes;		/* the BPF side's ring buffer */
	/* ... as given (--ringbuf-kb): not grown to hold a workload run's records (session.c); never recorded */
	bool ringbuf_fixed;
};

/* where and when a run was measured: shown in the report, kept in a recording */
struct run_meta {
	char version[16];		/* wakeprobe's, at the time of the run */
	char kernel[65];		/* uname -r */
	char machine[65];		/* uname -m */
	char hostname[65];
	uint32_t nr_cpus;		/* online */
	uint64_t started_unix_ns;	/* CLOCK_REALTIME when the run began */
};

/* a path as a recording describes it: the catalog entry of the wakeprobe that measured it */
struct recorded_workload {
	struct workload_desc desc;	/* its strings point below */
	char name[REC_NAME_LEN];
	char summary[REC_SUMMARY_LEN];
};

/* run_config__meta_now - this machine and this moment, for a run that begins now */
void run_config__meta_now(struct run_meta *m);

/* run_config__encode - @cfg, @meta and where the tracing window opened, as RUN_BEGIN */
void run_config__encode(const struct run_config *cfg, const struct run_meta *meta, uint64_t trace_start_ns,
			struct rec_run_begin *b);
/*
 * run_config__decode - RUN_BEGIN, as the record reader checked it, back
 * into @cfg, @meta and @trace_start_ns. @cfg's workload is @wl, which must
 * live as long as @cfg does.
 */
void run_config__decode(const struct rec_run_begin *b, struct run_config *cfg, struct recorded_workload *wl,
			struct run_meta *meta, uint64_t *trace_start_ns);

#endif /* WAKEPROBE_RUN_CONFIG_H */
