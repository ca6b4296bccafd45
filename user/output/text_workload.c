// SPDX-License-Identifier: GPL-2.0
/*
 * text_workload.c - the report a person reads of wakeprobe's own
 * workloads: one run's (its summary and warnings, its phases, causes,
 * slowest wakeups and stacks), or `--workload all`'s paths side by side
 */
#include <inttypes.h>
#include "run_warnings.h"
#include "stack_cuts.h"
#include "text_common.h"
#include "text_stacks.h"
#include "text_workload.h"

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

static void print_warning(const char *kind, const char *text, void *ctx)
{
	fprintf(ctx, "  %-10s %s\n", kind, text);
}

static void print_summary(FILE *out, const struct run_config *cfg, const struct run_result *r)
{
	const struct aggregate *a = &r->agg;
	const struct tsc_clock *clk = &r->clock;
	uint64_t incomplete = a->samples - a->by_label[LABEL_COMPLETE];
	uint64_t span = a->last_woken_ns > a->first_notify_ns ? a->last_woken_ns - a->first_notify_ns : 0;
	int l;

	fprintf(out, "wakeprobe %s: %s, %s\n", WAKEPROBE_VERSION, cfg->workload->name, cfg->workload->summary);
	/* what a reader must know before trusting a figure comes first */
	run_warnings__each(r, print_warning, out);
	if (cfg->workload->new_task)
		fprintf(out, "  threads    waker tid %u on CPU %d -> a new thread each time, on CPU %d or %d as the "
			"kernel places it, ", r->waker_tid, cfg->waker_cpu, cfg->waker_cpu, cfg->wakee_cpu);
	else
		fprintf(out, "  threads    waker tid %u on CPU %d -> wakee tid %u on CPU %d, ", r->waker_tid,
			cfg->waker_cpu, r->wakee_tid, cfg->wakee_cpu);
	if (cfg->interval_us)
		fprintf(out, "one wakeup every %" PRIu64 " us\n", cfg->interval_us);
	else
		fprintf(out, "back to back\n");
	fprintf(out, "  duration   %.3f s from first notify to last wakeup\n", span / 1e9);
	fprintf(out, "  clock      TSC %.3f MHz -> CLOCK_MONOTONIC, %u pairs over %.2f s: "
		"fit residual <= %.0f ns, conversion error <= %.0f ns\n",
		tsc_clock__mhz(clk), clk->nr_pairs, tsc_clock__span_s(clk), tsc_clock__max_residual_ns(clk),
		clk->max_prediction_error_ns);

	if (r->traced) {
		fprintf(out, "  events     %" PRIu64 " recorded, %" PRIu64 " dropped (BPF ring buffer full), %" PRIu64
			" lost to skipped BPF runs", r->merge.events, r->drops_total, r->missed_runs);
		if (r->merge.late_events || r->merge.evicted_events)
			fprintf(out, ", %" PRIu64 " late, %" PRIu64 " evicted", r->merge.late_events,
				r->merge.evicted_events);
		fprintf(out, "\n");
		if (a->lean)
			text_common__lean_tracing(out, "with the workload's syscalls, which split notify\n"
						  "             and resume,",
						  r->lean_flight_ns, r->lean_flight_adaptive, -1, &r->lean);
		text_common__host(out, &r->steal, a->causes.cause_ns[CAUSE_HOST]);
		text_common__cost(out, &r->cost, r->merge.events, r->drops_total, r->samples_sent,
				  r->trace_end_ns > r->trace_start_ns ? r->trace_end_ns - r->trace_start_ns : 0);
		text_stacks__cost(out, r->stacks, r->samples_sent);
		fprintf(out, "  samples    %" PRIu64 " sent, %" PRIu64 " complete, %" PRIu64 " not in the phase table\n",
			r->samples_sent, a->by_label[LABEL_COMPLETE], incomplete);
		for (l = 0; l < NR_LABELS; l++) {
			if (l == LABEL_COMPLETE || !a->by_label[l])
				continue;
			fprintf(out, "  %10" PRIu64 " %-14s %s\n", a->by_label[l], wakeup__label_name(l),
				wakeup__label_describe(l));
			if (l == LABEL_MISSING_EVENT)
				for (int k = 0; k < NR_MARKS; k++)
					if (a->missing_by_mark[k])
						fprintf(out, "  %10" PRIu64 "   no %s\n", a->missing_by_mark[k],
							wakeup__mark_name(k));
		}
	} else {
		fprintf(out, "  tracing    off (--no-trace): totals only\n");
		fprintf(out, "  samples    %" PRIu64 " sent, %" PRIu64 " measured\n", r->samples_sent, a->samples);
	}
}

