// SPDX-License-Identifier: GPL-2.0
/*
 * test_messages.c - what wakeprobe says when it cannot go on: one line on
 * stderr, whatever was typed. A name, a path or a command quoted in it has
 * its control bytes escaped (\xNN) and is cut after 48 bytes; a run out of
 * file descriptors says so, how many it needs and the limit; a workload or
 * command that cannot start says which step failed and why. The runs out
 * of fds need root and BTF; elsewhere they skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"
#include "runner.h"

TestSuite(messages, .timeout = 120);

static struct wakeprobe_ran ran;

/* exited - @r ended by exiting with @status */
static bool exited(const struct wakeprobe_ran *r, int status)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == status;
}

/* last_line - the last line of @err, without its newline, into @buf */
static const char *last_line(const char *err, char *buf, size_t len)
{
	size_t n = strlen(err);
	const char *start;

	if (n && err[n - 1] == '\n')
		n--;
	for (start = err + n; start > err && start[-1] != '\n'; start--)
		;
	snprintf(buf, len, "%.*s", (int)(err + n - start), start);
	return buf;
}

/*
 * assert_clean_lines - @r exited with @status, its stderr @lines lines (the
 * run's announce may come first) with no byte a terminal acts on, the last
 * holding @want
 */
static void assert_clean_lines(const struct wakeprobe_ran *r, int lines, int status, const char *want)
{
	char line[sizeof(r->err)];

	cr_assert(exited(r, status), "status 0x%x, not exit %d; stderr: %s", r->status, status, r->err);
	cr_assert_eq(text_count_lines(r->err), lines, "stderr is not %d line(s): '%s'", lines, r->err);
	cr_assert_eq(r->err[strlen(r->err) - 1], '\n', "'%s'", r->err);
	for (const char *p = r->err; *p; p++)
		cr_assert((*p >= 0x20 && *p < 0x7f) || *p == '\n', "byte 0x%02x in '%s'", (unsigned char)*p, r->err);
	cr_assert(strstr(last_line(r->err, line, sizeof(line)), want), "stderr '%s' lacks '%s'", r->err, want);
}

/* a name of @n bytes under /tmp: "/tmp/aaa...a" */
static char *long_name(size_t n)
{
	char *s = malloc(n + 1);

	cr_assert_not_null(s);
	memcpy(s, "/tmp/", 5);
	memset(s + 5, 'a', n - 5);
	s[n] = '\0';
	return s;
}

/* ---------------------------------------------------------------- what was typed, echoed */

struct echo_case {
	char args[6][48];
	int status;
	char message[96];	/* in the one line, as it must be shown */
};

static struct echo_case echo_cases[] = {
	/* attach mode checks the command before anything needs root */
	{ { "--", "/tmp/x\033[2Jy" }, 2, "wakeprobe: cannot run '/tmp/x\\x1b[2Jy': no such command" },
	{ { "--", "/tmp/x\ny" }, 2, "wakeprobe: cannot run '/tmp/x\\x0ay': no such command" },
	{ { "report", "a\nb.wpr" }, 1, "wakeprobe: cannot open a\\x0ab.wpr: No such file or directory" },
	{ { "report", "\033[2J" }, 1, "wakeprobe: cannot open \\x1b[2J: No such file or directory" },
	{ { "--workload", "eventfd", "--no-trace", "--user", "x\ny" }, 2,
	  "wakeprobe: --user: no user 'x\\x0ay' on this machine" },
	{ { "--user", "x\033[2J", "--", "/bin/true" }, 2, "wakeprobe: --user: no user 'x\\x1b[2J' on this machine" },
	{ { "record", "-o", "/nonexistent-dir/\033[2J\n.wpr", "--workload", "eventfd", "--no-trace" }, 1,
	  "wakeprobe: record -o /nonexistent-dir/\\x1b[2J\\x0a.wpr: cannot create it" },
};

ParameterizedTestParameters(messages, what_was_typed_is_echoed_escaped_on_one_line)
{
	return cr_make_param_array(struct echo_case, echo_cases, sizeof(echo_cases) / sizeof(echo_cases[0]));
}

