// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"
#include "cgroup_stats.h"
#include "designs.h"
#include "http_server.h"
#include "options_internal.h"
#include "options.h"
#include "parse.h"
#include "recording.h"

_Static_assert(OPT_MAX_TARGETS <= REC_MAX_PIDS, "a recording's ATTACH_BEGIN holds every --pid");

/* getopt's value for each option that has no letter of its own */
enum {
	KEY_NO_TRACE = 256,
	KEY_LIST_WORKLOADS,
	KEY_RINGBUF_KB,
	KEY_OUTLIERS,
	KEY_THRESHOLD_US,
	KEY_JSON,
	KEY_CSV,
	KEY_PERFETTO,
	KEY_PLOT,
	KEY_TIMEOUT,
	KEY_USER,
	KEY_PID,
	KEY_TID,
	KEY_DURATION,
	KEY_PAIRS,
	KEY_ORDER,
	KEY_MODE,
	KEY_PROMETHEUS,
	KEY_PROMETHEUS_EVERY,
	KEY_LEAN,
	KEY_EXPLAIN,
	KEY_ENGINE,
	KEY_SYSCALL_PHASES,
	KEY_SOFTIRQS,
	KEY_STACKS,
	KEY_FOLDED,
	KEY_ALL,
	KEY_CGROUP,
	KEY_LISTEN,
	KEY_TOP,
	KEY_ALLOW_HOST,
	KEY_WEB_CONFIG,
	KEY_TARGET_LABEL,
	KEY_OUTPUT_MODE,
	KEY_DEBUGINFOD,
	KEY_UNWIND,
	KEY_CHAINS,
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

/* how an option's value goes into struct wp_options */
enum opt_store {
	STORE_BOOL,		/* a flag: its field becomes true */
	STORE_STRING,		/* the argument, kept by reference: argv lives as long as the run */
	STORE_U64,		/* a whole number from .min to .max, into a uint64_t */
	STORE_U32,		/* ... into a uint32_t */
	STORE_CALLBACK,		/* .parse takes it: a list, a word, or more than one field */
};

struct parse_state;

/* option_parse_fn - take @arg (NULL for a flag) into @ps's options: OPTIONS_BAD with its err filled */
typedef enum options_result option_parse_fn(struct parse_state *ps, const char *arg);

/*
 * Every option, once: getopt_long's table, the short-option string, --help,
 * the check of what `report` takes, and where each value is stored are all
 * made from this.
 */
struct option_spec {
	const char *name;
	int key;		/* the short option's letter, or a KEY_* above 255 */
	const char *arg;	/* the argument's name in --help; NULL: takes none */
	enum opt_group group;
	/* says how to run a workload, so a recording has it fixed: `report` refuses it */
	bool run_only;
	enum opt_mode mode;	/* a live run: what it goes with */
	const char *help;	/* a '\n' starts a continuation line */
	/* only the paced paths and attach mode take it: a throughput workload (designs.h) refuses it */
	bool not_for_designs;
	bool hidden;		/* an older spelling, still taken: --help names it in its new one's text */
	enum opt_store store;
	size_t field;		/* STORE_BOOL to STORE_U32: where in struct wp_options */
	uint64_t min, max;	/* STORE_U64, STORE_U32: the range taken */
	const char *wants;	/* ... and what the number is, as the refusal says it: "seconds" */
	option_parse_fn *parse;	/* STORE_CALLBACK */
};

/* what the walk of the command line keeps besides the options: the firsts of each kind given, for the checks */
struct parse_state {
	struct wp_options *o;
	int nr_cpus;			/* bounds --cpus */
	FILE *out;			/* --help and --version */
	char *err;
	size_t errlen;
	const struct option_spec *spec;	/* the option being taken */
	char as_given[32];		/* ... as named: "--samples" (abbreviations in full), "-n" */
	char run_option[32];		/* the first option that only a run takes, as named */
	char workload_option[32];	/* ... that only a workload run takes */
	char attach_option[32];		/* ... that only attach mode takes */
	char paced_option[32];		/* ... that a throughput workload does not take */
	char engine_given[48];		/* --engine, --explain or --lean, as given: "--explain all" */
};

/* refuse - the one line that says what is wrong and how to put it right, into @ps's err */
__attribute__((format(printf, 2, 3))) static enum options_result refuse(struct parse_state *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	return OPTIONS_BAD;
}

static enum options_result parse_cpus(struct parse_state *ps, const char *arg)
{
	if (parse__cpu_pair(arg, ps->nr_cpus, &ps->o->waker_cpu, &ps->o->wakee_cpu))
		return refuse(ps, "--cpus wants two different CPUs from 0 to %d as A,B, not '%s'", ps->nr_cpus - 1,
			      parse__shown(arg));
	return OPTIONS_RUN;
}

/*
 * take_engine - the engine asked for, @given naming it as typed: the same
 * one each time it is asked, in whichever spelling
 */
static enum options_result take_engine(struct parse_state *ps, enum opt_engine e, const char *given)
{
	if (ps->o->engine != ENGINE_DEFAULT && ps->o->engine != e)
		return refuse(ps, "%s and %s ask for two ways of tracing: give one of them", ps->engine_given, given);
	ps->o->engine = e;
	snprintf(ps->engine_given, sizeof(ps->engine_given), "%s", given);
	return OPTIONS_RUN;
}

static enum options_result parse_engine(struct parse_state *ps, const char *arg)
{
	char given[sizeof(ps->engine_given)];

