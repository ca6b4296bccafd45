// SPDX-License-Identifier: GPL-2.0
/*
 * test_outputs.c - the outputs as every mode drives them: the recording's
 * tap given to the analysis with record -o only, each streaming format
 * handed what it takes and nothing routed when none is asked, every file
 * appearing whole at the end or not at all, the text report on stdout
 * unless an output took it, the same file named twice refused however it
 * is spelled, and each format's document for each kind of run
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_recording.h"
#include "attach_fixture.h"
#include "catalog.h"
#include "outputs.h"
#include "readback.h"
#include "run_recording.h"

static char dir[] = "/tmp/wakeprobe-outputs-XXXXXX";
static char json_path[PATH_MAX], csv_path[PATH_MAX], perfetto_path[PATH_MAX], prom_path[PATH_MAX],
	plot_path[PATH_MAX], folded_path[PATH_MAX], record_path[PATH_MAX];
static struct outputs out;

static void setup(void)
{
	strcpy(dir, "/tmp/wakeprobe-outputs-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(json_path, sizeof(json_path), "%s/run.json", dir);
	snprintf(csv_path, sizeof(csv_path), "%s/run.csv", dir);
	snprintf(perfetto_path, sizeof(perfetto_path), "%s/run.trace.json", dir);
	snprintf(prom_path, sizeof(prom_path), "%s/run.prom", dir);
	snprintf(plot_path, sizeof(plot_path), "%s/run.svg", dir);
	snprintf(folded_path, sizeof(folded_path), "%s/run.folded", dir);
	snprintf(record_path, sizeof(record_path), "%s/run.wpr", dir);
}

static void teardown(void)
{
	const char *const paths[] = { json_path, csv_path, perfetto_path, prom_path, plot_path, folded_path, record_path };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		unlink(paths[i]);
	cr_expect_eq(rmdir(dir), 0, "a file no test named was left in %s", dir);
}

TestSuite(outputs, .init = setup, .fini = teardown);

/* eventfd's run, as a workload run that traced nothing yet would hand it over */
static struct run_config eventfd_run(void)
{
	return (struct run_config){
		.workload = catalog__find("eventfd"),
		.samples = 1,
		.traced = true,
		.waker_cpu = 0,
		.wakee_cpu = 1,
	};
}

/* open_workload - the outputs @p asks for, as a workload run makes them */
static void open_workload(const struct output_paths *p)
{
	char msg[256];

	cr_assert_eq(outputs__open(&out, p, RUN_WORKLOAD, msg, sizeof(msg)), 0, "%s", msg);
}

/* finish - every run over: @r into the files, which must go in place */
static void finish(const struct results *r)
{
	char msg[PATH_MAX + 128];

	cr_assert_eq(outputs__finish(&out, r, msg, sizeof(msg)), 0, "%s", msg);
}

