// SPDX-License-Identifier: GPL-2.0
/*
 * test_outputs.c - nothing the user asked for is lost: the files are
 * written whatever happens to standard output (a reader gone, a full
 * device), the failure is one line and exit 1; two names of one file are
 * refused before anything runs; a full disk is named as such; a replaced
 * file of root's or ours keeps its mode, one another user planted becomes
 * ours and private, a new one is 0600. outfile.c's parts alone are in
 * unit/test_outfile.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(outputs);

/* a test's own directory, and the paths in it */
struct scratch {
	char dir[64];
	char path[8][128];
};

static void scratch_make(struct scratch *s)
{
	snprintf(s->dir, sizeof(s->dir), "/tmp/wakeprobe-outputs-XXXXXX");
	cr_assert_not_null(mkdtemp(s->dir));
}

/* scratch_at - @name in the scratch directory, kept in slot @i */
static char *scratch_at(struct scratch *s, int i, const char *name)
{
	snprintf(s->path[i], sizeof(s->path[i]), "%s/%s", s->dir, name);
	return s->path[i];
}

/* scratch_entries - what the directory holds: its names, space-separated and sorted, into @buf */
static const char *scratch_entries(const struct scratch *s, char *buf, size_t len)
{
	struct dirent **names;
	int n = scandir(s->dir, &names, NULL, alphasort);
	size_t used = 0;

	cr_assert_geq(n, 0);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? " " : "",
						 names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return buf;
}

/* scratch_clear - remove the directory and what the test left in it */
static void scratch_clear(struct scratch *s)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
	cr_assert_eq(system(cmd), 0);
}

/* expect_last_line - @r ended with exit @status, and its stderr's last line holds @want */
static void expect_last_line(const struct wakeprobe_ran *r, int status, const char *want)
{
	const char *nl = strrchr(r->err, '\n');
	const char *last = r->err;

	cr_assert(WIFEXITED(r->status), "wakeprobe ended by signal %d, not with a status; stderr: %s",
		  WIFSIGNALED(r->status) ? WTERMSIG(r->status) : 0, r->err);
	cr_expect_eq(WEXITSTATUS(r->status), status, "exit %d, not %d; stderr: %s", WEXITSTATUS(r->status), status,
		     r->err);
	cr_assert_not_null(nl, "stderr is not whole lines: %s", r->err);
	for (const char *p = r->err; p < nl; p++)
		if (*p == '\n')
			last = p + 1;
	cr_expect(strstr(last, want) && !memchr(last, '\n', (size_t)(nl - last)),
		  "stderr's last line does not say '%s': %s", want, r->err);
}

static const char *fixture(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", fixtures_dir(), name);
	return buf;
}

/* ---------------------------------------------------------------- standard output lost */

static const struct child_setup unread = { .uid = -1, .stdout_unread = true };
static const struct child_setup full = { .uid = -1, .stdout_to = "/dev/full" };

Test(outputs, a_report_whose_reader_is_gone_still_writes_its_files_and_says_so)
{
	struct scratch s;
	struct wakeprobe_ran r;
	char in[256], left[256];

	scratch_make(&s);
	wakeprobe_run_setup(&r, &unread, (char *[]){ "report", (char *)fixture("cond.wpr", in, sizeof(in)),
			    "--json", scratch_at(&s, 0, "s.json"), "--csv", scratch_at(&s, 1, "s.csv"), NULL });
	expect_last_line(&r, 1, "wakeprobe: writing to standard output failed: Broken pipe");
	cr_expect(json_check(s.path[0], "assert d['runs'][0]['workload']['name'] == 'cond'"), "the JSON is not whole");
	cr_expect(csv_check(s.path[1], (const char *const[]){ "0:workload=cond", NULL }), "the CSV is not whole");
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "s.csv s.json", "no temporary file is left");
	scratch_clear(&s);
}

Test(outputs, an_untraced_run_whose_reader_is_gone_still_writes_its_files_and_says_so, .timeout = 60)
{
	struct scratch s;
	struct wakeprobe_ran r;
	char left[256];

	scratch_make(&s);
	wakeprobe_run_setup(&r, &unread, (char *[]){ "--workload", "eventfd", "--no-trace", "--samples", "500",
			    "--json", scratch_at(&s, 0, "s.json"), "--csv", scratch_at(&s, 1, "s.csv"), NULL });
	expect_last_line(&r, 1, "wakeprobe: writing to standard output failed: Broken pipe");
	cr_expect(json_check(s.path[0], "assert d['runs'][0]['workload']['name'] == 'eventfd'"), "the JSON is not whole");
	cr_expect(csv_check(s.path[1], (const char *const[]){ "rows=500", NULL }), "the CSV is not whole");
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "s.csv s.json", "no temporary file is left");
	scratch_clear(&s);
}

