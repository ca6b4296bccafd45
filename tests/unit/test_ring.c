// SPDX-License-Identifier: GPL-2.0
/*
 * test_ring.c - a power-of-two ring grown to twice its size: every head
 * and length unrolls in order to start at index 0, elements of any size
 * move whole, the grown ring takes more, and a ring that cannot grow is
 * left as it was.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ring.h"

TestSuite(ring);

/* an element of an odd size: a wrong stride shows as a torn or shifted element */
struct elem {
	uint32_t seq;
	char tag[9];
	uint16_t check;
};

static struct elem elem_of(uint32_t seq)
{
	struct elem e;

	memset(&e, 0, sizeof(e));
	e.seq = seq;
	snprintf(e.tag, sizeof(e.tag), "e%07u", seq);
	e.check = (uint16_t)(seq * 7 + 3);
	return e;
}

/* a ring of @cap holding @len elements 1.. from @head on, the other slots filled with garbage */
static struct elem *make_ring(size_t cap, size_t head, size_t len)
{
	struct elem *buf = malloc(cap * sizeof(*buf));

	cr_assert_not_null(buf);
	memset(buf, 0xa5, cap * sizeof(*buf));
	for (size_t i = 0; i < len; i++)
		buf[(head + i) & (cap - 1)] = elem_of((uint32_t)i + 1);
	return buf;
}

Test(ring, every_head_and_length_unrolls_in_order_from_index_zero)
{
	for (size_t cap = 1; cap <= 16; cap *= 2)
		for (size_t head = 0; head < cap; head++)
			for (size_t len = 0; len <= cap; len++) {
				struct elem *buf = make_ring(cap, head, len);
				size_t c = cap, h = head;

				cr_assert_eq(ring__grow((void **)&buf, &c, &h, len, sizeof(*buf)), 0);
				cr_assert_eq(c, cap * 2);
				cr_assert_eq(h, 0);
				for (size_t i = 0; i < len; i++) {
					struct elem want = elem_of((uint32_t)i + 1);

					cr_assert_eq(memcmp(&buf[i], &want, sizeof(want)), 0,
						     "cap %zu head %zu len %zu: element %zu holds seq %u", cap, head, len,
						     i, buf[i].seq);
				}
				free(buf);
			}
}

Test(ring, a_grown_ring_takes_more_and_grows_again)
{
	size_t cap = 4, head = 0, len = 0;
	uint64_t *buf = malloc(cap * sizeof(*buf));
	uint64_t next = 1, want = 1;

	cr_assert_not_null(buf);
	/* a queue: push two, pop one, growing when full, so that the head wanders round */
	for (int round = 0; round < 200; round++) {
		for (int k = 0; k < 2; k++) {
			if (len == cap)
				cr_assert_eq(ring__grow((void **)&buf, &cap, &head, len, sizeof(*buf)), 0);
			buf[(head + len) & (cap - 1)] = next++;
			len++;
		}
		cr_assert_eq(buf[head], want, "round %d: popped %lu, want %lu", round, (unsigned long)buf[head],
			     (unsigned long)want);
		want++;
		head = (head + 1) & (cap - 1);
		len--;
	}
	cr_assert_eq(cap, 256, "200 elements held, in the fewest doublings");
	cr_assert_eq(len, 200);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(buf[(head + i) & (cap - 1)], want + i);
	free(buf);
}

Test(ring, a_ring_whose_doubled_size_would_not_fit_is_left_as_it_was)
{
	/* doubled, these wrap around a size_t: a small block would be had, and the copy overrun it */
	const size_t caps[] = { SIZE_MAX / 2 + 1, (SIZE_MAX >> 5) + 1 };
	const size_t elems[] = { 1, 16 };
	char *buf = malloc(8), *before = buf;

	cr_assert_not_null(buf);
	memcpy(buf, "abcdefg", 8);
	for (size_t k = 0; k < 2; k++) {
		size_t cap = caps[k], head = 3, len = 2;

		cr_assert_eq(ring__grow((void **)&buf, &cap, &head, len, elems[k]), -ENOMEM, "case %zu", k);
		cr_assert_eq(buf, before);
		cr_assert_eq(cap, caps[k]);
		cr_assert_eq(head, 3);
		cr_assert_str_eq(buf, "abcdefg");
	}
	free(buf);
}
