// SPDX-License-Identifier: GPL-2.0
/*
 * test_rec_reader.c - the record file read back: the file header, every
 * record's type, flags and length, every field that later code indexes with
 * or switches on, and the order of records in a run, each checked with the
 * problem and its byte offset named in one line; a cut file is an error
 * wherever it is cut; records of older versions read into today's layouts.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_recording.h"
#include "events.h"
#include "readback.h"
#include "rec_reader.h"
#include "recfile.h"
#include "recorder.h"
#include "recording.h"

TestSuite(rec_reader);

/* ---------------------------------------------------------------- a workload run's records */

Test(rec_reader, a_file_cut_anywhere_is_an_error_naming_a_byte_offset)
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
	{ "RUN_END relabelled RUN_BEGIN", 6, 0, { REC_RUN_BEGIN, 0 }, 2, "says 824 bytes; it has 432" },
	{ "record type 0", 2, 0, { 0x00, 0x00 }, 2, "unknown record type 0 at" },
	{ "record type past the last", 2, 0, { REC_TYPE_MAX, 0x00 }, 2, "unknown record type 11 at" },
};

ParameterizedTestParameters(rec_reader, damage_anywhere_in_a_record_is_rejected_with_its_offset)
{
	return cr_make_param_array(struct damage_case, damages, sizeof(damages) / sizeof(damages[0]));
}

ParameterizedTest(struct damage_case *d, rec_reader, damage_anywhere_in_a_record_is_rejected_with_its_offset)
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

Test(rec_reader, the_file_header_is_checked_field_by_field)
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

Test(rec_reader, records_outside_a_run_are_rejected)
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

Test(rec_reader, a_run_that_begins_inside_another_is_rejected)
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

/*
 * The fixtures are version 1 files, from before RUN_END had room for more
 * event types: their RUN_END reads into today's layout with every field
 * where it belongs, the new counters 0.
 */
Test(rec_reader, a_version_1_run_end_reads_into_the_wider_layout)
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

Test(rec_reader, a_new_tasks_wakeup_flag_is_kept_from_version_4_and_cleared_before_it)
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


/* ---------------------------------------------------------------- an attach run's records */

