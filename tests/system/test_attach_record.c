// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_record.c - wakeprobe record and report in attach mode, through
 * the binary: a recorded command or process reports again, byte for byte,
 * what the live run printed, also for a user without privileges; --tid
 * narrows the report of a recording; what an attach recording cannot make
 * yet, and what a workload recording does not take, is one line and exit
 * 2. Recording needs root and BTF; those tests skip elsewhere and say why.
 * The format and the replay in process are in unit/test_attach_recording.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(attach_record, .timeout = 120);

struct ran {
	int status;
	char out[128 * 1024];
	char err[8 * 1024];
};

/* run_as - wakeprobe with @args (after argv[0]) to its end; @uid >= 0 drops root first */
static void run_as(struct ran *r, int uid, char *const args[])
{
	char *argv[40] = { (char *)wakeprobe_path() };
	struct child_setup setup = { .uid = uid };
	int out, err, i;
	pid_t pid;

	for (i = 0; args[i] && i < 38; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	pid = spawn_piped(argv, &setup, &out, &err);
	read_to_end(out, r->out, sizeof(r->out));
	read_to_end(err, r->err, sizeof(r->err));
	close(out);
	close(err);
	cr_assert_eq(waitpid(pid, &r->status, 0), pid);
	cr_assert(WIFEXITED(r->status), "wakeprobe did not exit normally: 0x%x", r->status);
}

static int exit_code(const struct ran *r)
{
	return WEXITSTATUS(r->status);
}

static const char *workload(const char *name, char *buf, size_t len)
{
	const char *dir = getenv("WAKEPROBE_WORKLOAD_DIR");

	cr_assert_not_null(dir, "set WAKEPROBE_WORKLOAD_DIR (make test does)");
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* the report in a live run's stdout: a command's own output, which shares it, comes first */
static const char *report_of(const char *out)
{
	const char *at = strncmp(out, "wakeprobe ", 10) ? strstr(out, "\nwakeprobe ") : out;

	cr_assert_not_null(at, "no report in:\n%s", out);
	return at == out ? at : at + 1;
}

/* assert_same - @replayed is @live, or where they part */
static void assert_same(const char *live, const char *replayed, const char *what)
{
	size_t i = 0;

	while (live[i] && live[i] == replayed[i])
		i++;
	cr_assert(!live[i] && !replayed[i], "%s: the report of the recording differs from the live one at byte %zu: "
		  "'%.80s' vs live '%.80s'", what, i, replayed + i, live + i);
}

/* wakee_via - the wakee tid of the pairs table's first row through @mechanism; 0 if none */
static long wakee_via(const char *report, const char *mechanism, long *count)
{
	char via[128];
	const char *at, *line;
	long tid;

	snprintf(via, sizeof(via), "via %s\n", mechanism);
	at = strstr(report, via);
	if (!at)
		return 0;
	for (line = at; line > report && line[-1] != '\n'; line--)
		;
	for (line--; line > report && line[-1] != '\n'; line--)
		;
	/* "thread eventfd 1234   eventfd 1235   300 ...": the waker, the wakee's comm and tid, the count */
	cr_assert_eq(sscanf(line, "%*s %*s %*s %*s %ld %ld", &tid, count), 2, "row: %.120s", line);
	return tid;
}

/* wakeups_line - the N of "wakeups    N of traced threads", and with --tid the M of "(--tid: M of other ...)" */
static uint64_t wakeups_line(const char *report, uint64_t *left_out)
{
	const char *at = strstr(report, "\n  wakeups ");
	unsigned long long n = 0, m = 0;

	cr_assert_not_null(at, "%s", report);
	cr_assert_geq(sscanf(at, "\n  wakeups %llu of traced threads (--tid: %llu", &n, &m), 1, "%.100s", at);
	if (left_out)
		*left_out = m;
	return n;
}

/* temp_dir - a directory any user may read, for a recording read back as nobody */
static void temp_dir(char *dir)
{
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0755), 0);
}

/* assert_same_file - the files @a and @b hold the same bytes */
static void assert_same_file(const char *a, const char *b)
{
	static char da[8 << 20], db[8 << 20];
	size_t na, nb;
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");

	cr_assert(fa && fb, "%s or %s is missing", a, b);
	na = fread(da, 1, sizeof(da), fa);
	nb = fread(db, 1, sizeof(db), fb);
	fclose(fa);
	fclose(fb);
	cr_assert(na > 0 && na < sizeof(da), "%s: %zu bytes", a, na);
	cr_assert(na == nb && !memcmp(da, db, na), "%s (%zu bytes) and %s (%zu bytes) differ", a, na, b, nb);
}

