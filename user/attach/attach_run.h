/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_run.h - one attach run, whole: what it traces (the session's
 * options), the analysis its records go through, and how it went. Attach
 * mode, a throughput workload's traced run and the replay of a recording
 * all go through it, so a record reaches the analysis here, from the
 * session or from the file, and the one who asked for the run sees only
 * what it chose to hook.
 *
 *	live:   attach_run__init -> attach_run__trace -> attach_run__report -> attach_run__free
 *	replay: attach_run__init -> attach_run__begin -> (event | advance)... -> attach_run__end -> ...
 */
#ifndef WAKEPROBE_ATTACH_RUN_H
#define WAKEPROBE_ATTACH_RUN_H

#include <stdint.h>
#include <sys/types.h>
#include "attach_analysis.h"
#include "attach_session.h"

struct attach_run;
struct collector;

/* what the owner of a run sees of it as it goes; every hook optional */
struct attach_run_hooks {
	/* the command has started as @pid, under tracing (a design's census counts its processes) */
	void (*command)(pid_t pid, void *ctx);
	/* tracing began: @run's res holds the machine and where tracing began; no record is in yet */
	void (*begun)(const struct attach_run *run, void *ctx);
	/* the analysis took in every record before @run->complete_ns */
	void (*advanced)(const struct attach_run *run, void *ctx);
	/* live, after each advance: between two takes of the ring, with the BPF side (a service's work) */
	void (*tick)(struct attach_run *run, struct collector *c, void *ctx);
	void *ctx;
};

struct attach_run {
	struct attach_session_opts targets;	/* what is traced; a replay's, as recorded */
	struct attach_session_result res;	/* how the run went; a replay's, as recorded */
	struct attach_analysis *analysis;
	uint64_t complete_ns;			/* the last advance: every record stamped before it is in */
	uint64_t drops;				/* ... and the drop counter then */
	struct attach_run_hooks hooks;
};

/*
 * attach_run__init - a run of @targets (copied; what they point to is the
 * caller's) analysed as @ao asks, seen by @hooks (NULL: none): 0, or
 * -ENOMEM. attach_run__free() cleans up either way.
 */
int attach_run__init(struct attach_run *r, const struct attach_session_opts *targets,
		     const struct attach_analysis_opts *ao, const struct attach_run_hooks *hooks);
/*
 * attach_run__trace - trace the targets, which attach_session__check()
 * passed, to the end, every record into the analysis, and end it. 0 when
 * there is a result to report (@r->res says how the run ended), or a
 * negative errno with one line in @msg: -EINTR when a signal came before
 * tracing began. Nothing is left running.
 */
int attach_run__trace(struct attach_run *r, char *msg, size_t len);

/* a recording's run, fed as the file has it: @r->targets and @r->res set from its ATTACH_BEGIN first */
void attach_run__begin(struct attach_run *r);
void attach_run__event(struct attach_run *r, const struct wp_event *e);
void attach_run__advance(struct attach_run *r, uint64_t complete_ns, uint64_t drops);
/* ... its ATTACH_END is in @r->res: hand over what is open, order the tables */
void attach_run__end(struct attach_run *r);
/*
 * attach_run__take_sums - a service's sums, what grew in them since the
 * last take, into the run now (@c: the run's BPF side, as a tick has it):
 * before a rendering, so that a scrape is served the sums of the wakeups
 * until then; nothing for a run that does not sum
 */
void attach_run__take_sums(struct attach_run *r, struct collector *c);

/* attach_run__report - the ended run as every output reads it, shown as @view asks */
void attach_run__report(const struct attach_run *r, const struct attach_view *view, struct attach_report *out);
/* attach_run__free - the analysis and what the session left in res (its stacks) */
void attach_run__free(struct attach_run *r);

#endif /* WAKEPROBE_ATTACH_RUN_H */