ParameterizedTest(struct echo_case *c, messages, what_was_typed_is_echoed_escaped_on_one_line)
{
	char *args[7] = { NULL };

	for (int i = 0; i < 6 && c->args[i][0]; i++)
		args[i] = c->args[i];
	wakeprobe_run(&ran, args);
	assert_clean_lines(&ran, 1, c->status, c->message);
}

/* each output of a report, named by a path that cannot be made */
Test(messages, an_output_that_cannot_be_made_is_named_escaped)
{
	static const char *const outputs[] = { "--json", "--csv", "--perfetto", "--plot", "--prometheus" };
	char wpr[PATH_MAX], want[128];

	snprintf(wpr, sizeof(wpr), "%s/eventfd.wpr", fixtures_dir());
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		char *args[] = { "report", wpr, (char *)outputs[i], "/nonexistent-dir/\033[2J\n.out", NULL };

		wakeprobe_run(&ran, args);
		snprintf(want, sizeof(want), "wakeprobe: %s /nonexistent-dir/\\x1b[2J\\x0a.out: cannot create it",
			 outputs[i]);
		assert_clean_lines(&ran, 1, 1, want);
	}
}

/* a name of 100 KB: 48 bytes of it, then "...", and the rest of the line */
Test(messages, a_long_name_is_cut_after_48_bytes)
{
	char *name = long_name(100000);
	char want[128];

	wakeprobe_run(&ran, (char *[]){ "--", name, NULL });
	snprintf(want, sizeof(want), "wakeprobe: cannot run '%.48s...': no such command", name);
	assert_clean_lines(&ran, 1, 2, want);
	cr_assert_lt(strlen(ran.err), 160, "'%s'", ran.err);
	wakeprobe_run(&ran, (char *[]){ "report", name, NULL });
	snprintf(want, sizeof(want), "wakeprobe: cannot open %.48s...: %s", name, strerror(ENAMETOOLONG));
	assert_clean_lines(&ran, 1, 1, want);
	cr_assert_lt(strlen(ran.err), 160, "'%s'", ran.err);
	free(name);
}

