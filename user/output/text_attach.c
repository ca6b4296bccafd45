// SPDX-License-Identifier: GPL-2.0
/* text_attach.c - attach mode's text report */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lean_adapt.h"
#include "parse.h"
#include "run_stacks.h"
#include "run_warnings.h"
#include "text_attach.h"
#include "text_cgroups.h"
#include "text_common.h"
#include "text_chains.h"
#include "text_stacks.h"

#define FUTEX_ROWS	10

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

static const char *const class_names[WP_WAKER_CLASS_MAX] = {
	[0] = "none recorded",
	[WP_WAKER_SYSCALL] = "a traced thread in a syscall",
	[WP_WAKER_TRACKED] = "a traced thread outside syscalls",
	[WP_WAKER_PROCESS] = "another process",
	[WP_WAKER_KTHREAD] = "a kernel thread",
	[WP_WAKER_IRQ] = "an interrupt",
	[WP_WAKER_SOFTIRQ] = "a softirq",
	[WP_WAKER_TIMER] = "a timer",
};

/* print_targets - "pid 1234 (nginx), pid 99 (redis)" or "command 'sleep 1' (pid 7, exited with status 0)" */
static void print_targets(FILE *out, const struct attach_report *r)
{
	const struct attach_session_opts *t = r->targets;

	fprintf(out, "wakeprobe %s: attached to ", WAKEPROBE_VERSION);
	if (t->argv) {
		fprintf(out, "command '");
		for (int i = 0; t->argv[i]; i++) {
			fputs(i ? " " : "", out);
			parse__quote_to(out, t->argv[i], 64);
		}
		fprintf(out, "' (pid %d, %s", (int)r->run->command_pid, r->run->command_exit);
		if (r->run->others_stopped)
			fprintf(out, "; %" PRIu32 " process%s it started still ran, and %s stopped with it",
				r->run->others_stopped, r->run->others_stopped > 1 ? "es" : "",
				r->run->others_stopped > 1 ? "were" : "was");
		fprintf(out, ")");
	} else if (t->all) {
		fprintf(out, "every task of the machine");
	} else if (t->cgroups_given) {
		fprintf(out, "the tasks of cgroup %s and of those below", t->cgroups_given);
	} else {
		for (uint32_t i = 0; i < t->nr_pids; i++)
			fprintf(out, "%spid %d", i ? ", " : "", (int)t->pids[i]);
		/* what they had forked before the attach, traced with them */
		if (r->run->descendants)
			fprintf(out, " and the %" PRIu32 " process%s descending from %s", r->run->descendants,
				r->run->descendants > 1 ? "es" : "", t->nr_pids > 1 ? "them" : "it");
	}
	if (r->nr_tids) {
		fprintf(out, ", threads");
		for (uint32_t i = 0; i < r->nr_tids; i++)
			fprintf(out, "%s %d", i ? "," : "", (int)r->tids[i]);
	}
	fprintf(out, "\n");
}

/*
 * print_targets_own - --pid of processes that had forked before the attach
 * (a server's master and its workers): how many wakeups were the targets'
 * own and how many their descendants', and a word when the targets were
 * never woken while their descendants were
 */
static void print_targets_own(FILE *out, const struct attach_report *r)
{
	const struct attach_session_opts *t = r->targets;
	uint64_t wakeups = r->agg->wakeups;

	if (!t->nr_pids || !r->run->descendants || !wakeups)
		return;
	fprintf(out, "             of them %" PRIu64 " of the target%s own threads, %" PRIu64 " of the %" PRIu32
		" process%s descending from %s\n", r->target_wakeups, t->nr_pids > 1 ? "s'" : "'s",
		wakeups - r->target_wakeups, r->run->descendants, r->run->descendants > 1 ? "es" : "",
		t->nr_pids > 1 ? "them" : "it");
	if (!r->target_wakeups)
		fprintf(out, "             %s never woken: %s slept or ran the whole run while %s worked\n",
			t->nr_pids > 1 ? "the targets were" : "the target was", t->nr_pids > 1 ? "they" : "it",
			r->run->descendants > 1 ? "its descendants" : "its descendant");
}

