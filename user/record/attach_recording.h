/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_recording.h - an attach run in a record file: what was traced and
 * how the run went, to and from ATTACH_BEGIN and ATTACH_END (recording.h,
 * docs/recording.md). The kernel records between them are EVENT and
 * ADVANCE as for a workload, with FD_KIND for what each fd was.
 *
 * A live run is written down through its analysis's tap, each input once
 * the analysis has taken it in: the fd lookups it made are written as they
 * are asked, before that input, so that the replay holds their answers when
 * it feeds the analysis that input (attach_replay.h).
 */
#ifndef WAKEPROBE_ATTACH_RECORDING_H
#define WAKEPROBE_ATTACH_RECORDING_H

#include "attach_analysis.h"
#include "attach_session.h"
#include "recording.h"

/* what a recording says was traced: the targets of a run, and the storage they point into */
struct attach_targets {
	struct attach_session_opts opts;	/* pids and argv point below; duration, timeout, ring as recorded */
	uint32_t nr_args;			/* the command's; argv may hold fewer (ATTACH_BEGIN keeps what fits) */
	int32_t pids[REC_MAX_PIDS];
	char args[REC_ARGS_LEN];
	char *argv[REC_ARGS_LEN + 1];		/* each argument takes a byte at least */
};

/*
 * attach_recording__encode_begin - @o's targets and options, @res's machine
 * and start of tracing, as ATTACH_BEGIN. The command's arguments are kept
 * whole, as many as fit.
 */
void attach_recording__encode_begin(const struct attach_session_opts *o, const struct attach_session_result *res,
				    struct rec_attach_begin *b);
/*
 * attach_recording__decode_begin - ATTACH_BEGIN, as the record reader
 * checked it, into @t and the machine and start of @res
 */
void attach_recording__decode_begin(const struct rec_attach_begin *b, struct attach_targets *t,
				    struct attach_session_result *res);
/* attach_recording__encode_end - how @res's run ended, and the BPF side's counters, as ATTACH_END */
void attach_recording__encode_end(const struct attach_session_result *res, struct rec_attach_end *e);
/* attach_recording__decode_end - ATTACH_END, as the record reader checked it, into the rest of @res */
void attach_recording__decode_end(const struct rec_attach_end *e, struct attach_session_result *res);

/* what writes an attach run down as it goes: attach_analysis_opts.tap, with the struct recorder as its ctx */
extern const struct attach_analysis_tap attach_recording_tap;

#endif /* WAKEPROBE_ATTACH_RECORDING_H */
