/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - what the end-to-end tests share: run one workload through a
 * session and check every merged sample on the way.
 */
#ifndef WAKEPROBE_TEST_HELPERS_H
#define WAKEPROBE_TEST_HELPERS_H

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "session.h"

struct checks {
	uint64_t seen;
	uint64_t complete;
	uint64_t phased;		/* complete with phases */
	uint64_t negative_phase;
	uint64_t sum_off;		/* phased samples whose phases miss the total by > 50 ns */
	int64_t worst_sum_error;
	uint64_t seq_out_of_order;
	uint64_t last_seq;
	uint64_t waiter_syscalls;
	struct sample_result first_missing;
	struct sample_result first_phased;
	struct sample_result last_phased;
	/* optional: sees every merged sample too */
	merger_sample_fn hook;
	void *hook_ctx;
};

/* skip_unless_traceable - skip the calling test, saying why, without root and BTF */
void skip_unless_traceable(void);

/*
 * machine_emulated - whether the tests run in a kernel booted under
 * software emulation ($WAKEPROBE_TEST_EMULATED, set by scripts/vmtest.sh),
 * some 50 times slower than a real CPU: a test whose load would outrun a
 * reader there states the smaller load it needs instead
 */
bool machine_emulated(void);

/* a run and how the session carries it out, for session__run() */
struct test_session {
	struct run_config cfg;
	struct session_opts opts;
};

/* test_session - the session run_workload() runs: CPUs 0 and 1, every sample into @c */
struct test_session test_session(const char *name, bool trace, uint64_t samples, uint64_t interval_us,
				 struct checks *c);

/*
 * run_workload - @name for @samples wakeups, every merged sample checked into
 * @c; the result lands in @res. Returns session__run()'s value, @msg its reason.
 */
int run_workload(const char *name, bool trace, uint64_t samples, uint64_t interval_us, struct checks *c,
		 struct run_result *res, char msg[256]);

/* wakeprobe_path - the binary under test ($WAKEPROBE); skips the calling test when unset */
const char *wakeprobe_path(void);
/* relay_path - the chains' test program (tests/tools/relay.c), from $RELAY; the test skips without it */
const char *relay_path(void);

/* read_to_end - read @fd to its end, or until @buf is full; always terminated */
void read_to_end(int fd, char *buf, size_t len);

/* what a spawned child does before it runs its program */
struct child_setup {
	int uid;			/* >= 0: become this uid (and gid), with no supplementary group */
	/* with uid: these capabilities (bit N: capability N) kept as ambient ones, as a unit's AmbientCapabilities= */
	uint64_t ambient_caps;
	const cpu_set_t *cpus;		/* run only there */
	const char *stdout_to;		/* stdout is this file, opened for writing ("/dev/full") */
	bool stdout_unread;		/* stdout is a pipe nobody reads, as under | true */
	/* SIGTERM when the test's process ends, a timeout's kill too: a service it started stops with it */
	bool dies_with_test;
	rlim_t nofile;			/* not 0: its RLIMIT_NOFILE, soft and hard, this low */
};

/*
 * spawn_piped - start @args[0] with its stdout and stderr on pipes, their
 * read ends into @out and @err; @setup may be NULL. The pipes are
 * close-on-exec: the child holds only its own ends, as 1 and 2.
 */
pid_t spawn_piped(char *const args[], const struct child_setup *setup, int *out, int *err);

/*
 * spawn_held - fork a child held before it does anything until a byte
 * comes down the pipe whose write end goes into @go: then it runs @body, or
 * execs @args (found in PATH) when @body is NULL. Its pid is the program's
 * from the start, so a tracer attached to it first sees all of its life.
 * Its input is @in (-1: this process's), its output goes to /dev/null, and
 * it keeps none of this process's other files.
 */
pid_t spawn_held(char *const args[], void (*body)(void), int in, int *go);

/*
 * trace_body - @body run in a child (spawn_held()) once `wakeprobe --pid`
 * of it has attached, with --json into a new file whose name goes into
 * @json; both must end with status 0 (@what names the child). The child's
 * pid, the target the report names.
 */
pid_t trace_body(void (*body)(void), const char *what, char json[64]);

/* what a standalone workload (burst-queue, spawn, ...) run by a test left: how it ended, what it wrote */
struct workload_outcome {
	int status;		/* as waitpid() gave it */
	char out[131072];	/* stdout, terminated: room for a JSON document of a dozen results */
	char err[4096];		/* stderr, terminated */
};

/*
 * workload_path - the standalone workload @name in $WAKEPROBE_WORKLOAD_DIR,
 * into @buf: skips the calling test when that is unset, fails it when
 * there is no such program.
 */
const char *workload_path(const char *name, char *buf, size_t len);