static const char *how_it_ended(const struct attach_session_result *run, const struct attach_session_opts *t,
				char *buf, size_t len)
{
	if (run->interrupted)
		return wakeup__interruption(run->stop_signal, buf, len);
	if (run->timed_out)
		return "--timeout ran out";
	if (run->duration_reached)
		return "--duration ran out";
	if (run->command_exited)
		return "the command exited";
	if (t->nr_pids && run->targets_exited == t->nr_pids)
		return "every target exited";
	return "stopped";
}

/* found_when - " (found 2.1 s into the run)", or from one time to another, of the drops; "" for none */
static const char *found_when(const struct attach_session_result *run, char *buf, size_t len)
{
	double first = (double)(run->drops_first_ns - run->trace_start_ns) / 1e9;
	double last = (double)(run->drops_last_ns - run->trace_start_ns) / 1e9;

	buf[0] = '\0';
	if (!run->drops_first_ns || run->drops_first_ns < run->trace_start_ns)
		return buf;
	if (run->drops_last_ns - run->drops_first_ns < 1000000)
		snprintf(buf, len, " (found %.1f s into the run)", first);
	else
		snprintf(buf, len, " (found from %.1f s to %.1f s into the run)", first, last);
	return buf;
}

/*
 * print_losses - what was lost, and what each loss costs the figures above
 * and below under the engine that traced: the lean engine's dropped record
 * is a whole wakeup, which no label can mark, so the counts are low by it;
 * the full engine's dropped event marks the wakeups it bounds
 */
static void print_losses(FILE *out, const struct attach_report *r)
{
	const struct attach_session_result *run = r->run;
	uint64_t wakeups = (uint64_t)run->counters.dropped[WP_EV_LEAN], others = run->drops_total;
	char when[80];

	found_when(run, when, sizeof(when));
	if (r->targets->lean) {
		others = others > wakeups ? others - wakeups : 0;
		if (wakeups)
			fprintf(out, "WARNING    %" PRIu64 " wakeups lost: their records were dropped, the BPF ring full%s; "
				"every count and total here is low by up to %" PRIu64 " (a larger --ringbuf-kb keeps a "
				"burst, not a stalled reader)\n", wakeups, when, wakeups);
		if (others)
			fprintf(out, "WARNING    %" PRIu64 " other records dropped (flight records, names, forks)%s: slow "
				"wakeups may be unexplained or explained in part, threads unnamed\n", others,
				wakeups ? "" : when);
	} else if (run->drops_total) {
		fprintf(out, "WARNING    %" PRIu64 " events were dropped%s: a larger --ringbuf-kb keeps them; the "
			"wakeups they touch are labelled lost_events\n", run->drops_total, when);
	}
	if (run->missed_runs)
		fprintf(out, "WARNING    %" PRIu64 " BPF program runs were skipped by the kernel (one already ran on "
			"that CPU): up to as many wakeups went unseen or unpaired, and the counts are low by up to "
			"%" PRIu64 "\n", run->missed_runs, run->missed_runs);
	if (run->counters.tracked_full)
		fprintf(out, "WARNING    %" PRIu64 " processes the targets forked were not tracked (the map of tracked "
			"processes was full): their wakeups are not counted\n", (uint64_t)run->counters.tracked_full);
}