Test(rec_reader, the_small_file_reads_whole_and_every_cut_of_it_names_a_byte_offset)
{
	uint64_t offsets[8];
	struct buf b = write_attach_small(offsets, REC_VERSION);
	size_t records, len;
	char msg[256] = "";

	cr_assert_eq(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s", msg);
	cr_assert_eq(records, 5);
	for (len = 0; len < b.len; len++) {
		msg[0] = '\0';
		cr_assert_lt(read_all(b.data, len, msg, sizeof(msg), &records), 0, "cut at %zu: accepted", len);
		cr_assert(strstr(msg, "byte offset") || strstr(msg, "empty file"), "cut at %zu: '%s'", len, msg);
	}
	read_all(b.data, offsets[4], msg, sizeof(msg), &records);
	cr_assert(strstr(msg, "the run that begins at byte offset 16 has no ATTACH_END"), "%s", msg);
	free(b.data);
}

struct attach_damage_case {
	char what[48];
	size_t record;		/* which record (its header at offsets[record]) */
	size_t at;		/* bytes into it: 8 is the payload's first */
	uint8_t bytes[8];
	size_t len;		/* of bytes[]; with fill, this many bytes of fill */
	char fill;
	char want[64];
};

static struct attach_damage_case attach_damages[] = {
	{ "fd kind out of range", 1, 8 + 8, { NR_FD_KINDS, 0, 0, 0 }, 4, 0, "fd kind out of range" },
	{ "a pid and a command", 0, 8 + 0, { 1, 0, 0, 0, 9, 0, 0, 0 }, 8, 0, "neither pids nor a command, or both" },
	{ "more pids than a run traces", 0, 8 + 0, { 65, 0, 0, 0 }, 4, 0, "more pids than a run traces" },
	{ "more arguments kept than given", 0, 8 + 264, { 3, 0, 0, 0 }, 4, 0, "command arguments out of range" },
	{ "arguments not terminated", 0, 8 + 520, { 0 }, REC_ARGS_LEN, 'x', "command arguments out of range" },
	{ "host name not terminated", 0, 8 + 454, { 0 }, 65, 'x', "unterminated name" },
	{ "ATTACH_END flag", 4, 8 + 172, { 2 }, 1, 0, "flag out of range" },
	{ "command pid negative", 4, 8 + 160, { 0xff, 0xff, 0xff, 0xff }, 4, 0, "command pid out of range" },
	{ "exit text not terminated", 4, 8 + 176, { 0 }, REC_EXIT_LEN, 'x', "unterminated text" },
	{ "FD_KIND flags", 1, 2, { 1, 0 }, 2, 0, "has flags 0x1" },
	{ "FD_KIND length", 1, 4, { 16, 0, 0, 0 }, 4, 0, "FD_KIND record at byte offset" },
	{ "FD_KIND relabelled CLOCK_PAIR", 1, 0, { REC_CLOCK_PAIR, 0 }, 2, 0, "says 12 bytes; it has 24" },
	{ "ATTACH_END relabelled RUN_END", 4, 0, { REC_RUN_END, 0 }, 2, 0, "says 616 bytes; it has 824" },
	{ "interrupted by no signal", 4, 8 + 173, { 1 }, 1, 0, "signal out of range" },
	{ "a signal but not interrupted", 4, 8 + 552, { 15 }, 1, 0, "signal out of range" },
	{ "a pid of 0", 0, 8 + 0, { 1, 0, 0, 0, 0, 0, 0, 0 }, 8, 0, "pid out of range" },
	{ "a negative pid", 0, 8 + 0, { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff }, 8, 0, "pid out of range" },
	{ "neither pids nor a command", 0, 8 + 260, { 0, 0, 0, 0 }, 4, 0, "neither pids nor a command, or both" },
	{ "a command with no argument kept", 0, 8 + 264, { 0, 0, 0, 0 }, 4, 0, "command arguments out of range" },
};

ParameterizedTestParameters(rec_reader, damage_to_an_attach_record_is_rejected_with_its_offset)
{
	return cr_make_param_array(struct attach_damage_case, attach_damages,
				   sizeof(attach_damages) / sizeof(attach_damages[0]));
}

ParameterizedTest(struct attach_damage_case *d, rec_reader, damage_to_an_attach_record_is_rejected_with_its_offset)
{
	uint64_t offsets[8];
	struct buf b = write_attach_small(offsets, REC_VERSION);
	char msg[256] = "", want_offset[64];
	size_t records;

	if (d->fill)
		memset(b.data + offsets[d->record] + d->at, d->fill, d->len);
	else
		memcpy(b.data + offsets[d->record] + d->at, d->bytes, d->len);
	cr_assert_lt(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s: accepted", d->what);
	cr_assert(strstr(msg, d->want), "%s: '%s' lacks '%s'", d->what, msg, d->want);
	snprintf(want_offset, sizeof(want_offset), "byte offset %" PRIu64, offsets[d->record]);
	cr_assert(strstr(msg, want_offset), "%s: '%s' lacks '%s'", d->what, msg, want_offset);
	cr_assert_eq(records, d->record, "%s: the records before it were read", d->what);
	cr_assert_null(strchr(msg, '\n'));
	free(b.data);
}

/* a file of records of the given types, in order, each with a sound payload */
static struct buf write_types(const enum rec_type *types, size_t n, uint64_t *offsets, uint32_t version)
{
	static char *argv[] = { "consumer", NULL };
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .command_pid = 5 };
	struct rec_record rec;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w = recorder__new(f);

	for (size_t i = 0; i < n; i++) {
		memset(&rec, 0, sizeof(rec));
		switch (types[i]) {
		case REC_ATTACH_BEGIN:
			attach_recording__encode_begin(&o, &res, &rec.attach_begin);
			break;
		case REC_ATTACH_END:
			attach_recording__encode_end(&res, &rec.attach_end);
			break;
		case REC_RUN_BEGIN:
			strcpy(rec.run_begin.workload, "eventfd");
			for (int k = 0; k < SYSCALL_LIST_MAX; k++)
				rec.run_begin.notify_syscalls.nr[k] = rec.run_begin.wait_syscalls.nr[k] = -1;
			rec.run_begin.samples = 1;
			break;
		case REC_SAMPLE:
			rec.sample.sample.seq = 1;
			break;
		case REC_EVENT:
			rec.event = ev(3000, WP_EV_WAKING, 1, 42);
			break;
		default:
			break;
		}
		offsets[i] = recorder__bytes(w);
		recorder__write(w, types[i], &rec.run_begin, recording__payload_size(version, types[i]));
	}
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	return b;
}

struct order_case {
	char what[48];
	enum rec_type types[6];
	size_t n;
	size_t bad;		/* the record the reader stops at */
	char want[80];
};

static struct order_case orders[] = {
	{ "a sample in an attach run", { REC_ATTACH_BEGIN, REC_EVENT, REC_SAMPLE, REC_ATTACH_END }, 4, 2,
	  "a workload run's record inside an attach run" },
	{ "a clock pair in an attach run", { REC_ATTACH_BEGIN, REC_CLOCK_PAIR, REC_ATTACH_END }, 3, 1,
	  "a workload run's record inside an attach run" },
	{ "an attach run ended by RUN_END", { REC_ATTACH_BEGIN, REC_RUN_END }, 2, 1,
	  "a workload run's record inside an attach run" },
	{ "an fd kind in a workload run", { REC_RUN_BEGIN, REC_FD_KIND, REC_RUN_END }, 3, 1,
	  "an attach run's record inside a workload run" },
	{ "a workload run ended by ATTACH_END", { REC_RUN_BEGIN, REC_ATTACH_END }, 2, 1,
	  "an attach run's record inside a workload run" },
	{ "an fd kind before the run", { REC_FD_KIND, REC_ATTACH_BEGIN, REC_ATTACH_END }, 3, 0,
	  "record outside a run" },
	{ "an attach run inside another", { REC_ATTACH_BEGIN, REC_ATTACH_BEGIN }, 2, 1,
	  "a run begins inside another (its ATTACH_END is missing)" },
	{ "two attach runs", { REC_ATTACH_BEGIN, REC_ATTACH_END, REC_ATTACH_BEGIN, REC_ATTACH_END }, 4, 2,
	  "an attach recording holds one run" },
	{ "an attach run after a workload run", { REC_RUN_BEGIN, REC_RUN_END, REC_ATTACH_BEGIN, REC_ATTACH_END }, 4, 2,
	  "an attach run after another run" },
	{ "a workload run after an attach run", { REC_ATTACH_BEGIN, REC_ATTACH_END, REC_RUN_BEGIN, REC_RUN_END }, 4, 2,
	  "a workload run in an attach recording" },
};

ParameterizedTestParameters(rec_reader, records_of_the_other_kind_of_run_are_rejected)
{
	return cr_make_param_array(struct order_case, orders, sizeof(orders) / sizeof(orders[0]));
}

ParameterizedTest(struct order_case *c, rec_reader, records_of_the_other_kind_of_run_are_rejected)
{
	uint64_t offsets[6];
	struct buf b = write_types(c->types, c->n, offsets, REC_VERSION);
	char msg[256] = "", want_offset[64];
	size_t records;

	cr_assert_lt(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s: accepted", c->what);
	cr_assert(strstr(msg, c->want), "%s: '%s' lacks '%s'", c->what, msg, c->want);
	snprintf(want_offset, sizeof(want_offset), "byte offset %" PRIu64, offsets[c->bad]);
	cr_assert(strstr(msg, want_offset), "%s: '%s' lacks '%s'", c->what, msg, want_offset);
	cr_assert_eq(records, c->bad);
	free(b.data);
}

Test(rec_reader, a_version_2_file_reads_as_before_and_may_not_hold_the_new_records)
{
	static const enum rec_type workload[] = { REC_RUN_BEGIN, REC_EVENT, REC_SAMPLE, REC_RUN_END };
	uint64_t offsets[8];
	/* written as version 2 laid its records out */
	struct buf b = write_types(workload, 4, offsets, 2);
	uint32_t v2 = 2;
	char msg[256] = "";
	size_t records;

	memcpy(b.data + 8, &v2, sizeof(v2));
	cr_assert_eq(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s", msg);
	cr_assert_eq(records, 4);
	free(b.data);

	b = write_attach_small(offsets, 2);
	cr_assert_lt(read_all(b.data, b.len, msg, sizeof(msg), &records), 0);
	cr_assert(strstr(msg, "unknown record type 8 at byte offset 16: ATTACH_BEGIN records came after version 2"),
		  "%s", msg);
	free(b.data);
}


/* ---------------------------------------------------------------- the file header, word for word */

struct header_case {
	char what[40];
	char bytes[16];
	size_t len;
	char want[112];
};

static struct header_case headers[] = {
	{ "an empty file", "", 0, "empty file: a recording starts with a 16-byte header at byte offset 0" },
	{ "a file shorter than the magic", "WPREC", 5,
	  "not a wakeprobe recording: bad magic at byte offset 0 (make one with `wakeprobe record -o FILE`)" },
	{ "a copy whose CR LF became LF", "WPREC\n\032\001\0\0\0\020", 12,
	  "not a wakeprobe recording: bad magic at byte offset 0 (make one with `wakeprobe record -o FILE`)" },
	{ "a header cut after its version", "WPREC\r\n\032\001\0\0\0", 12,
	  "truncated file header at byte offset 12: 12 of 16 bytes" },
	{ "a header and no record", "WPREC\r\n\032\001\0\0\0\020\0\0\0", 16,
	  "no run in the recording (it ends at byte offset 16)" },
};

ParameterizedTestParameters(rec_reader, a_bad_file_header_is_named_word_for_word)
{
	return cr_make_param_array(struct header_case, headers, sizeof(headers) / sizeof(headers[0]));
}

ParameterizedTest(struct header_case *h, rec_reader, a_bad_file_header_is_named_word_for_word)
{
	char msg[256] = "";
	size_t records;

	cr_assert_eq(read_all(h->bytes, h->len, msg, sizeof(msg), &records), -EINVAL, "%s: accepted", h->what);
	cr_assert_str_eq(msg, h->want, "%s", h->what);
	cr_assert_eq(records, 0);
}

Test(rec_reader, the_offset_is_where_the_next_record_begins)
{
	uint64_t offsets[16];
	size_t n;
	struct buf b = write_small(offsets, &n);
	FILE *f = fmemopen(b.data, b.len, "rb");
	struct rec_reader *r = NULL;
	struct rec_record rec;
	char msg[256] = "";

	cr_assert_not_null(f);
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(rec_reader__offset(r), REC_FILE_HEADER_SIZE);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(rec_reader__next(r, &rec, msg, sizeof(msg)), 1, "%s", msg);
		cr_assert_eq(rec.offset, offsets[i]);
		cr_assert_eq(rec_reader__offset(r), offsets[i + 1], "after record %zu: %" PRIu64, i,
			     rec_reader__offset(r));
	}
	cr_assert_eq(rec_reader__next(r, &rec, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(rec_reader__offset(r), b.len);
	rec_reader__free(r);
	fclose(f);
	free(b.data);
}

/* --workload all records one run after another: each reads whole, with its own RUN_BEGIN */
Test(rec_reader, a_file_holds_one_workload_run_after_another)
{
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct rec_run_begin first = run_begin(), second = run_begin();
	struct wp_event e = ev(3000, WP_EV_SWITCH, 1, 42);
	struct rec_run_end end;
	struct rec_reader *r = NULL;
	struct rec_record rec;
	struct recorder *w;
	char msg[256] = "", names[2][REC_NAME_LEN];
	size_t runs = 0, records = 0;
	int err;

	cr_assert_not_null(f);
	memset(&end, 0, sizeof(end));
	strcpy(second.workload, "cond");
	w = recorder__new(f);
	recorder__write(w, REC_RUN_BEGIN, &first, sizeof(first));
	recorder__write(w, REC_RUN_END, &end, sizeof(end));
	recorder__write(w, REC_RUN_BEGIN, &second, sizeof(second));
	recorder__write(w, REC_EVENT, &e, sizeof(e));
	recorder__write(w, REC_RUN_END, &end, sizeof(end));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);

	f = fmemopen(b.data, b.len, "rb");
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	while ((err = rec_reader__next(r, &rec, msg, sizeof(msg))) > 0) {
		records++;
		if (rec.type == REC_RUN_BEGIN) {
			cr_assert_lt(runs, 2);
			strcpy(names[runs++], rec.run_begin.workload);
		}
	}
	cr_assert_eq(err, 0, "%s", msg);
	cr_assert_eq(records, 5);
	cr_assert_eq(runs, 2);
	cr_assert_str_eq(names[0], "eventfd");
	cr_assert_str_eq(names[1], "cond");
	rec_reader__free(r);
	fclose(f);
	free(b.data);
}

/* ---------------------------------------------------------------- the fields of a workload run's records */

/* bytes at @at of the payload of record @record of write_small(), and what the reader says of them */
struct field_case {
	char what[48];
	size_t record;		/* 0 RUN_BEGIN, 1 CLOCK_PAIR, 2 FDS, 3 EVENT, 4 SAMPLE, 5 ADVANCE, 6 RUN_END */
	size_t at;
	uint8_t bytes[4];
	size_t len;		/* of bytes[]; with fill, this many bytes of fill */
	char fill;
	char want[48];		/* the reason, after "bad TYPE record at byte offset N: " */
};

#define RB(field)	offsetof(struct rec_run_begin, field)
#define RE(field)	offsetof(struct rec_run_end, field)

static const char *const small_types[] = { "RUN_BEGIN", "CLOCK_PAIR", "FDS", "EVENT", "SAMPLE", "ADVANCE", "RUN_END" };

static struct field_case bad_fields[] = {
	{ "an empty workload name", 0, RB(workload), { 0 }, 1, 0, "unterminated name" },
	{ "a workload name not terminated", 0, RB(workload), { 0 }, REC_NAME_LEN, 'x', "unterminated name" },
	{ "a summary not terminated", 0, RB(summary), { 0 }, REC_SUMMARY_LEN, 'x', "unterminated name" },
	{ "a version not terminated", 0, RB(version), { 0 }, 16, 'x', "unterminated name" },
	{ "a kernel name not terminated", 0, RB(kernel), { 0 }, REC_UTS_LEN, 'x', "unterminated name" },
	{ "a machine name not terminated", 0, RB(machine), { 0 }, REC_UTS_LEN, 'x', "unterminated name" },
	{ "a host name not terminated", 0, RB(hostname), { 0 }, REC_UTS_LEN, 'x', "unterminated name" },
	{ "a notify syscall below -1", 0, RB(notify_syscalls), { 0xfe, 0xff, 0xff, 0xff }, 4, 0,
	  "syscall number out of range" },
	{ "a syscall past the tables, after the end", 0, RB(wait_syscalls) + 3 * sizeof(int32_t),
	  { 0x00, 0x02, 0x00, 0x00 }, 4, 0, "syscall number out of range" },
	{ "a wait end past the last", 0, RB(wait_end), { 2 }, 1, 0, "flag out of range" },
	{ "fd matching 2", 0, RB(match_fd), { 2 }, 1, 0, "flag out of range" },
	{ "user-only 2", 0, RB(user_only), { 2 }, 1, 0, "flag out of range" },
	{ "optional notify 2", 0, RB(notify_optional), { 2 }, 1, 0, "flag out of range" },
	{ "traced 2", 0, RB(traced), { 2 }, 1, 0, "flag out of range" },
	{ "new task 2", 0, RB(new_task), { 2 }, 1, 0, "flag out of range" },
	{ "no samples", 0, RB(samples), { 0, 0, 0, 0 }, 4, 0, "run options out of range" },
	{ "a negative waker CPU", 0, RB(waker_cpu), { 0xff, 0xff, 0xff, 0xff }, 4, 0, "run options out of range" },
	{ "a wakee CPU past the last", 0, RB(wakee_cpu), { 0x00, 0x04, 0x00, 0x00 }, 4, 0,
	  "run options out of range" },
	{ "an fd below -1", 2, offsetof(struct rec_fds, wait_fd), { 0xfe, 0xff, 0xff, 0xff }, 4, 0, "fd out of range" },
	{ "the exit text not terminated", 6, RE(workload_exit), { 0 }, REC_EXIT_LEN, 'x', "unterminated text" },
	{ "the error text not terminated", 6, RE(workload_error), { 0 }, REC_ERROR_LEN, 'x', "unterminated text" },
	{ "interrupted 2", 6, RE(interrupted), { 2 }, 1, 0, "flag out of range" },
	{ "workload failed 2", 6, RE(workload_failed), { 2 }, 1, 0, "flag out of range" },
	{ "a signal past the last", 6, RE(interrupted), { 1, 0, 65 }, 3, 0, "signal out of range" },
	{ "the steal measured but not known", 6, RE(steal.measured), { 1 }, 1, 0, "steal flag out of range" },
	{ "the steal known 2", 6, RE(steal.known), { 2 }, 1, 0, "steal flag out of range" },
	{ "the steal's reason not terminated", 6, RE(steal.why_off), { 0 }, REC_STEAL_WHY_LEN, 'x',
	  "unterminated text" },
	{ "the cost known 2", 6, RE(cost.known), { 2 }, 1, 0, "cost flag out of range" },
	{ "the kernel's statistics on 2", 6, RE(cost.bpf_stats_on), { 2 }, 1, 0, "cost flag out of range" },
	{ "a timed share of 1001 per mille", 6, RE(cost.bpf_timed_permille), { 0xe9, 0x03 }, 2, 0,
	  "timed share of the runs over 1000 per mille" },
	{ "the cost's reason not terminated", 6, RE(cost.bpf_stats_why_off), { 0 }, 96, 'x', "unterminated text" },
};

/* write_small() with @f's bytes in place; the offset of the record they are in */
static struct buf damaged_small(const struct field_case *f, uint64_t *at)
{
	uint64_t offsets[16];
	size_t n;
	struct buf b = write_small(offsets, &n);
	char *p = b.data + offsets[f->record] + sizeof(struct rec_header) + f->at;

	cr_assert_lt(f->record, n);
	if (f->fill)
		memset(p, f->fill, f->len);
	else
		memcpy(p, f->bytes, f->len);
	*at = offsets[f->record];
	return b;
}

ParameterizedTestParameters(rec_reader, a_field_out_of_its_range_is_named_with_its_record_and_offset)
{
	return cr_make_param_array(struct field_case, bad_fields, sizeof(bad_fields) / sizeof(bad_fields[0]));
}

ParameterizedTest(struct field_case *f, rec_reader, a_field_out_of_its_range_is_named_with_its_record_and_offset)
{
	uint64_t at;
	struct buf b = damaged_small(f, &at);
	char msg[256] = "", want[256];
	size_t records;

	cr_assert_eq(read_all(b.data, b.len, msg, sizeof(msg), &records), -EINVAL, "%s: accepted", f->what);
	snprintf(want, sizeof(want), "bad %s record at byte offset %" PRIu64 ": %s", small_types[f->record], at,
		 f->want);
	cr_assert_str_eq(msg, want, "%s", f->what);
	cr_assert_eq(records, f->record, "%s: the records before it were read", f->what);
	free(b.data);
}

/* the last value in range of the same fields: the file reads whole */
static struct field_case edge_fields[] = {
	{ "the last CPU", 0, RB(wakee_cpu), { 0xff, 0x03, 0x00, 0x00 }, 4, 0, "" },
	{ "the last syscall number", 0, RB(notify_syscalls), { 0xff, 0x01, 0x00, 0x00 }, 4, 0, "" },
	{ "a wait ended by a signal", 0, RB(wait_end), { 1 }, 1, 0, "" },
	{ "every flag set", 0, RB(match_fd), { 1, 1, 1, 1 }, 4, 0, "" },
	{ "a workload name of 31 bytes", 0, RB(workload), { 0 }, REC_NAME_LEN - 1, 'x', "" },
	{ "a path with no fd", 2, offsetof(struct rec_fds, notify_fd), { 0xff, 0xff, 0xff, 0xff }, 4, 0, "" },
	{ "a run interrupted by signal 64", 6, RE(interrupted), { 1, 0, 64 }, 3, 0, "" },
	{ "the steal measured", 6, RE(steal.measured), { 1, 1 }, 2, 0, "" },
	{ "every run timed", 6, RE(cost.bpf_timed_permille), { 0xe8, 0x03 }, 2, 0, "" },
	{ "an exit text of 95 bytes", 6, RE(workload_exit), { 0 }, REC_EXIT_LEN - 1, 'x', "" },
};

ParameterizedTestParameters(rec_reader, a_field_at_the_edge_of_its_range_is_taken)
{
	return cr_make_param_array(struct field_case, edge_fields, sizeof(edge_fields) / sizeof(edge_fields[0]));
}

ParameterizedTest(struct field_case *f, rec_reader, a_field_at_the_edge_of_its_range_is_taken)
{
	uint64_t at;
	struct buf b = damaged_small(f, &at);
	char msg[256] = "";
	size_t records;

	cr_assert_eq(read_all(b.data, b.len, msg, sizeof(msg), &records), 0, "%s: %s", f->what, msg);
	cr_assert_eq(records, 7);
	free(b.data);
}

/* ---------------------------------------------------------------- events, by type and by version */

struct event_case {
	char what[56];
	struct wp_event e;
	uint32_t version;
	char want[40];		/* empty: the event is taken as it is */
};

static struct event_case event_cases[] = {
	{ "a switch", { .type = WP_EV_SWITCH, .cpu = 1 }, REC_VERSION, "" },
	{ "type 0", { .type = 0 }, REC_VERSION, "event type out of range" },
	{ "a lean record in version 7", { .type = WP_EV_LEAN }, 7, "event type out of range" },
	{ "a lean record in a run that is not lean", { .type = WP_EV_LEAN }, REC_VERSION,
	  "a lean record in a run that is not lean" },
	{ "a steal record in version 4", { .type = WP_EV_STEAL }, 4, "" },
	{ "a steal record in version 3", { .type = WP_EV_STEAL }, 3, "event type out of range" },
	{ "a block record in version 2", { .type = WP_EV_BLOCK }, 2, "" },
	{ "a waker record in version 1", { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_SYSCALL } }, 1,
	  "event type out of range" },
	{ "a migration in version 1", { .type = WP_EV_MIGRATE, .migrate = { .orig_cpu = 1 } }, 1, "" },
	{ "the last CPU", { .type = WP_EV_SWITCH, .cpu = WP_MAX_CPUS - 1 }, REC_VERSION, "" },
	{ "a CPU past the last", { .type = WP_EV_SWITCH, .cpu = WP_MAX_CPUS }, REC_VERSION, "event CPU out of range" },
	{ "a wakeup onto a CPU past the last", { .type = WP_EV_WAKEUP, .wake = { .target_cpu = WP_MAX_CPUS } },
	  REC_VERSION, "wakeup target CPU out of range" },
	{ "a migration from a CPU past the last", { .type = WP_EV_MIGRATE, .migrate = { .orig_cpu = WP_MAX_CPUS } },
	  REC_VERSION, "migration CPU out of range" },
	{ "a migration to a CPU past the last", { .type = WP_EV_MIGRATE, .migrate = { .dest_cpu = WP_MAX_CPUS } },
	  REC_VERSION, "migration CPU out of range" },
	{ "an interrupt of kind 0", { .type = WP_EV_IRQ, .irq = { .kind = 0 } }, REC_VERSION,
	  "interrupt kind out of range" },
	{ "an interrupt of a kind past the last", { .type = WP_EV_IRQ, .irq = { .kind = WP_IRQ_CALL_FUNC + 1 } },
	  REC_VERSION, "interrupt kind out of range" },
	{ "an interrupt neither entered nor left", { .type = WP_EV_IRQ, .irq = { .kind = WP_IRQ_HARD, .exit = 2 } },
	  REC_VERSION, "interrupt kind out of range" },
	{ "the last kind of interrupt, left", { .type = WP_EV_IRQ, .irq = { .kind = WP_IRQ_CALL_FUNC, .exit = 1 } },
	  REC_VERSION, "" },
	{ "a waker of class 0", { .type = WP_EV_WAKER }, REC_VERSION, "waker class out of range" },
	{ "a waker of a class past the last", { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_CLASS_MAX } },
	  REC_VERSION, "waker class out of range" },
	{ "a waker in an interrupt of a kind past the last",
	  { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_IRQ, .irq_kind = WP_IRQ_CALL_FUNC + 1 } },
	  REC_VERSION, "waker's irq or fd kind out of range" },
	{ "a syscall waker on a closed fd",
	  { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_SYSCALL, .fd_kind = FD_KIND_CLOSED } },
	  REC_VERSION, "" },
	{ "a syscall waker on an fd of a kind past the last",
	  { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_SYSCALL, .fd_kind = NR_FD_KINDS } },
	  REC_VERSION, "waker's irq or fd kind out of range" },
	{ "a syscall waker's fd kind in version 10",
	  { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_SYSCALL, .fd_kind = FD_KIND_PIPE } }, 10,
	  "waker's irq or fd kind out of range" },
	{ "a sleep on a unix dgram socket", { .type = WP_EV_BLOCK, .block = { .fd_kind = FD_KIND_UNIX_DGRAM } },
	  REC_VERSION, "" },
	{ "a sleep on an fd of a kind past the last", { .type = WP_EV_BLOCK, .block = { .fd_kind = NR_FD_KINDS } },
	  REC_VERSION, "fd kind out of range" },
	{ "a sleep outside a syscall, its kind byte not read",
	  { .type = WP_EV_BLOCK, .block = { .nr = -1, .fd_kind = 0xff } }, 10, "" },
	{ "a timer waker",
	  { .type = WP_EV_WAKER, .waker = { .waker_class = WP_WAKER_TIMER, .irq_kind = WP_IRQ_TIMER } },
	  REC_VERSION, "" },
};

