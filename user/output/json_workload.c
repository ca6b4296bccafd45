// SPDX-License-Identifier: GPL-2.0
/*
 * json_workload.c - the report a program reads of wakeprobe's own
 * workloads: a document of runs, each with the members every document has
 * (json_common.c) and those only a workload's run has (its path, options,
 * clock, samples, sub-phases). Every figure is computed as the text report
 * computes it, so the two never disagree; the key names are the contract
 * docs/json.md describes.
 *
 * One rule for what does not apply: every key is always written, and a value
 * the run could not measure (no tracing, no kernel phases on the path) or an
 * event that did not happen (an outlier's idle exit, migration, second wait)
 * is null. Zero, "" and [] always mean measured, and none.
 */
#include "json_common.h"
#include "json_stacks.h"
#include "json_workload.h"
#include "json_writer.h"
#include "run_warnings.h"

/* what one run can say: its path, its result, and which parts of it apply */
struct run_view {
	const struct workload_desc *wl;
	const struct run_result *r;
	const struct aggregate *a;
	bool traced;		/* kernel events were recorded */
	bool phased;		/* ... and the path has kernel phases, causes and outliers */
	bool explained;		/* ... and not lean: causes, idle CPUs, preemptions */
	uint64_t complete;
};

static void write_workload(struct json_writer *w, const struct workload_desc *wl)
{
	json_writer__key(w, "workload");
	json_writer__begin_object(w);
	json_writer__put_str(w, "name", wl->name);
	json_writer__put_str(w, "summary", wl->summary);
	json_writer__put_bool(w, "user_only", wl->user_only);
	json_writer__end_object(w);
}

/* write_options - the run's settings, and the analysis's: the outliers it was asked to keep */
static void write_options(struct json_writer *w, const struct run_config *cfg, const struct aggregate *a)
{
	json_writer__key(w, "options");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "samples", cfg->samples);
	json_writer__put_uint(w, "interval_us", cfg->interval_us);
	json_writer__put_int(w, "waker_cpu", cfg->waker_cpu);
	json_writer__put_int(w, "wakee_cpu", cfg->wakee_cpu);
	json_writer__put_bool(w, "traced", cfg->traced);
	json_writer__put_bool(w, "lean", cfg->lean);
	json_writer__put_uint(w, "ringbuf_bytes", cfg->ringbuf_bytes);
	json_writer__put_uint(w, "outliers", a->outliers_wanted);
	json_writer__put_uint(w, "outlier_threshold_ns", a->outlier_threshold_ns);
	json_writer__end_object(w);
}

static void write_threads_and_duration(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;

	/* the tids come with the first sample */
	json_writer__key(w, "threads");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "waker_tid", v->r->waker_tid, v->r->waker_tid);
	/* a path that starts a new wakee each time has no one wakee */
	if (v->wl->new_task)
		json_writer__put_bool(w, "wakee_new_each_time", true);
	else
		json_writer__put_uint_if(w, "wakee_tid", v->r->wakee_tid, v->r->wakee_tid);
	json_writer__end_object(w);
	json_writer__put_uint_if(w, "duration_ns", a->samples,
				 a->last_woken_ns > a->first_notify_ns ? a->last_woken_ns - a->first_notify_ns : 0);
}

static void write_clock(struct json_writer *w, const struct tsc_clock *clk)
{
	bool ready = tsc_clock__ready(clk);

	json_writer__key(w, "clock");
	json_writer__begin_object(w);
	if (ready)
		json_writer__put_double(w, "tsc_mhz", tsc_clock__mhz(clk));
	else
		json_writer__put_null(w, "tsc_mhz");
	json_writer__put_uint(w, "pairs", clk->nr_pairs);
	if (clk->nr_pairs >= 2)
		json_writer__put_double(w, "span_s", tsc_clock__span_s(clk));
	else
		json_writer__put_null(w, "span_s");
	json_writer__put_int_if(w, "fit_residual_max_ns", ready, json_common__round_ns(tsc_clock__max_residual_ns(clk)));
	json_writer__put_int_if(w, "conversion_error_max_ns", ready, json_common__round_ns(clk->max_prediction_error_ns));
	json_writer__end_object(w);
}

