// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>
#include "catalog.h"
#include "options.h"
#include "parse.h"

enum {
	OPT_NO_TRACE = 256,
	OPT_LIST_WORKLOADS,
	OPT_RINGBUF_KB,
	OPT_VERSION,
	OPT_OUTLIERS,
	OPT_THRESHOLD_US,
	OPT_JSON,
	OPT_CSV,
	OPT_PERFETTO,
	OPT_TIMEOUT,
	OPT_USER,
};

/* options that say how to run a workload: a recording has them fixed */
#define RUN_ONLY_OPTIONS "wnic"

void options__usage(FILE *out)
{
	fprintf(out,
		"Usage: wakeprobe --workload NAME [options]\n"
		"       wakeprobe record -o FILE --workload NAME [options]\n"
		"       wakeprobe report FILE [--outliers K] [--threshold-us T] [outputs]\n"
		"\n"
		"Runs a small workload that exercises one wakeup path between two threads,\n"
		"traces the scheduler and syscalls while it runs, and splits each wakeup's\n"
		"latency into phases: notify_user, notify_kernel, wake_enqueue, runq_wait,\n"
		"resume_kernel, resume_user (docs/phases.md says what each one holds).\n"
		"\n"
		"  -w, --workload NAME     the wakeup path to measure (see --list-workloads), or\n"
		"                          'all': every path in turn, then one comparison table\n"
		"  -n, --samples N         wakeups to measure (default %d)\n"
		"  -i, --interval-us U     pause between wakeups in us, 0 for back to back (default %d)\n"
		"  -c, --cpus A,B          waker on CPU A, wakee on CPU B (default: two allowed CPUs)\n"
		"      --outliers K        explain the K slowest wakeups, cause by cause (default %d, 0: none)\n"
		"      --threshold-us T    ... among those at least T us slow (default 0)\n"
		"      --no-trace          run the same workload without tracing: totals only\n"
		"      --timeout S         stop a workload still running after S seconds (default: none)\n"
		"      --user NAME         run the workload as NAME; wakeprobe keeps root for BPF\n"
		"      --ringbuf-kb K      BPF ring buffer size in KiB, a power of two (default %d)\n"
		"      --list-workloads    list the wakeup paths and exit\n"
		"\n"
		"Outputs (FILE '-' is standard output, which then carries no text report):\n"
		"      --json FILE         the whole report as JSON (docs/json.md)\n"
		"      --csv FILE          one row per wakeup: its phases in ns and its label\n"
		"      --perfetto FILE     a timeline for ui.perfetto.dev or chrome://tracing\n"
		"  -o, --output FILE       record: where to save the run (docs/recording.md)\n"
		"\n"
		"  -v, --verbose           show libbpf's own messages\n"
		"  -h, --help              this text\n"
		"  -V, --version           print the version\n"
		"\n"
		"Examples:\n"
		"  sudo wakeprobe --workload eventfd\n"
		"  sudo wakeprobe --workload eventfd --samples 20000 --interval-us 200 --cpus 0,1\n"
		"  sudo wakeprobe --workload eventfd --interval-us 0     # back to back\n"
		"  sudo wakeprobe --workload all --samples 2000          # compare every path\n"
		"  sudo wakeprobe --workload cond --outliers 10 --threshold-us 200\n"
		"  wakeprobe --workload eventfd --no-trace               # no root needed\n"
		"  sudo wakeprobe record -o cond.wpr --workload cond     # measure and save\n"
		"  wakeprobe report cond.wpr --outliers 20 --perfetto cond.json   # no root needed\n",
		OPT_DEFAULT_SAMPLES, OPT_DEFAULT_INTERVAL_US, OPT_DEFAULT_OUTLIERS, OPT_DEFAULT_RINGBUF_KB);
}

/*
 * shown - @arg as a one-line message may quote it: control and non-ASCII
 * bytes escaped, cut after SHOWN_MAX bytes. Two buffers, so that one
 * message can quote two arguments.
 */
#define SHOWN_MAX 48