static void print_outliers(FILE *out, const struct run_result *res, const struct aggregate *a)
{
	uint64_t median_total = histogram__percentile(&a->total, 50);
	uint32_t i;

	if (!a->outliers_wanted)
		return;
	fprintf(out, "\nThe %u slowest of %" PRIu64 " complete wakeups", a->nr_outliers, a->by_label[LABEL_COMPLETE]);
	if (a->outlier_threshold_ns)
		fprintf(out, " (%" PRIu64 " at or over %.0f us)", a->outlier_candidates,
			us(a->outlier_threshold_ns));
	text_common__outliers_legend(out, a->lean, res->lean_flight_ns, res->lean_flight_adaptive, LEGEND_WORKLOAD);
	for (i = 0; i < a->nr_outliers; i++) {
		const struct sample_result *r = &a->outliers[i];
		enum phase worst;
		int64_t grew = aggregate__grew_most(a, r, &worst);

		fprintf(out, "\n#%u seq %" PRIu64 ": %.2f us, %.1fx the median %.2f; %s grew most, %+.2f us\n",
			i + 1, r->sample.seq, us((uint64_t)r->total_ns),
			median_total ? (double)r->total_ns / (double)median_total : 0.0, us(median_total),
			wakeup__phase_name(worst), grew / 1000.0);
		text_common__print_outlier_body(out, r, NULL, &a->causes);
	}
}

static void print_sub_phases(FILE *out, const struct aggregate *a)
{
	if (a->lean) {
		fprintf(out, "Queued from another CPU: %" PRIu64 " of %" PRIu64 " wakeups (the lean engine does not see\n"
			"idle CPUs, interrupts or preemptions: --engine full has them)\n", a->remote_wakeups,
			a->by_label[LABEL_COMPLETE]);
		return;
	}
	fprintf(out, "Target CPU idle at the wake: %" PRIu64 " of %" PRIu64 " wakeups; ", a->target_idle,
		a->by_label[LABEL_COMPLETE]);
	fprintf(out, "queued from another CPU: %" PRIu64 "; waker preempted in notify: %" PRIu64 "\n",
		a->remote_wakeups, a->waker_preempted);
	text_common__stats_header(out);
	text_common__stats_row(out, "idle_exit", &a->idle_exit);
	if (a->rewait.count)
		text_common__stats_row(out, "mutex_reacquire", &a->rewait);
	fprintf(out, "  idle_exit: sched_waking -> the idle target CPU's power:cpu_idle exit; it overlaps\n"
		"  wake_enqueue and runq_wait (docs/phases.md), so it is not added to the total.\n");
	if (a->rewait.count)
		fprintf(out, "  mutex_reacquire: the wakee blocked again on a futex after its wait ended (cond:\n"
			"  taking the mutex back); %" PRIu64 " of %" PRIu64 " wakeups, part of resume_user.\n",
			a->rewait.count, a->by_label[LABEL_COMPLETE]);
}

static void print_wait_cpu(FILE *out, const struct aggregate *a)
{
	if (!a->wait_cpu.count)
		return;
	text_common__stats_row(out, "waiter CPU", &a->wait_cpu);
	fprintf(out, "  waiter CPU: the waiter spins from the start of its wait to its wakeup, so this is\n"
		"  the CPU time each wakeup cost it; a blocking waiter spends next to none.\n");
}

