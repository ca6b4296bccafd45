// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus_live.c - --prometheus-every: the metrics file rewritten
 * while an attach run traces. The small run of attach_run.h is fed wakeup by
 * wakeup, with a period of a few milliseconds: nothing is written before the
 * first period ends, each rewrite replaces the file whole (a new file renamed
 * over it, nothing else left beside it) with the metrics of the run so far,
 * and a rewrite that fails says so once and lets the run go on.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "attach_run.h"
#include "prom_text.h"
#include "prometheus_live.h"
#include "readback.h"

#define PERIOD_NS	2000000ull	/* 2 ms */
#define LABELS		"host=\"testhost\",target=\"pid 5000\""

static struct attach_run run;
static struct attach_analysis *analysis;
static struct prometheus_live live;
static char dir[] = "/tmp/wakeprobe-prom-live-XXXXXX";
static char file_path[PATH_MAX];

/* the run as attach_run__make() begins it, no wakeup in yet */
static void setup(void)
{
	struct attach_config cfg = { .fd_kind = attach_run__fd_kind };

	memset(&run, 0, sizeof(run));
	run.agg = attach_aggregate__new();
	run.engine = attach__new(&cfg, attach_run__take, &run);
	analysis = calloc(1, sizeof(*analysis));
	cr_assert(run.agg && run.engine && analysis);
	analysis->engine = run.engine;
	analysis->agg = run.agg;
	attach_run__add(&run, with_next_tgid(with_next_comm(ev_switch(RUN_T0 - 1000, 0, 0, RUN_WAKER, 0, 0),
							    "producer"), RUN_PROC));
	snprintf(run.run.meta.hostname, sizeof(run.run.meta.hostname), "testhost");
	run.run.meta.started_unix_ns = 1700000000500000000ull;
	run.run.trace_start_ns = RUN_T0 - 5000;
	strcpy(dir, "/tmp/wakeprobe-prom-live-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file_path, sizeof(file_path), "%s/wakeprobe.prom", dir);
}

static void teardown(void)
{
	unlink(file_path);
	rmdir(dir);
	free(analysis);
	attach_run__free(&run);
}

TestSuite(prometheus_live, .init = setup, .fini = teardown);

/* eventfd_wakeups - wakeups @from to @to - 1, each an eventfd write -> read, handed over as the engine ends them */
static void eventfd_wakeups(int from, int to)
{
	for (int i = from; i < to; i++)
		attach_run__wakeup(&run, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_write, RUN_EFD, 8,
							     RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				   SYS_read, RUN_EFD, 0);
	attach__advance(run.engine, RUN_T0 + (uint64_t)to * RUN_STEP);
}

/* a_period - let more than a period pass */
static void a_period(void)
{
	usleep((PERIOD_NS + 1000000) / 1000);
}

static ino_t inode_of(const char *p)
{
	struct stat st;

	cr_assert_eq(stat(p, &st), 0, "%s: %s", p, strerror(errno));
	return st.st_ino;
}

/* files_in_dir - how many entries the directory holds besides . and .. */
static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* read_stream - what is left to read of @f, whole */
static char *read_stream(FILE *f)
{
	char *buf = calloc(1, 1 << 16);
	size_t n;

	cr_assert_not_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	cr_assert_lt(n, (size_t)(1 << 16) - 1, "the file fits the buffer");
	buf[n] = '\0';
	return buf;
}

/* expect_metrics - @doc is a whole metrics file of @complete wakeups, @traced_s traced and @drops dropped */
static void expect_metrics(const char *doc, const char *complete, const char *traced_s, const char *drops)
{
	char buf[64];
	size_t n = strlen(doc);

	cr_assert_gt(n, 0);
	cr_assert_eq(doc[n - 1], '\n', "the file ends with its last line");
	cr_assert(strstr(doc, "# TYPE wakeprobe_wakeups_total counter\n"), "%s", doc);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" LABELS ",label=\"complete\"}", buf, sizeof(buf)),
			 complete);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_traced_seconds_total{" LABELS "}", buf, sizeof(buf)), traced_s);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_dropped_events_total{" LABELS "}", buf, sizeof(buf)), drops);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_run_start_timestamp_seconds{" LABELS "}", buf, sizeof(buf)),
			 "1700000000.5");
	/* what only the run's end knows is not said during it */
	cr_assert_not(prom_has_sample(doc, "wakeprobe_bpf_missed_runs_total"), "%s", doc);
}

Test(prometheus_live, each_period_replaces_the_file_whole_with_the_metrics_of_the_run_so_far)
{
	FILE *first;
	char *before, *after;
	ino_t ino;

	prometheus_live__init(&live, file_path, 1, "pid 5000");
	live.every_ns = PERIOD_NS;
	prometheus_live__begin(&live, &run.run);

	/* a period on: the one wakeup, 105 us traced */
	eventfd_wakeups(0, 1);
	a_period();
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	cr_assert_eq(files_in_dir(), 1, "the file, and no temporary one beside it");
	first = fopen(file_path, "r");
	cr_assert_not_null(first);
	ino = inode_of(file_path);

	/* two more wakeups and two drops, a period later */
	eventfd_wakeups(1, 3);
	a_period();
	prometheus_live__advance(&live, analysis, RUN_T0 + 3 * RUN_STEP, 2);
	cr_assert_eq(live.writes, 2);
	cr_assert_eq(files_in_dir(), 1, "the file, and no temporary one beside it");
	cr_assert_neq(inode_of(file_path), ino, "a new file was put in place, not the old one written over");

	/* a reader of the first file still reads it whole, as it was; the counters only grew */
	before = read_stream(first);
	fclose(first);
	expect_metrics(before, "1", "0.000105", "0");
	first = fopen(file_path, "r");
	cr_assert_not_null(first);
	after = read_stream(first);
	fclose(first);
	expect_metrics(after, "3", "0.000305", "2");
	free(before);
	free(after);
}