	if (strcmp(arg, "lean") && strcmp(arg, "full"))
		return refuse(ps, "--engine wants 'lean' or 'full', not '%s'", parse__shown(arg));
	snprintf(given, sizeof(given), "%s %s", ps->as_given, arg);
	return take_engine(ps, !strcmp(arg, "lean") ? ENGINE_LEAN : ENGINE_FULL, given);
}

/* parse_explain - --explain slow|all, the older spelling of --engine lean|full: scripts still type it */
static enum options_result parse_explain(struct parse_state *ps, const char *arg)
{
	char given[sizeof(ps->engine_given)];

	if (strcmp(arg, "slow") && strcmp(arg, "all"))
		return refuse(ps, "--explain wants 'slow' or 'all', not '%s'", parse__shown(arg));
	snprintf(given, sizeof(given), "%s %s", ps->as_given, arg);
	return take_engine(ps, !strcmp(arg, "slow") ? ENGINE_LEAN : ENGINE_FULL, given);
}

/* parse_lean - --lean, the older spelling of --engine lean */
static enum options_result parse_lean(struct parse_state *ps, const char *arg)
{
	(void)arg;
	return take_engine(ps, ENGINE_LEAN, ps->as_given);
}

/* parse_folded - --folded FILE: an output made of the stacks, so it takes them */
static enum options_result parse_folded(struct parse_state *ps, const char *arg)
{
	ps->o->folded_path = arg;
	ps->o->stacks = true;
	return OPTIONS_RUN;
}

/* parse_ringbuf_kb - --ringbuf-kb K: a size that stands, not the run's own (options.h) */
static enum options_result parse_ringbuf_kb(struct parse_state *ps, const char *arg)
{
	uint64_t v;

	if (parse__u64(arg, 4, 1u << 20, &v) || (v & (v - 1)))
		return refuse(ps, "--ringbuf-kb wants a power of two from 4 to 1048576, not '%s'", parse__shown(arg));
	ps->o->ringbuf_kb = (uint32_t)v;
	ps->o->ringbuf_given = true;
	return OPTIONS_RUN;
}

/* parse_unwind - --unwind N|off: how many wakeups a second beyond the slow ones have their stacks unwound */
static enum options_result parse_unwind(struct parse_state *ps, const char *arg)
{
	uint64_t v;

	ps->o->unwind_given = true;
	if (!strcmp(arg, "off")) {
		ps->o->unwind_off = true;
		return OPTIONS_RUN;
	}
	if (parse__u64(arg, 0, OPT_MAX_UNWIND, &v))
		return refuse(ps, "--unwind wants wakeups a second from 0 to %d, or 'off', not '%s'", OPT_MAX_UNWIND,
			      parse__shown(arg));
	ps->o->unwind_off = false;
	ps->o->unwind_per_s = (uint32_t)v;
	return OPTIONS_RUN;
}

static enum options_result parse_user(struct parse_state *ps, const char *arg)
{
	if (!arg[0])
		return refuse(ps, "--user wants a user name or number");
	ps->o->user = arg;
	return OPTIONS_RUN;
}

/* take_ids - --pid or --tid's list into @ids, its length into @nr */
static enum options_result take_ids(struct parse_state *ps, const char *arg, int32_t *ids, uint32_t *nr)
{
	size_t count;

	if (parse__id_list(arg, OPT_MAX_ID, ids, OPT_MAX_TARGETS, &count))
		return refuse(ps, "--%s wants up to %d different ids from 1 to %d, as A,B,..., not '%s'",
			      ps->spec->name, OPT_MAX_TARGETS, OPT_MAX_ID, parse__shown(arg));
	*nr = (uint32_t)count;
	return OPTIONS_RUN;
}

static enum options_result parse_pids(struct parse_state *ps, const char *arg)
{
	return take_ids(ps, arg, ps->o->pids, &ps->o->nr_pids);
}

static enum options_result parse_tids(struct parse_state *ps, const char *arg)
{
	return take_ids(ps, arg, ps->o->tids, &ps->o->nr_tids);
}

/* parse_cgroups - --cgroup A,B: kept as given, each path found once the run starts (mode_attach.c) */
static enum options_result parse_cgroups(struct parse_state *ps, const char *arg)
{
	if (!arg[0] || arg[0] == ',' || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',')
		return refuse(ps, "--cgroup wants cgroup paths as A,B,..., not '%s'", parse__shown(arg));
	ps->o->cgroups = arg;
	return OPTIONS_RUN;
}

/* parse_listen - what can be told of the address without binding it: bad usage, before anything loads */
static enum options_result parse_listen(struct parse_state *ps, const char *arg)
{
	struct http_listen at;

