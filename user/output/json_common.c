// SPDX-License-Identifier: GPL-2.0
/*
 * json_common.c - the members that more than one JSON document has: the
 * run's meta, how it ended, the host's steal, what tracing cost, the drops
 * and labels, a distribution, the causes and tasks, an outlier's figures.
 * The workload's, attach mode's and a design's documents write them here,
 * so that a reader parses them with the same code; each figure is computed
 * as the text report computes it (the same percentiles, shares, per-wakeup
 * times and "grew most" phase), so the two never disagree.
 */
#include <math.h>
#include "explain.h"
#include "json_common.h"
#include "lean_adapt.h"

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

int64_t json_common__round_ns(double ns)
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
	json_writer__put_int_if(w, "per_wakeup_ns", n, n ? json_common__round_ns((double)ns / (double)n) : 0);
}

void json_common__write_meta(struct json_writer *w, const struct run_meta *m)
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

void json_common__write_dropped_by_type(struct json_writer *w, const struct wp_counters *c)
{
	int t;

	json_writer__key(w, "dropped_by_type");
	json_writer__begin_object(w);
	for (t = WP_EV_SWITCH; t < WP_EV_TYPE_MAX; t++)
		json_writer__put_uint(w, event_type_names[t], c->dropped[t]);
	json_writer__end_object(w);
}

void json_common__write_lean_flight(struct json_writer *w, bool lean, const uint64_t *flight_ns, bool adaptive)
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

void json_common__write_labels(struct json_writer *w, const uint64_t *by_label, const uint64_t *missing_by_mark)
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

void json_common__write_host(struct json_writer *w, const struct host_steal *h, int64_t in_wakeups_ns,
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

void json_common__write_cost(struct json_writer *w, const struct trace_cost *c, uint64_t records, uint64_t dropped,
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

void json_common__write_interruption(struct json_writer *w, bool interrupted, int sig)
{
	char name[24];
	const char *by = interrupted ? wakeup__signal_name(sig, name, sizeof(name)) : NULL;

	json_writer__put_bool(w, "interrupted", interrupted);
	if (by)
		json_writer__put_str(w, "interrupted_by", by);
	else
		json_writer__put_null(w, "interrupted_by");
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

void json_common__write_distribution(struct json_writer *w, const char *name, const struct histogram *h, bool applies)
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
	json_writer__put_int_if(w, "mean_ns", h->count, json_common__round_ns(histogram__mean(h)));
	write_log2_histogram(w, h);
	json_writer__end_object(w);
}

void json_common__write_causes(struct json_writer *w, const struct cause_totals *ct, bool applies)
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

void json_common__write_tasks(struct json_writer *w, const struct cause_totals *ct, bool applies)
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

void json_common__write_outlier_members(struct json_writer *w, const struct histogram *phase,
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
