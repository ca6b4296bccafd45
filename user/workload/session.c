// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "collector.h"
#include "journal.h"
#include "launch.h"
#include "runner.h"
#include "sample_reader.h"
#include "session.h"

#define CLOCK_PAIR_EVERY_NS	(50ull * 1000 * 1000)

/*
 * A traced run's analysis waits in the journal (journal.h) while the
 * workload runs: JOURNAL_MEMORY_BYTES of it in memory, the rest in a file
 * in $TMPDIR (/var/tmp without it), up to JOURNAL_BUDGET_BYTES in all;
 * past that, the journal is handed over this much a pump, oldest first,
 * and the run is analysed as it goes once it has caught up. A
 * back-to-back eventfd run writes about 700 bytes a wakeup: the budget
 * holds some 1,500,000 of them. Without a file (none can be made there),
 * the memory is the whole budget.
 */
#define JOURNAL_MEMORY_BYTES	(16ull << 20)
#define JOURNAL_BUDGET_BYTES	(1ull << 30)
#define JOURNAL_CATCHUP_BYTES	(4ull << 20)
#define JOURNAL_SPILL_DIR	"/var/tmp"
/*
 * The journal's memory is made ready before the workload starts, this
 * much a wakeup asked for, up to its memory: a little over a flood's, so
 * that none of its page faults land in the run (paced runs write more a
 * wakeup, and fault in what they need beyond it as they go)
 */
#define JOURNAL_READY_PER_SAMPLE	1024
/* ... with the records waiting in the ring, the journal keeps samples and drains alone */
#define JOURNAL_READY_PER_SAMPLE_WAITING	128

/*
 * While a short traced workload runs, its records wait in the ring buffer
 * (not copied out by wakeprobe on the workload's CPUs), and come out with
 * the journal once it is done: the ring is sized to hold the run, this
 * much a wakeup asked for (a flood writes some 600 bytes), from
 * --ringbuf-kb's default up to RING_WAITING_MAX of kernel memory, which
 * wakeprobe maps. A run longer than that ring holds has its records
 * drained into the journal as they come, from the start. When a ring
 * fills past ring_catchup_mark() all the same, the journal is handed over
 * from then on, records and all, and the run is analysed as it goes.
 */
#define RING_WAITING_PER_SAMPLE	1024
#define RING_WAITING_MAX	(16u << 20)

static uint64_t ring_catchup_mark(uint32_t ring_bytes)
{
	uint32_t margin = ring_bytes / 4 < (32u << 20) ? ring_bytes / 4 : (32u << 20);

	return ring_bytes - margin;
}

/* ring_for_run - the ring buffer a run's records can wait in */
static uint32_t ring_for_run(const struct run_config *cfg)
{
	uint64_t want = cfg->samples * RING_WAITING_PER_SAMPLE;
	uint32_t bytes = cfg->ringbuf_bytes;

	if (cfg->ringbuf_fixed)
		return bytes;
	while (bytes < want && bytes < RING_WAITING_MAX)
		bytes *= 2;
	return bytes;
}

/* records_can_wait - does the ring hold the whole run's records, by the estimate above? */
static bool records_can_wait(const struct run_config *cfg)
{
	return cfg->samples * RING_WAITING_PER_SAMPLE <= ring_for_run(cfg);
}

struct session {
	const struct run_config *cfg;
	const struct session_opts *opts;
	struct run_result *res;
	struct analysis analysis;
	struct collector *collector;
	struct sample_reader reader;
	bool fds_known;
	struct runner runner;
	uint64_t last_pair_ns;
	struct journal *journal;	/* NULL: inputs go straight to the analysis */
	bool over_budget;		/* the journal outgrew its budget: it is being handed over */
	int journal_err;		/* -errno: the journal's file could not be read back */
	/*
	 * The kernel's records wait in the ring buffer while the journal
	 * keeps the rest, and come out with the journal: each advance in it
	 * first takes the records up to the drain it stands for
	 */
	bool records_wait;
};

/* journal_budget - what the journal may hold in all: in memory and in its file, or in memory alone */
static uint64_t journal_budget(const struct session *s)
{
	if (s->opts->journal_budget_bytes)
		return s->opts->journal_budget_bytes;
	return journal__spilling(s->journal) ? JOURNAL_BUDGET_BYTES : JOURNAL_MEMORY_BYTES;
}

