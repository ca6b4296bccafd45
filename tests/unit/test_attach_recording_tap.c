// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_recording_tap.c - a live attach run written down through its
 * analysis's tap (attach_recording_tap): ATTACH_BEGIN first, then each
 * kernel record and watermark once the analysis took it in, each fd lookup
 * it made written just before it with /proc's answer (through a cache, as
 * the analysis asks), ATTACH_END last, once the analysis ended; with no
 * tap the inputs only go through, and the analysis keeps its own lookups.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include "attach_analysis.h"
#include "attach_recording.h"
#include "events.h"
#include "rec_reader.h"
#include "recfile.h"
#include "recorder.h"

#define WAKER		8001u
#define WAKEE		8002u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		1000000000ull
#define SPAN		20000ull

/* the test process stands for the traced one: its fds are real, and /proc answers for them */
static uint32_t self;
static char *argv[] = { "consumer", "--fast", NULL };
static const struct attach_session_opts targets = { .argv = argv, .ringbuf_bytes = 1u << 20, .timeout_ms = 5000 };

/* what the analysis handed over */
static struct attach_result results[8];
static size_t nr_results;
static size_t asked;		/* by the caller's own fd lookup */

static void setup(void)
{
	self = (uint32_t)getpid();
	nr_results = 0;
	asked = 0;
}

TestSuite(attach_recording_tap, .init = setup);

static void on_result(const struct attach_result *r, void *ctx)
{
	(void)ctx;
	cr_assert_lt(nr_results, 8);
	results[nr_results++] = *r;
}

static void put(struct attach_analysis *a, struct wp_event e)
{
	attach_analysis__event(a, &e);
}

/* a record of the test process's thread @tid switched in: it names its process */
static struct wp_event named(uint64_t t, uint32_t cpu, uint32_t tid, const char *comm)
{
	return with_next_tgid(with_next_comm(ev_switch(t, cpu, 0, tid, 0, 0), comm), self);
}

/* the records of a wakeup through @fd at @t: the wakee sleeps in read(), the waker's write() wakes it */
static void wakeup_records(uint64_t t, int fd, struct wp_event evs[7])
{
	evs[0] = ev_switch(t, WAKEE_CPU, WAKEE, 0, 1, 0);
	evs[1] = ev_block(t, WAKEE_CPU, WAKEE, SYS_read, (uint64_t)fd, 0, t - 500);
	evs[2] = ev_waker_syscall(t + 10000, WAKER_CPU, WAKER, self, WAKEE, SYS_write, (uint64_t)fd, 0, t + 9700);
	evs[3] = ev_waking(t + 10000, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, t + 100);
	evs[4] = ev_wakeup(t + 10800, WAKEE_CPU, 0, WAKEE, WAKEE_CPU);
	evs[5] = named(t + 14000, WAKEE_CPU, WAKEE, "consumer");
	evs[6] = ev_sys_exit(t + 14700, WAKEE_CPU, WAKEE, SYS_read, 8);
}

/* the run's start, as the session would have it */
static void started(struct attach_session_result *res)
{
	memset(res, 0, sizeof(*res));
	snprintf(res->meta.hostname, sizeof(res->meta.hostname), "live-host");
	res->meta.nr_cpus = 4;
	res->trace_start_ns = T0 - 5000;
}

/* read_records - every record of @b, in order, into @recs (at most @max): how many */
static size_t read_records(const struct buf *b, struct rec_record *recs, size_t max)
{
	FILE *in = fmemopen(b->data, b->len, "rb");
	struct rec_reader *r = NULL;
	char msg[256] = "";
	size_t n = 0;
	int err;

	cr_assert_not_null(in);
	cr_assert_eq(rec_reader__open(&r, in, msg, sizeof(msg)), 0, "%s", msg);
	while (n < max && (err = rec_reader__next(r, &recs[n], msg, sizeof(msg))) > 0)
		n++;
	cr_assert_lt(n, max);
	cr_assert_eq(err, 0, "the file reads whole: %s", msg);
	rec_reader__free(r);
	fclose(in);
	return n;
}

/* ---------------------------------------------------------------- no tap */

static enum fd_kind own_lookup(uint32_t tgid, int fd, void *ctx)
{
	(void)tgid;
	(void)fd;
	(void)ctx;
	asked++;
	return FD_KIND_TIMERFD;
}

