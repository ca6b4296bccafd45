// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_recording.c - an attach run in a record file: a run written
 * through its analysis's tap (attach_recording_tap) reports, once replayed,
 * exactly as it did live; the fd answers come from the file, not from
 * /proc; ATTACH_BEGIN and ATTACH_END carry the targets and the end whole; a
 * damaged recording replays or fails in one line. The reader's checks of
 * the attach records are in test_rec_reader.c; what the binary makes of it
 * is in system/test_attach_record.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include "attach_recording.h"
#include "attach_replay.h"
#include "events.h"
#include "rec_reader.h"
#include "recfile.h"
#include "recorder.h"
#include "replay.h"
#include "text_attach.h"

#define WAKER		900001u
#define WAKEE		900002u		/* woken through the eventfd */
#define READER		900003u		/* woken through the pipe */
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		1000000000ull
#define SPAN		20000ull	/* one wakeup's records lie within this */
#define WAKEUPS		40

TestSuite(attach_recording);

/* ---------------------------------------------------------------- a live run, recorded */

/*
 * The test process stands for the traced one, its fds real. The kernel
 * side says what each is in its records; a run as format 10 made it
 * (@asks_proc) has them answered as /proc did then, by a lookup.
 */
struct live {
	uint32_t tgid;
	int efd;
	int pipe_fds[2];
	bool asks_proc;
	char *argv[4];
	struct attach_session_opts targets;
	struct attach_session_result res;
};

static void live_init(struct live *l)
{
	memset(l, 0, sizeof(*l));
	l->tgid = (uint32_t)getpid();
	l->efd = eventfd(0, EFD_CLOEXEC);
	cr_assert_geq(l->efd, 0);
	cr_assert_eq(pipe(l->pipe_fds), 0);
	l->argv[0] = "consumer";
	l->argv[1] = "--fast";
	l->argv[2] = "";
	l->argv[3] = NULL;
	l->targets = (struct attach_session_opts){ .argv = l->argv, .ringbuf_bytes = 1u << 20, .timeout_ms = 60000 };
	snprintf(l->res.meta.version, sizeof(l->res.meta.version), "test");
	snprintf(l->res.meta.kernel, sizeof(l->res.meta.kernel), "6.18.0");
	snprintf(l->res.meta.machine, sizeof(l->res.meta.machine), "x86_64");
	snprintf(l->res.meta.hostname, sizeof(l->res.meta.hostname), "host");
	l->res.meta.nr_cpus = 2;
	l->res.meta.started_unix_ns = 1700000000000000000ull;
	l->res.trace_start_ns = T0 - 5000;
}

/* kind_of - what @fd of @l is: the eventfd, or a pipe's end */
static enum fd_kind kind_of(const struct live *l, int fd)
{
	return fd == l->efd ? FD_KIND_EVENTFD : FD_KIND_PIPE;
}

/* proc_lookup - a format 10 run's lookup, as /proc answered it for the live fds */
static enum fd_kind proc_lookup(uint32_t tgid, int fd, void *ctx)
{
	const struct live *l = ctx;

	return tgid == l->tgid && (fd == l->efd || fd == l->pipe_fds[0]) ? kind_of(l, fd) : FD_KIND_UNKNOWN;
}

/* one wakeup: @wakee sleeps in read(@fd) at @t, WAKER's write(@fd) wakes it, it runs and returns */
static void wakeup(struct attach_analysis *a, const struct live *l, uint64_t t, uint32_t wakee, int fd)
{
	uint8_t kind = l->asks_proc ? FD_KIND_UNKNOWN : kind_of(l, fd);
	struct wp_event evs[] = {
		ev_switch(t, WAKEE_CPU, wakee, 0, 1, 0),
		ev_block(t, WAKEE_CPU, wakee, SYS_read, (uint64_t)fd, 0, t - 500),
		ev_waker_syscall(t + 10000, WAKER_CPU, WAKER, l->tgid, wakee, SYS_write, (uint64_t)fd, 0, t + 9700),
		ev_waking(t + 10000, WAKER_CPU, WAKER, wakee, WAKEE_CPU, t + 100),
		ev_wakeup(t + 10800, WAKEE_CPU, 0, wakee, WAKEE_CPU),
		with_next_tgid(with_next_comm(ev_switch(t + 14000, WAKEE_CPU, 0, wakee, 0, 0), "consumer"), l->tgid),
		ev_sys_exit(t + 14700 + (t / SPAN % 7) * 300, WAKEE_CPU, wakee, SYS_read, 8),
	};

	evs[1].block.fd_kind = kind;
	evs[2].waker.fd_kind = kind;
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		attach_analysis__event(a, &evs[i]);
}

