/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recfile.h - small record files in memory for the unit tests of the record
 * file's writer, reader and replays: a sound RUN_BEGIN, a workload run and
 * an attach run with one record of each of their types (and the offset of
 * each), and a reader that reads a file to its end, or to its first error,
 * as `wakeprobe report` would.
 */
#ifndef WAKEPROBE_TEST_RECFILE_H
#define WAKEPROBE_TEST_RECFILE_H

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_recording.h"
#include "events.h"
#include "fd_kinds.h"
#include "rec_reader.h"
#include "recorder.h"
#include "recording.h"

/* a file in memory, as open_memstream() made it */
struct buf {
	char *data;
	size_t len;
};

/* run_begin - the RUN_BEGIN of a small eventfd run that the reader takes */
static inline struct rec_run_begin run_begin(void)
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

/*
 * write_small - one workload run with a record of each of its types, into
 * memory: RUN_BEGIN, CLOCK_PAIR, FDS, EVENT, SAMPLE, ADVANCE, RUN_END.
 * @offsets gets each record's offset and, after the last, the file's length.
 */
static inline struct buf write_small(uint64_t offsets[16], size_t *nr)
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

/*
 * write_attach_small - an attach run of a command into memory, in a file
 * that says it is of format @version: ATTACH_BEGIN, FD_KIND, EVENT,
 * ADVANCE, ATTACH_END. @offsets gets each record's offset, then the length.
 */
static inline struct buf write_attach_small(uint64_t offsets[8], uint32_t version)
{
	static char *argv[] = { "consumer", "--fast", NULL };
	struct attach_session_opts o = { .argv = argv };
	struct attach_session_result res = { .trace_start_ns = 1000, .trace_end_ns = 9000, .command_pid = 5 };
	struct rec_attach_begin begin;
	struct rec_fd_kind kind = { .tgid = 5, .fd = 3, .kind = FD_KIND_EVENTFD };
	struct wp_event e = ev(3000, WP_EV_WAKING, 1, 42);
	struct rec_advance adv = { .complete_ns = 4000 };
	struct rec_attach_end end;
	struct buf b = { 0 };
	FILE *f = open_memstream(&b.data, &b.len);
	struct recorder *w = recorder__new(f);
	size_t n = 0;

	snprintf(res.meta.hostname, sizeof(res.meta.hostname), "host");
	snprintf(res.command_exit, sizeof(res.command_exit), "exited with status 0");
	attach_recording__encode_begin(&o, &res, &begin);
	attach_recording__encode_end(&res, &end);
#define PUT(type, payload)                                                 \
	do {                                                               \
		offsets[n++] = recorder__bytes(w);                         \
		recorder__write(w, type, &payload, sizeof(payload));       \
	} while (0)
	PUT(REC_ATTACH_BEGIN, begin);
	PUT(REC_FD_KIND, kind);
	PUT(REC_EVENT, e);
	PUT(REC_ADVANCE, adv);
	PUT(REC_ATTACH_END, end);
#undef PUT
	offsets[n] = recorder__bytes(w);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	memcpy(b.data + 8, &version, sizeof(version));
	return b;
}

/* read_all - read @len bytes of @data to the end; the first error's value, @msg, and the records read */
static inline int read_all(const char *data, size_t len, char *msg, size_t msglen, size_t *records)
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

/* first_of - the first record of @type in @data, read back; false if there is none */
static inline bool first_of(const char *data, size_t len, enum rec_type type, struct rec_record *out)
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

#endif /* WAKEPROBE_TEST_RECFILE_H */
