// SPDX-License-Identifier: GPL-2.0
/* The wakeprobe binary as a person meets it: exit codes and one-line errors. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <pwd.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"

struct outcome {
	int status;
	char out[16384];	/* --help whole */
	char err[4096];
};

/* run_on - run wakeprobe with @args on the CPUs of @cpus only (NULL: any); @uid >= 0 drops root first */
static void run_on(struct outcome *o, int uid, const cpu_set_t *cpus, char *const args[]);

/* run_as - run wakeprobe with @args; @uid >= 0 drops root first */
static void run_as(struct outcome *o, int uid, char *const args[])
{
	run_on(o, uid, NULL, args);
}

static void run_on(struct outcome *o, int uid, const cpu_set_t *cpus, char *const args[])
{
	struct child_setup setup = { .uid = uid, .cpus = cpus };
	int out, err;
	pid_t pid;

	pid = spawn_piped(args, &setup, &out, &err);
	read_to_end(err, o->err, sizeof(o->err));
	read_to_end(out, o->out, sizeof(o->out));
	close(out);
	close(err);
	cr_assert_eq(waitpid(pid, &o->status, 0), pid);
}

static int exit_code(const struct outcome *o)
{
	cr_assert(WIFEXITED(o->status), "wakeprobe did not exit normally: 0x%x", o->status);
	return WEXITSTATUS(o->status);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(cli, an_unknown_workload_is_one_line_and_exit_2)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "nosuch", NULL };

	run_as(&o, -1, args);
	cr_assert_eq(exit_code(&o), 2);
	cr_assert_eq(count_lines(o.err), 1, "stderr: %s", o.err);
	cr_assert(strstr(o.err, "unknown workload 'nosuch'"));
	cr_assert_str_empty(o.out);
}

Test(cli, a_bad_number_is_one_line_and_exit_2)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--samples", "ten", NULL };

	run_as(&o, -1, args);
	cr_assert_eq(exit_code(&o), 2);
	cr_assert_eq(count_lines(o.err), 1, "stderr: %s", o.err);
	cr_assert(strstr(o.err, "--samples"));
}

Test(cli, help_shows_examples_and_exits_0)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--help", NULL };

	run_as(&o, -1, args);
	cr_assert_eq(exit_code(&o), 0);
	cr_assert(strstr(o.out, "Examples:"));
	cr_assert(strstr(o.out, "--no-trace"));
}

static const char *const every_path[] = {
	"cond", "sem", "eventfd", "pipe", "signal-handler", "sigwait", "spin", "shmsem", "futex", "thread-start",
};

/* has_row - a line of @out starts with @name and a blank */
static bool has_row(const char *out, const char *name)
{
	size_t len = strlen(name);
	const char *line;

	for (line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, name, len) && line[len] == ' ')
			return true;
	return false;
}

Test(cli, list_workloads_names_every_path)
{
	static const char *const designs[] = { "burst-queue", "spawn", "executor", "ipc-stream" };
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--list-workloads", NULL };
	char *blank;
	size_t i;

	run_as(&o, -1, args);
	cr_assert_eq(exit_code(&o), 0);
	for (i = 0; i < sizeof(every_path) / sizeof(every_path[0]); i++)
		cr_assert(has_row(o.out, every_path[i]), "no '%s' in:\n%s", every_path[i], o.out);
	/* the throughput workloads after a blank line, a row each and a line of their modes */
	for (i = 0; i < sizeof(designs) / sizeof(designs[0]); i++)
		cr_assert(has_row(o.out, designs[i]), "no '%s' in:\n%s", designs[i], o.out);
	cr_assert(strstr(o.out, "modes: cond pipe-notify pipe-record pipe-batch thread-per-event\n"), "%s", o.out);
	blank = strstr(o.out, "\n\n");
	cr_assert(blank, "%s", o.out);
	blank[1] = '\0';
	cr_assert_eq(count_lines(o.out), (int)(sizeof(every_path) / sizeof(every_path[0])));
}

