/* SPDX-License-Identifier: GPL-2.0 */
/*
 * throughput.h - the harness of the throughput workloads (burst-queue, and
 * after it spawn, executor, ipc-stream): whole designs for handing work
 * between threads or processes, timed over repeated runs.
 *
 * The paced workloads (common.h) measure one wakeup at a time and hand each
 * sample to wakeprobe; these measure how long a whole batch takes, many
 * times over, and print what the repeats add up to. What they share:
 *
 * - options: --repeat R, --cpus A,B (the two roles' CPUs, pinned; or, for a
 *   workload that sets list_cpus, a list of CPUs its threads take in turn),
 *   --json and --help, parsed by tp_options__parse() inside the workload's own
 *   getopt_long() loop (TP_SHORTOPTS and TP_LONGOPTS go into its tables);
 *   every mistake is one line on stderr naming the fix, and exit status 2;
 * - pinning a thread, or a thread about to be created, to one CPU;
 * - a nanosecond clock, tp_now_ns() (CLOCK_MONOTONIC, read through the vDSO);
 * - statistics over the repeats: mean, sd, min, median, max;
 * - one result per (mode, size, start point, and the workload's own
 *   parameters if it has any) as a table a person reads and as one JSON
 *   document (schema "wakeprobe-throughput", see tp_json__begin).
 *
 * Nothing here allocates inside a timed window, and nothing here is timed.
 */
#ifndef WAKEPROBE_WORKLOAD_THROUGHPUT_H
#define WAKEPROBE_WORKLOAD_THROUGHPUT_H

/* pthread_attr_setaffinity_np: the includer defines _GNU_SOURCE before its first libc header */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "json_writer.h"

#define TP_DEFAULT_REPEAT	100
#define TP_MAX_REPEAT		1000000
#define TP_MAX_COUNTERS		24
#define TP_MAX_PARAMS		4
#define TP_MAX_CPUS		256
#define TP_MAX_RATES		4

/* the common options' short letters and long names, for the workload's getopt_long() tables */
#define TP_SHORTOPTS "r:c:jh"
#define TP_LONGOPTS							\
	{ "repeat", required_argument, NULL, 'r' },			\
	{ "cpus", required_argument, NULL, 'c' },			\
	{ "json", no_argument, NULL, 'j' },				\
	{ "help", no_argument, NULL, 'h' }

struct tp_options {
	const char *name;	/* the program, first word of every message */
	uint64_t repeat;
	int cpu[2];		/* the two roles' CPUs: producer and consumer, say */
	bool cpus_given;
	/*
	 * Set by the workload after tp_options__init: --cpus takes a list of
	 * one or more different CPUs (default: every CPU this process may
	 * use, in order) into cpu_list, and cpu[] stays unused.
	 */
	bool list_cpus;
	int cpu_list[TP_MAX_CPUS];
	size_t nr_cpu_list;
	bool json;
	bool help;		/* --help was given: tp_options__finish() prints the usage, exits 0 */
};

/* tp_options__init - defaults: --repeat TP_DEFAULT_REPEAT, text output, CPUs chosen later */
void tp_options__init(struct tp_options *o, const char *name);

/*
 * tp_options__parse - one option returned by getopt_long(): true if it is a
 * common one (now stored), false if the workload must handle it. A common
 * option with a bad value, and getopt's ':' (value missing) or '?'
 * (unknown option), end the program through tp_usage_error().
 */
bool tp_options__parse(struct tp_options *o, int opt, const char *arg, int argc, char **argv);

/*
 * tp_options__finish - after the loop: with --help, @usage(stdout) and
 * exit status 0, whatever else the line holds; then no stray arguments,
 * and the CPUs default to the first two this process may use (exits 2
 * when it has fewer), or with list_cpus to all of them.
 */
void tp_options__finish(struct tp_options *o, int argc, char **argv, void (*usage)(FILE *out));

