// SPDX-License-Identifier: GPL-2.0
/*
 * test_plot_workload.c - the workload runs' plots (--plot), read back with
 * python's XML parser through tests/check_svg.py, which is checked first:
 * the elements each kind of run draws, and every number drawn traced back
 * to the synthetic aggregate it was drawn from. And an attach run's plot
 * through outputs.h: written whole, or nothing left (the SVG writer is
 * test_svg.c's, the attach plot itself test_plot_attach.c's).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_fixture.h"
#include "catalog.h"
#include "outputs.h"
#include "plot_workload.h"
#include "readback.h"

#define T0		1000000000123ull
#define SLOW_RUNQ_NS	1500000		/* the one slow wakeup's runq_wait */

static char path[64];
static FILE *file;

static void setup(void)
{
	file = temp_output("plot", path);
}

static void teardown(void)
{
	if (file)
		fclose(file);
	unlink(path);
}

/* written - the file is complete: close it for python to read */
static void written(void)
{
	cr_assert_eq(fclose(file), 0);
	file = NULL;
}

/* ---------------------------------------------------------------- the checker */

/*
 * The checker itself: each document below breaks one rule, and check_svg.py
 * must say so. Without this a check that passes could be one that cannot fail.
 */
Test(plot, the_checker_finds_what_breaks_the_rules)
{
	static const char script[] =
		"import sys, io\n"
		"sys.dont_write_bytecode = True\n"
		"sys.path.insert(0, sys.argv[1])\n"
		"import check_svg as cs, xml.etree.ElementTree as ET\n"
		"head = '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\" viewBox=\"0 0 100 50\">'"
		" '<title>t</title>'\n"
		"def panel(bins, marks=(10, 20, 30, 40), count=3):\n"
		"    b = ''.join(f'<rect class=\"bin\" x=\"{x}\" y=\"1\" width=\"1\" height=\"1\" data-low-ns=\"{lo}\"'\n"
		"                f' data-high-ns=\"{hi}\" data-count=\"{c}\"/>' for x, lo, hi, c in bins)\n"
		"    m = ''.join(f'<line class=\"mark {k}\" data-ns=\"{v}\"/>' for k, v in zip(('p50', 'p99', 'p99_9', 'max'), marks))\n"
		"    keys = ''.join(f' data-{k}-ns=\"{v}\"' for k, v in zip(('p50', 'p99', 'p99_9', 'max'), marks))\n"
		"    return f'<g class=\"panel\" data-run=\"\" data-name=\"p\" data-count=\"{count}\"{keys}>{b}{m}</g>'\n"
		"good = panel([(1, 8, 15, 1), (2, 16, 31, 1), (3, 32, 63, 1)])\n"
		"def problems(body, root_head=head):\n"
		"    return cs.check(ET.fromstring(root_head + body + '</svg>'))[0]\n"
		"assert problems(good) == [], problems(good)\n"
		"cases = {\n"
		"    'bars hold': panel([(1, 8, 15, 1), (2, 16, 31, 1)]),\n"
		"    'out of order': panel([(2, 8, 15, 1), (1, 16, 31, 1), (3, 32, 63, 1)]),\n"
		"    'percentiles out of order': panel([(1, 8, 15, 1), (2, 16, 31, 1), (3, 32, 63, 1)], (20, 10, 30, 40)),\n"
		"    'outside its bars': panel([(1, 8, 15, 1), (2, 16, 31, 1), (3, 32, 63, 1)], (10, 20, 30, 400)),\n"
		"    'off the page': '<rect x=\"120\" y=\"0\" width=\"1\" height=\"1\"/>',\n"
		"    'ends past the page': '<rect x=\"90\" y=\"0\" width=\"20\" height=\"1\"/>',\n"
		"    'not finite': '<line x1=\"nan\" y1=\"0\" x2=\"1\" y2=\"1\"/>',\n"
		"    'is negative': '<rect x=\"1\" y=\"0\" width=\"-2\" height=\"1\"/>',\n"
		"    'is empty': '<text x=\"1\" y=\"1\"> </text>',\n"
		"    'does not follow': '<g class=\"stack\" data-run=\"r\"><rect class=\"segment\" x=\"0\" y=\"0\"'\n"
		"                       ' width=\"5\" height=\"1\"/><rect class=\"segment\" x=\"6\" y=\"0\" width=\"5\"'\n"
		"                       ' height=\"1\"/></g>',\n"
		"}\n"
		"for what, body in cases.items():\n"
		"    got = problems(body)\n"
		"    assert any(what in p for p in got), (what, got)\n"
		"got = problems('', head.replace('0 0 100 50', '0 0 10 5'))\n"
		"assert any('viewBox' in p for p in got), got\n"
		"got = problems('', head.replace('<title>t</title>', ''))\n"
		"assert any('<title>' in p for p in got), got\n"
		"try:\n"
		"    ET.fromstring(head + '<text>a & b</text></svg>')\n"
		"    assert False, 'a bare & is not XML'\n"
		"except ET.ParseError:\n"
		"    pass\n";
	char checker[PATH_MAX], dir[PATH_MAX];

	tests_file("check_svg.py", checker, sizeof(checker));
	snprintf(dir, sizeof(dir), "%s", checker);
	cr_assert_eq(run_python(script, (const char *const[]){ dirname(dir), NULL }), 0,
		     "check_svg.py let a broken plot pass (see above)");
}

