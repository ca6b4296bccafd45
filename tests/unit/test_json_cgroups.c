// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_cgroups.c - attach mode's "cgroups" member (json_cgroups.c),
 * from the five wakeups of cgroup_run.h, read back by python3's json
 * module: the machine's totals, each family's series with its key's parts
 * named and "other" last, the mechanisms that had wakeups, and nothing at
 * all for a run that did not take cgroups.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>
#include "cgroup_run.h"
#include "json_cgroups.h"
#include "readback.h"

static char path[64];
static FILE *out;

static void setup(void)
{
	cgroup_run__setup();
	out = temp_output("json-cgroups", path);
}

static void teardown(void)
{
	if (out)
		fclose(out);
	out = NULL;
	unlink(path);
	cgroup_run__teardown();
}

TestSuite(json_cgroups, .init = setup, .fini = teardown);

/* write_doc - a document of one object, with what json_cgroups__write() puts in it */
static void write_doc(const struct cgroup_stats *s)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_cgroups__write(&w, s);
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(out), 0);
	out = NULL;
}

Test(json_cgroups, the_totals_come_first_then_each_family_in_its_order)
{
	cgroup_run__make(20);
	write_doc(cg_stats);
	cr_assert(json_check(path,
		"c = d['cgroups']\n"
		"assert list(c) == ['series_limit', 'wakeups', 'runq_wait_ns', 'neighbour_ns', 'unnamed', "
		"'retired', 'by_cgroup', 'holders', 'pairs', 'mechanisms'], list(c)\n"
		"assert (c['series_limit'], c['wakeups'], c['runq_wait_ns'], c['neighbour_ns'], c['unnamed']) == "
		"(20, %d, %d, %d, 0), c\n"
		"assert c['retired'] == {'by_cgroup': 0, 'holders': 0, 'pairs': 0}, c['retired']\n",
		CG_WAKEUPS, CG_RUNQ_WAIT_NS, CG_NEIGHBOUR_NS));
}

Test(json_cgroups, a_cgroup_has_its_wake_to_run_and_whose_tasks_it_waited_on)
{
	cgroup_run__make(20);
	write_doc(cg_stats);
	/* web's 10, 10, 20 and 90 us: each percentile the floor of its bucket, four to a power of two */
	cr_assert(json_check(path,
		"rows = {r['cgroup']: r for r in d['cgroups']['by_cgroup']}\n"
		"assert sorted(rows) == ['batch.service', 'other', 'web.service'], list(rows)\n"
		"assert d['cgroups']['by_cgroup'][-1]['cgroup'] == 'other', 'other is last'\n"
		"web = rows['web.service']\n"
		"assert list(web) == ['cgroup', 'wakeups', 'wake_to_run', 'runq_wait_ns', 'neighbour_ns', 'idle_ns'], web\n"
		"assert web['wakeups'] == 4 and web['wake_to_run'] == {'p50_ns': 8192, 'p90_ns': 81920, "
		"'p99_ns': 81920, 'max_ns': 90000, 'total_ns': 130000}, web\n"
		"assert (web['runq_wait_ns'], web['neighbour_ns'], web['idle_ns']) == (103000, 80000, 8000), web\n"
		"batch = rows['batch.service']\n"
		"assert batch['wakeups'] == 1 and batch['wake_to_run']['total_ns'] == 5000, batch\n"
		"assert (batch['runq_wait_ns'], batch['neighbour_ns'], batch['idle_ns']) == (1000, 1000, 0), batch\n"
		"assert rows['other']['wakeups'] == 0 and rows['other']['wake_to_run']['max_ns'] == 0, rows['other']\n"));
}

Test(json_cgroups, holders_and_pairs_name_each_part_of_their_keys)
{
	cgroup_run__make(20);
	write_doc(cg_stats);
	cr_assert(json_check(path,
		"c = d['cgroups']\n"
		"holders = {(h['cgroup'], h['holder']): (h['wakeups'], h['runq_wait_ns']) for h in c['holders']}\n"
		"assert holders == {('web.service', 'idle'): (2, 8000), ('web.service', 'web.service'): (1, 15000), "
		"('web.service', 'batch.service'): (1, 80000), ('batch.service', 'web.service'): (1, 1000), "
		"('other', 'other'): (0, 0)}, holders\n"
		"pairs = {(p['waker_cgroup'], p['cgroup'], p['mechanism']): (p['wakeups'], p['wake_to_run_ns']) "
		"for p in c['pairs']}\n"
		"assert pairs == {('web.service', 'web.service', 'futex'): (3, 40000), "
		"('interrupt', 'web.service', 'futex'): (1, 90000), ('web.service', 'batch.service', 'futex'): (1, 5000), "
		"('other', 'other', 'other'): (0, 0)}, pairs\n"
		"assert c['holders'][-1]['cgroup'] == 'other' and c['pairs'][-1]['waker_cgroup'] == 'other'\n"));
}

Test(json_cgroups, only_the_mechanisms_that_had_wakeups_are_listed)
{
	cgroup_run__make(20);
	write_doc(cg_stats);
	cr_assert(json_check(path,
		"assert d['cgroups']['mechanisms'] == [{'mechanism': 'futex', 'wakeups': 5, 'wake_to_run_ns': 135000}], "
		"d['cgroups']['mechanisms']\n"));
}

Test(json_cgroups, past_the_series_limit_the_rest_are_in_other_and_nothing_is_lost)
{
	cgroup_run__make(1);
	write_doc(cg_stats);
	/* web came first and took the one series; batch's wakeup is other's */
	cr_assert(json_check(path,
		"c = d['cgroups']\n"
		"assert c['series_limit'] == 1, c['series_limit']\n"
		"assert [r['cgroup'] for r in c['by_cgroup']] == ['web.service', 'other'], c['by_cgroup']\n"
		"assert c['by_cgroup'][1]['wakeups'] == 1 and c['by_cgroup'][1]['wake_to_run']['total_ns'] == 5000\n"
		"assert sum(r['wakeups'] for r in c['by_cgroup']) == c['wakeups'] == %d\n"
		"assert sum(h['wakeups'] for h in c['holders']) == %d, c['holders']\n"
		"assert sum(p['wake_to_run_ns'] for p in c['pairs']) == 135000, c['pairs']\n", CG_WAKEUPS, CG_WAKEUPS));
}

Test(json_cgroups, a_cgroup_the_hierarchy_does_not_hold_is_the_series_unknown)
{
	struct attach_result r;

	cgroup_run__make(20);
	/* an id no directory of the hierarchy has: gone before it could be named */
	r = cgroup_run__wakeup(987654321, 987654321, 0, 3000, 100);
	cgroup_stats__add(cg_stats, &r);
	write_doc(cg_stats);
	cr_assert(json_check(path,
		"c = d['cgroups']\n"
		"assert c['wakeups'] == %d and c['runq_wait_ns'] == %d, c\n"
		"unknown = [r for r in c['by_cgroup'] if r['cgroup'] == 'unknown']\n"
		"assert len(unknown) == 1 and unknown[0]['wakeups'] == 1 and unknown[0]['idle_ns'] == 100, unknown\n"
		"assert ('unknown', 'unknown', 'futex') in [(p['waker_cgroup'], p['cgroup'], p['mechanism']) "
		"for p in c['pairs']], c['pairs']\n", CG_WAKEUPS + 1, CG_RUNQ_WAIT_NS + 100));
}

Test(json_cgroups, a_run_without_cgroups_has_no_member)
{
	write_doc(NULL);
	cr_assert(json_check(path, "assert d == {}, d\n"));
}
