// SPDX-License-Identifier: GPL-2.0
/*
 * test_cgroup_stats.c - complete wakeups by cgroup: each under its
 * wakee's label, its run-queue wait put down to the holder (idle, its own
 * cgroup, a neighbour), its waker's cgroup and mechanism paired with it;
 * a wakeup that is not complete or came without cgroups counted nowhere;
 * two cgroups of one label (a service made anew, a container under either
 * driver's path) going on in one series; and
 * past --top, the rest in "other" with nothing lost.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup_run.h"
#include "cgroup_stats.h"

TestSuite(cgroup_stats, .init = cgroup_run__setup, .fini = cgroup_run__teardown);

static void add(struct attach_result r, int times)
{
	for (int i = 0; i < times; i++)
		cgroup_stats__add(cg_stats, &r);
}

/* find - the data of the series of @cap whose key is @key; NULL: none */
static const void *find(const struct series_cap *cap, const char *key)
{
	for (size_t i = 0; i < series_cap__count(cap); i++)
		if (!strcmp(series_cap__key(cap, i), key))
			return series_cap__data(cap, i);
	return NULL;
}

static const struct cgroup_series *cgroup(const char *label)
{
	return find(cg_stats->cgroups, label);
}

Test(cgroup_stats, the_run_queue_wait_is_put_down_to_the_cgroup_that_held_the_cpu)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	uint64_t batch = cgroup_run__dir("system.slice/batch.service");
	const struct holder_series *h;
	char key[SERIES_KEY_LEN];

	cg_stats = cgroup_stats__new(cg_names, 20);
	add(cgroup_run__wakeup(web, web, 0, 10000, 4000), 2);		/* the CPU was idle */
	add(cgroup_run__wakeup(web, web, web, 20000, 15000), 1);	/* its own cgroup held it */
	add(cgroup_run__wakeup(web, 0, batch, 90000, 80000), 1);	/* a neighbour held it; an interrupt woke it */
	cr_assert_eq(cg_stats->wakeups, 4);
	cr_assert_eq(cgroup("web.service")->wake_to_run.count, 4);
	cr_assert_eq(cgroup("web.service")->runq_wait_ns, 103000);
	cr_assert_eq(cgroup("web.service")->idle_ns, 8000);
	cr_assert_eq(cgroup("web.service")->neighbour_ns, 80000);
	cr_assert_eq(cg_stats->neighbour_ns, 80000);
	snprintf(key, sizeof(key), "web.service%cbatch.service", CGROUP_STATS_SEP);
	h = find(cg_stats->holders, key);
	cr_assert_not_null(h);
	cr_assert_eq(h->runq_wait_ns, 80000);
	snprintf(key, sizeof(key), "web.service%c" CGROUP_IDLE_LABEL, CGROUP_STATS_SEP);
	cr_assert_eq(((const struct holder_series *)find(cg_stats->holders, key))->wakeups, 2);
	snprintf(key, sizeof(key), CGROUP_IRQ_LABEL "%cweb.service%cfutex", CGROUP_STATS_SEP, CGROUP_STATS_SEP);
	cr_assert_eq(((const struct pair_series *)find(cg_stats->pairs, key))->wake_to_run_ns, 90000);
	cr_assert_eq(cg_stats->by_family[MECH_FUTEX].wakeups, 4);
}

Test(cgroup_stats, a_wakeup_not_complete_or_without_its_cgroups_counts_nowhere)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	struct attach_result r = cgroup_run__wakeup(web, web, web, 1000, 500);

	cg_stats = cgroup_stats__new(cg_names, 20);
	r.sr.label = LABEL_MISSING_EVENT;
	add(r, 1);
	r = cgroup_run__wakeup(web, web, web, 1000, 500);
	r.cgrouped = false;
	add(r, 1);
	cr_assert_eq(cg_stats->wakeups, 0);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 0);
}

Test(cgroup_stats, two_cgroups_of_one_label_go_on_in_one_series)
{
	/* one container, under either driver's path: the series is the label's, whatever the id */
	uint64_t scope = cgroup_run__dir("system.slice/"
					 "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope");
	uint64_t bare;

	cgroup_run__dir("docker");
	bare = cgroup_run__dir("docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	cr_assert_neq(scope, bare);
	cg_stats = cgroup_stats__new(cg_names, 20);
	add(cgroup_run__wakeup(scope, scope, scope, 1000, 100), 3);
	add(cgroup_run__wakeup(bare, bare, bare, 1000, 100), 2);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 1);
	cr_assert_eq(cgroup("docker:0123456789ab")->wake_to_run.count, 5);
}

Test(cgroup_stats, past_the_top_the_rest_go_to_other_and_no_wakeup_is_lost)
{
	uint64_t total = 0, ids[10];
	char rel[64];

	cg_stats = cgroup_stats__new(cg_names, 3);
	/* all made before the first is named: a tree that is not kernfs is walked once in a while */
	for (int i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "system.slice/app%d.service", i);
		ids[i] = cgroup_run__dir(rel);
	}
	for (int i = 0; i < 10; i++)
		add(cgroup_run__wakeup(ids[i], ids[i], ids[i], 1000 * (uint64_t)(i + 1), 10), i + 1);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 3);
	for (size_t i = 0; i < series_cap__count(cg_stats->cgroups); i++)
		total += ((const struct cgroup_series *)series_cap__data(cg_stats->cgroups, i))->wake_to_run.count;
	total += ((const struct cgroup_series *)series_cap__other(cg_stats->cgroups))->wake_to_run.count;
	cr_assert_eq(total, 55);
}

Test(cgroup_stats, a_key_of_three_labels_splits_back_into_them)
{
	char key[64], buf[64];
	const char *parts[3];

	snprintf(key, sizeof(key), "a%cb%cc", CGROUP_STATS_SEP, CGROUP_STATS_SEP);
	cr_assert_eq(cgroup_stats__split(key, buf, sizeof(buf), parts, 3), 3);
	cr_assert_str_eq(parts[0], "a");
	cr_assert_str_eq(parts[1], "b");
	cr_assert_str_eq(parts[2], "c");
	cr_assert_eq(cgroup_stats__split("solo", buf, sizeof(buf), parts, 3), 1);
	cr_assert_str_eq(parts[0], "solo");
}
