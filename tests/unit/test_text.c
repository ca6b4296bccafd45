// SPDX-License-Identifier: GPL-2.0
/*
 * test_text.c - the text report's sink: each kind of run printed by its
 * own part, byte for byte what that part prints; a workload's runs as one
 * run's report or, asked to compare, a blank line and the paths' table;
 * a design's modes one after the other, a blank line between
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "catalog.h"
#include "memout.h"
#include "samples.h"
#include "sink.h"
#include "text_attach.h"
#include "text_workload.h"

Test(text, an_attach_run_is_attach_modes_report)
{
	struct attach_fixture run = {};
	struct results r = { .kind = RUN_ATTACH };
	char *want, *got;

	attach_fixture__make(&run);
	r.attach.report = &run.report;
	want = printed(text_attach__print_text(__f, &run.report));
	got = printed(cr_assert_eq(text_sink.write(__f, &r), 0));
	cr_assert_gt(strlen(want), 100);
	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	attach_fixture__free(&run);
}

Test(text, one_workload_run_is_its_report_and_a_comparison_its_table_after_a_blank_line)
{
	struct run_config cfg = { .workload = catalog__find("eventfd"), .samples = 4, .waker_cpu = 0, .wakee_cpu = 1 };
	const struct workload_desc *wl[] = { catalog__find("eventfd"), catalog__find("pipe") };
	const struct run_result *res[2] = { new_run_result(), new_run_result() };
	struct results r = { .kind = RUN_WORKLOAD, .workload = { .cfg = &cfg, .wl = wl, .res = res, .n = 1 } };
	char *want, *got;

	want = printed(text_workload__print_text(__f, &cfg, res[0]));
	got = printed(text_sink.write(__f, &r));
	cr_assert_str_eq(got, want);
	free(want);
	free(got);

	r.workload.n = 2;
	r.workload.compare = true;
	want = printed(fprintf(__f, "\n"); text_workload__print_comparison(__f, &cfg, wl, res, 2));
	got = printed(text_sink.write(__f, &r));
	cr_assert_str_eq(got, want);
	cr_assert_not_null(strstr(got, "pipe"), "the second path has its row: %s", got);
	free(want);
	free(got);

	/* no run at all, not compared: nothing is said */
	r.workload.n = 0;
	r.workload.compare = false;
	got = printed(text_sink.write(__f, &r));
	cr_assert_str_eq(got, "");
	free(got);
	free((void *)res[0]);
	free((void *)res[1]);
}

Test(text, a_design_with_no_mode_run_says_nothing)
{
	struct results r = { .kind = RUN_DESIGN, .design = { .workload = "burst-queue" } };
	char *got = printed(text_sink.write(__f, &r));

	cr_assert_str_eq(got, "");
	free(got);
}
