/* SPDX-License-Identifier: GPL-2.0 */
/*
 * heap_use.h - how much of the heap is in use, for the tests of a writer
 * whose state is sized once, at open, and must not grow however long the
 * run (test_perfetto_timeline.c, test_perfetto_attach.c): heap_in_use()
 * before the long run, assert_heap_flat() after it.
 */
#ifndef WAKEPROBE_TEST_HEAP_USE_H
#define WAKEPROBE_TEST_HEAP_USE_H

#include <criterion/criterion.h>
#include <malloc.h>
#include <stddef.h>
#include <sys/types.h>

/* heap_in_use - the bytes malloc has handed out and not had back, mmapped blocks included */
static inline size_t heap_in_use(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}

/* assert_heap_flat - as much of the heap is in use as @before: nothing grew over the run */
static inline void assert_heap_flat(size_t before)
{
	size_t after = heap_in_use();

	cr_assert_eq(after, before, "the heap grew by %zd bytes over a long run", (ssize_t)after - (ssize_t)before);
}

#endif /* WAKEPROBE_TEST_HEAP_USE_H */
