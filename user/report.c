// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "report.h"

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

static void print_stats_header(FILE *out)
{
	fprintf(out, "%-18s %8s %9s %9s %9s %9s %9s %9s %9s\n", "phase (us)", "count", "min", "p50", "p90",
		"p99", "p99.9", "max", "mean");
}

static void print_stats_row(FILE *out, const char *name, const struct histogram *h)
{
	if (!h->count) {
		fprintf(out, "%-18s %8d %9s\n", name, 0, "-");
		return;
	}
	fprintf(out, "%-18s %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n", name, h->count,
		us(h->min), us(histogram__percentile(h, 50)), us(histogram__percentile(h, 90)),
		us(histogram__percentile(h, 99)), us(histogram__percentile(h, 99.9)), us(h->max),
		histogram__mean(h) / 1000.0);
}

static void print_summary(FILE *out, const struct session_opts *o, const struct session_result *r)
{
	const struct aggregate *a = &r->agg;
	const struct tsc_clock *clk = &r->clock;
	uint64_t incomplete = a->samples - a->by_label[LABEL_COMPLETE];
	uint64_t span = a->last_woken_ns > a->first_notify_ns ? a->last_woken_ns - a->first_notify_ns : 0;
	int l;

	fprintf(out, "wakeprobe %s: %s, %s\n", WAKEPROBE_VERSION, o->workload->name, o->workload->summary);
	fprintf(out, "  threads    waker tid %u on CPU %d -> wakee tid %u on CPU %d, ", r->waker_tid, o->waker_cpu,
		r->wakee_tid, o->wakee_cpu);
	if (o->interval_us)
		fprintf(out, "one wakeup every %" PRIu64 " us\n", o->interval_us);
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
		fprintf(out, "  samples    %" PRIu64 " sent, %" PRIu64 " complete, %" PRIu64 " not in the phase table\n",
			r->samples_sent, a->by_label[LABEL_COMPLETE], incomplete);
		for (l = 0; l < NR_LABELS; l++) {
			if (l == LABEL_COMPLETE || !a->by_label[l])
				continue;
			fprintf(out, "  %10" PRIu64 " %-14s %s\n", a->by_label[l], label__name(l), label__describe(l));
			if (l == LABEL_MISSING_EVENT)
				for (int k = 0; k < NR_MARKS; k++)
					if (a->missing_by_mark[k])
						fprintf(out, "  %10" PRIu64 "   no %s\n", a->missing_by_mark[k],
							mark__name(k));
		}
	} else {
		fprintf(out, "  tracing    off (--no-trace): totals only\n");
		fprintf(out, "  samples    %" PRIu64 " sent, %" PRIu64 " measured\n", r->samples_sent, a->samples);
	}
	if (r->samples_sent != a->samples)
		fprintf(out, "  WARNING    %" PRIu64 " samples were sent but %" PRIu64 " were read\n",
			r->samples_sent, a->samples);
	if (r->seq_errors)
		fprintf(out, "  WARNING    %" PRIu64 " samples arrived out of sequence\n", r->seq_errors);
	if (a->phase_sum_mismatch)
		fprintf(out, "  WARNING    %" PRIu64 " complete samples whose phases do not add up\n",
			a->phase_sum_mismatch);
	if (r->interrupted)
		fprintf(out, "  NOTE       interrupted: the figures cover the samples taken until then\n");
	if (r->workload_failed)
		fprintf(out, "  WARNING    workload failed: %s\n", r->workload_error);
}

void report__print_text(FILE *out, const struct session_opts *o, const struct session_result *r)
{
	const struct aggregate *a = &r->agg;
	int k;

	print_summary(out, o, r);
	fprintf(out, "\n");

	if (!r->traced) {
		print_stats_header(out);
		print_stats_row(out, "total", &a->all_total);
		fprintf(out, "\ntotal latency, notify -> woken\n");
		histogram__print_log2(&a->all_total, out, "nsecs");
		return;
	}

	fprintf(out, "Phases of the %" PRIu64 " complete wakeups (they add up to the total of each one):\n",
		a->by_label[LABEL_COMPLETE]);
	print_stats_header(out);
	for (k = 0; k < NR_PHASES; k++)
		print_stats_row(out, phase__name(k), &a->phase[k]);
	print_stats_row(out, "total", &a->total);
	fprintf(out, "\n");
	fprintf(out, "Target CPU idle at the wake: %" PRIu64 " of %" PRIu64 " wakeups; ", a->target_idle,
		a->by_label[LABEL_COMPLETE]);
	fprintf(out, "queued from another CPU: %" PRIu64 "; waker preempted in notify: %" PRIu64 "\n",
		a->remote_wakeups, a->waker_preempted);
	print_stats_header(out);
	print_stats_row(out, "idle_exit", &a->idle_exit);
	fprintf(out, "  idle_exit: sched_waking -> the idle target CPU's power:cpu_idle exit; it overlaps\n"
		"  wake_enqueue and runq_wait (docs/phases.md), so it is not added to the total.\n");
	if (a->samples > a->by_label[LABEL_COMPLETE]) {
		fprintf(out, "\n");
		print_stats_row(out, "total, all samples", &a->all_total);
	}

	fprintf(out, "\ntotal, notify -> woken\n");
	histogram__print_log2(&a->total, out, "nsecs");
	for (k = 0; k < NR_PHASES; k++) {
		fprintf(out, "\n%s\n", phase__name(k));
		histogram__print_log2(&a->phase[k], out, "nsecs");
	}
}
