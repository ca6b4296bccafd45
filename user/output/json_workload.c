// SPDX-License-Identifier: GPL-2.0
/*
 * json_workload.c - the report a program reads. Every figure is computed as
 * text_workload.c computes it for the text report (the same percentiles, shares,
 * per-wakeup times and "grew most" phase), so the two never disagree; the
 * key names are the contract docs/json.md describes.
 *
 * One rule for what does not apply: every key is always written, and a value
 * the run could not measure (no tracing, no kernel phases on the path) or an
 * event that did not happen (an outlier's idle exit, migration, second wait)
 * is null. Zero, "" and [] always mean measured, and none.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include "explain.h"
#include "json_stacks.h"
#include "json_workload.h"
#include "json_writer.h"
#include "lean_adapt.h"
#include "text_workload.h"

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

/* the event types of wakeprobe.h, for the drop counts by type */
static const char *const event_type_names[WP_EV_TYPE_MAX] = {
	[WP_EV_SWITCH] = "switch",
	[WP_EV_WAKING] = "waking",
	[WP_EV_WAKEUP] = "wakeup",
	[WP_EV_SYS_ENTER] = "sys_enter",
	[WP_EV_SYS_EXIT] = "sys_exit",
	[WP_EV_IDLE_EXIT] = "idle_exit",
	[WP_EV_FORK] = "fork",
	[WP_EV_SIGNAL_DELIVER] = "signal_deliver",
	[WP_EV_IRQ] = "irq",
	[WP_EV_IDLE_ENTER] = "idle_enter",
	[WP_EV_MIGRATE] = "migrate",
	[WP_EV_WAKER] = "waker",
	[WP_EV_BLOCK] = "block",
	[WP_EV_STEAL] = "steal",
	[WP_EV_LEAN] = "lean",
};

_Static_assert(WP_EV_TYPE_MAX == WP_EV_LEAN + 1, "a new event type needs a name in event_type_names");

/*
 * Keys for the marks and the kinds of interrupt. wakeup__mark_name() and
 * wakeup__irq_kind_name() are phrases for people; a key must stay put while they
 * are reworded.
 */
static const char *const mark_keys[NR_MARKS] = {
	[MARK_NOTIFY_ENTER] = "notify_enter",
	[MARK_WAKING] = "waking",
	[MARK_WAKEUP] = "wakeup",
	[MARK_SWITCH_IN] = "switch_in",
	[MARK_WAIT_EXIT] = "wait_exit",
};

_Static_assert(NR_MARKS == MARK_WAIT_EXIT + 1, "a new mark needs a key in mark_keys");

static const char *irq_kind_key(unsigned int kind)
{
	switch (kind) {
	case WP_IRQ_HARD:
		return "irq";
	case WP_IRQ_SOFT:
		return "softirq";
	case WP_IRQ_TIMER:
		return "timer";
	case WP_IRQ_RESCHED:
		return "resched_ipi";
	case WP_IRQ_CALL_FUNC:
		return "call_func_ipi";
	default:
		return "unknown";
	}
}

/* round_ns - a computed time (a mean, a time per wakeup) as whole nanoseconds */
static int64_t round_ns(double ns)
{
	if (ns >= 9.2e18)
		return INT64_MAX;
	if (ns <= -9.2e18)
		return INT64_MIN;
	return llround(ns);
}

/* put_share - @part of @whole as a fraction, null when there is no whole */
static void put_share(struct json_writer *w, int64_t part, int64_t whole)
{
	if (whole)
		json_writer__put_double(w, "share", (double)part / (double)whole);
	else
		json_writer__put_null(w, "share");
}

/* put_per_wakeup - @ns spread over @n wakeups, as the text report does */
static void put_per_wakeup(struct json_writer *w, int64_t ns, uint64_t n)
{
	json_writer__put_int_if(w, "per_wakeup_ns", n, n ? round_ns((double)ns / (double)n) : 0);
}

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

void json_workload__write_meta(struct json_writer *w, const struct run_meta *m)
{
	json_writer__key(w, "meta");
	json_writer__begin_object(w);
	json_writer__put_strn(w, "wakeprobe_version", m->version, sizeof(m->version));
	json_writer__put_strn(w, "kernel", m->kernel, sizeof(m->kernel));
	json_writer__put_strn(w, "machine", m->machine, sizeof(m->machine));
	json_writer__put_strn(w, "hostname", m->hostname, sizeof(m->hostname));
	json_writer__put_uint(w, "nr_cpus", m->nr_cpus);
	json_writer__put_uint(w, "started_unix_ns", m->started_unix_ns);
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
	json_writer__put_int_if(w, "fit_residual_max_ns", ready, round_ns(tsc_clock__max_residual_ns(clk)));
	json_writer__put_int_if(w, "conversion_error_max_ns", ready, round_ns(clk->max_prediction_error_ns));
	json_writer__end_object(w);
}

