// SPDX-License-Identifier: GPL-2.0
/*
 * test_exits.c - how a run ends, through the binary: every process a
 * traced command started is stopped with it and counted, however it ends
 * (the command exits, --duration, --timeout, a first signal, a second);
 * the exit status docs/failures.md gives for each way; the signal named;
 * nothing made when a signal comes before the run began. Needs root: each
 * run loads BPF.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(exits);

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* proc_read - /proc/@pid/@name into @buf, NUL-terminated: the bytes read, or -1 if it is gone */
static ssize_t proc_read(const char *pid, const char *name, char *buf, size_t len)
{
	char path[300];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* running_with - how many live processes have @arg among their arguments */
static int running_with(const char *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		char args[4096], state[512], *p;
		ssize_t len;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' || proc_read(e->d_name, "stat", state, sizeof(state)) < 0)
			continue;
		p = strrchr(state, ')');
		if (!p || p[2] == 'Z')
			continue;
		len = proc_read(e->d_name, "cmdline", args, sizeof(args));
		for (ssize_t i = 0; i < len; i += (ssize_t)strlen(args + i) + 1)
			if (!strcmp(args + i, arg)) {
				n++;
				break;
			}
	}
	closedir(d);
	return n;
}

/* gone_within - @arg's processes are all gone within a second: the count left */
static int gone_within(const char *arg)
{
	int n = running_with(arg);

	for (int i = 0; i < 100 && n; i++) {
		sleep_ms(10);
		n = running_with(arg);
	}
	return n;
}

struct ended {
	int status;
	char out[256 * 1024];
	char err[4096];
};

/*
 * signalled_run - wakeprobe with @args, each of @sigs sent @after_ms from
 * the start, or with @started from when a process with that argument runs
 * (a run's command has begun then, however slowly its BPF side loaded),
 * 20 ms apart (0 ends the list)
 */
