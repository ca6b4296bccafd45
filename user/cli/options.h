/* SPDX-License-Identifier: GPL-2.0 */
/* options.h - wakeprobe's command line */
#ifndef WAKEPROBE_OPTIONS_H
#define WAKEPROBE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "output_paths.h"

#define OPT_DEFAULT_SAMPLES	1000
#define OPT_DEFAULT_INTERVAL_US	1000
#define OPT_DEFAULT_RINGBUF_KB	8192
#define OPT_MAX_SAMPLES		(1ull << 40)
#define OPT_MAX_INTERVAL_US	(10ull * 1000 * 1000)
#define OPT_DEFAULT_OUTLIERS	5
/* --unwind: the wakeups a second, beyond the slow ones, whose user stacks are copied and unwound */
#define OPT_DEFAULT_UNWIND	100
#define OPT_MAX_UNWIND		100000
#define OPT_MAX_OUTLIERS	100	/* AGG_MAX_OUTLIERS */
#define OPT_MAX_THRESHOLD_US	(10ull * 1000 * 1000)
#define OPT_MAX_TIMEOUT_S	(7ull * 24 * 3600)
#define OPT_MAX_TARGETS		64	/* --pid and --tid list at most this many */
#define OPT_MAX_ID		4194304	/* PID_MAX_LIMIT on 64-bit */
#define OPT_MAX_DURATION_S	(7ull * 24 * 3600)
#define OPT_DEFAULT_PAIRS	10
#define OPT_MAX_PAIRS		1000
#define OPT_MAX_CGROUPS		16	/* --cgroup lists at most this many */
#define OPT_MAX_ALLOW_HOSTS_LEN	1024	/* --allow-host, whole: the server keeps eight names */
#define OPT_MAX_TARGET_LABEL	128	/* --target-label: a label, not a document */
#define OPT_MAX_PROMETHEUS_EVERY_S	86400

/* --engine: how much of the machine a traced run streams to wakeprobe */
enum opt_engine {
	ENGINE_DEFAULT,		/* not given: lean, unless what the run asks for needs full (options.c) */
	ENGINE_LEAN,		/* pair in the kernel, one record a wakeup, evidence for the slow ones */
	ENGINE_FULL,		/* stream every switch, syscall and interrupt, explain every wakeup */
};

enum wp_command {
	CMD_RUN,		/* wakeprobe --workload NAME, --pid PID or -- CMD: measure and report */
	CMD_RECORD,		/* wakeprobe record -o FILE ...: the same, and save the inputs */
	CMD_REPORT,		/* wakeprobe report FILE: analyse a recording again, offline */
	CMD_KERNEL,		/* wakeprobe kernel: what the running kernel offers wakeprobe */
};