/* a run being recorded: the analysis, with the tap a live run with record -o has, and its text report */
struct recording_run {
	struct attach_analysis *a;
	struct recorder *rec;
	FILE *f;		/* the recording, into the caller's buffer */
	FILE *out;		/* the text report */
	char *text;
	size_t text_len;
};

/* recording_begin - @l's run, its analysis as @ao says, recorded into @file */
static void recording_begin(struct recording_run *r, struct live *l, struct buf *file, struct attach_analysis_opts ao)
{
	memset(r, 0, sizeof(*r));
	r->f = open_memstream(&file->data, &file->len);
	r->out = open_memstream(&r->text, &r->text_len);
	cr_assert(r->f && r->out);
	r->rec = recorder__new(r->f);
	cr_assert_not_null(r->rec);
	/* as outputs__begin_attach() routes a live run with record -o */
	ao.tap = &attach_recording_tap;
	ao.tap_ctx = r->rec;
	r->a = attach_analysis__new(&ao);
	cr_assert_not_null(r->a);
	attach_analysis__begin(r->a, &l->targets, &l->res);
}

/* recording_end - the command exits, the run ends and is reported and its recording finished; the report */
static char *recording_end(struct recording_run *r, struct live *l)
{
	l->res.trace_end_ns = T0 + WAKEUPS * SPAN;
	attach_analysis__advance(r->a, l->res.trace_end_ns, 0);
	l->res.command_pid = 4242;
	l->res.command_exited = true;
	snprintf(l->res.command_exit, sizeof(l->res.command_exit), "exited with status 0");
	attach_analysis__end(r->a, &l->res);
	text_attach__print_text(r->out, &(struct attach_report){
					.targets = &l->targets,
					.run = &l->res,
					.counters = attach_analysis__counters(r->a),
					.agg = r->a->agg,
					.tids_left_out = r->a->tids_left_out,
					.pairs = 10,
				});
	cr_assert_eq(recorder__finish(r->rec), 0);
	fclose(r->f);
	fclose(r->out);
	attach_analysis__free(r->a);
	return r->text;
}

/* record_run - a run of WAKEUPS wakeups, each through the eventfd or the pipe, into @file; its live report */
static char *record_run(struct live *l, struct buf *file)
{
	struct recording_run r;
	struct wp_event name_waker = with_next_tgid(with_next_comm(ev_switch(T0 - 2000, WAKER_CPU, 0, WAKER, 0, 0),
								   "producer"), l->tgid);

	recording_begin(&r, l, file, (struct attach_analysis_opts){ .outliers = 2,
								    .fd_kind = l->asks_proc ? proc_lookup : NULL,
								    .fd_kind_ctx = l });
	attach_analysis__event(r.a, &name_waker);
	for (uint64_t i = 0; i < WAKEUPS; i++) {
		uint64_t t = T0 + i * SPAN;

		if (i % 4 == 3)
			wakeup(r.a, l, t, READER, l->pipe_fds[0]);
		else
			wakeup(r.a, l, t, WAKEE, l->efd);
		if (i % 5 == 4)
			attach_analysis__advance(r.a, t + SPAN, 0);
	}
	return recording_end(&r, l);
}

/* ---------------------------------------------------------------- its replay */

struct replayed {
	struct attach_replay_run *run;
	const int32_t *tids;
	uint32_t nr_tids;
};

static int keep_run(struct attach_replay_run *run, void *ctx)
{
	struct replayed *r = ctx;

	cr_assert_null(r->run, "one run");
	r->run = run;
	return 0;
}