static void signalled_run(struct ended *r, char *const args[], const int sigs[], const long after_ms[],
			  const char *started)
{
	char *argv[40] = { (char *)wakeprobe_path() };
	long slept = 0;
	int out, err, i;
	pid_t pid;

	for (i = 0; args[i] && i < 38; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	pid = spawn_piped(argv, NULL, &out, &err);
	for (int w = 0; started && sigs && sigs[0] && !running_with(started); w++) {
		cr_assert_lt(w, 2000, "no process with '%s' started within 20 s", started);
		sleep_ms(10);
	}
	for (i = 0; sigs && sigs[i]; i++) {
		sleep_ms(after_ms[i] - slept);
		slept = after_ms[i];
		kill(pid, sigs[i]);
		sleep_ms(20);
	}
	read_to_end(out, r->out, sizeof(r->out));
	read_to_end(err, r->err, sizeof(r->err));
	close(out);
	close(err);
	cr_assert_eq(waitpid(pid, &r->status, 0), pid);
}

static int exit_status(const struct ended *r)
{
	cr_assert(WIFEXITED(r->status), "wakeprobe ended by signal %d; stderr: %s",
		  WIFSIGNALED(r->status) ? WTERMSIG(r->status) : 0, r->err);
	return WEXITSTATUS(r->status);
}

/* ---------------------------------------------------------------- what the command started */

/*
 * A way a run ends, with a command whose shell starts two sleeps, one of
 * them deaf to SIGTERM; each case's sleeps have their own lengths, the
 * marks the test finds them by.
 */
struct tree_case {
	char what[48];
	char shell[160];	/* sh -c's script */
	char mark[2][16];	/* arguments only the sleeps it starts have */
	char options[4][24];	/* wakeprobe's options before -- */
	int sigs[3];
	long after_ms[3];
	int exit_code;
	char ended[48];		/* the report's "ended:" */
	int stopped;		/* the processes besides the command the report says were stopped */
};

static struct tree_case tree_cases[] = {
	{ "--duration", "(trap '' TERM; exec sleep 41.01) & sleep 42.01; wait", { "41.01", "42.01" },
	  { "--duration", "1" }, { 0 }, { 0 }, 0, "--duration ran out", 2 },
	{ "--timeout", "(trap '' TERM; exec sleep 41.02) & sleep 42.02; wait", { "41.02", "42.02" },
	  { "--timeout", "1" }, { 0 }, { 0 }, 1, "--timeout ran out", 2 },
	{ "a first SIGINT", "(trap '' TERM; exec sleep 41.03) & sleep 42.03; wait", { "41.03", "42.03" },
	  { "" }, { SIGINT }, { 800 }, 0, "interrupted by SIGINT", 2 },
	{ "a first SIGTERM", "(trap '' TERM; exec sleep 41.04) & sleep 42.04; wait", { "41.04", "42.04" },
	  { "" }, { SIGTERM }, { 800 }, 0, "interrupted by SIGTERM", 2 },
	{ "a first SIGHUP", "(trap '' TERM; exec sleep 41.05) & sleep 42.05; wait", { "41.05", "42.05" },
	  { "" }, { SIGHUP }, { 800 }, 0, "interrupted by SIGHUP", 2 },
	/* the command ends by itself and leaves a daemon, in a session of its own, and a plain child */
	{ "the command's exit", "setsid sleep 41.06 & sleep 42.06 & sleep 0.5; exit 3", { "41.06", "42.06" },
	  { "" }, { 0 }, { 0 }, 3, "the command exited", 2 },
	/* the second signal ends wakeprobe at once: it reports nothing, and leaves nothing */
	{ "a second SIGINT", "(trap '' TERM; exec sleep 41.07) & sleep 42.07; wait", { "41.07", "42.07" },
	  { "" }, { SIGINT, SIGINT }, { 800, 801 }, 128 + SIGINT, "", 0 },
};

ParameterizedTestParameters(exits, every_process_the_command_started_ends_with_the_run)
{
	return cr_make_param_array(struct tree_case, tree_cases, sizeof(tree_cases) / sizeof(tree_cases[0]));
}

ParameterizedTest(struct tree_case *c, exits, every_process_the_command_started_ends_with_the_run, .timeout = 60)
{
	static struct ended r;
	char *args[16], stopped[96];
	int n = 0;

	skip_unless_traceable();
	cr_assert_eq(running_with(c->mark[0]) + running_with(c->mark[1]), 0, "%s: left from before", c->what);
	for (int i = 0; i < 4 && c->options[i][0]; i++)
		args[n++] = c->options[i];
	args[n++] = "--";
	args[n++] = "/bin/sh";
	args[n++] = "-c";
	args[n++] = c->shell;
	args[n] = NULL;
	signalled_run(&r, args, c->sigs, c->after_ms, c->mark[1]);
	cr_expect_eq(exit_status(&r), c->exit_code, "%s: exit %d, not %d; stderr: %s", c->what, exit_status(&r),
		     c->exit_code, r.err);
	cr_expect_eq(gone_within(c->mark[0]) + gone_within(c->mark[1]), 0, "%s: a process the command started "
		     "outlived wakeprobe", c->what);
	if (!c->ended[0])
		return;
	cr_expect(strstr(r.out, c->ended), "%s: the report does not say '%s':\n%.1500s", c->what, c->ended, r.out);
	snprintf(stopped, sizeof(stopped), "; %d processes it started still ran, and were stopped with it)",
		 c->stopped);
	cr_expect(strstr(r.out, stopped), "%s: the report does not say '%s':\n%.600s", c->what, stopped, r.out);
}

/* the count in the JSON, and the recording's replay says the same as the run */
Test(exits, the_processes_stopped_are_in_the_json_and_the_recording, .timeout = 60)
{
	char json[64], rec[64];
	FILE *f = temp_output("exits", json), *g = temp_output("exits-rec", rec);
	char *args[] = { "record", "-o", rec, "--json", json, "--duration", "1", "--", "/bin/sh", "-c",
			 "sleep 41.08 & sleep 42.08 & wait", NULL };
	static struct wakeprobe_ran r, replay;

	skip_unless_traceable();
	fclose(f);
	fclose(g);
	wakeprobe_run_ok(&r, args);
	cr_assert(strstr(r.out, "2 processes it started still ran"), "%.600s", r.out);
	wakeprobe_run_ok(&replay, (char *[]){ "report", rec, NULL });
	cr_expect_str_eq(replay.out, r.out, "the recording says otherwise than the run");
	cr_expect_eq(run_python("import json, sys\n"
				"d = json.load(open(sys.argv[1]))\n"
				"assert d['targets']['command']['others_stopped'] == 2, d['targets']\n"
				"assert d['ended']['duration_reached'] is True, d['ended']\n",
				(const char *const[]){ json, NULL }), 0, "the JSON does not count them");
	unlink(json);
	unlink(rec);
}

/* ---------------------------------------------------------------- before the run began */

struct early_case {
	char what[32];
	char args[8][24];
};

static struct early_case early_cases[] = {
	{ "a workload", { "--workload", "eventfd", "--json", "@" } },
	{ "a command", { "record", "-o", "@", "--", "/bin/sleep", "5" } },
	{ "a process", { "--pid", "1", "--json", "@", "--duration", "5" } },
};

ParameterizedTestParameters(exits, a_signal_before_the_run_began_makes_nothing_and_exits_128_plus_it)
{
	return cr_make_param_array(struct early_case, early_cases, sizeof(early_cases) / sizeof(early_cases[0]));
}

/* 20 ms in, the BPF programs are still loading (about 100 ms): nothing is traced yet */
ParameterizedTest(struct early_case *c, exits, a_signal_before_the_run_began_makes_nothing_and_exits_128_plus_it,
		  .timeout = 30)
{
	static struct ended r;
	char dir[] = "/tmp/wakeprobe-exits-XXXXXX", file[64], *args[10] = { NULL };
	const int sigs[] = { SIGTERM, 0 };
	const long after[] = { 20 };

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/out", dir);
	for (int i = 0; i < 8 && c->args[i][0]; i++)
		args[i] = strcmp(c->args[i], "@") ? c->args[i] : file;
	signalled_run(&r, args, sigs, after, NULL);
	if (WIFSIGNALED(r.status)) {
		/* before its handlers exist wakeprobe dies of it, having made nothing: a slow start */
		cr_expect_eq(WTERMSIG(r.status), SIGTERM);
	} else {
		cr_expect_eq(exit_status(&r), 128 + SIGTERM, "%s: exit %d; stderr: %s", c->what, exit_status(&r),
			     r.err);
		cr_expect(strstr(r.err, "interrupted before the run began"), "%s: %s", c->what, r.err);
		cr_expect_eq(r.out[0], '\0', "%s: a report was printed: %.300s", c->what, r.out);
	}
	cr_expect_eq(access(file, F_OK), -1, "%s: a file was written", c->what);
	cr_assert_eq(rmdir(dir), 0, "%s: something was left in %s", c->what, dir);
}

/* ---------------------------------------------------------------- privileges */

Test(exits, another_users_process_is_a_privilege_error_exit_1)
{
	struct passwd *nobody = getpwnam("nobody");
	struct child_setup as_nobody = { .uid = -1 };
	static struct wakeprobe_ran r;

	if (geteuid() || !nobody)
		cr_skip_test("needs root, to run wakeprobe as nobody against init");
	as_nobody.uid = (int)nobody->pw_uid;
	wakeprobe_run_setup(&r, &as_nobody, (char *[]){ "--pid", "1", "--duration", "1", NULL });
	cr_assert(WIFEXITED(r.status), "status 0x%x", r.status);
	cr_expect_eq(WEXITSTATUS(r.status), 1, "exit %d: %s", WEXITSTATUS(r.status), r.err);
	cr_expect(strstr(r.err, "belongs to another user"), "%s", r.err);
	cr_expect(strstr(r.err, "lacks: run wakeprobe as root"), "%s", r.err);
	cr_expect(strstr(r.err, "CAP_KILL"), "the capability it lacks is named: %s", r.err);
	cr_expect_eq(text_count_lines(r.err), 1, "%s", r.err);
}
