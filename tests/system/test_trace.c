// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end: the eventfd workload under tracing, every sample checked. Needs
 * root and BTF; elsewhere these tests skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "helpers.h"

static struct run_result result;

static int run_eventfd(bool trace, uint64_t samples, uint64_t interval_us, struct checks *c, char *msg)
{
	return run_workload("eventfd", trace, samples, interval_us, c, &result, msg);
}

TestSuite(trace, .timeout = 120);

Test(trace, every_traced_eventfd_sample_is_accounted_for_and_adds_up)
{
	struct checks c = {};
	const struct aggregate *a = &result.agg;
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_eventfd(true, 500, 1000, &c, msg), 0, "session failed: %s", msg);
	cr_assert_not(result.workload_failed, "workload failed: %s", result.workload_error);

	cr_assert_eq(result.samples_sent, 500);
	cr_assert_eq(c.seen, 500, "merged %lu of 500 samples", c.seen);
	cr_assert_eq(c.seq_out_of_order, 0);
	cr_assert_eq(a->by_label[LABEL_COMPLETE] + labelled(a), result.samples_sent,
		     "complete %lu + labelled %lu != sent %lu", a->by_label[LABEL_COMPLETE], labelled(a),
		     result.samples_sent);

	cr_assert_eq(result.drops_total, 0, "%lu events dropped", result.drops_total);
	cr_assert_eq(result.missed_runs, 0, "%lu BPF runs skipped", result.missed_runs);
	cr_assert_eq(a->by_label[LABEL_LOST_EVENTS], 0);
	/* the one gap this kernel shows without a drop: see the back-to-back test */
	cr_assert_eq(a->by_label[LABEL_MISSING_EVENT], a->missing_by_mark[MARK_SWITCH_IN], "%s",
		     describe_missing(a->by_label[LABEL_MISSING_EVENT], &c.first_missing));
	cr_assert_leq(a->by_label[LABEL_MISSING_EVENT], 5, "%s",
		      describe_missing(a->by_label[LABEL_MISSING_EVENT], &c.first_missing));
	/* paced at 1 ms the wakee is asleep almost always: most samples must be complete */
	cr_assert_geq(c.complete, 400, "only %lu of 500 complete", c.complete);
	cr_assert_eq(c.negative_phase, 0);
	cr_assert_eq(c.sum_off, 0, "worst phase-sum error %ld ns", c.worst_sum_error);
	cr_assert_lt(result.clock.max_prediction_error_ns, 1000.0);
}

Test(trace, back_to_back_samples_are_labelled_not_forced_into_the_table)
{
	struct checks c = {};
	const struct aggregate *a = &result.agg;
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_eventfd(true, 3000, 0, &c, msg), 0, "session failed: %s", msg);
	cr_assert_eq(c.seen, 3000);
	cr_assert_eq(result.drops_total, 0);
	cr_assert_eq(result.missed_runs, 0);
	/*
	 * This kernel now and then resumes the wakee with no sched_switch
	 * record naming it (about 1 in 10^4 wakeups back to back, never with
	 * a drop or a skipped BPF run; docs/phases.md; 15 and once 32 in 3000
	 * under ASan). Such a sample must be labelled for exactly that mark
	 * and stay rare (2%); any other gap fails.
	 */
	cr_assert_eq(a->by_label[LABEL_MISSING_EVENT], a->missing_by_mark[MARK_SWITCH_IN], "%s",
		     describe_missing(a->by_label[LABEL_MISSING_EVENT], &c.first_missing));
	cr_assert_leq(a->by_label[LABEL_MISSING_EVENT], 60, "%s",
		      describe_missing(a->by_label[LABEL_MISSING_EVENT], &c.first_missing));
	cr_assert_eq(a->by_label[LABEL_COMPLETE] + a->by_label[LABEL_NO_SLEEP] + a->by_label[LABEL_CLOCK_ORDER] +
		     a->by_label[LABEL_MISSING_EVENT], 3000);
	cr_assert_eq(c.negative_phase, 0);
	cr_assert_eq(c.sum_off, 0);
}

Test(trace, an_untraced_run_measures_every_sample_without_root)
{
	struct checks c = {};
	char msg[256] = "";

	cr_assert_eq(run_eventfd(false, 300, 100, &c, msg), 0, "session failed: %s", msg);
	cr_assert_not(result.traced);
	cr_assert_eq(result.samples_sent, 300);
	cr_assert_eq(result.agg.samples, 300);
	cr_assert_eq(result.agg.all_total.count, 300);
	cr_assert_gt(result.agg.all_total.min, 0);
	/* each sample is handed over with its totals only */
	cr_assert_eq(c.seen, 300);
	cr_assert_eq(c.complete, 300);
	cr_assert_eq(c.phased, 0, "no phases without tracing");
	cr_assert_eq(c.seq_out_of_order, 0);
}

