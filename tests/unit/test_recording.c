// SPDX-License-Identifier: GPL-2.0
/*
 * test_recording.c - the record file: written and read back, every kind of
 * damage rejected with its byte offset, the fixtures under tests/fixtures
 * replayed in process into their golden reports. What the binary makes of
 * them is in system/test_recording.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events.h"
#include "readback.h"
#include "rec_reader.h"
#include "recorder.h"
#include "recording.h"
#include "replay.h"
#include "run_recording.h"
#include "run_result.h"
#include "text_workload.h"

/* ---------------------------------------------------------------- a small synthetic recording */

struct buf {
	char *data;
	size_t len;
};

static struct rec_run_begin run_begin(void)
{
	struct rec_run_begin b;

	memset(&b, 0, sizeof(b));
	strcpy(b.workload, "eventfd");
	strcpy(b.summary, "a synthetic run");
	for (int i = 0; i < SYSCALL_LIST_MAX; i++)
		b.notify_syscalls.nr[i] = b.wait_syscalls.nr[i] = -1;
	b.notify_syscalls.nr[0] = 1;	/* write */
	b.wait_syscalls.nr[0] = 0;	/* read */
	b.match_fd = 1;
	b.traced = 1;
	b.samples = 2;
	b.interval_us = 1000;
	b.wakee_cpu = 1;
	b.nr_cpus = 2;
	strcpy(b.version, "test");
	strcpy(b.kernel, "6.18.0");
	strcpy(b.machine, "x86_64");
	strcpy(b.hostname, "host");
	b.trace_start_ns = 1000;
	return b;
}

/* write_small - one run of each record type into memory; @offsets gets each record's offset */
static struct buf write_small(uint64_t offsets[16], size_t *nr)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w;
	struct rec_run_begin rb = run_begin();
	struct rec_clock_pair cp = { .tsc = 123456, .mono_ns = 2000, .width = 40 };
	struct wp_event e = ev(3000, WP_EV_WAKING, 1, 42);
	struct rec_sample s = { .sample = { .seq = 1, .waker_tid = 42, .wakee_tid = 43 }, .t_notify_ns = 2900,
				.t_woken_ns = 5000 };
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = 3 };
	struct rec_advance adv = { .complete_ns = 4000, .drops = 0 };
	struct rec_run_end re;
	size_t n = 0;

	memset(&re, 0, sizeof(re));
	re.trace_end_ns = 9000;
	re.samples_sent = 1;
	strcpy(re.workload_exit, "exited with status 0");
	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_not_null(w);
#define PUT(type, payload)                                                       \
	do {                                                                     \
		offsets[n++] = recorder__bytes(w);                               \
		cr_assert_eq(recorder__write(w, type, &payload, sizeof(payload)), 0); \
	} while (0)
	PUT(REC_RUN_BEGIN, rb);
	PUT(REC_CLOCK_PAIR, cp);
	PUT(REC_FDS, fds);
	PUT(REC_EVENT, e);
	PUT(REC_SAMPLE, s);
	PUT(REC_ADVANCE, adv);
	PUT(REC_RUN_END, re);
#undef PUT
	offsets[n] = recorder__bytes(w);
	*nr = n;
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	cr_assert_eq(b.len, offsets[n], "the recorder counted %" PRIu64 " bytes, %zu were written", offsets[n],
		     b.len);
	return b;
}

/* read_all - read @len bytes of @data to the end; the first error's return value and message */
static int read_all(const char *data, size_t len, char *msg, size_t msglen, size_t *records)
{
	FILE *f = fmemopen((void *)data, len, "rb");
	struct rec_reader *r = NULL;
	struct rec_record rec;
	int err;

	cr_assert_not_null(f);
	*records = 0;
	err = rec_reader__open(&r, f, msg, msglen);
	while (!err && (err = rec_reader__next(r, &rec, msg, msglen)) > 0) {
		(*records)++;
		err = 0;
	}
	rec_reader__free(r);
	fclose(f);
	return err;
}

TestSuite(recording);