static void print_summary(FILE *out, const struct attach_report *r)
{
	const struct attach_session_result *run = r->run;
	const struct attach_counters *c = r->counters;
	const struct attach_aggregate *g = r->agg;
	const struct run_meta *m = &run->meta;
	char why[48];
	int cls, l;

	print_targets(out, r);
	fprintf(out, "  host       %s, kernel %s, %s, %" PRIu32 " CPUs\n", m->hostname, m->kernel, m->machine,
		m->nr_cpus);
	fprintf(out, "  traced     %.3f s, ended: %s", (run->trace_end_ns - run->trace_start_ns) / 1e9,
		how_it_ended(run, r->targets, why, sizeof(why)));
	if (r->targets->nr_pids && run->targets_exited && run->targets_exited < r->targets->nr_pids)
		fprintf(out, " (%" PRIu32 " of the targets exited before)", run->targets_exited);
	fprintf(out, "\n");
	if (r->targets->lean)
		fprintf(out, "  threads    %" PRIu64 " named, %" PRIu64 " began and %" PRIu64 " ended while traced",
			c->threads_peak, c->new_threads, c->exited_threads);
	else
		fprintf(out, "  threads    %" PRIu64 " seen at once at most, %" PRIu64 " began and %" PRIu64
			" ended while traced", c->threads_peak, c->new_threads, c->exited_threads);
	if (c->forgotten_threads)
		fprintf(out, ", %" PRIu64 " forgotten (more than %d at once)", c->forgotten_threads,
			ATTACH_MAX_THREADS);
	fprintf(out, "\n");
	fprintf(out, "  events     %" PRIu64 " recorded, %" PRIu64 " dropped (BPF ring buffer full), %" PRIu64
		" BPF program runs skipped by the kernel\n", c->events, run->drops_total, run->missed_runs);
	if (c->late_events || c->evicted_events)
		fprintf(out, "             %" PRIu64 " arrived too late to be ordered, %" PRIu64
			" pushed out of a full window: wakeups they bound are labelled\n", c->late_events,
			c->evicted_events);
	if (r->targets->lean) {
		text_common__lean_tracing(out, "the waker's syscall and the wait\n"
					  "             named from registers, not timed,",
					  run->lean_flight_ns, r->targets->lean_flight_adaptive,
					  (int64_t)c->flight_explained, &run->lean);
		if (c->flight_lost)
			fprintf(out, "WARNING    %" PRIu64 " slow wakeups lost their flight records (out of memory): not "
				"explained\n", c->flight_lost);
	}
	text_common__host(out, &run->steal, g->causes.cause_ns[CAUSE_HOST]);
	text_common__cost(out, &run->cost, c->events, run->drops_total, g->wakeups,
			  run->trace_end_ns > run->trace_start_ns ? run->trace_end_ns - run->trace_start_ns : 0);
	text_stacks__cost(out, run->stacks, g->wakeups);
	if (run_warnings__host_excess(&run->steal, g->causes.cause_ns[CAUSE_HOST]))
		fprintf(out, "WARNING    the host's steal given to wakeups is more than /proc/stat allows: the per-CPU "
			"layout read from the BTF is wrong\n");
	fprintf(out, "  wakeups    %" PRIu64 " of traced threads", g->wakeups);
	if (r->nr_tids)
		fprintf(out, " (--tid: %" PRIu64 " of other threads left out)", r->tids_left_out);
	fprintf(out, g->wakeups ? "; woken by:\n" : "\n");
	for (cls = 1; cls < WP_WAKER_CLASS_MAX; cls++) {
		if (!g->by_class[cls])
			continue;
		fprintf(out, "             %10" PRIu64 "  %s\n", g->by_class[cls], class_names[cls]);
		if (cls == WP_WAKER_SOFTIRQ && g->softirq_raised)
			fprintf(out, "             %10" PRIu64 "    of them raised by the task they ran in (a send on "
				"loopback): it is named as the waker\n", g->softirq_raised);
	}
	if (g->by_class[0])
		fprintf(out, "             %10" PRIu64 "  no waker recorded (its waking was not traced)\n",
			g->by_class[0]);
	print_targets_own(out, r);
	fprintf(out, "  complete   %" PRIu64 " (in the tables below)", g->complete);
	for (l = 0; l < NR_LABELS; l++)
		if (l != LABEL_COMPLETE && g->by_label[l])
			fprintf(out, ", %s %" PRIu64, wakeup__label_name(l), g->by_label[l]);
	fprintf(out, "\n");
	for (l = 0; l < NR_LABELS; l++)
		if (l != LABEL_COMPLETE && g->by_label[l])
			fprintf(out, "             %s: %s\n", wakeup__label_name(l), wakeup__label_describe(l));
	if (g->summed)
		fprintf(out, "  summed     %" PRIu64 " of them in the kernel (a service's): in every count, phase and cgroup "
			"table, in no table of pairs, futex words or tasks, which hold the %" PRIu64 " sent one by one "
			"(the slow ones)\n", g->summed, g->wakeups - g->summed);
	if (g->sums_refused)
		fprintf(out, "NOTE       %" PRIu64 " wakeups were sent one by one, not summed: a map of the sums by "
			"cgroup was full (they are counted whole all the same)\n", g->sums_refused);
	print_losses(out, r);
}

