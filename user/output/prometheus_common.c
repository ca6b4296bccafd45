// SPDX-License-Identifier: GPL-2.0
/*
 * prometheus_common.c - what every run's metrics share: one table of the
 * families, so that a family has the same name, type and HELP in every
 * file whatever the run, and the families a workload's run and attach
 * mode's both fill alike
 */
#include "prom.h"
#include "prometheus_common.h"

/* one table, so that a family has the same name, type and HELP in every file */
static const struct {
	const char *name;
	const char *type;
	const char *help;
} families[NR_FAMILIES] = {
	[FAMILY_START] = { "wakeprobe_run_start_timestamp_seconds", "gauge",
		      "When the run began, Unix time: a new value means the counters started over." },
	[FAMILY_TRACED] = { "wakeprobe_traced_seconds_total", "counter", "How long the run has traced." },
	[FAMILY_PHASE] = { "wakeprobe_phase_seconds", "histogram",
		      "Each phase of the complete wakeups (docs/phases.md; attach mode: the kernel phases)." },
	[FAMILY_WAKEUP] = { "wakeprobe_wakeup_seconds", "histogram",
		       "The whole wakeup: complete ones when traced, every sample when not." },
	[FAMILY_PAIR_WAKE_TO_RUN] = { "wakeprobe_pair_wake_to_run_seconds", "histogram",
				 "Attach mode: sched_waking to the wakee's switch-in, per waker -> wakee pair and "
				 "mechanism, of the busiest 128 pairs; a pair's series starts afresh when it takes "
				 "a row." },
	[FAMILY_PAIR_NOTIFY_TO_RETURN] = { "wakeprobe_pair_notify_to_return_seconds", "histogram",
				      "Attach mode: the waker's syscall entry to the wait's exit, per pair, where "
				      "both are known." },
	[FAMILY_WAKEUPS] = { "wakeprobe_wakeups_total", "counter",
			"Wakeups seen, by label: complete, or why not in the tables (untraced: not traced)." },
	[FAMILY_WAKER_CLASS] = { "wakeprobe_wakeups_by_waker_class_total", "counter",
			    "Attach mode: wakeups by what woke them (syscall, process, irq, timer, ...; none: no "
			    "waker record)." },
	[FAMILY_PAIRS_UNTABLED] = { "wakeprobe_pairs_untabled_wakeups_total", "counter",
			       "Attach mode: complete wakeups in no pair's series, those of pairs whose row a new "
			       "pair took." },
	[FAMILY_PAIRS_REPLACED] = { "wakeprobe_pairs_replaced_total", "counter",
			       "Attach mode: times a new pair took the row of the pair with the fewest wakeups, "
			       "once more pairs came than the 128 rows." },
	[FAMILY_CAUSE] = { "wakeprobe_cause_seconds_total", "counter",
		      "The explained wakeups' time by what held the CPU (docs/outliers.md): every complete one, "
		      "or with the lean engine the slow ones (wakeprobe_explained_wakeups_total)." },
	[FAMILY_EXPLAINED] = { "wakeprobe_explained_wakeups_total", "counter",
			  "The wakeups wakeprobe_cause_seconds_total covers: every complete one, or with "
			  "the lean engine the slow ones its flight recorder explained." },
	[FAMILY_DROPPED] = { "wakeprobe_dropped_events_total", "counter",
			"Kernel events the BPF side could not hand over (ring buffer full)." },
	[FAMILY_RECORDS] = { "wakeprobe_trace_records_total", "counter", "Kernel records taken in." },
	[FAMILY_RECORDS_PER_WAKEUP] = { "wakeprobe_trace_records_per_wakeup", "gauge",
				   "Kernel records taken in per wakeup seen: what tracing a wakeup costs." },
	[FAMILY_MISSED_RUNS] = { "wakeprobe_bpf_missed_runs_total", "counter",
			    "BPF program runs the kernel skipped (recursion, or another program on the CPU)." },
	[FAMILY_LOST] = { "wakeprobe_lost_total", "counter",
		     "Attach mode: what was lost, by what: wakeup_records_dropped (the lean engine: each a whole "
		     "wakeup, so every count is low by up to it), other_records_dropped (flight records, names), "
		     "processes_untracked (their map full), task_storage_refused, flight_records_lost (slow "
		     "wakeups left unexplained)." },
	[FAMILY_BPF_RUNS] = { "wakeprobe_bpf_program_runs_total", "counter",
			 "BPF program runs, as the programs counted them (the run's tracing cost)." },
	[FAMILY_SELF_RSS] = { "wakeprobe_self_resident_bytes", "gauge", "wakeprobe's own resident memory now." },
	[FAMILY_SCRAPES] = { "wakeprobe_scrapes_total", "counter", "Scrapes of /metrics answered, this one included." },
	[FAMILY_CONNECTIONS_CLOSED] = { "wakeprobe_http_connections_closed_total", "counter",
				   "Connections to /metrics closed by the server before they were done, by why: "
				   "timed_out (no whole request in time), evicted (the oldest idle, for a new one "
				   "when all were taken), refused (at once: all were taken, none idle)." },
	[FAMILY_STEAL] = { "wakeprobe_steal_seconds_total", "counter",
		      "The machine's steal time over all its CPUs since it booted (/proc/stat): the time the "
		      "hypervisor ran something else while a vCPU had work." },
	[FAMILY_CGROUP_WAKE_TO_RUN] = { "wakeprobe_cgroup_wake_to_run_seconds", "histogram",
				   "Complete wakeups by the wakee's cgroup: sched_waking to its switch-in. The "
				   "cgroups with the most time have a series each (wakeprobe_series_limit), the "
				   "rest are cgroup=\"other\"." },
	[FAMILY_CGROUP_RUNQ_WAIT] = { "wakeprobe_cgroup_runq_wait_seconds_total", "counter",
				 "Run-queue wait (sched_wakeup to the switch-in) by the wakee's cgroup and the "
				 "holder's: the cgroup of the task the wakee took the CPU from (idle: none ran)." },
	[FAMILY_CGROUP_NEIGHBOUR] = { "wakeprobe_cgroup_neighbour_wait_seconds_total", "counter",
				 "Of the run-queue wait, the part a task of another cgroup held the CPU: the "
				 "noisy neighbours' share." },
	[FAMILY_CGROUP_PAIR_WAKEUPS] = { "wakeprobe_cgroup_pair_wakeups_total", "counter",
				    "Complete wakeups by the waker's cgroup (interrupt: none's doing), the wakee's "
				    "and the mechanism's family." },
	[FAMILY_CGROUP_PAIR_SECONDS] = { "wakeprobe_cgroup_pair_wake_to_run_seconds_total", "counter",
				    "Their sched_waking to switch-in, summed." },
	[FAMILY_CGROUP_CHAIN_HELD] = { "wakeprobe_cgroup_chain_held_seconds_total", "counter",
				  "--chains: the time another cgroup held on the critical paths of the wakee's "
				  "cgroup's wakeups: its tasks' runs as hops of their chains (as=\"run\"), and the "
				  "hops' waits for a CPU its tasks held (as=\"wait\")." },
	[FAMILY_MECH_WAKEUPS] = { "wakeprobe_mechanism_wakeups_total", "counter",
			     "Complete wakeups with their cgroups, by the mechanism's family." },
	[FAMILY_MECH_SECONDS] = { "wakeprobe_mechanism_wake_to_run_seconds_total", "counter",
			     "Their sched_waking to switch-in, summed, by the mechanism's family." },
	[FAMILY_SERIES_LIMIT] = { "wakeprobe_series_limit", "gauge",
			     "Series of their own of each kind (cgroup, holder, pair, chain_held), at most (--top): the rest "
			     "are \"other\"." },
	[FAMILY_SERIES_KEYS] = { "wakeprobe_series_keys", "gauge",
			    "Keys of each kind ranked for a series now, labelled or not." },
	[FAMILY_BPF_RUN_SECONDS] = { "wakeprobe_bpf_program_run_seconds_total", "counter",
				"Time in the BPF programs: the kernel's time per run where it timed them, times all runs." },
	[FAMILY_SELF_CPU] = { "wakeprobe_self_cpu_seconds_total", "counter",
			 "wakeprobe's own CPU time, user and system, while it traced (not the traced program's)." },
};

