/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sink.h - one output format, for a run of any mode: what it takes while
 * the run goes, and what it writes once the run is over. Each format is one
 * module that fills a struct sink (text.c, json.c, csv.c, perfetto.c,
 * prometheus.c, plot.c, folded.c) over its parts, one per kind of run where
 * the kinds differ (json_workload.c, json_attach.c, json_design.c), and
 * what more than one kind draws in its common part (json_common.c);
 * outputs.c makes the files and drives every sink the same way.
 */
#ifndef WAKEPROBE_SINK_H
#define WAKEPROBE_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
/* what the runs hand over and the results point to: each kind's own header says what they hold */
struct attach_report;
struct attach_result;
struct design_run;
struct run_config;
struct run_result;
struct sample_result;
struct wp_event;
struct workload_desc;

struct prometheus_self;
/* the kinds of run whose results the outputs take */
enum run_kind {
	RUN_WORKLOAD,	/* wakeprobe's own workloads, one or several paths (--workload, all) */
	RUN_ATTACH,	/* a program of the user's (--pid, -- COMMAND) */
	RUN_DESIGN,	/* a throughput workload's modes (designs.h) */
};

/* results - a finished run, as every format takes it: the part of its kind is set */
struct results {
	enum run_kind kind;
	struct {
		/* @n runs with the settings @cfg; with --workload all, @wl[i] names each one's path */
		const struct run_config *cfg;
		const struct workload_desc *const *wl;
		const struct run_result *const *res;
		size_t n;
		bool compare;		/* a table of the paths side by side, not one run's report (text) */
	} workload;
	struct {
		const struct attach_report *report;
		const char *target;	/* what was traced, as the outputs label it: "pid 1234", "./server -p 80" */
		/*
		 * the run goes on (a service's rewrite or scrape): what only its
		 * end knows, the programs' time and the runs the kernel skipped,
		 * is not known yet
		 */
		bool so_far;
		bool missed_runs_read;		/* ... but the programs' skipped runs were read for it */
		const struct prometheus_self *self;	/* a service's own cost, for a scrape; NULL: none */
	} attach;
	struct {
		const char *workload;	/* the throughput workload */
		const struct design_run *const *runs;	/* each mode that ran, in order */
		size_t n;
	} design;
};

/*
 * struct sink - a format. Every hook but write is for a format that writes
 * as the run goes, and may be NULL; write may be NULL for a format that
 * writes nothing more at the end. A hook of the stream takes what open
 * made, for the kind of run open was told.
 */
struct sink {
	const char *option;	/* "--json": the option that asks for it, as messages name it */
	/* open - a writer into @f for a run of @kind in *@w: 0, or -ENOMEM */
	int (*open)(void **w, FILE *f, enum run_kind kind);
	/* begin - a run begins: a workload's path @name, traced or not, or the attach target @name: 0, or -ENOMEM */
	int (*begin)(void *w, const char *name, bool traced);
	void (*sample)(void *w, const struct sample_result *r);	/* a workload's merged sample */
	void (*wakeup)(void *w, const struct attach_result *r);	/* a wakeup of attach mode's */
	void (*event)(void *w, const struct wp_event *e);		/* a kernel record, as it arrives */
	void (*end)(void *w);						/* the run that began is over */
	/* close - the stream is over, its last bytes written: 0, or a negative errno; frees @w */
	int (*close)(void *w);
	/* write - what needs all of @r, into @f: 0, or a negative errno */
	int (*write)(FILE *f, const struct results *r);
};

/* the text report, which the modes print on standard output when no output took it */
extern const struct sink text_sink;
/* the formats, in the order their files are written and put in place */
extern const struct sink json_sink;
extern const struct sink csv_sink;
extern const struct sink perfetto_sink;
extern const struct sink prometheus_sink;
extern const struct sink plot_sink;
extern const struct sink folded_sink;

#endif /* WAKEPROBE_SINK_H */