/* print_stacks - --stacks: where the waker woke the wakee and where it slept, most often and most costly */
static void print_stacks(FILE *out, const struct run_config *cfg, const struct run_result *r)
{
	struct stack_cut cuts[STACK_CUTS_MAX];
	static struct stack_cuts all;
	char waker[48], wakee[48];

	if (!r->stacks || !r->stack_combos)
		return;
	fprintf(out, "\nStacks of the %s path's complete wakeups (%zu distinct stacks kept by the kernel; innermost frame "
		"first):\n", cfg->workload->name, run_stacks__count(r->stacks));
	snprintf(waker, sizeof(waker), "thread %" PRIu32, r->waker_tid);
	snprintf(wakee, sizeof(wakee), "thread %" PRIu32, r->wakee_tid);
	text_stacks__combos(out, r->stacks, waker, wakee, r->stack_combos, r->agg.by_label[LABEL_COMPLETE]);
	all.n = 0;
	stack_cuts__count(&all, r->stacks, r->stack_combos);
	text_stacks__cuts(out, cuts, stack_cuts__top(&all, cuts, STACK_CUTS_MAX));
}

void text_workload__print_text(FILE *out, const struct run_config *cfg, const struct run_result *r)
{
	const struct aggregate *a = &r->agg;
	int k;

	print_summary(out, cfg, r);
	fprintf(out, "\n");

	if (!r->traced) {
		text_common__stats_header(out);
		text_common__stats_row(out, "total", &a->all_total);
		print_wait_cpu(out, a);
		fprintf(out, "\ntotal latency, notify -> woken\n");
		histogram__print_log2(&a->all_total, out, "nsecs");
		return;
	}

	if (cfg->workload->user_only) {
		fprintf(out, "No kernel in this path: a wakeup has a total and no phases; kernel events only\n"
			"say whether the waiter lost its CPU (those samples are labelled preempted).\n");
		if (a->lean)
			fprintf(out, "Syscalls made by the waiter inside its waits: not traced (the lean engine)\n");
		else
			fprintf(out, "Syscalls made by the waiter inside its waits: %" PRIu64 "\n", a->waiter_syscalls);
		text_common__stats_header(out);
		text_common__stats_row(out, "total", &a->total);
	} else {
		fprintf(out, "Phases of the %" PRIu64 " complete wakeups (they add up to the total of each one):\n",
			a->by_label[LABEL_COMPLETE]);
		text_common__stats_header(out);
		for (k = 0; k < NR_PHASES; k++)
			text_common__stats_row(out, wakeup__phase_name(k), &a->phase[k]);
		text_common__stats_row(out, "total", &a->total);
		fprintf(out, "\n");
		print_sub_phases(out, a);
	}
	if (a->samples > a->by_label[LABEL_COMPLETE]) {
		fprintf(out, "\n");
		text_common__stats_row(out, "total, all samples", &a->all_total);
	}
	print_wait_cpu(out, a);

	fprintf(out, "\ntotal, notify -> woken\n");
	histogram__print_log2(&a->total, out, "nsecs");
	if (cfg->workload->user_only)
		return;
	for (k = 0; k < NR_PHASES; k++) {
		fprintf(out, "\n%s\n", wakeup__phase_name(k));
		histogram__print_log2(&a->phase[k], out, "nsecs");
	}
	text_common__print_causes(out, &a->causes, a->by_label[LABEL_COMPLETE], r->merge.migrations, "the workload's");
	print_outliers(out, r, a);
	print_stacks(out, cfg, r);
}

/* the label that kept most samples out of the table, for the comparison */
static enum sample_label top_label(const struct aggregate *a)
{
	enum sample_label top = LABEL_COMPLETE;
	int l;

	for (l = 1; l < NR_LABELS; l++)
		if (a->by_label[l] > (top == LABEL_COMPLETE ? 0 : a->by_label[top]))
			top = l;
	return top;
}

static void print_median(FILE *out, const struct histogram *h)
{
	if (h->count)
		fprintf(out, " %9.2f", us(histogram__percentile(h, 50)));
	else
		fprintf(out, " %9s", "-");
}