/* tp_usage_error - "NAME: MESSAGE (see --help)" on stderr, exit status 2 */
void tp_usage_error(const char *name, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/*
 * tp_parse_u64_list - "A[,B...]": at most @room whole numbers in [@min, @max]
 * into @vals, their count into @n. -EINVAL for a malformed list or an empty
 * item, -ERANGE for a number out of range, -E2BIG for more than @room.
 */
int tp_parse_u64_list(const char *str, uint64_t min, uint64_t max, uint64_t *vals, size_t room, size_t *n);

/*
 * tp_parse_u64_steps - tp_parse_u64_list() where an item may also be a
 * range FIRST-LAST/STEP (STEP 1 if left out): FIRST, FIRST + STEP, ... up
 * to LAST, and LAST itself even when the steps jump past it. "1-1000/100"
 * is 1, 101, ..., 901, 1000. The same errors, and -EINVAL for LAST below
 * FIRST or a STEP of 0.
 */
int tp_parse_u64_steps(const char *str, uint64_t min, uint64_t max, uint64_t *vals, size_t room, size_t *n);

#define TP_MAX_NAMES		32
#define TP_MAX_NAMES_ARG	255	/* the longest list tp_parse_names() reads */

/*
 * tp_parse_names - "A[,B...]", each word one of the @nr @names, "all" for
 * every one, or @alias (NULL for none) for those @alias_set marks ("shm":
 * both shm modes), into @set: @set[i] is whether names[i] was chosen. 0;
 * -EINVAL for an unknown word, an empty item (",,", a comma at either
 * end: a typo, not "nothing"), an empty list, one longer than
 * TP_MAX_NAMES_ARG, or more than TP_MAX_NAMES @names. @set is left as it
 * was on an error.
 */
int tp_parse_names(const char *str, const char *const *names, size_t nr, const char *alias, const bool *alias_set,
		   bool *set);

/*
 * tp_parse_cpu_list - "A[,B...]": at most @room different CPUs below
 * @nr_cpus into @cpus, their count into @n. The errors of
 * tp_parse_u64_list(), and -EEXIST for a CPU given twice.
 */
int tp_parse_cpu_list(const char *str, int nr_cpus, int *cpus, size_t room, size_t *n);

/* tp_pin_self - pin the calling thread to @cpu: 0 or -errno */
int tp_pin_self(int cpu);

/*
 * tp_attr_pin - make @attr create threads that start on @cpu: pinned
 * before their first instruction rather than after, so a thread's start-up
 * never runs elsewhere. 0 or -errno.
 */
int tp_attr_pin(pthread_attr_t *attr, int cpu);

/* tp_now_ns - CLOCK_MONOTONIC in ns: one vDSO read, no syscall, comparable across CPUs */
static inline uint64_t tp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* tp_thread_cpu_ns - the calling thread's CPU time in ns: what it got of a CPU the machine shares */
static inline uint64_t tp_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * tp_run_thread - @fn(@arg) on a thread of its own that starts on @cpu
 * (wherever the kernel puts it for @cpu < 0), waited for: how a workload
 * runs its main loop, pinned from its first instruction while the
 * process's first thread keeps its affinity. 0 or -errno.
 */
int tp_run_thread(int cpu, void *(*fn)(void *), void *arg);

/*
 * tp_proc_asleep - whether the task whose /proc stat file is @stat_path
 * ("/proc/PID/stat", "/proc/self/task/TID/stat") sleeps, state S or D:
 * 1 or 0, or -errno if the file cannot be read. A peer that announced it
 * is about to wait is asleep in that wait once this says so, and a clock
 * started then does not time its way there.
 */
int tp_proc_asleep(const char *stat_path);

/* what a set of repeats adds up to, in the unit of its values */
struct tp_stats {
	uint64_t n;
	double mean;
	double sd;		/* sample standard deviation (n - 1); 0 for one value */
	double min;
	double median;		/* the middle value, or the mean of the middle two */
	double max;
};

/*
 * tp_stats__of - the statistics of @n values; sorts @vals in place. @n == 0
 * gives all zeros. Returns @s.
 */
struct tp_stats *tp_stats__of(double *vals, size_t n, struct tp_stats *s);

/* tp_stats__scaled - every figure of @s times @factor (sd scales too), n kept */
struct tp_stats tp_stats__scaled(const struct tp_stats *s, double factor);

/*
 * tp_percentile - the nearest-rank @q quantile (0 < @q <= 1) of @n values
 * sorted ascending (as tp_stats__of leaves them): the smallest value that
 * at least @q of them do not exceed. 0 for @n == 0.
 */
double tp_percentile(const double *sorted, size_t n, double q);

/* a named count a result carries: tasks sent, reads, writes that found the pipe full... */
struct tp_counter {
	const char *name;	/* a JSON key: lower case and underscores */
	uint64_t value;		/* the total over all the runs */
};

/* a setting a result was measured with besides mode and size: threads, loops per handler... */
struct tp_param {
	const char *name;	/* a JSON key, and the table's column heading: at most 7 characters */
	uint64_t value;
};

/*
 * struct tp_rate - what a run hands over per second (MiB/s, messages/s),
 * as statistics over the runs' own rates: the mean of the rates is not the
 * amount over the mean time, so each run's rate is kept, not derived later.
 */
struct tp_rate {
	const char *key;	/* a JSON key: "mib_per_s" */
	const char *title;	/* the table's column: "MiB/s" */
	struct tp_stats per_s;
};

/*
 * struct tp_result - one (mode, size, start point, parameters): its runs'
 * times and counts. @units is what one run hands over (N tasks), so ns
 * per unit is the time over @units. A workload whose results differ by
 * more than mode and size names the rest as parameters, the same ones,
 * in the same order, in each of its results. The fields after @nr_counters
 * are optional (NULL, 0): a workload with a second dimension names it
 * (@variant_key "receiver", @variant "busy"), one that stops the clock at
 * more than one point names it in @stop, and one that hands over amounts
 * gives their rates.
 */
struct tp_result {
	const char *mode;
	uint64_t units;
	const char *start;	/* where the clock starts: "seed", "ready", ... */
	/* this result's own SIZE_NAME and UNIT in JSON, NULL: the document's (tp_json__results) */
	const char *size_name;
	const char *unit;
	struct tp_param params[TP_MAX_PARAMS];
	size_t nr_params;
	struct tp_stats ns;	/* one run's time, in ns */
	struct tp_counter counters[TP_MAX_COUNTERS];
	size_t nr_counters;
	const char *variant_key;
	const char *variant;
	const char *stop;	/* where the clock stops: "producer", "end-to-end", ... */
	struct tp_rate rates[TP_MAX_RATES];
	size_t nr_rates;
};

/* tp_result__param - set the parameter @name to @value, adding it; -E2BIG when full */
int tp_result__param(struct tp_result *r, const char *name, uint64_t value);

/* tp_result__count - add @value to the counter @name, creating it; -E2BIG when full */
int tp_result__count(struct tp_result *r, const char *name, uint64_t value);

/*
 * tp_result__count_max - the counter @name keeps the largest @value seen
 * rather than the sum (a peak size over the runs); -E2BIG when full. Its
 * name should say so: "peak_bytes_max".
 */
int tp_result__count_max(struct tp_result *r, const char *name, uint64_t value);

/*
 * tp_result__rate - a rate @key (@title in the table) from @n runs that took
 * @ns[i] nanoseconds each to hand over @amount: the statistics of amount /
 * seconds over the runs. @ns is left as it is. -E2BIG when the result has
 * TP_MAX_RATES already, -EINVAL if a run took no time.
 */
int tp_result__rate(struct tp_result *r, const char *key, const char *title, double amount, const double *ns,
		    size_t n);

/* tp_result__counter - the counter @name's total, 0 if it has none */
uint64_t tp_result__counter(const struct tp_result *r, const char *name);

/*
 * tp_table__header / tp_table__row - the table a person reads: mode, size,
 * the parameters if any (one 7-wide column each), start point, mean
 * seconds, then ns per @unit as mean, sd, min, median and max, then a free
 * note (counts per run, say; NULL for none). tp_table__header_params()
 * heads the parameters' columns with their @nr names; tp_table__header()
 * is the same with none.
 */
void tp_table__header(FILE *out, const char *size_name, const char *unit);
void tp_table__header_params(FILE *out, const char *size_name, const char *const *params, size_t nr,
			     const char *unit);
void tp_table__row(FILE *out, const struct tp_result *r, const char *note);

/*
 * tp_table__rates_header / tp_table__rates_row - the table of a workload
 * whose results carry rates: a label the workload makes (mode, variant and
 * stop, say; TP_LABEL_WIDTH wide), median seconds, each rate's median with
 * its title (the header takes the titles from @r, every row must have the
 * same rates), then ns per @unit as mean, sd, min, median and max, and the
 * note. Medians first: on a shared machine the mean carries the neighbours.
 */
#define TP_LABEL_WIDTH 32
void tp_table__rates_header(FILE *out, const char *label_title, const struct tp_result *r, const char *unit);
void tp_table__rates_row(FILE *out, const char *label, const struct tp_result *r, const char *note);

/*
 * tp_json__begin - open the document: {"schema": "wakeprobe-throughput",
 * "schema_version": 1, "workload": NAME, "clock": "CLOCK_MONOTONIC",
 * "machine": {kernel, machine, nr_cpus}, "options": {"repeat", "cpus":
 * {ROLE0: cpu, ROLE1: cpu}, ...}: the options object is left open for the
 * workload's own keys; tp_json__results() closes it. With list_cpus,
 * "cpus" is the list instead, and the roles are not used (NULL).
 */
void tp_json__begin(struct json_writer *w, const struct tp_options *o, const char *role0, const char *role1);

/*
 * tp_results_out - the end of a workload's output: @err is what writing
 * it returned, and stdout is flushed. 0, or 1 (the exit status) after one
 * line on stderr: results that did not all reach stdout are a failure.
 */
int tp_results_out(const char *name, int err);

/* tp_json__stats - @s as {"mean", "sd", "min", "median", "max"} after key @key */
void tp_json__stats(struct json_writer *w, const char *key, const struct tp_stats *s);

/* tp_json__names - @key, then the list of those of the @nr @names that @set marks, in their order */
void tp_json__names(struct json_writer *w, const char *key, const char *const *names, const bool *set, size_t nr);

/* tp_json__u64s - @key, then the list of the @n @vals */
void tp_json__u64s(struct json_writer *w, const char *key, const uint64_t *vals, size_t n);

/*
 * tp_json__per_name - @key, then an object: for each of the @nr @names
 * that @set marks, its name and @vals[i] (what a mode handed over, say)
 */
void tp_json__per_name(struct json_writer *w, const char *key, const char *const *names, const bool *set,
		       const uint64_t *vals, size_t nr);

/*
 * tp_json__results - close the options, then "results": one object per
 * result: {"mode", SIZE_NAME: units, each parameter as NAME: value,
 * "start", "runs", "seconds": stats, "ns_per_UNIT": stats, "counts":
 * {every counter}}; with the optional fields set, VARIANT_KEY: variant and
 * "stop" after "start", and each rate's stats under its key after
 * "ns_per_UNIT". The document stays open for the workload's last keys;
 * json_writer__end_object() and json_writer__finish() end it.
 */
void tp_json__results(struct json_writer *w, const struct tp_result *results, size_t n, const char *size_name,
		      const char *unit);

/* what a workload adds to one result's object, after its counts: keys and values on @w */
typedef void (*tp_json_extra_fn)(struct json_writer *w, const struct tp_result *r, void *ctx);

/*
 * tp_json__results_with - tp_json__results(), and @extra (if not NULL)
 * called with @ctx inside each result's object, after "counts", for the
 * figures only that workload has.
 */
void tp_json__results_with(struct json_writer *w, const struct tp_result *results, size_t n,
			   const char *size_name, const char *unit, tp_json_extra_fn extra, void *ctx);

#endif /* WAKEPROBE_WORKLOAD_THROUGHPUT_H */
