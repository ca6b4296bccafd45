// SPDX-License-Identifier: GPL-2.0
/* test_replay.c - a record file through the analysis again */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "recording.h"
#include "replay.h"

TestSuite(replay);

/* a replay that takes only workload runs says so, at the attach run's offset */
Test(replay, a_reader_of_workload_runs_only_refuses_an_attach_run_in_one_line)
{
	uint64_t offsets[8];
	struct buf b = write_attach_small(offsets, REC_VERSION);
	struct replay_opts ro = { .analysis = { .outliers = 1 } };
	FILE *in = fmemopen(b.data, b.len, "rb");
	char msg[256] = "";

	cr_assert_lt(replay__file(in, "x.wpr", &ro, msg, sizeof(msg)), 0);
	cr_assert(strstr(msg, "x.wpr: an attach run at byte offset 16"), "%s", msg);
	fclose(in);
	free(b.data);
}