/*
 * The command's run, recorded: report of the file is the live text, its
 * CSV and timeline are the live run's, and --tid narrows it to one thread.
 */
Test(attach_record, a_recorded_command_reports_again_as_it_ran_and_tid_narrows_it)
{
	char dir[] = "/tmp/wakeprobe-test-arec.XXXXXX", rec[600], path[PATH_MAX], tid_arg[16], want[64];
	char csv[600], tl[600], csv2[600], tl2[600];
	char *record[] = { "record", "-o", rec, "--outliers", "3", "--csv", csv, "--perfetto", tl, "--",
			   (char *)workload("eventfd", path, sizeof(path)), "--samples", "300", NULL };
	char *report[] = { "report", rec, "--outliers", "3", NULL };
	char *files[] = { "report", rec, "--outliers", "3", "--csv", csv2, "--perfetto", tl2, NULL };
	char *narrowed[] = { "report", rec, "--outliers", "3", "--tid", tid_arg, NULL };
	static struct ran live, again, narrow;
	uint64_t all, kept, left_out;
	long wakee, count, count_narrowed;
	struct stat st;

	skip_unless_traceable();
	temp_dir(dir);
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);
	snprintf(csv, sizeof(csv), "%s/live.csv", dir);
	snprintf(tl, sizeof(tl), "%s/live.trace.json", dir);
	snprintf(csv2, sizeof(csv2), "%s/again.csv", dir);
	snprintf(tl2, sizeof(tl2), "%s/again.trace.json", dir);
	run_as(&live, -1, record);
	cr_assert_eq(exit_code(&live), 0, "%s", live.err);
	cr_assert_eq(stat(rec, &st), 0, "the recording is in place");
	cr_assert_eq(st.st_mode & 0002, 0, "the recording is not world-writable");
	cr_assert(strstr(live.out, "ended: the command exited"), "%s", live.out);

	run_as(&again, -1, report);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	cr_assert_str_empty(again.err);
	assert_same(report_of(live.out), again.out, "report --outliers 3");
	run_as(&again, -1, files);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	assert_same_file(csv, csv2);
	assert_same_file(tl, tl2);
	unlink(csv);
	unlink(tl);
	unlink(csv2);
	unlink(tl2);

	wakee = wakee_via(again.out, "eventfd write -> read", &count);
	cr_assert_gt(wakee, 0, "no eventfd pair in:\n%s", again.out);
	/*
	 * what is checked here is the replay; the count only says the pair is the
	 * workload's: on a loaded machine a write may find the reader not yet asleep
	 */
	cr_assert(count >= 200 && count <= 300, "%ld eventfd wakeups of 300", count);
	snprintf(tid_arg, sizeof(tid_arg), "%ld", wakee);
	run_as(&narrow, -1, narrowed);
	cr_assert_eq(exit_code(&narrow), 0, "%s", narrow.err);
	snprintf(want, sizeof(want), ", threads %ld\n", wakee);
	cr_assert(strstr(narrow.out, want), "the header names the thread:\n%s", narrow.out);
	all = wakeups_line(again.out, NULL);
	kept = wakeups_line(narrow.out, &left_out);
	cr_assert_gt(left_out, 0, "the main thread's timer wakeups are left out:\n%s", narrow.out);
	cr_assert_eq(kept + left_out, all, "%" PRIu64 " kept and %" PRIu64 " left out of %" PRIu64, kept, left_out,
		     all);
	cr_assert_eq(wakee_via(narrow.out, "eventfd write -> read", &count_narrowed), wakee);
	cr_assert_eq(count_narrowed, count, "the thread keeps every one of its eventfd wakeups");
	cr_assert_null(strstr(narrow.out, "via timer"), "the timer woke the other thread:\n%s", narrow.out);

	unlink(rec);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}

/*
 * A run of the command, recorded as attach mode traces by default (the
 * lean engine): a wakeup and its names in two records (and the flight
 * records of the few slow ones the running p99 picks), under a third of
 * the bytes of the full engine's recording of the same command; report of the file is the
 * live text, its eventfd wakeups named from both ends. (A lean recording's
 * flight records replaying into the same explanations: unit/test_attach_recording.c.)
 */