/* ---------------------------------------------------------------- a workload run */

/* complete - sample @seq, complete with phases: runq_wait @runq_ns, the others fixed */
static struct sample_result complete(uint64_t seq, int64_t runq_ns)
{
	static const int64_t phases[NR_PHASES] = { 300, 800, 900, 0, 700, 250 };
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.t_notify_ns = T0 + seq * 100000;
	for (int k = 0; k < NR_PHASES; k++) {
		r.phase_ns[k] = k == PHASE_RUNQ_WAIT ? runq_ns : phases[k];
		r.total_ns += r.phase_ns[k];
	}
	r.t_woken_ns = r.t_notify_ns + (uint64_t)r.total_ns;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	return r;
}

/*
 * make_run - @r as a traced run of @wl: 100 complete wakeups whose runq_wait
 * grows 4000 + 10 * i ns, one whose runq_wait is SLOW_RUNQ_NS, and two the
 * wakee had not slept for. Without @phases, the complete ones have no
 * phases (spin: no kernel in the path).
 */
static void make_run(struct run_result *r, bool phases)
{
	uint64_t seq = 1;

	memset(r, 0, sizeof(*r));
	aggregate__init(&r->agg);
	snprintf(r->meta.hostname, sizeof(r->meta.hostname), "testhost");
	snprintf(r->meta.kernel, sizeof(r->meta.kernel), "6.1.0-test");
	r->traced = true;
	r->drops_total = 4;
	r->missed_runs = 1;
	for (int i = 0; i < 100; i++) {
		struct sample_result s = complete(seq++, 4000 + 10 * i);

		s.phased = phases;
		aggregate__add(&r->agg, &s);
	}
	struct sample_result slow = complete(seq++, SLOW_RUNQ_NS);

	slow.phased = phases;
	aggregate__add(&r->agg, &slow);
	for (int i = 0; i < 2; i++) {
		struct sample_result s = complete(seq++, 100);

		s.label = LABEL_NO_SLEEP;
		s.phased = false;
		aggregate__add(&r->agg, &s);
	}
}

static struct run_config config(const char *workload, bool traced)
{
	return (struct run_config){
		.workload = catalog__find(workload),
		.samples = 103,
		.interval_us = 1000,
		.waker_cpu = 2,
		.wakee_cpu = 3,
		.traced = traced,
	};
}

TestSuite(plot, .init = setup, .fini = teardown);