static const char *shown(const char *arg)
{
	static char bufs[2][SHOWN_MAX * 4 + 4];
	static unsigned int which;
	char *out = bufs[which++ & 1];
	size_t n = 0, i;

	for (i = 0; arg[i] && i < SHOWN_MAX; i++) {
		unsigned char c = (unsigned char)arg[i];

		if (c >= 0x20 && c < 0x7f)
			out[n++] = (char)c;
		else
			n += (size_t)sprintf(out + n, "\\x%02x", c);
	}
	if (arg[i])
		n += (size_t)sprintf(out + n, "...");
	out[n] = '\0';
	return out;
}

/* check_outputs - at most one output on stdout, no file written twice, none over the recording read */
static enum options_result check_outputs(const struct wp_options *o, char *err, size_t errlen)
{
	const char *paths[] = { o->report_path, o->record_path, o->json_path, o->csv_path, o->perfetto_path };
	const char *names[] = { "the recording", "-o", "--json", "--csv", "--perfetto" };
	size_t i, j, n = sizeof(paths) / sizeof(paths[0]);

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			/* "-" is stdin for the recording, stdout for an output: only two outputs clash there */
			if (paths[i] && paths[j] && !strcmp(paths[i], paths[j]) && (i || strcmp(paths[i], "-"))) {
				snprintf(err, errlen, "%s and %s both name '%s': give each output its own file",
					 names[i], names[j], shown(paths[i]));
				return OPTIONS_BAD;
			}
	return OPTIONS_RUN;
}