Test(attach_recording_tap, without_a_tap_the_inputs_only_go_through_to_the_analysis)
{
	struct attach_analysis *a;
	struct attach_analysis_opts ao = { .fd_kind = own_lookup, .on_result = on_result };
	struct attach_session_result res;
	struct wp_event evs[7];

	a = attach_analysis__new(&ao);
	cr_assert_not_null(a);
	cr_assert_null(a->opts.tap);
	started(&res);
	attach_analysis__begin(a, &targets, &res);
	put(a, named(T0 - 2000, WAKER_CPU, WAKER, "producer"));
	wakeup_records(T0, 5, evs);
	for (int i = 0; i < 7; i++)
		put(a, evs[i]);
	attach_analysis__advance(a, T0 + SPAN, 2);
	res.drops_total = 4;
	attach_analysis__end(a, &res);
	cr_assert_eq(attach_analysis__counters(a)->events, 8);
	cr_assert_eq(attach_analysis__counters(a)->drops_seen, 4, "the end's drops reached it");
	cr_assert_eq(nr_results, 1);
	cr_assert_eq(results[0].waker.fd_kind, FD_KIND_TIMERFD, "answered by the caller's lookup");
	cr_assert_eq(asked, 2, "the pairing's two: the records do not say what the fd is");
	attach_analysis__free(a);
}

/* ---------------------------------------------------------------- the recording's tap */

/* an older recording's answer to a lookup: the records of format 10 do not say what an fd is */
static enum fd_kind eventfd_lookup(uint32_t tgid, int fd, void *ctx)
{
	(void)tgid;
	(void)fd;
	(void)ctx;
	asked++;
	return FD_KIND_EVENTFD;
}

