// SPDX-License-Identifier: GPL-2.0
/*
 * test_hardening.c - wakeprobe as root, made to fail: a workload that runs
 * too long, a workload run as another user, and what is left behind.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "helpers.h"

static struct session_result result;

TestSuite(hardening);

/* uid_of - the real uid of task @tid, from /proc; -1 if it is gone */
static long uid_of(uint32_t tid)
{
	char path[64], line[256];
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %ld", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

struct uid_probe {
	long waker_uid;
	long wakee_uid;
};

static void probe_uids(const struct sample_result *r, void *ctx)
{
	struct uid_probe *p = ctx;

	/* the first sample: both threads are alive until the run ends */
	if (p->waker_uid == -2) {
		p->waker_uid = uid_of(r->sample.waker_tid);
		p->wakee_uid = uid_of(r->sample.wakee_tid);
	}
}

Test(hardening, a_workload_run_as_another_user_is_traced_as_usual, .timeout = 60)
{
	struct uid_probe probe = { .waker_uid = -2, .wakee_uid = -2 };
	struct checks c = { .hook = probe_uids, .hook_ctx = &probe };
	struct session_opts o;
	char msg[256] = "";

	skip_unless_traceable();
	o = test_session_opts("eventfd", true, 200, 300, &c);
	o.drop_privileges = true;
	o.uid = 65534;
	o.gid = 65534;
	cr_assert_eq(session__run(&o, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not(result.workload_failed, "%s", result.workload_error);
	cr_assert_eq(probe.waker_uid, 65534, "the waker runs as uid %ld", probe.waker_uid);
	cr_assert_eq(probe.wakee_uid, 65534, "the wakee runs as uid %ld", probe.wakee_uid);
	cr_assert_eq(result.samples_sent, 200);
	cr_assert_eq(c.seen, 200);
	cr_assert_geq(c.phased, 180, "traced as usual: %lu of 200 phased", c.phased);
	cr_assert_eq(result.drops_total, 0);
}

Test(hardening, a_workload_past_its_timeout_is_stopped_reaped_and_reported, .timeout = 60)
{
	struct checks c = {};
	struct session_opts o;
	char msg[256] = "";

	skip_unless_traceable();
	o = test_session_opts("eventfd", true, 1000000, 1000, &c);
	o.timeout_ms = 400;
	cr_assert_eq(session__run(&o, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(result.timed_out);
	cr_assert(result.workload_failed);
	cr_assert(strstr(result.workload_error, "timed out after 0.4 s (--timeout)"), "%s", result.workload_error);
	cr_assert(strstr(result.workload_exit, "killed by signal 15"), "%s", result.workload_exit);
	cr_assert_gt(result.samples_sent, 50, "it ran for a while");
	cr_assert_lt(result.samples_sent, 1000000);
	cr_assert_eq(c.seen, result.samples_sent, "every sample taken is accounted for");
	cr_assert_eq(kill((pid_t)result.waker_tid, 0), -1, "the workload is gone");
	cr_assert_eq(errno, ESRCH);
}