static void print_dist(FILE *out, const struct histogram *h)
{
	if (!h->count) {
		fprintf(out, " %9s %9s %9s", "-", "-", "-");
		return;
	}
	fprintf(out, " %9.1f %9.1f %9.1f", us(histogram__percentile(h, 50)), us(histogram__percentile(h, 99)),
		us(h->max));
}

/*
 * print_pairs_sketch - once more pairs came than the table has rows, what
 * the rows are (the busiest, by a Space-Saving sketch), how far a count can
 * be off (@error_max, the most of the rows shown), and where the wakeups of
 * the pairs replaced went; nothing while every pair had a row of its own,
 * and the counts are exact
 */
static void print_pairs_sketch(FILE *out, const struct attach_aggregate *g, uint64_t error_max)
{
	if (!g->pairs_replaced)
		return;
	fprintf(out, "  more than %d pairs came: a Space-Saving sketch kept the busiest, a new pair taking the row with "
		"the fewest (%" PRIu64 " time%s)\n", ATTACH_AGG_MAX_PAIRS, g->pairs_replaced,
		g->pairs_replaced == 1 ? "" : "s");
	/* a row taken over counts on from what its row had: the pairs before it */
	if (error_max)
		fprintf(out, "  a count may include up to %" PRIu64 " wakeups of the pairs its row had before (each row "
			"says how many); its times are the pair's own\n", error_max);
	else
		fprintf(out, "  the counts shown are exact: these pairs held their rows from their first wakeup\n");
	fprintf(out, "  %" PRIu64 " complete wakeups of the pairs replaced are counted above, in no row; every pair "
		"with more than %" PRIu64 " has a row\n", g->pairs_evicted, g->complete / ATTACH_AGG_MAX_PAIRS);
}

static void print_pairs(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	const struct attach_pair *rows[ATTACH_AGG_MAX_PAIRS];
	size_t n = attach_aggregate__pairs(g, r->order, rows, r->pairs < ATTACH_AGG_MAX_PAIRS ?
					   r->pairs : ATTACH_AGG_MAX_PAIRS);
	uint64_t error_max = 0;

	fprintf(out, "\nWaker -> wakee pairs, the %zu with the %s (of %s%" PRIu32 "); times in us:\n", n,
		r->order == ATTACH_ORDER_COST ? "most wake -> run time summed" : "most complete wakeups",
		g->pairs_replaced ? "the busiest " : "", g->nr_pairs);
	if (g->summed_complete)
		fprintf(out, "  of the %" PRIu64 " complete wakeups sent one by one (the slow ones): the other %" PRIu64
			" were summed in the kernel, by cgroup\n", g->complete - g->summed_complete, g->summed_complete);
	if (!n) {
		fprintf(out, "  (none)\n");
		return;
	}
	fprintf(out, "%-28s %-22s %8s %29s %29s\n", "", "", "", "wake -> run (sched_waking ->",
		"notify -> return (waker's");
	fprintf(out, "%-28s %-22s %8s %29s %29s\n", "waker", "wakee", "count", "switch-in)  p50   p99   max",
		"syscall -> wait's exit)");
	for (size_t i = 0; i < n; i++) {
		const struct attach_pair *p = rows[i];
		char wakee[48], tid[24];

		snprintf(wakee, sizeof(wakee), "%.15s %s", p->wakee_comm[0] ? p->wakee_comm : "?",
			 wakeup__pid(p->wakee_tid, tid, sizeof(tid)));
		fprintf(out, "%-28.28s %-22.22s %8" PRIu64, p->waker, wakee, p->count);
		print_dist(out, &p->wake_to_run);
		print_dist(out, &p->notify_to_return);
		fprintf(out, "\n%-28s   via %s", "", p->mechanism);
		if (p->error)
			fprintf(out, "; up to %" PRIu64 " of the count are of pairs its row had before", p->error);
		fprintf(out, "\n");
		if (p->error > error_max)
			error_max = p->error;
	}
	print_pairs_sketch(out, g, error_max);
}