	if (http_server__parse_listen(arg, &at, ps->err, ps->errlen))
		return OPTIONS_BAD;
	ps->o->listen = arg;
	return OPTIONS_RUN;
}

/* parse_allow_host - --allow-host NAME[,NAME...]: each a name a Host header may give (http_server.h) */
static enum options_result parse_allow_host(struct parse_state *ps, const char *arg)
{
	if (!arg[0] || arg[0] == ',' || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',' || strpbrk(arg, ":/ ") ||
	    strlen(arg) > OPT_MAX_ALLOW_HOSTS_LEN)
		return refuse(ps, "--allow-host wants host names as A,B,... (no port, no '/'), not '%s'",
			      parse__shown(arg));
	ps->o->allow_hosts = arg;
	return OPTIONS_RUN;
}

/*
 * parse_web_config - --web-config FILE: its name, for the run to read
 * (mode_attach.c) before anything loads; what is in it is not usage
 */
static enum options_result parse_web_config(struct parse_state *ps, const char *arg)
{
	/* an empty one is refused before, as every option's ("needs a value") */
	ps->o->web_config = arg;
	return OPTIONS_RUN;
}

/* parse_target_label - --target-label TEXT: published as it is, so it must be printable and one line */
static enum options_result parse_target_label(struct parse_state *ps, const char *arg)
{
	size_t n = strlen(arg);

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)arg[i] < 0x20 || arg[i] == 0x7f)
			n = 0;
	if (!n || n > OPT_MAX_TARGET_LABEL)
		return refuse(ps, "--target-label wants printable text of 1 to %d bytes, not '%s'",
			      OPT_MAX_TARGET_LABEL, parse__shown(arg));
	ps->o->target_label = arg;
	return OPTIONS_RUN;
}

/*
 * parse_output_mode - --output-mode MODE: octal, as chmod(1) takes it; never
 * writable by others, as outfile__set_new_mode() requires
 */
static enum options_result parse_output_mode(struct parse_state *ps, const char *arg)
{
	char *end = NULL;
	unsigned long mode = strtoul(arg, &end, 8);

	if (!arg[0] || *end || arg[0] == '-' || arg[0] == '+' || mode > 0777 || (mode & 0002) ||
	    (mode & 0600) != 0600)
		return refuse(ps, "--output-mode wants an octal mode the owner can read and write, not writable by "
			      "others (0600, 0640, 0644), not '%s'", parse__shown(arg));
	ps->o->output_mode = (uint32_t)mode;
	return OPTIONS_RUN;
}

static enum options_result parse_order(struct parse_state *ps, const char *arg)
{
	if (strcmp(arg, "count") && strcmp(arg, "cost"))
		return refuse(ps, "--order wants 'count' or 'cost', not '%s'", parse__shown(arg));
	ps->o->order_by_cost = !strcmp(arg, "cost");
	return OPTIONS_RUN;
}

static enum options_result parse_help(struct parse_state *ps, const char *arg)
{
	(void)arg;
	options__usage(ps->out);
	return OPTIONS_DONE;
}

static enum options_result parse_version(struct parse_state *ps, const char *arg)
{
	(void)arg;
	fprintf(ps->out, "wakeprobe %s\n", WAKEPROBE_VERSION);
	return OPTIONS_DONE;
}

/* offsetof(struct wp_options, f), which the build refuses unless the field is of type t */
#define FIELD(f, t)                                                                                          \
	(offsetof(struct wp_options, f) +                                                                   \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((struct wp_options *)0)->f), t) ? 1 : -1]))

/* an option's name, its key, its argument's name in --help, and how its value is stored */
#define OPT_BOOLEAN(name_, key_, field_) \
	.name = name_, .key = key_, .store = STORE_BOOL, .field = FIELD(field_, bool)
#define OPT_STRING(name_, key_, arg_, field_) \
	.name = name_, .key = key_, .arg = arg_, .store = STORE_STRING, .field = FIELD(field_, const char *)
#define OPT_U64(name_, key_, arg_, field_, min_, max_, wants_)                                            \
	.name = name_, .key = key_, .arg = arg_, .store = STORE_U64, .field = FIELD(field_, uint64_t),     \
	.min = min_, .max = max_, .wants = wants_
#define OPT_U32(name_, key_, arg_, field_, min_, max_, wants_)                                            \
	.name = name_, .key = key_, .arg = arg_, .store = STORE_U32, .field = FIELD(field_, uint32_t),     \
	.min = min_, .max = max_, .wants = wants_
#define OPT_CALLBACK(name_, key_, arg_, parse_) \
	.name = name_, .key = key_, .arg = arg_, .store = STORE_CALLBACK, .parse = parse_

