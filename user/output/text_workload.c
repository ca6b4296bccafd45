// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "explain.h"
#include "lean_adapt.h"
#include "text_stacks.h"
#include "text_workload.h"

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

void text_workload__stats_header(FILE *out)
{
	fprintf(out, "%-18s %8s %9s %9s %9s %9s %9s %9s %9s\n", "phase (us)", "count", "min", "p50", "p90",
		"p99", "p99.9", "max", "mean");
}

void text_workload__stats_row(FILE *out, const char *name, const struct histogram *h)
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

static void warn(report_warning_fn fn, void *ctx, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn(report_warning_fn fn, void *ctx, const char *kind, const char *fmt, ...)
{
	char text[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fn(kind, text, ctx);
}

void text_workload__cost(FILE *out, const struct trace_cost *c, uint64_t records, uint64_t dropped, uint64_t wakeups,
			 uint64_t wall_ns)
{
	double per = wakeups ? 1.0 / (double)wakeups : 0.0;

	if (!c->known) {
		fprintf(out, "  cost       not kept: recorded by a wakeprobe that did not keep it\n");
		return;
	}
	if (c->bpf_stats_on)
		fprintf(out, "  cost       BPF %.1f program runs, %.2f us per wakeup (%.0f ns a run)", c->bpf_runs * per,
			c->bpf_run_ns * per / 1000.0, c->bpf_runs ? (double)c->bpf_run_ns / (double)c->bpf_runs : 0.0);
	else
		fprintf(out, "  cost       BPF time not measured (%s)", c->bpf_stats_why_off);
	fprintf(out, "; %.1f records per wakeup, %" PRIu64 " dropped\n", records * per, dropped);
	/* the share, not the windows of this build: a recording made with others says the same */
	if (c->bpf_stats_on && c->bpf_timed_permille < 1000)
		fprintf(out, "             the kernel timed %.1f%% of those runs, the rest at their mean\n",
			c->bpf_timed_permille / 10.0);
	fprintf(out, "             wakeprobe's own CPU %.1f ms, %.1f%% of the %.2f s traced\n", c->self_cpu_ns / 1e6,
		wall_ns ? 100.0 * (double)c->self_cpu_ns / (double)wall_ns : 0.0, wall_ns / 1e9);
}

uint64_t text_workload__host_excess(const struct host_steal *h, int64_t in_wakeups_ns)
{
	uint64_t bound = host_steal__proc_bound_ns(h);

	return h->measured && bound && (uint64_t)in_wakeups_ns > bound ? (uint64_t)in_wakeups_ns - bound : 0;
}

/* lean_loss - the lean engine's wakes that could not be recorded, a WARNING or NOTE line each; none: nothing */
static void lean_loss(FILE *out, const struct wp_lean_counters *c)
{
	if (c->no_storage)
		fprintf(out, "WARNING    the lean engine could not keep the state of a task %" PRIu64 " times (task storage "
			"refused): those wakes went unrecorded\n", (uint64_t)c->no_storage);
	if (c->wakeup_unpaired)
		fprintf(out, "NOTE       %" PRIu64 " sched_wakeup with no sched_waking of the task before it: not "
			"wakeups the lean engine records\n", (uint64_t)c->wakeup_unpaired);
}

/* flight_p99s - the thresholds by kind of waker at the end, as "a thread: 49 us, an interrupt: not yet, ..." */
static void flight_p99s(char *buf, size_t len, const uint64_t flight_ns[WP_SLOW_KINDS])
{
	static const char *const kind_words[WP_SLOW_KINDS] = {
		[WP_SLOW_THREAD] = "a thread",
		[WP_SLOW_IRQ] = "an interrupt",
		[WP_SLOW_SOFTIRQ] = "a softirq",
	};
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < WP_SLOW_KINDS && n < len; k++) {
		if (flight_ns[k] == LEAN_ADAPT_NONE)
			n += (size_t)snprintf(buf + n, len - n, "%s%s: not yet", k ? ", " : "", kind_words[k]);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s: %.0f us", k ? ", " : "", kind_words[k],
					      us(flight_ns[k]));
	}
}

