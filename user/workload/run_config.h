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
#include "run_meta.h"

struct run_config {
	/* the path: the catalog's entry, or what a recording kept of it */
	const struct workload_desc *workload;
	uint64_t samples;
	uint64_t interval_us;		/* between two wakeups; 0: back to back */
	int waker_cpu;
	int wakee_cpu;
	bool traced;			/* the BPF side ran: phases, not just totals */
	bool lean;			/* ... with the lean engine: one record per wakeup */
	bool stacks;			/* ... lean, with each wakeup's stacks (--stacks) */
	bool unwind;			/* ... and copies of their user stacks to unwind (--unwind) */
	uint32_t unwind_per_s;		/* ... a slow wakeup's, and this many a second of the others' */
	bool debuginfod;		/* ... named with debug files from debuginfod servers too (--debuginfod) */
	uint32_t ringbuf_bytes;		/* the BPF side's ring buffer */
	/* ... as given (--ringbuf-kb): not grown to hold a workload run's records (session.c); never recorded */
	bool ringbuf_fixed;
};

#endif /* WAKEPROBE_RUN_CONFIG_H */