Test(attach_recording_tap, each_input_is_written_after_the_lookups_it_made_between_begin_and_end)
{
	struct attach_analysis *a;
	struct attach_analysis_opts ao = { .fd_kind = eventfd_lookup, .on_result = on_result };
	struct attach_session_result res;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *rec;
	static struct rec_record recs[32];
	static struct attach_targets t;
	struct attach_session_result back;
	struct wp_event evs[9];
	int efd = eventfd(0, EFD_CLOEXEC);
	/* the records the file holds, in order */
	static const enum rec_type want[] = {
		REC_ATTACH_BEGIN, REC_EVENT, REC_EVENT, REC_EVENT, REC_EVENT, REC_EVENT, REC_EVENT, REC_EVENT,
		REC_EVENT, REC_EVENT, REC_FD_KIND, REC_FD_KIND, REC_ADVANCE, REC_ATTACH_END,
	};
	size_t n, k = 0;

	cr_assert(f && efd >= 0);
	rec = recorder__new(f);
	ao.tap = &attach_recording_tap;
	ao.tap_ctx = rec;
	a = attach_analysis__new(&ao);
	cr_assert_not_null(a);
	started(&res);
	attach_analysis__begin(a, &targets, &res);
	evs[0] = named(T0 - 2000, WAKER_CPU, WAKER, "producer");
	evs[1] = named(T0 - 1000, WAKEE_CPU, WAKEE, "consumer");
	wakeup_records(T0, efd, evs + 2);
	for (int i = 0; i < 9; i++)
		put(a, evs[i]);
	attach_analysis__advance(a, T0 + SPAN, 3);
	res.trace_end_ns = T0 + SPAN;
	res.drops_total = 3;
	res.command_pid = 77;
	snprintf(res.command_exit, sizeof(res.command_exit), "exited with status 0");
	attach_analysis__end(a, &res);
	cr_assert_eq(recorder__finish(rec), 0);
	fclose(f);
	cr_assert_eq(nr_results, 1);
	cr_assert_eq(results[0].waker.fd_kind, FD_KIND_EVENTFD, "the analysis had the answers written");
	cr_assert_eq(results[0].wait.fd_kind, FD_KIND_EVENTFD);

	n = read_records(&b, recs, 32);
	cr_assert_eq(n, sizeof(want) / sizeof(want[0]), "%zu records", n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(recs[i].type, want[i], "record %zu is %s", i, recording__type_name(recs[i].type));
	attach_recording__decode_begin(&recs[0].attach_begin, &t, &back);
	cr_assert_str_eq(t.opts.argv[0], "consumer");
	cr_assert_str_eq(t.opts.argv[1], "--fast");
	cr_assert_eq(t.opts.timeout_ms, 5000);
	cr_assert_str_eq(back.meta.hostname, "live-host");
	cr_assert_eq(back.trace_start_ns, T0 - 5000);
	for (size_t i = 1; i < n; i++) {
		if (recs[i].type == REC_EVENT) {
			cr_assert_eq(memcmp(&recs[i].event, &evs[k], sizeof(evs[k])), 0, "event %zu", k);
			k++;
		} else if (recs[i].type == REC_FD_KIND) {
			cr_assert_eq(recs[i].fd_kind.tgid, self);
			cr_assert_eq(recs[i].fd_kind.fd, efd);
			cr_assert_eq(recs[i].fd_kind.kind, FD_KIND_EVENTFD);
		}
	}
	cr_assert_eq(k, 9);
	cr_assert_eq(recs[12].advance.complete_ns, T0 + SPAN);
	cr_assert_eq(recs[12].advance.drops, 3);
	attach_recording__decode_end(&recs[13].attach_end, &back);
	cr_assert_eq(back.command_pid, 77);
	cr_assert_eq(back.drops_total, 3);
	cr_assert_str_eq(back.command_exit, "exited with status 0");
	close(efd);
	attach_analysis__free(a);
	free(b.data);
}

/* since format version 11 the records say what the fd was, as the kernel found it: nothing is asked nor written */
Test(attach_recording_tap, a_kind_the_records_carry_is_neither_asked_nor_written)
{
	struct attach_analysis *a;
	struct attach_analysis_opts ao = { .fd_kind = eventfd_lookup, .on_result = on_result };
	struct attach_session_result res;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *rec;
	static struct rec_record recs[32];
	struct wp_event evs[7];
	size_t n;

	cr_assert_not_null(f);
	rec = recorder__new(f);
	ao.tap = &attach_recording_tap;
	ao.tap_ctx = rec;
	a = attach_analysis__new(&ao);
	cr_assert_not_null(a);
	started(&res);
	attach_analysis__begin(a, &targets, &res);
	put(a, named(T0 - 2000, WAKER_CPU, WAKER, "producer"));
	wakeup_records(T0, 5, evs);
	evs[1].block.fd_kind = FD_KIND_UNIX_DGRAM;
	evs[2].waker.fd_kind = FD_KIND_UNIX_DGRAM;
	for (int i = 0; i < 7; i++)
		put(a, evs[i]);
	res.trace_end_ns = T0 + SPAN;
	attach_analysis__end(a, &res);
	cr_assert_eq(recorder__finish(rec), 0);
	fclose(f);
	cr_assert_eq(nr_results, 1);
	cr_assert_eq(asked, 0);
	cr_assert_str_eq(results[0].mechanism, "unix dgram socket write -> read");
	n = read_records(&b, recs, 32);
	for (size_t i = 0; i < n; i++)
		cr_assert_neq(recs[i].type, REC_FD_KIND, "record %zu", i);
	attach_analysis__free(a);
	free(b.data);
}

/* the end hands over what is open before ATTACH_END: the lookups of that pairing come before it too */
Test(attach_recording_tap, the_end_ends_the_analysis_and_its_lookups_precede_attach_end)
{
	struct attach_analysis *a;
	struct attach_analysis_opts ao = { .fd_kind = eventfd_lookup, .on_result = on_result };
	struct attach_session_result res;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *rec;
	static struct rec_record recs[32];
	struct wp_event evs[7];
	int efd = eventfd(0, EFD_CLOEXEC);
	size_t n;

	cr_assert(f && efd >= 0);
	rec = recorder__new(f);
	ao.tap = &attach_recording_tap;
	ao.tap_ctx = rec;
	a = attach_analysis__new(&ao);
	cr_assert_not_null(a);
	started(&res);
	attach_analysis__begin(a, &targets, &res);
	put(a, named(T0 - 2000, WAKER_CPU, WAKER, "producer"));
	wakeup_records(T0, efd, evs);
	for (int i = 0; i < 7; i++)
		put(a, evs[i]);
	cr_assert_eq(nr_results, 0, "no watermark yet");
	res.trace_end_ns = T0 + SPAN;
	attach_analysis__end(a, &res);
	cr_assert_eq(nr_results, 1, "the end paired it");
	cr_assert_eq(recorder__finish(rec), 0);
	fclose(f);

	n = read_records(&b, recs, 32);
	cr_assert_geq(n, 4);
	cr_assert_eq(recs[n - 1].type, REC_ATTACH_END);
	cr_assert_eq(recs[n - 2].type, REC_FD_KIND, "the wakee's fd, asked as the end paired it");
	cr_assert_eq(recs[n - 3].type, REC_FD_KIND, "the waker's");
	cr_assert_eq(recs[n - 4].type, REC_EVENT);
	close(efd);
	attach_analysis__free(a);
	free(b.data);
}