ParameterizedTestParameters(rec_reader, an_event_is_checked_by_its_type_and_the_types_of_its_version)
{
	return cr_make_param_array(struct event_case, event_cases, sizeof(event_cases) / sizeof(event_cases[0]));
}

ParameterizedTest(struct event_case *c, rec_reader, an_event_is_checked_by_its_type_and_the_types_of_its_version)
{
	struct rec_run_begin rb = run_begin();
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct rec_reader *r = NULL;
	struct rec_record rec;
	struct recorder *w;
	char msg[256] = "", want[256];
	uint64_t at;
	int got;

	cr_assert_not_null(f);
	c->e.ts_ns = 3000;
	w = recorder__new(f);
	recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb));
	at = recorder__bytes(w);
	recorder__write(w, REC_EVENT, &c->e, sizeof(c->e));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	memcpy(b.data + 8, &c->version, sizeof(c->version));

	f = fmemopen(b.data, b.len, "rb");
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(rec_reader__next(r, &rec, msg, sizeof(msg)), 1, "%s", msg);
	got = rec_reader__next(r, &rec, msg, sizeof(msg));
	if (c->want[0]) {
		cr_assert_eq(got, -EINVAL, "%s: accepted", c->what);
		snprintf(want, sizeof(want), "bad EVENT record at byte offset %" PRIu64 ": %s", at, c->want);
		cr_assert_str_eq(msg, want, "%s", c->what);
	} else {
		cr_assert_eq(got, 1, "%s: %s", c->what, msg);
		cr_assert_eq(rec.type, REC_EVENT);
		cr_assert_eq(memcmp(&rec.event, &c->e, sizeof(c->e)), 0, "%s: read back otherwise", c->what);
	}
	rec_reader__free(r);
	fclose(f);
	free(b.data);
}

