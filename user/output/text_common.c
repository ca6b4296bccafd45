// SPDX-License-Identifier: GPL-2.0
/*
 * text_common.c - what more than one text report prints: a table of
 * distributions, where the explained wakeups' time went, a slow wakeup
 * split by cause and the legend above those, and the run summary's lines
 * for lean tracing, the host's steal and what tracing cost. The workload's,
 * attach mode's and a design's reports print them here, so that they say
 * the same thing the same way.
 */
#include <inttypes.h>
#include <string.h>
#include "explain.h"
#include "lean_adapt.h"
#include "text_common.h"

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

void text_common__stats_header(FILE *out)
{
	fprintf(out, "%-18s %8s %9s %9s %9s %9s %9s %9s %9s\n", "phase (us)", "count", "min", "p50", "p90",
		"p99", "p99.9", "max", "mean");
}

void text_common__stats_row(FILE *out, const char *name, const struct histogram *h)
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

void text_common__cost(FILE *out, const struct trace_cost *c, uint64_t records, uint64_t dropped, uint64_t wakeups,
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

void text_common__lean_tracing(FILE *out, const char *lacks, const uint64_t *flight_ns, bool adaptive,
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

void text_common__host(FILE *out, const struct host_steal *h, int64_t in_wakeups_ns)
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

void text_common__print_causes(FILE *out, const struct cause_totals *ct, uint64_t complete, uint64_t migrations,
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

void text_common__print_outlier_body(FILE *out, const struct sample_result *r, const bool *show,
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

void text_common__outliers_legend(FILE *out, bool lean, const uint64_t *flight_ns, bool adaptive,
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

void text_common__futexes_sketch(FILE *out, const struct attach_aggregate *g, const struct attach_futex *const *rows,
				 size_t n)
{
	uint64_t error_max = 0;

	if (!g->futexes_replaced)
		return;
	for (size_t i = 0; i < n; i++)
		if (rows[i]->error > error_max)
			error_max = rows[i]->error;
	fprintf(out, "  more than %d futex words came: a Space-Saving sketch kept the busiest, a new word taking the "
		"row with the fewest waits and wakes (%" PRIu64 " time%s)\n", ATTACH_AGG_MAX_FUTEXES, g->futexes_replaced,
		g->futexes_replaced == 1 ? "" : "s");
	if (error_max)
		fprintf(out, "  a word's figures are its own since it took its row; up to %" PRIu64 " more waits and wakes "
			"of it may have come before\n", error_max);
	else
		fprintf(out, "  the words shown held their rows from their first wait or wake: their figures are whole\n");
	fprintf(out, "  %" PRIu64 " waits and wakes of the words replaced are in no row; every word with more than %"
		PRIu64 " has a row\n", g->futexes_evicted, (g->futex_waits + g->futex_wakes) / ATTACH_AGG_MAX_FUTEXES);
}