void json_workload__write_dropped_by_type(struct json_writer *w, const struct wp_counters *c)
{
	int t;

	json_writer__key(w, "dropped_by_type");
	json_writer__begin_object(w);
	for (t = WP_EV_SWITCH; t < WP_EV_TYPE_MAX; t++)
		json_writer__put_uint(w, event_type_names[t], c->dropped[t]);
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
		json_workload__write_dropped_by_type(w, &r->counters);
	else
		json_writer__put_null(w, "dropped_by_type");
	json_writer__put_uint_if(w, "tracked_full", v->traced, r->counters.tracked_full);
	json_writer__put_uint_if(w, "missed_runs", v->traced, r->missed_runs);
	json_writer__put_uint_if(w, "late", v->traced, r->merge.late_events);
	json_writer__put_uint_if(w, "evicted", v->traced, r->merge.evicted_events);
	/* the lean engine: the wakes that wrote no record, because they found the task awake */
	json_writer__put_uint_if(w, "lean_woke_running", r->agg.lean, r->lean.woke_running);
	json_writer__put_uint_if(w, "lean_no_storage", r->agg.lean, r->lean.no_storage);
	json_workload__write_lean_flight(w, r->agg.lean, r->lean_flight_ns, r->lean_flight_adaptive);
	json_writer__end_object(w);
}

void json_workload__write_lean_flight(struct json_writer *w, bool lean, const uint64_t *flight_ns, bool adaptive)
{
	bool on = lean && lean_adapt__recorder_on(flight_ns);

	/* null: not lean, or no flight recorder; a kind's null: an adaptive one that never had enough of them */
	json_writer__key(w, "lean_flight_threshold_ns");
	if (on) {
		json_writer__begin_object(w);
		for (int k = 0; k < WP_SLOW_KINDS; k++)
			json_writer__put_uint_if(w, lean_adapt__kind_name(k), flight_ns[k] != LEAN_ADAPT_NONE, flight_ns[k]);
		json_writer__end_object(w);
	} else {
		json_writer__null(w);
	}
	if (lean)
		json_writer__put_bool(w, "lean_flight_adaptive", on && adaptive);
	else
		json_writer__put_null(w, "lean_flight_adaptive");
}

void json_workload__write_labels(struct json_writer *w, const uint64_t *by_label, const uint64_t *missing_by_mark)
{
	int l, k;

	json_writer__key(w, "by_label");
	json_writer__begin_object(w);
	for (l = 0; l < NR_LABELS; l++)
		json_writer__put_uint(w, wakeup__label_name(l), by_label[l]);
	json_writer__end_object(w);
	json_writer__key(w, "missing_by_mark");
	json_writer__begin_object(w);
	for (k = 0; k < NR_MARKS; k++)
		json_writer__put_uint(w, mark_keys[k], missing_by_mark[k]);
	json_writer__end_object(w);
}