/* causes_cover - a hook: every phased sample's causes cover each phase exactly and add up to its total */
struct coverage {
	uint64_t phased;
	uint64_t phase_off;		/* phases whose causes do not add up to them */
	uint64_t total_off;
	int64_t host_ns;		/* the host's time, summed over the samples */
};

static void causes_cover(const struct sample_result *r, void *ctx)
{
	struct coverage *cv = ctx;
	int64_t all = 0;

	if (r->label != LABEL_COMPLETE || !r->phased)
		return;
	cv->phased++;
	for (int k = 0; k < NR_PHASES; k++) {
		int64_t sum = 0;

		for (int c = 0; c < NR_CAUSES; c++)
			sum += r->why.by_phase_cause[k][c];
		cv->phase_off += sum != r->phase_ns[k];
	}
	for (int c = 0; c < NR_CAUSES; c++)
		all += r->why.by_cause[c];
	cv->total_off += all != r->total_ns;
	cv->host_ns += r->why.by_cause[CAUSE_HOST];
}

Test(trace, the_hosts_steal_in_wakeups_is_within_what_its_clocks_and_the_kernel_accounted)
{
	struct coverage cv = {};
	struct checks c = { .hook = causes_cover, .hook_ctx = &cv };
	const struct host_steal *h = &result.steal;
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_eq(run_eventfd(true, 500, 1000, &c, msg), 0, "session failed: %s", msg);
	cr_assert_gt(cv.phased, 400);
	cr_assert_eq(cv.phase_off, 0, "phases whose causes (host and own work among them) miss their length");
	cr_assert_eq(cv.total_off, 0, "samples whose causes miss their total");
	cr_assert_eq(cv.host_ns, result.agg.causes.cause_ns[CAUSE_HOST]);
	cr_assert_gt(h->clk_tck, 0, "/proc/stat was read at both ends");
	cr_assert_eq(h->nr_cpus, 2, "the waker's and the wakee's CPUs");
	if (!h->measured) {
		/* not a KVM guest with steal time, or a kernel without the pieces: said, and nothing named */
		cr_assert(h->why_off[0]);
		cr_assert_eq(cv.host_ns, 0);
		cr_log_info("steal not measured here: %s", h->why_off);
		return;
	}
	cr_assert_leq((uint64_t)cv.host_ns, h->seen_ns, "more given to wakeups than the steal clocks moved");
	cr_assert_leq((uint64_t)cv.host_ns, host_steal__proc_bound_ns(h),
		      "%ld ns given to wakeups, /proc/stat allows %lu", cv.host_ns, host_steal__proc_bound_ns(h));
	cr_log_info("steal: %lu ns seen on CPUs 0 and 1, %ld ns in wakeups, /proc/stat +%lu ticks", h->seen_ns,
		    cv.host_ns, h->proc_ticks);
}

/* bpf_stats_enabled - the sysctl that BPF_ENABLE_STATS holders raise while they hold it */
static int bpf_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

Test(trace, a_run_states_its_cost_and_leaves_the_kernels_statistics_as_they_were)
{
	struct checks c = {};
	const struct trace_cost *cost = &result.cost;
	int before = bpf_stats_enabled();
	char msg[256] = "";

	skip_unless_traceable();
	cr_assert_geq(before, 0, "cannot read kernel.bpf_stats_enabled");
	cr_assert_eq(run_eventfd(true, 300, 1000, &c, msg), 0, "session failed: %s", msg);
	cr_assert_eq(bpf_stats_enabled(), before, "the run left kernel.bpf_stats_enabled changed");
	cr_assert(cost->known);
	cr_assert(cost->bpf_stats_on, "%s", cost->bpf_stats_why_off);
	/* each wakeup runs the programs on its waking, wakeup, switches and syscalls at least */
	cr_assert_geq(cost->bpf_runs, 4 * result.samples_sent, "%lu runs for %lu wakeups", cost->bpf_runs,
		      result.samples_sent);
	cr_assert_gt(cost->bpf_run_ns, cost->bpf_runs, "under a nanosecond a run");
	/* the kernel timed the runs of its windows only, unless something else kept it timing all */
	if (before) {
		cr_assert_eq(cost->bpf_timed_permille, 1000);
	} else {
		cr_assert_gt(cost->bpf_timed_permille, 0);
		cr_assert_lt(cost->bpf_timed_permille, 1000, "the kernel timed every run: its windows were not kept");
	}
	cr_assert_gt(cost->self_cpu_ns, 0);
	cr_assert_lt(cost->self_cpu_ns, result.trace_end_ns - result.trace_start_ns,
		     "wakeprobe, one thread, spent more CPU than the run lasted");
	cr_log_info("cost: %.1f runs, %.0f ns per wakeup, %u per mille timed; wakeprobe %.1f ms of CPU",
		    (double)cost->bpf_runs / 300, (double)cost->bpf_run_ns / 300, cost->bpf_timed_permille,
		    cost->self_cpu_ns / 1e6);
}