/* record_unread - record -o with @what to trace, stdout unread: the recording is whole and replays */
static void record_unread(char *const what[])
{
	char *args[16] = { "record", "-o", NULL };
	struct scratch s;
	struct wakeprobe_ran r, again;
	char left[256];
	int n = 2;

	skip_unless_traceable();
	scratch_make(&s);
	args[n++] = scratch_at(&s, 0, "s.wpr");
	for (int i = 0; what[i]; i++)
		args[n++] = what[i];
	wakeprobe_run_setup(&r, &unread, args);
	expect_last_line(&r, 1, "wakeprobe: writing to standard output failed: Broken pipe");
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "s.wpr", "the recording, and no temporary file");
	wakeprobe_run(&again, (char *[]){ "report", s.path[0], NULL });
	cr_expect_eq(again.status, 0, "the recording does not replay: %s", again.err);
	cr_expect(strlen(again.out) > 200, "its replay reports nothing: %s", again.out);
	scratch_clear(&s);
}

Test(outputs, a_recording_whose_reader_is_gone_is_whole, .timeout = 60)
{
	record_unread((char *[]){ "--workload", "eventfd", "--samples", "300", NULL });
}

Test(outputs, a_command_recording_whose_reader_is_gone_is_whole, .timeout = 60)
{
	record_unread((char *[]){ "--", "/bin/sh", "-c", "for i in 1 2 3 4 5; do sleep 0.01; done", NULL });
}

/* a run whose text report goes to a full device */
struct full_case {
	char args[6][32];
	bool traced;
};

static struct full_case full_cases[] = {
	{ { "report", "@cond.wpr" }, false },
	{ { "--workload", "eventfd", "--no-trace", "--samples", "200" }, false },
	{ { "--", "/bin/true" }, true },
};

ParameterizedTestParameters(outputs, a_report_to_a_full_device_is_one_line_and_exit_1)
{
	return cr_make_param_array(struct full_case, full_cases, sizeof(full_cases) / sizeof(full_cases[0]));
}

ParameterizedTest(struct full_case *c, outputs, a_report_to_a_full_device_is_one_line_and_exit_1, .timeout = 60)
{
	char *args[8] = { NULL }, in[256];
	struct wakeprobe_ran r;

	if (c->traced)
		skip_unless_traceable();
	for (int i = 0; i < 6 && c->args[i][0]; i++)
		args[i] = c->args[i][0] == '@' ? (char *)fixture(c->args[i] + 1, in, sizeof(in)) : c->args[i];
	wakeprobe_run_setup(&r, &full, args);
	expect_last_line(&r, 1, "wakeprobe: writing to standard output failed: No space left on device");
}

/* ---------------------------------------------------------------- one file, two names */

/* a clash, as the scratch directory's names: @ at the start of an argument is the scratch directory */
struct clash_case {
	char args[8][40];
	char says[80];
};

static struct clash_case clash_cases[] = {
	{ { "report", "@in.wpr", "--json", "@./in.wpr" }, "--json '" },
	{ { "report", "@in.wpr", "--csv", "@link.wpr" }, "is the recording" },
	{ { "report", "@link.wpr", "--perfetto", "@sub/../in.wpr" }, "is the recording" },
	{ { "report", "@in.wpr", "--json", "@a.json", "--csv", "@./a.json" }, "are the same file" },
	{ { "report", "@in.wpr", "--json", "@hard.wpr" }, "is the recording" },
	{ { "--workload", "eventfd", "--no-trace", "--json", "@sub/../a.json", "--plot", "@a.json" },
	  "are the same file" },
};

ParameterizedTestParameters(outputs, two_names_of_one_file_are_refused_before_anything_is_made)
{
	return cr_make_param_array(struct clash_case, clash_cases, sizeof(clash_cases) / sizeof(clash_cases[0]));
}

