// SPDX-License-Identifier: GPL-2.0
/*
 * test_replay.c - a record file through the analysis again: every record
 * reaches it in file order, each run begins with its own analysis options
 * and is handed over once its RUN_END is in, a callee may stop the replay
 * after a run, a file that fails half way hands over only the runs it
 * ended, and an attach run goes to the attach replay or is refused.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "attach_replay.h"
#include "events.h"
#include "recfile.h"
#include "recorder.h"
#include "recording.h"
#include "replay.h"
#include "run_recording.h"

TestSuite(replay);

/* ---------------------------------------------------------------- a file of two workload runs */

static const struct workload_desc eventfd_wl = {
	.name = "eventfd",
	.summary = "eventfd write -> read",
	.notify_syscalls = { { SYS_write, -1, -1, -1 } },
	.wait_syscalls = { { SYS_read, -1, -1, -1 } },
	.match_fd = 1,
	.wait_end = WAIT_END_SYSCALL_EXIT,
};

static const struct workload_desc cond_wl = {
	.name = "cond",
	.summary = "pthread_cond_signal -> pthread_cond_wait",
	.notify_syscalls = { { SYS_futex, -1, -1, -1 } },
	.wait_syscalls = { { SYS_futex, -1, -1, -1 } },
	.wait_end = WAIT_END_SYSCALL_EXIT,
	.notify_optional = true,
};

/* where the records of the file are */
struct layout {
	uint64_t run_end[2];		/* the offset of each run's RUN_END */
	uint64_t second_event;		/* of the second run's first EVENT */
	uint64_t events[8];		/* each EVENT's time, in file order */
	size_t nr_events;
};

/*
 * write_run - a run of @wl from @t0: RUN_BEGIN, CLOCK_PAIR, FDS, two
 * EVENTs, a SAMPLE, ADVANCE and RUN_END, each written as the live run's
 * tap writes it (run_recording.h), so that a replay's tap writes it again
 */
static void write_run(struct recorder *w, const struct workload_desc *wl, uint64_t t0, const char *exit_text,
		      struct layout *l, int run)
{
	struct run_config cfg = { .workload = wl, .samples = 1, .interval_us = 1000, .waker_cpu = 0,
				  .wakee_cpu = 1, .traced = true, .ringbuf_bytes = 1u << 20 };
	struct run_meta meta = { .version = "test", .kernel = "6.18.0", .machine = "x86_64", .hostname = "host",
				 .nr_cpus = 2, .started_unix_ns = 1700000000000000000ull + t0 };
	struct rec_clock_pair cp = { .tsc = 5000000 + t0, .mono_ns = t0, .width = 30 };
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = 3 };
	struct wp_event evs[2] = { ev_waking(t0 + 100, 0, 42, 43, 1, 0), ev_switch(t0 + 200, 1, 0, 43, 0, 0) };
	struct rec_sample s = { .sample = { .seq = 1, .waker_tid = 42, .wakee_tid = 43 }, .t_notify_ns = t0 + 50,
				.t_woken_ns = t0 + 300 };
	struct rec_advance adv = { .complete_ns = t0 + 1000 };
	static struct run_result res;
	struct rec_run_begin b;
	struct rec_run_end e;

	memset(&res, 0, sizeof(res));
	res.trace_end_ns = t0 + 2000;
	res.samples_sent = 1;
	res.waker_tid = 42;
	res.wakee_tid = 43;
	res.workload_failed = run == 1;
	snprintf(res.workload_exit, sizeof(res.workload_exit), "%s", exit_text);
	snprintf(res.steal.why_off, sizeof(res.steal.why_off), "no steal clock here");
	res.cost.known = true;
	res.cost.self_cpu_ns = 5000 + t0;
	snprintf(res.cost.bpf_stats_why_off, sizeof(res.cost.bpf_stats_why_off), "not asked");

	run_recording__encode_begin(&cfg, &meta, t0, &b);
	recorder__write(w, REC_RUN_BEGIN, &b, sizeof(b));
	recorder__write(w, REC_CLOCK_PAIR, &cp, sizeof(cp));
	recorder__write(w, REC_FDS, &fds, sizeof(fds));
	for (int i = 0; i < 2; i++) {
		if (run == 1 && i == 0)
			l->second_event = recorder__bytes(w);
		recorder__write(w, REC_EVENT, &evs[i], sizeof(evs[i]));
		l->events[l->nr_events++] = evs[i].ts_ns;
	}
	recorder__write(w, REC_SAMPLE, &s, sizeof(s));
	recorder__write(w, REC_ADVANCE, &adv, sizeof(adv));
	l->run_end[run] = recorder__bytes(w);
	run_recording__encode_end(&res, &e);
	recorder__write(w, REC_RUN_END, &e, sizeof(e));
}

static struct buf two_runs(struct layout *l)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w;

	cr_assert_not_null(f);
	memset(l, 0, sizeof(*l));
	w = recorder__new(f);
	write_run(w, &eventfd_wl, 10000, "exited with status 0", l, 0);
	write_run(w, &cond_wl, 50000, "exited with status 1", l, 1);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	return b;
}