Test(recording, every_record_reads_back_as_written_with_its_offset)
{
	uint64_t offsets[16];
	size_t n, i = 0;
	struct buf b = write_small(offsets, &n);
	FILE *f = fmemopen(b.data, b.len, "rb");
	struct rec_reader *r;
	struct rec_record rec;
	char msg[256];
	static const enum rec_type want[] = { REC_RUN_BEGIN, REC_CLOCK_PAIR, REC_FDS, REC_EVENT,
					      REC_SAMPLE, REC_ADVANCE, REC_RUN_END };

	cr_assert_eq(memcmp(b.data, REC_MAGIC, 8), 0, "the file starts with the magic");
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	while (rec_reader__next(r, &rec, msg, sizeof(msg)) == 1) {
		cr_assert_lt(i, n);
		cr_assert_eq(rec.type, want[i], "record %zu is %s", i, recording__type_name(rec.type));
		cr_assert_eq(rec.offset, offsets[i]);
		switch (rec.type) {
		case REC_RUN_BEGIN:
			cr_assert_str_eq(rec.run_begin.workload, "eventfd");
			cr_assert_eq(rec.run_begin.trace_start_ns, 1000);
			break;
		case REC_CLOCK_PAIR:
			cr_assert_eq(rec.clock_pair.tsc, 123456);
			cr_assert_eq(rec.clock_pair.width, 40);
			break;
		case REC_EVENT:
			cr_assert_eq(rec.event.ts_ns, 3000);
			cr_assert_eq(rec.event.type, WP_EV_WAKING);
			break;
		case REC_SAMPLE:
			cr_assert_eq(rec.sample.sample.wakee_tid, 43);
			cr_assert_eq(rec.sample.t_woken_ns, 5000);
			break;
		case REC_RUN_END:
			cr_assert_str_eq(rec.run_end.workload_exit, "exited with status 0");
			break;
		default:
			break;
		}
		i++;
	}
	cr_assert_eq(i, n, "read %zu of %zu records", i, n);
	cr_assert_eq(rec_reader__next(r, &rec, msg, sizeof(msg)), 0, "a clean end stays clean");
	rec_reader__free(r);
	fclose(f);
	free(b.data);
}

Test(recording, a_file_cut_anywhere_is_an_error_naming_a_byte_offset)
{
	uint64_t offsets[16];
	size_t n, len, records;
	struct buf b = write_small(offsets, &n);
	char msg[256];

	for (len = 0; len < b.len; len++) {
		msg[0] = '\0';
		cr_assert_lt(read_all(b.data, len, msg, sizeof(msg), &records), 0, "cut at %zu bytes: accepted", len);
		cr_assert(strstr(msg, "byte offset") || strstr(msg, "empty file"), "cut at %zu: '%s'", len, msg);
		cr_assert_null(strchr(msg, '\n'), "one line");
	}
	/* a cut between records names the run left open */
	read_all(b.data, offsets[n - 1], msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "has no RUN_END"), "%s", msg);
	cr_assert_eq(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s", msg);
	cr_assert_eq(records, n);
	free(b.data);
}

/* a copy of the small file with @len bytes at @at replaced (no pointers: the cases cross processes) */
struct damage_case {
	char what[40];
	size_t record;		/* which record to damage (its header is at offsets[record]) */
	size_t at;		/* bytes into that record's header (8 = the payload's first byte) */
	uint8_t bytes[4];
	size_t len;
	char want[40];		/* in the message */
};

