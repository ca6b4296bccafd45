/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outputs.h - the files a run or a report writes besides the text report: the
 * recording, and each format's (sink.h): JSON, CSV, the Perfetto timeline,
 * Prometheus metrics, the SVG plot and folded stacks. Each appears whole once
 * everything went well, or not at all (outfile.h). Every kind of run goes
 * through the same calls: open, begin, end (a run at a time), finish.
 *
 * The recording is decided here, once for every mode: with record -o, the
 * analysis of each run gets the tap that writes its inputs down
 * (run_recording.h, attach_recording.h).
 */
#ifndef WAKEPROBE_OUTPUTS_H
#define WAKEPROBE_OUTPUTS_H

#include <stdbool.h>
#include "analysis.h"
#include "attach_analysis.h"
#include "outfile.h"
#include "output_paths.h"
#include "sink.h"

#define OUTPUTS_SINKS	6

/* a format's file, and its writer while the run goes */
struct output_sink {
	const struct sink *sink;
	struct outfile file;
	void *w;			/* NULL: the format writes at the end only, or its file was not asked for */
};

struct outputs {
	struct outfile record;
	struct recorder *recorder;
	struct output_sink sinks[OUTPUTS_SINKS];
	bool running;			/* a run began and has not ended */
	bool text;			/* the text report goes to stdout (no output took it) */
	char target[256];		/* attach mode: what the run traces, as the metrics label it */
};

/*
 * outputs__check_files - do two of the files @p names name the same file,
 * an output the recording read or another output, however they are
 * spelled? One line in @msg, before anything is made
 */
int outputs__check_files(const struct output_paths *p, char *msg, size_t len);
/*
 * outputs__open - create every output @p asks for, with the writers of a
 * run of @kind; on failure none is left, and @msg says why
 */
int outputs__open(struct outputs *out, const struct output_paths *p, enum run_kind kind, char *msg, size_t len);
/* outputs__begin_run - the workload run @cfg starts: route its samples, events and inputs through @ao */
int outputs__begin_run(struct outputs *out, const struct run_config *cfg, struct analysis_opts *ao, char *msg,
		       size_t len);
/*
 * outputs__begin_attach - an attach run of @target starts: route the
 * records and wakeups the analysis @ao makes, and its inputs, to the outputs
 * that take them one by one; @msg says why not (none is left then)
 */
int outputs__begin_attach(struct outputs *out, const char *target, struct attach_analysis_opts *ao, char *msg,
			  size_t len);
/*
 * outputs__label_target - the metrics' target label, where it is not the
 * name the attach run began with (outputs__begin_attach()'s @target): a
 * command's name without its arguments, or --target-label's
 */
void outputs__label_target(struct outputs *out, const char *label);
/* outputs__end_run - the run that began is over (nothing when none is going) */
void outputs__end_run(struct outputs *out);
/* outputs__wants_results - is there a file that needs the finished run, not only its stream? */
bool outputs__wants_results(const struct outputs *out);
/*
 * outputs__finish - every run is over and @r holds their results: write
 * what needs all of them, then put every file in place. A file that fails
 * is removed and costs itself alone: every other is put in place. Returns
 * the first failure's negative errno with each failure named in @msg
 * ("; " between them), or 0
 */
int outputs__finish(struct outputs *out, const struct results *r, char *msg, size_t len);
/*
 * outputs__rewrite - while the run goes on, its file in @sink's format (one
 * that writes at the end) written anew from @r, whole, in place of the last
 * one; the file of the end is still to come. 0 when written, or when there
 * is no such file to write (not asked for, or standard output); else a
 * negative errno and @msg
 */
int outputs__rewrite(const struct outputs *out, const struct sink *sink, const struct results *r, char *msg,
		     size_t len);
/* outputs__keeps_file - is there a file in @sink's format, not standard output, for outputs__rewrite()? */
bool outputs__keeps_file(const struct outputs *out, const struct sink *sink);
/* outputs__render - @r in @sink's format into @f, labelled as the files are (a scrape): the sink's write */
int outputs__render(const struct outputs *out, const struct sink *sink, FILE *f, const struct results *r);
/* outputs__abandon - something failed: remove every file begun */
void outputs__abandon(struct outputs *out);

#endif /* WAKEPROBE_OUTPUTS_H */