/* replay_report - @data replayed as `wakeprobe report` does, with --tid @tids; its text, or NULL and @msg */
static char *replay_report(const char *data, size_t len, const int32_t *tids, uint32_t nr_tids, uint64_t *unanswered,
			   char *msg, size_t msglen)
{
	struct attach_report report;
	struct replayed r = { .tids = tids, .nr_tids = nr_tids };
	struct attach_replay_opts aro = {
		.analysis = { .outliers = 2, .tids = tids, .nr_tids = nr_tids },
		.run_done = keep_run,
		.ctx = &r,
	};
	struct replay_opts ro = { .attach = &aro };
	FILE *in = fmemopen((void *)data, len, "rb");
	char *text = NULL;
	size_t text_len = 0;
	FILE *out;
	int err;

	cr_assert_not_null(in);
	err = replay__file(in, "test.wpr", &ro, msg, msglen);
	fclose(in);
	if (err) {
		attach_replay_run__free(r.run);
		return NULL;
	}
	cr_assert_not_null(r.run, "the run was handed over");
	attach_run__report(&r.run->run, &(struct attach_view){ .tids = tids, .nr_tids = nr_tids, .pairs = 10 }, &report);
	out = open_memstream(&text, &text_len);
	text_attach__print_text(out, &report);
	fclose(out);
	if (unanswered)
		*unanswered = r.run->fd_unanswered;
	attach_replay_run__free(r.run);
	return text;
}

/* first_difference - where @a and @b part, for a message */
static size_t first_difference(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	return i;
}

/* drop_records - @file without its records of type @type; how many there were */
static size_t drop_records(struct buf *file, enum rec_type type)
{
	size_t in = REC_FILE_HEADER_SIZE, out = REC_FILE_HEADER_SIZE, dropped = 0;

	while (in < file->len) {
		struct rec_header h;
		size_t n;

		memcpy(&h, file->data + in, sizeof(h));
		n = sizeof(h) + h.length;
		if (h.type == type)
			dropped++;
		else
			memmove(file->data + out, file->data + in, n), out += n;
		in += n;
	}
	file->len = out;
	return dropped;
}

Test(attach_recording, a_recorded_run_replays_into_the_live_report_byte_for_byte)
{
	struct live l;
	struct buf file = { 0 };
	char msg[512] = "", *live, *replayed;
	uint64_t unanswered = 99;
	size_t at;

	live_init(&l);
	live = record_run(&l, &file);
	cr_assert(strstr(live, "via eventfd write -> read"), "the records named the eventfd:\n%s", live);
	cr_assert_eq(drop_records(&file, REC_FD_KIND), 0, "nothing was asked");
	cr_assert(strstr(live, "via pipe write -> read"), "... and the pipe:\n%s", live);
	cr_assert(strstr(live, "attached to command 'consumer --fast ' (pid 4242, exited with status 0)"), "%s", live);
	/* what the fds were is the recording's to say now: /proc no longer knows them */
	close(l.efd);
	close(l.pipe_fds[0]);
	close(l.pipe_fds[1]);
	replayed = replay_report(file.data, file.len, NULL, 0, &unanswered, msg, sizeof(msg));
	cr_assert_not_null(replayed, "%s", msg);
	at = first_difference(live, replayed);
	cr_assert_str_eq(replayed, live, "the replay differs from byte %zu: '%.80s' vs live '%.80s'", at, replayed + at,
			 live + at);
	cr_assert_eq(unanswered, 0, "every lookup of the replay found the live answer");
	free(live);
	free(replayed);
	free(file.data);
}

/*
 * record_lean_run - a lean run of WAKEUPS wakeups through the eventfd,
 * named from both ends, every eighth slow enough to bring two flight
 * records of its CPU, into @file; its live report
 */
static char *record_lean_run(struct live *l, struct buf *file)
{
	struct recording_run r;
	struct wp_event names[] = {
		ev_lean_name(T0 - 2000, WAKER_CPU, WAKER, l->tgid, "producer", WP_LEAN_TRACKED),
		ev_lean_name(T0 - 1000, WAKEE_CPU, WAKEE, l->tgid, "consumer", WP_LEAN_TRACKED),
	};

	l->targets.lean = true;
	l->res.lean_flight_ns[WP_SLOW_THREAD] = 12000;
	l->res.lean.woke_running = 4;
	recording_begin(&r, l, file, (struct attach_analysis_opts){ .outliers = 2, .lean = true });
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		attach_analysis__event(r.a, &names[i]);
	for (uint64_t i = 0; i < WAKEUPS; i++) {
		uint64_t t = T0 + i * SPAN, end = t + 9000 + (i % 8 == 7 ? 6000 : 0);
		struct wp_event w = ev_lean(end, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, t, t + 2000, 0), n;

		n = ev_lean_names(&w, WP_WAKER_SYSCALL, SYS_write, (uint64_t)l->efd, 0, 1, SYS_read, (uint64_t)l->efd, 0);
		n.lean_names.waker_fd_kind = FD_KIND_EVENTFD;
		n.lean_names.wait_fd_kind = FD_KIND_EVENTFD;
		if (i % 8 == 7) {
			struct wp_event flight[] = {
				ev_idle_exit(t + 1500, WAKEE_CPU, t - 3000),
				ev_switch(end, WAKEE_CPU, 0, WAKEE, 0, 0),
			};

			for (size_t k = 0; k < 2; k++)
				attach_analysis__event(r.a, &flight[k]);
			w.lean.flags |= 2 << WP_LEAN_FLIGHT_SHIFT;
		}
		attach_analysis__event(r.a, &n);
		attach_analysis__event(r.a, &w);
		if (i % 5 == 4)
			attach_analysis__advance(r.a, t + SPAN, 0);
	}
	return recording_end(&r, l);
}