ParameterizedTest(struct clash_case *c, outputs, two_names_of_one_file_are_refused_before_anything_is_made)
{
	char *args[10] = { NULL }, in[256], left[256], cmd[1024];
	char argbuf[8][192];
	struct scratch s;
	struct wakeprobe_ran r;

	scratch_make(&s);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/in.wpr' && ln -s in.wpr '%s/link.wpr' && ln '%s/in.wpr' '%s/hard.wpr'"
		 " && mkdir '%s/sub'", fixture("cond.wpr", in, sizeof(in)), s.dir, s.dir, s.dir, s.dir, s.dir);
	cr_assert_eq(system(cmd), 0);
	for (int i = 0; i < 8 && c->args[i][0]; i++) {
		snprintf(argbuf[i], sizeof(argbuf[i]), "%s%s%s", c->args[i][0] == '@' ? s.dir : "",
			 c->args[i][0] == '@' ? "/" : "", c->args[i] + (c->args[i][0] == '@'));
		args[i] = argbuf[i];
	}
	wakeprobe_run(&r, args);
	expect_last_line(&r, 2, c->says);
	cr_expect_eq(text_count_lines(r.err), 1, "one line and nothing before it: %s", r.err);
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "hard.wpr in.wpr link.wpr sub", "nothing is made");
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s/in.wpr'", in, s.dir);
	cr_expect_eq(system(cmd), 0, "the recording is intact");
	scratch_clear(&s);
}

/* ---------------------------------------------------------------- a full disk */

/* the options as arrays: a parameter is copied into the test's process, a pointer would not be */
struct full_output {
	char option[16];
};

static struct full_output full_outputs[] = { { "--csv" }, { "--perfetto" }, { "--json" }, { "--plot" } };

ParameterizedTestParameters(outputs, a_full_disk_is_named_by_every_output)
{
	return cr_make_param_array(struct full_output, full_outputs, sizeof(full_outputs) / sizeof(full_outputs[0]));
}

/*
 * a 16 KiB tmpfs, in a mount namespace of the test's own: the outputs of
 * the cond fixture are larger, so each runs out of room while written
 */
ParameterizedTest(struct full_output *o, outputs, a_full_disk_is_named_by_every_output)
{
	struct scratch s;
	struct wakeprobe_ran r;
	char in[256], left[256];

	if (geteuid())
		cr_skip_test("needs root to mount a small tmpfs of its own");
	scratch_make(&s);
	cr_assert_eq(unshare(CLONE_NEWNS), 0);
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	cr_assert_eq(mount("wakeprobe-test", s.dir, "tmpfs", 0, "size=16k"), 0);
	wakeprobe_run(&r, (char *[]){ "report", (char *)fixture("cond.wpr", in, sizeof(in)), o->option,
				      scratch_at(&s, 0, "out"), NULL });
	expect_last_line(&r, 1, ": writing it failed: No space left on device");
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "", "nothing is left on the full disk");
	umount(s.dir);
	scratch_clear(&s);
}

/*
 * One output on the full disk, three on a healthy one: the failure costs
 * its own file alone. The healthy ones are put in place whole, the failure
 * is named, and the exit status says something failed.
 */
Test(outputs, a_failed_output_costs_only_itself)
{
	struct scratch full, healthy;
	struct wakeprobe_ran r;
	char in[256], left[256], check[PATH_MAX * 2];

	if (geteuid())
		cr_skip_test("needs root to mount a small tmpfs of its own");
	scratch_make(&full);
	scratch_make(&healthy);
	cr_assert_eq(unshare(CLONE_NEWNS), 0);
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	cr_assert_eq(mount("wakeprobe-test", full.dir, "tmpfs", 0, "size=16k"), 0);
	wakeprobe_run(&r, (char *[]){ "report", (char *)fixture("cond.wpr", in, sizeof(in)), "--csv",
				      scratch_at(&full, 0, "w.csv"), "--json", scratch_at(&healthy, 0, "r.json"),
				      "--perfetto", scratch_at(&healthy, 1, "t.json"), "--prometheus",
				      scratch_at(&healthy, 2, "m.prom"), NULL });
	expect_last_line(&r, 1, "--csv");
	cr_expect(strstr(r.err, "writing it failed: No space left on device"), "%s", r.err);
	cr_expect_str_eq(scratch_entries(&full, left, sizeof(left)), "", "nothing is left on the full disk");
	snprintf(check, sizeof(check), "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s", healthy.path[0]);
	cr_expect_eq(system(check), 0, "the JSON is whole");
	snprintf(check, sizeof(check), "grep -q '^wakeprobe_wakeups_total' %s", healthy.path[2]);
	cr_expect_eq(system(check), 0, "the metrics are whole");
	cr_expect_str_eq(scratch_entries(&healthy, left, sizeof(left)), "m.prom r.json t.json", "each healthy file, alone");
	umount(full.dir);
	scratch_clear(&full);
	scratch_clear(&healthy);
}

