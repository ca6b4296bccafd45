// SPDX-License-Identifier: GPL-2.0
/*
 * option_checks.c - what the options given cannot go with, once the table
 * walk has taken them: the outputs, the engine and what rides on it, the
 * runs by cgroup, a throughput workload's. The engine's rules are settled
 * here once, so that the layers below take the options as they come
 * (options.h lists what the settled options guarantee).
 */
#include <stdio.h>
#include <string.h>
#include "cgroup_stats.h"
#include "designs.h"
#include "options.h"
#include "options_internal.h"
#include "output_paths.h"
#include "parse.h"

/*
 * option_checks__outputs - at most one output on stdout, no file written
 * twice, none over the recording read, as typed; main() compares the files
 * they name
 */
enum options_result option_checks__outputs(const struct wp_options *o, char *err, size_t errlen)
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
 * engine_needs_full - what the run asks for needs every event streamed:
 * timed syscalls (--syscall-phases), a paced workload's timeline (the
 * events around each wakeup), and a throughput workload's report (each
 * thread's CPU time, counted from its switches)
 */
static bool engine_needs_full(const struct wp_options *o)
{
	if (o->syscall_phases)
		return true;
	if (!o->workload || options__attach(o))
		return false;
	return o->perfetto_path || designs__find(o->workload);
}

/*
 * option_checks__engine - settle the engine: as given (@given names it as
 * typed, "" when it was not), else lean, unless engine_needs_full(). What
 * only the lean engine takes is turned off when the run is not lean, so that no
 * layer below masks it again (options.h). Returns nonzero with @err filled
 * when what was given cannot be had.
 */
int option_checks__engine(struct wp_options *o, const char *given, char *err, size_t errlen)
{
	err[0] = '\0';
	if (o->engine == ENGINE_DEFAULT)
		o->engine = engine_needs_full(o) ? ENGINE_FULL : ENGINE_LEAN;
	/* an untraced run is neither */
	o->lean = o->engine == ENGINE_LEAN && !o->no_trace;
	/* the full engine streams the softirqs anyway: --softirqs asks nothing more of it */
	if (!o->lean)
		o->softirqs = false;
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

/*
 * option_checks__stacks - --stacks (--folded): what it cannot go with,
 * @engine naming the engine as given; nonzero with @err
 */
int option_checks__stacks(const struct wp_options *o, const char *engine, char *err, size_t errlen)
{
	const char *given = o->folded_path ? "--folded" : "--stacks";

	err[0] = '\0';
	if (!o->stacks) {
		if (o->debuginfod)
			snprintf(err, errlen, "--debuginfod finds debug files to name the stacks with: add --stacks");
		else if (o->unwind_given)
			snprintf(err, errlen, "--unwind says how the user stacks are taken: add --stacks");
		return err[0] != '\0';
	}
	if (o->command == CMD_RECORD)
		snprintf(err, errlen, "a recording keeps no stacks: drop %s, or run without record", given);
	else if (o->no_trace)
		snprintf(err, errlen, "%s needs tracing and --no-trace traces nothing: give one of them", given);
	else if (!o->lean && !options__attach(o))
		snprintf(err, errlen, "%s rides on the lean engine's records, which %s does not take: drop %s", given,
			 o->workload && designs__find(o->workload) ? "a throughput workload" :
			 o->perfetto_path ? "a workload's --perfetto" : engine,
			 o->workload && designs__find(o->workload) ? given : o->perfetto_path ? "--perfetto" : engine);
	else if (!o->lean)
		snprintf(err, errlen, "%s rides on the lean engine's records (the default): drop %s", given,
			 o->syscall_phases ? "--syscall-phases" : engine);
	else if (o->workload && designs__find(o->workload))
		snprintf(err, errlen, "a throughput workload's report has no stacks (it counts its wakeups by kind): "
			 "drop %s", given);
	return err[0] != '\0';
}

/*
 * option_checks__by_cgroup - --all, --cgroup, --listen, --top: what they
 * cannot go with, @engine naming the engine as given; nonzero with @err.
 * Settles --top.
 */
int option_checks__by_cgroup(struct wp_options *o, const char *engine, char *err, size_t errlen)
{
	const char *given = o->all ? "--all" : o->cgroups ? "--cgroup" : "--listen";
	const char *stream = o->csv_path ? "--csv" : o->perfetto_path ? "--perfetto" : o->folded_path ? "--folded" :
			     NULL;

	err[0] = '\0';
	if (o->allow_hosts && !o->listen) {
		snprintf(err, errlen, "--allow-host names what a scrape may call this machine: add --listen");
		return 1;
	}
	if (o->web_config && !o->listen) {
		snprintf(err, errlen, "--web-config secures what --listen serves: add --listen ADDR:PORT");
		return 1;
	}
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
		snprintf(err, errlen, "%s rides on the lean engine's records (the default): drop %s", given,
			 o->syscall_phases ? "--syscall-phases" : engine);
	else if (o->listen && o->stacks)
		snprintf(err, errlen, "--listen runs for days and %s keeps every traced process's mappings: drop %s",
			 o->folded_path ? "--folded" : "--stacks", o->folded_path ? "--folded" : "--stacks");
	else if (o->listen && stream)
		snprintf(err, errlen, "--listen runs until it is stopped and %s would grow without end: use "
			 "--json or --prometheus, which SIGHUP rewrites", stream);
	return err[0] != '\0';
}

/* option_checks__design - a throughput workload's run: what it cannot take, its modes, its arguments */
enum options_result option_checks__design(const struct wp_options *o, const char *paced_option, char *err,
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

