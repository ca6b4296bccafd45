// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>
#include "catalog.h"
#include "cgroup_stats.h"
#include "designs.h"
#include "http_server.h"
#include "options.h"
#include "parse.h"
#include "recording.h"

_Static_assert(OPT_MAX_TARGETS <= REC_MAX_PIDS, "a recording's ATTACH_BEGIN holds every --pid");

enum {
	OPT_NO_TRACE = 256,
	OPT_LIST_WORKLOADS,
	OPT_RINGBUF_KB,
	OPT_OUTLIERS,
	OPT_THRESHOLD_US,
	OPT_JSON,
	OPT_CSV,
	OPT_PERFETTO,
	OPT_PLOT,
	OPT_TIMEOUT,
	OPT_USER,
	OPT_PID,
	OPT_TID,
	OPT_DURATION,
	OPT_PAIRS,
	OPT_ORDER,
	OPT_MODE,
	OPT_PROMETHEUS,
	OPT_PROMETHEUS_EVERY,
	OPT_LEAN,
	OPT_EXPLAIN,
	OPT_SYSCALL_PHASES,
	OPT_SOFTIRQS,
	OPT_STACKS,
	OPT_FOLDED,
	OPT_ALL,
	OPT_CGROUP,
	OPT_LISTEN,
	OPT_TOP,
};

#define STR_(x) #x
#define STR(x) STR_(x)

/* where --help lists an option */
enum opt_group {
	GROUP_RUN,		/* what to measure and how */
	GROUP_ATTACH,		/* which program to trace, instead of a workload */
	GROUP_OUTPUT,		/* files the run or the report writes */
	GROUP_GENERAL,
};

/* which kind of live run an option belongs to */
enum opt_mode {
	MODE_ANY,
	MODE_WORKLOAD,		/* wakeprobe's own workload (--workload) */
	MODE_ATTACH,		/* another program (--pid, -- COMMAND) */
};

/*
 * Every option, once: getopt_long's table, the short-option string, --help
 * and the check of what `report` takes are all made from this.
 */
struct option_spec {
	const char *name;
	int key;		/* the short option's letter, or an OPT_* above 255 */
	const char *arg;	/* the argument's name in --help; NULL: takes none */
	enum opt_group group;
	/* says how to run a workload, so a recording has it fixed: `report` refuses it */
	bool run_only;
	enum opt_mode mode;	/* a live run: what it goes with */
	const char *help;	/* a '\n' starts a continuation line */
	/* only the paced paths and attach mode take it: a throughput workload (designs.h) refuses it */
	bool not_for_designs;
};