void text_workload__lean_tracing(FILE *out, const char *lacks, const uint64_t *flight_ns, bool adaptive,
				 int64_t flight_explained, const struct wp_lean_counters *c)
{
	char p99s[128];

	fprintf(out, "  tracing    the lean engine: sched_waking, sched_wakeup and sched_switch paired in the\n"
		"             kernel, one record per wakeup; %s\n", lacks);
	if (lean_adapt__recorder_on(flight_ns)) {
		if (adaptive)
			fprintf(out, "             and only a wakeup over the running p99 of waking to switch-in of its\n"
				"             kind of waker (%.0f us until %d of the kind are counted), at most %d%% of\n"
				"             them (%d a 100 ms tick at least), is explained (--threshold-us fixes it),\n"
				"             from its CPU's last switches, idle transitions and interrupts (the flight\n"
				"             recorder)",
				us(LEAN_ADAPT_FIRST_NS), LEAN_ADAPT_MIN_WAKEUPS, LEAN_ADAPT_SHARE_PERMILLE / 10,
				LEAN_ADAPT_FIRST_MAX);
		else
			fprintf(out, "             and only a wakeup whose waking to switch-in took %.0f us or more is explained,\n"
				"             from its CPU's last switches, idle transitions and interrupts (the flight "
				"recorder)",
				us(flight_ns[WP_SLOW_THREAD]));
		if (flight_explained >= 0)
			fprintf(out, ": %" PRId64 " of them", flight_explained);
		fprintf(out, "\n");
		if (adaptive) {
			flight_p99s(p99s, sizeof(p99s), flight_ns);
			fprintf(out, "             the p99s at the end, of those woken by %s\n", p99s);
		}
		fprintf(out, "             (--engine full splits every wakeup by cause, at several times the cost)\n");
	} else {
		fprintf(out, "             and nothing explains a wakeup (--engine full splits each by cause)\n");
	}
	fprintf(out, "             wakes that found the thread on its CPU or preempted, not recorded: %" PRIu64 "\n",
		(uint64_t)c->woke_running);
	lean_loss(out, c);
}

void text_workload__host(FILE *out, const struct host_steal *h, int64_t in_wakeups_ns)
{
	char cpus[32];

	if (!h->measured) {
		fprintf(out, "  steal      not measured: %s\n", h->why_off);
		return;
	}
	host_steal__cpus(h, cpus, sizeof(cpus));
	fprintf(out, "  steal      %.3f ms of %s taken by the host over the run (steal clocks), %.3f ms of it "
		"inside complete wakeups\n", h->seen_ns / 1e6, cpus, in_wakeups_ns / 1e6);
	if (h->clk_tck)
		fprintf(out, "             the kernel's account (/proc/stat): +%" PRIu64 " ticks of %.0f ms on those CPUs, "
			"at most %.0f ms\n", h->proc_ticks, 1000.0 / h->clk_tck, host_steal__proc_bound_ns(h) / 1e6);
}

