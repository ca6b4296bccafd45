// SPDX-License-Identifier: GPL-2.0
/* text_design.c - a throughput workload's figures, untraced and traced, and the census of its traced run */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "text_chains.h"
#include "text_common.h"
#include "text_design.h"

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

/* per_unit - @count per unit handed over, or 0 when nothing was */
static double per_unit(const struct design_run *r, double count)
{
	return r->units ? count / (double)r->units : 0.0;
}

/* unit_heading - "per task": a column of counts per unit handed over */
static const char *unit_heading(const struct design_run *r)
{
	static char buf[40];

	snprintf(buf, sizeof(buf), "per %s", r->unit);
	return buf;
}

static void print_side(FILE *out, const char *which, const struct design_side *s)
{
	fprintf(out, "  %-9s  %s after %.2f s\n", which, s->exit, s->wall_ns / 1e9);
}

static void print_figures(FILE *out, const struct design_run *r)
{
	bool traced = r->traced.ran;
	int width = 6;

	for (size_t i = 0; i < r->nr_figures; i++)
		if ((int)strlen(r->figures[i].label) > width)
			width = (int)strlen(r->figures[i].label);
	fprintf(out, "\nIts figures: the median ns per %s over each result's runs%s\n", r->figures[0].unit,
		traced ? ", untraced and traced" : " (untraced)");
	fprintf(out, "  %-*s %6s %12s", width, "result", "runs", "untraced");
	if (traced)
		fprintf(out, " %12s %9s", "traced", "ratio");
	fprintf(out, "\n");
	for (size_t i = 0; i < r->nr_figures; i++) {
		const struct design_figure *f = &r->figures[i];

		fprintf(out, "  %-*s %6" PRIu64 " %12.1f", width, f->label, f->runs, f->untraced_ns);
		if (traced && f->untraced_ns > 0)
			fprintf(out, " %12.1f %8.2fx", f->traced_ns, f->traced_ns / f->untraced_ns);
		else if (traced)
			fprintf(out, " %12.1f %9s", f->traced_ns, "-");
		fprintf(out, "\n");
	}
	fprintf(out, "Its counts over the %s run, as it checked them:\n", traced ? "traced" : "untraced");
	for (size_t i = 0; i < r->nr_figures; i++)
		fprintf(out, "  %-*s %s\n", width, r->figures[i].label, r->figures[i].counts);
}

static void print_kinds(FILE *out, const struct design_run *r)
{
	const struct census *c = r->census;
	const struct census_kind *rows[DESIGN_REPORT_KINDS];
	size_t n = census__kinds(c, rows, DESIGN_REPORT_KINDS);

	fprintf(out, "\nWakeups of the traced run: %" PRIu64 " of its threads over %" PRIu64 " units (%s), %.4f "
		"per %s\n", c->wakeups, r->units, r->unit, per_unit(r, (double)c->wakeups), r->unit);
	if (!n)
		return;
	fprintf(out, "  %9s %11s %9s %9s  %s\n", "wakeups", unit_heading(r), "p50 us", "p99 us",
		"waker -> wakee via mechanism (wake -> run: sched_waking -> switch-in)");
	for (size_t i = 0; i < n; i++) {
		const struct census_kind *k = rows[i];

		fprintf(out, "  %9" PRIu64 " %11.4f", k->wakeups, per_unit(r, (double)k->wakeups));
		if (k->complete)
			fprintf(out, " %9.1f %9.1f", us(histogram__percentile(&k->wake_to_run, 50)),
				us(histogram__percentile(&k->wake_to_run, 99)));
		else
			fprintf(out, " %9s %9s", "-", "-");
		fprintf(out, "  %s -> %s via %s\n", k->waker, k->wakee[0] ? k->wakee : "?", k->mechanism);
	}
	if (c->nr_kinds > n)
		fprintf(out, "  ... and %u kinds more with fewer wakeups\n", c->nr_kinds - (unsigned int)n);
	if (c->kinds_untabled)
		fprintf(out, "  %" PRIu64 " wakeups of kinds past the first %d: counted above, not in this table\n",
			c->kinds_untabled, CENSUS_MAX_KINDS);
}