/* what the callbacks saw */
struct seen {
	char begun[4][REC_NAME_LEN];
	size_t nr_begun;
	struct replay_run *done[4];
	size_t nr_done;
	size_t stop_at;			/* run_done returns stop_with for this run (from 1) */
	int stop_with;
	const char *events_of;		/* run_begin has only this run's events seen */
	uint64_t events[8];
	size_t nr_events;
};

static void seen_event(const struct wp_event *e, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_events, 8);
	s->events[s->nr_events++] = e->ts_ns;
}

static void seen_begin(const struct replay_run *run, struct analysis_opts *ao, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_begun, 4);
	cr_assert_eq(run->cfg.workload, &run->workload.desc, "the run's workload is the recording's");
	cr_assert_eq(run->res.trace_end_ns, 0, "the result is not in yet");
	strcpy(s->begun[s->nr_begun++], run->cfg.workload->name);
	if (s->events_of && !strcmp(run->cfg.workload->name, s->events_of)) {
		ao->on_event = seen_event;
		ao->on_event_ctx = s;
	}
}

static int seen_done(struct replay_run *run, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_done, 4);
	s->done[s->nr_done++] = run;
	return s->nr_done == s->stop_at ? s->stop_with : 0;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->nr_done; i++)
		free(s->done[i]);
}

static int replay(const struct buf *b, size_t len, const char *name, const struct replay_opts *ro, char *msg,
		  size_t msglen)
{
	FILE *in = fmemopen(b->data, len, "rb");
	int err;

	cr_assert_not_null(in);
	err = replay__file(in, name, ro, msg, msglen);
	fclose(in);
	return err;
}

/* ---------------------------------------------------------------- workload runs */

Test(replay, each_run_begins_with_its_description_and_is_handed_over_with_its_end)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .nr_begun = 0 };
	struct replay_opts ro = { .run_begin = seen_begin, .run_done = seen_done, .ctx = &s };
	char msg[256] = "";
	const struct replay_run *r;

	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(msg, "");
	cr_assert_eq(s.nr_begun, 2);
	cr_assert_str_eq(s.begun[0], "eventfd");
	cr_assert_str_eq(s.begun[1], "cond");
	cr_assert_eq(s.nr_done, 2);
	r = s.done[0];
	cr_assert_str_eq(r->workload.name, "eventfd");
	cr_assert_eq(r->cfg.wakee_cpu, 1);
	cr_assert(r->cfg.traced);
	cr_assert_str_eq(r->res.meta.hostname, "host");
	cr_assert_eq(r->res.trace_start_ns, 10000);
	cr_assert_eq(r->res.trace_end_ns, 12000);
	cr_assert_str_eq(r->res.workload_exit, "exited with status 0");
	cr_assert_not(r->res.workload_failed);
	cr_assert_eq(r->res.clock.nr_pairs, 1, "the clock pair went into the fit");
	cr_assert_eq(r->res.waker_tid, 42, "the sample went into the analysis");
	r = s.done[1];
	cr_assert_str_eq(r->workload.name, "cond");
	cr_assert(r->workload.desc.notify_optional);
	cr_assert_eq(r->res.trace_start_ns, 50000);
	cr_assert_eq(r->res.trace_end_ns, 52000);
	cr_assert_str_eq(r->res.workload_exit, "exited with status 1");
	cr_assert(r->res.workload_failed);
	seen_free(&s);
	free(b.data);
}

Test(replay, every_event_reaches_the_analysis_in_file_order)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .nr_begun = 0 };
	struct replay_opts ro = { .analysis = { .on_event = seen_event, .on_event_ctx = &s } };
	char msg[256] = "";

	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(s.nr_events, l.nr_events);
	cr_assert_arr_eq(s.events, l.events, l.nr_events * sizeof(l.events[0]));
	free(b.data);
}

Test(replay, what_run_begin_adds_to_the_analysis_options_is_for_that_run_alone)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .events_of = "cond" };
	struct replay_opts ro = { .run_begin = seen_begin, .ctx = &s };
	char msg[256] = "";

	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(s.nr_begun, 2);
	cr_assert_eq(s.nr_events, 2, "the second run's events, not the first's");
	cr_assert_eq(s.events[0], 50100);
	cr_assert_eq(s.events[1], 50200);
	cr_assert_null(ro.analysis.on_event);
	free(b.data);
}

/*
 * A replay whose analysis writes down what it takes in (the tap of a live
 * recording) writes the file it read again, byte for byte: every record
 * reached the analysis, in order, and nothing else did.
 */
Test(replay, a_replay_that_records_its_inputs_writes_the_file_again)
{
	struct layout l;
	struct buf b = two_runs(&l), again = { 0 };
	FILE *out = open_memstream(&again.data, &again.len);
	struct recorder *w;
	struct replay_opts ro = { .analysis = { .tap = &run_recording_tap } };
	char msg[256] = "";
	size_t i = 0;

	cr_assert_not_null(out);
	w = recorder__new(out);
	ro.analysis.tap_ctx = w;
	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(out);
	while (i < b.len && i < again.len && b.data[i] == again.data[i])
		i++;
	cr_assert_eq(again.len, b.len, "%zu bytes written again of %zu", again.len, b.len);
	cr_assert_eq(i, b.len, "the files part at byte %zu", i);
	free(again.data);
	free(b.data);
}