/*
 * assert_read_as_version - the three records in @b, their file's version
 * made @version: read whole (@want empty), or refused with a message that
 * holds @want; @what names the case. Frees the buffer.
 */
static void assert_read_as_version(struct buf *b, uint32_t version, const char *what, const char *want)
{
	char msg[256] = "";
	size_t records;
	int got;

	memcpy(b->data + 8, &version, sizeof(version));
	got = read_all(b->data, b->len, msg, sizeof(msg), &records);
	if (want[0]) {
		cr_assert_eq(got, -EINVAL, "%s: accepted", what);
		cr_assert(strstr(msg, want), "%s: '%s' lacks '%s'", what, msg, want);
	} else {
		cr_assert_eq(got, 0, "%s: %s", what, msg);
		cr_assert_eq(records, 3, "%s", what);
	}
	free(b->data);
}

/*
 * A lean attach run (version 8): its wakeup records, their names and the
 * names of tasks are read back; such records out of range, or in a run
 * that is not lean, are refused; and the run's flags are those its version
 * defines, the running p99's and the softirqs' (version 10) only with the
 * lean engine's records.
 */
struct lean_case {
	char what[56];
	uint8_t flags;
	uint32_t version;
	struct wp_event e;
	char want[48];		/* empty: taken */
};

static struct lean_case lean_cases[] = {
	{ "a wakeup", REC_ATTACH_LEAN, 8, { .type = WP_EV_LEAN, .lean = { .target_cpu = WP_MAX_CPUS - 1 } }, "" },
	{ "its names", REC_ATTACH_LEAN | REC_ATTACH_ADAPTIVE, 8,
	  { .type = WP_EV_LEAN, .lean_names = { .waker_class = WP_WAKER_SYSCALL, .seen = WP_SEEN_WAIT,
						.flags = WP_LEAN_NAMES } }, "" },
	{ "a task's name", REC_ATTACH_LEAN, 8, { .type = WP_EV_LEAN, .lean = { .flags = WP_LEAN_NAME } }, "" },
	{ "a wakeup onto a CPU past the last", REC_ATTACH_LEAN, 8,
	  { .type = WP_EV_LEAN, .lean = { .target_cpu = WP_MAX_CPUS } }, "bad EVENT record" },
	{ "names of a softirq its task raised", REC_ATTACH_LEAN, 10,
	  { .type = WP_EV_LEAN, .lean_names = { .waker_class = WP_WAKER_SOFTIRQ, .waker_nr = 3, .seen = WP_SEEN_RAISED,
						.flags = WP_LEAN_NAMES } }, "" },
	{ "... in version 9, which had no such bit", REC_ATTACH_LEAN, 9,
	  { .type = WP_EV_LEAN, .lean_names = { .waker_class = WP_WAKER_SOFTIRQ, .waker_nr = 3, .seen = WP_SEEN_RAISED,
						.flags = WP_LEAN_NAMES } }, "bad EVENT record" },
	{ "names of a class past the last", REC_ATTACH_LEAN, 8,
	  { .type = WP_EV_LEAN, .lean_names = { .waker_class = WP_WAKER_CLASS_MAX, .flags = WP_LEAN_NAMES } },
	  "bad EVENT record" },
	{ "a wakeup in a run that is not lean", 0, 8, { .type = WP_EV_LEAN }, "a lean record in a run that is not" },
	{ "a lean run in version 7", REC_ATTACH_LEAN, 7, { .type = WP_EV_SWITCH }, "bad ATTACH_BEGIN record" },
	{ "the p99's flag without the lean flag", REC_ATTACH_ADAPTIVE, 8, { .type = WP_EV_SWITCH },
	  "bad ATTACH_BEGIN record" },
	{ "the softirqs' flag in version 9", REC_ATTACH_LEAN | REC_ATTACH_SOFTIRQS, 9, { .type = WP_EV_SWITCH },
	  "bad ATTACH_BEGIN record" },
	{ "the softirqs' flag", REC_ATTACH_LEAN | REC_ATTACH_SOFTIRQS, 10, { .type = WP_EV_LEAN }, "" },
	{ "the softirqs' flag without the lean flag", REC_ATTACH_SOFTIRQS, 10, { .type = WP_EV_SWITCH },
	  "bad ATTACH_BEGIN record" },
	{ "a flag past the last", 1 << 4, 10, { .type = WP_EV_SWITCH }, "bad ATTACH_BEGIN record" },
	{ "a chain's link", REC_ATTACH_LEAN | REC_ATTACH_CHAINS, 12,
	  { .type = WP_EV_LEAN, .lean_link = { .kind = WP_LINK_THREAD, .nr = 1, .fd_kind = FD_KIND_PIPE, .cpu = 1,
					       .flags = WP_LEAN_NAMES | WP_LEAN_LINK } }, "" },
	{ "... in version 11, which had none", REC_ATTACH_LEAN, 11,
	  { .type = WP_EV_LEAN, .lean_link = { .kind = WP_LINK_THREAD, .flags = WP_LEAN_NAMES | WP_LEAN_LINK } },
	  "bad EVENT record" },
	{ "a link of a kind past the last", REC_ATTACH_LEAN | REC_ATTACH_CHAINS, 12,
	  { .type = WP_EV_LEAN, .lean_link = { .kind = WP_LINK_KINDS, .flags = WP_LEAN_NAMES | WP_LEAN_LINK } },
	  "bad EVENT record" },
	{ "a link on a CPU past the last", REC_ATTACH_LEAN | REC_ATTACH_CHAINS, 12,
	  { .type = WP_EV_LEAN, .lean_link = { .kind = WP_LINK_THREAD, .cpu = WP_MAX_CPUS,
					       .flags = WP_LEAN_NAMES | WP_LEAN_LINK } }, "bad EVENT record" },
	{ "the chains' flag in version 11", REC_ATTACH_LEAN | REC_ATTACH_CHAINS, 11, { .type = WP_EV_SWITCH },
	  "bad ATTACH_BEGIN record" },
	{ "the chains' flag of the full engine", REC_ATTACH_CHAINS, 12,
	  { .type = WP_EV_SWITCH }, "" },
	{ "a flag past the last, version 12", 1 << 5, 12, { .type = WP_EV_SWITCH }, "bad ATTACH_BEGIN record" },
};

