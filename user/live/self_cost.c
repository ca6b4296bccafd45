// SPDX-License-Identifier: GPL-2.0
/* self_cost.c - a running wakeprobe's own CPU, memory and programs' time; the machine's steal (self_cost.h) */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "collector.h"
#include "self_cost.h"

int self_cost__steal_in(FILE *stat, long ticks_per_s, uint64_t *ns)
{
	unsigned long long v[8];
	char line[512];

	while (fgets(line, sizeof(line), stat))
		/* user nice system idle iowait irq softirq steal: proc(5) */
		if (!strncmp(line, "cpu ", 4) &&
		    sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5], &v[6], &v[7]) == 8 && ticks_per_s > 0) {
			*ns = (uint64_t)v[7] * (1000000000ull / (uint64_t)ticks_per_s);
			return 0;
		}
	return -ENOENT;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000;
}

void self_cost__read(struct self_cost *s, const struct collector *c)
{
	unsigned long long pages_total, pages_resident;
	struct rusage ru;
	uint64_t steal;
	FILE *f;

	if (!getrusage(RUSAGE_SELF, &ru))
		s->cpu_ns = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
	f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%llu %llu", &pages_total, &pages_resident) == 2)
			s->rss_bytes = (uint64_t)pages_resident * (uint64_t)sysconf(_SC_PAGESIZE);
		fclose(f);
	}
	f = fopen("/proc/stat", "re");
	if (f) {
		if (!self_cost__steal_in(f, sysconf(_SC_CLK_TCK), &steal) && steal >= s->steal_ns) {
			s->steal_ns = steal;
			s->steal_known = true;
		}
		fclose(f);
	}
	if (c) {
		struct collector_prog_totals t;
		uint64_t est;

		collector__prog_totals(c, &t);
		if (t.runs && t.counted_runs) {
			est = (uint64_t)((double)t.run_ns * (double)(t.counted_runs > t.runs ? t.counted_runs : t.runs) /
					 (double)t.runs + 0.5);
			s->bpf_known = true;
			if (est > s->bpf_run_ns)
				s->bpf_run_ns = est;
			if (t.counted_runs > s->bpf_runs)
				s->bpf_runs = t.counted_runs;
		}
	}
}
