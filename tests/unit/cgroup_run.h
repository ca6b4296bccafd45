/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup_run.h - a machine's wakeups by cgroup (cgroup_stats.h), for the
 * tests of what reports them (test_json_cgroups.c, test_text_cgroups.c):
 * a cgroup2 hierarchy made in a temporary directory, its cgroups named
 * from it, and five complete wakeups through a futex whose every figure is
 * known:
 *
 *	wakee		waker		held the CPU	took	queued
 *	web.service	web.service	(idle)		10 us	4 us	twice
 *	web.service	web.service	web.service	20 us	15 us
 *	web.service	an interrupt	batch.service	90 us	80 us
 *	batch.service	web.service	web.service	5 us	1 us
 *
 * cgroup_run__setup() and cgroup_run__teardown() are a suite's .init and
 * .fini; cgroup_run__make() adds the wakeups. test_cgroup_stats.c makes
 * cgroups of its own in the hierarchy, and wakeups of them, with
 * cgroup_run__dir() and cgroup_run__wakeup().
 */
#ifndef WAKEPROBE_TEST_CGROUP_RUN_H
#define WAKEPROBE_TEST_CGROUP_RUN_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cgroup_stats.h"

#define CG_WAKEUPS		5
#define CG_RUNQ_WAIT_NS		104000	/* 2 x 4000 + 15000 + 80000 + 1000 */
#define CG_NEIGHBOUR_NS		81000	/* batch held web's CPU 80 us, web batch's 1 us */

static char cg_root[PATH_MAX];
static struct cgroup_names *cg_names;
static struct cgroup_stats *cg_stats;

/* cgroup_run__dir - the cgroup @rel ("system.slice/web.service") made under the root: its id */
static inline uint64_t cgroup_run__dir(const char *rel)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", cg_root, rel);
	mkdir(path, 0755);
	cr_assert_eq(stat(path, &st), 0);
	return st.st_ino;
}

static inline void cgroup_run__setup(void)
{
	snprintf(cg_root, sizeof(cg_root), "/tmp/wakeprobe-cgroup-run-XXXXXX");
	cr_assert_not_null(mkdtemp(cg_root));
	cgroup_run__dir("system.slice");
	cg_names = cgroup_names__new(cg_root);
	cr_assert_not_null(cg_names);
}

static inline void cgroup_run__teardown(void)
{
	char cmd[PATH_MAX + 16];

	cgroup_stats__free(cg_stats);
	cg_stats = NULL;
	cgroup_names__free(cg_names);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cg_root);
	cr_assert_eq(system(cmd), 0);
}

/* cgroup_run__wakeup - a complete futex wakeup of cgroup @wakee by @waker, @holder on its CPU: @took ns, @runq queued */
static inline struct attach_result cgroup_run__wakeup(uint64_t wakee, uint64_t waker, uint64_t holder, uint64_t took,
						     uint64_t runq)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.wake_to_run_ns = (int64_t)took;
	r.sr.phase_ns[PHASE_RUNQ_WAIT] = (int64_t)runq;
	r.family = MECH_FUTEX;
	r.cgrouped = true;
	r.cgroups.wakee = wakee;
	r.cgroups.waker = waker;
	r.cgroups.holder = holder;
	return r;
}

/* cgroup_run__make - the five wakeups of the table above, in series of @top of each kind, into cg_stats */
static inline void cgroup_run__make(uint32_t top)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	uint64_t batch = cgroup_run__dir("system.slice/batch.service");
	const struct attach_result r[CG_WAKEUPS] = {
		cgroup_run__wakeup(web, web, 0, 10000, 4000),
		cgroup_run__wakeup(web, web, 0, 10000, 4000),
		cgroup_run__wakeup(web, web, web, 20000, 15000),
		cgroup_run__wakeup(web, 0, batch, 90000, 80000),
		cgroup_run__wakeup(batch, web, web, 5000, 1000),
	};

	cg_stats = cgroup_stats__new(cg_names, top);
	cr_assert_not_null(cg_stats);
	for (int i = 0; i < CG_WAKEUPS; i++)
		cgroup_stats__add(cg_stats, &r[i]);
	cr_assert_eq(cg_stats->wakeups, CG_WAKEUPS);
}

#endif /* WAKEPROBE_TEST_CGROUP_RUN_H */
