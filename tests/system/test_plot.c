// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot.c - wakeprobe --plot FILE end to end: a recording's plot
 * carries the very numbers of its JSON report; a live run of every path and
 * an attach run plot what their reports say (root and BTF, else they skip);
 * what --plot refuses; and a real browser, headless Chromium, renders the
 * plot: the SVG loads with no parse error, every panel, bar and text is
 * drawn with a size, the styles apply, and a screenshot is the page's size
 * and not blank. Without chromium the browser tests skip and say why;
 * `scripts/setup-deps.sh test` installs it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "catalog.h"
#include "helpers.h"
#include "readback.h"

static char dir[] = "/tmp/wakeprobe-plot-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(strcpy(dir, "/tmp/wakeprobe-plot-XXXXXX")));
}

/* teardown - the files a test made in its directory, then the directory: anything else left fails it */
static void teardown(void)
{
	static const char *const made[] = { "run.svg", "run.json", "page.html", "shot.png", "text.txt" };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "rm -rf '%s/chromium-profile'", dir);
	cr_assert_eq(system(path), 0);
	cr_assert_eq(rmdir(dir), 0, "%s holds a file no test made", dir);
}

/* in_dir - @name in the test's directory */
static const char *in_dir(const char *name, char buf[PATH_MAX])
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
	return buf;
}

TestSuite(plot, .init = setup, .fini = teardown, .timeout = 180);