static void print_phases(FILE *out, const struct design_run *r)
{
	const struct attach_aggregate *g = r->run.analysis->agg;
	bool first = true;

	fprintf(out, "\nKernel phases of the %" PRIu64 " complete wakeups", g->complete);
	for (int l = 0; l < NR_LABELS; l++) {
		if (l == LABEL_COMPLETE || !g->by_label[l])
			continue;
		fprintf(out, "%s %s %" PRIu64, first ? "; not complete:" : ",", wakeup__label_name(l), g->by_label[l]);
		first = false;
	}
	fprintf(out, ":\n");
	text_common__stats_header(out);
	for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++)
		text_common__stats_row(out, wakeup__phase_name(k), &g->phase[k]);
	text_common__stats_row(out, "wake -> run", &g->wake_to_run);
}

static void print_futexes(FILE *out, const struct design_run *r)
{
	const struct attach_aggregate *g = r->run.analysis->agg;
	const struct attach_futex *rows[DESIGN_REPORT_FUTEXES];
	size_t n = attach_aggregate__futexes(g, ATTACH_ORDER_COUNT, rows, DESIGN_REPORT_FUTEXES);
	/* every word's, those of the words the table replaced too */
	uint64_t waits = g->futex_waits;

	fprintf(out, "\nFutex waits (locks, condition variables, joins): %" PRIu64 " on %s%" PRIu32
		" words, %.4f per %s, ", waits, g->futexes_replaced ? "more than " : "", g->nr_futexes,
		per_unit(r, (double)waits), r->unit);
	/* named from registers, no program on syscalls: a wait's length is not known */
	if (g->futex_waits_timed)
		fprintf(out, "%.1f us waited in all\n", us(g->futex_wait_total_ns));
	else
		fprintf(out, "their lengths not timed (no program on syscalls)\n");
	if (!n)
		return;
	fprintf(out, "  %8s %18s %9s %11s %9s %12s %10s\n", "pid", "address", "waits", unit_heading(r), "wakes",
		"waited us", "max us");
	for (size_t i = 0; i < n; i++) {
		const struct attach_futex *f = rows[i];

		fprintf(out, "  %8" PRIu32 " %#18" PRIx64 " %9" PRIu64 " %11.4f %9" PRIu64, f->tgid, f->addr, f->waits,
			per_unit(r, (double)f->waits), f->wakes);
		if (f->waits_timed)
			fprintf(out, " %12.1f %10.1f\n", us(f->wait_total_ns), us(f->wait_max_ns));
		else
			fprintf(out, " %12s %10s\n", "-", "-");
	}
	if (g->nr_futexes > n)
		fprintf(out, "  ... and %" PRIu32 " words more\n", g->nr_futexes - (uint32_t)n);
	text_common__futexes_sketch(out, g, rows, n);
}

static void print_cpu(FILE *out, const struct design_run *r)
{
	const struct census *c = r->census;
	const struct census_name *rows[CENSUS_MAX_NAMES];
	size_t n = census__names(c, rows, CENSUS_MAX_NAMES);
	uint64_t total = census__cpu_ns(c);

	if (r->run.targets.lean) {
		fprintf(out, "\nCPU time of its threads by name: not traced (the lean engine records no switch of a thread "
			"that blocks)\n");
		return;
	}
	fprintf(out, "\nCPU time of its threads by name, from the scheduler's switches (traced run, %.3f s):\n",
		r->traced.wall_ns / 1e9);
	fprintf(out, "  %-16s %8s %12s %12s %12s\n", "thread", "ended", "switched in", "CPU ms", unit_heading(r));
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-16.16s %8" PRIu64 " %12" PRIu64 " %12.3f %12.1f\n", rows[i]->comm, rows[i]->ended,
			rows[i]->slices, rows[i]->cpu_ns / 1e6, per_unit(r, (double)rows[i]->cpu_ns));
	if (c->names_untabled_ns)
		fprintf(out, "  %-16s %8s %12s %12.3f %12.1f\n", "(other names)", "", "", c->names_untabled_ns / 1e6,
			per_unit(r, (double)c->names_untabled_ns));
	fprintf(out, "  %-16s %8s %12s %12.3f %12.1f\n", "all", "", "", total / 1e6, per_unit(r, (double)total));
	if (c->unseen_slices)
		fprintf(out, "  %" PRIu64 " times a thread left a CPU it was not seen to enter (records lost): "
			"that time is not counted\n", c->unseen_slices);
	if (c->procs_untabled)
		fprintf(out, "  %" PRIu64 " processes it forked past the first %d: their threads are not counted\n",
			c->procs_untabled, CENSUS_MAX_PROCS);
}