static const struct option_spec specs[] = {
	{ OPT_STRING("workload", 'w', "NAME", workload), .group = GROUP_RUN, .run_only = true, .mode = MODE_WORKLOAD,
	  .help = "the wakeup path to measure (see --list-workloads), or\n"
		  "'all': every path in turn, then one comparison table" },
	{ OPT_STRING("mode", KEY_MODE, "M[,M...]", modes), .group = GROUP_RUN, .run_only = true,
	  .mode = MODE_WORKLOAD,
	  .help = "a throughput workload's modes (default: each in turn);\n"
		  "its own options go after --: --workload spawn -- --count 50" },
	{ OPT_U64("samples", 'n', "N", samples, 1, OPT_MAX_SAMPLES, "a whole number"), .group = GROUP_RUN,
	  .run_only = true, .mode = MODE_WORKLOAD, .not_for_designs = true,
	  .help = "wakeups to measure (default " STR(OPT_DEFAULT_SAMPLES) ")" },
	{ OPT_U64("interval-us", 'i', "U", interval_us, 0, OPT_MAX_INTERVAL_US, "microseconds"), .group = GROUP_RUN,
	  .run_only = true, .mode = MODE_WORKLOAD, .not_for_designs = true,
	  .help = "pause between wakeups in us, 0 for back to back (default " STR(OPT_DEFAULT_INTERVAL_US) ")" },
	{ OPT_CALLBACK("cpus", 'c', "A,B", parse_cpus), .group = GROUP_RUN, .run_only = true, .mode = MODE_WORKLOAD,
	  .help = "waker on CPU A, wakee on CPU B (default: two allowed CPUs)" },
	{ OPT_U32("outliers", KEY_OUTLIERS, "K", outliers, 0, OPT_MAX_OUTLIERS, "a whole number"), .group = GROUP_RUN,
	  .not_for_designs = true,
	  .help = "explain the K slowest wakeups, cause by cause (default " STR(OPT_DEFAULT_OUTLIERS) ", 0: none)" },
	{ OPT_U64("threshold-us", KEY_THRESHOLD_US, "T", threshold_us, 0, OPT_MAX_THRESHOLD_US, "microseconds"),
	  .group = GROUP_RUN, .not_for_designs = true,
	  .help = "... among those at least T us slow (default 0)" },
	{ OPT_CALLBACK("engine", KEY_ENGINE, "lean|full", parse_engine), .group = GROUP_RUN, .run_only = true,
	  .help = "lean: pair each wakeup in the kernel, one record each,\n"
		  "and split by cause only the slow ones (over the running\n"
		  "p99 of their kind, or --threshold-us; none with\n"
		  "--outliers 0) from their CPUs' last switches, interrupts\n"
		  "and idle transitions; a workload's syscalls split its\n"
		  "notify and resume. full: stream every switch, syscall and\n"
		  "interrupt and split every wakeup (default: lean; full\n"
		  "with --syscall-phases, a paced workload's --perfetto,\n"
		  "or a throughput workload); as before, --explain slow\n"
		  "and --lean mean lean, --explain all full" },
	{ OPT_CALLBACK("explain", KEY_EXPLAIN, "slow|all", parse_explain), .group = GROUP_RUN, .run_only = true,
	  .hidden = true },
	{ OPT_CALLBACK("lean", KEY_LEAN, NULL, parse_lean), .group = GROUP_RUN, .run_only = true, .hidden = true },
	{ OPT_BOOLEAN("stacks", KEY_STACKS, stacks), .group = GROUP_RUN, .run_only = true,
	  .help = "each wakeup's stacks, kernel and user: the waker's where\n"
		  "it woke the wakee, the wakee's where it went to sleep;\n"
		  "the busiest pairs (a workload: its path) show their most\n"
		  "frequent and costliest, futex words are named; user\n"
		  "stacks are walked by frame pointers, and unwound by\n"
		  ".eh_frame from copies where those stop short (--unwind)" },
	{ OPT_CALLBACK("unwind", KEY_UNWIND, "N|off", parse_unwind), .group = GROUP_RUN, .run_only = true,
	  .help = "with --stacks, copy the user stacks of the slow wakeups\n"
		  "(up to 1000 a second) and of N a second of the others\n"
		  "(default " STR(OPT_DEFAULT_UNWIND) "), up to 8 KiB each, and unwind them by the\n"
		  "objects' call frame information, through code without\n"
		  "frame pointers; off: frame pointers alone" },
	{ OPT_BOOLEAN("debuginfod", KEY_DEBUGINFOD, debuginfod), .group = GROUP_RUN, .run_only = true,
	  .help = "with --stacks, ask the servers DEBUGINFOD_URLS names for\n"
		  "debug files /usr/lib/debug lacks (off by default: a root\n"
		  "tool fetches nothing a traced file points it to unasked)" },
	{ OPT_BOOLEAN("no-trace", KEY_NO_TRACE, no_trace), .group = GROUP_RUN, .run_only = true,
	  .mode = MODE_WORKLOAD, .help = "run the same workload without tracing: totals only" },
	{ OPT_U64("timeout", KEY_TIMEOUT, "S", timeout_s, 1, OPT_MAX_TIMEOUT_S, "seconds"), .group = GROUP_RUN,
	  .run_only = true, .help = "stop a workload still running after S seconds (default: none)" },
	{ OPT_CALLBACK("user", KEY_USER, "NAME", parse_user), .group = GROUP_RUN, .run_only = true,
	  .help = "run the workload as NAME; wakeprobe keeps root for BPF" },
	{ OPT_CALLBACK("ringbuf-kb", KEY_RINGBUF_KB, "K", parse_ringbuf_kb), .group = GROUP_RUN, .run_only = true,
	  .help = "BPF ring in KiB, a power of two (default " STR(OPT_DEFAULT_RINGBUF_KB) ", more for a workload run)" },
	{ OPT_BOOLEAN("list-workloads", KEY_LIST_WORKLOADS, list_workloads), .group = GROUP_RUN, .run_only = true,
	  .help = "list the wakeup paths and exit" },
	{ OPT_CALLBACK("pid", KEY_PID, "PID[,PID...]", parse_pids), .group = GROUP_ATTACH, .run_only = true,
	  .mode = MODE_ATTACH, .help = "trace these processes, every thread, new ones too" },
	{ OPT_BOOLEAN("all", KEY_ALL, all), .group = GROUP_ATTACH, .run_only = true, .mode = MODE_ATTACH,
	  .help = "trace every task of the machine, each wakeup labelled\n"
		  "with its cgroups (docs/fleet.md)" },
	{ OPT_CALLBACK("cgroup", KEY_CGROUP, "PATH[,PATH...]", parse_cgroups), .group = GROUP_ATTACH,
	  .run_only = true, .mode = MODE_ATTACH,
	  .help = "trace the tasks of these cgroups (v2) and of those below\n"
		  "them, made before the run or during it: /system.slice,\n"
		  "or a directory under the cgroup2 mount" },
	{ OPT_CALLBACK("listen", KEY_LISTEN, "ADDR:PORT", parse_listen), .group = GROUP_ATTACH, .run_only = true,
	  .mode = MODE_ATTACH,
	  .help = "serve /metrics there for Prometheus while tracing, until\n"
		  "SIGTERM (SIGHUP rewrites --json and --prometheus files)" },
	{ OPT_CALLBACK("allow-host", KEY_ALLOW_HOST, "NAME[,NAME...]", parse_allow_host), .group = GROUP_ATTACH,
	  .run_only = true, .mode = MODE_ATTACH,
	  .help = "with --listen, answer scrapes that name the machine so\n"
		  "too (a DNS alias); its addresses, localhost and its own\n"
		  "names are answered, any other Host is refused" },
	{ OPT_CALLBACK("web-config", KEY_WEB_CONFIG, "FILE", parse_web_config), .group = GROUP_ATTACH,
	  .run_only = true, .mode = MODE_ATTACH,
	  .help = "with --listen, serve HTTPS and ask a password as FILE\n"
		  "says, in node_exporter's --web.config.file format:\n"
		  "tls_server_config (cert_file, key_file, min_version)\n"
		  "and basic_auth_users (USER: bcrypt hash); SIGHUP reads\n"
		  "it again (docs/fleet.md)" },
	{ OPT_U32("top", KEY_TOP, "K", top, 1, CGROUP_STATS_MAX_TOP, "a whole number"), .group = GROUP_ATTACH,
	  .run_only = true, .mode = MODE_ATTACH,
	  .help = "cgroups and cgroup pairs with a series of their own, the\n"
		  "K with the most time; the rest go to 'other' (default " STR(CGROUP_STATS_TOP) ")" },
	{ OPT_CALLBACK("tid", KEY_TID, "TID[,TID...]", parse_tids), .group = GROUP_ATTACH, .mode = MODE_ATTACH,
	  .help = "... only the wakeups of these threads" },
	{ OPT_U64("duration", KEY_DURATION, "S", duration_s, 1, OPT_MAX_DURATION_S, "seconds"), .group = GROUP_ATTACH,
	  .run_only = true, .mode = MODE_ATTACH,
	  .help = "stop after S seconds (default: when the command ends;\n"
		  "with --pid, at Ctrl-C or when every target has exited)" },
	{ OPT_U32("pairs", KEY_PAIRS, "K", pairs, 1, OPT_MAX_PAIRS, "a whole number"), .group = GROUP_ATTACH,
	  .mode = MODE_ATTACH,
	  .help = "show the K busiest waker -> wakee pairs (default " STR(OPT_DEFAULT_PAIRS) ")" },
	{ OPT_BOOLEAN("syscall-phases", KEY_SYSCALL_PHASES, syscall_phases), .group = GROUP_ATTACH, .run_only = true,
	  .mode = MODE_ATTACH,
	  .help = "time notify_kernel and resume_kernel: a BPF program on\n"
		  "every syscall of every process on the machine (the cost\n"
		  "grows with the machine's syscall rate, not the targets')" },
	{ OPT_BOOLEAN("softirqs", KEY_SOFTIRQS, softirqs), .group = GROUP_ATTACH, .run_only = true,
	  .mode = MODE_ATTACH,
	  .help = "with the lean engine, the flight recorder keeps softirqs\n"
		  "too, so a slow wakeup's softirq time is named: two BPF\n"
		  "programs on every softirq of the machine (a loopback\n"
		  "server runs a dozen a wakeup; the full engine has them)" },
	{ OPT_BOOLEAN("chains", KEY_CHAINS, chains), .group = GROUP_ATTACH, .run_only = true,
	  .help = "follow each wakeup back through its wakers, hop by hop\n"
		  "(4 at most): what each waker ran, how long it waited\n"
		  "for a CPU and behind whom, and who woke it; the slow\n"
		  "wakeups show the chain to their cause. Attach mode and\n"
		  "the throughput workloads. The lean engine carries the\n"
		  "links in its records: about a fifth more BPF time a\n"
		  "wakeup and three times the ring bytes, so it is not\n"
		  "the default; the full engine builds them from its\n"
		  "stream and holds them against the kernel's, whose\n"
		  "programs run beside it (docs/attach.md)" },
	{ OPT_CALLBACK("order", KEY_ORDER, "count|cost", parse_order), .group = GROUP_ATTACH, .mode = MODE_ATTACH,
	  .help = "pairs and futex words with the most wakeups first (count,\n"
		  "the default), or the most time (cost: wake-to-run, waited)" },
	{ OPT_STRING("json", KEY_JSON, "FILE", json_path), .group = GROUP_OUTPUT,
	  .help = "the whole report as JSON (docs/json.md)" },
	{ OPT_STRING("csv", KEY_CSV, "FILE", csv_path), .group = GROUP_OUTPUT, .not_for_designs = true,
	  .help = "one row per wakeup: its phases in ns and its label" },
	{ OPT_STRING("perfetto", KEY_PERFETTO, "FILE", perfetto_path), .group = GROUP_OUTPUT, .not_for_designs = true,
	  .help = "a timeline for ui.perfetto.dev or chrome://tracing" },
	{ OPT_STRING("plot", KEY_PLOT, "FILE", plot_path), .group = GROUP_OUTPUT, .not_for_designs = true,
	  .help = "an SVG picture: each phase's latency and its tail, the\n"
		  "paths side by side, or attach mode's busiest pairs" },
	{ OPT_CALLBACK("folded", KEY_FOLDED, "FILE", parse_folded), .group = GROUP_OUTPUT, .run_only = true,
	  .help = "folded stacks (implies --stacks), wakee and\n"
		  "waker joined, weighted by wake-to-run in ns, for\n"
		  "flamegraph.pl, inferno-flamegraph or speedscope" },
	{ OPT_STRING("prometheus", KEY_PROMETHEUS, "FILE", prometheus_path), .group = GROUP_OUTPUT,
	  .not_for_designs = true,
	  .help = "metrics for Prometheus, for node_exporter's textfile\n"
		  "collector (docs/fleet.md)" },
	{ OPT_U64("prometheus-every", KEY_PROMETHEUS_EVERY, "S", prometheus_every_s, 1, OPT_MAX_PROMETHEUS_EVERY_S,
		  "seconds"),
	  .group = GROUP_OUTPUT, .run_only = true, .mode = MODE_ATTACH,
	  .help = "attach mode: rewrite --prometheus every S seconds" },
	{ OPT_CALLBACK("target-label", KEY_TARGET_LABEL, "TEXT", parse_target_label), .group = GROUP_OUTPUT,
	  .not_for_designs = true,
	  .help = "the metrics' target label (default: the command's name,\n"
		  "never its arguments; pid P; all; cgroup PATH)" },
	{ OPT_CALLBACK("output-mode", KEY_OUTPUT_MODE, "MODE", parse_output_mode), .group = GROUP_OUTPUT,
	  .help = "the files wakeprobe makes, octal (default 0600; a file of\n"
		  "root's or yours that is there keeps its own)" },
	/* not run_only: report refuses it with a message of its own */
	{ OPT_STRING("output", 'o', "FILE", record_path), .group = GROUP_OUTPUT,
	  .help = "record: where to save the run (docs/recording.md)" },
	{ OPT_BOOLEAN("verbose", 'v', verbose), .group = GROUP_GENERAL, .help = "show libbpf's own messages" },
	{ OPT_CALLBACK("help", 'h', NULL, parse_help), .group = GROUP_GENERAL, .help = "this text" },
	{ OPT_CALLBACK("version", 'V', NULL, parse_version), .group = GROUP_GENERAL, .help = "print the version" },
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

		if (s->group != group || s->hidden)
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
		"  sudo wakeprobe --pid 1234 --engine full --duration 10   # every wakeup split by cause\n"
		"  sudo wakeprobe --pid 1234 --syscall-phases --duration 10   # time the syscalls too\n"
		"  sudo wakeprobe --pid 1234 --softirqs --duration 10   # name the softirqs that held a CPU\n"
		"  sudo wakeprobe --pid 1234 --stacks --folded run.folded   # where in the code, as a flame graph\n"
		"  sudo wakeprobe --pid 1234 --chains --duration 10     # each wait, hop by hop back to its cause\n"
		"  wakeprobe --workload eventfd --no-trace               # no root needed\n"
		"  sudo wakeprobe record -o cond.wpr --workload cond     # measure and save\n"
		"  wakeprobe report cond.wpr --outliers 20 --perfetto cond.json   # no root needed\n"
		"  wakeprobe report cond.wpr --plot cond.svg            # its phases, as a picture\n"
		"  sudo wakeprobe kernel                                 # will it run here, and how\n"
		"  sudo wakeprobe --pid 1234 --prometheus /var/lib/node_exporter/wakeprobe.prom \\\n"
		"       --prometheus-every 15                            # metrics for a fleet\n"
		"  sudo wakeprobe --all --listen :9750 --web-config /etc/wakeprobe/web.yml   # HTTPS, a password\n");
}

