// SPDX-License-Identifier: GPL-2.0
/* run_result.c - how a run ended, to and from the record file's RUN_END */
#include <stdio.h>
#include <string.h>
#include "run_result.h"

_Static_assert(sizeof(((struct rec_run_end *)0)->dropped) >= sizeof(((struct wp_counters *)0)->dropped),
	       "RUN_END carries struct wp_counters' drop counters");
_Static_assert(sizeof(((struct rec_run_end *)0)->workload_exit) >= sizeof(((struct run_result *)0)->workload_exit),
	       "RUN_END holds the exit text");
_Static_assert(sizeof(((struct rec_run_end *)0)->workload_error) >=
	       sizeof(((struct run_result *)0)->workload_error), "RUN_END holds the error text");

static void copy_string(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

void run_result__encode_end(const struct run_result *res, struct rec_run_end *e)
{
	/* every byte is written: padding and the ends of the strings too */
	memset(e, 0, sizeof(*e));
	e->trace_end_ns = res->trace_end_ns;
	e->drops_total = res->drops_total;
	e->missed_runs = res->missed_runs;
	e->bpf_runs = res->cost.bpf_runs;
	e->bpf_run_ns = res->cost.bpf_run_ns;
	e->samples_sent = res->samples_sent;
	e->seq_errors = res->seq_errors;
	memcpy(e->dropped, res->counters.dropped, sizeof(res->counters.dropped));
	e->tracked_full = res->counters.tracked_full;
	e->waker_tid = res->waker_tid;
	e->wakee_tid = res->wakee_tid;
	e->interrupted = res->interrupted;
	e->stop_signal = res->interrupted ? (uint8_t)res->stop_signal : 0;
	e->workload_failed = res->workload_failed;
	copy_string(e->workload_exit, sizeof(e->workload_exit), res->workload_exit);
	copy_string(e->workload_error, sizeof(e->workload_error), res->workload_error);
	host_steal__encode(&res->steal, &e->steal);
	trace_cost__encode(&res->cost, &e->cost);
}

void run_result__decode_end(const struct rec_run_end *e, struct run_result *res)
{
	res->trace_end_ns = e->trace_end_ns;
	res->drops_total = e->drops_total;
	res->missed_runs = e->missed_runs;
	res->samples_sent = e->samples_sent;
	res->seq_errors = e->seq_errors;
	memcpy(res->counters.dropped, e->dropped, sizeof(res->counters.dropped));
	res->counters.tracked_full = e->tracked_full;
	res->interrupted = e->interrupted;
	res->stop_signal = e->stop_signal;
	res->workload_failed = e->workload_failed;
	copy_string(res->workload_exit, sizeof(res->workload_exit), e->workload_exit);
	copy_string(res->workload_error, sizeof(res->workload_error), e->workload_error);
	host_steal__decode(&e->steal, &res->steal);
	trace_cost__decode(&e->cost, &res->cost);
	/* versions 1-3 kept the programs' figures (the benchmark's) only up there */
	if (!res->cost.known) {
		res->cost.bpf_runs = e->bpf_runs;
		res->cost.bpf_run_ns = e->bpf_run_ns;
		res->cost.bpf_stats_on = e->bpf_runs != 0;
	}
	/* the tids the samples carried; RUN_END's say the same unless no sample came */
	if (!res->waker_tid) {
		res->waker_tid = e->waker_tid;
		res->wakee_tid = e->wakee_tid;
	}
}