/*
 * A lean run, recorded: its wakeups, their names from both ends, the
 * flight records the slow ones brought and its lean counters replay into
 * the live report byte for byte.
 */
Test(attach_recording, a_recorded_lean_run_replays_into_the_live_report_byte_for_byte)
{
	struct live l;
	struct buf file = { 0 };
	char msg[512] = "", *live, *replayed;
	size_t at;

	live_init(&l);
	live = record_lean_run(&l, &file);
	cr_assert(strstr(live, "  tracing    the lean engine"), "%s", live);
	cr_assert(strstr(live, "via eventfd write -> read"), "named from both ends:\n%s", live);
	cr_assert(strstr(live, "Where the time of the 5 slow wakeups the flight recorder explained went (of 40 "
			       "complete"), "%s", live);
	cr_assert(strstr(live, "not recorded: 4"), "the lean counters:\n%s", live);
	close(l.efd);
	close(l.pipe_fds[0]);
	close(l.pipe_fds[1]);
	replayed = replay_report(file.data, file.len, NULL, 0, NULL, msg, sizeof(msg));
	cr_assert_not_null(replayed, "%s", msg);
	at = first_difference(live, replayed);
	cr_assert_str_eq(replayed, live, "the replay differs from byte %zu: '%.80s' vs live '%.80s'", at, replayed + at,
			 live + at);
	free(live);
	free(replayed);
	free(file.data);
}

/*
 * A run whose records do not say what an fd is (format 10) replays as it
 * ran from the answers its lookups wrote; without its FD_KIND records the
 * same file names no fd: the replay used the recorded answers, nothing else.
 */
Test(attach_recording, the_replay_answers_the_fd_lookups_from_the_recording)
{
	struct live l;
	struct buf file = { 0 }, copy;
	char msg[512] = "", *live, *replayed;
	uint64_t unanswered = 0;

	live_init(&l);
	l.asks_proc = true;
	live = record_run(&l, &file);
	cr_assert(strstr(live, "via eventfd write -> read"), "the lookups named the eventfd:\n%s", live);
	copy.len = file.len;
	copy.data = malloc(file.len);
	cr_assert_not_null(copy.data);
	memcpy(copy.data, file.data, file.len);
	replayed = replay_report(copy.data, copy.len, NULL, 0, &unanswered, msg, sizeof(msg));
	cr_assert_not_null(replayed, "%s", msg);
	cr_assert_str_eq(replayed, live);
	cr_assert_eq(unanswered, 0, "every lookup of the replay found the live answer");
	free(replayed);
	free(copy.data);
	cr_assert_geq(drop_records(&file, REC_FD_KIND), WAKEUPS, "a lookup or more per wakeup was written");
	replayed = replay_report(file.data, file.len, NULL, 0, &unanswered, msg, sizeof(msg));
	cr_assert_not_null(replayed, "%s", msg);
	cr_assert_gt(unanswered, 0);
	cr_assert_null(strstr(replayed, "via eventfd"), "%s", replayed);
	cr_assert_null(strstr(replayed, "via pipe"), "%s", replayed);
	cr_assert_str_neq(replayed, live);
	free(live);
	free(replayed);
	free(file.data);
}

