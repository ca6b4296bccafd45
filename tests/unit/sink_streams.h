/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sink_streams.h - the two streams in memory of a test of a sink that
 * writes as the run goes (test_csv.c, test_perfetto.c): the sink writes to
 * sink_out, the part it hands each kind of run to, called directly, to
 * direct_out; once both_closed(), sink_text and direct_text are what each
 * wrote, to compare byte for byte. sink_streams__open() is the suite's
 * .init, sink_streams__close() its .fini.
 */
#ifndef WAKEPROBE_TEST_SINK_STREAMS_H
#define WAKEPROBE_TEST_SINK_STREAMS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

static char *sink_text, *direct_text;
static size_t sink_len, direct_len;
static FILE *sink_out, *direct_out;

static inline void sink_streams__open(void)
{
	sink_out = open_memstream(&sink_text, &sink_len);
	direct_out = open_memstream(&direct_text, &direct_len);
	cr_assert(sink_out && direct_out);
}

static inline void sink_streams__close(void)
{
	free(sink_text);
	free(direct_text);
}

/* both_closed - the two streams complete, for their texts to be compared */
static inline void both_closed(void)
{
	cr_assert_eq(fclose(sink_out), 0);
	cr_assert_eq(fclose(direct_out), 0);
}

#endif /* WAKEPROBE_TEST_SINK_STREAMS_H */