static struct damage_case damages[] = {
	{ "unknown record type", 1, 0, { 0x63, 0x00 }, 2, "unknown record type 99" },
	{ "record flags", 1, 2, { 0x01, 0x00 }, 2, "has flags 0x1" },
	{ "payload length too short", 1, 4, { 0x08, 0x00, 0x00, 0x00 }, 4, "says 8 bytes; it has 24" },
	{ "oversize payload length", 3, 4, { 0xff, 0xff, 0xff, 0x7f }, 4, "says 2147483647 bytes" },
	{ "event CPU out of range", 3, 8 + 12, { 0x00, 0x10, 0x00, 0x00 }, 4, "event CPU out of range" },
	{ "event type out of range", 3, 8 + 8, { 0x40, 0x00, 0x00, 0x00 }, 4, "event type out of range" },
	{ "wake target CPU out of range", 3, 8 + 24 + 4, { 0xff, 0xff, 0x00, 0x00 }, 4, "target CPU out of range" },
	{ "sample sequence 0", 4, 8, { 0, 0, 0, 0 }, 4, "sequence number 0" },
	{ "RUN_END relabelled RUN_BEGIN", 6, 0, { REC_RUN_BEGIN, 0 }, 2, "says 776 bytes; it has 432" },
};

ParameterizedTestParameters(recording, damage_anywhere_in_a_record_is_rejected_with_its_offset)
{
	return cr_make_param_array(struct damage_case, damages, sizeof(damages) / sizeof(damages[0]));
}

ParameterizedTest(struct damage_case *d, recording, damage_anywhere_in_a_record_is_rejected_with_its_offset)
{
	uint64_t offsets[16];
	size_t n, records;
	struct buf b = write_small(offsets, &n);
	char msg[256] = "", want_offset[64];

	memcpy(b.data + offsets[d->record] + d->at, d->bytes, d->len);
	cr_assert_lt(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s: accepted", d->what);
	cr_assert(strstr(msg, d->want), "%s: '%s' lacks '%s'", d->what, msg, d->want);
	snprintf(want_offset, sizeof(want_offset), "byte offset %" PRIu64, offsets[d->record]);
	cr_assert(strstr(msg, want_offset), "%s: '%s' lacks '%s'", d->what, msg, want_offset);
	cr_assert_eq(records, d->record, "%s: the records before it were read", d->what);
	free(b.data);
}

Test(recording, the_file_header_is_checked_field_by_field)
{
	uint64_t offsets[16];
	size_t n, records;
	struct buf b = write_small(offsets, &n);
	char msg[256], want[128];
	uint32_t v;

	b.data[0] = 'X';
	read_all(b.data, b.len, msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "bad magic at byte offset 0"), "%s", msg);
	b.data[0] = 'W';
	v = REC_VERSION + 1;
	memcpy(b.data + 8, &v, 4);
	read_all(b.data, b.len, msg, sizeof(msg), &records);
	snprintf(want, sizeof(want), "version %d at byte offset 8: this wakeprobe reads versions 1 to %d",
		 REC_VERSION + 1, REC_VERSION);
	cr_assert(strstr(msg, want), "%s", msg);
	v = 0;
	memcpy(b.data + 8, &v, 4);
	read_all(b.data, b.len, msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "version 0 at byte offset 8"), "%s", msg);
	v = REC_VERSION;
	memcpy(b.data + 8, &v, 4);
	v = 64;
	memcpy(b.data + 12, &v, 4);
	read_all(b.data, b.len, msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "header size 64 at byte offset 12"), "%s", msg);
	/* a file with a header and nothing else holds no run */
	v = REC_FILE_HEADER_SIZE;
	memcpy(b.data + 12, &v, 4);
	read_all(b.data, REC_FILE_HEADER_SIZE, msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "no run in the recording"), "%s", msg);
	free(b.data);
}

Test(recording, records_outside_a_run_are_rejected)
{
	uint64_t offsets[16];
	size_t n, records;
	struct buf b = write_small(offsets, &n);
	char msg[256];
	/* drop RUN_BEGIN: the file header, then the records from CLOCK_PAIR on */
	size_t cut = offsets[1] - offsets[0];
	char *data = malloc(b.len - cut);

	memcpy(data, b.data, offsets[0]);
	memcpy(data + offsets[0], b.data + offsets[1], b.len - offsets[1]);
	cr_assert_lt(read_all(data, b.len - cut, msg, sizeof(msg), &records), 0);
	cr_assert(strstr(msg, "record outside a run"), "%s", msg);
	cr_assert(strstr(msg, "byte offset 16"), "%s", msg);
	free(data);
	free(b.data);
}

