/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_cost.h - what a traced run's tracing cost, as every report states
 * it, so a reader can judge the observer effect on the figures above it:
 * the BPF programs' runs and time by the kernel's own count (its run-time
 * statistics, on for the run and back as they were after), the records
 * and the records lost, and wakeprobe's own CPU time over the run. Per
 * wakeup, by the run's count of wakeups.
 */
#ifndef WAKEPROBE_TRACE_COST_H
#define WAKEPROBE_TRACE_COST_H

#include <stdbool.h>
#include <stdint.h>

#define TRACE_COST_WHY_LEN	96

struct trace_cost {
	bool known;			/* false: a recording made before wakeprobe kept it */
	bool bpf_stats_on;		/* the kernel timed the programs: bpf_runs and bpf_run_ns hold */
	char bpf_stats_why_off[TRACE_COST_WHY_LEN];
	uint64_t bpf_runs;		/* every run, as the programs counted them */
	/*
	 * Their time: the kernel's time per run over the runs it timed, its
	 * windows (collector.h), times bpf_runs. bpf_timed_permille of the
	 * runs were timed; 1000 when they all were (and in recordings made
	 * before the windows).
	 */
	uint64_t bpf_run_ns;
	uint16_t bpf_timed_permille;
	uint64_t self_cpu_ns;		/* wakeprobe's own CPU time, user and system, while it traced */
	uint64_t self_cpu_start_ns;	/* ... at its start, while the run goes on */
};

/* trace_cost__start - tracing begins: wakeprobe's CPU time so far; @stats_err from collector__run_stats() */
void trace_cost__start(struct trace_cost *c, int stats_err);
/*
 * trace_cost__stop - tracing ended: the programs' totals (collector__prog_totals():
 * their own count of runs, the runs the kernel timed and their time), the CPU time since
 */
void trace_cost__stop(struct trace_cost *c, uint64_t counted_runs, uint64_t timed_runs, uint64_t timed_ns);
/* trace_cost__self_cpu_ns - wakeprobe's own CPU time so far, every thread, user and system */
uint64_t trace_cost__self_cpu_ns(void);
/*
 * trace_cost__run_ns - the programs' time in all: @timed_ns over the
 * @timed_runs the kernel timed, times all @counted_runs (at least the
 * timed ones: a count read before the kernel's may fall a few short)
 */
uint64_t trace_cost__run_ns(uint64_t counted_runs, uint64_t timed_runs, uint64_t timed_ns);

#endif /* WAKEPROBE_TRACE_COST_H */