static const struct option_spec specs[] = {
	{ "workload", 'w', "NAME", GROUP_RUN, true, MODE_WORKLOAD,
	  "the wakeup path to measure (see --list-workloads), or\n"
	  "'all': every path in turn, then one comparison table", false },
	{ "mode", OPT_MODE, "M[,M...]", GROUP_RUN, true, MODE_WORKLOAD,
	  "a throughput workload's modes (default: each in turn);\n"
	  "its own options go after --: --workload spawn -- --count 50", false },
	{ "samples", 'n', "N", GROUP_RUN, true, MODE_WORKLOAD,
	  "wakeups to measure (default " STR(OPT_DEFAULT_SAMPLES) ")", true },
	{ "interval-us", 'i', "U", GROUP_RUN, true, MODE_WORKLOAD,
	  "pause between wakeups in us, 0 for back to back (default " STR(OPT_DEFAULT_INTERVAL_US) ")", true },
	{ "cpus", 'c', "A,B", GROUP_RUN, true, MODE_WORKLOAD,
	  "waker on CPU A, wakee on CPU B (default: two allowed CPUs)", false },
	{ "outliers", OPT_OUTLIERS, "K", GROUP_RUN, false, MODE_ANY,
	  "explain the K slowest wakeups, cause by cause (default " STR(OPT_DEFAULT_OUTLIERS) ", 0: none)", true },
	{ "threshold-us", OPT_THRESHOLD_US, "T", GROUP_RUN, false, MODE_ANY,
	  "... among those at least T us slow (default 0)", true },
	{ "explain", OPT_EXPLAIN, "slow|all", GROUP_RUN, true, MODE_ANY,
	  "slow: pair each wakeup in the kernel, one record each,\n"
	  "and split by cause only the slow ones (over the running\n"
	  "p99 of their kind, or --threshold-us; none with\n"
	  "--outliers 0) from their CPUs' last switches, interrupts\n"
	  "and idle transitions; a workload's syscalls split its\n"
	  "notify and resume. all: stream every switch, syscall and\n"
	  "interrupt and split every wakeup (default: slow; all\n"
	  "with --syscall-phases, a paced workload's --perfetto,\n"
	  "or a throughput workload)", false },
	{ "lean", OPT_LEAN, NULL, GROUP_RUN, true, MODE_ANY,
	  "the same as --explain slow", false },
	{ "stacks", OPT_STACKS, NULL, GROUP_RUN, true, MODE_ANY,
	  "each wakeup's stacks, kernel and user: the waker's where\n"
	  "it woke the wakee, the wakee's where it went to sleep;\n"
	  "the busiest pairs (a workload: its path) show their most\n"
	  "frequent and costliest, futex words are named (user\n"
	  "stacks need frame pointers: docs/attach.md)", false },
	{ "no-trace", OPT_NO_TRACE, NULL, GROUP_RUN, true, MODE_WORKLOAD,
	  "run the same workload without tracing: totals only", false },
	{ "timeout", OPT_TIMEOUT, "S", GROUP_RUN, true, MODE_ANY,
	  "stop a workload still running after S seconds (default: none)", false },
	{ "user", OPT_USER, "NAME", GROUP_RUN, true, MODE_ANY,
	  "run the workload as NAME; wakeprobe keeps root for BPF", false },
	{ "ringbuf-kb", OPT_RINGBUF_KB, "K", GROUP_RUN, true, MODE_ANY,
	  "BPF ring in KiB, a power of two (default " STR(OPT_DEFAULT_RINGBUF_KB) ", more for a workload run)", false },
	{ "list-workloads", OPT_LIST_WORKLOADS, NULL, GROUP_RUN, true, MODE_ANY,
	  "list the wakeup paths and exit", false },
	{ "pid", OPT_PID, "PID[,PID...]", GROUP_ATTACH, true, MODE_ATTACH,
	  "trace these processes, every thread, new ones too", false },
	{ "all", OPT_ALL, NULL, GROUP_ATTACH, true, MODE_ATTACH,
	  "trace every task of the machine, each wakeup labelled\n"
	  "with its cgroups (docs/fleet.md)", false },
	{ "cgroup", OPT_CGROUP, "PATH[,PATH...]", GROUP_ATTACH, true, MODE_ATTACH,
	  "trace the tasks of these cgroups (v2) and of those below\n"
	  "them, made before the run or during it: /system.slice,\n"
	  "or a directory under the cgroup2 mount", false },
	{ "listen", OPT_LISTEN, "ADDR:PORT", GROUP_ATTACH, true, MODE_ATTACH,
	  "serve /metrics there for Prometheus while tracing, until\n"
	  "SIGTERM (SIGHUP rewrites --json and --prometheus files)", false },
	{ "top", OPT_TOP, "K", GROUP_ATTACH, true, MODE_ATTACH,
	  "cgroups and cgroup pairs with a series of their own, the\n"
	  "K with the most time; the rest go to 'other' (default " STR(CGROUP_STATS_TOP) ")", false },
	{ "tid", OPT_TID, "TID[,TID...]", GROUP_ATTACH, false, MODE_ATTACH,
	  "... only the wakeups of these threads", false },
	{ "duration", OPT_DURATION, "S", GROUP_ATTACH, true, MODE_ATTACH,
	  "stop after S seconds (default: when the command ends;\n"
	  "with --pid, at Ctrl-C or when every target has exited)", false },
	{ "pairs", OPT_PAIRS, "K", GROUP_ATTACH, false, MODE_ATTACH,
	  "show the K busiest waker -> wakee pairs (default " STR(OPT_DEFAULT_PAIRS) ")", false },
	{ "syscall-phases", OPT_SYSCALL_PHASES, NULL, GROUP_ATTACH, true, MODE_ATTACH,
	  "time notify_kernel and resume_kernel: a BPF program on\n"
	  "every syscall of every process on the machine (the cost\n"
	  "grows with the machine's syscall rate, not the targets')", false },
	{ "softirqs", OPT_SOFTIRQS, NULL, GROUP_ATTACH, true, MODE_ATTACH,
	  "with --explain slow, the flight recorder keeps softirqs\n"
	  "too, so a slow wakeup's softirq time is named: two BPF\n"
	  "programs on every softirq of the machine (a loopback\n"
	  "server runs a dozen a wakeup; --explain all has them)", false },
	{ "order", OPT_ORDER, "count|cost", GROUP_ATTACH, false, MODE_ATTACH,
	  "pairs and futex words with the most wakeups first (count,\n"
	  "the default), or the most time (cost: wake-to-run, waited)", false },
	{ "json", OPT_JSON, "FILE", GROUP_OUTPUT, false, MODE_ANY, "the whole report as JSON (docs/json.md)", false },
	{ "csv", OPT_CSV, "FILE", GROUP_OUTPUT, false, MODE_ANY,
	  "one row per wakeup: its phases in ns and its label", true },
	{ "perfetto", OPT_PERFETTO, "FILE", GROUP_OUTPUT, false, MODE_ANY,
	  "a timeline for ui.perfetto.dev or chrome://tracing", true },
	{ "plot", OPT_PLOT, "FILE", GROUP_OUTPUT, false, MODE_ANY,
	  "an SVG picture: each phase's latency and its tail, the\n"
	  "paths side by side, or attach mode's busiest pairs", true },
	{ "folded", OPT_FOLDED, "FILE", GROUP_OUTPUT, true, MODE_ANY,
	  "folded stacks (implies --stacks), wakee and\n"
	  "waker joined, weighted by wake-to-run in ns, for\n"
	  "flamegraph.pl, inferno-flamegraph or speedscope", false },
	{ "prometheus", OPT_PROMETHEUS, "FILE", GROUP_OUTPUT, false, MODE_ANY,
	  "metrics for Prometheus, for node_exporter's textfile\n"
	  "collector (docs/fleet.md)", true },
	{ "prometheus-every", OPT_PROMETHEUS_EVERY, "S", GROUP_OUTPUT, true, MODE_ATTACH,
	  "attach mode: rewrite --prometheus every S seconds", false },
	/* not run_only: report refuses it with a message of its own */
	{ "output", 'o', "FILE", GROUP_OUTPUT, false, MODE_ANY,
	  "record: where to save the run (docs/recording.md)", false },
	{ "verbose", 'v', NULL, GROUP_GENERAL, false, MODE_ANY, "show libbpf's own messages", false },
	{ "help", 'h', NULL, GROUP_GENERAL, false, MODE_ANY, "this text", false },
	{ "version", 'V', NULL, GROUP_GENERAL, false, MODE_ANY, "print the version", false },
};

