/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_analysis.h - what turns attach mode's inputs into its result: the
 * kernel records and the watermarks of their stream go in; every wakeup of
 * a traced thread, the aggregate and the engine's counters come out.
 *
 * It owns the engine (attach.h) and the aggregate (attach_aggregate.h),
 * narrows the wakeups to --tid, and answers the engine's question of what
 * an fd is: by default from /proc, looked up as soon as a record names the
 * fd (a process that exits takes its /proc with it), through a cache.
 */
#ifndef WAKEPROBE_ATTACH_ANALYSIS_H
#define WAKEPROBE_ATTACH_ANALYSIS_H

#include <stdint.h>
#include "attach.h"
#include "attach_aggregate.h"
#include "attach_lean.h"
#include "fd_kinds.h"

struct attach_analysis_opts {
	uint32_t outliers;		/* slowest complete wakeups to keep with their explanation */
	uint64_t outlier_threshold_ns;
	const int32_t *tids;		/* --tid: only these wakees are analysed; none: all */
	uint32_t nr_tids;
	/* what an fd is; NULL: ask /proc now, through the cache */
	attach_fd_kind_fn fd_kind;
	void *fd_kind_ctx;
	/* sees every wakeup the aggregate takes (those --tid lets through) */
	attach_result_fn on_result;
	void *on_result_ctx;
	/* sees every kernel record as it arrives */
	void (*on_event)(const struct wp_event *e, void *ctx);
	void *on_event_ctx;
	/* the records are lean mode's (attach_lean.h), not the engine's */
	bool lean;
};

struct attach_analysis {
	struct attach_analysis_opts opts;
	struct attach *engine;
	struct attach_lean *lean;	/* instead of the engine, with opts.lean */
	struct attach_aggregate *agg;
	uint64_t tids_left_out;		/* wakeups of threads --tid did not name */
	struct fd_kinds_cache fds;
	/* a thread's process, from the records that name both: a BLOCK names only the thread */
	uint32_t tgid_of[4096][2];
};

/* attach_analysis__new - an analysis as @o asks; NULL when out of memory */
struct attach_analysis *attach_analysis__new(const struct attach_analysis_opts *o);
void attach_analysis__free(struct attach_analysis *a);
/* a kernel record, in ring-buffer order */
void attach_analysis__event(struct attach_analysis *a, const struct wp_event *e);
/* every record stamped before @complete_ns is in; @drops: the drop counter after that drain */
void attach_analysis__advance(struct attach_analysis *a, uint64_t complete_ns, uint64_t drops);
/* the stream is over, with @final_drops dropped in all: hand over what is open, order the tables */
void attach_analysis__end(struct attach_analysis *a, uint64_t final_drops);
/* attach_analysis__counters - the engine's counters, or lean mode's */
const struct attach_counters *attach_analysis__counters(const struct attach_analysis *a);

#endif /* WAKEPROBE_ATTACH_ANALYSIS_H */