void text_workload__warnings(const struct run_result *r, report_warning_fn fn, void *ctx)
{
	const struct aggregate *a = &r->agg;
	uint64_t excess = text_workload__host_excess(&r->steal, a->causes.cause_ns[CAUSE_HOST]);

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
	text_workload__warnings(r, print_warning, out);
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
			text_workload__lean_tracing(out, "with the workload's syscalls, which split notify\n"
						    "             and resume,",
						    r->lean_flight_ns, r->lean_flight_adaptive, -1, &r->lean);
		text_workload__host(out, &r->steal, a->causes.cause_ns[CAUSE_HOST]);
		text_workload__cost(out, &r->cost, r->merge.events, r->drops_total, r->samples_sent,
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

#define LINE_WIDTH 100

/*
 * print_parts - "name 1.23; name 4.56; own work 0.40; unexplained 0.12",
 * wrapped under column @indent; a phase with nothing in it says unexplained 0
 */
static void print_parts(FILE *out, const struct explanation *x, int k, int indent)
{
	const struct interval *parts[EXPLAIN_MAX_INTERVALS];
	size_t n = explain__phase_parts(x, k, parts), i;
	int64_t own = x->by_phase_cause[k][CAUSE_OWN_WORK], rest = x->by_phase_cause[k][CAUSE_UNEXPLAINED];
	int col = indent;
	char item[160], name[128];

	for (i = 0; i <= n + 1; i++) {
		int len;

		if (i < n) {
			explain__describe_interval(parts[i], name, sizeof(name));
			len = snprintf(item, sizeof(item), "%s %.2f", name, us(parts[i]->dur_ns));
		} else if (i == n) {
			if (!own)
				continue;
			len = snprintf(item, sizeof(item), "own work %.2f", us((uint64_t)own));
		} else {
			if (!rest && (n || own))
				break;
			len = snprintf(item, sizeof(item), "unexplained %.2f", us((uint64_t)rest));
		}
		if (col > indent && col + 2 + len > LINE_WIDTH) {
			fprintf(out, ";\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fprintf(out, "; ");
			col += 2;
		}
		fprintf(out, "%s", item);
		col += len;
	}
	fprintf(out, "\n");
}

void text_workload__print_causes(FILE *out, const struct cause_totals *ct, uint64_t complete, uint64_t migrations,
				 const char *whose)
{
	/* every complete wakeup, or the lean engine's slow ones, which brought their flight records */
	uint64_t n = ct->wakeups;
	int64_t rest_ns;
	int c;

	if (!ct->explained_total_ns || !n)
		return;
	if (n < complete)
		fprintf(out, "\nWhere the time of the %" PRIu64 " slow wakeups the flight recorder explained went (of %"
			PRIu64 " complete; share of their summed totals):\n", n, complete);
	else
		fprintf(out, "\nWhere the time of the %" PRIu64 " complete wakeups went (share of their summed totals):\n",
			n);
	fprintf(out, "%-16s %7s %13s  %s\n", "cause", "share", "per wakeup us", "meaning");
	for (c = 0; c < NR_CAUSES; c++) {
		/* what nothing explains is always said, even when it is nothing */
		if (!ct->cause_ns[c] && c != CAUSE_UNEXPLAINED)
			continue;
		fprintf(out, "%-16s %6.1f%% %13.2f  %s\n", wakeup__cause_name(c),
			100.0 * (double)ct->cause_ns[c] / (double)ct->explained_total_ns,
			(double)ct->cause_ns[c] / 1000.0 / (double)n, wakeup__cause_describe(c));
	}
	for (c = 0; c < (int)ct->nr_tasks && c < 5; c++) {
		const struct task_share *t = &ct->tasks[c];
		char pid[24];

		fprintf(out, "%s '%.16s' pid %s: %.1f%%, %.2f us per wakeup\n",
			c ? "                                " : "tasks holding a CPU a wakeup needed:", t->comm,
			wakeup__pid(t->pid, pid, sizeof(pid)),
			100.0 * (double)t->ns / (double)ct->explained_total_ns,
			(double)t->ns / 1000.0 / (double)n);
	}
	/* what the list leaves out, so that it adds up: the tasks past its five and past the table's */
	for (c = 5, rest_ns = ct->untabled_task_ns; c < (int)ct->nr_tasks; c++)
		rest_ns += ct->tasks[c].ns;
	if (rest_ns)
		fprintf(out, "%s every other task: %.1f%%, %.2f us per wakeup\n",
			ct->nr_tasks ? "                                " : "tasks holding a CPU a wakeup needed:",
			100.0 * (double)rest_ns / (double)ct->explained_total_ns, (double)rest_ns / 1000.0 / (double)n);
	if (migrations)
		fprintf(out, "sched_migrate_task of %s tasks: %" PRIu64 ", %" PRIu64
			" of them the wakee's inside a wakeup\n", whose, migrations, ct->migrations);
}

/*
 * A phase's own work this many times its median, and this much over it, is
 * not the path's code taking its usual path: on a VM the guest cannot tell
 * it from the host holding the vCPU's thread outside the guest (an exit it
 * handles slowly, a fault on guest memory), which steal does not count.
 */
#define OWN_WORK_FLAG_FACTOR	10
#define OWN_WORK_FLAG_OVER_NS	20000

static void flag_own_work(FILE *out, const struct sample_result *r, int k, const struct cause_totals *ct)
{
	uint64_t own = (uint64_t)r->why.by_phase_cause[k][CAUSE_OWN_WORK];
	uint64_t median = histogram__percentile(&ct->own_work[k], 50);

	if (own < OWN_WORK_FLAG_OVER_NS + median || own < OWN_WORK_FLAG_FACTOR * median)
		return;
	fprintf(out, "  %s: own work %.2f us, %s its median %.2f, with nothing else seen on CPU %u:\n"
		"    the path's code on a slow path, or the host holding the vCPU outside the guest (not steal)\n",
		wakeup__phase_name(k), us(own), median ? "far over" : "where", us(median), explain__phase_cpu(r, k));
}

void text_workload__print_outlier_body(FILE *out, const struct sample_result *r, const bool *show,
				       const struct cause_totals *ct)
{
	int k;

	fprintf(out, "  woken from CPU %u onto CPU %u%s%s\n", r->waking_cpu, r->target_cpu,
		r->wakeup_cpu != r->waking_cpu ? ", queued there (the wake list: an IPI)" : ", enqueued by the waker",
		r->target_was_idle ? ", which was idle" : "");
	for (k = 0; k < NR_PHASES; k++) {
		if (show && !show[k])
			continue;
		/* 28 columns: the parts, and the lines they wrap onto, begin at column 28 */
		fprintf(out, "  %-14s %9.2f  ", wakeup__phase_name(k), us((uint64_t)r->phase_ns[k]));
		if (r->lean && !r->lean_flight)
			fprintf(out, "(causes not traced: the lean engine)\n");
		else
			print_parts(out, &r->why, k, 28);
	}
	if (r->why.more_iv)
		fprintf(out, "  (%u more intervals are in the sums but not listed)\n", r->why.more_iv);
	if (r->why.migrations && r->why.migrated_from == EXPLAIN_CPU_UNKNOWN)
		fprintf(out, "  the wakee was woken onto CPU %u, away from the CPU it last ran on\n",
			r->why.migrated_to);
	else if (r->why.migrations)
		fprintf(out, "  the wakee migrated from CPU %u to CPU %u inside this wakeup\n",
			r->why.migrated_from, r->why.migrated_to);
	if (r->rewait_seen)
		fprintf(out, "  mutex_reacquire %.2f us of resume_user\n", us((uint64_t)r->rewait_ns));
	for (k = 0; k < NR_PHASES && ct && !r->lean; k++)
		if (!show || show[k])
			flag_own_work(out, r, k, ct);
}

/* LEGEND_WIDTH - the columns an outlier table's legend fills before it breaks a line */
#define LEGEND_WIDTH	88

/* put_wrapped - @text, words separated by single spaces, broken into lines of at most LEGEND_WIDTH */
static void put_wrapped(FILE *out, const char *text)
{
	const char *line = text;

	while (strlen(line) > LEGEND_WIDTH) {
		const char *cut = line + LEGEND_WIDTH;

		while (cut > line && *cut != ' ')
			cut--;
		if (cut == line)	/* one word longer than a line: it goes whole */
			cut = strchr(line, ' ') ? strchr(line, ' ') : line + strlen(line);
		fprintf(out, "%.*s\n", (int)(cut - line), line);
		line = *cut ? cut + 1 : cut;
	}
	fprintf(out, "%s\n", line);
}

void text_workload__outliers_legend(FILE *out, bool lean, const uint64_t *flight_ns, bool adaptive,
				    enum legend_reach reach)
{
	/* a workload's reach its waker's CPU from the notify on, and its own up to the wait's exit (merger.c) */
	static const char *const reaches[] = {
		[LEGEND_ATTACH] = "; softirqs are not traced (--softirqs traces them), so their time shows as the "
				  "task they came in on, or idle:",
		[LEGEND_ATTACH_SOFTIRQS] = ", softirqs too (--softirqs):",
		[LEGEND_WORKLOAD] = "; its waker's CPU's from its notify on split the notify, and its own up to its "
				    "wait's exit, when the switch-in or the resume alone took as long, resume_kernel:",
	};
	char legend[1024], chose[160];

	if (!lean) {
		fprintf(out, ", each phase split by cause (us;\n"
			"'grew most': the phase furthest over its median, by how much):\n");
		return;
	}
	if (!lean_adapt__recorder_on(flight_ns)) {
		fprintf(out, ", their phases (us; no causes: the lean engine;\n"
			"'grew most': the phase furthest over its median, by how much):\n");
		return;
	}
	if (adaptive)
		snprintf(chose, sizeof(chose), "over the running p99 of its kind (%.0f us until it was known)",
			 us(LEAN_ADAPT_FIRST_NS));
	else
		snprintf(chose, sizeof(chose), "whose waking to switch-in took %.0f us or more",
			 us(flight_ns[WP_SLOW_THREAD]));
	snprintf(legend, sizeof(legend),
		 "'grew most': the phase furthest over its median, by how much). With the lean engine, a wakeup "
		 "%s brought its CPU's last switches, idle transitions and interrupts, which split its "
		 "wake_enqueue and runq_wait%s",
		 chose, reaches[reach]);
	fprintf(out, ", their phases (us;\n");
	put_wrapped(out, legend);
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
	text_workload__outliers_legend(out, a->lean, res->lean_flight_ns, res->lean_flight_adaptive, LEGEND_WORKLOAD);
	for (i = 0; i < a->nr_outliers; i++) {
		const struct sample_result *r = &a->outliers[i];
		enum phase worst;
		int64_t grew = aggregate__grew_most(a, r, &worst);

		fprintf(out, "\n#%u seq %" PRIu64 ": %.2f us, %.1fx the median %.2f; %s grew most, %+.2f us\n",
			i + 1, r->sample.seq, us((uint64_t)r->total_ns),
			median_total ? (double)r->total_ns / (double)median_total : 0.0, us(median_total),
			wakeup__phase_name(worst), grew / 1000.0);
		text_workload__print_outlier_body(out, r, NULL, &a->causes);
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
	text_workload__stats_header(out);
	text_workload__stats_row(out, "idle_exit", &a->idle_exit);
	if (a->rewait.count)
		text_workload__stats_row(out, "mutex_reacquire", &a->rewait);
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
	text_workload__stats_row(out, "waiter CPU", &a->wait_cpu);
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
		text_workload__stats_header(out);
		text_workload__stats_row(out, "total", &a->all_total);
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
		text_workload__stats_header(out);
		text_workload__stats_row(out, "total", &a->total);
	} else {
		fprintf(out, "Phases of the %" PRIu64 " complete wakeups (they add up to the total of each one):\n",
			a->by_label[LABEL_COMPLETE]);
		text_workload__stats_header(out);
		for (k = 0; k < NR_PHASES; k++)
			text_workload__stats_row(out, wakeup__phase_name(k), &a->phase[k]);
		text_workload__stats_row(out, "total", &a->total);
		fprintf(out, "\n");
		print_sub_phases(out, a);
	}
	if (a->samples > a->by_label[LABEL_COMPLETE]) {
		fprintf(out, "\n");
		text_workload__stats_row(out, "total, all samples", &a->all_total);
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
	text_workload__print_causes(out, &a->causes, a->by_label[LABEL_COMPLETE], r->merge.migrations, "the workload's");
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
