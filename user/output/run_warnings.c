// SPDX-License-Identifier: GPL-2.0
/*
 * run_warnings.c - the WARNING and NOTE lines a run of wakeprobe's own
 * workloads deserves: what a reader must know before trusting a figure.
 * The text report prints them under its first line and the JSON document
 * lists them as "warnings", so both say the same words in the same order.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "run_warnings.h"

static void warn(run_warning_fn fn, void *ctx, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn(run_warning_fn fn, void *ctx, const char *kind, const char *fmt, ...)
{
	char text[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fn(kind, text, ctx);
}

uint64_t run_warnings__host_excess(const struct host_steal *h, int64_t in_wakeups_ns)
{
	uint64_t bound = host_steal__proc_bound_ns(h);

	return h->measured && bound && (uint64_t)in_wakeups_ns > bound ? (uint64_t)in_wakeups_ns - bound : 0;
}

void run_warnings__each(const struct run_result *r, run_warning_fn fn, void *ctx)
{
	const struct aggregate *a = &r->agg;
	uint64_t excess = run_warnings__host_excess(&r->steal, a->causes.cause_ns[CAUSE_HOST]);

	if (r->traced && (r->drops_total || r->missed_runs))
		warn(fn, ctx, "WARNING", "%" PRIu64 " events lost, %" PRIu64 " samples marked lost_events (not "
		     "attributed)%s", r->drops_total + r->missed_runs, a->by_label[LABEL_LOST_EVENTS],
		     r->drops_total ? "; raise --ringbuf-kb" : "");
	if (r->samples_sent != a->samples)
		warn(fn, ctx, "WARNING", "%" PRIu64 " samples were sent but %" PRIu64 " were read", r->samples_sent,
		     a->samples);
	if (r->seq_errors)
		warn(fn, ctx, "WARNING", "%" PRIu64 " samples arrived out of sequence", r->seq_errors);
	if (a->phase_sum_mismatch)
		warn(fn, ctx, "WARNING", "%" PRIu64 " complete samples whose phases do not add up",
		     a->phase_sum_mismatch);
	if (r->interrupted) {
		char why[48];

		warn(fn, ctx, "NOTE", "%s: the figures cover the samples taken until then",
		     wakeup__interruption(r->stop_signal, why, sizeof(why)));
	}
	if (r->workload_failed)
		warn(fn, ctx, "WARNING", "workload failed: %.*s", (int)sizeof(r->workload_error), r->workload_error);
	if (excess)
		warn(fn, ctx, "WARNING", "the host's steal given to wakeups is %.3f ms more than /proc/stat allows: "
		     "the per-CPU layout read from the BTF is wrong", excess / 1e6);
}