/* journal_open - a journal of @ready_bytes made ready, going on in a file past its memory; NULL: none */
static struct journal *journal_open(uint64_t ready_bytes)
{
	const char *dir = getenv("TMPDIR");
	struct journal *j;

	j = journal__new(ready_bytes < JOURNAL_MEMORY_BYTES ? ready_bytes : JOURNAL_MEMORY_BYTES);
	/* without a file (a read-only or missing directory) the journal stays in memory, within its budget */
	if (j)
		journal__spill(j, dir && *dir ? dir : JOURNAL_SPILL_DIR, JOURNAL_MEMORY_BYTES);
	return j;
}

static void sink_event(const struct wp_event *e, void *ctx)
{
	struct session *s = ctx;

	analysis__event(&s->analysis, e);
}

static void sink_sample(const struct wp_sample *smp, uint64_t t_notify_ns, uint64_t t_woken_ns,
			uint64_t t_wait_start_ns, void *ctx)
{
	struct session *s = ctx;

	analysis__sample(&s->analysis, smp, t_notify_ns, t_woken_ns, t_wait_start_ns);
}

static void sink_fds(int notify_fd, int wait_fd, void *ctx)
{
	struct session *s = ctx;

	analysis__fds(&s->analysis, notify_fd, wait_fd);
}

static void sink_advance(uint64_t complete_ns, uint64_t drops, void *ctx)
{
	struct session *s = ctx;

	if (s->records_wait)
		collector__drain_until(s->collector, complete_ns + COLLECTOR_COMMIT_DELAY_NS);
	analysis__advance(&s->analysis, complete_ns, drops);
}

/* journal_hand_over - up to @max_bytes of the journal's oldest inputs into the analysis */
static void journal_hand_over(struct session *s, uint64_t max_bytes)
{
	const struct journal_sink sink = { .event = sink_event, .sample = sink_sample, .fds = sink_fds,
					   .advance = sink_advance, .ctx = s };

	int err = journal__feed(s->journal, &sink, max_bytes);

	/* what the file held from there on is lost: the run fails, and the rest goes straight to the analysis */
	if (err) {
		s->journal_err = err;
		journal__free(s->journal);
		s->journal = NULL;
	}
}

/* journaling - does the next input go to the journal, behind those waiting there? */
static bool journaling(const struct session *s)
{
	return s->journal && (!s->over_budget || journal__bytes(s->journal));
}

/*
 * journal_kept - the journal's answer @err to an input: true when it took
 * it. Out of memory, it hands everything over and is done with: the input
 * goes to the analysis, as every one after it.
 */
static bool journal_kept(struct session *s, int err)
{
	if (!err) {
		if (journal__bytes(s->journal) > journal_budget(s))
			s->over_budget = true;
		return true;
	}
	journal_hand_over(s, UINT64_MAX);
	journal__free(s->journal);
	s->journal = NULL;
	return false;
}

static int on_event(const struct wp_event *e, void *ctx)
{
	struct session *s = ctx;
	struct wp_event resolved;

	/* a wakeup's stacks whose copies went before it: unwound now, while its process's mappings are kept */
	e = run_stacks__resolve(s->res->stacks, e, &resolved);
	/* records that waited in the ring come out with the journal, in its order */
	if (!s->records_wait && journaling(s) && journal_kept(s, journal__event(s->journal, e)))
		return 0;
	analysis__event(&s->analysis, e);
	return 0;
}

/* on_copy - --unwind: a copy of a user stack, kept until its wakeup's record comes */
static void on_copy(const struct wp_stack_copy *copy, void *ctx)
{
	struct session *s = ctx;

	run_stacks__copy(s->res->stacks, copy);
}

