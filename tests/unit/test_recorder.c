// SPDX-License-Identifier: GPL-2.0
/*
 * test_recorder.c - the record file's writer: the file header first, then
 * each record as its 8-byte header and its payload, every byte counted;
 * the first write error is kept, nothing is written or counted after it,
 * and the end returns it as a negative errno.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "recorder.h"
#include "recording.h"

TestSuite(recorder);

static uint32_t u32_at(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t u16_at(const char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

Test(recorder, a_new_file_begins_with_the_magic_the_version_and_the_header_size)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	struct recorder *w;

	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_not_null(w);
	cr_assert_eq(recorder__bytes(w), REC_FILE_HEADER_SIZE);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	cr_assert_eq(len, 16);
	cr_assert_eq(memcmp(data, "WPREC\r\n\032", 8), 0);
	cr_assert_eq(u32_at(data + 8), REC_VERSION);
	cr_assert_eq(u32_at(data + 12), 16);
	free(data);
}

Test(recorder, each_record_is_its_type_no_flags_its_length_then_its_payload)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = -1 };
	struct rec_advance adv = { .complete_ns = 0x1122334455667788ull, .drops = 9 };
	struct recorder *w;
	const char *p;

	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_eq(recorder__write(w, REC_FDS, &fds, sizeof(fds)), 0);
	cr_assert_eq(recorder__bytes(w), 16 + 8 + 8);
	cr_assert_eq(recorder__write(w, REC_ADVANCE, &adv, sizeof(adv)), 0);
	cr_assert_eq(recorder__bytes(w), 32 + 8 + 16);
	/* the writer checks nothing: a payload of no bytes is a header alone */
	cr_assert_eq(recorder__write(w, REC_RUN_END, &adv, 0), 0);
	cr_assert_eq(recorder__bytes(w), 56 + 8);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);

	cr_assert_eq(len, 64);
	p = data + 16;
	cr_assert_eq(u16_at(p), REC_FDS);
	cr_assert_eq(u16_at(p + 2), 0, "no flags");
	cr_assert_eq(u32_at(p + 4), 8);
	cr_assert_eq(memcmp(p + 8, &fds, sizeof(fds)), 0);
	p += 16;
	cr_assert_eq(u16_at(p), REC_ADVANCE);
	cr_assert_eq(u16_at(p + 2), 0);
	cr_assert_eq(u32_at(p + 4), 16);
	cr_assert_eq(memcmp(p + 8, &adv, sizeof(adv)), 0);
	p += 24;
	cr_assert_eq(u16_at(p), REC_RUN_END);
	cr_assert_eq(u32_at(p + 4), 0);
	free(data);
}

/*
 * A file with room for 40 bytes, unbuffered: the header and one record of
 * 16 bytes fit, and the next record's header too; its payload does not.
 */
Test(recorder, the_first_write_error_is_kept_and_nothing_is_written_or_counted_after_it)
{
	char room[40], *copy;
	FILE *f = fmemopen(room, sizeof(room), "w");
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = 3 };
	struct rec_advance adv = { .complete_ns = 1 };
	struct recorder *w;

	cr_assert_not_null(f);
	cr_assert_eq(setvbuf(f, NULL, _IONBF, 0), 0);
	w = recorder__new(f);
	cr_assert_eq(recorder__write(w, REC_FDS, &fds, sizeof(fds)), 0);
	cr_assert_eq(recorder__bytes(w), 32);
	cr_assert_eq(recorder__write(w, REC_ADVANCE, &adv, sizeof(adv)), -ENOSPC);
	cr_assert_eq(recorder__bytes(w), 40, "the header that was written is counted, the payload is not");
	copy = malloc(sizeof(room));
	memcpy(copy, room, sizeof(room));
	/* a record that would fit now is not written: the file already lacks one */
	rewind(f);
	cr_assert_eq(recorder__write(w, REC_FDS, &fds, sizeof(fds)), -ENOSPC);
	cr_assert_eq(recorder__bytes(w), 40);
	cr_assert_eq(memcmp(copy, room, sizeof(room)), 0, "nothing was written after the error");
	cr_assert_eq(recorder__finish(w), -ENOSPC);
	fclose(f);
	free(copy);
}

Test(recorder, a_stream_that_cannot_be_written_fails_from_the_file_header_on)
{
	FILE *f = fopen("/dev/null", "r");
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = 3 };
	struct recorder *w;

	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_not_null(w, "the error is the end's to return");
	cr_assert_eq(recorder__bytes(w), 0);
	cr_assert_eq(recorder__write(w, REC_FDS, &fds, sizeof(fds)), -EBADF);
	cr_assert_eq(recorder__bytes(w), 0);
	cr_assert_eq(recorder__finish(w), -EBADF);
	fclose(f);
}

/* buffered, the writes succeed and the flush at the end fails: that is the error returned */
Test(recorder, an_error_at_the_final_flush_is_returned)
{
	struct rec_fds fds = { .notify_fd = 3, .wait_fd = 3 };
	struct recorder *w;
	FILE *f;

	if (access("/dev/full", W_OK))
		cr_skip_test("no /dev/full here");
	f = fopen("/dev/full", "w");
	cr_assert_not_null(f);
	w = recorder__new(f);
	cr_assert_eq(recorder__write(w, REC_FDS, &fds, sizeof(fds)), 0, "in the buffer yet");
	cr_assert_eq(recorder__bytes(w), 32);
	cr_assert_eq(recorder__finish(w), -ENOSPC);
	fclose(f);
}

Test(recorder, finishing_no_recorder_is_no_error)
{
	cr_assert_eq(recorder__finish(NULL), 0);
}
