// SPDX-License-Identifier: GPL-2.0
/*
 * test_messages.c - the one-line reasons of the outputs and the record
 * reader: a path quoted in them has its control bytes escaped (\xNN) and is
 * cut after 48 bytes, and a read that fails is not taken for an empty file.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
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

/* ---------------------------------------------------------------- the attach report's first lines */

static struct attach_fixture arun;

/* attach_text - the text report of @arun, whole */
static char *attach_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	text_attach__print_text(f, &arun.report);
	fclose(f);
	return text;
}

/* the command as typed is shown escaped, so that it cannot act on the terminal the report is read on */
Test(messages, the_attach_reports_command_line_is_escaped_and_names_how_the_run_ended)
{
	char *argv[] = { "/tmp/x\033[2J", "a\nb", NULL };
	char *text, *nl;

	memset(&arun, 0, sizeof(arun));
	attach_fixture__make(&arun);
	arun.targets.pids = NULL;
	arun.targets.nr_pids = 0;
	arun.targets.argv = argv;
	arun.run.command_pid = 4242;
	snprintf(arun.run.command_exit, sizeof(arun.run.command_exit), "killed by signal 15 (Terminated)");
	arun.run.interrupted = true;
	arun.run.stop_signal = SIGHUP;
	arun.run.others_stopped = 2;
	text = attach_text();
	nl = strchr(text, '\n');
	cr_assert_not_null(nl);
	*nl = '\0';
	assert_one_clean_line(text);
	cr_assert(strstr(text, "attached to command '/tmp/x\\x1b[2J a\\x0ab' (pid 4242, killed by signal 15 "
			       "(Terminated); 2 processes it started still ran, and were stopped with it)"), "%s", text);
	cr_assert(strstr(nl + 1, "ended: interrupted by SIGHUP\n"), "%s", nl + 1);
	free(text);

	/* a recording from before the signal was kept */
	arun.run.stop_signal = 0;
	arun.run.others_stopped = 1;
	text = attach_text();
	cr_assert(strstr(text, "; 1 process it started still ran, and was stopped with it)"), "%s", text);
	cr_assert(strstr(text, "ended: interrupted\n"), "%s", text);
	free(text);
	attach_fixture__free(&arun);
}
