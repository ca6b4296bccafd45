/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_analysis.h - what turns attach mode's inputs into its result: the
 * kernel records and the watermarks of their stream go in; every wakeup of
 * a traced thread, the aggregate and the engine's counters come out.
 *
 * It owns the engine (attach.h) and the aggregate (attach_aggregate.h),
 * and narrows the wakeups to --tid. What an fd is the kernel records say;
 * a recording older than that (format version 10 and before) holds the
 * answers its run read from /proc, and its replay hands them in (fd_kind).
 *
 * A live run and a replay of its recording feed it the same calls. A tap
 * sees each input once the analysis has taken it in: a recording writes
 * them down there (attach_recording.h), and this folder knows nothing of
 * the file.
 */
#ifndef WAKEPROBE_ATTACH_ANALYSIS_H
#define WAKEPROBE_ATTACH_ANALYSIS_H

#include <stdint.h>
#include "attach.h"
#include "attach_aggregate.h"
#include "attach_lean.h"
#include "attach_session.h"
#include "cgroup_stats.h"
#include "chain_check.h"
#include "fd_kinds.h"

/*
 * attach_analysis_tap - what sees each input of an attach run once the
 * analysis has taken it in, in the order it took them; every hook optional
 */
struct attach_analysis_tap {
	/* the run of @targets has begun: @res holds its machine and where tracing began */
	void (*begin)(void *ctx, const struct attach_session_opts *targets, const struct attach_session_result *res);
	/* what an fd was, as the analysis asked while it took the input that follows */
	void (*fd_kind)(void *ctx, uint32_t tgid, int fd, enum fd_kind kind);
	void (*event)(void *ctx, const struct wp_event *e);
	void (*advance)(void *ctx, uint64_t complete_ns, uint64_t drops);
	/* the run ended as @res says */
	void (*end)(void *ctx, const struct attach_session_result *res);
};

struct attach_analysis_opts {
	uint32_t outliers;		/* slowest complete wakeups to keep with their explanation */
	uint64_t outlier_threshold_ns;
	const int32_t *tids;		/* --tid: only these wakees are analysed; none: all */
	uint32_t nr_tids;
	/* what an fd is, for records that do not say (an older recording's answers); NULL: unknown */
	attach_fd_kind_fn fd_kind;
	void *fd_kind_ctx;
	/* sees every wakeup the aggregate takes (those --tid lets through) */
	attach_result_fn on_result;
	void *on_result_ctx;
	/* sees every kernel record as it arrives */
	void (*on_event)(const struct wp_event *e, void *ctx);
	void *on_event_ctx;
	/* the records are the lean engine's (attach_lean.h), not the engine's */
	bool lean;
	/* --chains: the full engine builds each wakeup's chain from its stream (the lean one's come in its records) */
	bool chains;
	/* --all, --cgroup, --listen: the wakeups by cgroup, these names' (not owned), --top series each */
	struct cgroup_names *cgroup_names;
	uint32_t cgroup_top;
	/* sees every input once taken in (a recording's writer); NULL: none */
	const struct attach_analysis_tap *tap;
	void *tap_ctx;
};

/* --pid targets the analysis tells apart from their descendants: as many as a recording keeps */
#define ATTACH_ANALYSIS_MAX_TARGETS	64

struct attach_analysis {
	struct attach_analysis_opts opts;
	struct attach *engine;
	struct attach_lean *lean;	/* instead of the engine, with opts.lean */
	struct attach_aggregate *agg;
	uint64_t tids_left_out;		/* wakeups of threads --tid did not name */
	/* --pid: the targets themselves, of their descendants; the wakeups of their own threads */
	int32_t targets[ATTACH_ANALYSIS_MAX_TARGETS];
	uint32_t nr_targets;
	uint64_t target_wakeups;
	struct run_stacks *stacks;	/* --stacks: the run's (attach_session_result.stacks) */
	struct cgroup_stats *cgroups;	/* opts.cgroup_names: by cgroup (cgroup_stats.h); else NULL */
	/*
	 * --chains with the full engine: the lean engine's records that ride
	 * beside its stream, paired by the lean engine for their chains alone,
	 * and the check of the stream's chains against them; else NULL
	 */
	struct attach_lean *kernel_chains;
	struct chain_check *check;
};

/*
 * attach_analysis__add_sums - a service's wakeups summed in the kernel,
 * what grew since the last take: into the aggregate and the cgroups' tables
 */
void attach_analysis__add_sums(struct attach_analysis *a, const struct lean_sums_delta *d);
/* attach_analysis__cgroup_gone - is cgroup @id gone? false where it cannot be told */
bool attach_analysis__cgroup_gone(struct attach_analysis *a, uint64_t id);
/* attach_analysis__new - an analysis as @o asks; NULL when out of memory */
struct attach_analysis *attach_analysis__new(const struct attach_analysis_opts *o);
void attach_analysis__free(struct attach_analysis *a);
/* attach_analysis__begin - the run of @targets has begun, as @res says (its tap's begin) */
void attach_analysis__begin(struct attach_analysis *a, const struct attach_session_opts *targets,
			    const struct attach_session_result *res);
/* a kernel record, in ring-buffer order */
void attach_analysis__event(struct attach_analysis *a, const struct wp_event *e);
/* every record stamped before @complete_ns is in; @drops: the drop counter after that drain */
void attach_analysis__advance(struct attach_analysis *a, uint64_t complete_ns, uint64_t drops);
/* the stream is over, the run ended as @res says: hand over what is open, order the tables */
void attach_analysis__end(struct attach_analysis *a, const struct attach_session_result *res);
/* attach_analysis__counters - the engine's counters, or the lean engine's */
const struct attach_counters *attach_analysis__counters(const struct attach_analysis *a);

/* attach_view - how a report shows an attach run: the choices of the report, not of the run */
struct attach_view {
	const int32_t *tids;		/* --tid: only these wakees are in the tables; none: all */
	uint32_t nr_tids;
	uint32_t pairs;			/* --pairs: rows of the pairs table */
	enum attach_order order;	/* --order: of the pairs and the futex words */
};

/*
 * attach_report - an attach run's results as every output reads them, live
 * or replayed: what was traced, how the run went, what the analysis made
 * of it, and the choices of the report (--tid, --pairs, --order)
 */
struct attach_report {
	const struct attach_session_opts *targets;	/* what was traced */
	const struct attach_session_result *run;
	const struct attach_counters *counters;
	const struct attach_aggregate *agg;
	const int32_t *tids;			/* --tid: only these wakees are in the tables; none: all */
	uint32_t nr_tids;
	uint64_t tids_left_out;			/* wakeups of other threads */
	uint64_t target_wakeups;		/* --pid: of the wakeups, those of the targets' own threads */
	uint32_t pairs;				/* --pairs: rows of the pairs table */
	const struct cgroup_stats *cgroups;	/* --all, --cgroup, --listen: by cgroup; else NULL */
	enum attach_order order;		/* --order: of the pairs and the futex words */
	/* --chains with the full engine: its chains held against the kernel's (chain_check.h); else NULL */
	const struct chain_check_counters *chain_check;
};

#endif /* WAKEPROBE_ATTACH_ANALYSIS_H */