Test(attach_record, a_recorded_lean_run_reports_again_as_it_ran_in_a_third_of_the_bytes)
{
	char dir[] = "/tmp/wakeprobe-test-arec.XXXXXX", rec[600], full[600], path[PATH_MAX];
	char *record[] = { "record", "-o", rec, "--outliers", "3", "--",
			   (char *)workload("eventfd", path, sizeof(path)), "--samples", "300", NULL };
	char *record_full[] = { "record", "-o", full, "--engine", "full", "--outliers", "3", "--",
				(char *)workload("eventfd", path, sizeof(path)), "--samples", "300", NULL };
	char *report[] = { "report", rec, "--outliers", "3", NULL };
	static struct ran live, again, full_run;
	struct stat st, st_full;
	long count;

	skip_unless_traceable();
	temp_dir(dir);
	snprintf(rec, sizeof(rec), "%s/lean.wpr", dir);
	snprintf(full, sizeof(full), "%s/full.wpr", dir);
	run_as(&live, -1, record);
	cr_assert_eq(exit_code(&live), 0, "%s", live.err);
	cr_assert(strstr(live.out, "  tracing    the lean engine"), "%s", live.out);
	run_as(&again, -1, report);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	cr_assert_str_empty(again.err);
	assert_same(report_of(live.out), again.out, "report --outliers 3");
	cr_assert_gt(wakee_via(again.out, "eventfd write -> read", &count), 0, "no eventfd pair in:\n%s", again.out);
	cr_assert(count >= 200 && count <= 300, "%ld eventfd wakeups of 300", count);

	run_as(&full_run, -1, record_full);
	cr_assert_eq(exit_code(&full_run), 0, "%s", full_run.err);
	cr_assert_eq(stat(rec, &st), 0);
	cr_assert_eq(stat(full, &st_full), 0);
	cr_assert_lt(st.st_size * 3, st_full.st_size, "slow %lld bytes, all %lld", (long long)st.st_size,
		     (long long)st_full.st_size);
	unlink(rec);
	unlink(full);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}

/*
 * A running process, recorded by root and reported by nobody: the report
 * needs no privilege and prints the live text again, with the same report
 * options, and the JSON document the live run wrote, byte for byte.
 */