struct output_paths options__outputs(const struct wp_options *o)
{
	return (struct output_paths){
		.recording = o->report_path, .record = o->record_path, .json = o->json_path, .csv = o->csv_path,
		.perfetto = o->perfetto_path, .prometheus = o->prometheus_path, .plot = o->plot_path,
		.folded = o->folded_path,
	};
}

static void set_defaults(struct wp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->samples = OPT_DEFAULT_SAMPLES;
	o->interval_us = OPT_DEFAULT_INTERVAL_US;
	o->ringbuf_kb = OPT_DEFAULT_RINGBUF_KB;
	o->outliers = OPT_DEFAULT_OUTLIERS;
	o->unwind_per_s = OPT_DEFAULT_UNWIND;
	o->pairs = OPT_DEFAULT_PAIRS;
	o->waker_cpu = -1;
	o->wakee_cpu = -1;
}

/* parse_kernel - wakeprobe kernel: nothing to run, nothing to write; only -v, for libbpf's log of the loads it tries */
static enum options_result parse_kernel(struct parse_state *ps, int argc, char **argv)
{
	ps->o->command = CMD_KERNEL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			options__usage(ps->out);
			return OPTIONS_DONE;
		}
		if (strcmp(argv[i], "-v") && strcmp(argv[i], "--verbose"))
			return refuse(ps, "wakeprobe kernel takes no argument but -v, not '%s'", parse__shown(argv[i]));
		ps->o->verbose = true;
	}
	return OPTIONS_RUN;
}

