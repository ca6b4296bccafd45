// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus.c - --prometheus through the binary: what a recording, a
 * traced workload and an attach run write is what `promtool check metrics`
 * (Debian's prometheus package) accepts, with the numbers of the run's
 * JSON report; --prometheus-every rewrites the file while an attach run
 * goes on, each time whole, its counters never falling, and the recording
 * of that run reports the file the run left. Live runs need root and BTF,
 * promtool its package: those tests skip elsewhere and say why. The writer
 * itself is in unit/test_prom.c and unit/test_prometheus_*.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(prometheus, .timeout = 120);

#define MAX_SNAPSHOTS	64

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/wakeprobe-prom-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

/* in_dir - @name in the test's directory, into @buf */
static char *in_dir(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static void remove_dir(void)
{
	char cmd[128];

	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	dir[0] = '\0';
}

/* skip_without_promtool - skip the calling test, saying why, where promtool is not installed */
static void skip_without_promtool(void)
{
	if (system("command -v promtool >/dev/null 2>&1"))
		cr_skip_test("promtool is not installed: scripts/setup-deps.sh test installs it (Debian package "
			     "prometheus)");
}


/*
 * Python that reads a metrics file strictly into {(name, labels): value}
 * and {family: type}: every line a comment or a sample, every label value
 * quoted with only \\, \" and \n escaped.
 */
#define PROM_PARSE \
	"import re, sys, json\n" \
	"SAMPLE = re.compile(r'^([a-z_]+)(?:\\{(.*)\\})? (\\S+)$')\n" \
	"LABEL = re.compile(r'([a-z_]+)=\"((?:[^\"\\\\]|\\\\[\\\\\"n])*)\",?')\n" \
	"def parse(path):\n" \
	"    text = open(path, encoding='utf-8').read()\n" \
	"    assert text.endswith('\\n'), path + ': the last line is cut'\n" \
	"    samples, types = {}, {}\n" \
	"    for line in text.splitlines():\n" \
	"        if line.startswith('# TYPE '):\n" \
	"            _, _, name, kind = line.split(' ')\n" \
	"            types[name] = kind\n" \
	"            continue\n" \
	"        if line.startswith('#'):\n" \
	"            continue\n" \
	"        m = SAMPLE.match(line)\n" \
	"        assert m, 'not a sample: ' + line\n" \
	"        body = m.group(2) or ''\n" \
	"        labels = LABEL.findall(body)\n" \
	"        assert ''.join(f'{k}=\"{v}\",' for k, v in labels).rstrip(',') == body, body\n" \
	"        key = (m.group(1), tuple(labels))\n" \
	"        assert key not in samples, 'twice: ' + line\n" \
	"        samples[key] = float(m.group(3))\n" \
	"    return samples, types\n" \
	"def family(name, types):\n" \
	"    for suffix in ('', '_bucket', '_sum', '_count'):\n" \
	"        if suffix and name.endswith(suffix) and name[:-len(suffix)] in types:\n" \
	"            return name[:-len(suffix)]\n" \
	"    return name\n" \
	"def get(samples, name, **want):\n" \
	"    hits = [v for (n, ls), v in samples.items() if n == name and all(dict(ls).get(k) == w for k, w in want.items())]\n" \
	"    assert len(hits) == 1, (name, want, hits)\n" \
	"    return hits[0]\n"

/*
 * Holds the metrics of a workload run to its JSON report: the labels' counts,
 * each phase's buckets, sums and counts, the time by cause.
 */
static const char same_as_json[] = PROM_PARSE
	"prom, json_path = sys.argv[1:3]\n"
	"s, types = parse(prom)\n"
	"r = json.load(open(json_path))['runs'][0]\n"
	"wl = r['workload']['name']\n"
	"for label, n in r['samples']['by_label'].items():\n"
	"    assert get(s, 'wakeprobe_wakeups_total', workload=wl, label=label) == n, label\n"
	"for phase in ('notify_user', 'notify_kernel', 'wake_enqueue', 'runq_wait', 'resume_kernel', 'resume_user'):\n"
	"    st = r['stats'][phase]\n"
	"    assert get(s, 'wakeprobe_phase_seconds_count', workload=wl, phase=phase) == st['count'], phase\n"
	"    buckets = sorted((float(dict(ls)['le']), v) for (n, ls), v in s.items()\n"
	"                     if n == 'wakeprobe_phase_seconds_bucket' and dict(ls)['phase'] == phase)\n"
	"    assert len(buckets) == 30 and buckets[-1] == (float('inf'), st['count']), buckets[-1]\n"
	"    for le, v in buckets[:-1]:\n"
	"        want = sum(row['count'] for row in st['histogram'] if row['high_ns'] <= round(le * 1e9))\n"
	"        assert v == want, (phase, le, v, want)\n"
	"    if st['count']:\n"
	"        mean = get(s, 'wakeprobe_phase_seconds_sum', workload=wl, phase=phase) / st['count'] * 1e9\n"
	"        assert abs(mean - st['mean_ns']) <= 1, (phase, mean, st['mean_ns'])\n"
	"for c in r['causes'] or []:\n"
	"    got = get(s, 'wakeprobe_cause_seconds_total', workload=wl, cause=c['cause'])\n"
	"    assert round(got * 1e9) == c['ns'], (c, got)\n"
	"assert get(s, 'wakeprobe_explained_wakeups_total', workload=wl) == (r['explained_wakeups'] or 0)\n"
	"assert get(s, 'wakeprobe_dropped_events_total', workload=wl) == r['events']['dropped']\n"
	"assert get(s, 'wakeprobe_trace_records_total', workload=wl) == r['events']['recorded']\n"
	"assert get(s, 'wakeprobe_bpf_missed_runs_total', workload=wl) == r['events']['missed_runs']\n";

/*
 * Holds successive files of one run to the promise of --prometheus-every:
 * each is whole, and no counter, bucket, sum or count of one is below the
 * one before. Prints how many were checked.
 */
static const char never_fall[] = PROM_PARSE
	"prev = None\n"
	"for path in sys.argv[1:]:\n"
	"    s, types = parse(path)\n"
	"    assert get(s, 'wakeprobe_wakeups_total', label='complete') >= 0\n"
	"    if prev:\n"
	"        for key, v in prev.items():\n"
	"            if types.get(family(key[0], types)) in ('counter', 'histogram'):\n"
	"                assert key in s, 'gone: ' + str(key)\n"
	"                assert s[key] >= v, (path, key, v, s[key])\n"
	"    prev = s\n"
	"print(len(sys.argv) - 1, 'files, counters never fall')\n";

static bool python_holds(const char *script, const char *const args[])
{
	return run_python(script, args) == 0;
}

Test(prometheus, every_recording_reports_metrics_that_promtool_accepts, .fini = remove_dir)
{
	static const char *const fixtures[] = { "eventfd", "cond", "lost", "spin", "untraced" };
	char prom[128], wpr[PATH_MAX];

	skip_without_promtool();
	make_dir();
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		struct wakeprobe_ran r;

		snprintf(wpr, sizeof(wpr), "%s/%s.wpr", fixtures_dir(), fixtures[i]);
		in_dir(fixtures[i], prom, sizeof(prom));
		wakeprobe_run(&r, (char *const[]){ "report", wpr, "--prometheus", prom, NULL });
		cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s: %s", fixtures[i], r.err);
		cr_expect(promtool_accepts(prom), "%s", fixtures[i]);
	}
}

Test(prometheus, a_recording_reports_the_numbers_of_its_json_document, .fini = remove_dir)
{
	char prom[128], json[128], wpr[PATH_MAX];
	struct wakeprobe_ran r;

	make_dir();
	snprintf(wpr, sizeof(wpr), "%s/eventfd.wpr", fixtures_dir());
	wakeprobe_run(&r, (char *const[]){ "report", wpr, "--prometheus", in_dir("m.prom", prom, sizeof(prom)),
					   "--json", in_dir("r.json", json, sizeof(json)), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	/* an output file takes the text report's place only when it is stdout */
	cr_expect(strstr(r.out, "runq_wait"), "the text report is still printed");
	cr_expect(python_holds(same_as_json, (const char *const[]){ prom, json, NULL }));
}

Test(prometheus, metrics_to_standard_output_take_the_text_reports_place)
{
	char wpr[PATH_MAX];
	struct wakeprobe_ran r;

	snprintf(wpr, sizeof(wpr), "%s/cond.wpr", fixtures_dir());
	wakeprobe_run(&r, (char *const[]){ "report", wpr, "--prometheus", "-", NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	cr_expect(!strncmp(r.out, "# HELP wakeprobe_", 17), "%.80s", r.out);
	cr_expect(strstr(r.out, "wakeprobe_wakeups_total{host=\""));
	cr_expect_not(strstr(r.out, "\nwakeprobe "), "no text report on stdout");
}

Test(prometheus, a_traced_workload_writes_metrics_that_promtool_accepts_with_its_json_numbers, .fini = remove_dir)
{
	char prom[128], json[128];
	struct wakeprobe_ran r;

	skip_unless_traceable();
	make_dir();
	wakeprobe_run(&r, (char *const[]){ "--workload", "eventfd", "--samples", "300", "--interval-us", "200",
					   "--prometheus", in_dir("m.prom", prom, sizeof(prom)), "--json",
					   in_dir("r.json", json, sizeof(json)), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	cr_expect(python_holds(same_as_json, (const char *const[]){ prom, json, NULL }));
	if (!system("command -v promtool >/dev/null 2>&1"))
		cr_expect(promtool_accepts(prom));
	else
		cr_log_warn("promtool is not installed: the format was checked by the parser above only");
}

/* file_text - all of @path, or NULL when there is none (yet) */
static char *file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

Test(prometheus, a_long_attach_run_rewrites_its_metrics_whole_and_they_never_fall, .fini = remove_dir)
{
	char prom[128], wpr[128], replayed[128], eventfd[PATH_MAX], snaps[MAX_SNAPSHOTS][128];
	const char *args[MAX_SNAPSHOTS + 2] = { NULL };
	char *argv[] = { (char *)wakeprobe_path(), "record", "-o", wpr, "--prometheus", prom,
			 "--prometheus-every", "1", "--", eventfd, "--samples", "3500", "--interval-us", "1000", NULL };
	char out[65536], err[8192], *last = NULL;
	int nsnaps = 0, fd_out, fd_err, status;
	struct wakeprobe_ran r;
	pid_t pid;

	skip_unless_traceable();
	make_dir();
	in_dir("m.prom", prom, sizeof(prom));
	in_dir("run.wpr", wpr, sizeof(wpr));
	workload_path("eventfd", eventfd, sizeof(eventfd));
	pid = spawn_piped(argv, NULL, &fd_out, &fd_err);
	/* every 50 ms while it runs: a new file is kept, and each must be whole */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		char *now = file_text(prom);

		if (now && (!last || strcmp(now, last)) && nsnaps < MAX_SNAPSHOTS) {
			FILE *f;

			snprintf(snaps[nsnaps], sizeof(snaps[0]), "%s/snap-%02d", dir, nsnaps);
			f = fopen(snaps[nsnaps], "w");
			cr_assert_not_null(f);
			cr_assert_eq(fputs(now, f) < 0, 0);
			cr_assert_eq(fclose(f), 0);
			args[nsnaps] = snaps[nsnaps];
			nsnaps++;
			free(last);
			last = now;
		} else {
			free(now);
		}
		usleep(50000);
	}
	free(last);
	read_to_end(fd_out, out, sizeof(out));
	read_to_end(fd_err, err, sizeof(err));
	close(fd_out);
	close(fd_err);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "wakeprobe: 0x%x: %s", status, err);
	/*
	 * 3.5 s of wakeups at least, one file a second: two rewrites before the
	 * end (a loaded machine starts late), the final one after
	 */
	cr_assert_geq(nsnaps, 2, "the file was rewritten %d times during the run", nsnaps);
	args[nsnaps] = prom;
	cr_expect(python_holds(never_fall, args));

	/* the run's recording reports the file the run left, byte for byte */
	wakeprobe_run(&r, (char *const[]){ "report", wpr, "--prometheus", in_dir("replayed.prom", replayed,
										sizeof(replayed)), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	{
		char *live = file_text(prom), *again = file_text(replayed);

		cr_assert(live && again);
		cr_expect_str_eq(again, live, "the report of the recording differs from the live metrics");
		free(live);
		free(again);
	}
	if (!system("command -v promtool >/dev/null 2>&1")) {
		cr_expect(promtool_accepts(prom));
		cr_expect(promtool_accepts(snaps[0]));
	} else {
		cr_log_warn("promtool is not installed: the format was checked by the parser above only");
	}
}