void json_workload__write_host(struct json_writer *w, const struct host_steal *h, int64_t in_wakeups_ns,
			       bool applies)
{
	uint64_t bound = host_steal__proc_bound_ns(h);

	json_writer__key(w, "host_steal");
	if (!applies) {
		json_writer__null(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__put_bool(w, "measured", h->measured);
	if (h->measured)
		json_writer__put_null(w, "why_not");
	else
		json_writer__put_str(w, "why_not", h->why_off);
	/* null: every CPU (attach mode) */
	json_writer__key(w, "cpus");
	if (h->cpus[0] == HOST_STEAL_ALL_CPUS) {
		json_writer__null(w);
	} else {
		json_writer__begin_array(w);
		json_writer__int(w, h->cpus[0]);
		if (h->cpus[1] != h->cpus[0])
			json_writer__int(w, h->cpus[1]);
		json_writer__end_array(w);
	}
	json_writer__put_uint_if(w, "stolen_ns", h->measured, h->seen_ns);
	json_writer__put_uint_if(w, "in_wakeups_ns", h->measured, (uint64_t)in_wakeups_ns);
	json_writer__put_uint_if(w, "proc_stat_ticks", h->clk_tck, h->proc_ticks);
	json_writer__put_uint_if(w, "proc_stat_tick_ns", h->clk_tck, h->clk_tck ? 1000000000ull / h->clk_tck : 0);
	json_writer__put_uint_if(w, "proc_stat_bound_ns", bound, bound);
	json_writer__end_object(w);
}

void json_workload__write_cost(struct json_writer *w, const struct trace_cost *c, uint64_t records, uint64_t dropped,
			       uint64_t wakeups, uint64_t wall_ns, bool applies)
{
	bool bpf = c->known && c->bpf_stats_on;

	json_writer__key(w, "tracing_cost");
	if (!applies || !c->known) {
		json_writer__null(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__put_uint(w, "wakeups", wakeups);
	json_writer__put_bool(w, "bpf_stats_on", c->bpf_stats_on);
	if (bpf)
		json_writer__put_null(w, "bpf_stats_why_not");
	else
		json_writer__put_str(w, "bpf_stats_why_not", c->bpf_stats_why_off);
	json_writer__put_uint_if(w, "bpf_runs", bpf, c->bpf_runs);
	json_writer__put_uint_if(w, "bpf_run_ns", bpf, c->bpf_run_ns);
	json_writer__put_uint_if(w, "bpf_run_ns_per_wakeup", bpf && wakeups, wakeups ? c->bpf_run_ns / wakeups : 0);
	if (bpf)
		json_writer__put_double(w, "bpf_timed_share", c->bpf_timed_permille / 1000.0);
	else
		json_writer__put_null(w, "bpf_timed_share");
	json_writer__put_uint(w, "records", records);
	json_writer__put_uint(w, "dropped", dropped);
	json_writer__put_uint(w, "self_cpu_ns", c->self_cpu_ns);
	json_writer__put_uint(w, "traced_ns", wall_ns);
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
		json_workload__write_labels(w, a->by_label, a->missing_by_mark);
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
	text_workload__warnings(v->r, put_warning, w);
	json_writer__end_array(w);
}

void json_workload__write_interruption(struct json_writer *w, bool interrupted, int sig)
{
	char name[24];
	const char *by = interrupted ? wakeup__signal_name(sig, name, sizeof(name)) : NULL;

	json_writer__put_bool(w, "interrupted", interrupted);
	if (by)
		json_writer__put_str(w, "interrupted_by", by);
	else
		json_writer__put_null(w, "interrupted_by");
}

static void write_outcome(struct json_writer *w, const struct run_result *r)
{
	json_workload__write_interruption(w, r->interrupted, r->stop_signal);
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

/*
 * write_log2_histogram - the text report's power-of-two rows, from the first
 * populated one to the last, the empty ones in between included
 */
static void write_log2_histogram(struct json_writer *w, const struct histogram *h)
{
	uint64_t rows[HIST_LOG2_ROWS];
	int first, last, k;

	first = histogram__log2_rows(h, rows, &last);
	json_writer__key(w, "histogram");
	json_writer__begin_array(w);
	for (k = first; first >= 0 && k <= last; k++) {
		json_writer__begin_object(w);
		json_writer__put_uint(w, "low_ns", histogram__log2_row_low(k));
		json_writer__put_uint(w, "high_ns", histogram__log2_row_high(k));
		json_writer__put_uint(w, "count", rows[k]);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}

void json_workload__write_distribution(struct json_writer *w, const char *name, const struct histogram *h, bool applies)
{
	static const struct {
		const char *key;
		double pct;
	} pcts[] = { { "p50_ns", 50 }, { "p90_ns", 90 }, { "p99_ns", 99 }, { "p999_ns", 99.9 } };
	size_t i;

	json_writer__key(w, name);
	if (!applies) {
		json_writer__null(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__put_uint(w, "count", h->count);
	json_writer__put_uint_if(w, "min_ns", h->count, h->min);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		json_writer__put_uint_if(w, pcts[i].key, h->count, histogram__percentile(h, pcts[i].pct));
	json_writer__put_uint_if(w, "max_ns", h->count, h->max);
	json_writer__put_int_if(w, "mean_ns", h->count, round_ns(histogram__mean(h)));
	write_log2_histogram(w, h);
	json_writer__end_object(w);
}

static void write_stats(struct json_writer *w, const struct run_view *v)
{
	const struct aggregate *a = v->a;
	int k;

	json_writer__key(w, "stats");
	json_writer__begin_object(w);
	for (k = 0; k < NR_PHASES; k++)
		json_workload__write_distribution(w, wakeup__phase_name(k), &a->phase[k], v->phased);
	/* complete samples need labels, which need tracing */
	json_workload__write_distribution(w, "total", &a->total, v->traced);
	json_workload__write_distribution(w, "all_samples_total", &a->all_total, true);
	json_workload__write_distribution(w, "idle_exit", &a->idle_exit, v->explained);
	json_workload__write_distribution(w, "mutex_reacquire", &a->rewait, v->explained);
	json_workload__write_distribution(w, "waiter_cpu", &a->wait_cpu, true);
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

void json_workload__write_causes(struct json_writer *w, const struct cause_totals *ct, bool applies)
{
	int c;

	json_writer__key(w, "causes");
	if (!applies) {
		json_writer__null(w);
	} else {
		json_writer__begin_array(w);
		for (c = 0; c < NR_CAUSES; c++) {
			if (!ct->cause_ns[c])
				continue;
			json_writer__begin_object(w);
			json_writer__put_str(w, "cause", wakeup__cause_name(c));
			json_writer__put_str(w, "meaning", wakeup__cause_describe(c));
			json_writer__put_int(w, "ns", ct->cause_ns[c]);
			put_share(w, ct->cause_ns[c], ct->explained_total_ns);
			put_per_wakeup(w, ct->cause_ns[c], ct->wakeups);
			json_writer__end_object(w);
		}
		json_writer__end_array(w);
	}
	json_writer__put_int_if(w, "explained_total_ns", applies, ct->explained_total_ns);
	json_writer__put_uint_if(w, "explained_wakeups", applies, ct->wakeups);
}

void json_workload__write_tasks(struct json_writer *w, const struct cause_totals *ct, bool applies)
{
	uint32_t i;

	json_writer__key(w, "tasks");
	if (!applies) {
		json_writer__null(w);
	} else {
		json_writer__begin_array(w);
		for (i = 0; i < ct->nr_tasks; i++) {
			const struct task_share *t = &ct->tasks[i];

			json_writer__begin_object(w);
			json_writer__put_uint(w, "pid", t->pid);
			json_writer__put_strn(w, "comm", t->comm, sizeof(t->comm));
			json_writer__put_int(w, "ns", t->ns);
			put_share(w, t->ns, ct->explained_total_ns);
			put_per_wakeup(w, t->ns, ct->wakeups);
			json_writer__end_object(w);
		}
		json_writer__end_array(w);
	}
	json_writer__put_int_if(w, "untabled_task_ns", applies, ct->untabled_task_ns);
}

static void write_migrations(struct json_writer *w, const struct run_view *v)
{
	json_writer__key(w, "migrations");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "all", v->traced, v->r->merge.migrations);
	json_writer__put_uint_if(w, "inside_wakeups", v->phased, v->a->causes.migrations);
	json_writer__end_object(w);
}

/* write_part - one cause interval, with what its events name; null where they name nothing */
static void write_part(struct json_writer *w, const struct interval *iv)
{
	bool task = iv->pid != 0;
	bool irq = iv->cause == CAUSE_IRQ || iv->cause == CAUSE_SOFTIRQ;
	char desc[128];

	explain__describe_interval(iv, desc, sizeof(desc));
	json_writer__begin_object(w);
	json_writer__put_str(w, "cause", wakeup__cause_name(iv->cause));
	json_writer__put_str(w, "description", desc);
	json_writer__put_uint(w, "ns", iv->dur_ns);
	json_writer__put_uint(w, "cpu", iv->cpu);
	json_writer__put_uint_if(w, "pid", task, iv->pid);
	/* a task's comm, or a hard irq's handler */
	if (task || (iv->cause == CAUSE_IRQ && iv->irq_kind == WP_IRQ_HARD))
		json_writer__put_strn(w, "name", iv->name, sizeof(iv->name));
	else
		json_writer__put_null(w, "name");
	json_writer__put_uint_if(w, "prio", task, iv->prio);
	if (irq)
		json_writer__put_str(w, "irq_kind", irq_kind_key(iv->irq_kind));
	else
		json_writer__put_null(w, "irq_kind");
	json_writer__put_int_if(w, "nr", irq, iv->nr);
	/* how the task left the CPU, once its switch-out was seen */
	if (task)
		json_writer__put_bool(w, "left_known", iv->left_known);
	else
		json_writer__put_null(w, "left_known");
	if (task && iv->left_known)
		json_writer__put_bool(w, "preempted", iv->preempted);
	else
		json_writer__put_null(w, "preempted");
	json_writer__end_object(w);
}

static void write_outlier_phases(struct json_writer *w, const struct sample_result *r)
{
	const struct interval *parts[EXPLAIN_MAX_INTERVALS];
	size_t n, i;
	int k;

	json_writer__key(w, "phases");
	json_writer__begin_array(w);
	for (k = 0; k < NR_PHASES; k++) {
		json_writer__begin_object(w);
		json_writer__put_str(w, "phase", wakeup__phase_name(k));
		json_writer__put_int(w, "ns", r->phase_ns[k]);
		if (r->lean && !r->lean_flight) {
			/* nothing was traced to split it with: no parts, and no claim of what is unexplained */
			json_writer__end_object(w);
			continue;
		}
		json_writer__key(w, "parts");
		json_writer__begin_array(w);
		n = explain__phase_parts(&r->why, k, parts);
		for (i = 0; i < n; i++)
			write_part(w, parts[i]);
		json_writer__end_array(w);
		json_writer__put_int(w, "own_work_ns", r->why.by_phase_cause[k][CAUSE_OWN_WORK]);
		json_writer__put_int(w, "unexplained_ns", r->why.by_phase_cause[k][CAUSE_UNEXPLAINED]);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}

void json_workload__write_outlier_members(struct json_writer *w, const struct histogram *phase,
					  const struct histogram *total, const struct sample_result *r, uint32_t rank)
{
	uint64_t median_total = histogram__percentile(total, 50);
	enum phase worst;
	int64_t grew = cause_totals__grew_most(phase, r, &worst);

	json_writer__put_uint(w, "rank", rank);
	json_writer__put_uint(w, "seq", r->sample.seq);
	json_writer__put_int(w, "total_ns", r->total_ns);
	json_writer__put_uint(w, "median_total_ns", median_total);
	if (median_total)
		json_writer__put_double(w, "ratio_to_median", (double)r->total_ns / (double)median_total);
	else
		json_writer__put_null(w, "ratio_to_median");
	json_writer__key(w, "grew_most");
	json_writer__begin_object(w);
	json_writer__put_str(w, "phase", wakeup__phase_name(worst));
	json_writer__put_int(w, "over_median_ns", grew);
	json_writer__end_object(w);
	json_writer__put_uint(w, "waking_cpu", r->waking_cpu);
	json_writer__put_uint(w, "wakeup_cpu", r->wakeup_cpu);
	json_writer__put_uint(w, "target_cpu", r->target_cpu);
	json_writer__put_bool(w, "queued_remotely", r->wakeup_cpu != r->waking_cpu);
	if (r->lean)
		json_writer__put_null(w, "target_was_idle");
	else
		json_writer__put_bool(w, "target_was_idle", r->target_was_idle);
	json_writer__put_int_if(w, "idle_exit_ns", r->idle_exit_seen, r->idle_exit_ns);
	write_outlier_phases(w, r);
	json_writer__put_uint(w, "more_intervals", r->why.more_iv);
	json_writer__key(w, "migration");
	if (r->why.migrations) {
		json_writer__begin_object(w);
		json_writer__put_uint_if(w, "from", r->why.migrated_from != EXPLAIN_CPU_UNKNOWN, r->why.migrated_from);
		json_writer__put_uint(w, "to", r->why.migrated_to);
		json_writer__put_uint(w, "count", r->why.migrations);
		json_writer__end_object(w);
	} else {
		json_writer__null(w);
	}
	json_writer__put_int_if(w, "mutex_reacquire_ns", r->rewait_seen, r->rewait_ns);
}

static void write_outlier(struct json_writer *w, const struct aggregate *a, const struct sample_result *r,
			  uint32_t rank)
{
	json_writer__begin_object(w);
	json_workload__write_outlier_members(w, a->phase, &a->total, r, rank);
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
	json_workload__write_meta(w, &r->meta);
	write_threads_and_duration(w, &v);
	write_clock(w, &r->clock);
	write_events(w, &v);
	json_workload__write_host(w, &r->steal, r->agg.causes.cause_ns[CAUSE_HOST], v.traced);
	json_workload__write_cost(w, &r->cost, r->merge.events, r->drops_total, r->samples_sent,
				  r->trace_end_ns > r->trace_start_ns ? r->trace_end_ns - r->trace_start_ns : 0, v.traced);
	write_samples(w, &v);
	write_warnings(w, &v);
	write_outcome(w, r);
	write_stats(w, &v);
	write_sub_phases(w, &v);
	/* the lean engine: the slow wakeups' causes, from their flight records, if any came */
	causes = v.explained || (v.phased && r->agg.causes.wakeups);
	json_workload__write_causes(w, &r->agg.causes, causes);
	json_workload__write_tasks(w, &r->agg.causes, causes);
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