Test(attach_record, a_recorded_process_is_reported_by_a_user_without_privileges)
{
	char dir[] = "/tmp/wakeprobe-test-arec.XXXXXX", rec[600], json[600], live_json[600], path[PATH_MAX], pid_arg[16];
	char *wl[] = { (char *)workload("eventfd", path, sizeof(path)), "--samples", "1500", "--cpus", "0,1", NULL };
	char *record[] = { "record", "-o", rec, "--pid", pid_arg, "--outliers", "2", "--threshold-us", "20",
			   "--pairs", "3", "--json", live_json, NULL };
	char *report[] = { "report", rec, "--pairs", "3", "--threshold-us", "20", "--outliers", "2", NULL };
	char *with_json[] = { "report", rec, "--outliers", "2", "--threshold-us", "20", "--pairs", "3", "--json", json,
			      NULL };
	char *with_json_out[] = { "report", rec, "--outliers", "1", "--json", "-", NULL };
	static char live_doc[1 << 20], again_doc[1 << 20];
	FILE *f;
	char *with_duration[] = { "report", rec, "--duration", "5", NULL };
	static struct ran live, again, refused;
	struct passwd *nobody = getpwnam("nobody");
	int out, err, status, uid, shown = 0;
	char wl_out[4096];
	const char *pairs;
	struct stat st;
	pid_t pid;

	skip_unless_traceable();
	if (!nobody)
		cr_skip_test("no 'nobody' user to report as");
	uid = (int)nobody->pw_uid;
	temp_dir(dir);
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);
	snprintf(json, sizeof(json), "%s/run.json", dir);
	snprintf(live_json, sizeof(live_json), "%s/live.json", dir);
	/* a new file is root's and 0600: made first, readable, it keeps that mode when the run replaces it */
	close(open(rec, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
	cr_assert_eq(chmod(rec, 0644), 0);
	pid = spawn_piped(wl, NULL, &out, &err);
	snprintf(pid_arg, sizeof(pid_arg), "%d", pid);
	run_as(&live, -1, record);
	read_to_end(out, wl_out, sizeof(wl_out));
	close(out);
	close(err);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert_eq(exit_code(&live), 0, "%s", live.err);
	cr_assert(strstr(live.out, "ended: every target exited"), "%s", live.out);
	cr_assert_eq(strncmp(live.out, "wakeprobe ", 10), 0, "a --pid run's stdout is the report alone");
	cr_assert_eq(stat(live_json, &st), 0, "the live run wrote no JSON");

	run_as(&again, uid, report);
	cr_assert_eq(exit_code(&again), 0, "as nobody: %s", again.err);
	cr_assert_str_empty(again.err);
	assert_same(live.out, again.out, "report as nobody");
	pairs = strstr(again.out, "Waker -> wakee pairs, the ");
	cr_assert(pairs && sscanf(pairs, "Waker -> wakee pairs, the %d with", &shown) == 1, "%s", again.out);
	cr_assert(shown >= 1 && shown <= 3, "--pairs 3 shows %d rows", shown);

	/* nobody may not write into the directory: stdout, then a file as root */
	run_as(&again, uid, with_json_out);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	cr_assert_str_empty(again.err);
	cr_assert(strstr(again.out, "\"kind\": \"attach\""), "stdout is not the attach document: %.300s", again.out);
	cr_assert_null(strstr(again.out, "Waker -> wakee pairs"), "the text report shares stdout with the JSON");
	run_as(&again, -1, with_json);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	f = fopen(live_json, "r");
	cr_assert_not_null(f);
	live_doc[fread(live_doc, 1, sizeof(live_doc) - 1, f)] = '\0';
	fclose(f);
	f = fopen(json, "r");
	cr_assert_not_null(f, "report --json wrote no file");
	again_doc[fread(again_doc, 1, sizeof(again_doc) - 1, f)] = '\0';
	fclose(f);
	assert_same(live_doc, again_doc, "report --json");

	run_as(&refused, uid, with_duration);
	cr_assert_eq(exit_code(&refused), 2, "%s", refused.err);
	cr_assert(strstr(refused.err, "--duration is fixed by the recording"), "%s", refused.err);

	unlink(rec);
	unlink(json);
	unlink(live_json);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}

/* --tid and --pairs choose among an attach run's threads: a workload's recording has none to choose */
Test(attach_record, a_workload_recording_refuses_the_attach_report_options)
{
	char fixture[512];
	char *with_tid[] = { "report", fixture, "--tid", "5", NULL };
	char *with_pairs[] = { "report", fixture, "--pairs", "2", NULL };
	static struct ran r;

	snprintf(fixture, sizeof(fixture), "%s/cond.wpr", fixtures_dir());
	run_as(&r, -1, with_tid);
	cr_assert_eq(exit_code(&r), 2, "%s", r.err);
	cr_assert(strstr(r.err, "--tid is for an attach recording"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), strrchr(r.err, '\n'), "one line: %s", r.err);
	cr_assert_str_empty(r.out);
	run_as(&r, -1, with_pairs);
	cr_assert_eq(exit_code(&r), 2, "%s", r.err);
	cr_assert(strstr(r.err, "--pairs is for an attach recording"), "%s", r.err);
}

/* a command writes to wakeprobe's standard output: a recording there would hold its output too */
Test(attach_record, a_command_recorded_to_standard_output_is_refused_in_one_line)
{
	char *args[] = { "record", "-o", "-", "--", "/bin/echo", "into the recording", NULL };
	static struct ran r;

	run_as(&r, -1, args);
	cr_assert_eq(exit_code(&r), 2, "%s", r.err);
	cr_assert(strstr(r.err, "record -o - shares standard output with the command"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), strrchr(r.err, '\n'), "one line: %s", r.err);
	cr_assert_str_empty(r.out, "nothing ran");
}

/*
 * --chains, recorded: the report of the file is the live text, every
 * chain with it (the pairs' and the ten kept), and the CSV the live run
 * wrote, every wakeup's chain in its row, byte for byte.
 */
Test(attach_record, a_recorded_run_with_chains_replays_to_the_same_chains)
{
	char dir[] = "/tmp/wakeprobe-test-arec.XXXXXX", rec[600], csv_live[600], csv_again[600], path[PATH_MAX];
	char *record[] = { "record", "-o", rec, "--chains", "--csv", csv_live, "--outliers", "3", "--",
			   (char *)workload("eventfd", path, sizeof(path)), "--samples", "300", NULL };
	char *report[] = { "report", rec, "--csv", csv_again, "--outliers", "3", NULL };
	static struct ran live, again;

	skip_unless_traceable();
	temp_dir(dir);
	snprintf(rec, sizeof(rec), "%s/chains.wpr", dir);
	snprintf(csv_live, sizeof(csv_live), "%s/live.csv", dir);
	snprintf(csv_again, sizeof(csv_again), "%s/again.csv", dir);
	run_as(&live, -1, record);
	cr_assert_eq(exit_code(&live), 0, "%s", live.err);
	cr_assert(strstr(live.out, "Where the waits went, back through the wakers hop by hop"), "%s", live.out);
	cr_assert(strstr(live.out, "  chain: asleep "), "no wakeup's chain in:\n%s", live.out);
	run_as(&again, -1, report);
	cr_assert_eq(exit_code(&again), 0, "%s", again.err);
	assert_same(report_of(live.out), again.out, "report --outliers 3, a run with --chains");
	assert_same_file(csv_live, csv_again);
	unlink(rec);
	unlink(csv_live);
	unlink(csv_again);
	cr_assert_eq(rmdir(dir), 0, "nothing else was left in the directory");
}