static void on_sample(const struct wp_sample *smp, void *ctx)
{
	struct session *s = ctx;
	const struct tsc_clock *clk = &s->res->clock;
	uint64_t t_notify = tsc_clock__to_mono_ns(clk, smp->tsc_notify);
	uint64_t t_woken = tsc_clock__to_mono_ns(clk, smp->tsc_woken);
	uint64_t t_wait = smp->tsc_wait_start ? tsc_clock__to_mono_ns(clk, smp->tsc_wait_start) : 0;

	if (!s->fds_known) {
		const struct wp_ring_header *hdr = &s->reader.ring->hdr;

		/* the header is complete before the first sample is published */
		if (s->cfg->workload->match_fd &&
		    !(journaling(s) && journal_kept(s, journal__fds(s->journal, hdr->notify_fd, hdr->wait_fd))))
			analysis__fds(&s->analysis, hdr->notify_fd, hdr->wait_fd);
		s->fds_known = true;
	}
	if (journaling(s) && journal_kept(s, journal__sample(s->journal, smp, t_notify, t_woken, t_wait)))
		return;
	analysis__sample(&s->analysis, smp, t_notify, t_woken, t_wait);
}

static void add_clock_pair(struct session *s, uint64_t now)
{
	struct tsc_pair pair;

	if (tsc_clock__read_pair(&pair) == 0)
		analysis__clock_pair(&s->analysis, &pair);
	s->last_pair_ns = now;
}

/* keep the TSC fit fresh: samples are converted with the latest one */
static void maybe_add_clock_pair(struct session *s, uint64_t now)
{
	if (now - s->last_pair_ns >= CLOCK_PAIR_EVERY_NS)
		add_clock_pair(s, now);
}

/* switch_trace - put the programs that toggle_trace_ms switches on or off; 0 when done */
static int switch_trace(struct session *s, bool on)
{
	const struct session_bench *b = s->opts->bench;

	if (b->toggle)
		return b->toggle(on, b->toggle_ctx);
	if (!on) {
		collector__detach(s->collector);
		return b->between ? b->between(true, b->between_ctx) : 0;
	}
	if (b->between && b->between(false, b->between_ctx))
		return -1;
	if (!collector__attach(s->collector))
		return 0;
	/* none half attached: the stretch stays open, the run goes on untraced */
	collector__detach(s->collector);
	if (b->between)
		b->between(true, b->between_ctx);
	return -1;
}

/*
 * maybe_toggle - for the bench: every toggle_trace_ms take the programs off
 * their tracepoints, or put them back, and note when. Only the links go: the
 * programs, their maps and what is in the ring stay.
 */
static void maybe_toggle(struct session *s, struct session_bench *b, uint64_t now)
{
	struct trace_toggle *t = b->nr_toggles ? &b->toggles[b->nr_toggles - 1] : NULL;
	bool off = t && !t->on_ns;
	uint64_t since = !t ? s->res->trace_start_ns : off ? t->off_ns : t->on_ns;

	if (now - since < b->toggle_trace_ms * 1000000ull)
		return;
	if (off) {
		t->attach_ns = collector__now_ns();
		if (!switch_trace(s, true))
			t->on_ns = collector__now_ns();
		return;
	}
	if (b->nr_toggles == SESSION_MAX_TOGGLES)
		return;
	t = &b->toggles[b->nr_toggles++];
	t->detach_ns = collector__now_ns();
	switch_trace(s, false);
	t->off_ns = collector__now_ns();
}

/* pump - move whatever arrived into the merger and finish what is complete */
static void pump(struct session *s, int timeout_ms)
{
	bool wait = s->collector && s->records_wait && journaling(s);
	uint64_t complete_ns = 0, drops = 0;

	if (wait) {
		/* no drain: the journal's advance stands for one, and takes its records when handed over */
		complete_ns = collector__leave(s->collector, timeout_ms, &drops);
	} else if (s->collector) {
		complete_ns = collector__take(s->collector, timeout_ms, &drops);
	} else {
		struct timespec tick = { .tv_nsec = timeout_ms * 1000000L };

		nanosleep(&tick, NULL);
	}
	maybe_add_clock_pair(s, collector__now_ns());
	sample_reader__drain(&s->reader, on_sample, s);
	if (!s->collector)
		return;
	if (!(journaling(s) && journal_kept(s, journal__advance(s->journal, complete_ns, drops))))
		analysis__advance(&s->analysis, complete_ns, drops);
	if (wait && collector__backlog(s->collector) > ring_catchup_mark(collector__ring_bytes(s->collector)))
		s->over_budget = true;
	if (s->journal && s->over_budget && journal__bytes(s->journal))
		journal_hand_over(s, JOURNAL_CATCHUP_BYTES);
}

