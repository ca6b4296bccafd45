/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memout.h - an in-memory output stream for a suite of tests of a writer:
 * memout__open() as the suite's .init, memout__close() as its .fini; the
 * writer writes to @out, and written() is what it wrote so far
 */
#ifndef WAKEPROBE_TEST_MEMOUT_H
#define WAKEPROBE_TEST_MEMOUT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

static char *text;
static size_t text_len;
static FILE *out;

static inline void memout__open(void)
{
	text = NULL;
	text_len = 0;
	out = open_memstream(&text, &text_len);
	cr_assert_not_null(out);
}

static inline void memout__close(void)
{
	if (out)
		fclose(out);
	out = NULL;
	free(text);
	text = NULL;
}

/* written - what was written so far, NUL-terminated */
static inline const char *written(void)
{
	cr_assert_eq(fflush(out), 0);
	return text;
}

#endif /* WAKEPROBE_TEST_MEMOUT_H */