Test(replay, a_nonzero_run_done_stops_the_replay_after_that_run)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .stop_at = 1, .stop_with = -ECANCELED };
	struct replay_opts ro = { .run_begin = seen_begin, .run_done = seen_done, .ctx = &s };
	char msg[256] = "", want[128];

	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), -ECANCELED);
	snprintf(want, sizeof(want), "two.wpr: stopped after the run that ends at byte offset %" PRIu64, l.run_end[0]);
	cr_assert_str_eq(msg, want);
	cr_assert_eq(s.nr_done, 1);
	cr_assert_eq(s.nr_begun, 1, "the second run was not begun");
	seen_free(&s);
	free(b.data);
}

Test(replay, a_file_cut_in_a_run_hands_over_the_runs_before_it_and_names_the_cut)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .nr_begun = 0 };
	struct replay_opts ro = { .run_begin = seen_begin, .run_done = seen_done, .ctx = &s };
	char msg[256] = "", want[128];

	/* the second run's first event is cut after its record header and 2 bytes */
	cr_assert_eq(replay(&b, l.second_event + 8 + 2, "cut.wpr", &ro, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "cut.wpr: truncated EVENT record at byte offset %" PRIu64 ": 2 of 64 bytes",
		 l.second_event);
	cr_assert_str_eq(msg, want);
	cr_assert_eq(s.nr_begun, 2);
	cr_assert_eq(s.nr_done, 1, "the run without its end is not handed over");
	cr_assert_str_eq(s.done[0]->workload.name, "eventfd");
	seen_free(&s);
	free(b.data);
}

Test(replay, without_run_done_every_run_is_replayed_and_let_go)
{
	struct layout l;
	struct buf b = two_runs(&l);
	struct seen s = { .nr_begun = 0 };
	struct replay_opts ro = { .analysis = { .on_event = seen_event, .on_event_ctx = &s }, .run_begin = seen_begin,
				  .ctx = &s };
	char msg[256] = "";

	cr_assert_eq(replay(&b, b.len, "two.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(s.nr_begun, 2);
	cr_assert_eq(s.nr_events, 4);
	free(b.data);
}

/* ---------------------------------------------------------------- an attach run */

/* a replay that takes only workload runs says so, at the attach run's offset */
Test(replay, a_reader_of_workload_runs_only_refuses_an_attach_run_in_one_line)
{
	uint64_t offsets[8];
	struct buf b = write_attach_small(offsets, REC_VERSION);
	struct replay_opts ro = { .analysis = { .outliers = 1 } };
	FILE *in = fmemopen(b.data, b.len, "rb");
	char msg[256] = "";

	cr_assert_eq(replay__file(in, "x.wpr", &ro, msg, sizeof(msg)), -ENOTSUP);
	cr_assert(strstr(msg, "x.wpr: an attach run at byte offset 16"), "%s", msg);
	fclose(in);
	free(b.data);
}

struct attach_seen {
	struct attach_replay_run *run;
	int ret;
};

static int attach_done(struct attach_replay_run *run, void *ctx)
{
	struct attach_seen *s = ctx;

	cr_assert_null(s->run, "one attach run");
	s->run = run;
	return s->ret;
}

static int workload_done(struct replay_run *run, void *ctx)
{
	(void)run;
	(void)ctx;
	cr_assert_fail("an attach run is no workload run");
	return 0;
}

Test(replay, an_attach_run_goes_to_the_attach_replay_and_its_callee_may_stop_it)
{
	uint64_t offsets[8];
	struct buf b = write_attach_small(offsets, REC_VERSION);
	struct attach_seen s = { .run = NULL };
	struct attach_replay_opts aro = { .run_done = attach_done, .ctx = &s };
	struct replay_opts ro = { .run_done = workload_done, .attach = &aro };
	char msg[256] = "", want[128];

	cr_assert_eq(replay(&b, b.len, "a.wpr", &ro, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not_null(s.run);
	cr_assert_str_eq(s.run->targets.opts.argv[0], "consumer");
	cr_assert_str_eq(s.run->targets.opts.argv[1], "--fast");
	cr_assert_eq(s.run->run.res.trace_end_ns, 9000);
	cr_assert_str_eq(s.run->run.res.command_exit, "exited with status 0");
	cr_assert_eq(attach_analysis__counters(s.run->run.analysis)->events, 1);
	attach_replay_run__free(s.run);

	s = (struct attach_seen){ .ret = 3 };
	cr_assert_eq(replay(&b, b.len, "a.wpr", &ro, msg, sizeof(msg)), 3);
	snprintf(want, sizeof(want), "a.wpr: stopped after the run that ends at byte offset %" PRIu64, offsets[4]);
	cr_assert_str_eq(msg, want);
	attach_replay_run__free(s.run);
	free(b.data);
}