static int track_child(pid_t pid, void *ctx)
{
	struct session *s = ctx;
	int err = s->collector ? collector__track(s->collector, pid) : 0;

	if (!err && s->opts->bench && s->opts->bench->on_start)
		err = s->opts->bench->on_start(pid, s->opts->bench->on_start_ctx);
	return err;
}

static int start_workload(struct session *s, char *msg, size_t len)
{
	const struct run_config *cfg = s->cfg;
	const struct session_opts *o = s->opts;
	char path[PATH_MAX], samples[32], interval[32], cpus[32], ring_fd[16];
	char *argv[] = { path, "--ring-fd", ring_fd, "--samples", samples, "--interval-us", interval,
			 "--cpus", cpus, NULL };
	int err;

	err = runner__find_workload(cfg->workload->name, path, sizeof(path));
	if (err) {
		snprintf(msg, len, "workload binary '%s' not found: build it with make, or set "
			 "WAKEPROBE_WORKLOAD_DIR", cfg->workload->name);
		return err;
	}
	snprintf(ring_fd, sizeof(ring_fd), "%d", RUNNER_RING_FD);
	snprintf(samples, sizeof(samples), "%llu", (unsigned long long)cfg->samples);
	snprintf(interval, sizeof(interval), "%llu", (unsigned long long)cfg->interval_us);
	snprintf(cpus, sizeof(cpus), "%d,%d", cfg->waker_cpu, cfg->wakee_cpu);
	s->runner.drop_privileges = o->drop_privileges;
	s->runner.uid = o->uid;
	s->runner.gid = o->gid;
	err = runner__start(&s->runner, path, argv, s->reader.fd, track_child, s);
	if (err)
		launch__describe_failure(&s->runner, s->collector, path, err, msg, len);
	return err;
}

static int open_tracing(struct session *s, char *msg, size_t len)
{
	const struct workload_desc *wl = s->cfg->workload;
	struct collector_opts copts = {
		.verbose = s->opts->verbose,
		.ringbuf_bytes = s->records_wait ? ring_for_run(s->cfg) : s->cfg->ringbuf_bytes,
		/* every run states its cost, the benchmark's sides too: they are measured as run */
		.run_stats = true,
		.time_every_run = s->opts->bench && s->opts->bench->bpf_run_stats,
		.enter_syscalls = wl->notify_syscalls,
		.exit_syscalls = wl->wait_syscalls,
		.all_syscalls = wl->user_only,
		.lean = s->cfg->lean,
		.stacks = s->cfg->stacks,
		.unwind = s->cfg->unwind,
		.unwind_per_s = s->cfg->unwind_per_s,
		.lean_wait_end_signal = wl->wait_end == WAIT_END_SIGNAL_DELIVER,
		.lean_flight_ns = analysis__lean_flight_ns(s->cfg, &s->opts->analysis),
		.lean_flight_adaptive = analysis__lean_flight_adaptive(s->cfg->lean, s->opts->analysis.outliers,
								       s->opts->analysis.outlier_threshold_ns),
		.fn = on_event,
		.copy_fn = on_copy,
		.ctx = s,
	};
	int err = collector__open(&s->collector, &copts, msg, len);

	/* a ring grown to hold the run that the kernel would not give: the one asked for, drained as it goes */
	if (err && copts.ringbuf_bytes != s->cfg->ringbuf_bytes) {
		copts.ringbuf_bytes = s->cfg->ringbuf_bytes;
		err = collector__open(&s->collector, &copts, msg, len);
		if (!err)
			s->records_wait = false;
	}
	return err;
}

/* calibrate - a first clock fit, its pairs taken in as any later one */
static int calibrate(struct session *s)
{
	struct tsc_clock *first = malloc(sizeof(*first));
	int err;

	if (!first)
		return -ENOMEM;
	tsc_clock__init(first);
	err = tsc_clock__calibrate(first, 5, 1000);
	for (unsigned int i = 0; !err && i < first->nr_pairs; i++)
		analysis__clock_pair(&s->analysis, &first->pairs[i]);
	free(first);
	return err;
}

/* begin_results - @s's run result emptied and its start noted; the bench's toggles cleared */
static void begin_results(struct session *s)
{
	struct session_bench *bench = s->opts->bench;

	memset(s->res, 0, sizeof(*s->res));
	if (bench) {
		memset(bench->toggles, 0, sizeof(bench->toggles));
		bench->nr_toggles = 0;
	}
	run_meta__now(&s->res->meta);
	s->reader.fd = -1;
}