Test(outputs, nothing_asked_makes_no_file_routes_nothing_and_leaves_stdout_to_the_text)
{
	struct output_paths p = {};
	struct run_config cfg = eventfd_run();
	struct analysis_opts ao = {};
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .cfg = &cfg } };
	char msg[256];

	open_workload(&p);
	cr_assert(out.text);
	cr_assert_not(outputs__wants_results(&out));
	cr_assert_eq(outputs__begin_run(&out, &cfg, &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_null(ao.tap, "no record -o: no tap");
	cr_assert_null(ao.on_sample);
	cr_assert_null(ao.on_event);
	outputs__end_run(&out);
	finish(&r);
	cr_assert_eq(dir_entries(dir), 0);
}

Test(outputs, record_o_gives_each_kind_of_analysis_its_tap_and_the_file_appears_at_the_end)
{
	struct output_paths p = { .record = record_path };
	struct run_config cfg = eventfd_run();
	struct analysis_opts ao = {};
	struct attach_analysis_opts aao = {};
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .cfg = &cfg } };
	char msg[256];

	open_workload(&p);
	cr_assert_eq(outputs__begin_run(&out, &cfg, &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(ao.tap, &run_recording_tap);
	cr_assert_not_null(ao.tap_ctx, "the tap writes through the recording's writer");
	cr_assert_eq(access(record_path, F_OK), -1, "the recording appears only once finished");
	outputs__end_run(&out);
	finish(&r);
	cr_assert_eq(access(record_path, F_OK), 0);
	cr_assert_eq(unlink(record_path), 0);

	cr_assert_eq(outputs__open(&out, &p, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 1", &aao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(aao.tap, &attach_recording_tap);
	cr_assert_not_null(aao.tap_ctx);
	outputs__abandon(&out);
	cr_assert_eq(dir_entries(dir), 0, "abandoned: no recording, no temporary file");
}

/* one line per case: the files asked for, and what the analysis is then asked to hand over */
struct routing {
	bool csv, perfetto, json;
	bool sample, event;	/* workload mode */
	bool wakeup, attach_event;	/* attach mode */
	bool wants_results;
};

ParameterizedTestParameters(outputs, each_streaming_format_gets_what_it_takes_and_no_more)
{
	static struct routing cases[] = {
		{ .csv = true, .sample = true, .wakeup = true },
		{ .perfetto = true, .sample = true, .event = true, .wakeup = true, .attach_event = true },
		{ .json = true, .wants_results = true },
		{ .csv = true, .json = true, .sample = true, .wakeup = true, .wants_results = true },
	};

	return cr_make_param_array(struct routing, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct routing *c, outputs, each_streaming_format_gets_what_it_takes_and_no_more)
{
	struct output_paths p = {
		.csv = c->csv ? csv_path : NULL,
		.perfetto = c->perfetto ? perfetto_path : NULL,
		.json = c->json ? json_path : NULL,
	};
	struct run_config cfg = eventfd_run();
	struct analysis_opts ao = {};
	struct attach_analysis_opts aao = {};
	char msg[256];

	open_workload(&p);
	cr_assert_eq(outputs__wants_results(&out), c->wants_results);
	cr_assert_eq(outputs__begin_run(&out, &cfg, &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(ao.on_sample != NULL, c->sample);
	cr_assert_eq(ao.on_event != NULL, c->event);
	outputs__abandon(&out);

	cr_assert_eq(outputs__open(&out, &p, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 1", &aao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(aao.on_result != NULL, c->wakeup);
	cr_assert_eq(aao.on_event != NULL, c->attach_event);
	outputs__abandon(&out);
	cr_assert_eq(dir_entries(dir), 0);
}

Test(outputs, an_output_on_standard_output_takes_it_from_the_text_report)
{
	struct output_paths p = { .csv = "-" };

	open_workload(&p);
	cr_assert_not(out.text, "the CSV is on stdout: no text report there");
	outputs__abandon(&out);
}

Test(outputs, the_same_file_twice_is_refused_however_it_is_spelled)
{
	char again[PATH_MAX + 8], msg[PATH_MAX * 3];
	struct output_paths p = { .json = json_path, .plot = again };
	struct output_paths q = { .recording = json_path, .csv = again };

	snprintf(again, sizeof(again), "%s/./run.json", dir);
	cr_assert_eq(outputs__check_files(&p, msg, sizeof(msg)), -EINVAL);
	cr_assert_not_null(strstr(msg, "--json"), "%s", msg);
	cr_assert_not_null(strstr(msg, "--plot"), "%s", msg);
	cr_assert_not_null(strstr(msg, "are the same file"), "%s", msg);
	cr_assert_eq(outputs__check_files(&q, msg, sizeof(msg)), -EINVAL);
	cr_assert_not_null(strstr(msg, "is the recording"), "%s", msg);
	p.plot = plot_path;
	cr_assert_eq(outputs__check_files(&p, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(dir_entries(dir), 0, "checking makes nothing");
}

Test(outputs, two_workload_runs_go_into_one_timeline_and_one_csv_one_after_the_other)
{
	struct output_paths p = { .csv = csv_path, .perfetto = perfetto_path };
	struct run_config cfg = eventfd_run();
	const struct workload_desc *wl[] = { cfg.workload, catalog__find("pipe") };
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .cfg = &cfg, .wl = wl, .n = 0 } };
	const char *const want[] = { "rows=0", NULL };
	char msg[256];

	open_workload(&p);
	for (int i = 0; i < 2; i++) {
		struct analysis_opts ao = {};

		cfg.workload = wl[i];
		cr_assert_eq(outputs__begin_run(&out, &cfg, &ao, msg, sizeof(msg)), 0, "%s", msg);
		outputs__end_run(&out);
		outputs__end_run(&out);		/* a second end is nothing */
	}
	finish(&r);
	cr_assert(csv_check(csv_path, want));
	check_timeline(perfetto_path, "want([runs[k]['workload'] for k in sorted(runs)] == ['eventfd', 'pipe'], "
		       "'the two runs, in order')\n");
}

Test(outputs, an_attach_run_is_every_format_s_own_document)
{
	struct attach_fixture run = {};
	struct output_paths p = { .json = json_path, .csv = csv_path, .perfetto = perfetto_path,
				  .prometheus = prom_path, .plot = plot_path, .folded = folded_path };
	struct attach_analysis_opts ao = {};
	struct results r = { .kind = RUN_ATTACH };
	const char *const want[] = { "rows=7", "0:label=complete", NULL };
	size_t folded_len = 1;
	char msg[256], *folded;

	cr_assert_eq(outputs__open(&out, &p, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 5000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	run.also = ao.on_result;
	run.also_ctx = ao.on_result_ctx;
	attach_fixture__make(&run);
	r.attach.report = &run.report;
	/* each file has no name until the end (O_TMPFILE), or a temporary one beside its place */
	cr_assert_eq(dir_entries(dir), out.sinks[0].file.unnamed ? 0 : 6, "nothing is in place until the end");
	cr_assert_eq(access(json_path, F_OK), -1);
	finish(&r);
	cr_assert(json_check(json_path, "assert d['kind'] == 'attach' and d['wakeups']['total'] == %u\n",
			     RUN_WAKEUPS));
	cr_assert(csv_check(csv_path, want));
	check_timeline(perfetto_path, "want(len(runs) == 1, 'the attach run')\n");
	cr_assert_eq(run_python("import sys\n"
				"t = open(sys.argv[1]).read()\n"
				"assert 'target=\"pid 5000\"' in t, t[:400]\n",
				(const char *const[]){ prom_path, NULL }), 0,
		     "the metrics are labelled with the target begin_attach named");
	check_svg(plot_path, "want(len(by_class(root, 'pair', 'g')) == %u, 'the pairs')\n", run.agg->nr_pairs);
	/* the run took no stacks: the folded file is there, with no line in it */
	folded = read_file(folded_path, &folded_len);
	cr_assert_not_null(folded);
	cr_assert_eq(folded_len, 0, "%s", folded);
	free(folded);
	attach_fixture__free(&run);
}

Test(outputs, a_design_run_is_the_json_document_of_its_modes)
{
	struct output_paths p = { .json = json_path };
	struct results r = { .kind = RUN_DESIGN, .design = { .workload = "burst-queue", .n = 0 } };
	char msg[256];

	cr_assert_eq(outputs__open(&out, &p, RUN_DESIGN, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(outputs__wants_results(&out), "the document needs every mode's run");
	finish(&r);
	cr_assert(json_check(json_path, "assert d['kind'] == 'design' and d['workload'] == 'burst-queue'\n"
			     "assert d['runs'] == []\n"));
}

Test(outputs, a_write_that_fails_names_its_option_and_costs_only_its_own_file)
{
	struct output_paths p = { .json = json_path, .csv = csv_path };
	struct run_config cfg = eventfd_run();
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .cfg = &cfg } };
	char msg[PATH_MAX + 128];

	open_workload(&p);
	/* the JSON's stream goes bad before its document is written */
	cr_assert_eq(fclose(out.sinks[0].file.f), 0);
	out.sinks[0].file.f = fopen("/dev/full", "w");
	cr_assert_not_null(out.sinks[0].file.f);
	setvbuf(out.sinks[0].file.f, NULL, _IONBF, 0);
	cr_assert_neq(outputs__finish(&out, &r, msg, sizeof(msg)), 0);
	cr_assert_not_null(strstr(msg, "--json"), "%s", msg);
	cr_assert_not_null(strstr(msg, "writing it failed"), "%s", msg);
	cr_assert_eq(access(json_path, F_OK), -1, "the JSON that failed is not left");
	cr_assert_eq(dir_entries(dir), 1, "the CSV, which was fine, is in place, and nothing else");
	cr_assert_eq(access(csv_path, F_OK), 0);
}