#define NR_SPECS (sizeof(specs) / sizeof(specs[0]))

static const struct option_spec *spec_of(int key)
{
	for (size_t i = 0; i < NR_SPECS; i++)
		if (specs[i].key == key)
			return &specs[i];
	return NULL;
}

/* print_group - the options of @group as --help lists them: flags in 26 columns, then the text */
static void print_group(FILE *out, enum opt_group group)
{
	for (size_t i = 0; i < NR_SPECS; i++) {
		const struct option_spec *s = &specs[i];
		char flags[40], shortname[8] = "";
		const char *line = s->help, *nl;

		if (s->group != group)
			continue;
		if (s->key < 256)
			snprintf(shortname, sizeof(shortname), "-%c,", s->key);
		snprintf(flags, sizeof(flags), "--%s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
		fprintf(out, "  %-4s%-20s", shortname, flags);
		/* flags that fill their column: the text starts on the next line, in its column */
		if (strlen(flags) >= 20)
			fprintf(out, "\n%26s", "");
		while ((nl = strchr(line, '\n'))) {
			fprintf(out, "%.*s\n%26s", (int)(nl - line), line, "");
			line = nl + 1;
		}
		fprintf(out, "%s\n", line);
	}
}

/* report_takes - "--outliers, --threshold-us, ... and --perfetto": what report accepts besides -o and the general ones */
static void report_takes(char *buf, size_t len)
{
	const struct option_spec *taken[NR_SPECS];
	size_t n = 0, used = 0;

	for (size_t i = 0; i < NR_SPECS; i++)
		if (!specs[i].run_only && specs[i].group != GROUP_GENERAL && specs[i].key != 'o')
			taken[n++] = &specs[i];
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s--%s", !i ? "" : i + 1 < n ? ", " : " and ",
					 taken[i]->name);
}

void options__usage(FILE *out)
{
	fprintf(out,
		"Usage: wakeprobe --workload NAME [options]\n"
		"       wakeprobe --pid PID[,PID...] [options]\n"
		"       wakeprobe [options] -- COMMAND [ARGS...]\n"
		"       wakeprobe record -o FILE (--workload NAME | --pid PID | -- COMMAND) [options]\n"
		"       wakeprobe report FILE [--outliers K] [--threshold-us T] [--tid TID,..] [--pairs K]\n"
		"                             [--order count|cost] [outputs]\n"
		"       wakeprobe kernel [-v]\n"
		"\n"
		"Runs a small workload that exercises one wakeup path between two threads,\n"
		"traces the scheduler and syscalls while it runs, and splits each wakeup's\n"
		"latency into phases: notify_user, notify_kernel, wake_enqueue, runq_wait,\n"
		"resume_kernel, resume_user (docs/phases.md says what each one holds).\n"
		"Or traces a program of yours: every wakeup its threads take, who woke\n"
		"them and through what, and where the slow ones' time went (docs/attach.md).\n"
		"Or runs a whole design for handing work over (the throughput workloads:\n"
		"burst-queue, spawn, executor, ipc-stream) untraced and traced, and counts\n"
		"its wakeups and CPU time per task (docs/seeds.md).\n"
		"Or says what the running kernel offers it: `wakeprobe kernel` lists each\n"
		"BPF feature it uses, and tries the programs on the kernel (docs/kernels.md).\n"
		"\n");
	print_group(out, GROUP_RUN);
	fprintf(out, "\nAttach to a program instead of running a workload:\n");
	print_group(out, GROUP_ATTACH);
	fprintf(out, "\nOutputs (FILE '-' is standard output, which then carries no text report):\n");
	print_group(out, GROUP_OUTPUT);
	fprintf(out, "\n");
	print_group(out, GROUP_GENERAL);
	fprintf(out,
		"\n"
		"Examples:\n"
		"  sudo wakeprobe --workload eventfd\n"
		"  sudo wakeprobe --pid 1234 --duration 10              # a running program, 10 s\n"
		"  sudo wakeprobe -- ./myserver --port 8080             # a command, until it ends\n"
		"  sudo wakeprobe record -o srv.wpr --perfetto srv.json --pid 1234 --duration 30\n"
		"  sudo wakeprobe --workload eventfd --samples 20000 --interval-us 200 --cpus 0,1\n"
		"  sudo wakeprobe --workload eventfd --interval-us 0     # back to back\n"
		"  sudo wakeprobe --workload all --samples 2000          # compare every path\n"
		"  sudo wakeprobe --workload cond --outliers 10 --threshold-us 200\n"
		"  sudo wakeprobe --workload burst-queue --mode cond -- --tasks 100000 --repeat 5\n"
		"  sudo wakeprobe --workload eventfd -i 0 --outliers 0   # the least observer effect\n"
		"  sudo wakeprobe --pid 1234 --explain all --duration 10   # every wakeup split by cause\n"
		"  sudo wakeprobe --pid 1234 --syscall-phases --duration 10   # time the syscalls too\n"
		"  sudo wakeprobe --pid 1234 --softirqs --duration 10   # name the softirqs that held a CPU\n"
		"  sudo wakeprobe --pid 1234 --stacks --folded run.folded   # where in the code, as a flame graph\n"
		"  wakeprobe --workload eventfd --no-trace               # no root needed\n"
		"  sudo wakeprobe record -o cond.wpr --workload cond     # measure and save\n"
		"  wakeprobe report cond.wpr --outliers 20 --perfetto cond.json   # no root needed\n"
		"  wakeprobe report cond.wpr --plot cond.svg            # its phases, as a picture\n"
		"  sudo wakeprobe kernel                                 # will it run here, and how\n"
		"  sudo wakeprobe --pid 1234 --prometheus /var/lib/node_exporter/wakeprobe.prom \\\n"
		"       --prometheus-every 15                            # metrics for a fleet\n");
}

