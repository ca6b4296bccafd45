// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_replay.c - an attach run's records through the analysis
 * again: the run begins with its targets and machine decoded; each fd
 * lookup takes the first answer recorded for that fd before the input that
 * asked it, answers left after that input are dropped, a lookup with none
 * is unknown and counted; the end decodes how the run ended, ends the
 * analysis and hands the run over; a record no attach run holds, or
 * answers past the bound, are refused in one line.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "attach_recording.h"
#include "attach_replay.h"
#include "events.h"

#define PROC		6000u
#define WAKER		6001u
#define WAKEE		6002u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		1000000000ull
#define SPAN		20000ull

/* what the callbacks saw, and where the next record is */
struct seen {
	struct attach_replay_run *run;		/* handed over by run_done */
	int done_ret;
	size_t nr_begun;
	struct attach_result results[8];
	size_t nr_results;
	uint64_t nr_events;
	uint64_t offset;
};

static struct seen seen;

static void setup(void)
{
	memset(&seen, 0, sizeof(seen));
	seen.offset = REC_FILE_HEADER_SIZE;
}

static void teardown(void)
{
	attach_replay_run__free(seen.run);
}

TestSuite(attach_replay, .init = setup, .fini = teardown);

static void on_result(const struct attach_result *r, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_results, 8);
	s->results[s->nr_results++] = *r;
}

static void on_event(const struct wp_event *e, void *ctx)
{
	(void)e;
	((struct seen *)ctx)->nr_events++;
}

static enum fd_kind not_asked(uint32_t tgid, int fd, void *ctx)
{
	(void)tgid;
	(void)fd;
	(void)ctx;
	cr_assert_fail("a replay answers from the recording, never from the caller's lookup");
	return FD_KIND_UNKNOWN;
}

static int keep_run(struct attach_replay_run *run, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_null(s->run, "one run");
	s->run = run;
	return s->done_ret;
}

/* the replay's options: the results to seen, the run kept, the caller's fd lookup one that must not be asked */
static const struct attach_replay_opts opts = {
	.analysis = { .on_result = on_result, .on_result_ctx = &seen, .fd_kind = not_asked },
	.run_done = keep_run,
	.ctx = &seen,
};

/* begin - a replay of a --pid run of PROC and 4242 */
static struct attach_replay *begin(const struct attach_replay_opts *o)
{
	static const int32_t pids[] = { PROC, 4242 };
	struct attach_session_opts targets = { .pids = pids, .nr_pids = 2, .duration_ms = 3000,
					       .ringbuf_bytes = 1u << 20 };
	struct attach_session_result res = { .trace_start_ns = T0 - 5000 };
	struct rec_attach_begin b;
	struct attach_replay *rp = NULL;

	snprintf(res.meta.hostname, sizeof(res.meta.hostname), "replayed-host");
	res.meta.nr_cpus = 8;
	attach_recording__encode_begin(&targets, &res, &b);
	cr_assert_eq(attach_replay__begin(&rp, o, &b), 0);
	cr_assert_not_null(rp);
	seen.offset += sizeof(struct rec_header) + sizeof(b);
	return rp;
}

/* feed - the run's next record, at the next offset: 0, or what the replay says */
static int feed(struct attach_replay *rp, struct rec_record *rec, char *msg, size_t len)
{
	uint32_t size = recording__payload_size(REC_VERSION, rec->type);

	rec->offset = seen.offset;
	seen.offset += sizeof(struct rec_header) + size;
	return attach_replay__record(rp, rec, msg, len);
}

static void answer(struct attach_replay *rp, uint32_t tgid, int fd, enum fd_kind kind)
{
	struct rec_record rec = { .type = REC_FD_KIND, .fd_kind = { .tgid = tgid, .fd = fd, .kind = kind } };
	char msg[256] = "";

	cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), 0, "%s", msg);
}

static void event(struct attach_replay *rp, struct wp_event e)
{
	struct rec_record rec = { .type = REC_EVENT, .event = e };
	char msg[256] = "";

	cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), 0, "%s", msg);
}

static void advance(struct attach_replay *rp, uint64_t complete_ns)
{
	struct rec_record rec = { .type = REC_ADVANCE, .advance = { .complete_ns = complete_ns } };
	char msg[256] = "";

	cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), 0, "%s", msg);
}