Test(plot, one_run_stacks_the_mean_of_each_phase_and_draws_every_phase_on_one_log_axis)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct run_config cfg = config("eventfd", true);
	const struct histogram *runq, *total;
	char stack_sums[256] = "", *p = stack_sums;

	cr_assert_not_null(r);
	make_run(r, true);
	runq = &r->agg.phase[PHASE_RUNQ_WAIT];
	total = &r->agg.total;
	for (int k = 0; k < NR_PHASES; k++)
		p += sprintf(p, "%s%llu", k ? "," : "", (unsigned long long)r->agg.phase[k].sum);
	cr_assert_eq(plot_workload__runs(file, &cfg, &cfg.workload, (const struct run_result *const[]){ r }, 1), 0);
	written();
	check_svg(path,
		  "want(any(t == 'wakeprobe: eventfd' for t in texts), 'the title names the workload')\n"
		  "want(any('waker CPU 2 -> wakee CPU 3' in t and 'testhost' in t for t in texts), 'the settings')\n"
		  "want(any('(µs)' in t for t in texts) and any('(log scale)' in t for t in texts), 'axes with units')\n"
		  /* where the time goes: the six phases, each its run's own sum over its own count */
		  "[st] = by_class(root, 'stack', 'g')\n"
		  "seg = by_class(st, 'segment', 'rect')\n"
		  "want([s.get('data-phase') for s in seg] == cs.PHASES, [s.get('data-phase') for s in seg])\n"
		  "want([int(s.get('data-sum-ns')) for s in seg] == [%s], 'the sums')\n"
		  "want(all(s.get('data-count') == '101' for s in seg), 'the phased complete wakeups')\n"
		  "means = [int(s.get('data-sum-ns')) / 101 for s in seg]\n"
		  "scale = num(seg[0], 'width') / means[0]\n"
		  "want(all(abs(num(s, 'width') - m * scale) < 0.02 for s, m in zip(seg, means)), 'widths as the means')\n"
		  "want(any(t.startswith(f'runq_wait {means[3] / 1000:.1f} µs (') for t in texts), 'the legend')\n"
		  /* the distributions: the total, then each phase, every one of its wakeups in its bars */
		  "names = [p.get('data-name') for p in by_class(root, 'panel', 'g')]\n"
		  "want(names == ['total'] + cs.PHASES, names)\n"
		  "rq = panel('runq_wait')\n"
		  "want(rq.get('data-count') == '101', rq.attrib)\n"
		  "want((rq.get('data-p50-ns'), rq.get('data-p99-ns'), rq.get('data-max-ns')) == ('%llu', '%llu', '%llu'),"
		  " rq.attrib)\n"
		  "slow = [b for b in by_class(rq, 'bin') if b.get('data-low-ns') == '1048576']\n"
		  "want(len(slow) == 1 and slow[0].get('data-count') == '1' and slow[0].get('data-high-ns') == '2097151',"
		  " 'the slow one in its own bar')\n"
		  "want(num(slow[0], 'height') > 5, 'a single wakeup in the tail still shows')\n"
		  "tot = panel('total')\n"
		  "want(tot.get('data-p99_9-ns') == '%llu' and tot.get('data-count') == '101', tot.attrib)\n"
		  "want(any(t == 'not in the phase table (docs/phases.md): no_sleep 2' for t in texts), 'labels')\n"
		  "want(any(t.startswith('events dropped: 4, BPF program runs the kernel skipped: 1') for t in texts),"
		  " 'drops')\n",
		  stack_sums, (unsigned long long)histogram__percentile(runq, 50),
		  (unsigned long long)histogram__percentile(runq, 99), (unsigned long long)runq->max,
		  (unsigned long long)histogram__percentile(total, 99.9));
	free(r);
}

Test(plot, an_untraced_run_draws_its_totals_alone)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct run_config cfg = config("cond", false);

	cr_assert_not_null(r);
	memset(r, 0, sizeof(*r));
	aggregate__init(&r->agg);
	for (uint64_t i = 0; i < 50; i++)
		aggregate__add_untraced(&r->agg, T0 + i * 1000, T0 + i * 1000 + 20000 + i * 100, 0);
	cr_assert_eq(plot_workload__runs(file, &cfg, &cfg.workload, (const struct run_result *const[]){ r }, 1), 0);
	written();
	check_svg(path,
		  "want(any(t == 'wakeprobe: cond, untraced' for t in texts), 'the title')\n"
		  "want(not by_class(root, 'stack'), 'no phases to stack')\n"
		  "[p] = by_class(root, 'panel', 'g')\n"
		  "want(p.get('data-name') == 'total' and p.get('data-count') == '50', p.attrib)\n"
		  "want(p.get('data-max-ns') == '24900' and p.get('data-p50-ns') == '%llu', p.attrib)\n"
		  "want(not any('dropped' in t for t in texts), 'an untraced run drops nothing')\n",
		  (unsigned long long)histogram__percentile(&r->agg.all_total, 50));
	free(r);
}