static void print_phases(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;

	fprintf(out, "\nKernel phases of the %" PRIu64 " complete wakeups (no stamps inside the program: notify_user "
		"and resume_user are not measured):\n", g->complete);
	text_common__stats_header(out);
	for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++)
		text_common__stats_row(out, wakeup__phase_name(k), &g->phase[k]);
	text_common__stats_row(out, "wake -> run", &g->wake_to_run);
	text_common__stats_row(out, "notify -> return", &g->notify_to_return);
	if (g->idle_exit.count)
		text_common__stats_row(out, "idle_exit", &g->idle_exit);
	/* a lean run sees idle CPUs with its flight recorder alone */
	if (r->targets->lean && !lean_adapt__recorder_on(r->run->lean_flight_ns))
		fprintf(out, "  another CPU queued %" PRIu64 " of them (the lean engine without its flight recorder does "
			"not see idle CPUs)\n", g->remote_wakeups);
	else
		fprintf(out, "  the target CPU was idle at %" PRIu64 " wakings, another CPU queued %" PRIu64
			" of them\n", g->target_idle, g->remote_wakeups);
	for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++) {
		bool any = false;

		for (int why = ATTACH_PRESENT + 1; why < NR_ATTACH_ABSENCES; why++) {
			if (!g->absent[k][why] || why == ATTACH_ABSENT_LABELLED)
				continue;
			if (!any)
				fprintf(out, "  %s absent in", wakeup__phase_name(k));
			fprintf(out, "%s %" PRIu64 ": %s", any ? ";" : "", g->absent[k][why],
				attach__absence_describe(why));
			any = true;
		}
		if (any)
			fprintf(out, "\n");
	}
}

/* print_futex_name - --stacks: what the word is, from its process's mappings (symbolizer__data()) */
static void print_futex_name(FILE *out, const struct attach_report *r, const struct attach_futex *f)
{
	struct data_name dn;
	const char *base;

	if (!r->run->stacks || !symbolizer__data(run_stacks__symbolizer(r->run->stacks), (pid_t)f->tgid, f->addr, &dn))
		return;
	base = strrchr(dn.object, '/') ? strrchr(dn.object, '/') + 1 : dn.object;
	if (dn.object[0])
		fprintf(out, "%27s is %s in %s+0x%" PRIx64 "\n", "", dn.what[0] ? dn.what : "a word with no symbol",
			base, dn.object_offset);
	else
		fprintf(out, "%27s is in %s%s\n", "", strcmp(dn.what, "anonymous memory") ? "the " : "", dn.what);
}

static void print_futexes(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	const struct attach_futex *rows[FUTEX_ROWS];
	size_t n = attach_aggregate__futexes(g, r->order, rows, FUTEX_ROWS);

	if (!g->nr_futexes)
		return;
	fprintf(out, "\nFutex words, the %zu with the %s (of %s%" PRIu32 "):\n", n,
		r->order == ATTACH_ORDER_COST ? "most time waited" : "most waits and wakes",
		g->futexes_replaced ? "the busiest " : "", g->nr_futexes);
	fprintf(out, "%8s %18s %8s %8s %12s %12s  %s\n", "pid", "address", "waits", "wakes", "waited (us)",
		"max (us)", "threads");
	for (size_t i = 0; i < n; i++) {
		const struct attach_futex *f = rows[i];

		char where[40];

		/* a shared word is one lock of its processes: named by the file and offset it is keyed by */
		if (f->key.shared) {
			snprintf(where, sizeof(where), "inode %" PRIu64 "+0x%" PRIx64, f->key.ino, f->key.offset);
			fprintf(out, "%8s %18s", "shared", where);
		} else {
			fprintf(out, "%8" PRIu32 " %#18" PRIx64, f->tgid, f->addr);
		}
		fprintf(out, " %8" PRIu64 " %8" PRIu64, f->waits, f->wakes);
		/* untimed waits (no program on syscalls) have no length: not 0 */
		if (f->waits_timed)
			fprintf(out, " %12.1f %12.1f ", us(f->wait_total_ns), us(f->wait_max_ns));
		else
			fprintf(out, " %12s %12s ", "-", "-");
		for (uint32_t t = 0; t < f->nr_tids; t++)
			fprintf(out, " %" PRIu32, f->tids[t]);
		if (f->tids_untabled)
			fprintf(out, " and more");
		if (f->key.shared) {
			fprintf(out, "; processes");
			for (uint32_t t = 0; t < f->nr_tgids; t++)
				fprintf(out, " %" PRIu32, f->tgids[t]);
			if (f->tgids_untabled)
				fprintf(out, " and more");
		}
		if (f->error)
			fprintf(out, "; up to %" PRIu64 " waits and wakes before its row", f->error);
		fprintf(out, "\n");
		print_futex_name(out, r, f);
	}
	text_common__futexes_sketch(out, g, rows, n);
}