/* end - ATTACH_END: what the replay returns */
static int end(struct attach_replay *rp, const struct attach_session_result *res)
{
	struct rec_record rec = { .type = REC_ATTACH_END };
	char msg[256] = "";

	attach_recording__encode_end(res, &rec.attach_end);
	return feed(rp, &rec, msg, sizeof(msg));
}

/* the threads named by their switch-in: from then on a BLOCK of the wakee asks what its fd is */
static void name_threads(struct attach_replay *rp)
{
	event(rp, with_next_tgid(with_next_comm(ev_switch(T0 - 2000, WAKER_CPU, 0, WAKER, 0, 0), "producer"), PROC));
	event(rp, with_next_tgid(with_next_comm(ev_switch(T0 - 1000, WAKEE_CPU, 0, WAKEE, 0, 0), "consumer"), PROC));
}

/*
 * wakeup_records - the records of a wakeup at @t: the wakee sleeps in
 * read(@rfd) (a lookup of (PROC, @rfd) at its BLOCK, record 1), the waker's
 * write(@wfd) wakes it (a lookup of (PROC, @wfd) at its WAKER record, 2); the
 * ADVANCE after pairs it, asking both again, the waker's first
 */
static void wakeup_records(uint64_t t, int wfd, int rfd, struct wp_event evs[7])
{
	evs[0] = ev_switch(t, WAKEE_CPU, WAKEE, 0, 1, 0);
	evs[1] = ev_block(t, WAKEE_CPU, WAKEE, SYS_read, (uint64_t)rfd, 0, t - 500);
	evs[2] = ev_waker_syscall(t + 10000, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, (uint64_t)wfd, 0, t + 9700);
	evs[3] = ev_waking(t + 10000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, t + 100);
	evs[4] = ev_wakeup(t + 10800, WAKEE_CPU, 0, WAKEE, WAKEE_CPU);
	evs[5] = with_next_tgid(with_next_comm(ev_switch(t + 14000, WAKEE_CPU, 0, WAKEE, 0, 0), "consumer"), PROC);
	evs[6] = ev_sys_exit(t + 14700, WAKEE_CPU, WAKEE, SYS_read, 8);
}

/* ---------------------------------------------------------------- the run begins */

static void begun(const struct attach_replay_run *run, struct attach_analysis_opts *ao, void *ctx)
{
	struct seen *s = ctx;

	s->nr_begun++;
	cr_assert_eq(run->targets.opts.nr_pids, 2);
	cr_assert_eq(run->targets.opts.pids[0], PROC);
	cr_assert_eq(run->targets.opts.pids[1], 4242);
	cr_assert_eq(run->targets.opts.duration_ms, 3000);
	cr_assert_str_eq(run->run.res.meta.hostname, "replayed-host");
	cr_assert_eq(run->run.res.meta.nr_cpus, 8);
	cr_assert_eq(run->run.res.trace_start_ns, T0 - 5000);
	cr_assert_null(run->run.analysis, "the analysis is made after, with @ao");
	ao->on_event = on_event;
	ao->on_event_ctx = s;
}

Test(attach_replay, a_run_begins_with_its_targets_and_machine_and_its_own_options)
{
	struct attach_replay_opts o = opts;
	struct attach_replay *rp;

	o.run_begin = begun;
	rp = begin(&o);
	cr_assert_eq(seen.nr_begun, 1);
	name_threads(rp);
	cr_assert_eq(seen.nr_events, 2, "what run_begin added sees the records");
	cr_assert_null(o.analysis.on_event, "the caller's options are not changed");
	attach_replay__free(rp);
}

/* attach mode traces every CPU: the steal records of any of them add up */
Test(attach_replay, the_steal_records_of_every_cpu_add_up)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 };

	event(rp, ev_steal(T0 - 3000, 0, 0, 20000, T0 - 90000));
	event(rp, ev_steal(T0 - 2000, 7, 0, 5000, T0 - 80000));
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_not_null(seen.run);
	cr_assert_eq(seen.run->run.res.steal.seen_ns, 25000);
	cr_assert_eq(seen.run->run.res.steal.cpus[0], HOST_STEAL_ALL_CPUS);
	attach_replay__free(rp);
}