/* getopt_tables - getopt_long's table of @longopts and its short-option string, made from the specs */
static void getopt_tables(struct option longopts[NR_SPECS + 1], char optstring[2 * NR_SPECS + 2])
{
	size_t n = 0;

	optstring[n++] = ':';	/* a missing value is ':', told apart from an unknown option */
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
}

/* note_given - the option being taken, if it is the first of a kind that the checks after the walk name */
static void note_given(struct parse_state *ps)
{
	const struct option_spec *s = ps->spec;

	if (!ps->run_option[0] && s->run_only)
		strcpy(ps->run_option, ps->as_given);
	if (!ps->workload_option[0] && s->mode == MODE_WORKLOAD)
		strcpy(ps->workload_option, ps->as_given);
	if (!ps->attach_option[0] && s->mode == MODE_ATTACH) {
		strcpy(ps->attach_option, ps->as_given);
		ps->o->attach_option = s->name;
	}
	if (!ps->paced_option[0] && s->not_for_designs)
		strcpy(ps->paced_option, ps->as_given);
}

/* store_value - @arg (NULL for a flag) into the options, as the option being taken's spec says */
static enum options_result store_value(struct parse_state *ps, const char *arg)
{
	const struct option_spec *s = ps->spec;
	void *field = (char *)ps->o + s->field;
	uint64_t v;