static void write_events(struct json_writer *w, const struct run_view *v)
{
	const struct run_result *r = v->r;

	json_writer__key(w, "events");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "recorded", v->traced, r->merge.events);
	json_writer__put_uint_if(w, "dropped", v->traced, r->drops_total);
	if (v->traced)
		json_common__write_dropped_by_type(w, &r->counters);
	else
		json_writer__put_null(w, "dropped_by_type");
	json_writer__put_uint_if(w, "tracked_full", v->traced, r->counters.tracked_full);
	json_writer__put_uint_if(w, "missed_runs", v->traced, r->missed_runs);
	json_writer__put_uint_if(w, "late", v->traced, r->merge.late_events);
	json_writer__put_uint_if(w, "evicted", v->traced, r->merge.evicted_events);
	/* the lean engine: the wakes that wrote no record, because they found the task awake */
	json_writer__put_uint_if(w, "lean_woke_running", r->agg.lean, r->lean.woke_running);
	json_writer__put_uint_if(w, "lean_no_storage", r->agg.lean, r->lean.no_storage);
	json_common__write_lean_flight(w, r->agg.lean, r->lean_flight_ns, r->lean_flight_adaptive);
	json_writer__end_object(w);
}

static void write_samples(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;

	json_writer__key(w, "samples");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "sent", v->r->samples_sent);
	json_writer__put_uint(w, "seen", a->samples);
	json_writer__put_uint(w, "out_of_sequence", v->r->seq_errors);
	/* without tracing a sample has no label: it is only measured */
	json_writer__put_uint_if(w, "complete", v->traced, v->complete);
	json_writer__put_uint_if(w, "not_in_table", v->traced, a->samples - v->complete);
	if (v->traced) {
		json_common__write_labels(w, a->by_label, a->missing_by_mark);
	} else {
		json_writer__put_null(w, "by_label");
		json_writer__put_null(w, "missing_by_mark");
	}
	json_writer__end_object(w);
}

static void put_warning(const char *kind, const char *text, void *ctx)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s: %s", kind, text);
	json_writer__string(ctx, buf);
}

/* write_warnings - the WARNING and NOTE lines of the text report */
static void write_warnings(struct json_writer *w, const struct run_view *v)
{
	json_writer__key(w, "warnings");
	json_writer__begin_array(w);
	run_warnings__each(v->r, put_warning, w);
	json_writer__end_array(w);
}

static void write_outcome(struct json_writer *w, const struct run_result *r)
{
	json_common__write_interruption(w, r->interrupted, r->stop_signal);
	json_writer__put_bool(w, "workload_failed", r->workload_failed);
	if (r->workload_failed)
		json_writer__put_strn(w, "workload_error", r->workload_error, sizeof(r->workload_error));
	else
		json_writer__put_null(w, "workload_error");
	/* how the workload process ended, as the runner saw it */
	if (r->workload_exit[0])
		json_writer__put_strn(w, "workload_exit", r->workload_exit, sizeof(r->workload_exit));
	else
		json_writer__put_null(w, "workload_exit");
}

static void write_stats(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;
	int k;

	json_writer__key(w, "stats");
	json_writer__begin_object(w);
	for (k = 0; k < NR_PHASES; k++)
		json_common__write_distribution(w, wakeup__phase_name(k), &a->phase[k], v->phased);
	/* complete samples need labels, which need tracing */
	json_common__write_distribution(w, "total", &a->total, v->traced);
	json_common__write_distribution(w, "all_samples_total", &a->all_total, true);
	json_common__write_distribution(w, "idle_exit", &a->idle_exit, v->explained);
	json_common__write_distribution(w, "mutex_reacquire", &a->rewait, v->explained);
	json_common__write_distribution(w, "waiter_cpu", &a->wait_cpu, true);
	json_writer__end_object(w);
}

