// SPDX-License-Identifier: GPL-2.0
/*
 * test_output_paths.c - the files a run or a report names, in one list for
 * the checks over all of them: each under the option that names it, in
 * the order the messages list them (the recording first), "-" kept as
 * standard input or output, and nothing for what was not asked for.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "output_paths.h"

TestSuite(output_paths);

/* the fields of struct output_paths, in the order the list gives them */
enum field { RECORDING, RECORD, JSON, CSV, PERFETTO, PROMETHEUS, PLOT, FOLDED, NR_FIELDS };

_Static_assert(NR_FIELDS == OUTPUT_MAX_FILES, "a file the list does not give");

static const char **field_of(struct output_paths *p, enum field f)
{
	switch (f) {
	case RECORDING: return &p->recording;
	case RECORD: return &p->record;
	case JSON: return &p->json;
	case CSV: return &p->csv;
	case PERFETTO: return &p->perfetto;
	case PROMETHEUS: return &p->prometheus;
	case PLOT: return &p->plot;
	case FOLDED: return &p->folded;
	default: return NULL;
	}
}

struct one_case {
	int field;
	char name[16];
};

ParameterizedTestParameters(output_paths, each_file_alone_is_named_by_its_option)
{
	static struct one_case cases[] = {
		{ RECORDING, "the recording" }, { RECORD, "-o" }, { JSON, "--json" }, { CSV, "--csv" },
		{ PERFETTO, "--perfetto" }, { PROMETHEUS, "--prometheus" }, { PLOT, "--plot" },
		{ FOLDED, "--folded" },
	};

	return cr_make_param_array(struct one_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct one_case *c, output_paths, each_file_alone_is_named_by_its_option)
{
	struct output_file files[OUTPUT_MAX_FILES];
	struct output_paths p = { 0 };
	char path[32];

	snprintf(path, sizeof(path), "/tmp/out-%d", c->field);
	*field_of(&p, c->field) = path;
	cr_assert_eq(output_paths__files(&p, files), 1);
	cr_assert_eq(files[0].path, path, "the path as given, not a copy");
	cr_assert_str_eq(files[0].name, c->name);
}

Test(output_paths, every_file_is_listed_in_order_the_recording_first)
{
	static const char *const names[] = {
		"the recording", "-o", "--json", "--csv", "--perfetto", "--prometheus", "--plot", "--folded",
	};
	static const char *const paths[] = { "in.wpr", "out.wpr", "-", "r.csv", "t.json", "m.prom", "p.svg", "s.folded" };
	struct output_file files[OUTPUT_MAX_FILES];
	struct output_paths p;

	p = (struct output_paths){ .recording = paths[0], .record = paths[1], .json = paths[2], .csv = paths[3],
				   .perfetto = paths[4], .prometheus = paths[5], .plot = paths[6],
				   .folded = paths[7] };
	cr_assert_eq(output_paths__files(&p, files), OUTPUT_MAX_FILES);
	for (size_t i = 0; i < OUTPUT_MAX_FILES; i++) {
		cr_assert_str_eq(files[i].name, names[i]);
		cr_assert_eq(files[i].path, paths[i], "%s", names[i]);
	}
	cr_assert_str_eq(files[2].path, "-", "standard output stays \"-\"");
}

Test(output_paths, what_was_not_asked_for_leaves_no_gap)
{
	struct output_file files[OUTPUT_MAX_FILES];
	struct output_paths p = { 0 };

	cr_assert_eq(output_paths__files(&p, files), 0);
	/* a report of stdin to its CSV and plot: three, one after the other */
	p.recording = "-";
	p.csv = "r.csv";
	p.plot = "-";
	memset(files, 0, sizeof(files));
	cr_assert_eq(output_paths__files(&p, files), 3);
	cr_assert_str_eq(files[0].name, "the recording");
	cr_assert_str_eq(files[0].path, "-");
	cr_assert_str_eq(files[1].name, "--csv");
	cr_assert_str_eq(files[1].path, "r.csv");
	cr_assert_str_eq(files[2].name, "--plot");
	cr_assert_str_eq(files[2].path, "-");
	cr_assert_null(files[3].path, "nothing past the count is written");
	cr_assert_null(files[3].name);
}
