// SPDX-License-Identifier: GPL-2.0
/* mode.c - what the modes share: the machine a local run needs, --user, the report at the end */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_analysis.h"
#include "collector.h"
#include "cpus.h"
#include "mode.h"
#include "parse.h"

/* pick_cpus - check the CPUs asked for, or choose the first two allowed */
static int pick_cpus(struct wp_options *o, char *err, size_t len)
{
	cpu_set_t allowed;
	int i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, len, "cannot read this process's CPU affinity: %s", strerror(errno));
		return -errno;
	}
	if (o->waker_cpu >= 0) {
		for (i = 0; i < 2; i++) {
			int c = i ? o->wakee_cpu : o->waker_cpu;

			if (c >= CPU_SETSIZE || !CPU_ISSET(c, &allowed)) {
				snprintf(err, len, "CPU %d is offline or not allowed for this process: "
					 "pick two CPUs this process may run on", c);
				return -EINVAL;
			}
		}
		return 0;
	}
	if (cpus__first_two(&allowed, &o->waker_cpu, &o->wakee_cpu)) {
		snprintf(err, len, "the waker and the wakee need two CPUs, and this process may use only one");
		return -EINVAL;
	}
	return 0;
}

int mode__resolve_user(const char *name, uid_t *uid, gid_t *gid)
{
	struct passwd *pw = getpwnam(name);
	char *end;

	if (!pw) {
		unsigned long id = strtoul(name, &end, 10);

		if (*name && !*end)
			pw = getpwuid((uid_t)id);
	}
	if (!pw) {
		fprintf(stderr, "wakeprobe: --user: no user '%s' on this machine (see getent passwd)\n",
			parse__shown(name));
		return 2;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

int mode__check_local(struct mode_run *m, bool *cpus_given, uid_t *uid, gid_t *gid)
{
	struct wp_options *o = m->o;
	char msg[PATH_MAX + 128];
	int err;

	*cpus_given = o->waker_cpu >= 0;
	if (pick_cpus(o, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	/* the workload's pids must be in wakeprobe's pid namespace, as the BPF side gives them */
	if (!o->no_trace && collector__check_pid_namespace(true, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (!o->no_trace && collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s; or add --no-trace to time the workload alone\n", msg);
		return 1;
	}
	if (o->user && (err = mode__resolve_user(o->user, uid, gid)))
		return err;
	if (o->user && geteuid()) {
		fprintf(stderr, "wakeprobe: --user needs root to switch users: run wakeprobe with sudo\n");
		return 1;
	}
	return 0;
}

struct attach_view mode__attach_view(const struct wp_options *o)
{
	return (struct attach_view){
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.pairs = o->pairs,
		.order = o->order_by_cost ? ATTACH_ORDER_COST : ATTACH_ORDER_COUNT,
	};
}

int mode__report(struct mode_run *m, const struct results *r)
{
	char msg[PATH_MAX + 128];

	if (m->out->text)
		text_sink.write(stdout, r);
	if (outputs__finish(m->out, r, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

int mode__fail(struct mode_run *m, int status, const char *msg)
{
	fprintf(stderr, "wakeprobe: %s\n", msg);
	outputs__abandon(m->out);
	return status;
}