/* ---------------------------------------------------------------- the fd answers */

Test(attach_replay, each_lookup_takes_the_first_answer_recorded_for_its_fd_before_its_input)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 + SPAN };
	struct wp_event evs[7];

	name_threads(rp);
	wakeup_records(T0, 7, 7, evs);
	for (int i = 0; i < 7; i++) {
		if (i == 1 || i == 2)
			answer(rp, PROC, 7, FD_KIND_PIPE);
		event(rp, evs[i]);
	}
	/* the pairing asks the waker's fd, then the wakee's: the same fd twice, each its own answer in turn */
	answer(rp, PROC, 7, FD_KIND_EVENTFD);
	answer(rp, PROC, 7, FD_KIND_SIGNALFD);
	advance(rp, T0 + SPAN);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.results[0].waker.fd_kind, FD_KIND_EVENTFD);
	cr_assert_eq(seen.results[0].wait.fd_kind, FD_KIND_SIGNALFD);
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_eq(seen.run->fd_unanswered, 0);
	attach_replay__free(rp);
}

/* the waker writes fd 7, the wakee reads fd 8: recorded the other way round, each still finds its own */
Test(attach_replay, an_answer_is_found_for_its_fd_whatever_its_place)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 + SPAN };
	struct wp_event evs[7];

	name_threads(rp);
	wakeup_records(T0, 7, 8, evs);
	for (int i = 0; i < 7; i++) {
		if (i == 1)
			answer(rp, PROC, 8, FD_KIND_PIPE);
		if (i == 2)
			answer(rp, PROC, 7, FD_KIND_PIPE);
		event(rp, evs[i]);
	}
	answer(rp, PROC, 8, FD_KIND_UNIX_STREAM);
	answer(rp, PROC, 7, FD_KIND_TCP_SOCKET);
	advance(rp, T0 + SPAN);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.results[0].waker.fd_kind, FD_KIND_TCP_SOCKET);
	cr_assert_eq(seen.results[0].wait.fd_kind, FD_KIND_UNIX_STREAM);
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_eq(seen.run->fd_unanswered, 0);
	attach_replay__free(rp);
}

Test(attach_replay, a_lookup_with_no_answer_is_unknown_and_counted)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 + SPAN };
	struct wp_event evs[7];

	name_threads(rp);
	wakeup_records(T0, 7, 7, evs);
	for (int i = 0; i < 7; i++) {
		/* answers for another fd, and for the same fd of another process */
		if (i == 2) {
			answer(rp, PROC, 8, FD_KIND_EVENTFD);
			answer(rp, PROC + 1, 7, FD_KIND_EVENTFD);
		}
		event(rp, evs[i]);
	}
	advance(rp, T0 + SPAN);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.results[0].waker.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_eq(seen.results[0].wait.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_str_eq(seen.results[0].mechanism, "fd 7 write -> read", "named by its number alone");
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_eq(seen.run->fd_unanswered, 2, "the pairing's two: nothing is asked as a record arrives");
	attach_replay__free(rp);
}

/* the answers written before an input are for it alone: what it did not take is not there for the next */
Test(attach_replay, answers_left_over_after_their_input_are_dropped)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 + SPAN };
	struct wp_event evs[7];

	name_threads(rp);
	wakeup_records(T0, 7, 7, evs);
	for (int i = 0; i < 7; i++) {
		if (i == 1)
			answer(rp, PROC, 7, FD_KIND_PIPE);
		/* one too many for the WAKER record, and two before the waking, which asks nothing */
		if (i == 2 || i == 3) {
			answer(rp, PROC, 7, FD_KIND_EVENTFD);
			answer(rp, PROC, 7, FD_KIND_EVENTFD);
		}
		event(rp, evs[i]);
	}
	advance(rp, T0 + SPAN);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.results[0].waker.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_eq(seen.results[0].wait.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_eq(seen.run->fd_unanswered, 2, "the pairing's two");
	attach_replay__free(rp);
}

