// SPDX-License-Identifier: GPL-2.0
/*
 * test_recording.c - the record file's format, and the whole path through
 * it: every record type written and read back, each version's payload
 * sizes, the fixtures under tests/fixtures replayed in process into their
 * golden reports, damaged copies replayed without a crash, a run's end
 * encoded, written, read and decoded. The reader's checks are in
 * test_rec_reader.c; what the binary makes of the files is in
 * system/test_recording.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events.h"
#include "readback.h"
#include "rec_reader.h"
#include "recfile.h"
#include "recorder.h"
#include "recording.h"
#include "replay.h"
#include "run_recording.h"
#include "run_result.h"
#include "text_workload.h"

TestSuite(recording);

/* ---------------------------------------------------------------- the format */

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

Test(recording, each_versions_payload_sizes_are_the_layouts_it_had)
{
	cr_assert_eq(recording__payload_size(2, REC_FD_KIND), 0);
	cr_assert_eq(recording__payload_size(1, REC_ATTACH_END), 0);
	cr_assert_eq(recording__payload_size(2, REC_EVENT), recording__payload_size(REC_VERSION, REC_EVENT));
	cr_assert_eq(recording__payload_size(1, REC_RUN_END) + 4 * sizeof(uint64_t),
		     recording__payload_size(3, REC_RUN_END), "version 1's RUN_END stays 12 counters");
	cr_assert_eq(recording__payload_size(3, REC_RUN_END) + sizeof(struct rec_steal) + sizeof(struct rec_cost),
		     recording__payload_size(4, REC_RUN_END), "version 4 ends RUN_END with the steal and cost");
	cr_assert_eq(recording__payload_size(4, REC_RUN_END), recording__payload_size(8, REC_RUN_END));
	cr_assert_eq(recording__payload_size(3, REC_ATTACH_END) + sizeof(struct rec_steal) + sizeof(struct rec_cost),
		     recording__payload_size(5, REC_ATTACH_END), "and ATTACH_END");
	cr_assert_eq(recording__payload_size(5, REC_ATTACH_END) + 8, recording__payload_size(7, REC_ATTACH_END),
		     "version 6 ends ATTACH_END with the signal and the processes stopped");
	cr_assert_eq(recording__payload_size(7, REC_ATTACH_END) + sizeof(struct rec_lean),
		     recording__payload_size(8, REC_ATTACH_END), "version 8 with the lean counters");
	cr_assert_eq(recording__payload_size(8, REC_ATTACH_END) + 8, recording__payload_size(REC_VERSION, REC_ATTACH_END),
		     "version 9 with the targets' descendants");
	cr_assert_eq(recording__payload_size(8, REC_RUN_END) + sizeof(struct rec_lean),
		     recording__payload_size(REC_VERSION, REC_RUN_END), "version 9 ends RUN_END with them too");
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
	/* a version 8 RUN_END, which versions 4 to 8 share: before the lean tail */
	size_t v8_len = recording__payload_size(8, REC_RUN_END);
	struct rec_run_end e;
	struct recorder *w;
	uint32_t v5 = 5, v8 = 8;
	char msg[256];

	cr_assert_not_null(f);
	w = recorder__new(f);
	run_recording__encode_end(&res, &e);
	cr_assert_eq(recorder__write(w, REC_RUN_BEGIN, &rb, sizeof(rb)), 0);
	cr_assert_eq(recorder__write(w, REC_RUN_END, &e, v8_len), 0);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	memcpy(b.data + 8, &v8, sizeof(v8));

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
	memcpy(b.data + 8, &v8, sizeof(v8));
	b.data[b.len - v8_len + offsetof(struct rec_run_end, stop_signal)] = 0;
	cr_assert_lt(read_one_end(b.data, b.len, &back, msg), 0);
	cr_assert(strstr(msg, "bad RUN_END record") && strstr(msg, "signal out of range"), "%s", msg);
	free(b.data);
}
