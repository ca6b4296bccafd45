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

struct collector;

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

#endif /* WAKEPROBE_SELF_COST_H */