struct output_paths options__outputs(const struct wp_options *o)
{
	return (struct output_paths){
		.recording = o->report_path, .record = o->record_path, .json = o->json_path, .csv = o->csv_path,
		.perfetto = o->perfetto_path, .prometheus = o->prometheus_path, .plot = o->plot_path,
		.folded = o->folded_path,
	};
}

/*
 * check_outputs - at most one output on stdout, no file written twice, none
 * over the recording read, as typed; main() compares the files they name
 */
static enum options_result check_outputs(const struct wp_options *o, char *err, size_t errlen)
{
	struct output_paths paths = options__outputs(o);
	struct output_file f[OUTPUT_MAX_FILES];
	size_t i, j, n = output_paths__files(&paths, f);

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			/* "-" is stdin for the recording (f[0]), stdout for an output: only two outputs clash there */
			if (!strcmp(f[i].path, f[j].path) && (i || !o->report_path || strcmp(f[i].path, "-"))) {
				snprintf(err, errlen, "%s and %s both name '%s': give each output its own file",
					 f[i].name, f[j].name, parse__shown(f[i].path));
				return OPTIONS_BAD;
			}
	if (o->prometheus_every_s && (!o->prometheus_path || !strcmp(o->prometheus_path, "-"))) {
		snprintf(err, errlen, "--prometheus-every rewrites the --prometheus file: add --prometheus FILE");
		return OPTIONS_BAD;
	}
	return OPTIONS_RUN;
}

/*
 * explain_needs_all - what the run asks for needs every event streamed:
 * timed syscalls (--syscall-phases), a paced workload's timeline (the
 * events around each wakeup), and a throughput workload's report (each
 * thread's CPU time, counted from its switches)
 */
static bool explain_needs_all(const struct wp_options *o)
{
	if (o->syscall_phases)
		return true;
	if (!o->workload || options__attach(o))
		return false;
	return o->perfetto_path || designs__find(o->workload);
}

/*
 * check_explain - settle how the run is traced: --explain as given (@given
 * names it, "" when it was not), else slow, unless explain_needs_all().
 * Returns nonzero with @err filled when what was given cannot be had.
 */
static int check_explain(struct wp_options *o, const char *given, char *err, size_t errlen)
{
	err[0] = '\0';
	if (o->explain == EXPLAIN_DEFAULT)
		o->explain = explain_needs_all(o) ? EXPLAIN_ALL : EXPLAIN_SLOW;
	/* an untraced run is neither */
	o->lean = o->explain == EXPLAIN_SLOW && !o->no_trace;
	if (!given[0])
		return 0;
	if (o->no_trace)
		snprintf(err, errlen, "%s is a way of tracing and --no-trace traces nothing: give one of them", given);
	else if (!o->lean)
		return 0;
	else if (o->perfetto_path && !options__attach(o))
		snprintf(err, errlen, "--perfetto draws the events around each of a workload's wakeups, which %s "
			 "does not trace: drop %s for a timeline", given, given);
	else if (o->syscall_phases)
		snprintf(err, errlen, "%s traces no syscall and --syscall-phases times them: give one of them", given);
	return err[0] != '\0';
}

