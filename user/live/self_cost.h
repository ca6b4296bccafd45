/* SPDX-License-Identifier: GPL-2.0 */
/*
 * self_cost.h - what a long-running wakeprobe costs, read as it runs: its
 * own CPU time and memory, its BPF programs' time, and the machine's steal
 * for the hosts' metrics. Every counter only grows: the programs' time is
 * an estimate (the kernel times some runs, collector.h), kept at the
 * highest it has been.
 */
#ifndef WAKEPROBE_SELF_COST_H
#define WAKEPROBE_SELF_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct collector;
struct collector_prog_totals;

struct self_cost {
	uint64_t cpu_ns;		/* user and system, every thread, since it started */
	uint64_t rss_bytes;
	bool bpf_known;
	uint64_t bpf_runs;
	uint64_t bpf_run_ns;
	bool steal_known;
	uint64_t steal_ns;		/* the machine's, all CPUs, since boot */
};

/* self_cost__read - @s as it stands now; @c, the BPF side, may be NULL (no program time then) */
void self_cost__read(struct self_cost *s, const struct collector *c);

/*
 * What self_cost__read() makes of each reading, for the tests to hold:
 * self_cost__take_statm - the resident set from the text of
 * /proc/PID/statm in @statm, in pages of @page_bytes; 0, or -EINVAL when
 * it does not parse (@s as it was)
 */
int self_cost__take_statm(struct self_cost *s, FILE *statm, uint64_t page_bytes);
/* self_cost__take_steal - the machine's steal, @ticks of 1 / @ticks_per_s s (> 0): taken unless it went back */
void self_cost__take_steal(struct self_cost *s, uint64_t ticks, long ticks_per_s);
/* self_cost__take_programs - the programs' runs and time from their totals @t, each kept at its highest */
void self_cost__take_programs(struct self_cost *s, const struct collector_prog_totals *t);

#endif /* WAKEPROBE_SELF_COST_H */
