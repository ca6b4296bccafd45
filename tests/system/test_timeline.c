// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeline.c - a real eventfd run written to the CSV and the timeline
 * at once: a row and a timeline wakeup for every sample, the file passing
 * tests/check_timeline.py. Needs root and BTF; elsewhere it skips and says
 * why. The timeline of synthetic streams is in unit/test_perfetto_*.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "csv_workload.h"
#include "helpers.h"
#include "perfetto_timeline.h"
#include "readback.h"

static char path[64];
static char csv_path[64];	/* the root test's CSV, if it made one */
static FILE *file;
static struct perfetto_timeline *tl;

static void setup(void)
{
	file = temp_output("timeline", path);
	tl = perfetto_timeline__open(file);
	cr_assert_not_null(tl);
}

static void teardown(void)
{
	unlink(path);
	if (csv_path[0])
		unlink(csv_path);
}

TestSuite(timeline, .init = setup, .fini = teardown, .timeout = 120);

/* close the timeline and its file, then check them */
#define expect_timeline(...)							\
	do {									\
		cr_assert_eq(perfetto_timeline__close(tl), 0);			\
		cr_assert_eq(fclose(file), 0);					\
		check_timeline(path, __VA_ARGS__);				\
	} while (0)

struct both {
	struct perfetto_timeline *tl;
	struct csv_workload *csv;
};

static void to_both(const struct sample_result *r, void *ctx)
{
	struct both *b = ctx;

	perfetto_timeline__sample(b->tl, r);
	csv_workload__add(b->csv, r);
}

static void to_timeline(const struct wp_event *e, void *ctx)
{
	struct both *b = ctx;

	perfetto_timeline__event(b->tl, e);
}

Test(timeline, a_traced_eventfd_run_writes_a_row_and_a_timeline_wakeup_for_every_sample)
{
	static const char count_rows[] =
		"import csv, sys\n"
		"rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
		"complete = sum(r['label'] == 'complete' and r['runq_wait_ns'] != '' for r in rows)\n"
		"if (len(rows), complete) != (int(sys.argv[2]), int(sys.argv[3])):\n"
		"    sys.exit(f'{len(rows)} rows, {complete} phased, want {sys.argv[2]} and {sys.argv[3]}')\n";
	char seen[24], phased[24], msg[256] = "";
	struct checks c = {};
	static struct run_result res;
	struct test_session sess;
	struct both b = { .tl = tl };
	FILE *csv_file;
	int fd;

	skip_unless_traceable();
	snprintf(csv_path, sizeof(csv_path), "/tmp/wakeprobe-csv-XXXXXX");
	fd = mkstemp(csv_path);
	cr_assert_geq(fd, 0);
	csv_file = fdopen(fd, "w");
	cr_assert_not_null(csv_file);
	b.csv = csv_workload__open(csv_file);
	cr_assert_not_null(b.csv);

	sess = test_session("eventfd", true, 300, 1000, &c);
	c.hook = to_both;
	c.hook_ctx = &b;
	sess.opts.analysis.on_event = to_timeline;
	sess.opts.analysis.on_event_ctx = &b;
	csv_workload__begin_run(b.csv, "eventfd", true);
	perfetto_timeline__begin_run(tl, "eventfd", true);
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &res, msg, sizeof(msg)), 0, "session failed: %s", msg);
	perfetto_timeline__end_run(tl);
	cr_assert_eq(c.seen, 300, "merged %lu of 300 samples", c.seen);
	cr_assert_gt(c.phased, 200, "only %lu of 300 phased", c.phased);

	cr_assert_eq(csv_workload__close(b.csv), 0);
	cr_assert_eq(fclose(csv_file), 0);
	snprintf(seen, sizeof(seen), "%lu", c.seen);
	snprintf(phased, sizeof(phased), "%lu", c.phased);
	cr_assert_eq(run_python(count_rows, (const char *const[]){ csv_path, seen, phased, NULL }), 0);

	expect_timeline(
		"seen, phased = %lu, %lu\n"
		"pid = pid_of('wakeprobe: eventfd')\n"
		"marks = ('notify #', 'woken #')\n"
		"wakeups = [s for s in tl.find(cat='wakeup', pid=pid) if not s.name.startswith(marks)]\n"
		"want(len(wakeups) == seen and sorted(s.args['seq'] for s in wakeups) == list(range(1, seen + 1)),\n"
		"     len(wakeups))\n"
		"want(summary.endswith(f'{phased} samples tiled'), (summary, phased))\n"
		"want(len(tl.flows()[0]) == seen, summary)\n"
		"want(runs[1]['samples_not_drawn'] == 0 and runs[1]['events'] > 0, runs)\n"
		"cpus = pid_of('CPUs (run 1)')\n"
		"want(len(tl.find(pid=cpus)) > 0, 'the CPU tracks have slices')\n"
		"want(any(e['name'].startswith('sched_waking') for e in tl.instants), 'wakes are shown')\n",
		c.seen, c.phased);
}