Test(recording, a_run_that_begins_inside_another_is_rejected)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct rec_run_begin rb = run_begin();
	struct recorder *w = recorder__new(f);
	uint64_t second;
	size_t records;
	char msg[256], want[64];

	recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb));
	second = recorder__bytes(w);
	recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	cr_assert_lt(read_all(b.data, b.len, msg, sizeof(msg), &records), 0);
	snprintf(want, sizeof(want), "bad RUN_BEGIN record at byte offset %" PRIu64, second);
	cr_assert(strstr(msg, want) && strstr(msg, "its RUN_END is missing"), "%s", msg);
	free(b.data);
}

/* ---------------------------------------------------------------- fixtures and golden reports */

struct kept_runs {
	struct replay_run *runs[4];
	size_t n;
};

static int keep_run(struct replay_run *run, void *ctx)
{
	struct kept_runs *k = ctx;

	cr_assert_lt(k->n, 4);
	k->runs[k->n++] = run;
	return 0;
}

/* report_of - replay @data in process and print its report as `wakeprobe report` would */
static char *report_of(const char *data, size_t len, uint32_t outliers, uint64_t threshold_ns, char *msg,
		       size_t msglen, int *err)
{
	struct kept_runs k = { .n = 0 };
	struct replay_opts ro = { .analysis = { .outliers = outliers, .outlier_threshold_ns = threshold_ns },
				  .run_done = keep_run, .ctx = &k };
	FILE *in = fmemopen((void *)data, len, "rb");
	char *text = NULL;
	size_t text_len = 0;
	FILE *out = open_memstream(&text, &text_len);

	*err = replay__file(in, "fixture", &ro, msg, msglen);
	if (!*err && k.n == 1)
		text_workload__print_text(out, &k.runs[0]->cfg, &k.runs[0]->res);
	fclose(out);
	fclose(in);
	for (size_t i = 0; i < k.n; i++)
		free(k.runs[i]);
	return text;
}

struct fixture {
	char name[16];
	uint32_t outliers;
	uint64_t threshold_us;
	char golden[32];
};

static struct fixture fixtures[] = {
	{ "eventfd", 5, 0, "eventfd.txt" },	 { "eventfd", 2, 20, "eventfd.outliers-2.txt" },
	{ "cond", 5, 0, "cond.txt" },		 { "cond", 2, 20, "cond.outliers-2.txt" },
	{ "spin", 5, 0, "spin.txt" },		 { "spin", 2, 20, "spin.outliers-2.txt" },
	{ "untraced", 5, 0, "untraced.txt" },	 { "untraced", 2, 20, "untraced.outliers-2.txt" },
	{ "lost", 5, 0, "lost.txt" },		 { "lost", 2, 20, "lost.outliers-2.txt" },
};

