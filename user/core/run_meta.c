// SPDX-License-Identifier: GPL-2.0
/* run_meta.c - where and when a run is measured */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "run_meta.h"

void run_meta__now(struct run_meta *m)
{
	struct utsname u;
	struct timespec ts;

	snprintf(m->version, sizeof(m->version), "%s", WAKEPROBE_VERSION);
	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
		snprintf(m->hostname, sizeof(m->hostname), "%s", u.nodename);
	}
	m->nr_cpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	clock_gettime(CLOCK_REALTIME, &ts);
	m->started_unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}
