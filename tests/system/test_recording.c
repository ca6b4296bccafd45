// SPDX-License-Identifier: GPL-2.0
/*
 * test_recording.c - the record file through the binary: `wakeprobe report`
 * of a fixture prints its golden text without root, a damaged file or an
 * output that cannot be made is one line, valgrind finds no error in the
 * report, and, as root, a live run against the report of its own recording.
 * The reader and the replay in process are in unit/test_recording.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(recording);

/* ---------------------------------------------------------------- the binary */

static int run(char *const args[], const char *out_path, char *err, size_t errlen);

/* run - wakeprobe @args, stdout into @out_path (NULL: /dev/null), stderr into @err; the exit code */
static int run(char *const args[], const char *out_path, char *err, size_t errlen)
{
	char err_path[] = "/tmp/wakeprobe-test-err.XXXXXX";
	int err_fd = mkstemp(err_path), status;
	size_t n;
	pid_t pid;

	cr_assert_geq(err_fd, 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(out, 1);
		dup2(err_fd, 2);
		execv(args[0], args);
		_exit(98);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	n = pread(err_fd, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(err_fd);
	unlink(err_path);
	cr_assert(WIFEXITED(status), "wakeprobe did not exit normally: 0x%x", status);
	return WEXITSTATUS(status);
}

Test(recording, the_report_command_prints_the_golden_text_and_needs_no_root)
{
	char fixture[512], golden_path[512], out_path[] = "/tmp/wakeprobe-test-out.XXXXXX", err[1024];
	char *const args[] = { (char *)wakeprobe_path(), "report", fixture, "--outliers", "2", "--threshold-us", "20",
			       NULL };
	size_t len, golden_len;
	char *out, *golden;

	close(mkstemp(out_path));
	snprintf(fixture, sizeof(fixture), "%s/cond.wpr", fixtures_dir());
	snprintf(golden_path, sizeof(golden_path), "%s/cond.outliers-2.txt", fixtures_dir());
	cr_assert_eq(run(args, out_path, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_empty(err);
	out = read_file(out_path, &len);
	golden = read_file(golden_path, &golden_len);
	cr_assert_str_eq(out, golden);
	unlink(out_path);
	free(out);
	free(golden);
}

Test(recording, report_of_a_damaged_file_is_one_line_exit_1)
{
	char path[] = "/tmp/wakeprobe-test-bad.XXXXXX", err[1024];
	char *const args[] = { (char *)wakeprobe_path(), "report", path, NULL };
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "WPREC\r\n\032\001\000\000\000\020\000\000\000\001\000", 18), 18);
	close(fd);
	cr_assert_eq(run(args, NULL, err, sizeof(err)), 1);
	cr_assert(strstr(err, "truncated record header at byte offset 16"), "%s", err);
	cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
	unlink(path);
}

Test(recording, an_output_that_cannot_be_made_is_one_line_and_leaves_nothing)
{
	char dir[] = "/tmp/wakeprobe-test-dir.XXXXXX", err[1024], fixture[512], missing[600];
	char *const into_dir[] = { (char *)wakeprobe_path(), "report", fixture, "--json", dir, NULL };
	char *const no_dir[] = { (char *)wakeprobe_path(), "report", fixture, "--csv", missing, NULL };
	struct stat st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(fixture, sizeof(fixture), "%s/untraced.wpr", fixtures_dir());
	snprintf(missing, sizeof(missing), "%s/no/such/dir/out.csv", dir);
	cr_assert_eq(run(into_dir, NULL, err, sizeof(err)), 1);
	cr_assert(strstr(err, "not a regular file"), "%s", err);
	cr_assert_eq(run(no_dir, NULL, err, sizeof(err)), 1);
	cr_assert(strstr(err, "cannot create it"), "%s", err);
	cr_assert_neq(stat(missing, &st), 0);
	cr_assert_eq(rmdir(dir), 0, "the directory is left empty");
}

/* assert_same_output - the live run's @what, at @live, and the report's, at @replayed, byte for byte */
static void assert_same_output(const char *what, const char *live, const char *replayed)
{
	size_t alen, blen;
	char *a = read_file(live, &alen), *b = read_file(replayed, &blen);

	cr_assert_gt(alen, 1000, "%s: the live run wrote it", what);
	cr_assert(alen == blen && !memcmp(a, b, alen), "%s: the live run and the report of its recording differ", what);
	free(a);
	free(b);
}

/*
 * As root: a live run and the report of its recording print the same text,
 * and the file appears only once complete, not writable by others.
 */
Test(recording, a_live_run_and_the_report_of_its_recording_agree, .timeout = 120)
{
	static const char *const outputs[] = { "text", "json", "csv", "timeline" };
	char dir[] = "/tmp/wakeprobe-test-rec.XXXXXX", rec[600], err[2048];
	char live[4][600], replayed[4][600];
	char *const record[] = { (char *)wakeprobe_path(), "record", "-o", rec, "--workload", "cond", "--samples", "300",
				 "--interval-us", "300", "--cpus", "0,1", "--outliers", "3", "--json", live[1], "--csv",
				 live[2], "--perfetto", live[3], NULL };
	char *const report[] = { (char *)wakeprobe_path(), "report", rec, "--outliers", "3", "--json", replayed[1],
				 "--csv", replayed[2], "--perfetto", replayed[3], NULL };
	char checker[512];
	struct stat st;
	size_t i;

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);
	for (i = 0; i < 4; i++) {
		snprintf(live[i], sizeof(live[i]), "%s/live.%s", dir, outputs[i]);
		snprintf(replayed[i], sizeof(replayed[i]), "%s/replayed.%s", dir, outputs[i]);
	}
	cr_assert_eq(run(record, live[0], err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(stat(rec, &st), 0);
	cr_assert_eq(st.st_mode & 0002, 0, "the recording is not world-writable");
	cr_assert_eq(run(report, replayed[0], err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < 4; i++)
		assert_same_output(outputs[i], live[i], replayed[i]);
	/* and each is what it claims to be */
	{
		const char *const json_args[] = { live[1], NULL };
		const char *const timeline_args[] = { tests_file("check_timeline.py", checker, sizeof(checker)),
						      live[3], NULL };
		size_t len;
		char *text = read_file(live[0], &len);

		cr_assert(strstr(text, "Phases of the"), "a traced report");
		free(text);
		cr_assert_eq(run_python("import json, sys; r = json.load(open(sys.argv[1]))['runs'][0]; "
					"assert r['workload']['name'] == 'cond' and r['samples']['seen'] == 300, r['samples']",
					json_args), 0);
		cr_assert_eq(run_python("import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], "
					"run_name='__main__')", timeline_args), 0, "the timeline fails its checker");
	}
	for (i = 0; i < 4; i++) {
		unlink(live[i]);
		unlink(replayed[i]);
	}
	unlink(rec);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}

/*
 * The default engine's run of a workload: one record per wakeup, the slow
 * ones' flight records, the lean counters and thresholds in RUN_END; its
 * report says the same as the live run. At its default threshold (the
 * running p99), its recording is under a third of the full engine's. The
 * first run sets a threshold of 5 us, which a waking to switch-in across
 * CPUs takes on any machine, quiet or not: a quiet one may have no wakeup
 * past 40 us in 600, and the report would have no slow one to explain.
 * Its size then says nothing of the engine.
 */
Test(recording, a_lean_live_run_and_the_report_of_its_recording_agree, .timeout = 120)
{
	static const char *const outputs[] = { "text", "json", "csv" };
	char dir[] = "/tmp/wakeprobe-test-rec.XXXXXX", rec[600], full[600], err[2048];
	char live[3][600], replayed[3][600];
	char *const record[] = { (char *)wakeprobe_path(), "record", "-o", rec, "--workload", "eventfd", "--samples",
				 "600", "--interval-us", "300", "--cpus", "0,1", "--outliers", "3", "--threshold-us",
				 "5", "--json", live[1], "--csv", live[2], NULL };
	char *const record_default[] = { (char *)wakeprobe_path(), "record", "-o", rec, "--workload", "eventfd",
					 "--samples", "600", "--interval-us", "300", "--cpus", "0,1", NULL };
	char *const record_full[] = { (char *)wakeprobe_path(), "record", "-o", full, "--workload", "eventfd",
				      "--samples", "600", "--interval-us", "300", "--cpus", "0,1", "--engine", "full",
				      NULL };
	/* the report chooses its outliers anew: the same options, the same choice */
	char *const report[] = { (char *)wakeprobe_path(), "report", rec, "--outliers", "3", "--threshold-us", "5",
				 "--json", replayed[1], "--csv", replayed[2], NULL };
	struct stat st, st_full;
	size_t i, len;
	char *text;

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);
	snprintf(full, sizeof(full), "%s/full.wpr", dir);
	for (i = 0; i < 3; i++) {
		snprintf(live[i], sizeof(live[i]), "%s/live.%s", dir, outputs[i]);
		snprintf(replayed[i], sizeof(replayed[i]), "%s/replayed.%s", dir, outputs[i]);
	}
	cr_assert_eq(run(record, live[0], err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(run(report, replayed[0], err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < 3; i++)
		assert_same_output(outputs[i], live[i], replayed[i]);
	text = read_file(live[0], &len);
	cr_assert(strstr(text, "the lean engine: sched_waking"), "the default engine:\n%s", text);
	cr_assert(strstr(text, "\nresume_user "), "six phases:\n%s", text);
	cr_assert(strstr(text, "Where the time of the"), "a slow wakeup its flight records explained:\n%s", text);
	free(text);
	cr_assert_eq(run(record_default, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(run(record_full, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(stat(rec, &st), 0);
	cr_assert_eq(stat(full, &st_full), 0);
	cr_log_info("600 paced eventfd samples: %ld bytes, --engine full %ld", (long)st.st_size, (long)st_full.st_size);
	cr_assert_lt(st.st_size * 3, st_full.st_size, "a record per wakeup, not the stream around it");
	for (i = 0; i < 3; i++) {
		unlink(live[i]);
		unlink(replayed[i]);
	}
	unlink(rec);
	unlink(full);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}

/* valgrind memcheck over `wakeprobe report` of each fixture, with every output it can write */
struct memcheck_case {
	char fixture[16];
};

static struct memcheck_case memcheck_cases[] = { { "eventfd" }, { "cond" }, { "spin" }, { "untraced" }, { "lost" } };

ParameterizedTestParameters(recording, valgrind_finds_no_error_and_no_leak_in_the_report_of_a_fixture)
{
	return cr_make_param_array(struct memcheck_case, memcheck_cases,
				   sizeof(memcheck_cases) / sizeof(memcheck_cases[0]));
}

ParameterizedTest(struct memcheck_case *c, recording, valgrind_finds_no_error_and_no_leak_in_the_report_of_a_fixture,
		  .timeout = 120)
{
	char dir[] = "/tmp/wakeprobe-test-vg.XXXXXX", fixture[512], json[600], err[8192];
	char *const args[] = { "/usr/bin/valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
			       "--errors-for-leak-kinds=definite,indirect", (char *)wakeprobe_path(), "report", fixture,
			       "--outliers", "20", "--json", json, NULL };
	const char *sanitized = getenv("WAKEPROBE_SANITIZED");

	if (sanitized && sanitized[0])
		cr_skip_test("an ASan build cannot run under valgrind; the plain make test runs this");
	cr_assert_eq(access(args[0], X_OK), 0, "valgrind is missing: scripts/setup-deps.sh test installs it");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(fixture, sizeof(fixture), "%s/%s.wpr", fixtures_dir(), c->fixture);
	snprintf(json, sizeof(json), "%s/report.json", dir);
	cr_assert_eq(run(args, NULL, err, sizeof(err)), 0, "%s: valgrind: %s", c->fixture, err);
	cr_assert_str_empty(err, "%s: valgrind said: %s", c->fixture, err);
	cr_assert_eq(unlink(json), 0, "the JSON report was written");
	cr_assert_eq(rmdir(dir), 0);
}