Test(prometheus_live, nothing_is_written_before_a_period_has_passed)
{
	ino_t ino;

	/* a period of a second: the calls below come well within it */
	prometheus_live__init(&live, file_path, 1, "pid 5000");
	cr_assert_eq(live.every_ns, 1000000000ull);
	prometheus_live__begin(&live, &run.run);
	eventfd_wakeups(0, 1);
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1, "nothing is written before a period has passed");
	/* once it has, the file comes; and not again until the next period has passed too */
	live.next_ns = 1;
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	ino = inode_of(file_path);
	eventfd_wakeups(1, 2);
	prometheus_live__advance(&live, analysis, RUN_T0 + 2 * RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	cr_assert_eq(inode_of(file_path), ino);
}

Test(prometheus_live, the_next_rewrite_is_a_period_after_the_last_one)
{
	uint64_t due;

	prometheus_live__init(&live, file_path, 1, "pid 5000");
	live.every_ns = PERIOD_NS;
	prometheus_live__begin(&live, &run.run);
	eventfd_wakeups(0, 1);
	a_period();
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	/* the next one is due a period from now, not from when this one was */
	due = live.next_ns;
	a_period();
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 2);
	cr_assert_geq(live.next_ns, due + PERIOD_NS, "%llu, %llu", (unsigned long long)live.next_ns,
		      (unsigned long long)due);
}

Test(prometheus_live, no_period_or_no_begin_writes_nothing)
{
	prometheus_live__init(&live, file_path, 0, "pid 5000");
	prometheus_live__begin(&live, &run.run);
	live.next_ns = 1;	/* due long ago */
	eventfd_wakeups(0, 1);
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1);
	/* ... but a service's SIGHUP asks for it now */
	prometheus_live__now(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	cr_assert_eq(access(file_path, F_OK), 0);
	unlink(file_path);
	/* standard output is the report's, at the end */
	prometheus_live__init(&live, "-", 0, "pid 5000");
	cr_assert_null(live.path);

	/* a period, but tracing has not begun */
	prometheus_live__init(&live, file_path, 1, "pid 5000");
	cr_assert_eq(live.next_ns, 0);
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1);
}

Test(prometheus_live, the_labels_are_the_hosts_and_the_targets_as_given)
{
	char buf[64], *doc;
	size_t len;

	snprintf(run.run.meta.hostname, sizeof(run.run.meta.hostname), "h\"1");
	prometheus_live__init(&live, file_path, 1, "./server --port \"80\"");
	prometheus_live__begin(&live, &run.run);
	cr_assert_str_eq(live.host, "h\"1");
	live.next_ns = 1;
	eventfd_wakeups(0, 2);
	prometheus_live__advance(&live, analysis, RUN_T0 + 2 * RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	doc = read_file(file_path, &len);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{host=\"h\\\"1\",target=\"./server --port "
				       "\\\"80\\\"\",label=\"complete\"}", buf, sizeof(buf)), "2");
	free(doc);
}

/* a rewrite that fails is said once, with why; the run goes on, and after a success a failure is said again */
Test(prometheus_live, a_failed_rewrite_is_said_once_and_the_run_goes_on, .init = cr_redirect_stderr)
{
	static const char why[] = ": cannot create it: No such file or directory (the run goes on; tried again in 1 s)\n";
	char missing[PATH_MAX + 32], sub[PATH_MAX + 8], *said, *second;
	FILE *err;

	snprintf(sub, sizeof(sub), "%s/gone", dir);
	snprintf(missing, sizeof(missing), "%s/wakeprobe.prom", sub);
	prometheus_live__init(&live, missing, 1, "pid 5000");
	prometheus_live__begin(&live, &run.run);
	eventfd_wakeups(0, 1);
	for (int i = 0; i < 3; i++) {
		live.next_ns = 1;	/* due */
		prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
		cr_assert(live.warned);
		cr_assert_gt(live.next_ns, 1, "tried again a period later");
	}
	cr_assert_eq(live.writes, 0);
	/* the directory comes: the next rewrite succeeds */
	cr_assert_eq(mkdir(sub, 0700), 0);
	live.next_ns = 1;
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(live.writes, 1);
	cr_assert_not(live.warned);
	cr_assert_eq(unlink(missing), 0);
	cr_assert_eq(rmdir(sub), 0);
	live.next_ns = 1;
	prometheus_live__advance(&live, analysis, RUN_T0 + RUN_STEP, 0);
	cr_assert(live.warned);

	fflush(stderr);
	err = cr_get_redirected_stderr();
	said = read_stream(err);
	/* twice: the first failure, and the first after the success */
	second = strchr(said, '\n');
	cr_assert_not_null(second, "%s", said);
	second++;
	cr_assert(!strncmp(said, "wakeprobe: --prometheus /tmp/wakeprobe-prom-live-", 49), "%s", said);
	cr_assert_eq(second - said, (long)strlen(second), "two lines alike: %s", said);
	cr_assert(!strncmp(said, second, (size_t)(second - said)), "%s", said);
	cr_assert_str_eq(second + strlen(second) - strlen(why), why, "%s", said);
	free(said);
}