ParameterizedTestParameters(recording, the_report_of_each_fixture_equals_its_golden_text)
{
	return cr_make_param_array(struct fixture, fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}

ParameterizedTest(struct fixture *fx, recording, the_report_of_each_fixture_equals_its_golden_text)
{
	char path[512], msg[512] = "";
	size_t len, golden_len;
	char *data, *golden, *text;
	int err;

	snprintf(path, sizeof(path), "%s/%s.wpr", fixtures_dir(), fx->name);
	data = read_file(path, &len);
	snprintf(path, sizeof(path), "%s/%s", fixtures_dir(), fx->golden);
	golden = read_file(path, &golden_len);
	text = report_of(data, len, fx->outliers, fx->threshold_us * 1000, msg, sizeof(msg), &err);
	cr_assert_eq(err, 0, "%s: %s", fx->name, msg);
	if (strcmp(text, golden)) {
		size_t i = 0;

		while (text[i] && text[i] == golden[i])
			i++;
		cr_assert_fail("%s differs from the report from byte %zu: '%.60s' vs golden '%.60s' "
			       "(if the report changed on purpose: scripts/update-golden.sh)",
			       fx->golden, i, text + i, golden + i);
	}
	free(text);
	free(golden);
	free(data);
}

/*
 * A recording damaged in place (bytes overwritten, not cut) may still read
 * as a recording with other numbers in it; whichever way, the replay ends
 * with a result or a one-line error, never a crash (the sanitizer build
 * runs this too).
 */
Test(recording, a_damaged_fixture_replays_or_fails_cleanly_never_crashes, .timeout = 120)
{
	char path[512], msg[512];
	size_t len, i, failed = 0;
	char *data;
	int err;

	snprintf(path, sizeof(path), "%s/eventfd.wpr", fixtures_dir());
	data = read_file(path, &len);
	srandom(1);
	for (i = 0; i < 300; i++) {
		char *copy = malloc(len);
		size_t at = (size_t)random() % len, cut = len;
		char *text;

		memcpy(copy, data, len);
		copy[at] ^= (char)(1u << (random() % 8));
		if (i % 3 == 0)
			cut = (size_t)random() % len;
		msg[0] = '\0';
		text = report_of(copy, cut, 5, 0, msg, sizeof(msg), &err);
		if (err) {
			failed++;
			cr_assert(strstr(msg, "byte offset"), "damage at %zu, cut at %zu: '%s'", at, cut, msg);
			cr_assert_null(strchr(msg, '\n'));
		}
		free(text);
		free(copy);
	}
	cr_assert_geq(failed, 100, "every cut file must fail: %zu of 300 did", failed);
	free(data);
}

/*
 * The fixtures are version 1 files, from before RUN_END had room for more
 * event types: their RUN_END reads into today's layout with every field
 * where it belongs, the new counters 0.
 */
Test(recording, a_version_1_run_end_reads_into_the_wider_layout)
{
	char path[PATH_MAX], msg[256] = "";
	struct rec_reader *r = NULL;
	struct rec_record *rec = malloc(sizeof(*rec));
	uint64_t by_type = 0;
	bool seen_end = false;
	FILE *in;
	int t;

	cr_assert_not_null(rec);
	snprintf(path, sizeof(path), "%s/lost.wpr", fixtures_dir());
	in = fopen(path, "rb");
	cr_assert_not_null(in, "%s: %s", path, strerror(errno));
	cr_assert_eq(rec_reader__open(&r, in, msg, sizeof(msg)), 0, "%s", msg);
	while (rec_reader__next(r, rec, msg, sizeof(msg)) > 0) {
		const struct rec_run_end *e = &rec->run_end;

		if (rec->type != REC_RUN_END)
			continue;
		seen_end = true;
		for (t = 0; t < WP_EV_TYPE_ROOM; t++)
			by_type += e->dropped[t];
		for (t = WP_EV_WAKER; t < WP_EV_TYPE_ROOM; t++)
			cr_assert_eq(e->dropped[t], 0, "type %d did not exist in version 1", t);
		/* lost.wpr was made with a ring buffer too small for its run */
		cr_assert_gt(e->drops_total, 0);
		cr_assert_eq(by_type, e->drops_total, "the drops by type add up to the total");
		cr_assert_neq(e->waker_tid, 0);
		cr_assert_neq(e->wakee_tid, 0);
		cr_assert_not(e->workload_failed);
		cr_assert(strstr(e->workload_exit, "exit"), "the exit text moved with the rest: '%s'",
			  e->workload_exit);
	}
	cr_assert_str_eq(msg, "", "%s", msg);
	cr_assert(seen_end);
	rec_reader__free(r);
	fclose(in);
	free(rec);
}

/* first_of - the first record of @type in @data, read back; false if there is none */
static bool first_of(const char *data, size_t len, enum rec_type type, struct rec_record *out)
{
	FILE *f = fmemopen((void *)data, len, "rb");
	struct rec_reader *r = NULL;
	char msg[256] = "";
	bool found = false;

	cr_assert_not_null(f);
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	while (!found && rec_reader__next(r, out, msg, sizeof(msg)) > 0)
		found = out->type == type;
	cr_assert_str_eq(msg, "", "%s", msg);
	rec_reader__free(r);
	fclose(f);
	return found;
}

Test(recording, a_new_tasks_wakeup_flag_is_kept_from_version_4_and_cleared_before_it)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct rec_run_begin rb = run_begin();
	struct wp_event e = ev(3000, WP_EV_WAKEUP, 1, 42);
	struct recorder *w;
	struct rec_record rec;
	uint32_t v3 = 3;

	rb.new_task = 1;
	e.wake.pid = 43;
	e.wake.flags = WP_WAKE_NEW;
	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_not_null(w);
	cr_assert_eq(recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb)), 0);
	cr_assert_eq(recorder__write(w, REC_EVENT, &e, sizeof(e)), 0);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);

	cr_assert(first_of(b.data, b.len, REC_RUN_BEGIN, &rec));
	cr_assert_eq(rec.run_begin.new_task, 1);
	cr_assert(first_of(b.data, b.len, REC_EVENT, &rec));
	cr_assert_eq(rec.event.wake.flags, WP_WAKE_NEW);
	/* the same bytes in a version 3 file were padding, which the BPF side never wrote */
	memcpy(b.data + 8, &v3, sizeof(v3));
	cr_assert(first_of(b.data, b.len, REC_RUN_BEGIN, &rec));
	cr_assert_eq(rec.run_begin.new_task, 0);
	cr_assert(first_of(b.data, b.len, REC_EVENT, &rec));
	cr_assert_eq(rec.event.wake.flags, 0);
	cr_assert_eq(rec.event.wake.pid, 43);
	free(b.data);
}

