/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_common.h - what the workload's, attach mode's and a design's text
 * reports print alike: their tables of distributions, causes and slow
 * wakeups, the lines of their run summaries that say how tracing went, and
 * what a table of futex words says once a sketch kept its rows
 */
#ifndef WAKEPROBE_TEXT_COMMON_H
#define WAKEPROBE_TEXT_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "attach_aggregate.h"
#include "cause_totals.h"
#include "histogram.h"
#include "host_steal.h"
#include "trace_cost.h"
#include "wakeup.h"

/* text_common__stats_header - the header of a table of distributions: count, min, percentiles, max, mean in us */
void text_common__stats_header(FILE *out);
/* text_common__stats_row - one distribution as a row under text_common__stats_header() */
void text_common__stats_row(FILE *out, const char *name, const struct histogram *h);

/*
 * text_common__print_causes - where the time of the explained wakeups went
 * (every one of the @complete, or the lean engine's slow ones, ct->wakeups), by cause,
 * and the tasks that held a CPU they needed; @migrations: every
 * sched_migrate_task of the traced tasks in the run, @whose ("the
 * workload's")
 */
void text_common__print_causes(FILE *out, const struct cause_totals *ct, uint64_t complete, uint64_t migrations,
			       const char *whose);
/* what a lean run's flight records reach besides the switch-in CPU's wake_enqueue and runq_wait */
enum legend_reach {
	LEGEND_ATTACH,			/* nothing: softirqs are not traced */
	LEGEND_ATTACH_SOFTIRQS,		/* nothing, and softirqs are traced (--softirqs) */
	LEGEND_WORKLOAD,		/* the notify on the waker's CPU, the resume on its own */
};

/*
 * text_common__outliers_legend - the rest of an outlier table's heading line,
 * ", each phase split by cause ...": what its phases show, for a lean run
 * (@lean) with or without flight records (@flight_ns, their thresholds at the
 * end by kind of waker, NULL or 0 for none; @adaptive, the running p99s),
 * which reach what @reach says
 */
void text_common__outliers_legend(FILE *out, bool lean, const uint64_t *flight_ns, bool adaptive,
				  enum legend_reach reach);
/*
 * text_common__lean_tracing - a lean run's "tracing" lines: what it traced,
 * what it goes without (@lacks, ending in a comma; a second line indented to
 * the column), whether wakeups @flight_ns slow (by kind of waker, enum
 * wp_slow_kind; NULL or 0: no flight recorder; @adaptive: the running p99s at
 * the end, LEAN_ADAPT_NONE before there were enough) were explained by their
 * flight records (@flight_explained how many, or -1 when not counted), and
 * the wakes it could not record (@c), the lost ones a WARNING or NOTE
 */
struct wp_lean_counters;
void text_common__lean_tracing(FILE *out, const char *lacks, const uint64_t *flight_ns, bool adaptive,
			       int64_t flight_explained, const struct wp_lean_counters *c);
/*
 * text_common__print_outlier_body - one slow wakeup's CPUs and each phase
 * split by cause, under its heading; only the phases @show[] says (NULL:
 * all). A phase whose own work is far over the run's usual (@ct's) is
 * flagged.
 */
void text_common__print_outlier_body(FILE *out, const struct sample_result *r, const bool *show,
				     const struct cause_totals *ct);
/*
 * text_common__host - the run summary's host line: the steal its records add
 * up to and the part @in_wakeups_ns of it inside complete wakeups, against
 * /proc/stat; or why steal was not measured
 */
void text_common__host(FILE *out, const struct host_steal *h, int64_t in_wakeups_ns);
/*
 * text_common__cost - the run summary's cost line: what the BPF programs cost
 * per wakeup by the kernel's count, the @records (and @dropped) per wakeup,
 * and wakeprobe's own CPU time against the @wall_ns the tracing lasted
 */
void text_common__cost(FILE *out, const struct trace_cost *c, uint64_t records, uint64_t dropped, uint64_t wakeups,
		       uint64_t wall_ns);
/*
 * text_common__futexes_sketch - under a table of the futex words @rows (@n
 * of them), once more words came than the table has rows: that a sketch
 * kept the busiest, how far the rows shown can be off, and where the waits
 * and wakes of the words replaced went. Nothing while every word had a row.
 */
void text_common__futexes_sketch(FILE *out, const struct attach_aggregate *g, const struct attach_futex *const *rows,
				 size_t n);

#endif /* WAKEPROBE_TEXT_COMMON_H */