void prometheus_common__begin(FILE *out, enum prometheus_family f)
{
	prom__family(out, families[f].name, families[f].type, families[f].help);
}

void prometheus_common__only_uint(FILE *out, enum prometheus_family f, const struct prom_labels *ls, uint64_t v)
{
	prometheus_common__begin(out, f);
	prom__uint(out, families[f].name, ls, v);
}

/* a time summed over wakeups: a counter, which cannot go below 0 */
static uint64_t counted_ns(int64_t ns)
{
	return ns > 0 ? (uint64_t)ns : 0;
}

void prometheus_common__causes(FILE *out, const struct prom_labels *ls, const struct cause_totals *ct)
{
	for (int c = 0; c < NR_CAUSES; c++) {
		struct prom_labels l = prom__with(ls, "cause", wakeup__cause_name(c));

		prom__seconds(out, families[FAMILY_CAUSE].name, &l, counted_ns(ct->cause_ns[c]));
	}
}

void prometheus_common__labels(FILE *out, const struct prom_labels *ls, const uint64_t by_label[NR_LABELS])
{
	for (int k = 0; k < NR_LABELS; k++) {
		struct prom_labels l = prom__with(ls, "label", wakeup__label_name(k));

		prom__uint(out, families[FAMILY_WAKEUPS].name, &l, by_label[k]);
	}
}

const char *prometheus_common__name(enum prometheus_family f)
{
	return families[f].name;
}