/* FD_KIND records between two inputs are bounded: a damaged file cannot make the replay hold any number */
Test(attach_replay, answers_past_the_bound_in_a_row_are_refused_and_an_input_resets_the_count)
{
	struct attach_replay *rp = begin(&opts);
	struct rec_record rec = { .type = REC_FD_KIND, .fd_kind = { .tgid = PROC, .fd = 3, .kind = FD_KIND_PIPE } };
	char msg[256] = "", want[128];
	uint64_t at;
	uint32_t i;

	for (i = 0; i < (1u << 20); i++)
		cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), 0, "answer %u: %s", i, msg);
	event(rp, ev_switch(T0, WAKEE_CPU, WAKEE, 0, 1, 0));
	for (i = 0; i < (1u << 20); i++)
		cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), 0, "answer %u after the input: %s", i, msg);
	at = seen.offset;
	cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "bad FD_KIND record at byte offset %" PRIu64 ": more than 1048576 in a row", at);
	cr_assert_str_eq(msg, want);
	attach_replay__free(rp);
}

/* ---------------------------------------------------------------- the end, and records out of place */

Test(attach_replay, the_end_decodes_the_run_ends_the_analysis_and_hands_the_run_over)
{
	struct attach_replay *rp = begin(&opts);
	struct attach_session_result res = { .trace_end_ns = T0 + SPAN, .drops_total = 0, .targets_exited = 1,
					     .interrupted = true, .stop_signal = 2, .missed_runs = 6 };
	struct wp_event evs[7];

	seen.done_ret = 7;
	name_threads(rp);
	wakeup_records(T0, 7, 7, evs);
	/* the wakee is woken and never runs before tracing ends */
	for (int i = 0; i < 5; i++)
		event(rp, evs[i]);
	advance(rp, T0 + 12000);
	cr_assert_eq(seen.nr_results, 0);
	cr_assert_eq(end(rp, &res), 7, "run_done's value");
	cr_assert_eq(seen.nr_results, 1, "the end handed over the wakeup left open");
	cr_assert_eq(seen.results[0].sr.label, LABEL_OUT_OF_WINDOW);
	cr_assert_not_null(seen.run);
	cr_assert_eq(seen.run->run.res.trace_end_ns, T0 + SPAN);
	cr_assert_eq(seen.run->run.res.targets_exited, 1);
	cr_assert(seen.run->run.res.interrupted);
	cr_assert_eq(seen.run->run.res.stop_signal, 2);
	cr_assert_eq(seen.run->run.res.missed_runs, 6);
	cr_assert_eq(seen.run->run.analysis->agg->wakeups, 1);
	cr_assert_eq(attach_analysis__counters(seen.run->run.analysis)->events, 7);
	/* the run is the callee's now: freeing the replay leaves it whole (ASan checks) */
	attach_replay__free(rp);
	cr_assert_eq(seen.run->run.analysis->agg->wakeups, 1);
}

Test(attach_replay, without_run_done_the_end_lets_the_run_go)
{
	struct attach_replay_opts o = opts;
	struct attach_replay *rp;
	struct attach_session_result res = { .trace_end_ns = T0 };

	o.run_done = NULL;
	rp = begin(&o);
	name_threads(rp);
	cr_assert_eq(end(rp, &res), 0);
	cr_assert_null(seen.run);
	attach_replay__free(rp);
}

Test(attach_replay, a_record_no_attach_run_holds_is_refused_in_one_line)
{
	struct attach_replay *rp = begin(&opts);
	struct rec_record rec = { .type = REC_SAMPLE };
	char msg[256] = "", want[128];
	uint64_t at = seen.offset;

	rec.sample.sample.seq = 1;
	cr_assert_eq(feed(rp, &rec, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "SAMPLE record at byte offset %" PRIu64 " inside an attach run", at);
	cr_assert_str_eq(msg, want);
	attach_replay__free(rp);
}

/* a replay freed before its ATTACH_END (a file cut inside the run) frees its run too */
Test(attach_replay, a_replay_freed_before_its_end_takes_its_run_with_it)
{
	struct attach_replay *rp = begin(&opts);
	struct wp_event evs[7];

	name_threads(rp);
	wakeup_records(T0, 7, 7, evs);
	answer(rp, PROC, 7, FD_KIND_PIPE);
	for (int i = 0; i < 7; i++)
		event(rp, evs[i]);
	attach_replay__free(rp);
	cr_assert_null(seen.run, "never handed over");
	attach_replay__free(NULL);
}
