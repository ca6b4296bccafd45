// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_record.c - libFuzzer harness for the record-file reader: any bytes
 * given to `wakeprobe report` go through the reader, the analysis and the
 * text report (of a workload's runs or of an attach run), and must end in
 * a report or a one-line error.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "text_attach.h"
#include "text_workload.h"

static FILE *sink;

static int report_run(struct replay_run *run, void *ctx)
{
	(void)ctx;
	text_workload__print_text(sink, &run->cfg, &run->res);
	free(run);
	return 0;
}

static int report_attach_run(struct attach_replay_run *run, void *ctx)
{
	const struct attach_view view = { .pairs = 10 };
	struct attach_report r;

	attach_run__report(&run->run, &view, &r);
	(void)ctx;
	text_attach__print_text(sink, &r);
	attach_replay_run__free(run);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct attach_replay_opts aro = { .analysis = { .outliers = 3 }, .run_done = report_attach_run };
	struct replay_opts ro = { .analysis = { .outliers = 3 }, .run_done = report_run, .attach = &aro };
	char msg[512];
	FILE *in;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "rb");
	if (!in)
		return 0;
	if (replay__file(in, "fuzz", &ro, msg, sizeof(msg)) && (!strstr(msg, "byte offset") &&
								!strstr(msg, "empty file") &&
								!strstr(msg, "out of memory")))
		abort();	/* every error names where it is */
	fclose(in);
	return 0;
}