/*
 * workload_spawn - start the workload @name with the NULL-terminated @args
 * after its name, no root, its stdout and stderr on pipes into @out and
 * @err (spawn_piped); workload_collect() reads them and reaps it.
 */
pid_t workload_spawn(const char *name, const char *const args[], int *out, int *err);

/*
 * workload_collect - all that @pid wrote on @out and @err into @o, both
 * closed, @pid reaped into @o->status: its exit status, or -1 if a signal
 * ended it.
 */
int workload_collect(pid_t pid, int out, int err, struct workload_outcome *o);

/* workload_run - workload_spawn() then workload_collect(); fails the test unless it exited: its exit status */
int workload_run(const char *name, struct workload_outcome *o, const char *const args[]);

/*
 * workload_json_check - @o's stdout as a JSON document, checked by the
 * python @fmt... (see json_vcheck in readback.h): true when its asserts hold.
 */
bool workload_json_check(const struct workload_outcome *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* text_count_lines - how many lines @s holds: its newlines */
int text_count_lines(const char *s);

/* labelled - samples kept out of the phase table, whatever the reason */
uint64_t labelled(const struct aggregate *a);

/* describe_missing - one line on the first sample that missed a bounding event */
const char *describe_missing(uint64_t n, const struct sample_result *r);

/* what a run of wakeprobe printed, and how it ended */
struct wakeprobe_ran {
	int status;		/* waitpid()'s */
	struct rusage usage;	/* wait4()'s: its peak RSS (ru_maxrss, KiB), its CPU time */
	char out[64 * 1024];
	char err[8 * 1024];
};

/* wakeprobe_run - wakeprobe_path() with @args (after argv[0], at most 30) to its end */
void wakeprobe_run(struct wakeprobe_ran *r, char *const args[]);
/* wakeprobe_run_ok - wakeprobe_run(), which must end with status 0 */
void wakeprobe_run_ok(struct wakeprobe_ran *r, char *const args[]);
struct json_doc;
/*
 * wakeprobe_run_json - wakeprobe_run_ok() with --json into a file of its
 * own in front of @args (up to 13 of them): the document, read back (free
 * it with json_reader__free())
 */
struct json_doc *wakeprobe_run_json(struct wakeprobe_ran *r, char *const *args);

/* wakeprobe_run_setup - wakeprobe_run() with @setup for the child (what is on its stdout, its uid) */
void wakeprobe_run_setup(struct wakeprobe_ran *r, const struct child_setup *setup, char *const args[]);

/* program_run - the program at the path @argv[0] with its arguments, run as wakeprobe_run() runs wakeprobe */
void program_run(struct wakeprobe_ran *r, char *const argv[]);

/* spawn_hog - a process named @comm that spins on @cpu until it is killed; it dies with the test */
pid_t spawn_hog(const char *comm, int cpu);

/*
 * spawn_udp_sender - spawn_hog(), but its loop sends a datagram to itself
 * on 127.0.0.1 and reads it back: each send runs the NET_RX softirq on
 * @cpu, in its own context
 */
pid_t spawn_udp_sender(const char *comm, int cpu);

/* a list of short words: options, workloads, modes, completions */
struct names {
	size_t n;
	char name[128][48];
};

/* names_add - append @len bytes of @word to @n; fails the test when it is full or the word too long */
void names_add(struct names *n, const char *word, size_t len);

/* names_has - is @word in @n? */
bool names_has(const struct names *n, const char *word);

/* help_long_options - the long options `wakeprobe --help` lists, "--workload" and so on, in its order */
void help_long_options(struct names *n);

/*
 * listed_workloads - the names `wakeprobe --list-workloads` prints, paths and
 * throughput workloads; with @modes_of, the modes of that throughput workload instead
 */
void listed_workloads(struct names *n, const char *modes_of);

/*
 * report_pair_count - in an attach report, the count of the first row of
 * the pairs table through @mechanism (the busiest); -1 when none is
 */
long report_pair_count(const char *report, const char *mechanism);

/* now_s - CLOCK_MONOTONIC in seconds */
double now_s(void);
/* free_port - a port of 127.0.0.1 nobody listens on now */
int free_port(void);
/* bpf_links_of - how many BPF links process @pid holds: programs it attached */
int bpf_links_of(pid_t pid);
/* wait_attached - until @pid holds BPF links and their number held still for 0.3 s; @what names it */
void wait_attached(pid_t pid, const char *what);
/* wait_exit - @pid's status, once it ends within @seconds; fails the test if it does not */
int wait_exit(pid_t pid, const char *what, double seconds);
/* read_line - up to a newline of @fd into @buf, terminated */
void read_line(int fd, char *buf, size_t len);

/* promtool_accepts - `promtool check metrics` of @path: true when it finds no problem (an expect says what it said) */
bool promtool_accepts(const char *path);

#endif /* WAKEPROBE_TEST_HELPERS_H */