ParameterizedTestParameters(rec_reader, a_lean_attach_runs_records_are_read_and_checked)
{
	return cr_make_param_array(struct lean_case, lean_cases, sizeof(lean_cases) / sizeof(lean_cases[0]));
}

ParameterizedTest(struct lean_case *c, rec_reader, a_lean_attach_runs_records_are_read_and_checked)
{
	static char *argv[] = { "server", NULL };
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .command_pid = 7 };
	struct rec_attach_begin ab;
	struct rec_attach_end ae;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w;

	cr_assert_not_null(f);
	attach_recording__encode_begin(&o, &res, &ab);
	ab.flags = c->flags;
	attach_recording__encode_end(&res, &ae);
	c->e.ts_ns = 3000;
	w = recorder__new(f);
	recorder__write(w, REC_ATTACH_BEGIN, &ab, sizeof(ab));
	recorder__write(w, REC_EVENT, &c->e, sizeof(c->e));
	recorder__write(w, REC_ATTACH_END, &ae, recording__payload_size(c->version, REC_ATTACH_END));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	assert_read_as_version(&b, c->version, c->what, c->want);
}

/*
 * A lean workload run (version 9): RUN_BEGIN says so, and its wakeup
 * records are read; in a run that does not say so, in an untraced one, or
 * in a version 8 file, where the byte was padding, they are refused.
 */
