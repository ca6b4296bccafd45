/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_recorder.h - a live attach run into its analysis, and with a
 * recorder, into a record file as well: ATTACH_BEGIN, then every kernel
 * record, watermark and fd lookup in the order the analysis took them,
 * then ATTACH_END (docs/recording.md). `wakeprobe report` replays the file
 * through the same analysis (attach_replay.h), so its report is the live
 * one again.
 *
 * An input is written once the analysis has taken it in: the fd lookups
 * it made are written as they are asked, before it, so that the replay
 * holds their answers when it feeds the analysis that input.
 */
#ifndef WAKEPROBE_ATTACH_RECORDER_H
#define WAKEPROBE_ATTACH_RECORDER_H

#include "attach_analysis.h"
#include "attach_session.h"
#include "fd_kinds.h"
#include "recorder.h"

struct attach_recorder {
	struct recorder *rec;			/* NULL: nothing is written, the inputs only go through */
	const struct attach_session_opts *targets;	/* what the run traces */
	struct attach_analysis *analysis;
	struct fd_kinds_cache fds;		/* what the analysis would have cached itself */
};

/*
 * attach_recorder__init - write to @rec (NULL: nothing) what a run of
 * @targets puts into the analysis that @ao will make: with a recorder,
 * @ao's fd lookups are @w's, answered as the analysis would answer them,
 * and written. Then set @w->analysis to the analysis made with @ao.
 */
void attach_recorder__init(struct attach_recorder *w, struct recorder *rec, const struct attach_session_opts *targets,
			   struct attach_analysis_opts *ao);
/* attach_recorder__begin - the run has begun: the targets, @res's machine and start of tracing */
void attach_recorder__begin(struct attach_recorder *w, const struct attach_session_result *res);
/* a kernel record, in ring-buffer order, then a watermark (attach_analysis__event, __advance) */
void attach_recorder__event(struct attach_recorder *w, const struct wp_event *e);
void attach_recorder__advance(struct attach_recorder *w, uint64_t complete_ns, uint64_t drops);
/* attach_recorder__end - the run is over as @res says: end the analysis, write how the run ended */
void attach_recorder__end(struct attach_recorder *w, const struct attach_session_result *res);

#endif /* WAKEPROBE_ATTACH_RECORDER_H */