	switch (s->store) {
	case STORE_BOOL:
		*(bool *)field = true;
		return OPTIONS_RUN;
	case STORE_STRING:
		*(const char **)field = arg;
		return OPTIONS_RUN;
	case STORE_U64:
	case STORE_U32:
		if (parse__u64(arg, s->min, s->max, &v))
			return refuse(ps, "--%s wants %s from %" PRIu64 " to %" PRIu64 ", not '%s'", s->name, s->wants,
				      s->min, s->max, parse__shown(arg));
		if (s->store == STORE_U64)
			*(uint64_t *)field = v;
		else
			*(uint32_t *)field = (uint32_t)v;
		return OPTIONS_RUN;
	case STORE_CALLBACK:
		return s->parse(ps, arg);
	}
	return OPTIONS_RUN;
}

/* walk_options - every option of @argv, each stored as the table says; stops at the first operand or -- */
static enum options_result walk_options(struct parse_state *ps, int argc, char **argv)
{
	struct option longopts[NR_SPECS + 1];
	char optstring[2 * NR_SPECS + 2];
	int opt, longindex = -1;
	enum options_result r;

	getopt_tables(longopts, optstring);
	optind = 0;	/* GNU: start over, so the parser can run more than once */
	opterr = 0;	/* the messages here name the option and the fix */
	while ((opt = getopt_long(argc, argv, optstring, longopts, &longindex)) != -1) {
		ps->spec = spec_of(opt);
		if (!ps->spec && opt == ':')
			return refuse(ps, "%s needs a value", parse__shown(argv[optind - 1]));
		if (!ps->spec)
			return refuse(ps, "unknown option '%s'", parse__shown(argv[optind - 1]));
		if (longindex >= 0)
			snprintf(ps->as_given, sizeof(ps->as_given), "--%s", longopts[longindex].name);
		else
			snprintf(ps->as_given, sizeof(ps->as_given), "-%c", opt);
		longindex = -1;
		note_given(ps);
		r = store_value(ps, optarg);
		if (r != OPTIONS_RUN)
			return r;
	}
	return OPTIONS_RUN;
}

/*
 * take_operands - what the walk left in @argv: report's recording, the
 * command to trace after --, or a throughput workload's own arguments
 */
static enum options_result take_operands(struct parse_state *ps, int argc, char **argv)
{
	struct wp_options *o = ps->o;

	if (o->command == CMD_REPORT) {
		if (optind >= argc)
			return refuse(ps, "report needs the recording to read: wakeprobe report FILE");
		o->report_path = argv[optind++];
	}
	/* getopt stops at "--" and leaves it just before optind: what follows is the command to trace */
	if (o->command != CMD_REPORT && optind > 0 && !strcmp(argv[optind - 1], "--")) {
		if (optind == argc)
			return refuse(ps, "-- needs a command to trace after it: wakeprobe [options] -- COMMAND "
				      "[ARGS...]");
		o->target_argv = &argv[optind];
		optind = argc;
	}
	if (optind < argc)
		return refuse(ps, "unexpected argument '%s'", parse__shown(argv[optind]));
	/* with a throughput workload, what follows -- is the workload's own arguments */
	o->design = o->command != CMD_REPORT && o->workload && designs__find(o->workload);
	if (o->design && o->target_argv) {
		o->workload_args = o->target_argv;
		o->target_argv = NULL;
	}
	return OPTIONS_RUN;
}

/* check_report - wakeprobe report FILE: the report's options, not the run's, which the recording fixed */
static enum options_result check_report(struct parse_state *ps)
{
	const struct wp_options *o = ps->o;
	char takes[160];