/* check_stacks - --stacks (--folded) in attach mode: what it cannot go with; nonzero with @err */
static int check_stacks(const struct wp_options *o, char *err, size_t errlen)
{
	const char *given = o->folded_path ? "--folded" : "--stacks";

	err[0] = '\0';
	if (!o->stacks)
		return 0;
	if (o->command == CMD_RECORD)
		snprintf(err, errlen, "a recording keeps no stacks: drop %s, or run without record", given);
	else if (o->no_trace)
		snprintf(err, errlen, "%s needs tracing and --no-trace traces nothing: give one of them", given);
	else if (!o->lean && !options__attach(o))
		snprintf(err, errlen, "%s rides on --explain slow's records, which %s does not take: drop %s", given,
			 o->workload && designs__find(o->workload) ? "a throughput workload" :
			 o->perfetto_path ? "a workload's --perfetto" : "--explain all",
			 o->workload && designs__find(o->workload) ? given : o->perfetto_path ? "--perfetto" :
			 "--explain all");
	else if (!o->lean)
		snprintf(err, errlen, "%s rides on --explain slow's records (the default): drop %s", given,
			 o->syscall_phases ? "--syscall-phases" : "--explain all");
	return err[0] != '\0';
}

/*
 * check_by_cgroup - --all, --cgroup, --listen, --top: what they cannot go
 * with; nonzero with @err. Settles --top.
 */
static int check_by_cgroup(struct wp_options *o, char *err, size_t errlen)
{
	const char *given = o->all ? "--all" : o->cgroups ? "--cgroup" : "--listen";
	const char *stream = o->csv_path ? "--csv" : o->perfetto_path ? "--perfetto" : o->folded_path ? "--folded" :
			     NULL;

	err[0] = '\0';
	if (!options__by_cgroup(o)) {
		if (o->top)
			snprintf(err, errlen, "--top caps the series by cgroup: add --all, --cgroup or --listen");
		return err[0] != '\0';
	}
	if (!o->top)
		o->top = CGROUP_STATS_TOP;
	if (o->all && (o->nr_pids || o->target_argv || o->cgroups))
		snprintf(err, errlen, "--all traces every task: drop %s", o->cgroups ? "--cgroup" :
			 o->nr_pids ? "--pid" : "-- COMMAND");
	else if (o->cgroups && (o->nr_pids || o->target_argv))
		snprintf(err, errlen, "--cgroup and %s both name what to trace: give one of them",
			 o->nr_pids ? "--pid" : "-- COMMAND");
	else if (o->command == CMD_RECORD)
		snprintf(err, errlen, "a recording keeps no cgroups: drop %s, or run it without record", given);
	else if (!o->lean)
		snprintf(err, errlen, "%s rides on --explain slow's records (the default): drop %s", given,
			 o->syscall_phases ? "--syscall-phases" : "--explain all");
	else if (o->listen && o->stacks)
		snprintf(err, errlen, "--listen runs for days and %s keeps every traced process's mappings: drop %s",
			 o->folded_path ? "--folded" : "--stacks", o->folded_path ? "--folded" : "--stacks");
	else if (o->listen && stream)
		snprintf(err, errlen, "--listen runs until it is stopped and %s would grow without end: use "
			 "--json or --prometheus, which SIGHUP rewrites", stream);
	return err[0] != '\0';
}

/* check_design - a throughput workload's run: what it cannot take, its modes, its own arguments */
static enum options_result check_design(const struct wp_options *o, const char *paced_option, char *err,
					size_t errlen)
{
	const struct design_desc *d = designs__find(o->workload);

	if (o->command == CMD_RECORD) {
		snprintf(err, errlen, "record is for the paced paths and attach mode: a throughput workload is "
			 "reported as it runs, not recorded");
		return OPTIONS_BAD;
	}
	if (paced_option[0]) {
		snprintf(err, errlen, "%s is for the paced paths and attach mode: %s takes its own sizes after -- "
			 "(build/workloads/%s --help lists them)", paced_option, d->name, d->name);
		return OPTIONS_BAD;
	}
	if (o->modes && designs__check_modes(d, o->modes, err, errlen))
		return OPTIONS_BAD;
	if (designs__check_args(o->workload_args, err, errlen))
		return OPTIONS_BAD;
	return OPTIONS_RUN;
}

