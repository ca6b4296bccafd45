// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include "cpus.h"

int cpus__first_two(const cpu_set_t *allowed, int *waker_cpu, int *wakee_cpu)
{
	int cpu, found[2], nr_found = 0;

	for (cpu = 0; cpu < CPU_SETSIZE && nr_found < 2; cpu++)
		if (CPU_ISSET(cpu, allowed))
			found[nr_found++] = cpu;
	if (nr_found < 2)
		return -ENODEV;
	*waker_cpu = found[0];
	*wakee_cpu = found[1];
	return 0;
}
