/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outputs.h - the files a run or a report writes besides the text report:
 * the recording, JSON, CSV, the Perfetto timeline, Prometheus metrics and the SVG plot. Each
 * appears whole once everything went well, or not at all (outfile.h).
 */
#ifndef WAKEPROBE_OUTPUTS_H
#define WAKEPROBE_OUTPUTS_H

#include <stdbool.h>
#include "analysis.h"
#include "attach_analysis.h"
#include "design_run.h"
#include "outfile.h"
#include "output_paths.h"
#include "run_config.h"
#include "run_result.h"
#include "text_attach.h"

struct outputs {
	struct outfile record, json, csv, perfetto, prometheus, plot;
	struct recorder *recorder;
	struct csv_workload *csv_writer;
	struct timeline *timeline;
	struct csv_attach *attach_csv;	/* attach mode's --csv */
	bool text;			/* the text report goes to stdout (no output took it) */
	char target[256];		/* attach mode: what the run traces, as --prometheus labels it */
};

/*
 * outputs__check_files - do two of the files @p names name the same file,
 * an output the recording read or another output, however they are
 * spelled? One line in @msg, before anything is made
 */
int outputs__check_files(const struct output_paths *p, char *msg, size_t len);
/* outputs__open - create every output @p asks for; on failure none is left */
int outputs__open(struct outputs *out, const struct output_paths *p, char *msg, size_t len);
/* outputs__begin_run - the run @cfg starts: route its samples, events and inputs to the outputs through @ao */
void outputs__begin_run(struct outputs *out, const struct run_config *cfg, struct analysis_opts *ao);
void outputs__end_run(struct outputs *out);
/*
 * outputs__finish - the runs are over: write what needs all of them, then
 * put every file in place. @cfg holds the settings the runs shared.
 */
int outputs__finish(struct outputs *out, const struct run_config *cfg, const struct workload_desc *const *wl,
		    const struct run_result *const *res, size_t n, char *msg, size_t len);
/*
 * Attach mode (--pid, -- COMMAND): the same files, written by attach mode's
 * writers. outputs__open_attach - create every output @p asks for; on
 * failure none is left.
 */
int outputs__open_attach(struct outputs *out, const struct output_paths *p, char *msg, size_t len);
/*
 * outputs__begin_attach - an attach run of @target starts: route the records
 * and wakeups the analysis @ao makes to the outputs that take them one by
 * one; @msg says why not (none is left then)
 */
int outputs__begin_attach(struct outputs *out, const char *target, struct attach_analysis_opts *ao, char *msg,
			  size_t len);
/*
 * outputs__finish_attach - the run is over and @r is its report (NULL when
 * no --json was asked): write what needs all of it, put the files in place
 */
int outputs__finish_attach(struct outputs *out, const struct attach_report *r, char *msg, size_t len);
/*
 * outputs__finish_design - a throughput workload's @n mode runs of
 * @workload are over, every one that was asked for: write their document,
 * put the files in place. outputs__open() made the files; a design takes
 * --json alone.
 */
int outputs__finish_design(struct outputs *out, const char *workload, const struct design_run *const *runs,
			   size_t n, char *msg, size_t len);
/* outputs__abandon - something failed: remove every file begun */
void outputs__abandon(struct outputs *out);

#endif /* WAKEPROBE_OUTPUTS_H */