enum options_result options__parse(struct wp_options *o, int argc, char **argv, int nr_cpus,
				   FILE *out, char *err, size_t errlen)
{
	struct option longopts[NR_SPECS + 1];
	char optstring[2 * NR_SPECS + 2] = ":";
	size_t n = 1;
	char run_option[32] = "";	/* the first option that only a run takes, as named */
	char workload_option[32] = "";	/* ... that only a workload run takes */
	char attach_option[32] = "";	/* ... that only attach mode takes */
	char paced_option[32] = "";	/* ... that a throughput workload does not take */
	char explain_given[32] = "";	/* --explain or --lean, as given */
	int opt, longindex = -1;
	size_t count;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->samples = OPT_DEFAULT_SAMPLES;
	o->interval_us = OPT_DEFAULT_INTERVAL_US;
	o->ringbuf_kb = OPT_DEFAULT_RINGBUF_KB;
	o->outliers = OPT_DEFAULT_OUTLIERS;
	o->pairs = OPT_DEFAULT_PAIRS;
	o->waker_cpu = -1;
	o->wakee_cpu = -1;

	if (argc > 1 && !strcmp(argv[1], "kernel")) {
		/* nothing to run, nothing to write: only -v, for libbpf's log of the loads it tries */
		o->command = CMD_KERNEL;
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
				options__usage(out);
				return OPTIONS_DONE;
			}
			if (strcmp(argv[i], "-v") && strcmp(argv[i], "--verbose")) {
				snprintf(err, errlen, "wakeprobe kernel takes no argument but -v, not '%s'",
					 parse__shown(argv[i]));
				return OPTIONS_BAD;
			}
			o->verbose = true;
		}
		return OPTIONS_RUN;
	}
	if (argc > 1 && !strcmp(argv[1], "record"))
		o->command = CMD_RECORD;
	else if (argc > 1 && !strcmp(argv[1], "report"))
		o->command = CMD_REPORT;
	if (o->command != CMD_RUN) {
		/* the command word is not an option: parse what follows it */
		argc--;
		argv++;
	}

	for (size_t i = 0; i < NR_SPECS; i++) {
		longopts[i] = (struct option){ specs[i].name, specs[i].arg ? required_argument : no_argument, NULL,
					       specs[i].key };
		if (specs[i].key < 256) {
			optstring[n++] = (char)specs[i].key;
			if (specs[i].arg)
				optstring[n++] = ':';
		}
	}
	longopts[NR_SPECS] = (struct option){ NULL, 0, NULL, 0 };
	optstring[n] = '\0';

	optind = 0;	/* GNU: start over, so the parser can run more than once */
	opterr = 0;	/* the messages below name the option and the fix */
	while ((opt = getopt_long(argc, argv, optstring, longopts, &longindex)) != -1) {
		const struct option_spec *spec = spec_of(opt);
		char as_given[32] = "";

		if (spec && longindex >= 0)
			snprintf(as_given, sizeof(as_given), "--%s", longopts[longindex].name);
		else if (spec)
			snprintf(as_given, sizeof(as_given), "-%c", opt);
		if (!run_option[0] && spec && spec->run_only)
			strcpy(run_option, as_given);
		if (!workload_option[0] && spec && spec->mode == MODE_WORKLOAD)
			strcpy(workload_option, as_given);
		if (!attach_option[0] && spec && spec->mode == MODE_ATTACH) {
			strcpy(attach_option, as_given);
			o->attach_option = spec->name;
		}
		if (!paced_option[0] && spec && spec->not_for_designs)
			strcpy(paced_option, as_given);
		longindex = -1;
		switch (opt) {
		case 'w':
			o->workload = optarg;
			break;
		case 'n':
			if (parse__u64(optarg, 1, OPT_MAX_SAMPLES, &o->samples)) {
				snprintf(err, errlen, "--samples wants a whole number from 1 to %llu, not '%s'",
					 OPT_MAX_SAMPLES, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case 'i':
			if (parse__u64(optarg, 0, OPT_MAX_INTERVAL_US, &o->interval_us)) {
				snprintf(err, errlen, "--interval-us wants microseconds from 0 to %llu, not '%s'",
					 OPT_MAX_INTERVAL_US, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case 'c':
			if (parse__cpu_pair(optarg, nr_cpus, &o->waker_cpu, &o->wakee_cpu)) {
				snprintf(err, errlen, "--cpus wants two different CPUs from 0 to %d as A,B, not '%s'",
					 nr_cpus - 1, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_NO_TRACE:
			o->no_trace = true;
			break;
		case OPT_LEAN:
		case OPT_EXPLAIN: {
			enum opt_explain e = opt == OPT_LEAN || !strcmp(optarg, "slow") ? EXPLAIN_SLOW : EXPLAIN_ALL;
			char given[sizeof(explain_given)];

			if (opt == OPT_EXPLAIN && strcmp(optarg, "slow") && strcmp(optarg, "all")) {
				snprintf(err, errlen, "--explain wants 'slow' or 'all', not '%s'", parse__shown(optarg));
				return OPTIONS_BAD;
			}
			snprintf(given, sizeof(given), "%s%s%s", as_given, opt == OPT_EXPLAIN ? " " : "",
				 opt == OPT_EXPLAIN ? optarg : "");
			if (o->explain != EXPLAIN_DEFAULT && o->explain != e) {
				snprintf(err, errlen, "%s and %s ask for two ways of tracing: give one of them", explain_given,
					 given);
				return OPTIONS_BAD;
			}
			o->explain = e;
			strcpy(explain_given, given);
			break;
		}
		case OPT_SYSCALL_PHASES:
			o->syscall_phases = true;
			break;
		case OPT_SOFTIRQS:
			o->softirqs = true;
			break;
		case OPT_STACKS:
			o->stacks = true;
			break;
		case OPT_FOLDED:
			o->folded_path = optarg;
			o->stacks = true;
			break;
		case OPT_RINGBUF_KB:
			if (parse__u64(optarg, 4, 1u << 20, &v) || (v & (v - 1))) {
				snprintf(err, errlen, "--ringbuf-kb wants a power of two from 4 to 1048576, not '%s'",
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->ringbuf_kb = (uint32_t)v;
			o->ringbuf_given = true;
			break;
		case OPT_OUTLIERS:
			if (parse__u64(optarg, 0, OPT_MAX_OUTLIERS, &v)) {
				snprintf(err, errlen, "--outliers wants a whole number from 0 to %d, not '%s'",
					 OPT_MAX_OUTLIERS, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->outliers = (uint32_t)v;
			break;
		case OPT_THRESHOLD_US:
			if (parse__u64(optarg, 0, OPT_MAX_THRESHOLD_US, &o->threshold_us)) {
				snprintf(err, errlen, "--threshold-us wants microseconds from 0 to %llu, not '%s'",
					 OPT_MAX_THRESHOLD_US, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_LIST_WORKLOADS:
			o->list_workloads = true;
			break;
		case OPT_JSON:
			o->json_path = optarg;
			break;
		case OPT_CSV:
			o->csv_path = optarg;
			break;
		case OPT_PERFETTO:
			o->perfetto_path = optarg;
			break;
		case OPT_PLOT:
			o->plot_path = optarg;
			break;
		case 'o':
			o->record_path = optarg;
			break;
		case OPT_PROMETHEUS:
			o->prometheus_path = optarg;
			break;
		case OPT_PROMETHEUS_EVERY:
			if (parse__u64(optarg, 1, OPT_MAX_PROMETHEUS_EVERY_S, &o->prometheus_every_s)) {
				snprintf(err, errlen, "--prometheus-every wants seconds from 1 to %d, not '%s'",
					 OPT_MAX_PROMETHEUS_EVERY_S, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_TIMEOUT:
			if (parse__u64(optarg, 1, OPT_MAX_TIMEOUT_S, &o->timeout_s)) {
				snprintf(err, errlen, "--timeout wants seconds from 1 to %llu, not '%s'", OPT_MAX_TIMEOUT_S,
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_USER:
			if (!optarg[0]) {
				snprintf(err, errlen, "--user wants a user name or number");
				return OPTIONS_BAD;
			}
			o->user = optarg;
			break;
		case OPT_PID:
		case OPT_TID:
			if (parse__id_list(optarg, OPT_MAX_ID, opt == OPT_PID ? o->pids : o->tids, OPT_MAX_TARGETS,
					   &count)) {
				snprintf(err, errlen, "%s wants up to %d different ids from 1 to %d, as A,B,..., not '%s'",
					 opt == OPT_PID ? "--pid" : "--tid", OPT_MAX_TARGETS, OPT_MAX_ID,
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			if (opt == OPT_PID)
				o->nr_pids = (uint32_t)count;
			else
				o->nr_tids = (uint32_t)count;
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case OPT_CGROUP:
			if (!optarg[0] || optarg[0] == ',' || strstr(optarg, ",,") || optarg[strlen(optarg) - 1] == ',') {
				snprintf(err, errlen, "--cgroup wants cgroup paths as A,B,..., not '%s'",
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->cgroups = optarg;
			break;
		case OPT_LISTEN: {
			struct http_listen at;

			/* what can be told of the address without binding it: bad usage, before anything loads */
			if (http_server__parse_listen(optarg, &at, err, errlen))
				return OPTIONS_BAD;
			o->listen = optarg;
			break;
		}
		case OPT_TOP:
			if (parse__u64(optarg, 1, CGROUP_STATS_MAX_TOP, &v)) {
				snprintf(err, errlen, "--top wants a whole number from 1 to %d, not '%s'",
					 CGROUP_STATS_MAX_TOP, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->top = (uint32_t)v;
			break;
		case OPT_DURATION:
			if (parse__u64(optarg, 1, OPT_MAX_DURATION_S, &o->duration_s)) {
				snprintf(err, errlen, "--duration wants seconds from 1 to %llu, not '%s'",
					 OPT_MAX_DURATION_S, parse__shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_PAIRS:
			if (parse__u64(optarg, 1, OPT_MAX_PAIRS, &v)) {
				snprintf(err, errlen, "--pairs wants a whole number from 1 to %d, not '%s'", OPT_MAX_PAIRS,
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->pairs = (uint32_t)v;
			break;
		case OPT_MODE:
			o->modes = optarg;
			break;
		case OPT_ORDER:
			if (strcmp(optarg, "count") && strcmp(optarg, "cost")) {
				snprintf(err, errlen, "--order wants 'count' or 'cost', not '%s'",
					 parse__shown(optarg));
				return OPTIONS_BAD;
			}
			o->order_by_cost = !strcmp(optarg, "cost");
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			options__usage(out);
			return OPTIONS_DONE;
		case 'V':
			fprintf(out, "wakeprobe %s\n", WAKEPROBE_VERSION);
			return OPTIONS_DONE;
		case ':':
			snprintf(err, errlen, "%s needs a value", parse__shown(argv[optind - 1]));
			return OPTIONS_BAD;
		default:
			snprintf(err, errlen, "unknown option '%s'", parse__shown(argv[optind - 1]));
			return OPTIONS_BAD;
		}
	}
	if (o->command == CMD_REPORT) {
		if (optind >= argc) {
			snprintf(err, errlen, "report needs the recording to read: wakeprobe report FILE");
			return OPTIONS_BAD;
		}
		o->report_path = argv[optind++];
	}
	/* getopt stops at "--" and leaves it just before optind: what follows is the command to trace */
	if (o->command != CMD_REPORT && optind > 0 && !strcmp(argv[optind - 1], "--")) {
		if (optind == argc) {
			snprintf(err, errlen, "-- needs a command to trace after it: wakeprobe [options] -- COMMAND [ARGS...]");
			return OPTIONS_BAD;
		}
		o->target_argv = &argv[optind];
		optind = argc;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", parse__shown(argv[optind]));
		return OPTIONS_BAD;
	}
	/* with a throughput workload, what follows -- is the workload's own arguments */
	o->design = o->command != CMD_REPORT && o->workload && designs__find(o->workload);
	if (o->design && o->target_argv) {
		o->workload_args = o->target_argv;
		o->target_argv = NULL;
	}
	if (o->command == CMD_REPORT) {
		if (o->prometheus_every_s) {
			snprintf(err, errlen, "--prometheus-every is for a live attach run: report writes --prometheus once");
			return OPTIONS_BAD;
		}
		if (o->stacks) {
			snprintf(err, errlen, "a recording keeps no stacks: %s is for a live run",
				 o->folded_path ? "--folded" : "--stacks");
			return OPTIONS_BAD;
		}
		if (run_option[0]) {
			char takes[160];

			report_takes(takes, sizeof(takes));
			snprintf(err, errlen, "%s is fixed by the recording: report takes %s", run_option, takes);
			return OPTIONS_BAD;
		}
		if (o->record_path) {
			snprintf(err, errlen, "-o is for wakeprobe record: report writes --json, --csv, --perfetto, --prometheus or --plot");
			return OPTIONS_BAD;
		}
		return check_outputs(o, err, errlen);
	}
	if (o->command == CMD_RECORD && !o->record_path) {
		snprintf(err, errlen, "record needs a file to write: wakeprobe record -o FILE --workload NAME (or --pid, or -- COMMAND)");
		return OPTIONS_BAD;
	}
	if (o->command == CMD_RUN && o->record_path) {
		snprintf(err, errlen, "-o is for wakeprobe record -o FILE; a run writes --json, --csv, --perfetto, --prometheus or --plot");
		return OPTIONS_BAD;
	}
	if (o->list_workloads)
		return OPTIONS_RUN;
	if (o->nr_pids && o->target_argv) {
		snprintf(err, errlen, "--pid and -- COMMAND both name what to trace: give one of them");
		return OPTIONS_BAD;
	}
	if (options__attach(o) && workload_option[0]) {
		snprintf(err, errlen, "%s is for wakeprobe's own workloads: with %s, wakeprobe traces %s",
			 workload_option, o->all ? "--all" : o->cgroups ? "--cgroup" : o->nr_pids ? "--pid" : "-- COMMAND",
			 o->all || o->cgroups ? "the machine's tasks" : "your program");
		return OPTIONS_BAD;
	}
	if (!options__attach(o) && attach_option[0]) {
		snprintf(err, errlen, "%s is for attach mode: add --all, --cgroup PATH, --pid PID or -- COMMAND",
			 attach_option);
		return OPTIONS_BAD;
	}
	if (check_explain(o, explain_given, err, errlen))
		return OPTIONS_BAD;
	if (check_stacks(o, err, errlen))
		return OPTIONS_BAD;
	if (check_by_cgroup(o, err, errlen))
		return OPTIONS_BAD;
	if (options__attach(o))
		return check_outputs(o, err, errlen);
	if (!o->workload) {
		snprintf(err, errlen, "no workload given: add --workload NAME (--list-workloads shows them), "
			 "--pid PID or -- COMMAND");
		return OPTIONS_BAD;
	}
	if (strcmp(o->workload, "all") && !catalog__find(o->workload) && !o->design) {
		snprintf(err, errlen, "unknown workload '%s': --list-workloads shows the known ones",
			 parse__shown(o->workload));
		return OPTIONS_BAD;
	}
	if (o->modes && !o->design) {
		snprintf(err, errlen, "--mode is for one throughput workload (burst-queue, spawn, executor, "
			 "ipc-stream), not '%s'", parse__shown(o->workload));
		return OPTIONS_BAD;
	}
	if (o->design)
		return check_design(o, paced_option, err, errlen);
	return check_outputs(o, err, errlen);
}