Test(plot, a_recordings_plot_carries_the_numbers_of_its_json_report)
{
	char fixture[PATH_MAX], svg[PATH_MAX], json[PATH_MAX];
	struct wakeprobe_ran r;

	snprintf(fixture, sizeof(fixture), "%s/eventfd.wpr", fixtures_dir());
	wakeprobe_run(&r, (char *[]){ "report", fixture, "--json", (char *)in_dir("run.json", json), "--plot",
				      (char *)in_dir("run.svg", svg), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	cr_assert(strstr(r.out, "eventfd") && strlen(r.out) > 1000, "the text report still goes to stdout: %s", r.out);
	check_svg(svg,
		  "import json\n"
		  "run = json.load(open(%s))['runs'][0]\n"
		  "want(any(t == 'wakeprobe: eventfd' for t in texts), 'the title')\n"
		  "for name in cs.PHASES + ['total']:\n"
		  "    s, p = run['stats'][name], panel(name)\n"
		  "    want(int(p.get('data-count')) == s['count'], (name, p.get('data-count'), s['count']))\n"
		  "    for key, jkey in (('p50', 'p50_ns'), ('p99', 'p99_ns'), ('p99_9', 'p999_ns'), ('max', 'max_ns')):\n"
		  "        want(int(p.get(f'data-{key}-ns')) == s[jkey], (name, key, p.get(f'data-{key}-ns'), s[jkey]))\n"
		  "    rows = [(r['low_ns'], r['high_ns'], r['count']) for r in s['histogram'] if r['count']]\n"
		  "    bins = [(int(b.get('data-low-ns')), int(b.get('data-high-ns')), int(b.get('data-count')))\n"
		  "            for b in by_class(p, 'bin')]\n"
		  "    want(bins == rows, (name, bins, rows))\n"
		  "[st] = by_class(root, 'stack', 'g')\n"
		  "for seg in by_class(st, 'segment'):\n"
		  "    s = run['stats'][seg.get('data-phase')]\n"
		  "    want(abs(int(seg.get('data-sum-ns')) / int(seg.get('data-count')) - s['mean_ns']) <= 1, seg.attrib)\n",
		  "sys.argv[2].replace('run.svg', 'run.json')");
}

Test(plot, every_path_run_live_is_plotted_side_by_side)
{
	char svg[PATH_MAX];
	struct wakeprobe_ran r;

	skip_unless_traceable();
	wakeprobe_run(&r, (char *[]){ "--workload", "all", "--samples", "30", "--interval-us", "200", "--plot",
				      (char *)in_dir("run.svg", svg), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	check_svg(svg,
		  "want(any(t == 'wakeprobe: every path, compared' for t in texts), 'the title')\n"
		  "runs = [s.get('data-run') for s in by_class(root, 'stack', 'g')]\n"
		  "want(len(runs) == %zu, runs)\n"
		  "for name in runs:\n"
		  "    want(int(panel(name, name).get('data-count')) == 30, name)\n"
		  "want(any(t.startswith('30 wakeups each, one every 200 us') for t in texts), 'the settings')\n",
		  catalog__count());
}

Test(plot, an_attach_run_plots_its_busiest_pairs_as_its_report_lists_them)
{
	char svg[PATH_MAX], json[PATH_MAX], eventfd[PATH_MAX];
	struct wakeprobe_ran r;

	skip_unless_traceable();
	workload_path("eventfd", eventfd, sizeof(eventfd));
	wakeprobe_run(&r, (char *[]){ "--pairs", "3", "--json", (char *)in_dir("run.json", json), "--plot",
				      (char *)in_dir("run.svg", svg), "--", eventfd, "--samples", "200", NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	check_svg(svg,
		  "import json\n"
		  "d = json.load(open(sys.argv[2].replace('run.svg', 'run.json')))\n"
		  "want(any(t.startswith('wakeprobe: attached to command ') and 'eventfd --samples 200' in t\n"
		  "         for t in texts), 'the title names the command')\n"
		  "pairs = by_class(root, 'pair', 'g')\n"
		  "got = [(e.get('data-waker'), int(e.get('data-wakee-tid')), e.get('data-mechanism'),\n"
		  "        int(e.get('data-count'))) for e in pairs]\n"
		  "wanted = [(p['waker']['name'], p['wakee']['tid'], p['mechanism'], p['count']) for p in d['pairs'][:3]]\n"
		  "want(got == wanted, (got, wanted))\n"
		  "want(any(g[2] == 'eventfd write -> read' and g[3] >= 190 for g in got[:2]),\n"
		  "     'the workload\\'s hand-offs are among the busiest (its pacing timer ties with them)')\n"
		  "rq = panel('runq_wait')\n"
		  "want(int(rq.get('data-max-ns')) == d['stats']['runq_wait']['max_ns'], rq.attrib)\n");
}

Test(plot, what_plot_refuses_says_so_in_one_line_and_leaves_no_file)
{
	static const struct {
		const char *args[8];
		int status;
		const char *says;
	} cases[] = {
		{ { "--workload", "spawn", "--plot", "@" }, 2, "--plot is for the paced paths" },
		{ { "--workload", "eventfd", "--json", "@", "--plot", "@" }, 2, "--json and --plot both name" },
		{ { "report", "#", "--plot", "/" }, 1, "--plot /: not a regular file" },
		{ { "report", "#", "--plot", "/nonexistent-dir/x.svg" }, 1, "--plot /nonexistent-dir/x.svg: cannot create it" },
	};
	char svg[PATH_MAX], fixture[PATH_MAX];

	in_dir("run.svg", svg);
	snprintf(fixture, sizeof(fixture), "%s/cond.wpr", fixtures_dir());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *args[9] = { NULL };
		struct wakeprobe_ran r;

		for (size_t a = 0; cases[i].args[a]; a++)
			args[a] = !strcmp(cases[i].args[a], "@") ? svg : !strcmp(cases[i].args[a], "#") ? fixture :
				  (char *)cases[i].args[a];
		wakeprobe_run(&r, args);
		cr_expect(WIFEXITED(r.status) && WEXITSTATUS(r.status) == cases[i].status, "case %zu: status 0x%x: %s",
			  i, r.status, r.err);
		cr_expect(strstr(r.err, cases[i].says) && text_count_lines(r.err) == 1, "case %zu: %s", i, r.err);
		cr_expect_eq(access(svg, F_OK), -1, "case %zu left a plot", i);
	}
}

/* ---------------------------------------------------------------- a real browser */

/* on_path - where the program @name is on $PATH, into @buf: "" when it is nowhere */
static const char *on_path(const char *name, char buf[PATH_MAX])
{
	const char *path = getenv("PATH");

	buf[0] = '\0';
	while (path && *path && !buf[0]) {
		size_t n = strcspn(path, ":");

		snprintf(buf, PATH_MAX, "%.*s/%s", (int)n, path, name);
		if (access(buf, X_OK))
			buf[0] = '\0';
		path += n + (path[n] == ':');
	}
	return buf;
}

/*
 * browse - headless chromium at @browser with @args after its own flags, its
 * profile in the test's directory; what it wrote into @o: its exit status
 */
static int browse(const char *browser, const char *const *args, struct workload_outcome *o)
{
	char timeout[PATH_MAX], profile[PATH_MAX + 32];
	char *argv[16] = { timeout, "120", (char *)browser, "--headless", "--no-sandbox", "--disable-gpu",
			   "--no-first-run", profile };
	size_t n = 8;
	int out, err;
	pid_t pid;

	/* a browser that hangs must not hang the tests */
	cr_assert(on_path("timeout", timeout)[0], "no timeout(1) on $PATH (coreutils)");
	snprintf(profile, sizeof(profile), "--user-data-dir=%s/chromium-profile", dir);
	while (*args && n < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	memset(o, 0, sizeof(*o));
	pid = spawn_piped(argv, NULL, &out, &err);
	return workload_collect(pid, out, err, o);
}

/*
 * chromium - where chromium is on $PATH, into @buf. Skips the calling test,
 * saying why, when it is not installed or cannot start here (no /dev/shm, a
 * seccomp filter): that is no fault of the plot. A skip ends the test where
 * it is, so the test's directory goes first.
 */
static const char *chromium(char buf[PATH_MAX], struct workload_outcome *o)
{
	int status;

	if (!on_path("chromium", buf)[0]) {
		teardown();
		cr_skip_test("chromium is not installed: scripts/setup-deps.sh test installs it (Debian package "
			     "chromium)");
	}
	status = browse(buf, (const char *const[]){ "--dump-dom", "about:blank", NULL }, o);
	if (status || !strstr(o->out, "<html")) {
		o->err[strcspn(o->err, "\n")] = '\0';
		teardown();
		cr_skip_test("chromium cannot run here (exit %d): %.200s", status, o->err);
	}
	return buf;
}

/* what the page runs once the plot is in it: each drawing has a size, the styles apply */
static const char page_script[] =
	"(function () {\n"
	"  var bad = [], svg = document.querySelector('svg');\n"
	"  function sized(e) { var b = e.getBBox(); return b.width > 0 && b.height > 0; }\n"
	"  var panels = svg.querySelectorAll('g.panel'), bins = svg.querySelectorAll('rect.bin');\n"
	"  var marks = svg.querySelectorAll('line.mark'), texts = svg.querySelectorAll('text');\n"
	"  var segments = svg.querySelectorAll('rect.segment');\n"
	"  panels.forEach(function (p) { if (!sized(p)) bad.push('panel ' + p.dataset.name + ' has no size'); });\n"
	"  bins.forEach(function (b) { if (!sized(b)) bad.push('a bar of ' + b.parentNode.dataset.name + ' has no size'); });\n"
	"  segments.forEach(function (b) { if (!sized(b)) bad.push('segment ' + b.dataset.phase + ' has no size'); });\n"
	"  marks.forEach(function (m) {\n"
	"    if (!(m.getBBox().height > 0)) bad.push('a mark has no height');\n"
	"    if (getComputedStyle(m).stroke === 'none') bad.push('a mark has no stroke: the styles did not apply');\n"
	"  });\n"
	"  texts.forEach(function (t) { if (!(t.getComputedTextLength() > 0)) bad.push('a text draws nothing'); });\n"
	"  var title = svg.querySelector('text.title');\n"
	"  if (!title || getComputedStyle(title).fontWeight !== '700') bad.push('the title is not bold: no styles');\n"
	"  var r = svg.getBoundingClientRect();\n"
	"  if (!(r.width >= 900 && r.height >= 300)) bad.push('the page is ' + r.width + ' x ' + r.height);\n"
	"  document.getElementById('result').textContent = bad.length ? 'FAIL ' + bad.slice(0, 5).join('; ') :\n"
	"    'OK panels=' + panels.length + ' bins=' + bins.length + ' marks=' + marks.length +\n"
	"    ' texts=' + texts.length + ' segments=' + segments.length;\n"
	"})();\n";

/* occurrences - how many times @needle is in @s */
static int occurrences(const char *s, const char *needle)
{
	int n = 0;

	for (s = strstr(s, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

TestSuite(plot_browser, .init = setup, .fini = teardown, .timeout = 400);

Test(plot_browser, chromium_draws_every_panel_bar_and_text_of_the_plot_with_its_styles)
{
	char browser[PATH_MAX], fixture[PATH_MAX], svg[PATH_MAX], html[PATH_MAX], url[PATH_MAX + 8], want[160];
	struct workload_outcome *o = calloc(1, sizeof(*o));
	struct wakeprobe_ran r;
	char *doc, *body, *result;
	size_t len;
	FILE *f;

	cr_assert_not_null(o);
	chromium(browser, o);
	snprintf(fixture, sizeof(fixture), "%s/eventfd.wpr", fixtures_dir());
	wakeprobe_run(&r, (char *[]){ "report", fixture, "--plot", (char *)in_dir("run.svg", svg), NULL });
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s", r.err);
	doc = read_file(svg, &len);

	/* the file by itself, as an image the browser's XML parser reads: no parse error */
	snprintf(url, sizeof(url), "file://%s", svg);
	cr_assert_eq(browse(browser, (const char *const[]){ "--dump-dom", url, NULL }, o), 0, "%s", o->err);
	cr_assert(strstr(o->out, "<svg") && !strstr(o->out, "parsererror"), "chromium could not read the SVG: %.2000s",
		  o->out);

	/* in a page, where a script can ask the browser what it drew */
	body = strstr(doc, "<svg");
	cr_assert_not_null(body);
	f = fopen(in_dir("page.html", html), "w");
	cr_assert_not_null(f);
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>plot</title></head><body>\n%s\n"
		"<pre id=\"result\">not run</pre>\n<script>\n%s</script></body></html>\n", body, page_script);
	cr_assert_eq(fclose(f), 0);
	snprintf(url, sizeof(url), "file://%s", html);
	cr_assert_eq(browse(browser, (const char *const[]){ "--virtual-time-budget=5000", "--dump-dom", url, NULL }, o),
		     0, "%s", o->err);
	result = strstr(o->out, "<pre id=\"result\">");
	cr_assert_not_null(result, "the page was not dumped: %.500s", o->err);
	result += strlen("<pre id=\"result\">");
	result[strcspn(result, "<")] = '\0';
	snprintf(want, sizeof(want), "OK panels=%d bins=%d marks=%d texts=%d segments=%d",
		 occurrences(doc, "class=\"panel\""), occurrences(doc, "class=\"bin\""),
		 occurrences(doc, "<line class=\"mark "), occurrences(doc, "<text"), occurrences(doc, "class=\"segment\""));
	cr_assert_str_eq(result, want, "what chromium drew is not what the file holds");
	cr_assert_eq(occurrences(doc, "class=\"panel\""), 7, "the total and the six phases");

	/* and as a picture: the window's size, and not a blank page (a white one packs into a few KB) */
	snprintf(url, sizeof(url), "file://%s", svg);
	snprintf(want, sizeof(want), "--screenshot=%s/shot.png", dir);
	cr_assert_eq(browse(browser, (const char *const[]){ "--window-size=1000,800", want, url, NULL }, o), 0, "%s",
		     o->err);
	free(doc);
	doc = read_file(in_dir("shot.png", html), &len);
	cr_assert(len > 24 && !memcmp(doc, "\x89PNG\r\n\x1a\n", 8), "not a PNG");
	cr_assert_eq(((unsigned char)doc[18] << 8 | (unsigned char)doc[19]), 1000);
	cr_assert_eq(((unsigned char)doc[22] << 8 | (unsigned char)doc[23]), 800);
	cr_assert_gt(len, 20000, "a %zu-byte screenshot is a blank page", len);
	free(doc);
	free(o);
}
