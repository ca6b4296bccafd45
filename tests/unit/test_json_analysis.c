// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_analysis.c - a traced program's analysis in JSON
 * (json_analysis.c), written into an object of its own from the run of
 * attach_fixture.h and read back by python3's json module: its members in
 * their order, the same as attach mode's document has after its head;
 * --all's cgroups and --stacks' stacks where they go, only when taken;
 * and what a lean run without flight records could not say, null. The
 * figures themselves are test_json_attach.c's.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>
#include "attach_fixture.h"
#include "cgroup_run.h"
#include "json_analysis.h"
#include "json_attach.h"
#include "readback.h"
#include "stacks_fixture.h"

static struct attach_fixture run;
static char path[64], attach_path[64];

static void setup(void)
{
	memset(&run, 0, sizeof(run));
	attach_fixture__make(&run);
	path[0] = attach_path[0] = '\0';
}

static void teardown(void)
{
	attach_fixture__free(&run);
	if (path[0])
		unlink(path);
	if (attach_path[0])
		unlink(attach_path);
}

TestSuite(json_analysis, .init = setup, .fini = teardown);

/* the members of the analysis, in their order, without --all or --stacks */
#define MEMBERS "['trace', 'ended', 'events', 'threads', 'migrations', 'explained_cut', 'host_steal', " \
	"'tracing_cost', 'wakeups', 'stats', 'absent', 'sub_phases', 'pairs', 'pairs_untabled', 'pairs_replaced', " \
	"'pairs_capacity', 'futexes', 'futexes_untabled', 'futexes_replaced', 'futexes_capacity', 'causes', " \
	"'explained_total_ns', 'explained_wakeups', 'tasks', 'untabled_task_ns', 'outliers']"

/* write_analysis - an object holding the analysis of @r alone, into a new temporary file */
static void write_analysis(const struct attach_report *r)
{
	FILE *f = temp_output("json-analysis", path);
	struct json_writer w;

	json_writer__init(&w, f);
	json_writer__begin_object(&w);
	json_analysis__write(&w, r);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(f), 0);
}

Test(json_analysis, its_members_come_in_their_order)
{
	write_analysis(&run.report);
	cr_assert(json_check(path, "assert list(d) == " MEMBERS ", list(d)\n"));
}

Test(json_analysis, attach_modes_document_is_its_head_then_the_analysis_member_for_member)
{
	FILE *f = temp_output("json-analysis-attach", attach_path);
	char script[256];

	cr_assert_eq(json_attach__print(f, &run.report), 0);
	cr_assert_eq(fclose(f), 0);
	write_analysis(&run.report);
	snprintf(script, sizeof(script),
		 "import json, sys\n"
		 "a = json.load(open(sys.argv[1]))\n"
		 "d = json.load(open(sys.argv[2]))\n"
		 "assert list(a)[6:] == list(d), list(a)\n"
		 "assert all(a[k] == d[k] for k in d)\n");
	cr_assert_eq(run_python(script, (const char *const[]){ attach_path, path, NULL }), 0);
}

Test(json_analysis, the_wakeups_by_cgroup_come_between_the_pairs_and_the_futex_words)
{
	cgroup_run__setup();
	cgroup_run__make(20);
	run.report.cgroups = cg_stats;
	write_analysis(&run.report);
	cr_assert(json_check(path,
		"k = list(d)\n"
		"assert k.index('cgroups') == k.index('pairs_capacity') + 1 == k.index('futexes') - 1, k\n"
		"assert d['cgroups']['wakeups'] == %d, d['cgroups']\n", CG_WAKEUPS));
	run.report.cgroups = NULL;
	cgroup_run__teardown();
}

Test(json_analysis, the_runs_stacks_come_after_the_futex_words_with_each_pairs_own)
{
	struct run_stacks *rs = stacks_with_kernel();

	run.run.stacks = rs;
	write_analysis(&run.report);
	/* the run's wakeups came without stacks: each pair has a list, empty, and nothing past it */
	cr_assert(json_check(path,
		"k = list(d)\n"
		"assert k.index('stacks') == k.index('futexes_capacity') + 1, k\n"
		"assert d['stacks']['distinct'] == 0 and d['stacks']['cut_short'] == [], d['stacks']\n"
		"for p in d['pairs']:\n"
		"    assert p['stacks'] == [] and p['stacks_other'] == 0, p\n"));
	run.run.stacks = NULL;
	run_stacks__free(rs);
}

Test(json_analysis, a_lean_run_without_flight_records_says_null_where_it_could_not_see)
{
	struct attach_aggregate *g = run.agg;

	run.targets.lean = true;
	/* no flight recorder: nothing explained, no idle CPU seen */
	memset(&g->causes, 0, sizeof(g->causes));
	write_analysis(&run.report);
	cr_assert(json_check(path,
		"assert d['causes'] is None and d['tasks'] is None, d['causes']\n"
		"assert d['explained_total_ns'] is None and d['untabled_task_ns'] is None\n"
		"assert d['sub_phases']['target_idle'] is None, d['sub_phases']\n"
		"assert d['migrations']['all'] is None, d['migrations']\n"
		"assert d['events']['lean_flight_threshold_ns'] is None, d['events']\n"));
}