/* read_one_end - the RUN_END of @data, decoded into @res: 0, or the reader's error with @msg */
static int read_one_end(const char *data, size_t len, struct run_result *res, char msg[256])
{
	FILE *f = fmemopen((void *)data, len, "rb");
	struct rec_reader *r = NULL;
	struct rec_record rec;
	int err;

	cr_assert_not_null(f);
	msg[0] = '\0';
	cr_assert_eq(rec_reader__open(&r, f, msg, 256), 0, "%s", msg);
	while ((err = rec_reader__next(r, &rec, msg, 256)) > 0)
		if (rec.type == REC_RUN_END)
			run_recording__decode_end(&rec.run_end, res);
	rec_reader__free(r);
	fclose(f);
	return err;
}

Test(recording, the_signal_that_interrupted_a_run_is_kept_from_version_6)
{
	struct run_result res = { .interrupted = true, .stop_signal = SIGHUP }, back;
	struct rec_run_begin rb = run_begin();
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct rec_run_end e;
	struct recorder *w;
	uint32_t v5 = 5;
	char msg[256];

	cr_assert_not_null(f);
	w = recorder__new(f);
	run_recording__encode_end(&res, &e);
	cr_assert_eq(recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb)), 0);
	cr_assert_eq(recorder__write(w, REC_RUN_END, &e, sizeof(e)), 0);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);

	memset(&back, 0, sizeof(back));
	cr_assert_eq(read_one_end(b.data, b.len, &back, msg), 0, "%s", msg);
	cr_assert(back.interrupted);
	cr_assert_eq(back.stop_signal, SIGHUP);
	/* in a version 5 file that byte was padding: interrupted, by a signal not kept */
	memcpy(b.data + 8, &v5, sizeof(v5));
	memset(&back, 0, sizeof(back));
	cr_assert_eq(read_one_end(b.data, b.len, &back, msg), 0, "%s", msg);
	cr_assert(back.interrupted);
	cr_assert_eq(back.stop_signal, 0);
	/* version 6 has a signal exactly when the run was interrupted */
	memcpy(b.data + 8, &(uint32_t){ REC_VERSION }, sizeof(uint32_t));
	b.data[b.len - sizeof(e) + offsetof(struct rec_run_end, stop_signal)] = 0;
	cr_assert_lt(read_one_end(b.data, b.len, &back, msg), 0);
	cr_assert(strstr(msg, "bad RUN_END record") && strstr(msg, "signal out of range"), "%s", msg);
	free(b.data);
}