/*
 * SIGKILL cannot be caught: a run killed so writes nothing, and must leave
 * nothing either. Its files have no name until they are whole (O_TMPFILE),
 * so not even a temporary one is left where they were to go.
 */
Test(outputs, a_run_killed_by_sigkill_leaves_no_file_behind)
{
	struct scratch s;
	char left[256];
	int out, err, status;
	pid_t pid;

	skip_unless_traceable();
	scratch_make(&s);
	pid = spawn_piped((char *[]){ (char *)wakeprobe_path(), "--json", scratch_at(&s, 0, "r.json"), "--csv",
				      scratch_at(&s, 1, "w.csv"), "--perfetto", scratch_at(&s, 2, "t.json"), "--",
				      "sleep", "30", NULL }, NULL, &out, &err);
	wait_attached(pid, "wakeprobe -- sleep");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	status = wait_exit(pid, "wakeprobe", 10);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status 0x%x", status);
	close(out);
	close(err);
	cr_expect_str_eq(scratch_entries(&s, left, sizeof(left)), "", "nothing is left, not even a temporary file");
	scratch_clear(&s);
}

/* ---------------------------------------------------------------- modes and owners */

Test(outputs, a_planted_file_gets_a_report_of_ours_an_own_one_keeps_its_mode_a_new_one_is_0600)
{
	struct passwd *nobody = getpwnam("nobody");
	bool root = geteuid() == 0 && nobody;
	struct scratch s;
	struct wakeprobe_ran r;
	struct stat st;
	char in[256];
	FILE *f;

	scratch_make(&s);
	for (int i = 0; i < 2; i++) {
		f = fopen(scratch_at(&s, i, i ? "planted.json" : "own.json"), "w");
		cr_assert_not_null(f);
		fclose(f);
	}
	cr_assert_eq(chmod(s.path[0], 0640), 0);
	cr_assert_eq(chmod(s.path[1], 0644), 0);
	/* another user's, left where wakeprobe writes: not theirs to keep, whatever sudo says */
	if (root)
		cr_assert_eq(chown(s.path[1], nobody->pw_uid, nobody->pw_gid), 0);
	umask(022);
	wakeprobe_run_ok(&r, (char *[]){ "report", (char *)fixture("cond.wpr", in, sizeof(in)), "--json", s.path[0],
					 "--prometheus", s.path[1], "--csv", scratch_at(&s, 2, "new.csv"), NULL });
	cr_assert_eq(stat(s.path[0], &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0640, "our own replaced file is %o, not 0640", st.st_mode & 07777);
	cr_expect_gt(st.st_size, 0, "and it was replaced");
	cr_assert_eq(stat(s.path[1], &st), 0);
	cr_expect_gt(st.st_size, 0, "the planted file was replaced");
	if (root) {
		cr_expect(st.st_uid == 0 && st.st_gid == getegid(), "the planted file's report is owned by %d:%d",
			  st.st_uid, st.st_gid);
		cr_expect_eq(st.st_mode & 07777, 0600, "the planted file's report is %o, not 0600",
			     st.st_mode & 07777);
	}
	cr_assert_eq(stat(s.path[2], &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0600, "a new file under umask 022 is %o, not 0600", st.st_mode & 07777);
	scratch_clear(&s);
}

/* --output-mode: a reader the operator names (node_exporter's user) reads what wakeprobe makes */
Test(outputs, output_mode_makes_new_files_as_told_and_keeps_an_own_files_mode)
{
	struct scratch s;
	struct wakeprobe_ran r;
	struct stat st;
	char in[256];
	FILE *f;

	scratch_make(&s);
	f = fopen(scratch_at(&s, 0, "own.json"), "w");
	cr_assert_not_null(f);
	fclose(f);
	cr_assert_eq(chmod(s.path[0], 0600), 0);
	umask(077);
	wakeprobe_run_ok(&r, (char *[]){ "report", (char *)fixture("cond.wpr", in, sizeof(in)), "--output-mode", "0644",
					 "--json", s.path[0], "--prometheus", scratch_at(&s, 1, "new.prom"), NULL });
	umask(022);
	cr_assert_eq(stat(s.path[1], &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0644, "a new file under umask 077 is %o, not 0644", st.st_mode & 07777);
	cr_assert_eq(stat(s.path[0], &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0600, "our own replaced file is %o, not its own 0600", st.st_mode & 07777);
	cr_expect_gt(st.st_size, 0, "and it was replaced");
	scratch_clear(&s);
}