/* print_outliers - the slowest complete wakeups, each phase split by what held its CPU */
static void print_outliers(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	uint64_t median = histogram__percentile(&g->total, 50);

	if (!g->outliers_wanted || !g->complete)
		return;
	fprintf(out, "\nThe %" PRIu32 " slowest of %" PRIu64 " complete wakeups", g->nr_outliers, g->complete);
	if (g->outlier_threshold_ns)
		fprintf(out, " (%" PRIu64 " at or over %.0f us)", g->outlier_candidates, us(g->outlier_threshold_ns));
	fprintf(out, " by their first mark to their last");
	text_common__outliers_legend(out, r->targets->lean, r->run->lean_flight_ns, r->targets->lean_flight_adaptive,
				     r->targets->lean_softirqs ? LEGEND_ATTACH_SOFTIRQS : LEGEND_ATTACH);
	for (uint32_t i = 0; i < g->nr_outliers; i++) {
		const struct attach_result *o = &g->outliers[i];
		const struct sample_result *sr = &o->sr;
		enum phase worst;
		int64_t grew = cause_totals__grew_most(g->phase, sr, &worst);
		char waker[MECHANISM_NAME_LEN];
		bool show[NR_PHASES];

		mechanism__waker_name(&o->waker, waker, sizeof(waker));
		fprintf(out, "\n#%" PRIu32 " wakeup %" PRIu64 " at %.6f s: %.2f us, %.1fx the median %.2f; %s grew most, "
			"%+.2f us\n", i + 1, sr->sample.seq, (sr->t_notify_ns - r->run->trace_start_ns) / 1e9,
			us((uint64_t)sr->total_ns), median ? (double)sr->total_ns / (double)median : 0.0, us(median),
			wakeup__phase_name(worst), grew / 1000.0);
		fprintf(out, "  %s -> %.16s %" PRIu32 " via %s\n", waker, o->wakee_comm[0] ? o->wakee_comm : "?",
			sr->sample.wakee_tid, o->mechanism);
		for (int k = 0; k < NR_PHASES; k++)
			show[k] = o->absent[k] == ATTACH_PRESENT;
		text_common__print_outlier_body(out, sr, show, &g->causes);
		for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++)
			if (!show[k])
				fprintf(out, "  %-14s %9s  absent: %s\n", wakeup__phase_name(k), "-",
					attach__absence_describe(o->absent[k]));
		text_chains__print_chain(out, r->run ? r->run->stacks : NULL, o);
	}
}

void text_attach__print_text(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;

	print_summary(out, r);
	print_pairs(out, r);
	text_cgroups__print(out, r->cgroups);
	print_phases(out, r);
	print_futexes(out, r);
	text_stacks__print(out, r);
	/* a lean run sees the migrations inside its wakeups alone */
	text_common__print_causes(out, &g->causes, g->complete, r->targets->lean ? 0 : r->counters->migrations,
				  "the targets'");
	if (r->targets->lean && g->causes.migrations)
		fprintf(out, "migrations of the wakee inside these wakeups: %" PRIu64 " (woken onto another CPU than it "
			"last ran on, or moved while it waited)\n", g->causes.migrations);
	if (r->counters->explained_cut)
		fprintf(out, "complete wakeups that began before the records kept for explanations (%llu ms back): "
			"%" PRIu64 "; their first part is unexplained\n", ATTACH_EXPLAIN_KEEP_NS / 1000000,
			r->counters->explained_cut);
	print_outliers(out, r);
	text_chains__print(out, r);
	fprintf(out, "\nwake -> run (sched_waking -> switch-in of the wakee)\n");
	histogram__print_log2(&g->wake_to_run, out, "nsecs");
	for (int k = PHASE_NOTIFY_KERNEL; k <= PHASE_RESUME_KERNEL; k++) {
		fprintf(out, "\n%s\n", wakeup__phase_name(k));
		histogram__print_log2(&g->phase[k], out, "nsecs");
	}
}