/* a workload that cannot be executed, in a directory with a terminal's escape in its name */
Test(messages, a_workload_that_cannot_start_is_named_escaped)
{
	char top[] = "/tmp/wakeprobe-messages-XXXXXX", dir[64], path[96], want[160];
	FILE *f;

	cr_assert_not_null(mkdtemp(top));
	snprintf(dir, sizeof(dir), "%s/\033[2J", top);
	snprintf(path, sizeof(path), "%s/eventfd", dir);
	cr_assert_eq(mkdir(dir, 0755), 0);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	/* no #! and no ELF header: execv says ENOEXEC */
	fputs("not a program\n", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(chmod(path, 0755), 0);
	setenv("WAKEPROBE_WORKLOAD_DIR", dir, 1);
	wakeprobe_run(&ran, (char *[]){ "--workload", "eventfd", "--no-trace", "--samples", "10", NULL });
	snprintf(want, sizeof(want), "wakeprobe: cannot start %s/\\x1b[2J/eventfd: %s", top, strerror(ENOEXEC));
	/* the announce line, then the reason */
	assert_clean_lines(&ran, 2, 1, want);
	unlink(path);
	rmdir(dir);
	rmdir(top);
}

/* a throughput workload's own arguments, which it rejects itself: escaped by it, and by wakeprobe after it */
Test(messages, a_workloads_own_arguments_are_echoed_escaped)
{
	char path[PATH_MAX];
	char *eventfd[] = { (char *)workload_path("eventfd", path, sizeof(path)), "--samples", "\033[2J", NULL };

	wakeprobe_run(&ran, (char *[]){ "--workload", "spawn", "--mode", "thread-32k", "--no-trace", "--", "--count",
					 "1\033[2J", NULL });
	/* the announce, the workload's own line, wakeprobe's */
	assert_clean_lines(&ran, 3, 1, "wakeprobe: the untraced run exited with status 2: ");
	cr_assert(strstr(ran.err, "spawn: --count wants ") && strstr(ran.err, "not '1\\x1b[2J'"), "%s", ran.err);
	cr_assert(strstr(ran.err, " --count 1\\x1b[2J --mode thread-32k"), "%s", ran.err);
	program_run(&ran, eventfd);
	assert_clean_lines(&ran, 1, 2, "eventfd: --samples wants a whole number from 1 to 1099511627776, not '\\x1b[2J'");
}

/* the line announcing a traced command quotes it as any other message */
Test(messages, the_announce_line_quotes_the_command)
{
	char top[] = "/tmp/wakeprobe-messages-XXXXXX", path[64], want[160];

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/x\033[2Jy", top);
	cr_assert_eq(symlink("/bin/true", path), 0, "%s", strerror(errno));
	wakeprobe_run(&ran, (char *[]){ "--", path, NULL });
	snprintf(want, sizeof(want), "wakeprobe: tracing %s/x\\x1b[2Jy and what it starts, until it ends ...\n", top);
	cr_assert(exited(&ran, 0), "status 0x%x; %s", ran.status, ran.err);
	cr_assert(!strncmp(ran.err, want, strlen(want)), "'%s' does not start '%s'", ran.err, want);
	cr_assert_null(strchr(ran.err, '\033'), "'%s'", ran.err);
	unlink(path);
	rmdir(top);
}

/* ---------------------------------------------------------------- directories */

Test(messages, a_directory_to_report_is_named_as_one)
{
	wakeprobe_run(&ran, (char *[]){ "report", "/tmp", NULL });
	assert_clean_lines(&ran, 1, 1, "wakeprobe: report /tmp: a directory, not a recording: name a recording file");
}

/* ---------------------------------------------------------------- out of file descriptors */

/* run_limited - wakeprobe with @args (at most 12) under ulimit -n @nofile, through sh */
static void run_limited(int nofile, char *const args[])
{
	char script[64], *argv[20] = { "/bin/sh", "-c", script, (char *)wakeprobe_path() };
	int n = 4;

	snprintf(script, sizeof(script), "ulimit -n %d && exec \"$0\" \"$@\"", nofile);
	for (int i = 0; args[i] && n < 18; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	program_run(&ran, argv);
}

/*
 * fds_needed - under ulimit -n 20, @args fail in one line naming the
 * limit (the announce may come first): the number of fds it says the run needs
 */
static unsigned int fds_needed(char *const args[])
{
	char line[512];
	unsigned int needed = 0, limit = 0;

	run_limited(20, args);
	cr_assert(exited(&ran, 1), "status 0x%x; stderr: %s", ran.status, ran.err);
	cr_assert_leq(text_count_lines(ran.err), 2, "stderr: %s", ran.err);
	last_line(ran.err, line, sizeof(line));
	cr_assert_eq(sscanf(line, "wakeprobe: out of file descriptors: this run needs about %u, and the limit is %u "
			    "(ulimit -n): raise it", &needed, &limit), 2, "'%s'", line);
	cr_assert(strstr(line, "(ulimit -n): raise it"), "'%s'", line);
	cr_assert_eq(limit, 20, "'%s'", line);
	cr_assert_gt(needed, 20, "'%s'", line);
	return needed;
}

Test(messages, a_workload_run_out_of_fds_says_how_many_it_needs)
{
	char *args[] = { "--workload", "eventfd", "--samples", "50", "--interval-us", "100", NULL };
	unsigned int needed;

	skip_unless_traceable();
	needed = fds_needed(args);
	/* what it says is enough */
	run_limited((int)needed, args);
	cr_assert(exited(&ran, 0), "under ulimit -n %u: status 0x%x; %s", needed, ran.status, ran.err);
}

Test(messages, an_attach_run_out_of_fds_says_how_many_it_needs)
{
	char pid[16];
	pid_t sleeper;
	unsigned int needed;

	skip_unless_traceable();
	needed = fds_needed((char *[]){ "--", "/bin/true", NULL });
	run_limited((int)needed, (char *[]){ "--", "/bin/true", NULL });
	cr_assert(exited(&ran, 0), "under ulimit -n %u: status 0x%x; %s", needed, ran.status, ran.err);
	sleeper = fork();
	cr_assert_geq(sleeper, 0);
	if (!sleeper) {
		execl("/bin/sleep", "sleep", "30", NULL);
		_exit(127);
	}
	snprintf(pid, sizeof(pid), "%d", (int)sleeper);
	fds_needed((char *[]){ "--pid", pid, "--duration", "1", NULL });
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
}

/*
 * Every limit just short of what a run needs: the run works, or fails in
 * one line naming the fds (a workload that exits 127 and says nothing is
 * neither). Among them, one where the workload's child has too few to set
 * itself up: it says which step failed, from the child.
 */
Test(messages, every_limit_short_of_the_need_fails_in_one_line_or_runs, .timeout = 240)
{
	char *args[] = { "--workload", "eventfd", "--samples", "50", "--interval-us", "100", NULL };
	unsigned int needed;
	bool child_said = false;

	skip_unless_traceable();
	needed = fds_needed(args);
	for (unsigned int limit = needed > 16 ? needed - 16 : 21; limit < needed; limit++) {
		char line[512];

		run_limited((int)limit, args);
		if (exited(&ran, 0))
			continue;
		last_line(ran.err, line, sizeof(line));
		cr_assert(exited(&ran, 1), "ulimit -n %u: status 0x%x; %s", limit, ran.status, ran.err);
		cr_assert_leq(text_count_lines(ran.err), 2, "ulimit -n %u: %s", limit, ran.err);
		cr_assert(strstr(line, "out of file descriptors: this run needs about") &&
			  strstr(line, "(ulimit -n): raise it"), "ulimit -n %u: '%s'", limit, line);
		child_said |= strstr(line, "cannot start ") && strstr(line, "child") != NULL;
	}
	cr_assert(child_said, "no limit left the workload's child short: every run that failed is above");
}

/* ---------------------------------------------------------------- the runner itself */

/* read_comm - a task's name from its /proc comm file @path into @comm (16 bytes); nonzero with errno */
static int read_comm(const char *path, char comm[16])
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(comm, 16, f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/*
 * held_comm - runner__start()'s ready callback: the held child's name, from
 * /proc, into @ctx, once it is no longer the name it was forked with (it
 * names itself first thing; it cannot exec before this returns)
 */
static int held_comm(pid_t pid, void *ctx)
{
	char path[64], forked_as[16], *comm = ctx;

	if (read_comm("/proc/self/comm", forked_as))
		return -errno;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	for (int tries = 0; tries < 1000; tries++) {
		if (read_comm(path, comm))
			return -errno;
		if (strcmp(comm, forked_as))
			return 0;
		usleep(1000);
	}
	return 0;
}

/*
 * A command's process, held before its exec while wakeprobe puts it under
 * tracing, already goes by the command's name: a wakeup of it in that
 * wait, or in its execve() before the kernel renames it, is not
 * wakeprobe's
 */
Test(messages, a_command_held_before_its_exec_goes_by_its_name)
{
	struct runner r = { .pid = -1 };
	char comm[16] = "";

	cr_assert_eq(runner__start(&r, "/bin/true", (char *[]){ "/bin/true", NULL }, -1, held_comm, comm), 0);
	cr_assert_str_eq(comm, "true", "named '%s' while held", comm);
	runner__stop(&r, 1000);
	cr_assert(r.exited, "the child is reaped");
}

/*
 * A child with no fd free above fd 3 cannot move its pipes there: the
 * runner hears why from it (EMFILE) instead of seeing it end with 127.
 */
Test(messages, a_child_that_cannot_set_itself_up_reports_its_errno)
{
	struct runner r = { .pid = -1 };
	struct rlimit lim;
	int fd, last = -1, err;

	/* fill every fd below the limit but the four the runner's pipes take */
	lim.rlim_cur = lim.rlim_max = 64;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0, "%s", strerror(errno));
	while ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		last = fd;
	cr_assert_eq(errno, EMFILE);
	for (int i = 0; i < 4; i++)
		close(last - i);
	err = runner__start(&r, "/bin/true", (char *[]){ "/bin/true", NULL }, -1, NULL, NULL);
	cr_assert_eq(err, -EMFILE, "runner__start: %d (%s)", err, strerror(-err));
	cr_assert(r.pid < 0 || r.exited, "the child is reaped");
}
