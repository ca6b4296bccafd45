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
	{ "RUN_END relabelled RUN_BEGIN", 6, 0, { REC_RUN_BEGIN, 0 }, 2, "says 776 bytes; it has 432" },
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
	{ "ATTACH_END relabelled RUN_END", 4, 0, { REC_RUN_END, 0 }, 2, 0, "says 560 bytes; it has 776" },
	{ "interrupted by no signal", 4, 8 + 173, { 1 }, 1, 0, "signal out of range" },
	{ "a signal but not interrupted", 4, 8 + 552, { 15 }, 1, 0, "signal out of range" },
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