Test(trace, the_programs_count_their_runs_as_the_kernel_does)
{
	struct checks c = {};
	struct test_session s = test_session("eventfd", true, 300, 500, &c);
	struct session_bench every_run = { .bpf_run_stats = true };
	char msg[256] = "";

	skip_unless_traceable();
	s.opts.bench = &every_run;
	cr_assert_eq(session__run(&s.cfg, &s.opts, &result, msg, sizeof(msg)), 0, "session failed: %s", msg);
	cr_assert(result.cost.bpf_stats_on, "%s", result.cost.bpf_stats_why_off);
	cr_assert_geq(result.progs.runs, 4 * result.samples_sent, "%lu runs timed", result.progs.runs);
	/*
	 * count_run()'s per-CPU increment is not atomic: a program that an
	 * interrupt's program comes in on between its load and its store
	 * loses that one (8 of 442749 once, here; 6 of 10504 in a sanitized
	 * run, whose interrupts came as they came). Never more than the
	 * kernel, and a thousandth at most: a program that forgot to count
	 * would lose every run of its own, a tenth of them and more.
	 */
	cr_assert_leq(result.progs.counted_runs, result.progs.runs, "the programs counted %lu runs, the kernel %lu",
		      result.progs.counted_runs, result.progs.runs);
	cr_assert_leq(result.progs.runs - result.progs.counted_runs, result.progs.runs / 1000,
		      "the programs counted %lu runs, the kernel %lu", result.progs.counted_runs, result.progs.runs);
	cr_assert_eq(result.cost.bpf_timed_permille, 1000);
	/* each program named for its tracepoint, as make bench sets them against the floor's */
	for (uint32_t k = 0; k < result.progs.nr_progs; k++) {
		const struct collector_prog_cost *pc = &result.progs.progs[k];

		cr_assert(pc->tracepoint[0] && !strchr(pc->tracepoint, '/'), "%s: tracepoint \"%s\"", pc->name,
			  pc->tracepoint);
		if (!strcmp(pc->name, "handle_sched_switch"))
			cr_assert_str_eq(pc->tracepoint, "sched_switch");
		if (!strcmp(pc->name, "handle_call_func_single_entry"))
			cr_assert_str_eq(pc->tracepoint, "call_function_single_entry");
	}
}

/*
 * run_flood_whole - run @s, 20,000 eventfd wakeups back to back: every
 * sample merged, in order, accounted for, and no record dropped or late
 */
static void run_flood_whole(struct test_session *s, const struct checks *c)
{
	const struct aggregate *a = &result.agg;
	char msg[256] = "";

	cr_assert_eq(session__run(&s->cfg, &s->opts, &result, msg, sizeof(msg)), 0, "session failed: %s", msg);
	cr_assert_not(result.workload_failed, "workload failed: %s", result.workload_error);
	cr_assert_eq(result.samples_sent, 20000);
	cr_assert_eq(c->seen, 20000, "merged %lu of 20000 samples", c->seen);
	cr_assert_eq(c->seq_out_of_order, 0);
	cr_assert_eq(result.drops_total, 0, "%lu events dropped", result.drops_total);
	cr_assert_eq(result.merge.late_events, 0, "%lu events came after their time was finished",
		     result.merge.late_events);
	cr_assert_eq(a->by_label[LABEL_COMPLETE] + labelled(a), result.samples_sent);
	/*
	 * Most complete: the rest are labelled, not lost (the line above). A
	 * quiet machine's runs have over 19,000; the sanitized build's, beside
	 * the host's other guests, 18,971 and 18,733
	 */
	cr_assert_geq(a->by_label[LABEL_COMPLETE], 18000, "%lu of 20000 complete", a->by_label[LABEL_COMPLETE]);
}

/*
 * While the workload runs its records wait in the ring buffer. A ring too
 * small to hold them all (--ringbuf-kb 4096: 20,000 flood wakeups write
 * some 9 MB) is drained from the moment it fills past its mark, and the
 * run is analysed as it goes: nothing is dropped.
 */
Test(trace, records_that_outgrow_the_ring_they_wait_in_are_taken_out_in_time)
{
	struct checks c = {};
	struct test_session s = test_session("eventfd", true, 20000, 0, &c);

	skip_unless_traceable();
	s.cfg.ringbuf_bytes = 4u << 20;
	s.cfg.ringbuf_fixed = true;
	run_flood_whole(&s, &c);
	cr_assert_gt(result.merge.events, 4u << 20 >> 6, "%lu events: more than the ring holds", result.merge.events);
}

Test(trace, a_run_past_its_journal_budget_catches_up_and_loses_nothing)
{
	struct checks c = {};
	struct test_session s = test_session("eventfd", true, 20000, 0, &c);

	skip_unless_traceable();
	/* some 600 wakeups' samples: the journal is handed over in slices from early on */
	s.opts.journal_budget_bytes = 64 << 10;
	run_flood_whole(&s, &c);
}
