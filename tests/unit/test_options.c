// SPDX-License-Identifier: GPL-2.0
#include <criterion/criterion.h>
#include <errno.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "options.h"

#define NR_CPUS 4

static struct wp_options opts;
static char err[256];
static char *outbuf;
static size_t outlen;
static FILE *out;

static void setup(void)
{
	out = open_memstream(&outbuf, &outlen);
	err[0] = '\0';
}

static void teardown(void)
{
	fclose(out);
	free(outbuf);
}

TestSuite(options, .init = setup, .fini = teardown);

#define PARSE(...)                                                                             \
	({                                                                                     \
		char *argv_[] = { "wakeprobe", __VA_ARGS__, NULL };                            \
		options__parse(&opts, sizeof(argv_) / sizeof(argv_[0]) - 1, argv_, NR_CPUS, out, \
			       err, sizeof(err));                                              \
	})

Test(options, defaults_apply_when_only_the_workload_is_given)
{
	cr_assert_eq(PARSE("--workload", "eventfd"), OPTIONS_RUN);
	cr_assert_str_eq(opts.workload, "eventfd");
	cr_assert_eq(opts.samples, OPT_DEFAULT_SAMPLES);
	cr_assert_eq(opts.interval_us, OPT_DEFAULT_INTERVAL_US);
	cr_assert_eq(opts.waker_cpu, -1);
	cr_assert_eq(opts.wakee_cpu, -1);
	cr_assert_eq(opts.ringbuf_kb, OPT_DEFAULT_RINGBUF_KB);
	cr_assert_eq(opts.outliers, OPT_DEFAULT_OUTLIERS);
	cr_assert_eq(opts.threshold_us, 0);
	cr_assert_not(opts.no_trace);
	cr_assert_not(opts.verbose);
}