struct lean_run_case {
	char what[56];
	uint8_t flags;
	uint8_t traced;
	uint32_t version;
	char want[48];		/* empty: taken */
};

static struct lean_run_case lean_run_cases[] = {
	{ "a lean workload run", REC_RUN_LEAN, 1, 9, "" },
	{ "a run that is not lean", 0, 1, 9, "a lean record in a run that is not" },
	{ "version 8, whose byte was padding", REC_RUN_LEAN, 1, 8, "a lean record in a run that is not" },
	{ "an untraced lean run", REC_RUN_LEAN, 0, 9, "bad RUN_BEGIN record" },
	{ "a flag past the last", REC_RUN_LEAN | 2, 1, 9, "bad RUN_BEGIN record" },
};

ParameterizedTestParameters(rec_reader, a_lean_workload_runs_records_are_read_and_checked)
{
	return cr_make_param_array(struct lean_run_case, lean_run_cases,
				   sizeof(lean_run_cases) / sizeof(lean_run_cases[0]));
}

ParameterizedTest(struct lean_run_case *c, rec_reader, a_lean_workload_runs_records_are_read_and_checked)
{
	struct rec_run_begin rb = run_begin();
	struct wp_event e = ev(3000, WP_EV_LEAN, 1, 42);
	struct rec_run_end end;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w;

	cr_assert_not_null(f);
	memset(&end, 0, sizeof(end));
	rb.flags = c->flags;
	rb.traced = c->traced;
	e.lean.target_cpu = 1;
	w = recorder__new(f);
	recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb));
	recorder__write(w, REC_EVENT, &e, sizeof(e));
	recorder__write(w, REC_RUN_END, &end, recording__payload_size(c->version, REC_RUN_END));
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	assert_read_as_version(&b, c->version, c->what, c->want);
}