static void write_sub_phases(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;

	json_writer__key(w, "sub_phases");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "target_idle", v->explained, a->target_idle);
	json_writer__put_uint_if(w, "remote_wakeups", v->phased, a->remote_wakeups);
	json_writer__put_uint_if(w, "waker_preempted", v->explained, a->waker_preempted);
	/* only a path without a kernel in its wait counts the syscalls made there */
	json_writer__put_uint_if(w, "waiter_syscalls", v->traced && v->wl->user_only && !a->lean, a->waiter_syscalls);
	json_writer__put_uint_if(w, "phase_sum_mismatch", v->phased, a->phase_sum_mismatch);
	json_writer__end_object(w);
}

static void write_migrations(struct json_writer *w, const struct run_view *v)
{
	json_writer__key(w, "migrations");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "all", v->traced, v->r->merge.migrations);
	json_writer__put_uint_if(w, "inside_wakeups", v->phased, v->a->causes.migrations);
	json_writer__end_object(w);
}

static void write_outlier(struct json_writer *w, const struct aggregate *a, const struct sample_result *r,
			  uint32_t rank)
{
	json_writer__begin_object(w);
	json_common__write_outlier_members(w, a->phase, &a->total, r, rank);
	json_writer__end_object(w);
}

static void write_outliers(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;
	uint32_t i;

	json_writer__key(w, "outliers");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "wanted", a->outliers_wanted);
	json_writer__put_uint(w, "threshold_ns", a->outlier_threshold_ns);
	/* only phased samples are candidates: they alone have causes to show */
	json_writer__put_uint_if(w, "candidates", v->phased, a->outlier_candidates);
	json_writer__key(w, "samples");
	if (v->phased) {
		json_writer__begin_array(w);
		for (i = 0; i < a->nr_outliers; i++)
			write_outlier(w, a, &a->outliers[i], i + 1);
		json_writer__end_array(w);
	} else {
		json_writer__null(w);
	}
	json_writer__end_object(w);
}

static void write_run(struct json_writer *w, const struct run_config *cfg, const struct workload_desc *wl,
		      const struct run_result *r)
{
	struct run_view v = {
		.wl = wl,
		.r = r,
		.a = &r->agg,
		.traced = r->traced,
		.phased = r->traced && !wl->user_only,
		.explained = r->traced && !wl->user_only && !r->agg.lean,
		.complete = r->agg.by_label[LABEL_COMPLETE],
	};
	bool causes;

	json_writer__begin_object(w);
	write_workload(w, wl);
	write_options(w, cfg, &r->agg);
	json_common__write_meta(w, &r->meta);
	write_threads_and_duration(w, &v);
	write_clock(w, &r->clock);
	write_events(w, &v);
	json_common__write_host(w, &r->steal, r->agg.causes.cause_ns[CAUSE_HOST], v.traced);
	json_common__write_cost(w, &r->cost, r->merge.events, r->drops_total, r->samples_sent,
				r->trace_end_ns > r->trace_start_ns ? r->trace_end_ns - r->trace_start_ns : 0, v.traced);
	write_samples(w, &v);
	write_warnings(w, &v);
	write_outcome(w, r);
	write_stats(w, &v);
	write_sub_phases(w, &v);
	/* the lean engine: the slow wakeups' causes, from their flight records, if any came */
	causes = v.explained || (v.phased && r->agg.causes.wakeups);
	json_common__write_causes(w, &r->agg.causes, causes);
	json_common__write_tasks(w, &r->agg.causes, causes);
	write_migrations(w, &v);
	write_outliers(w, &v);
	json_stacks__workload(w, r->stacks, r->stack_combos, r->agg.by_label[LABEL_COMPLETE]);
	json_writer__end_object(w);
}

int json_workload__print(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
			 const struct run_result *const *res, size_t n)
{
	struct json_writer w;
	size_t i;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "schema", REPORT_JSON_SCHEMA);
	json_writer__put_uint(&w, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	json_writer__key(&w, "runs");
	json_writer__begin_array(&w);
	for (i = 0; i < n; i++)
		write_run(&w, cfg, wl[i], res[i]);
	json_writer__end_array(&w);
	json_writer__end_object(&w);
	/* the calls above are balanced, so a write error is the one failure left */
	return json_writer__finish(&w);
}