/* print_chains - --chains: where the waits of the busiest pairs (as many as the kinds above) went, hop by hop */
static void print_chains(FILE *out, const struct design_run *r)
{
	const struct attach_view view = { .pairs = DESIGN_REPORT_KINDS, .order = ATTACH_ORDER_COUNT };
	struct attach_report report;

	if (!r->run.targets.chains)
		return;
	attach_run__report(&r->run, &view, &report);
	text_chains__print(out, &report);
}

void text_design__print_text(FILE *out, const struct design_run *r)
{
	const struct attach_counters *ac;

	fprintf(out, "wakeprobe %s: %s, mode %s\n", WAKEPROBE_VERSION, r->design_name, r->mode);
	fprintf(out, "  command    %s\n", r->command);
	print_side(out, "untraced", &r->untraced);
	if (r->traced.ran) {
		ac = attach_analysis__counters(r->run.analysis);
		print_side(out, "traced", &r->traced);
		fprintf(out, "  events     %" PRIu64 " recorded, %" PRIu64 " dropped (BPF ring buffer full), %" PRIu64
			" BPF program runs skipped by the kernel\n", ac->events, r->run.res.drops_total,
			r->run.res.missed_runs);
		text_common__host(out, &r->run.res.steal, r->run.analysis->agg->causes.cause_ns[CAUSE_HOST]);
		text_common__cost(out, &r->run.res.cost, ac->events, r->run.res.drops_total, r->run.analysis->agg->wakeups,
				  r->run.res.trace_end_ns > r->run.res.trace_start_ns ?
				  r->run.res.trace_end_ns - r->run.res.trace_start_ns : 0);
		if (r->run.res.drops_total)
			fprintf(out, "WARNING    %" PRIu64 " events were dropped: the counts below miss what they "
				"held; a larger --ringbuf-kb or smaller sizes keep them\n", r->run.res.drops_total);
		if (r->run.targets.lean)
			text_common__lean_tracing(out, "the waker's syscall and the wait named from registers,\n"
						  "             not timed, no CPU time by thread,", NULL, false, -1,
						  &r->run.res.lean);
	}
	print_figures(out, r);
	if (!r->traced.ran)
		return;
	print_kinds(out, r);
	print_phases(out, r);
	/* the lean engine traces nothing to explain a wakeup with */
	if (!r->run.targets.lean)
		text_common__print_causes(out, &r->run.analysis->agg->causes, r->run.analysis->agg->complete,
					  attach_analysis__counters(r->run.analysis)->migrations, "its");
	print_futexes(out, r);
	print_cpu(out, r);
	print_chains(out, r);
}

void text_design__print_lines(FILE *out, const struct design_run *const *runs, const char *const *why,
			      size_t n)
{
	bool lean = false;

	fprintf(out, "\nThroughput designs, one mode each (wakeprobe --workload NAME for all of its modes and the "
		"whole census):\n");
	fprintf(out, "%-12s %-17s %-34s %11s %11s %7s %10s\n", "workload", "mode", "first result", "untraced ns",
		"traced ns", "ratio", "wakeups/u");
	for (size_t i = 0; i < n; i++) {
		const struct design_run *r = runs[i];
		const struct design_figure *f;

		if (!r) {
			fprintf(out, "%s\n", why[i]);
			continue;
		}
		f = &r->figures[0];
		fprintf(out, "%-12s %-17s %-34.34s %11.1f", r->design_name, r->mode, f->label, f->untraced_ns);
		if (r->traced.ran)
			fprintf(out, " %11.1f %6.2fx %10.4f", f->traced_ns,
				f->untraced_ns > 0 ? f->traced_ns / f->untraced_ns : 0.0,
				per_unit(r, (double)r->census->wakeups));
		fprintf(out, "  per %s\n", f->unit);
		lean |= r->traced.ran && r->run.targets.lean;
	}
	if (lean)
		fprintf(out, "traced ns: traced with the lean engine, one record per wakeup\n");
}