Test(attach_recording, a_replay_with_tid_keeps_that_threads_wakeups_alone)
{
	struct live l;
	struct buf file = { 0 };
	char msg[512] = "", *live, *narrowed;
	const int32_t tids[] = { READER };

	live_init(&l);
	live = record_run(&l, &file);
	narrowed = replay_report(file.data, file.len, tids, 1, NULL, msg, sizeof(msg));
	cr_assert_not_null(narrowed, "%s", msg);
	cr_assert(strstr(narrowed, ", threads 900003\n"), "%s", narrowed);
	cr_assert(strstr(narrowed, "wakeups    10 of traced threads (--tid: 30 of other threads left out)"), "%s",
		  narrowed);
	cr_assert(strstr(narrowed, "via pipe write -> read"), "%s", narrowed);
	cr_assert_null(strstr(narrowed, "via eventfd"), "%s", narrowed);
	free(live);
	free(narrowed);
	free(file.data);
}

/* ---------------------------------------------------------------- ATTACH_BEGIN and ATTACH_END */

/* through_file - @payload of @type written and read back by the reader, inside an attach run */
static void read_back(const struct buf *file, enum rec_type type, struct rec_record *got)
{
	FILE *in = fmemopen(file->data, file->len, "rb");
	struct rec_reader *r = NULL;
	struct rec_record rec;
	char msg[256] = "";
	bool found = false;
	int err;

	cr_assert_eq(rec_reader__open(&r, in, msg, sizeof(msg)), 0, "%s", msg);
	while ((err = rec_reader__next(r, &rec, msg, sizeof(msg))) > 0)
		if (rec.type == type && !found) {
			*got = rec;
			found = true;
		}
	cr_assert_eq(err, 0, "%s", msg);
	cr_assert(found);
	rec_reader__free(r);
	fclose(in);
}

/* write_run - ATTACH_BEGIN from @o and @res, then ATTACH_END from @res */
static struct buf write_run(const struct attach_session_opts *o, const struct attach_session_result *res)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w = recorder__new(f);
	struct rec_attach_begin begin;
	struct rec_attach_end end;

	attach_recording__encode_begin(o, res, &begin);
	attach_recording__encode_end(res, &end);
	recorder__write(w, REC_ATTACH_BEGIN, &begin, sizeof(begin));
	recorder__write(w, REC_ATTACH_END, &end, sizeof(end));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	return b;
}

Test(attach_recording, the_pids_the_machine_and_the_end_read_back_as_written)
{
	static const int32_t pids[] = { 12, 4194304, 77 };
	struct attach_session_opts o = { .pids = pids, .nr_pids = 3, .duration_ms = 10000, .ringbuf_bytes = 4096 };
	struct attach_session_result res = { .trace_start_ns = 111, .trace_end_ns = 999, .drops_total = 7,
					     .missed_runs = 3, .targets_exited = 2, .descendants = 9,
					     .duration_reached = true };
	static struct attach_targets t;
	struct attach_session_result back;
	struct rec_record rec;
	struct buf b;

	snprintf(res.meta.hostname, sizeof(res.meta.hostname), "%s", "a-host-name-of-64-characters-is-the-most-uname-gives-0123456789");
	snprintf(res.meta.kernel, sizeof(res.meta.kernel), "6.18.0-rc1");
	snprintf(res.meta.machine, sizeof(res.meta.machine), "x86_64");
	snprintf(res.meta.version, sizeof(res.meta.version), "0.1.0");
	res.meta.nr_cpus = 96;
	res.meta.started_unix_ns = 1234567890123456789ull;
	res.counters.dropped[WP_EV_BLOCK] = 5;
	res.counters.dropped[WP_EV_SWITCH] = 2;
	res.counters.tracked_full = 1;
	b = write_run(&o, &res);

	memset(&back, 0xa5, sizeof(back));
	read_back(&b, REC_ATTACH_BEGIN, &rec);
	attach_recording__decode_begin(&rec.attach_begin, &t, &back);
	cr_assert_eq(t.opts.nr_pids, 3);
	cr_assert_eq(t.opts.pids[1], 4194304);
	cr_assert_eq(t.opts.pids[2], 77);
	cr_assert_null(t.opts.argv, "a --pid run has no command");
	cr_assert_eq(t.opts.duration_ms, 10000);
	cr_assert_eq(t.opts.ringbuf_bytes, 4096);
	cr_assert_str_eq(back.meta.hostname, res.meta.hostname);
	cr_assert_str_eq(back.meta.kernel, "6.18.0-rc1");
	cr_assert_str_eq(back.meta.version, "0.1.0");
	cr_assert_eq(back.meta.nr_cpus, 96);
	cr_assert_eq(back.meta.started_unix_ns, res.meta.started_unix_ns);
	cr_assert_eq(back.trace_start_ns, 111);

	read_back(&b, REC_ATTACH_END, &rec);
	attach_recording__decode_end(&rec.attach_end, &back);
	cr_assert_eq(back.trace_end_ns, 999);
	cr_assert_eq(back.drops_total, 7);
	cr_assert_eq(back.missed_runs, 3);
	cr_assert_eq(back.counters.dropped[WP_EV_BLOCK], 5);
	cr_assert_eq(back.counters.dropped[WP_EV_SWITCH], 2);
	cr_assert_eq(back.counters.tracked_full, 1);
	cr_assert_eq(back.targets_exited, 2);
	cr_assert_eq(back.descendants, 9);
	cr_assert(back.duration_reached);
	cr_assert_not(back.interrupted || back.timed_out || back.command_exited);
	cr_assert_eq(back.command_pid, 0);
	cr_assert_str_eq(back.command_exit, "");
	free(b.data);
}