Test(plot, every_path_is_drawn_side_by_side)
{
	static const char *const names[] = { "eventfd", "spin", "cond" };
	const struct workload_desc *wl[3];
	const struct run_result *res[3];
	struct run_result *r = calloc(3, sizeof(*r));
	struct run_config cfg = config("eventfd", true);

	cr_assert_not_null(r);
	for (int i = 0; i < 3; i++) {
		wl[i] = catalog__find(names[i]);
		/* spin's wakeups are complete without phases, as its merger makes them */
		make_run(&r[i], strcmp(names[i], "spin"));
		res[i] = &r[i];
	}
	r[2].drops_total = r[2].missed_runs = 0;
	cr_assert_eq(plot_workload__runs(file, &cfg, wl, res, 3), 0);
	written();
	check_svg(path,
		  "want(any(t == 'wakeprobe: every path, compared' for t in texts), 'the title')\n"
		  "stacks = by_class(root, 'stack', 'g')\n"
		  "want([s.get('data-run') for s in stacks] == ['eventfd', 'spin', 'cond'], 'a bar per path')\n"
		  "want(len(by_class(stacks[0], 'segment')) == 6, 'eventfd has its phases')\n"
		  "[spin] = by_class(stacks[1], 'segment')\n"
		  "want(spin.get('data-phase') == 'total' and spin.get('data-count') == '101', spin.attrib)\n"
		  "want(any(t == 'no kernel in the path: no phases' for t in texts), 'why spin has no phases')\n"
		  "for name in ('eventfd', 'spin', 'cond'):\n"
		  "    p = panel(name, name)\n"
		  "    want(p.get('data-count') == '103', 'every sample, as the comparison table')\n"
		  "    want(p.get('data-max-ns') == '%llu', p.attrib)\n"
		  "axes = by_class(root, 'axis', 'g')\n"
		  "want(len([a for a in axes if 'log' in cs.classes(a)]) == 1, 'one latency axis for all paths')\n"
		  "want(any(t == 'not in the phase table (docs/phases.md): eventfd 2, spin 2, cond 2' for t in texts),"
		  " 'what is not in the table')\n"
		  "want(any(t == 'events dropped or BPF program runs skipped: eventfd 5, spin 5' for t in texts),"
		  " 'drops, where there were any')\n",
		  (unsigned long long)r[0].agg.all_total.max);
	free(r);
}

/* ---------------------------------------------------------------- an attach run, through outputs.h */

static struct attach_fixture run;

static void attach_setup(void)
{
	setup();
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
}

static void attach_teardown(void)
{
	attach_fixture__free(&run);
	teardown();
}

TestSuite(plot_outputs, .init = attach_setup, .fini = attach_teardown);

Test(plot_outputs, the_plot_appears_whole_once_the_outputs_are_finished_and_not_at_all_if_abandoned)
{
	char dir[] = "/tmp/wakeprobe-plot-out-XXXXXX", file_path[PATH_MAX], msg[256];
	struct output_paths o = { .plot = file_path };
	struct attach_analysis_opts ao = {};
	struct outputs out;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(file_path, sizeof(file_path), "%s/run.svg", dir);
	cr_assert_eq(outputs__open(&out, &o, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(out.text, "a plot in a file leaves the text report on stdout");
	outputs__abandon(&out);
	cr_assert_eq(access(file_path, F_OK), -1, "abandoned: no plot");

	cr_assert_eq(outputs__open(&out, &o, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 5000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(access(file_path, F_OK), -1, "the plot appears only once finished");
	cr_assert_eq(outputs__finish(&out, &(struct results){ .kind = RUN_ATTACH, .attach.report = &run.report }, msg,
				     sizeof(msg)), 0, "%s", msg);
	check_svg(file_path, "want(len(by_class(root, 'pair', 'g')) == %u, 'the pairs')\n", run.agg->nr_pairs);
	cr_assert_eq(unlink(file_path), 0);
	cr_assert_eq(rmdir(dir), 0, "no temporary file is left in %s", dir);
}
