/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memout.h - an in-memory output stream for a suite of tests of a writer:
 * memout__open() as the suite's .init, memout__close() as its .fini; the
 * writer writes to @out, and written() is what it wrote so far. For a
 * test that holds one call's text to another's (the sinks' that write at
 * the end, test_text.c, test_folded.c, test_prometheus.c), printed() is
 * what a single call writes, in a stream of its own.
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

/* printed - what @print writes to __f, a stream into memory, NUL-terminated (the caller frees) */
#define printed(print)								\
	({									\
		char *__buf = NULL;						\
		size_t __len = 0;						\
		FILE *__f = open_memstream(&__buf, &__len);			\
										\
		cr_assert_not_null(__f);					\
		print;								\
		cr_assert_eq(fclose(__f), 0);					\
		__buf;								\
	})

#endif /* WAKEPROBE_TEST_MEMOUT_H */