/* how a run traced, read back: a lean one, its threshold the running p99, its softirqs kept (--softirqs) */
Test(attach_recording, the_way_a_run_traced_reads_back_as_written)
{
	static const int32_t pids[] = { 12 };
	struct attach_session_opts o = { .pids = pids, .nr_pids = 1, .lean = true, .lean_flight_adaptive = true,
					 .lean_softirqs = true };
	struct attach_session_result res = { 0 };
	static struct attach_targets t;
	struct attach_session_result back;
	struct rec_record rec;
	struct buf b;

	for (int i = 0; i < 2; i++) {
		b = write_run(&o, &res);
		read_back(&b, REC_ATTACH_BEGIN, &rec);
		attach_recording__decode_begin(&rec.attach_begin, &t, &back);
		cr_assert(t.opts.lean && t.opts.lean_flight_adaptive);
		cr_assert_eq(t.opts.lean_softirqs, o.lean_softirqs, "pass %d", i);
		cr_assert_not(t.opts.syscall_phases);
		free(b.data);
		o.lean_softirqs = false;
	}
	/* the full engine keeps no lean flag: it traces softirqs anyway, and its settled options ask for none */
	o = (struct attach_session_opts){ .pids = pids, .nr_pids = 1, .syscall_phases = true };
	b = write_run(&o, &res);
	read_back(&b, REC_ATTACH_BEGIN, &rec);
	cr_assert_eq(rec.attach_begin.flags, 0);
	free(b.data);
}

/* what stopped the run, and what the command left, read back; a version 5 file kept neither */
Test(attach_recording, the_signal_that_ended_a_run_and_the_processes_stopped_read_back)
{
	static char *argv[] = { "server", NULL };
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .trace_start_ns = 1, .trace_end_ns = 2, .command_pid = 9,
					     .interrupted = true, .stop_signal = SIGTERM, .others_stopped = 3 };
	struct attach_session_result back = { 0 };
	struct rec_attach_begin begin;
	struct rec_attach_end end;
	struct rec_record rec;
	struct buf b = write_run(&o, &res);
	uint32_t v5 = 5;
	struct recorder *w;
	FILE *f;

	read_back(&b, REC_ATTACH_END, &rec);
	attach_recording__decode_end(&rec.attach_end, &back);
	cr_assert(back.interrupted);
	cr_assert_eq(back.stop_signal, SIGTERM);
	cr_assert_eq(back.others_stopped, 3);
	free(b.data);

	/* version 5's ATTACH_END ended before them: the run reads as interrupted, by a signal not kept */
	cr_assert_eq(recording__payload_size(5, REC_ATTACH_END), offsetof(struct rec_attach_end, stop_signal));
	memset(&b, 0, sizeof(b));
	f = open_memstream(&b.data, &b.len);
	w = recorder__new(f);
	attach_recording__encode_begin(&o, &res, &begin);
	attach_recording__encode_end(&res, &end);
	recorder__write(w, REC_ATTACH_BEGIN, &begin, sizeof(begin));
	recorder__write(w, REC_ATTACH_END, &end, recording__payload_size(5, REC_ATTACH_END));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	memcpy(b.data + 8, &v5, sizeof(v5));
	memset(&back, 0, sizeof(back));
	read_back(&b, REC_ATTACH_END, &rec);
	attach_recording__decode_end(&rec.attach_end, &back);
	cr_assert(back.interrupted);
	cr_assert_eq(back.stop_signal, 0);
	cr_assert_eq(back.others_stopped, 0);
	free(b.data);
}

