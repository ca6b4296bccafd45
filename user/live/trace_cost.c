// SPDX-License-Identifier: GPL-2.0
/* trace_cost.c - a traced run's cost: BPF program time, wakeprobe's own CPU */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "collector.h"
#include "trace_cost.h"

uint64_t trace_cost__self_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void trace_cost__start(struct trace_cost *c, int stats_err)
{
	memset(c, 0, sizeof(*c));
	c->known = true;
	c->bpf_stats_on = !stats_err;
	if (stats_err)
		snprintf(c->bpf_stats_why_off, sizeof(c->bpf_stats_why_off),
			 "the kernel would not time the BPF programs (BPF_ENABLE_STATS: %s)", strerror(-stats_err));
	c->self_cpu_start_ns = trace_cost__self_cpu_ns();
}

void trace_cost__stop(struct trace_cost *c, uint64_t counted_runs, uint64_t timed_runs, uint64_t timed_ns)
{
	uint64_t now = trace_cost__self_cpu_ns();

	c->self_cpu_ns = now > c->self_cpu_start_ns ? now - c->self_cpu_start_ns : 0;
	if (!c->bpf_stats_on)
		return;
	if (!timed_runs || !counted_runs) {
		c->bpf_stats_on = false;
		snprintf(c->bpf_stats_why_off, sizeof(c->bpf_stats_why_off),
			 "no program ran while the kernel timed them, %d ms of each %d s", COLLECTOR_TIMED_MS,
			 COLLECTOR_TIMED_EVERY_MS / 1000);
		return;
	}
	/* a count read before the kernel's may fall a few runs short of it */
	if (counted_runs < timed_runs)
		counted_runs = timed_runs;
	c->bpf_runs = counted_runs;
	c->bpf_run_ns = trace_cost__run_ns(counted_runs, timed_runs, timed_ns);
	c->bpf_timed_permille = (uint16_t)((timed_runs * 1000 + counted_runs / 2) / counted_runs);
}


uint64_t trace_cost__run_ns(uint64_t counted_runs, uint64_t timed_runs, uint64_t timed_ns)
{
	if (!timed_runs)
		return 0;
	if (counted_runs < timed_runs)
		counted_runs = timed_runs;
	return (uint64_t)((double)timed_ns * (double)counted_runs / (double)timed_runs + 0.5);
}