void text_workload__print_comparison(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
				     const struct run_result *const *res, size_t n)
{
	size_t i;
	int k;

	fprintf(out, "wakeprobe %s: every path, %" PRIu64 " wakeups each, ", WAKEPROBE_VERSION, cfg->samples);
	if (cfg->interval_us)
		fprintf(out, "one every %" PRIu64 " us", cfg->interval_us);
	else
		fprintf(out, "back to back");
	fprintf(out, ", waker CPU %d -> wakee CPU %d%s\n\n", cfg->waker_cpu, cfg->wakee_cpu,
		cfg->traced ? "" : ", untraced");

	fprintf(out, "Total latency, notify -> woken, every sample (us)\n");
	fprintf(out, "%-15s %8s %9s %9s %9s %10s %8s  %s\n", "path", "samples", "p50", "p99", "p99.9", "max",
		"dropped", "not in the phase table");
	for (i = 0; i < n; i++) {
		const struct aggregate *a = &res[i]->agg;
		uint64_t out_of_table = a->samples - a->by_label[LABEL_COMPLETE];

		fprintf(out, "%-15s %8" PRIu64, wl[i]->name, a->samples);
		if (a->all_total.count)
			fprintf(out, " %9.2f %9.2f %9.2f %10.2f", us(histogram__percentile(&a->all_total, 50)),
				us(histogram__percentile(&a->all_total, 99)),
				us(histogram__percentile(&a->all_total, 99.9)), us(a->all_total.max));
		else
			fprintf(out, " %9s %9s %9s %10s", "-", "-", "-", "-");
		if (cfg->traced)
			fprintf(out, " %8" PRIu64, res[i]->drops_total + res[i]->missed_runs);
		else
			fprintf(out, " %8s", "-");
		if (!cfg->traced)
			fprintf(out, "  (untraced)");
		else if (out_of_table)
			fprintf(out, "  %" PRIu64 " (most: %s)", out_of_table, wakeup__label_name(top_label(a)));
		else
			fprintf(out, "  0");
		if (res[i]->workload_failed)
			fprintf(out, "  FAILED: %s", res[i]->workload_error);
		fprintf(out, "\n");
	}
	if (!cfg->traced)
		return;

	fprintf(out, "\nMedian of each phase over the complete wakeups (us)\n");
	fprintf(out, "%-15s %8s %9s %9s %9s %9s %9s %9s\n", "", "", "notify", "notify", "wake", "runq",
		"resume", "resume");
	fprintf(out, "%-15s %8s %9s %9s %9s %9s %9s %9s\n", "path", "complete", "user", "kernel", "enqueue",
		"wait", "kernel", "user");
	for (i = 0; i < n; i++) {
		const struct aggregate *a = &res[i]->agg;

		fprintf(out, "%-15s %8" PRIu64, wl[i]->name, a->by_label[LABEL_COMPLETE]);
		if (wl[i]->user_only) {
			fprintf(out, "  no kernel in the path; waiter CPU p50 %.2f us\n",
				us(histogram__percentile(&a->wait_cpu, 50)));
			continue;
		}
		for (k = 0; k < NR_PHASES; k++)
			print_median(out, &a->phase[k]);
		fprintf(out, "\n");
	}
	for (i = 0; i < n; i++) {
		const struct histogram *h = &res[i]->agg.rewait;

		if (h->count)
			fprintf(out, "%s: %" PRIu64 " of %" PRIu64 " wakeups blocked again on the mutex (median %.2f us),"
				" inside resume_user\n", wl[i]->name, h->count, res[i]->agg.by_label[LABEL_COMPLETE],
				us(histogram__percentile(h, 50)));
	}
	if (cfg->lean)
		fprintf(out, "The lean engine: the syscalls were not traced, so notify kernel and resume kernel hold the whole\n"
			"notify (t_notify -> sched_waking) and resume (switch-in -> t_woken).\n");
	fprintf(out, "\ndropped: events the BPF side could not record, plus program runs the kernel skipped.\n"
		"The phases are docs/phases.md's; `wakeprobe --workload NAME` shows one path in full.\n");
}