	if (o->prometheus_every_s)
		return refuse(ps, "--prometheus-every is for a live attach run: report writes --prometheus once");
	if (o->stacks)
		return refuse(ps, "a recording keeps no stacks: %s is for a live run",
			      o->folded_path ? "--folded" : "--stacks");
	if (ps->run_option[0]) {
		report_takes(takes, sizeof(takes));
		return refuse(ps, "%s is fixed by the recording: report takes %s", ps->run_option, takes);
	}
	if (o->record_path)
		return refuse(ps, "-o is for wakeprobe record: report writes --json, --csv, --perfetto, --prometheus "
			      "or --plot");
	return option_checks__outputs(o, ps->err, ps->errlen);
}

/* check_targets - what to trace named once, and no option of the other kind of run; nonzero with err */
static int check_targets(struct parse_state *ps)
{
	const struct wp_options *o = ps->o;

	if (o->nr_pids && o->target_argv)
		return refuse(ps, "--pid and -- COMMAND both name what to trace: give one of them");
	if (options__attach(o) && ps->workload_option[0])
		return refuse(ps, "%s is for wakeprobe's own workloads: with %s, wakeprobe traces %s",
			      ps->workload_option,
			      o->all ? "--all" : o->cgroups ? "--cgroup" : o->nr_pids ? "--pid" : "-- COMMAND",
			      o->all || o->cgroups ? "the machine's tasks" : "your program");
	if (!options__attach(o) && ps->attach_option[0])
		return refuse(ps, "%s is for attach mode: add --all, --cgroup PATH, --pid PID or -- COMMAND",
			      ps->attach_option);
	/* a chain is of a program's wakeups: attach mode's, or a throughput workload's traced run */
	if (o->chains && o->command != CMD_REPORT && !options__attach(o) && !o->design)
		return refuse(ps, "--chains follows a program's wakeups, not a paced workload's pair: add --all, "
			      "--cgroup PATH, --pid PID or -- COMMAND, or give a throughput workload");
	if (o->chains && o->no_trace)
		return refuse(ps, "--chains follows the traced run's wakeups and --no-trace traces nothing: give one "
			      "of them");
	return 0;
}

/* check_workload - a workload run: a known workload, --mode only for a throughput one, its outputs */
static enum options_result check_workload(struct parse_state *ps)
{
	const struct wp_options *o = ps->o;

	if (!o->workload)
		return refuse(ps, "no workload given: add --workload NAME (--list-workloads shows them), "
			      "--pid PID or -- COMMAND");
	if (strcmp(o->workload, "all") && !catalog__find(o->workload) && !o->design)
		return refuse(ps, "unknown workload '%s': --list-workloads shows the known ones",
			      parse__shown(o->workload));
	if (o->modes && !o->design)
		return refuse(ps, "--mode is for one throughput workload (burst-queue, spawn, executor, "
			      "ipc-stream), not '%s'", parse__shown(o->workload));
	if (o->design)
		return option_checks__design(o, ps->paced_option, ps->err, ps->errlen);
	return option_checks__outputs(o, ps->err, ps->errlen);
}

/* check_run - a live run or a recording's: what it was given goes together; settles the way it traces */
static enum options_result check_run(struct parse_state *ps)
{
	struct wp_options *o = ps->o;

	if (o->command == CMD_RECORD && !o->record_path)
		return refuse(ps, "record needs a file to write: wakeprobe record -o FILE --workload NAME (or --pid, "
			      "or -- COMMAND)");
	if (o->command == CMD_RUN && o->record_path)
		return refuse(ps, "-o is for wakeprobe record -o FILE; a run writes --json, --csv, --perfetto, "
			      "--prometheus or --plot");
	if (o->list_workloads)
		return OPTIONS_RUN;
	if (check_targets(ps) || option_checks__engine(o, ps->engine_given, ps->err, ps->errlen) ||
	    option_checks__stacks(o, ps->engine_given, ps->err, ps->errlen) ||
	    option_checks__by_cgroup(o, ps->engine_given, ps->err, ps->errlen))
		return OPTIONS_BAD;
	if (options__attach(o))
		return option_checks__outputs(o, ps->err, ps->errlen);
	return check_workload(ps);
}

enum options_result options__parse(struct wp_options *o, int argc, char **argv, int nr_cpus,
				   FILE *out, char *err, size_t errlen)
{
	struct parse_state ps = { .o = o, .nr_cpus = nr_cpus, .out = out, .err = err, .errlen = errlen };
	enum options_result r;

	set_defaults(o);
	if (argc > 1 && !strcmp(argv[1], "kernel"))
		return parse_kernel(&ps, argc, argv);
	if (argc > 1 && !strcmp(argv[1], "record"))
		o->command = CMD_RECORD;
	else if (argc > 1 && !strcmp(argv[1], "report"))
		o->command = CMD_REPORT;
	if (o->command != CMD_RUN) {
		/* the command word is not an option: parse what follows it */
		argc--;
		argv++;
	}
	r = walk_options(&ps, argc, argv);
	if (r == OPTIONS_RUN)
		r = take_operands(&ps, argc, argv);
	if (r != OPTIONS_RUN)
		return r;
	return o->command == CMD_REPORT ? check_report(&ps) : check_run(&ps);
}
