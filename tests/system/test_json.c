// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - the JSON report of a real traced run, read back by python3's
 * json module as strictly as unit/test_json_workload.c reads the synthetic
 * ones, its figures those of the run's aggregate. Needs root and BTF;
 * elsewhere it skips and says why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "helpers.h"
#include "json_workload.h"
#include "readback.h"

static char path[64];
static FILE *out;
static struct run_result *res[1];

static void setup(void)
{
	out = temp_output("json", path);
	res[0] = calloc(1, sizeof(*res[0]));
	cr_assert_not_null(res[0]);
}

static void teardown(void)
{
	free(res[0]);
	if (out)
		fclose(out);
	unlink(path);
}

/* print_json - the report of @n runs into the document, which is then complete */
static void print_json(const struct run_config *cfg, const struct workload_desc *const *wl, size_t n)
{
	cr_assert_eq(json_workload__print(out, cfg, wl, (const struct run_result *const *)res, n), 0);
	cr_assert_eq(fclose(out), 0);
	out = NULL;
}

TestSuite(json_trace, .init = setup, .fini = teardown, .timeout = 120);

Test(json_trace, a_traced_eventfd_run_reads_back_with_the_aggregates_figures)
{
	struct checks c = {};
	struct test_session sess = test_session("eventfd", true, 300, 500, &c);
	const struct workload_desc *wl[] = { sess.cfg.workload };
	const struct aggregate *a = &res[0]->agg;
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_workload("eventfd", true, 300, 500, &c, res[0], msg), 0, "session failed: %s", msg);
	cr_assert_not(res[0]->workload_failed, "workload failed: %s", res[0]->workload_error);
	cr_assert_gt(a->by_label[LABEL_COMPLETE], 0);
	print_json(&sess.cfg, wl, 1);

	cr_assert(json_check(path, "%s", json_report_keys));
	cr_assert(json_check(path, "run = d['runs'][0]\n"
			   "assert run['workload']['name'] == 'eventfd' and run['options']['traced'] is True\n"
			   "assert run['samples']['sent'] == 300 and run['samples']['seen'] == %lu, run['samples']\n"
			   "assert run['samples']['complete'] == %lu, run['samples']\n"
			   "assert sum(run['samples']['by_label'].values()) == run['samples']['seen']\n"
			   "st = run['stats']\n"
			   "assert st['total']['count'] == %lu and st['total']['p50_ns'] == %lu, st['total']\n"
			   "assert st['runq_wait']['count'] == st['total']['count'], st['runq_wait']\n"
			   "assert run['events']['recorded'] == %lu and run['events']['recorded'] > 0, run['events']\n"
			   "assert run['threads']['wakee_tid'] == %u, run['threads']\n"
			   "assert run['meta']['nr_cpus'] >= 2 and run['meta']['kernel'], run['meta']\n",
			   a->samples, a->by_label[LABEL_COMPLETE], a->total.count,
			   histogram__percentile(&a->total, 50), res[0]->merge.events, res[0]->wakee_tid));
}
