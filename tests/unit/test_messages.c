// SPDX-License-Identifier: GPL-2.0
/*
 * test_messages.c - the one-line reasons of the outputs and the record
 * reader: a path quoted in them has its control bytes escaped (\xNN) and is
 * cut after 48 bytes, and a read that fails is not taken for an empty file.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "outfile.h"
#include "rec_reader.h"
#include "replay.h"

static char msg[PATH_MAX + 256];

/* assert_one_clean_line - @s has no newline and no byte a terminal acts on */
static void assert_one_clean_line(const char *s)
{
	for (const char *p = s; *p; p++)
		cr_assert(*p >= 0x20 && *p < 0x7f, "byte 0x%02x in '%s'", (unsigned char)*p, s);
}

Test(messages, an_output_that_cannot_be_created_is_named_escaped)
{
	struct outfile f;

	cr_assert_neq(outfile__open(&f, "--json", "/nonexistent-dir/\033[2J\n.json", msg, sizeof(msg)), 0);
	cr_assert_str_eq(msg, "--json /nonexistent-dir/\\x1b[2J\\x0a.json: cannot create it: No such file or directory");
}

Test(messages, a_long_output_path_is_cut_after_48_bytes)
{
	char path[3000];
	struct outfile f;

	memset(path, 'a', sizeof(path));
	memcpy(path, "/nonexistent-dir/", 17);
	path[sizeof(path) - 1] = '\0';
	cr_assert_neq(outfile__open(&f, "--csv", path, msg, sizeof(msg)), 0);
	cr_assert_str_eq(msg, "--csv /nonexistent-dir/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...: cannot create it: "
			      "No such file or directory");
}

Test(messages, a_recordings_name_is_escaped_in_the_readers_reason)
{
	struct replay_opts ro = { 0 };
	FILE *in = fopen("/dev/null", "rb");

	cr_assert_not_null(in);
	cr_assert_neq(replay__file(in, "a\nb\033[2J.wpr", &ro, msg, sizeof(msg)), 0);
	fclose(in);
	assert_one_clean_line(msg);
	cr_assert(!strncmp(msg, "a\\x0ab\\x1b[2J.wpr: empty file", 29), "'%s'", msg);
}

/* a directory reads as nothing, with EISDIR: that is not an empty recording */
Test(messages, a_directory_read_as_a_recording_is_a_read_error_not_an_empty_file)
{
	struct rec_reader *r;
	FILE *in = fopen("/tmp", "rb");

	cr_assert_not_null(in, "%s", strerror(errno));
	cr_assert_neq(rec_reader__open(&r, in, msg, sizeof(msg)), 0);
	fclose(in);
	cr_assert_str_eq(msg, "read error at byte offset 0: Is a directory");
}