Test(cli, every_workload_run_by_itself_rejects_bad_options_in_one_line_with_exit_2)
{
	const char *dir = getenv("WAKEPROBE_WORKLOAD_DIR");
	char *const bad[][3] = { { "--cpus", "0,0" }, { "--samples", "x" }, { "--bogus" } };
	size_t i, j;

	if (!dir)
		cr_skip_test("set WAKEPROBE_WORKLOAD_DIR to the workloads (make test does)");
	for (i = 0; i < sizeof(every_path) / sizeof(every_path[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir, every_path[i]);
		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			char *args[] = { path, bad[j][0], bad[j][1], NULL };
			struct outcome o;

			run_as(&o, -1, args);
			cr_assert_eq(exit_code(&o), 2, "%s %s: stderr: %s", every_path[i], bad[j][0], o.err);
			cr_assert_eq(count_lines(o.err), 1, "%s %s: stderr: %s", every_path[i], bad[j][0], o.err);
			cr_assert(strstr(o.err, bad[j][0]), "%s: the error names %s: %s", every_path[i], bad[j][0],
				  o.err);
		}
	}
}

Test(cli, workload_all_runs_every_path_and_prints_a_row_for_each_in_both_tables, .timeout = 120)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "all", "--samples", "40", "--interval-us", "300",
			 NULL };
	char totals[sizeof(o.out)];
	const char *phases;
	size_t i;

	if (geteuid() != 0)
		cr_skip_test("tracing needs root");
	run_as(&o, -1, args);
	cr_assert_eq(exit_code(&o), 0, "stderr: %s", o.err);
	phases = strstr(o.out, "Median of each phase");
	cr_assert_not_null(phases, "no phase table in:\n%s", o.out);
	snprintf(totals, sizeof(totals), "%.*s", (int)(phases - o.out), o.out);
	for (i = 0; i < sizeof(every_path) / sizeof(every_path[0]); i++) {
		cr_assert(has_row(totals, every_path[i]), "no total row for %s:\n%s", every_path[i], o.out);
		cr_assert(has_row(phases, every_path[i]), "no phase row for %s:\n%s", every_path[i], o.out);
	}
}

Test(cli, tracing_without_privileges_names_the_fix_and_exits_1)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--samples", "10", NULL };
	struct passwd *nobody = getpwnam("nobody");

	if (geteuid() == 0 && !nobody)
		cr_skip_test("no 'nobody' user to drop root to");
	run_as(&o, geteuid() == 0 ? (int)nobody->pw_uid : -1, args);
	cr_assert_eq(exit_code(&o), 1, "stderr: %s", o.err);
	cr_assert_eq(count_lines(o.err), 1, "stderr: %s", o.err);
	/* what it lacks, and the fixes: root, the capabilities, or no tracing */
	cr_assert(strstr(o.err, "lacks CAP_BPF and CAP_PERFMON"), "stderr: %s", o.err);
	cr_assert(strstr(o.err, "as root (sudo)") && strstr(o.err, "--no-trace"), "stderr: %s", o.err);
	cr_assert_str_empty(o.out);
}

/* a machine, or a cpuset, with one CPU: the waker and the wakee need two */
Test(cli, one_cpu_to_run_on_is_one_line_and_exit_2)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--no-trace", "--samples", "10", NULL };
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	run_on(&o, -1, &one, args);
	cr_assert_eq(exit_code(&o), 2, "stderr: %s", o.err);
	cr_assert_eq(count_lines(o.err), 1, "stderr: %s", o.err);
	cr_assert(strstr(o.err, "need two CPUs"), "stderr: %s", o.err);
}

/* a CPU that exists but that this process may not use, as an offline one or one outside its cpuset */
Test(cli, a_cpu_not_allowed_is_one_line_and_exit_2)
{
	struct outcome o;
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--no-trace", "--samples", "10", "--cpus",
			 "0,1", NULL };
	cpu_set_t one;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2)
		cr_skip_test("needs a machine with two CPUs");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	run_on(&o, -1, &one, args);
	cr_assert_eq(exit_code(&o), 2, "stderr: %s", o.err);
	cr_assert_eq(count_lines(o.err), 1, "stderr: %s", o.err);
	cr_assert(strstr(o.err, "CPU 1 is offline or not allowed"), "stderr: %s", o.err);
}
