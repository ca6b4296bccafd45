// SPDX-License-Identifier: GPL-2.0
/* self_cost.c - a running wakeprobe's own CPU, memory and programs' time; the machine's steal (self_cost.h) */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "collector.h"
#include "host_steal.h"
#include "self_cost.h"
#include "trace_cost.h"

int self_cost__take_statm(struct self_cost *s, FILE *statm, uint64_t page_bytes)
{
	unsigned long long pages_total, pages_resident;

	if (fscanf(statm, "%llu %llu", &pages_total, &pages_resident) != 2)
		return -EINVAL;
	s->rss_bytes = (uint64_t)pages_resident * page_bytes;
	return 0;
}

void self_cost__take_steal(struct self_cost *s, uint64_t ticks, long ticks_per_s)
{
	uint64_t ns = ticks * (1000000000ull / (uint64_t)ticks_per_s);

	if (ns >= s->steal_ns) {
		s->steal_ns = ns;
		s->steal_known = true;
	}
}

void self_cost__take_programs(struct self_cost *s, const struct collector_prog_totals *t)
{
	uint64_t est;

	if (!t->runs || !t->counted_runs)
		return;
	est = trace_cost__run_ns(t->counted_runs, t->runs, t->run_ns);
	s->bpf_known = true;
	if (est > s->bpf_run_ns)
		s->bpf_run_ns = est;
	if (t->counted_runs > s->bpf_runs)
		s->bpf_runs = t->counted_runs;
}

void self_cost__read(struct self_cost *s, const struct collector *c)
{
	struct host_steal every_cpu;
	long ticks_per_s = sysconf(_SC_CLK_TCK);
	uint32_t nr_cpus;
	uint64_t ticks;
	FILE *f;

	s->cpu_ns = trace_cost__self_cpu_ns();
	f = fopen("/proc/self/statm", "re");
	if (f) {
		self_cost__take_statm(s, f, (uint64_t)sysconf(_SC_PAGESIZE));
		fclose(f);
	}
	host_steal__init(&every_cpu, HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS);
	if (ticks_per_s > 0 && !host_steal__read_proc(&every_cpu, &ticks, &nr_cpus))
		self_cost__take_steal(s, ticks, ticks_per_s);
	if (c) {
		struct collector_prog_totals t;

		collector__prog_totals(c, &t);
		self_cost__take_programs(s, &t);
	}
}
