/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_result.h - what came of a run: the aggregate of its merged samples,
 * the clock fit, the BPF side's counters, and how the workload ended. A
 * live session and a replay of a recording fill the same struct through the
 * analysis (analysis.h), and the reports read it.
 */
#ifndef WAKEPROBE_RUN_RESULT_H
#define WAKEPROBE_RUN_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "aggregate.h"
#include "collector.h"
#include "host_steal.h"
#include "merger.h"
#include "run_config.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "trace_cost.h"
#include "tsc_clock.h"
#include "wakeprobe.h"

struct run_result {
	struct run_meta meta;
	struct aggregate agg;
	struct tsc_clock clock;
	struct wp_counters counters;
	struct wp_lean_counters lean;	/* the lean engine: the wakes that wrote no record */
	uint64_t lean_flight_ns[WP_SLOW_KINDS];	/* the lean engine: the flight thresholds at the end; 0: no recorder */
	bool lean_flight_adaptive;	/* ... the running p99 of its wakeups, not --threshold-us */
	uint64_t drops_total;
	uint64_t missed_runs;		/* BPF program runs the kernel skipped */
	struct merger_stats merge;
	uint64_t samples_sent;		/* published by the workload */
	uint64_t seq_errors;
	uint64_t trace_start_ns;
	uint64_t trace_end_ns;
	uint32_t waker_tid;
	uint32_t wakee_tid;
	bool traced;
	bool interrupted;		/* stopped by SIGINT/SIGTERM/SIGHUP before the end */
	int stop_signal;		/* ... which one; 0 in a recording from before it was kept */
	bool timed_out;			/* stopped by its timeout before the end (not recorded) */
	bool workload_failed;
	char workload_exit[96];
	char workload_error[192];
	struct host_steal steal;	/* the host's steal on the two CPUs over the run */
	struct trace_cost cost;		/* what tracing cost: the programs' runs, wakeprobe's CPU */
	struct collector_prog_totals progs;	/* ... program by program (live runs only: not recorded) */
	/* --stacks: the stacks and the workload's mappings, and their combinations; session__release() */
	struct run_stacks *stacks;
	struct stack_combos *stack_combos;
};

#endif /* WAKEPROBE_RUN_RESULT_H */
