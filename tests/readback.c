// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "readback.h"

extern char **environ;

int run_python(const char *script, const char *const args[])
{
	const char *argv[64] = { "python3", "-c", script };
	size_t n = 3;
	int status;
	pid_t pid;

	while (*args && n < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp("python3", (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Parses the file strictly and checks each expectation given after it:
 * "rows=N", "header=a,b,...", or "ROW:column=value" (ROW counts from 0 after
 * the header, an empty value is an empty cell). Every record must end in
 * CRLF and have as many cells as the header.
 */
static const char check_csv[] =
	"import csv, sys\n"
	"path, *want = sys.argv[1:]\n"
	"text = open(path, newline='').read()\n"
	"rows = list(csv.reader(text.splitlines(keepends=True), strict=True))\n"
	"bad = []\n"
	"if text.count('\\r\\n') != len(rows) or text.replace('\\r\\n', '').count('\\n'):\n"
	"    bad.append('records do not all end in CRLF')\n"
	"head, body = rows[0], rows[1:]\n"
	"bad += [f'row {i}: {len(r)} cells for {len(head)} columns'\n"
	"        for i, r in enumerate(body) if len(r) != len(head)]\n"
	"for w in want:\n"
	"    key, _, value = w.partition('=')\n"
	"    if key == 'rows':\n"
	"        got = str(len(body))\n"
	"    elif key == 'header':\n"
	"        got = ','.join(head)\n"
	"    else:\n"
	"        row, _, col = key.partition(':')\n"
	"        got = body[int(row)][head.index(col)] if int(row) < len(body) else '<no row>'\n"
	"    if got != value:\n"
	"        bad.append(f'{key}: {got!r}, want {value!r}')\n"
	"sys.exit('\\n'.join(bad) or None)\n";

bool csv_check(const char *path, const char *const want[])
{
	const char *args[60] = { path };
	size_t n = 1;

	while (*want && n < sizeof(args) / sizeof(args[0]) - 1)
		args[n++] = *want++;
	cr_assert_null(*want, "more than %zu expectations for one CSV", sizeof(args) / sizeof(args[0]) - 2);
	args[n] = NULL;
	return run_python(check_csv, args) == 0;
}

const char *tests_file(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	snprintf(buf, len, "tests/%s", name);
	if (access(buf, R_OK) == 0)
		return buf;
	/* the binary is build/tests/unit-tests or system-tests (or build-san/...): tests/ is two levels up */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		snprintf(buf, len, "%s/../../tests/%s", dirname(exe), name);
	}
	return buf;
}

FILE *temp_output(const char *stem, char path[64])
{
	FILE *f;
	int fd;

	snprintf(path, 64, "/tmp/wakeprobe-%s-XXXXXX", stem);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp %s: %s", path, strerror(errno));
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	return f;
}

const char *fixtures_dir(void)
{
	const char *d = getenv("WAKEPROBE_FIXTURES");

	return d ? d : "tests/fixtures";
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t cap = 0;

	cr_assert_not_null(f, "cannot open %s: %s (run the tests from the repository, or set WAKEPROBE_FIXTURES)",
			   path, strerror(errno));
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			data = realloc(data, cap + 1);
			cr_assert_not_null(data);
		}
		size_t got = fread(data + *len, 1, cap - *len, f);

		if (!got)
			break;
		*len += got;
	}
	fclose(f);
	data[*len] = '\0';
	return data;
}

/*
 * Loads argv[1] into d, refusing what Python would let through but JSON does
 * not allow, then runs argv[2]: its asserts are the test's checks. has()
 * names the keys an object lacks.
 */
static const char json_prelude[] =
	"import json, sys\n"
	"def no_constant(name):\n"
	"    raise ValueError('not JSON: ' + name)\n"
	"def no_duplicates(pairs):\n"
	"    keys = [k for k, _ in pairs]\n"
	"    dup = sorted({k for k in keys if keys.count(k) > 1})\n"
	"    if dup:\n"
	"        raise ValueError('duplicate keys %s' % dup)\n"
	"    return dict(pairs)\n"
	"with open(sys.argv[1], encoding='utf-8') as f:\n"
	"    d = json.load(f, parse_constant=no_constant, object_pairs_hook=no_duplicates)\n"
	"def has(o, keys):\n"
	"    missing = [k for k in keys.split() if k not in o]\n"
	"    assert not missing, 'missing keys %s in %s' % (missing, sorted(o))\n"
	"def hist_ok(name, s):\n"
	"    h = s['histogram']\n"
	"    assert sum(b['count'] for b in h) == s['count'], (name, 'rows do not add up', h)\n"
	"    for a, b in zip(h, h[1:]):\n"
	"        assert b['low_ns'] == a['high_ns'] + 1, (name, 'rows not contiguous', a, b)\n"
	"    for b in h:\n"
	"        assert b['low_ns'] in (0, 2) or b['low_ns'] & (b['low_ns'] - 1) == 0, (name, b)\n"
	"    if h:\n"
	"        assert h[0]['count'] and h[-1]['count'], (name, 'empty end row', h)\n"
	"exec(sys.argv[2])\n";

bool json_vcheck(const char *path, const char *fmt, va_list ap)
{
	char *code, *argv[6];
	pid_t pid;
	int status, err;

	cr_assert_geq(vasprintf(&code, fmt, ap), 0);
	argv[0] = "python3";
	argv[1] = "-c";
	argv[2] = (char *)json_prelude;
	argv[3] = (char *)path;
	argv[4] = code;
	argv[5] = NULL;
	err = posix_spawnp(&pid, "python3", NULL, NULL, argv, environ);
	cr_assert_eq(err, 0, "cannot run python3: %s", strerror(err));
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	free(code);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

const char json_report_keys[] =
	"has(d, 'schema schema_version runs')\n"
	"assert d['schema'] == 'wakeprobe-report' and d['schema_version'] == 2, d['schema']\n"
	"for run in d['runs']:\n"
	"    has(run, 'workload options meta threads duration_ns clock events samples warnings interrupted '\n"
	"        'workload_failed workload_error workload_exit stats sub_phases causes explained_total_ns tasks '\n"
	"        'untabled_task_ns migrations outliers')\n"
	"    has(run['workload'], 'name summary user_only')\n"
	"    has(run['options'], 'samples interval_us waker_cpu wakee_cpu traced ringbuf_bytes outliers '\n"
	"        'outlier_threshold_ns')\n"
	"    has(run['meta'], 'wakeprobe_version kernel machine hostname nr_cpus started_unix_ns')\n"
	"    has(run['threads'], 'waker_tid wakee_tid')\n"
	"    has(run['clock'], 'tsc_mhz pairs span_s fit_residual_max_ns conversion_error_max_ns')\n"
	"    has(run['events'], 'recorded dropped dropped_by_type tracked_full missed_runs late evicted')\n"
	"    has(run['samples'], 'sent seen out_of_sequence complete not_in_table by_label missing_by_mark')\n"
	"    has(run['stats'], 'notify_user notify_kernel wake_enqueue runq_wait resume_kernel resume_user '\n"
	"        'total all_samples_total idle_exit mutex_reacquire waiter_cpu')\n"
	"    for name, s in run['stats'].items():\n"
	"        if s is not None:\n"
	"            has(s, 'count min_ns p50_ns p90_ns p99_ns p999_ns max_ns mean_ns histogram')\n"
	"            hist_ok(name, s)\n"
	"    has(run['sub_phases'], 'target_idle remote_wakeups waker_preempted waiter_syscalls phase_sum_mismatch')\n"
	"    has(run['migrations'], 'all inside_wakeups')\n"
	"    has(run['outliers'], 'wanted threshold_ns candidates samples')\n"
	"    for c in run['causes'] or []:\n"
	"        has(c, 'cause meaning ns share per_wakeup_ns')\n"
	"    for t in run['tasks'] or []:\n"
	"        has(t, 'pid comm ns share per_wakeup_ns')\n"
	"    for o in run['outliers']['samples'] or []:\n"
	"        has(o, 'rank seq total_ns median_total_ns ratio_to_median grew_most waking_cpu wakeup_cpu '\n"
	"            'target_cpu queued_remotely target_was_idle idle_exit_ns phases more_intervals migration '\n"
	"            'mutex_reacquire_ns')\n"
	"        has(o['grew_most'], 'phase over_median_ns')\n"
	"        assert [p['phase'] for p in o['phases']] == ['notify_user', 'notify_kernel', 'wake_enqueue', "
	"'runq_wait', 'resume_kernel', 'resume_user'], o['phases']\n"
	"        for p in o['phases']:\n"
	"            has(p, 'phase ns parts own_work_ns unexplained_ns')\n"
	"            for part in p['parts']:\n"
	"                has(part, 'cause description ns cpu pid name prio irq_kind nr left_known preempted')\n"
	"            if o['more_intervals'] == 0:\n"
	"                assert sum(x['ns'] for x in p['parts']) + p['own_work_ns'] + p['unexplained_ns'] == p['ns'], p\n";

/*
 * What every check script starts with: the file passes check_timeline.py,
 * then the test's own lines look at its content. want() fails the test
 * with what was not so; spans() lists slices as (name, start, end) in ns.
 */
static const char timeline_prologue[] =
	"import sys\n"
	"sys.dont_write_bytecode = True\n"
	"sys.path.insert(0, sys.argv[1])\n"
	"import check_timeline as ct\n"
	"tl = ct.load(sys.argv[2])\n"
	"problems, summary = ct.check(tl)\n"
	"if problems:\n"
	"    sys.exit('\\n'.join(problems[:10]))\n"
	"def want(ok, what):\n"
	"    if not ok:\n"
	"        sys.exit(f'not so: {what}')\n"
	"def spans(xs, base=0):\n"
	"    return [(s.name, s.start - base, s.end - base) for s in sorted(xs, key=lambda s: (s.start, -s.end))]\n"
	"def pid_of(name):\n"
	"    found = [p for p, n in tl.process_names.items() if n == name]\n"
	"    want(len(found) == 1, f'one process named {name}: {tl.process_names}')\n"
	"    return found[0]\n"
	"runs = {r['run']: r for r in tl.other['runs']}\n"
	"T0 = 1000000000123\n";

/*
 * check_with - run @prologue, then the test's python @fmt with @ap, with
 * sys.argv[1] the tests/ directory (where @checker is) and sys.argv[2]
 * @file_path; fail the test with @what unless it exits 0
 */
static void check_with(const char *checker, const char *prologue, const char *file_path, const char *what,
		       const char *fmt, va_list ap)
{
	char path[PATH_MAX], *body, *script;
	int err;

	tests_file(checker, path, sizeof(path));
	err = vasprintf(&body, fmt, ap);
	cr_assert_geq(err, 0);
	cr_assert_geq(asprintf(&script, "%s%s", prologue, body), 0);
	err = run_python(script, (const char *const[]){ dirname(path), file_path, NULL });
	free(script);
	free(body);
	cr_assert_eq(err, 0, "%s (see above)", what);
}

void check_timeline(const char *file_path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_with("check_timeline.py", timeline_prologue, file_path, "the timeline is not what it should be", fmt, ap);
	va_end(ap);
}

/* What every check of a plot starts with: the file passes check_svg.py, then the test's own lines */
static const char svg_prologue[] =
	"import sys\n"
	"sys.dont_write_bytecode = True\n"
	"sys.path.insert(0, sys.argv[1])\n"
	"import check_svg as cs\n"
	"root = cs.load(sys.argv[2])\n"
	"problems, summary = cs.check(root)\n"
	"if problems:\n"
	"    sys.exit('\\n'.join(problems[:10]))\n"
	"def want(ok, what):\n"
	"    if not ok:\n"
	"        sys.exit(f'not so: {what}')\n"
	"by_class, num, text_of = cs.by_class, cs.num, cs.text_of\n"
	"texts = [text_of(e) for e in root.iter(cs.SVG + 'text')]\n"
	"def panel(name, run=None):\n"
	"    found = [p for p in by_class(root, 'panel', 'g') if p.get('data-name') == name and\n"
	"             (run is None or p.get('data-run') == run)]\n"
	"    want(len(found) == 1, f'one panel {name} of run {run}: {len(found)}')\n"
	"    return found[0]\n";

void check_svg(const char *file_path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_with("check_svg.py", svg_prologue, file_path, "the plot is not what it should be", fmt, ap);
	va_end(ap);
}

bool json_check(const char *path, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = json_vcheck(path, fmt, ap);
	va_end(ap);
	return ok;
}

int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	cr_assert_not_null(d, "cannot read the directory %s", dir);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}