/* open_inputs - the sample ring the workload writes, and for a traced run the BPF side and the journal */
static int open_inputs(struct session *s, char *msg, size_t len)
{
	const struct run_config *cfg = s->cfg;
	int err;

	err = sample_reader__create(&s->reader, WP_RING_DEFAULT_SLOTS);
	if (err) {
		snprintf(msg, len, "cannot create the sample ring: %s", strerror(-err));
		return err;
	}
	if (!cfg->traced)
		return 0;
	s->records_wait = !s->opts->analyse_live && records_can_wait(cfg);
	err = open_tracing(s, msg, len);
	if (err)
		return err;
	/* without one (no memory), the run is analysed as it goes */
	if (!s->opts->analyse_live)
		s->journal = journal_open(cfg->samples * (s->records_wait ? JOURNAL_READY_PER_SAMPLE_WAITING :
								      JOURNAL_READY_PER_SAMPLE));
	return 0;
}

/*
 * begin_analysis - from the start of tracing, what the analysis needs
 * before the workload starts: the stacks' names (--stacks), the analysis
 * itself, the steal and the cost read at the start, a first clock fit
 */
static int begin_analysis(struct session *s, char *msg, size_t len)
{
	const struct run_config *cfg = s->cfg;
	struct run_result *res = s->res;
	int err;

	res->trace_start_ns = collector__now_ns();
	if (s->collector && cfg->stacks &&
	    (!(res->stacks = run_stacks__new_with("/proc/kallsyms", &(struct symbolizer_opts){
						  .debuginfod = cfg->debuginfod })) ||
	     !(res->stack_combos = calloc(1, sizeof(*res->stack_combos))))) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	err = analysis__begin(&s->analysis, cfg, &s->opts->analysis, res);
	if (err) {
		snprintf(msg, len, "out of memory");
		return err;
	}
	if (s->collector) {
		host_steal__start(&res->steal, collector__steal(s->collector));
		trace_cost__start(&res->cost, collector__run_stats(s->collector));
	}
	err = calibrate(s);
	if (err) {
		snprintf(msg, len, "TSC calibration failed: %s", strerror(-err));
		return err;
	}
	s->last_pair_ns = collector__now_ns();
	return 0;
}

/*
 * watch_workload - pump what arrives into the analysis until the workload
 * ends or fails, the run times out or a stop signal comes; then stop it
 */
static void watch_workload(struct session *s)
{
	struct session_bench *bench = s->opts->bench;
	struct run_result *res = s->res;
	uint64_t started_ns = collector__now_ns();
	uint32_t state;

	while (!launch_stop_requested) {
		pump(s, COLLECTOR_DRAIN_EVERY_MS);
		if (bench && bench->toggle_trace_ms && (s->collector || bench->toggle))
			maybe_toggle(s, bench, collector__now_ns());
		state = sample_reader__state(&s->reader);
		/*
		 * running, so past its exec: its mappings, which name every stack
		 * of it and of the processes it forks (mapped alike)
		 */
		if (res->stacks && state != WP_RING_STARTING && !run_stacks__count_processes(res->stacks)) {
			run_stacks__process(res->stacks, s->runner.pid, NULL);
			run_stacks__fallback(res->stacks, s->runner.pid);
		}
		if (runner__poll(&s->runner) || state == WP_RING_FAILED)
			break;
		if (s->opts->timeout_ms && collector__now_ns() - started_ns >= s->opts->timeout_ms * 1000000ull) {
			res->timed_out = true;
			break;
		}
	}
	if (launch_stop_requested) {
		res->interrupted = true;
		res->stop_signal = launch_stop_requested;
	}
	runner__stop(&s->runner, 500);
}

