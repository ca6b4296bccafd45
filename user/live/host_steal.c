// SPDX-License-Identifier: GPL-2.0
/* host_steal.c - a run's steal, from its records and from /proc/stat */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "host_steal.h"
#include "steal_clock.h"

void host_steal__init(struct host_steal *h, int cpu_a, int cpu_b)
{
	memset(h, 0, sizeof(*h));
	h->cpus[0] = cpu_a;
	h->cpus[1] = cpu_b;
}

static bool uses_cpu(const struct host_steal *h, int cpu)
{
	return h->cpus[0] == HOST_STEAL_ALL_CPUS || cpu == h->cpus[0] || cpu == h->cpus[1];
}

int host_steal__read_proc(const struct host_steal *h, uint64_t *ticks, uint32_t *nr_cpus)
{
	unsigned long long v[8];
	char line[512];
	FILE *f;
	int cpu;

	*ticks = 0;
	*nr_cpus = 0;
	f = fopen("/proc/stat", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/*
		 * "cpuN user nice system idle iowait irq softirq steal ...": the
		 * 8th number (Linux 2.6.11+); "cpu " alone is the sum of them all
		 */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9' || sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) != 9 || !uses_cpu(h, cpu))
			continue;
		*ticks += v[7];
		(*nr_cpus)++;
	}
	fclose(f);
	return *nr_cpus ? 0 : -ENOENT;
}

void host_steal__add_event(struct host_steal *h, const struct wp_event *e)
{
	if (e->type == WP_EV_STEAL && uses_cpu(h, (int)e->cpu))
		h->seen_ns += e->steal.delta_ns;
}

uint64_t host_steal__proc_bound_ns(const struct host_steal *h)
{
	if (!h->clk_tck)
		return 0;
	return (h->proc_ticks + 2ull * h->nr_cpus) * (1000000000ull / h->clk_tck);
}

void host_steal__cpus(const struct host_steal *h, char *buf, size_t len)
{
	if (h->cpus[0] == HOST_STEAL_ALL_CPUS)
		snprintf(buf, len, "all CPUs");
	else if (h->cpus[0] == h->cpus[1])
		snprintf(buf, len, "CPU %d", h->cpus[0]);
	else
		snprintf(buf, len, "CPUs %d and %d", h->cpus[0], h->cpus[1]);
}

void host_steal__start(struct host_steal *h, const struct steal_layout *layout)
{
	long hz = sysconf(_SC_CLK_TCK);

	h->measured = layout->on;
	snprintf(h->why_off, sizeof(h->why_off), "%s", layout->on ? "" : layout->why_off);
	h->clk_tck = hz > 0 && !host_steal__read_proc(h, &h->proc_start_ticks, &h->nr_cpus) ? (uint32_t)hz : 0;
}

void host_steal__stop(struct host_steal *h, uint64_t bad_cpus)
{
	uint32_t nr_cpus;
	uint64_t now;

	if (h->clk_tck && !host_steal__read_proc(h, &now, &nr_cpus) && nr_cpus == h->nr_cpus &&
	    now >= h->proc_start_ticks)
		h->proc_ticks = now - h->proc_start_ticks;
	else
		h->clk_tck = 0;
	if (h->measured && bad_cpus) {
		h->measured = false;
		snprintf(h->why_off, sizeof(h->why_off), "the per-CPU layout from the BTF failed its check on %" PRIu64
			 " CPUs: the steal clock was not read there", bad_cpus);
	}
}