struct wp_options {
	enum wp_command command;
	const char *record_path;	/* record: -o FILE */
	const char *report_path;	/* report: the recording */
	const char *json_path;		/* NULL: no such output; "-": standard output */
	const char *csv_path;
	const char *perfetto_path;
	const char *prometheus_path;
	uint64_t prometheus_every_s;	/* attach mode: rewrite prometheus_path this often; 0: at the end only */
	const char *plot_path;		/* --plot: an SVG picture of the run (plot_workload.h) */
	const char *folded_path;	/* --folded: attach mode's stacks, folded (folded.c) */
	const char *workload;
	/* a throughput workload (designs.h): its modes, and the arguments after -- that go to it */
	bool design;
	const char *modes;		/* --mode: NULL, all of them */
	char **workload_args;		/* NULL-terminated; NULL: none */
	uint64_t samples;
	uint64_t interval_us;
	int waker_cpu;		/* -1: chosen by wakeprobe */
	int wakee_cpu;
	uint32_t ringbuf_kb;
	bool ringbuf_given;	/* --ringbuf-kb: the size stands, wakeprobe does not size the ring to the run */
	uint32_t outliers;	/* slow wakeups to explain one by one */
	uint64_t threshold_us;	/* only wakeups at least this slow */
	uint64_t timeout_s;	/* 0: no limit */
	const char *user;	/* run the workload as this user */
	/* attach mode: trace these processes, or the command, instead of a workload */
	int32_t pids[OPT_MAX_TARGETS];
	uint32_t nr_pids;
	int32_t tids[OPT_MAX_TARGETS];	/* only these threads of the targets; none: all */
	uint32_t nr_tids;
	char **target_argv;	/* after --: the command to trace and its arguments, NULL-terminated */
	uint64_t duration_s;	/* 0: until the target ends or Ctrl-C */
	bool all;		/* --all: every task of the machine */
	const char *cgroups;	/* --cgroup PATH[,PATH...], as given; NULL: none */
	const char *listen;	/* --listen ADDR:PORT: serve /metrics there; NULL: no server */
	const char *allow_hosts;	/* --allow-host NAME[,NAME...]: more names a scrape's Host may give */
	const char *web_config;	/* --web-config FILE: TLS and basic auth for --listen; NULL: neither */
	const char *target_label;	/* --target-label TEXT: the metrics' target label; NULL: by the run */
	uint32_t output_mode;	/* --output-mode: the mode of the files wakeprobe makes; 0: OUTFILE_NEW_MODE */
	uint32_t top;		/* --top: cgroup series of each kind; 0 until settled */
	uint32_t pairs;		/* waker -> wakee pairs to show */
	bool order_by_cost;	/* --order cost: the tables by time, not by count */
	const char *attach_option;	/* the first option given that only attach mode takes ("tid"); NULL: none */
	bool no_trace;
	enum opt_engine engine;	/* as given, then as settled by options__parse() (below) */
	bool lean;		/* engine == ENGINE_LEAN, traced: one record per wakeup, paired in the kernel */
	bool syscall_phases;	/* --syscall-phases: attach mode times notify_kernel and resume_kernel */
	bool softirqs;		/* --softirqs: the lean engine's flight recorder keeps softirqs too */
	bool stacks;		/* --stacks (or --folded): attach mode takes each wakeup's stacks */
	bool debuginfod;	/* --debuginfod: the stacks' names may ask debuginfod servers (symbolizer.h) */
	/*
	 * --unwind N|off: with --stacks, copies of the user stacks unwound by
	 * their call frame information, a slow wakeup's and N a second of the
	 * others' (OPT_DEFAULT_UNWIND); off: frame pointers alone
	 */
	uint32_t unwind_per_s;
	bool unwind_off;
	bool unwind_given;
	bool chains;		/* --chains: each wakeup's chain of wakers (core/chain.h) */
	bool verbose;
	bool list_workloads;
};

/* options__attach - does @o trace another program (--pid, -- CMD) rather than a workload? */
static inline bool options__attach(const struct wp_options *o)
{
	return o->nr_pids || o->target_argv || o->all || o->cgroups;
}

/* options__by_cgroup - does @o label its wakeups by cgroup (--all, --cgroup, --listen)? */
static inline bool options__by_cgroup(const struct wp_options *o)
{
	return o->all || o->cgroups || o->listen;
}

enum options_result {
	OPTIONS_RUN,		/* go on with the run */
	OPTIONS_DONE,		/* --help or --version was printed: exit 0 */
	OPTIONS_BAD,		/* @err holds one line: exit 2 */
};

/*
 * options__parse - parse argv into @o. Help and version text go to @out.
 * @nr_cpus bounds --cpus; whether those CPUs may be used is checked later.
 *
 * The engine's rules are settled here, once. When it returns OPTIONS_RUN
 * for a run or a recording (not --list-workloads, which takes anything and
 * runs nothing), o->engine is ENGINE_LEAN or ENGINE_FULL, and
 *   o->lean            == (o->engine == ENGINE_LEAN && !o->no_trace)
 *   o->stacks          implies o->lean, and a live run (never record)
 *   o->folded_path     implies o->stacks
 *   o->softirqs        implies o->lean
 *   o->chains          implies attach mode
 *   o->all, o->cgroups, o->listen   imply o->lean, and a live run
 *   o->syscall_phases  implies o->engine == ENGINE_FULL, so !o->lean
 *   o->top             is nonzero exactly when options__by_cgroup(o)
 * so that what only the lean engine takes need not be masked with o->lean
 * below. A report's and wakeprobe kernel's options take none of these
 * (ENGINE_DEFAULT: the recording says how it was traced).
 */
enum options_result options__parse(struct wp_options *o, int argc, char **argv, int nr_cpus,
				   FILE *out, char *err, size_t errlen);
void options__usage(FILE *out);

/* options__outputs - the files @o names, as the outputs take them (outputs.h) */
struct output_paths options__outputs(const struct wp_options *o);

#endif /* WAKEPROBE_OPTIONS_H */