Test(options, every_option_is_taken_in_long_and_short_form)
{
	cr_assert_eq(PARSE("-w", "eventfd", "-n", "500", "-i", "0", "-c", "3,1", "-v", "--no-trace",
			   "--ringbuf-kb", "64", "--outliers", "0", "--threshold-us", "250"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.samples, 500);
	cr_assert_eq(opts.interval_us, 0);
	cr_assert_eq(opts.waker_cpu, 3);
	cr_assert_eq(opts.wakee_cpu, 1);
	cr_assert(opts.verbose);
	cr_assert(opts.no_trace);
	cr_assert_eq(opts.ringbuf_kb, 64);
	cr_assert_eq(opts.outliers, 0);
	cr_assert_eq(opts.threshold_us, 250);
}

Test(options, the_parser_can_run_twice_in_one_process)
{
	cr_assert_eq(PARSE("--workload", "eventfd", "--samples", "7"), OPTIONS_RUN);
	cr_assert_eq(PARSE("--workload", "eventfd"), OPTIONS_RUN);
	cr_assert_eq(opts.samples, OPT_DEFAULT_SAMPLES);
}

Test(options, help_and_version_print_and_stop)
{
	cr_assert_eq(PARSE("--help"), OPTIONS_DONE);
	fflush(out);
	cr_assert(strstr(outbuf, "Usage: wakeprobe --workload NAME"));
	cr_assert(strstr(outbuf, "Examples:"));
	cr_assert_eq(PARSE("--version"), OPTIONS_DONE);
	fflush(out);
	cr_assert(strstr(outbuf, "wakeprobe " WAKEPROBE_VERSION "\n"));
}

Test(options, record_takes_the_run_options_and_a_file)
{
	cr_assert_eq(PARSE("record", "-o", "run.wpr", "--workload", "cond", "--samples", "9", "--json", "-"),
		     OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_RECORD);
	cr_assert_str_eq(opts.record_path, "run.wpr");
	cr_assert_str_eq(opts.workload, "cond");
	cr_assert_eq(opts.samples, 9);
	cr_assert_str_eq(opts.json_path, "-");
}

Test(options, report_takes_a_file_and_the_report_options_in_any_order)
{
	cr_assert_eq(PARSE("report", "--outliers", "7", "run.wpr", "--threshold-us", "30", "--csv", "s.csv",
			   "--perfetto", "t.json"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_REPORT);
	cr_assert_str_eq(opts.report_path, "run.wpr");
	cr_assert_eq(opts.outliers, 7);
	cr_assert_eq(opts.threshold_us, 30);
	cr_assert_str_eq(opts.csv_path, "s.csv");
	cr_assert_str_eq(opts.perfetto_path, "t.json");
	cr_assert_null(opts.workload);
}

/* an attach recording's report narrows it anew: --tid and --pairs are report options */
Test(options, report_takes_the_threads_and_pairs_of_an_attach_recording)
{
	cr_assert_eq(PARSE("report", "run.wpr", "--tid", "13,14", "--pairs", "3"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_REPORT);
	cr_assert_not(options__attach(&opts), "a report traces nothing");
	cr_assert_eq(opts.nr_tids, 2);
	cr_assert_eq(opts.tids[1], 14);
	cr_assert_eq(opts.pairs, 3);
	cr_assert_str_eq(opts.attach_option, "tid", "the first attach option, for a workload recording to refuse");
	cr_assert_eq(PARSE("report", "run.wpr", "--outliers", "2"), OPTIONS_RUN, "%s", err);
	cr_assert_null(opts.attach_option);
}

Test(options, a_recording_from_stdin_may_go_with_an_output_to_stdout)
{
	cr_assert_eq(PARSE("report", "-", "--json", "-"), OPTIONS_RUN, "%s", err);
	cr_assert_str_eq(opts.report_path, "-");
	cr_assert_str_eq(opts.json_path, "-");
}

Test(options, prometheus_metrics_are_an_output_of_runs_and_reports_rewritten_only_by_attach_runs)
{
	cr_assert_eq(PARSE("--workload", "eventfd", "--prometheus", "m.prom"), OPTIONS_RUN, "%s", err);
	cr_assert_str_eq(opts.prometheus_path, "m.prom");
	cr_assert_eq(opts.prometheus_every_s, 0);
	cr_assert_eq(PARSE("report", "run.wpr", "--prometheus", "-"), OPTIONS_RUN, "%s", err);
	cr_assert_str_eq(opts.prometheus_path, "-");
	cr_assert_eq(PARSE("--pid", "12", "--prometheus", "m.prom", "--prometheus-every", "15"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.prometheus_every_s, 15);
	cr_assert_eq(PARSE("--prometheus", "m.prom", "--prometheus-every", "86400", "--", "true"), OPTIONS_RUN, "%s",
		     err);
	cr_assert_eq(opts.prometheus_every_s, 86400);
}

Test(options, a_plain_run_is_the_run_command)
{
	cr_assert_eq(PARSE("--workload", "eventfd", "--json", "r.json"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_RUN);
	cr_assert_null(opts.record_path);
	cr_assert_str_eq(opts.json_path, "r.json");
}

/* a throughput workload takes --json, and still refuses the outputs made of paced samples */
Test(options, a_throughput_workload_takes_json_but_not_csv)
{
	cr_assert_eq(PARSE("--workload", "burst-queue", "--mode", "cond", "--json", "bq.json", "--", "--tasks", "10"),
		     OPTIONS_RUN, "%s", err);
	cr_assert(opts.design);
	cr_assert_str_eq(opts.json_path, "bq.json");
	/* workload_args points into PARSE's own argv, gone by now: design and json_path say enough */
	cr_assert_eq(PARSE("--workload", "burst-queue", "--csv", "bq.csv"), OPTIONS_BAD);
	cr_assert(strstr(err, "--csv is for the paced paths"), "%s", err);
}

Test(options, syscall_phases_are_timed_only_when_asked_and_only_in_attach_mode)
{
	cr_assert_eq(PARSE("--pid", "12"), OPTIONS_RUN, "%s", err);
	cr_assert_not(opts.syscall_phases, "named from the registers by default, not timed");
	cr_assert_eq(PARSE("--pid", "12", "--syscall-phases", "--json", "a.json"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.syscall_phases);
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--syscall-phases", "--", "sleep", "1"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.syscall_phases);
}

Test(options, stacks_ride_on_lean_records_of_a_live_run)
{
	cr_assert_eq(PARSE("--pid", "12", "--stacks"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.stacks && opts.lean);
	cr_assert_eq(PARSE("--folded", "s.folded", "--", "sleep", "1"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.stacks, "--folded takes the stacks it folds");
	cr_assert_str_eq(opts.folded_path, "s.folded");
	cr_assert_eq(PARSE("--workload", "cond", "--stacks"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.stacks);
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--engine", "full"), OPTIONS_BAD);
	cr_assert_str_eq(err, "--stacks rides on the lean engine's records (the default): drop --engine full");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--explain", "all"), OPTIONS_BAD);
	cr_assert_str_eq(err, "--stacks rides on the lean engine's records (the default): drop --explain all",
			 "the fix names the engine as it was typed");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--syscall-phases"), OPTIONS_BAD);
	cr_assert(strstr(err, "drop --syscall-phases"), "%s", err);
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--stacks", "--pid", "12"), OPTIONS_BAD);
	cr_assert_str_eq(err, "a recording keeps no stacks: drop --stacks, or run without record");
	cr_assert_eq(PARSE("report", "r.wpr", "--folded", "s.folded"), OPTIONS_BAD);
	cr_assert_str_eq(err, "a recording keeps no stacks: --folded is for a live run");
	cr_assert_eq(PARSE("--workload", "cond", "--stacks", "--perfetto", "t.json"), OPTIONS_BAD);
	cr_assert(strstr(err, "which a workload's --perfetto does not take: drop --perfetto"), "%s", err);
	cr_assert_eq(PARSE("--pid", "12", "--folded", "x", "--json", "x"), OPTIONS_BAD);
	cr_assert(strstr(err, "--json and --folded both name 'x'"), "%s", err);
}

Test(options, the_machine_or_its_cgroups_are_traced_and_served_by_the_lean_engine)
{
	cr_assert_eq(PARSE("--all"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.all && opts.lean && options__attach(&opts) && options__by_cgroup(&opts));
	cr_assert_eq(opts.top, 20, "--top's default, settled");
	cr_assert_eq(PARSE("--cgroup", "/system.slice,/user.slice", "--top", "50", "--json", "r.json"), OPTIONS_RUN,
		     "%s", err);
	cr_assert_str_eq(opts.cgroups, "/system.slice,/user.slice");
	cr_assert_eq(opts.top, 50);
	cr_assert_eq(PARSE("--all", "--listen", "[::1]:9750", "--prometheus", "m.prom", "--duration", "60"), OPTIONS_RUN,
		     "%s", err);
	cr_assert_str_eq(opts.listen, "[::1]:9750");
	cr_assert_eq(PARSE("--pid", "12", "--listen", ":9750"), OPTIONS_RUN, "%s", err);
	cr_assert(options__by_cgroup(&opts) && opts.top == 20, "a served run of a process is by cgroup too");
	cr_assert_eq(PARSE("--pid", "12"), OPTIONS_RUN, "%s", err);
	cr_assert(!options__by_cgroup(&opts) && opts.top == 0);
}

Test(options, the_lean_engine_goes_with_a_workload_and_its_outputs)
{
	cr_assert_eq(PARSE("--workload", "eventfd", "--engine", "lean", "--json", "r.json", "--csv", "r.csv"),
		     OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean);
	cr_assert_eq(PARSE("--workload", "all", "--engine", "lean", "--interval-us", "0"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean);
	cr_assert_eq(PARSE("--workload", "eventfd", "--engine", "full"), OPTIONS_RUN);
	cr_assert_not(opts.lean);
	cr_assert_eq(PARSE("--pid", "12", "--engine", "lean", "--duration", "5", "--json", "a.json"), OPTIONS_RUN,
		     "%s", err);
	cr_assert(opts.lean);
	cr_assert_eq(PARSE("--engine=lean", "--", "sleep", "1"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean);
	/* a run's records are recorded as they came, the lean engine's too */
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--pid", "12", "--engine", "lean"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean);
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--workload", "eventfd", "--engine", "lean"), OPTIONS_RUN, "%s",
		     err);
	cr_assert(opts.lean);
	/* a throughput workload traces its threads as attach mode does, lean too */
	cr_assert_eq(PARSE("--workload", "spawn", "--engine", "lean", "--json", "s.json"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean);
}

Test(options, a_run_takes_the_lean_engine_by_default_unless_what_it_asks_for_needs_the_full_one)
{
	cr_assert_eq(PARSE("--pid", "12"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean && opts.engine == ENGINE_LEAN, "attach mode pairs in the kernel by default");
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--perfetto", "t.json", "--", "sleep", "1"), OPTIONS_RUN, "%s",
		     err);
	cr_assert(opts.lean, "a recording and a timeline are made from the per-wakeup records");
	cr_assert_eq(PARSE("--pid", "12", "--engine", "full"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.lean && opts.engine == ENGINE_FULL);
	cr_assert_eq(PARSE("--pid", "12", "--syscall-phases"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.lean, "timing the syscalls streams them: the whole run is explained");
	cr_assert_eq(PARSE("--workload", "eventfd"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.lean && opts.engine == ENGINE_LEAN, "a workload pairs in the kernel by default");
	cr_assert_eq(PARSE("--workload", "eventfd", "--perfetto", "t.json"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.lean, "a workload's timeline draws every event around its wakeups");
	cr_assert_eq(PARSE("--workload", "spawn"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.lean, "a throughput workload counts each thread's CPU time from its switches");
	cr_assert_eq(PARSE("--workload", "eventfd", "--no-trace"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.lean, "an untraced run is not lean");
	cr_assert_eq(PARSE("--workload", "eventfd", "--engine", "lean", "--explain", "slow", "--lean"), OPTIONS_RUN,
		     "%s", err);
	cr_assert(opts.lean, "--engine lean, --explain slow and --lean are one engine: all may be given");
	cr_assert_eq(PARSE("--pid", "12", "--explain", "all", "--engine", "full"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.engine, ENGINE_FULL, "--explain all is --engine full");
	cr_assert_eq(PARSE("--pid", "12", "--engine", ""), OPTIONS_BAD);
	cr_assert_str_eq(err, "--engine wants 'lean' or 'full', not ''");
}

/* spelled - parse @args (NULL-terminated) after "wakeprobe" into @o */
static enum options_result spelled(struct wp_options *o, const char *const *args)
{
	char *argv[16] = { "wakeprobe" };
	int argc = 1;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	return options__parse(o, argc, argv, NR_CPUS, out, err, sizeof(err));
}

/*
 * Scripts typed --explain slow, --lean and --explain all: each settles what
 * --engine lean or full does, in every kind of run, and refuses the same
 */
Test(options, the_older_spellings_settle_the_same_engine_as_engine)
{
	static const char *const older[][3] = {
		{ "--explain", "slow", NULL }, { "--lean", NULL }, { "--explain", "all", NULL },
	};
	static const char *const newer[][3] = {
		{ "--engine", "lean", NULL }, { "--engine", "lean", NULL }, { "--engine", "full", NULL },
	};
	static const char *const runs[][8] = {
		{ "--workload", "eventfd", NULL },
		{ "--workload", "eventfd", "--perfetto", "t.json", NULL },
		{ "--workload", "eventfd", "--no-trace", NULL },
		{ "--workload", "spawn", NULL },
		{ "--pid", "12", "--softirqs", NULL },
		{ "--pid", "12", "--syscall-phases", NULL },
		{ "--pid", "12", "--stacks", NULL },
		{ "--all", "--top", "5", NULL },
		{ "record", "-o", "r.wpr", "--pid", "12", NULL },
	};
	struct wp_options a, b;

	for (size_t s = 0; s < sizeof(older) / sizeof(older[0]); s++)
		for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			const char *with_older[16] = { NULL }, *with_newer[16] = { NULL };
			enum options_result got_older, got_newer;
			size_t n = 0, k;

			for (k = 0; runs[r][k]; k++, n++)
				with_older[n] = with_newer[n] = runs[r][k];
			for (k = 0; older[s][k]; k++)
				with_older[n + k] = older[s][k];
			for (k = 0; newer[s][k]; k++)
				with_newer[n + k] = newer[s][k];
			got_older = spelled(&a, with_older);
			got_newer = spelled(&b, with_newer);
			cr_assert_eq(got_older, got_newer, "%s with %s", runs[r][0], older[s][0]);
			if (got_older != OPTIONS_RUN)
				continue;
			cr_assert(a.engine == b.engine && a.lean == b.lean && a.softirqs == b.softirqs &&
				  a.stacks == b.stacks && a.syscall_phases == b.syscall_phases && a.top == b.top,
				  "%s with %s settles otherwise than with %s", runs[r][0], older[s][0], newer[s][0]);
		}
}

/* accepted command lines: what the lean engine alone takes is off, or the engine is lean (options.h) */
struct settled_case {
	char args[8][24];
};

static struct settled_case settled_cases[] = {
	{ { "--workload", "eventfd" } },
	{ { "--workload", "eventfd", "--stacks" } },
	{ { "--workload", "eventfd", "--no-trace" } },
	{ { "--workload", "eventfd", "--perfetto", "t.json" } },
	{ { "--workload", "spawn" } },
	{ { "--workload", "spawn", "--engine", "lean", "--json", "s.json" } },
	{ { "--pid", "12", "--softirqs" } },
	{ { "--pid", "12", "--softirqs", "--engine", "full" } },
	{ { "--pid", "12", "--softirqs", "--syscall-phases" } },
	{ { "--pid", "12", "--folded", "f.folded" } },
	{ { "--pid", "12", "--syscall-phases" } },
	{ { "--all", "--softirqs" } },
	{ { "--cgroup", "/a", "--listen", ":9750" } },
	{ { "record", "-o", "r.wpr", "--pid", "12", "--softirqs", "--engine", "full" } },
	{ { "report", "r.wpr", "--tid", "12" } },
};

ParameterizedTestParameters(options, the_settled_options_need_no_masking_below)
{
	return cr_make_param_array(struct settled_case, settled_cases, sizeof(settled_cases) / sizeof(settled_cases[0]));
}

ParameterizedTest(struct settled_case *c, options, the_settled_options_need_no_masking_below)
{
	char *argv[10] = { "wakeprobe" };
	int argc = 1;

	while (argc < 9 && c->args[argc - 1][0])
		argv[argc] = c->args[argc - 1], argc++;
	cr_assert_eq(options__parse(&opts, argc, argv, NR_CPUS, out, err, sizeof(err)), OPTIONS_RUN, "%s", err);
	if (opts.command == CMD_RUN || opts.command == CMD_RECORD)
		cr_assert(opts.engine == ENGINE_LEAN || opts.engine == ENGINE_FULL, "the engine is settled");
	cr_assert_eq(opts.lean, opts.engine == ENGINE_LEAN && !opts.no_trace);
	cr_assert(!opts.stacks || (opts.lean && opts.command == CMD_RUN), "--stacks rides on the lean engine");
	cr_assert(!opts.folded_path || opts.stacks, "--folded takes the stacks");
	cr_assert(!opts.softirqs || opts.lean, "--softirqs is the lean engine's: the full one has them");
	cr_assert(!options__by_cgroup(&opts) || (opts.lean && opts.command == CMD_RUN), "by cgroup, lean");
	cr_assert(!opts.syscall_phases || opts.engine == ENGINE_FULL, "timed syscalls are streamed");
	cr_assert_eq(opts.top != 0, options__by_cgroup(&opts), "--top settled when by cgroup");
}

Test(options, debuginfod_is_asked_only_when_told_and_only_for_stacks)
{
	cr_assert_eq(PARSE("--pid", "12", "--stacks"), OPTIONS_RUN, "%s", err);
	cr_assert_not(opts.debuginfod, "off unless asked for");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--debuginfod"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.debuginfod);
	cr_assert_eq(PARSE("--workload", "cond", "--folded", "w.folded", "--debuginfod"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.debuginfod && opts.stacks);
}

/* --unwind: a budget a second, or off; only with --stacks, and a bad one named with what it wants */
Test(options, unwind_takes_a_rate_or_off_and_only_with_stacks)
{
	cr_assert_eq(PARSE("--pid", "12", "--stacks"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.unwind_off && opts.unwind_per_s == OPT_DEFAULT_UNWIND, "on by default, at its default rate");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--unwind", "0"), OPTIONS_RUN, "%s", err);
	cr_assert(!opts.unwind_off && opts.unwind_per_s == 0, "the slow wakeups' alone");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--unwind", "off"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.unwind_off);
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--unwind", "fast"), OPTIONS_BAD);
	cr_assert_str_eq(err, "--unwind wants wakeups a second from 0 to 100000, or 'off', not 'fast'");
	cr_assert_eq(PARSE("--pid", "12", "--stacks", "--unwind", "100001"), OPTIONS_BAD);
	cr_assert_eq(PARSE("--pid", "12", "--unwind", "50"), OPTIONS_BAD);
	cr_assert_str_eq(err, "--unwind says how the user stacks are taken: add --stacks");
}

Test(options, what_is_published_and_how_files_are_made_are_the_operators_to_say)
{
	cr_assert_eq(PARSE("--all", "--listen", ":9750", "--allow-host", "metrics.example,node-7.lan", "--target-label",
			   "shop frontend", "--output-mode", "0644"), OPTIONS_RUN, "%s", err);
	cr_assert_str_eq(opts.allow_hosts, "metrics.example,node-7.lan");
	cr_assert_str_eq(opts.target_label, "shop frontend");
	cr_assert_eq(opts.output_mode, 0644);
	/* a report of a recording labels its metrics and makes its files too */
	cr_assert_eq(PARSE("report", "r.wpr", "--prometheus", "m.prom", "--target-label", "db", "--output-mode", "640"),
		     OPTIONS_RUN, "%s", err);
	cr_assert_str_eq(opts.target_label, "db");
	cr_assert_eq(opts.output_mode, 0640);
	/* not given: the files are 0600 (outfile.h), the label the run's own */
	cr_assert_eq(PARSE("--pid", "12"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.output_mode, 0);
	cr_assert_null(opts.target_label);
	cr_assert_null(opts.allow_hosts);
	cr_assert_null(opts.web_config);
}

Test(options, a_web_config_is_taken_by_name_and_read_by_the_run)
{
	/* what the file says is read before anything loads (mode_attach.c), not by the parser */
	cr_assert_eq(PARSE("--all", "--listen", ":9750", "--web-config", "/etc/wakeprobe/web.yml"), OPTIONS_RUN, "%s",
		     err);
	cr_assert_str_eq(opts.web_config, "/etc/wakeprobe/web.yml");
}

/*
 * --chains: attach mode's, with either engine (the lean one's records carry
 * them, the full one builds them from its stream), a recording keeps them;
 * a throughput workload's too; a paced workload's pair is refused
 */
Test(options, chains_are_attach_modes_with_either_engine)
{
	cr_assert_eq(PARSE("--pid", "12", "--chains"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.chains && opts.lean);
	cr_assert_eq(PARSE("record", "-o", "r.wpr", "--chains", "--", "sleep", "1"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.chains, "a recording keeps the links");
	cr_assert_eq(PARSE("--pid", "12", "--chains", "--engine", "full"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.chains && !opts.lean);
	cr_assert_eq(PARSE("--pid", "12", "--chains", "--syscall-phases"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.chains && opts.engine == ENGINE_FULL);
	cr_assert_eq(PARSE("--workload", "eventfd", "--chains"), OPTIONS_BAD);
	cr_assert_str_eq(err, "--chains follows a program's wakeups, not a paced workload's pair: add --all, "
			 "--cgroup PATH, --pid PID or -- COMMAND, or give a throughput workload");
	/* a throughput workload's traced run is an attach run of the full engine: its chains from the stream */
	cr_assert_eq(PARSE("--workload", "executor", "--chains"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.chains && opts.design);
	cr_assert_eq(PARSE("--workload", "executor", "--chains", "--no-trace"), OPTIONS_BAD);
	cr_assert(strstr(err, "--no-trace traces nothing"), "%s", err);
}

Test(options, listing_workloads_needs_no_workload)
{
	cr_assert_eq(PARSE("--list-workloads"), OPTIONS_RUN);
	cr_assert(opts.list_workloads);
}

/* arrays, not pointers: Criterion copies parameters into each test's process */
struct bad_case {
	char args[6][32];
	char message[48];	/* a piece of the one-line error */
};

static struct bad_case bad_cases[] = {
	{ { "--samples", "10" }, "no workload given" },
	{ { "--workload", "nosuch" }, "unknown workload 'nosuch'" },
	{ { "--workload", "eventfd", "--samples", "0" }, "--samples wants a whole number" },
	{ { "--workload", "eventfd", "--samples", "-5" }, "not '-5'" },
	{ { "--workload", "eventfd", "--samples", "12x" }, "not '12x'" },
	{ { "--workload", "eventfd", "--samples", "99999999999999999999999" }, "--samples" },
	{ { "--workload", "eventfd", "--interval-us", "10000001" }, "--interval-us wants microseconds" },
	{ { "--workload", "eventfd", "--cpus", "1,1" }, "two different CPUs" },
	{ { "--workload", "eventfd", "--cpus", "0,4" }, "from 0 to 3" },
	{ { "--workload", "eventfd", "--cpus", "0" }, "--cpus" },
	{ { "--workload", "eventfd", "--ringbuf-kb", "100" }, "power of two" },
	{ { "--workload", "eventfd", "--outliers", "101" }, "--outliers wants a whole number from 0 to 100" },
	{ { "--workload", "eventfd", "--threshold-us", "fast" }, "--threshold-us wants microseconds" },
	{ { "--workload", "eventfd", "--bogus" }, "unknown option '--bogus'" },
	{ { "--workload", "eventfd", "extra" }, "unexpected argument 'extra'" },
	{ { "--workload" }, "--workload needs a value" },
	{ { "--workload", "a\nb" }, "unknown workload 'a\\x0ab'" },
	{ { "--workload", "eventfd", "--bogus\n" }, "unknown option '--bogus\\x0a'" },
	{ { "report" }, "report needs the recording to read" },
	{ { "--workload", "eventfd", "--timeout", "0" }, "--timeout wants seconds from 1" },
	{ { "--workload", "eventfd", "--timeout", "2h" }, "not '2h'" },
	{ { "--workload", "eventfd", "--user" }, "--user needs a value" },
	{ { "report", "run.wpr", "--user", "nobody" }, "--user is fixed by the recording" },
	{ { "report", "run.wpr", "--samples", "5" }, "--samples is fixed by the recording" },
	{ { "report", "run.wpr", "-c", "0,1" }, "-c is fixed by the recording" },
	{ { "report", "run.wpr", "-o", "x" }, "-o is for wakeprobe record" },
	{ { "record", "--workload", "eventfd" }, "record needs a file to write" },
	{ { "-o", "x", "--workload", "eventfd" }, "-o is for wakeprobe record -o FILE" },
	{ { "--workload", "eventfd", "--json", "out", "--csv", "out" }, "--json and --csv both name 'out'" },
	{ { "report", "run.wpr", "--json", "run.wpr" }, "the recording and --json both name 'run.wpr'" },
	{ { "--workload", "eventfd", "--json", "-", "--csv", "-" }, "--json and --csv both name '-'" },
	{ { "--pid", "12", "--", "sleep", "1" }, "--pid and -- COMMAND both name" },
	{ { "--workload", "eventfd", "--pid", "12" }, "--workload is for wakeprobe's own workloads" },
	{ { "--pid", "12", "--samples", "5" }, "--samples is for wakeprobe's own workloads" },
	{ { "-c", "0,1", "--", "true" }, "-c is for wakeprobe's own workloads: with --" },
	{ { "--workload", "eventfd", "--duration", "5" }, "--duration is for attach mode" },
	{ { "--workload", "eventfd", "--tid", "7" }, "--tid is for attach mode" },
	{ { "--pid", "0" }, "--pid wants up to 64 different ids from 1" },
	{ { "--pid", "12,12" }, "not '12,12'" },
	{ { "--pid", "12,,13" }, "not '12,,13'" },
	{ { "--pid", "4194305" }, "--pid wants" },
	{ { "--pid", "12", "--tid", "x" }, "--tid wants" },
	{ { "--pid", "12", "--duration", "0" }, "--duration wants seconds from 1" },
	{ { "--pid", "12", "--pairs", "0" }, "--pairs wants a whole number from 1 to 1000" },
	{ { "--pid", "12", "--order", "time" }, "--order wants 'count' or 'cost', not 'time'" },
	{ { "--workload", "eventfd", "--order", "cost" }, "--order is for attach mode" },
	{ { "--workload", "eventfd", "--" }, "-- needs a command to trace after it" },
	{ { "report", "run.wpr", "--pid", "12" }, "--pid is fixed by the recording" },
	{ { "report", "run.wpr", "--duration", "5" }, "--duration is fixed by the recording" },
	{ { "report", "run.wpr", "--timeout", "5" }, "takes --outliers, --threshold-us, --tid, --pairs" },
	{ { "report", "run.wpr", "--", "ls" }, "unexpected argument 'ls'" },
	{ { "--pid", "12", "--prometheus-every", "5" }, "--prometheus-every rewrites the --prometheus" },
	{ { "--pid", "12", "--prometheus", "-", "--prometheus-every", "5" }, "add --prometheus FILE" },
	{ { "--pid", "12", "--prometheus", "m", "--prometheus-every", "0" }, "--prometheus-every wants seconds" },
	{ { "--workload", "eventfd", "--prometheus-every", "5" }, "--prometheus-every is for attach mode" },
	{ { "report", "run.wpr", "--prometheus", "m", "--prometheus-every", "5" }, "for a live attach run" },
	{ { "--workload", "eventfd", "--json", "m", "--prometheus", "m" }, "--json and --prometheus both name 'm'" },
	{ { "--workload", "spawn", "--prometheus", "m" }, "--prometheus is for the paced paths" },
	{ { "--workload", "eventfd", "--lean", "--no-trace" }, "--lean is a way of tracing" },
	{ { "--workload", "eventfd", "--lean", "--perfetto", "t.json" }, "drop --lean for a timeline" },
	{ { "--workload", "spawn", "--lean", "--threshold-us", "50" }, "--threshold-us is for the paced paths" },
	{ { "--explain", "some" }, "--explain wants 'slow' or 'all', not 'some'" },
	{ { "--pid", "12", "--lean", "--explain", "all" }, "--lean and --explain all ask for two ways" },
	{ { "--pid", "12", "--explain", "all", "--explain", "slow" }, "--explain all and --explain slow ask" },
	{ { "--workload", "eventfd", "--explain", "all", "--no-trace" }, "--explain all is a way of tracing" },
	{ { "--pid", "12", "--explain", "slow", "--syscall-phases" }, "--explain slow traces no syscall" },
	{ { "report", "run.wpr", "--explain", "all" }, "--explain is fixed by the recording" },
	{ { "report", "run.wpr", "--lean" }, "--lean is fixed by the recording" },
	{ { "--pid", "12", "--lean", "--syscall-phases" }, "--lean traces no syscall and --syscall-phases" },
	{ { "--engine" }, "--engine needs a value" },
	{ { "--pid", "12", "--engine", "slow" }, "--engine wants 'lean' or 'full', not 'slow'" },
	{ { "--pid", "12", "--engine", "lean", "--engine", "full" }, "--engine lean and --engine full ask for two" },
	{ { "--pid", "12", "--engine", "full", "--lean" }, "--engine full and --lean ask for two ways" },
	{ { "--pid", "12", "--explain", "slow", "--engine", "full" }, "--explain slow and --engine full ask" },
	{ { "--pid", "12", "--engine", "lean", "--explain", "all" }, "--engine lean and --explain all ask" },
	{ { "--workload", "eventfd", "--engine", "lean", "--no-trace" }, "--engine lean is a way of tracing" },
	{ { "--workload", "eventfd", "--engine", "full", "--no-trace" }, "--engine full is a way of tracing" },
	{ { "--workload", "eventfd", "--engine", "lean", "--perfetto", "t" }, "drop --engine lean for a timeline" },
	{ { "--pid", "12", "--engine", "lean", "--syscall-phases" }, "--engine lean traces no syscall" },
	{ { "--workload", "cond", "--stacks", "--engine", "full" }, "which --engine full does not take: drop --en" },
	{ { "report", "run.wpr", "--engine", "full" }, "--engine is fixed by the recording" },
	{ { "--workload", "eventfd", "--syscall-phases" }, "--syscall-phases is for attach mode" },
	{ { "report", "run.wpr", "--syscall-phases" }, "--syscall-phases is fixed by the recording" },
	{ { "--all", "--pid", "12" }, "--all traces every task: drop --pid" },
	{ { "--all", "--cgroup", "/a" }, "--all traces every task: drop --cgroup" },
	{ { "--cgroup", "/a", "--pid", "12" }, "--cgroup and --pid both name what" },
	{ { "--cgroup", "/a,,/b" }, "--cgroup wants cgroup paths as A,B" },
	{ { "--all", "--explain", "all" }, "--all rides on the lean engine's records" },
	{ { "--all", "--engine", "full" }, "(the default): drop --engine full" },
	{ { "record", "-o", "r.wpr", "--all" }, "a recording keeps no cgroups: drop --all" },
	{ { "--all", "--listen", "127.0.0.1" }, "--listen" },
	{ { "--all", "--listen", ":99999" }, "--listen" },
	{ { "--all", "--listen", ":9750", "--stacks" }, "--listen runs for days" },
	{ { "--all", "--listen", ":9750", "--csv", "w.csv" }, "--csv would grow without end" },
	{ { "--listen", ":9750" }, "--listen is for attach mode: add --all" },
	{ { "--pid", "12", "--top", "5" }, "--top caps the series by cgroup" },
	{ { "--all", "--top", "0" }, "--top wants a whole number from 1 to 1000" },
	{ { "--all", "--workload", "eventfd" }, "is for wakeprobe's own workloads" },
	{ { "report", "run.wpr", "--top", "5" }, "--top is fixed by the recording" },
	{ { "--all", "--allow-host", "metrics.example" }, "--allow-host names what a scrape may call" },
	{ { "--all", "--listen", ":9750", "--allow-host", "a:80" }, "--allow-host wants host names" },
	{ { "--all", "--listen", ":9750", "--allow-host", "a,,b" }, "not 'a,,b'" },
	{ { "--all", "--listen", ":9750", "--allow-host", "x/y" }, "no port, no '/'" },
	{ { "--all", "--web-config", "web.yml" }, "--web-config secures what --listen serves" },
	{ { "--all", "--listen", ":9750", "--web-config", "" }, "--web-config needs a value" },
	{ { "--workload", "eventfd", "--web-config", "web.yml" }, "--web-config" },
	{ { "--pid", "12", "--target-label", "a\nb" }, "--target-label wants printable text" },
	{ { "--pid", "12", "--target-label", "a\x1f" "b" }, "--target-label wants printable text" },
	{ { "--pid", "12", "--output-mode", "0666" }, "not writable by others" },
	{ { "--pid", "12", "--output-mode", "0999" }, "not '0999'" },
	{ { "--pid", "12", "--output-mode", "0200" }, "the owner can read and write" },
	{ { "--pid", "12", "--output-mode", "-0600" }, "not '-0600'" },
	{ { "--pid", "12", "--output-mode", "1777" }, "not '1777'" },
	{ { "--pid", "12", "--debuginfod" }, "to name the stacks with: add --stacks" },
	{ { "--workload", "spawn", "--engine", "lean", "--stacks" }, "report has no stacks" },
};

ParameterizedTestParameters(options, bad_input_gets_one_line_naming_the_problem)
{
	return cr_make_param_array(struct bad_case, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, options, bad_input_gets_one_line_naming_the_problem)
{
	char *argv[8] = { "wakeprobe" };
	int argc = 1;

	while (argc < 7 && c->args[argc - 1][0])
		argv[argc] = c->args[argc - 1], argc++;
	cr_assert_eq(options__parse(&opts, argc, argv, NR_CPUS, out, err, sizeof(err)), OPTIONS_BAD);
	cr_assert(strstr(err, c->message), "error '%s' lacks '%s'", err, c->message);
	cr_assert_null(strchr(err, '\n'), "error must be one line: '%s'", err);
}

Test(options, attach_mode_takes_processes_threads_and_a_duration)
{
	cr_assert_eq(PARSE("--pid", "12,4194304", "--tid", "13", "--duration", "30", "--pairs", "3", "--outliers",
			   "2", "--order", "cost"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.order_by_cost);
	cr_assert(options__attach(&opts));
	cr_assert_eq(opts.nr_pids, 2);
	cr_assert_eq(opts.pids[0], 12);
	cr_assert_eq(opts.pids[1], 4194304);
	cr_assert_eq(opts.nr_tids, 1);
	cr_assert_eq(opts.tids[0], 13);
	cr_assert_eq(opts.duration_s, 30);
	cr_assert_eq(opts.pairs, 3);
	cr_assert_eq(opts.outliers, 2);
	cr_assert_null(opts.workload);
	cr_assert_null(opts.target_argv);
}

/* the command's argv is kept by reference, as main's argv lives as long as the run: these do too */
static char *command_args[] = { "wakeprobe", "--outliers", "3", "--", "sleep", "--help", "-n", "1", NULL };
static char *record_args[] = { "wakeprobe", "record", "-o", "x.wpr", "--", "true", NULL };

Test(options, everything_after_two_dashes_is_the_command_with_its_own_options)
{
	cr_assert_eq(options__parse(&opts, 8, command_args, NR_CPUS, out, err, sizeof(err)), OPTIONS_RUN, "%s", err);
	cr_assert(options__attach(&opts));
	cr_assert_eq(opts.nr_pids, 0);
	cr_assert_eq(opts.outliers, 3);
	cr_assert_not_null(opts.target_argv);
	cr_assert_str_eq(opts.target_argv[0], "sleep");
	cr_assert_str_eq(opts.target_argv[1], "--help");
	cr_assert_str_eq(opts.target_argv[2], "-n");
	cr_assert_str_eq(opts.target_argv[3], "1");
	cr_assert_null(opts.target_argv[4]);
	cr_assert_eq(opts.pairs, OPT_DEFAULT_PAIRS);
	cr_assert_not(opts.order_by_cost, "pairs by count unless asked");
	cr_assert_eq(opts.duration_s, 0);
	cr_assert_eq(options__parse(&opts, 6, record_args, NR_CPUS, out, err, sizeof(err)), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_RECORD);
	cr_assert_str_eq(opts.target_argv[0], "true");
}

Test(options, a_workload_run_is_not_in_attach_mode)
{
	cr_assert_eq(PARSE("--workload", "eventfd"), OPTIONS_RUN, "%s", err);
	cr_assert_not(options__attach(&opts));
}

/* wakeprobe kernel runs nothing and writes nothing: -v alone, anything else is one line naming it */
Test(options, kernel_takes_verbose_alone)
{
	cr_assert_eq(PARSE("kernel"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(opts.command, CMD_KERNEL);
	cr_assert_not(opts.verbose);
	cr_assert_eq(PARSE("kernel", "-v"), OPTIONS_RUN, "%s", err);
	cr_assert(opts.verbose);
	cr_assert_eq(PARSE("kernel", "--verbose"), OPTIONS_RUN, "%s", err);
	cr_assert_eq(PARSE("kernel", "--json", "k.json"), OPTIONS_BAD);
	cr_assert_str_eq(err, "wakeprobe kernel takes no argument but -v, not '--json'");
	cr_assert_eq(PARSE("kernel", "eventfd"), OPTIONS_BAD);
	cr_assert(strstr(err, "not 'eventfd'"), "%s", err);
}