Test(attach_recording, a_command_line_keeps_its_arguments_whole_and_in_order_as_many_as_fit)
{
	static char long_arg[100][101], huge_name[5000];
	static char *argv[102];
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .command_pid = 31, .command_status = 3 << 8, .command_exited = true };
	static struct attach_targets t;
	struct attach_session_result back;
	struct rec_record rec;
	struct buf b;
	int i;

	snprintf(res.command_exit, sizeof(res.command_exit), "exited with status 3");
	for (i = 0; i < 100; i++) {
		memset(long_arg[i], 'a' + i % 26, 100);
		argv[i] = long_arg[i];
	}
	argv[100] = NULL;
	b = write_run(&o, &res);
	read_back(&b, REC_ATTACH_BEGIN, &rec);
	cr_assert_eq(rec.attach_begin.nr_args, 100);
	/* 101 bytes each with the NUL: 30 fit in REC_ARGS_LEN */
	cr_assert_eq(rec.attach_begin.nr_args_kept, REC_ARGS_LEN / 101);
	attach_recording__decode_begin(&rec.attach_begin, &t, &back);
	cr_assert_eq(t.nr_args, 100);
	for (i = 0; i < REC_ARGS_LEN / 101; i++)
		cr_assert_str_eq(t.opts.argv[i], long_arg[i], "argument %d", i);
	cr_assert_null(t.opts.argv[i], "the list ends after the last one kept");
	cr_assert_eq(t.opts.nr_pids, 0);
	read_back(&b, REC_ATTACH_END, &rec);
	attach_recording__decode_end(&rec.attach_end, &back);
	cr_assert_eq(back.command_pid, 31);
	cr_assert_eq(back.command_status, 3 << 8);
	cr_assert(back.command_exited);
	cr_assert_str_eq(back.command_exit, "exited with status 3");
	free(b.data);

	/* a name longer than the room is cut: a run always names its command */
	memset(huge_name, 'x', sizeof(huge_name) - 1);
	argv[0] = huge_name;
	argv[1] = "next";
	argv[2] = NULL;
	b = write_run(&o, &res);
	read_back(&b, REC_ATTACH_BEGIN, &rec);
	cr_assert_eq(rec.attach_begin.nr_args, 2);
	cr_assert_eq(rec.attach_begin.nr_args_kept, 1);
	attach_recording__decode_begin(&rec.attach_begin, &t, &back);
	cr_assert_eq(strlen(t.opts.argv[0]), REC_ARGS_LEN - 1);
	cr_assert_null(t.opts.argv[1]);
	free(b.data);
}
/* ---------------------------------------------------------------- damage */

/* damaged anywhere, an attach recording replays or fails with one line: never a crash (ASan runs this too) */
Test(attach_recording, a_damaged_attach_recording_replays_or_fails_cleanly, .timeout = 120)
{
	struct live l;
	struct buf file = { 0 };
	char msg[512], *live;
	size_t failed = 0;

	live_init(&l);
	live = record_run(&l, &file);
	srandom(7);
	for (int i = 0; i < 200; i++) {
		char *copy = malloc(file.len), *text;
		size_t at = (size_t)random() % file.len, cut = i % 3 ? file.len : (size_t)random() % file.len;

		memcpy(copy, file.data, file.len);
		copy[at] ^= (char)(1u << (random() % 8));
		msg[0] = '\0';
		text = replay_report(copy, cut, NULL, 0, NULL, msg, sizeof(msg));
		if (!text) {
			failed++;
			cr_assert(strstr(msg, "byte offset") || strstr(msg, "empty file"), "damage at %zu, cut at %zu: '%s'",
				  at, cut, msg);
			cr_assert_null(strchr(msg, '\n'));
		}
		free(text);
		free(copy);
	}
	cr_assert_geq(failed, 66, "every cut file fails: %zu of 200 did", failed);
	free(live);
	free(file.data);
}