/* ---------------------------------------------------------------- what older versions did not keep */

struct version_case {
	uint32_t version;
	bool kept;			/* the steal and the cost were there, and read back */
	uint16_t permille;		/* the timed share, from a record whose bytes there are 0 */
	uint32_t others_stopped;	/* from an ATTACH_END that says 2 */
	bool untimed;			/* from an ATTACH_BEGIN and a WAKER that say so */
	bool lean;			/* the lean counters of an ATTACH_END that has them */
};

static struct version_case versions[] = {
	{ 3, false, 1000, 0, false, false },
	{ 4, true, 1000, 0, false, false },
	{ 5, true, 0, 0, false, false },
	{ 6, true, 0, 2, false, false },
	{ 7, true, 0, 2, true, false },
	{ 8, true, 0, 2, true, true },
};

ParameterizedTestParameters(rec_reader, what_an_older_version_did_not_keep_reads_as_not_kept)
{
	return cr_make_param_array(struct version_case, versions, sizeof(versions) / sizeof(versions[0]));
}

ParameterizedTest(struct version_case *v, rec_reader, what_an_older_version_did_not_keep_reads_as_not_kept)
{
	static char *argv[] = { "server", NULL };
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .command_pid = 7, .others_stopped = 2, .drops_total = 5,
					     .lean = { .woke_running = 3 } };
	struct rec_run_begin rb = run_begin();
	struct rec_attach_begin ab;
	struct rec_attach_end ae;
	struct wp_event waker = { .ts_ns = 10, .type = WP_EV_WAKER, .tid = 7 };
	struct rec_run_end re;
	struct rec_steal steal = { .proc_ticks = 7, .clk_tck = 100, .measured = 1, .known = 1, .nr_cpus = 2 };
	struct rec_cost cost = { .bpf_runs = 99, .bpf_run_ns = 990, .known = 1, .bpf_stats_on = 1 };
	struct rec_record rec;
	struct buf b[2] = { { 0 } };
	struct recorder *w;
	FILE *f;

	memset(&re, 0, sizeof(re));
	re.drops_total = 5;
	strcpy(re.workload_exit, "exited with status 0");
	re.steal = steal;
	re.cost = cost;
	/* a run without --syscall-phases, as every one of version 7 is unless asked */
	attach_recording__encode_begin(&o, &res, &ab);
	cr_assert_eq(ab.flags, REC_ATTACH_UNTIMED);
	waker.waker.waker_class = WP_WAKER_SYSCALL;
	waker.waker.flags = WP_WAKER_UNTIMED;
	attach_recording__encode_end(&res, &ae);
	ae.steal = steal;
	ae.cost = cost;
	for (int i = 0; i < 2; i++) {
		f = open_memstream(&b[i].data, &b[i].len);
		cr_assert_not_null(f);
		w = recorder__new(f);
		if (i == 0) {
			recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb));
			recorder__write(w, REC_RUN_END, &re, recording__payload_size(v->version, REC_RUN_END));
		} else {
			recorder__write(w, REC_ATTACH_BEGIN, &ab, sizeof(ab));
			recorder__write(w, REC_EVENT, &waker, sizeof(waker));
			recorder__write(w, REC_ATTACH_END, &ae, recording__payload_size(v->version, REC_ATTACH_END));
		}
		cr_assert_eq(recorder__finish(w), 0);
		fclose(f);
		memcpy(b[i].data + 8, &v->version, sizeof(v->version));
	}

	cr_assert(first_of(b[0].data, b[0].len, REC_RUN_END, &rec));
	cr_assert_eq(rec.run_end.drops_total, 5, "what every version kept is read");
	cr_assert_str_eq(rec.run_end.workload_exit, "exited with status 0");
	cr_assert_eq(rec.run_end.steal.known, v->kept);
	cr_assert_eq(rec.run_end.steal.measured, v->kept);
	cr_assert_eq(rec.run_end.steal.proc_ticks, v->kept ? 7 : 0);
	cr_assert_eq(rec.run_end.cost.known, v->kept);
	cr_assert_eq(rec.run_end.cost.bpf_runs, v->kept ? 99 : 0);
	cr_assert_eq(rec.run_end.cost.bpf_timed_permille, v->permille);

	cr_assert(first_of(b[1].data, b[1].len, REC_ATTACH_END, &rec));
	cr_assert_eq(rec.attach_end.drops_total, 5);
	cr_assert_eq(rec.attach_end.command_pid, 7);
	cr_assert_eq(rec.attach_end.steal.known, v->kept);
	cr_assert_eq(rec.attach_end.steal.proc_ticks, v->kept ? 7 : 0);
	cr_assert_eq(rec.attach_end.cost.known, v->kept);
	cr_assert_eq(rec.attach_end.cost.bpf_run_ns, v->kept ? 990 : 0);
	cr_assert_eq(rec.attach_end.cost.bpf_timed_permille, v->permille);
	cr_assert_eq(rec.attach_end.others_stopped, v->others_stopped);
	cr_assert_eq(rec.attach_end.lean.woke_running, v->lean ? 3 : 0);
	/* before version 7 those bytes were padding, and every run timed its syscalls */
	cr_assert(first_of(b[1].data, b[1].len, REC_ATTACH_BEGIN, &rec));
	cr_assert_eq(rec.attach_begin.flags, v->untimed ? REC_ATTACH_UNTIMED : 0);
	cr_assert(first_of(b[1].data, b[1].len, REC_EVENT, &rec));
	cr_assert_eq(rec.event.waker.flags, v->untimed ? WP_WAKER_UNTIMED : 0);
	free(b[0].data);
	free(b[1].data);
}