/* stop_tracing - no more events made, everything left taken in; the BPF side's counters and cost read */
static void stop_tracing(struct session *s)
{
	struct run_result *res = s->res;
	struct collector_prog_totals totals;

	res->trace_end_ns = collector__now_ns();
	if (s->collector) {
		collector__detach(s->collector);
		if (!s->records_wait)
			collector__drain(s->collector);
	}
	add_clock_pair(s, collector__now_ns());
	sample_reader__drain(&s->reader, on_sample, s);
	if (!s->collector)
		return;
	collector__counters(s->collector, &res->counters, &res->drops_total);
	collector__lean_counters(s->collector, &res->lean);
	res->lean_flight_adaptive = collector__lean_flight_ns(s->collector, res->lean_flight_ns);
	host_steal__stop(&res->steal, res->counters.steal_bad_cpus);
	collector__prog_totals(s->collector, &totals);
	res->missed_runs = totals.missed_runs;
	trace_cost__stop(&res->cost, totals.counted_runs, totals.runs, totals.run_ns);
	res->progs = totals;
}

/*
 * analyse_waiting - the workload is done, and tracing's cost taken: what
 * waited in the journal, then in the ring past its last advance, is
 * analysed now; the stacks are copied before the BPF side closes
 */
static int analyse_waiting(struct session *s, char *msg, size_t len)
{
	if (s->journal)
		journal_hand_over(s, UINT64_MAX);
	if (s->journal_err) {
		snprintf(msg, len, "the journal's file could not be read back (%s): the run's analysis is not whole",
			 strerror(-s->journal_err));
		return s->journal_err;
	}
	if (s->collector && s->records_wait)
		collector__drain(s->collector);
	/* the stacks map goes with the BPF side: its stacks are copied first, to be named after */
	if (s->res->stacks)
		run_stacks__take(s->res->stacks, s->collector);
	return 0;
}

/* describe_workload_end - how many samples the workload sent, how it ended, and whether it failed */
static void describe_workload_end(struct session *s)
{
	const struct wp_ring_header *hdr = &s->reader.ring->hdr;
	uint32_t state = sample_reader__state(&s->reader);
	struct run_result *res = s->res;

	res->samples_sent = hdr->head;
	res->seq_errors = s->reader.seq_errors;
	runner__describe_exit(&s->runner, res->workload_exit, sizeof(res->workload_exit));
	if (res->timed_out) {
		res->workload_failed = true;
		snprintf(res->workload_error, sizeof(res->workload_error), "timed out after %.1f s (--timeout), "
			 "%" PRIu64 " of %" PRIu64 " samples taken; the workload was stopped: %s",
			 s->opts->timeout_ms / 1e3, (uint64_t)hdr->head, s->cfg->samples, res->workload_exit);
	} else if (state == WP_RING_FAILED) {
		res->workload_failed = true;
		snprintf(res->workload_error, sizeof(res->workload_error), "%.*s",
			 (int)sizeof(hdr->error), hdr->error);
	} else if (!res->interrupted && (state != WP_RING_DONE || !WIFEXITED(s->runner.status) ||
					 WEXITSTATUS(s->runner.status))) {
		res->workload_failed = true;
		snprintf(res->workload_error, sizeof(res->workload_error), "the workload %s before it finished",
			 res->workload_exit);
	}
}

int session__run(const struct run_config *cfg, const struct session_opts *o, struct run_result *res,
		 char *msg, size_t len)
{
	struct session s = { .cfg = cfg, .opts = o, .res = res, .runner = { .pid = -1 } };
	bool holding = false;
	sigset_t saved;
	int err;

	begin_results(&s);
	err = open_inputs(&s, msg, len);
	if (err)
		goto out;
	/* a signal while the BPF side loaded: end before there is a workload, with nothing measured */
	err = launch__begin_whole(&saved, msg, len);
	if (err)
		goto out;
	holding = true;
	err = begin_analysis(&s, msg, len);
	if (!err)
		err = start_workload(&s, msg, len);
	if (err)
		goto out;
	launch__began(&saved);
	holding = false;

	watch_workload(&s);
	stop_tracing(&s);
	err = analyse_waiting(&s, msg, len);
	if (err)
		goto out;
	describe_workload_end(&s);
	analysis__end(&s.analysis);
out:
	if (holding)
		launch__began(&saved);
	runner__stop(&s.runner, 0);
	collector__close(s.collector);
	journal__free(s.journal);
	analysis__free(&s.analysis);
	sample_reader__destroy(&s.reader);
	if (err)
		session__release(res);
	return err;
}

void session__release(struct run_result *res)
{
	if (!res)
		return;
	run_stacks__free(res->stacks);
	free(res->stack_combos);
	res->stacks = NULL;
	res->stack_combos = NULL;
}