enum options_result options__parse(struct wp_options *o, int argc, char **argv, int nr_cpus,
				   FILE *out, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "samples", required_argument, NULL, 'n' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
		{ "ringbuf-kb", required_argument, NULL, OPT_RINGBUF_KB },
		{ "outliers", required_argument, NULL, OPT_OUTLIERS },
		{ "threshold-us", required_argument, NULL, OPT_THRESHOLD_US },
		{ "list-workloads", no_argument, NULL, OPT_LIST_WORKLOADS },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "perfetto", required_argument, NULL, OPT_PERFETTO },
		{ "output", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "user", required_argument, NULL, OPT_USER },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char run_option[32] = "";	/* the first option that only a run takes, as named */
	int opt, longindex = -1;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->samples = OPT_DEFAULT_SAMPLES;
	o->interval_us = OPT_DEFAULT_INTERVAL_US;
	o->ringbuf_kb = OPT_DEFAULT_RINGBUF_KB;
	o->outliers = OPT_DEFAULT_OUTLIERS;
	o->waker_cpu = -1;
	o->wakee_cpu = -1;

	if (argc > 1 && !strcmp(argv[1], "record"))
		o->command = CMD_RECORD;
	else if (argc > 1 && !strcmp(argv[1], "report"))
		o->command = CMD_REPORT;
	if (o->command != CMD_RUN) {
		/* the command word is not an option: parse what follows it */
		argc--;
		argv++;
	}

	optind = 0;	/* GNU: start over, so the parser can run more than once */
	opterr = 0;	/* the messages below name the option and the fix */
	while ((opt = getopt_long(argc, argv, ":w:n:i:c:o:vhV", longopts, &longindex)) != -1) {
		if (!run_option[0] && (strchr(RUN_ONLY_OPTIONS, opt) || opt == OPT_NO_TRACE ||
				       opt == OPT_RINGBUF_KB || opt == OPT_LIST_WORKLOADS || opt == OPT_TIMEOUT ||
				       opt == OPT_USER)) {
			if (longindex >= 0)
				snprintf(run_option, sizeof(run_option), "--%s", longopts[longindex].name);
			else
				snprintf(run_option, sizeof(run_option), "-%c", opt);
		}
		longindex = -1;
		switch (opt) {
		case 'w':
			o->workload = optarg;
			break;
		case 'n':
			if (parse_u64(optarg, 1, OPT_MAX_SAMPLES, &o->samples)) {
				snprintf(err, errlen, "--samples wants a whole number from 1 to %llu, not '%s'",
					 OPT_MAX_SAMPLES, shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case 'i':
			if (parse_u64(optarg, 0, OPT_MAX_INTERVAL_US, &o->interval_us)) {
				snprintf(err, errlen, "--interval-us wants microseconds from 0 to %llu, not '%s'",
					 OPT_MAX_INTERVAL_US, shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case 'c':
			if (parse_cpu_pair(optarg, nr_cpus, &o->waker_cpu, &o->wakee_cpu)) {
				snprintf(err, errlen, "--cpus wants two different CPUs from 0 to %d as A,B, not '%s'",
					 nr_cpus - 1, shown(optarg));
				return OPTIONS_BAD;
			}
			break;
		case OPT_NO_TRACE:
			o->no_trace = true;
			break;
		case OPT_RINGBUF_KB:
			if (parse_u64(optarg, 4, 1u << 20, &v) || (v & (v - 1))) {
				snprintf(err, errlen, "--ringbuf-kb wants a power of two from 4 to 1048576, not '%s'",
					 shown(optarg));
				return OPTIONS_BAD;
			}
			o->ringbuf_kb = (uint32_t)v;
			break;
		case OPT_OUTLIERS:
			if (parse_u64(optarg, 0, OPT_MAX_OUTLIERS, &v)) {
				snprintf(err, errlen, "--outliers wants a whole number from 0 to %d, not '%s'",
					 OPT_MAX_OUTLIERS, shown(optarg));
				return OPTIONS_BAD;
			}
			o->outliers = (uint32_t)v;
			break;
		case OPT_THRESHOLD_US:
			if (parse_u64(optarg, 0, OPT_MAX_THRESHOLD_US, &o->threshold_us)) {
				snprintf(err, errlen, "--threshold-us wants microseconds from 0 to %llu, not '%s'",
					 OPT_MAX_THRESHOLD_US, shown(optarg));
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
		case 'o':
			o->record_path = optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_u64(optarg, 1, OPT_MAX_TIMEOUT_S, &o->timeout_s)) {
				snprintf(err, errlen, "--timeout wants seconds from 1 to %llu, not '%s'", OPT_MAX_TIMEOUT_S,
					 shown(optarg));
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
			snprintf(err, errlen, "%s needs a value", shown(argv[optind - 1]));
			return OPTIONS_BAD;
		default:
			snprintf(err, errlen, "unknown option '%s'", shown(argv[optind - 1]));
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
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", shown(argv[optind]));
		return OPTIONS_BAD;
	}
	if (o->command == CMD_REPORT) {
		if (run_option[0]) {
			snprintf(err, errlen, "%s is fixed by the recording: report takes --outliers, --threshold-us, "
				 "--json, --csv and --perfetto", run_option);
			return OPTIONS_BAD;
		}
		if (o->record_path) {
			snprintf(err, errlen, "-o is for wakeprobe record: report writes --json, --csv or --perfetto");
			return OPTIONS_BAD;
		}
		return check_outputs(o, err, errlen);
	}
	if (o->command == CMD_RECORD && !o->record_path) {
		snprintf(err, errlen, "record needs a file to write: wakeprobe record -o FILE --workload NAME");
		return OPTIONS_BAD;
	}
	if (o->command == CMD_RUN && o->record_path) {
		snprintf(err, errlen, "-o is for wakeprobe record -o FILE; a run writes --json, --csv or --perfetto");
		return OPTIONS_BAD;
	}
	if (o->list_workloads)
		return OPTIONS_RUN;
	if (!o->workload) {
		snprintf(err, errlen, "no workload given: add --workload NAME (--list-workloads shows them)");
		return OPTIONS_BAD;
	}
	if (strcmp(o->workload, "all") && !catalog__find(o->workload)) {
		snprintf(err, errlen, "unknown workload '%s': --list-workloads shows the known ones",
			 shown(o->workload));
		return OPTIONS_BAD;
	}
	return check_outputs(o, err, errlen);
}
