/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one measured run: a workload under tracing (or not), its
 * samples merged with the kernel events as they stream in.
 */
#ifndef WAKEPROBE_SESSION_H
#define WAKEPROBE_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "analysis.h"
#include "run_config.h"
#include "run_result.h"

#define SESSION_MAX_TOGGLES	512

/* one untraced stretch of a run with toggle_trace_ms: the programs were off from off_ns to on_ns */
struct trace_toggle {
	uint64_t detach_ns;	/* before the programs were taken off */
	uint64_t off_ns;	/* after */
	uint64_t attach_ns;	/* before they were put back; 0: the run ended first */
	uint64_t on_ns;		/* after; 0: the run ended with them off */
};

/*
 * What only the overhead benchmark (bench/bench_overhead.c, docs/bench.md)
 * asks of a session, and what it gets back; wakeprobe itself passes none.
 */
struct session_bench {
	bool bpf_run_stats;		/* time every BPF program run, not in windows only: it slows them */
	/*
	 * Take the BPF programs off their tracepoints and put them back every
	 * this many ms, so that traced and untraced stretches of one run
	 * alternate (toggles says when); 0: never
	 */
	uint32_t toggle_trace_ms;
	/*
	 * What toggle_trace_ms switches, instead of the run's own programs
	 * (which an untraced run does not have); 0 when it switched
	 */
	int (*toggle)(bool on, void *ctx);
	void *toggle_ctx;
	/*
	 * What runs in the stretches the run's own programs are off (with
	 * toggle_trace_ms and no toggle): switched on after they go off and
	 * off before they come back, so that one run compares them with it
	 */
	int (*between)(bool on, void *ctx);
	void *between_ctx;
	/*
	 * Told the workload's pid between fork and exec, as the BPF side is
	 * (the benchmark's own tracer follows it); nonzero fails the run
	 */
	int (*on_start)(pid_t pid, void *ctx);
	void *on_start_ctx;
	/* back from the run: its untraced stretches, with toggle_trace_ms */
	struct trace_toggle toggles[SESSION_MAX_TOGGLES];
	uint32_t nr_toggles;
};

/* how a session carries out a run (struct run_config says what the run is) */
struct session_opts {
	struct analysis_opts analysis;	/* the outliers, and where samples, events and inputs go */
	bool verbose;			/* pass libbpf's own messages through */
	uint64_t timeout_ms;		/* stop the workload after this long; 0: no limit */
	bool drop_privileges;		/* run the workload as uid:gid, not as wakeprobe */
	uid_t uid;
	gid_t gid;
	struct session_bench *bench;	/* NULL but in the benchmark */
	/*
	 * Hand each input to the analysis as it comes, for a caller whose
	 * on_sample acts on the run while it goes; by default a traced run's
	 * inputs wait in a journal until the workload is done (journal.h).
	 */
	bool analyse_live;
	uint64_t journal_budget_bytes;	/* 0: the default, JOURNAL_BUDGET_BYTES (session.c) */
};

/*
 * session__run - run @cfg's workload to the end. Returns 0 when there is a
 * result to report (possibly partial, see interrupted/workload_failed), or a
 * negative errno with a one-line reason in @msg: -EINTR when a signal came
 * before the workload started, so that nothing was measured.
 */
int session__run(const struct run_config *cfg, const struct session_opts *o, struct run_result *res,
		 char *msg, size_t len);
/* session__release - what session__run() left in @res for the report (its stacks); @res may be NULL */
void session__release(struct run_result *res);

#endif /* WAKEPROBE_SESSION_H */
