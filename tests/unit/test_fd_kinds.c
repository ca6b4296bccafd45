// SPDX-License-Identifier: GPL-2.0
/* test_fd_kinds.c - the words for the kinds of fd the kernel side tells */
#include <criterion/criterion.h>
#include <string.h>
#include "fd_kinds.h"

TestSuite(fd_kinds);

Test(fd_kinds, every_kind_has_a_word_of_its_own)
{
	for (int k = FD_KIND_UNKNOWN + 1; k < FD_KIND_CLOSED; k++) {
		cr_assert_not_null(fd_kinds__name(k), "kind %d", k);
		cr_assert_str_neq(fd_kinds__name(k), "fd", "kind %d", k);
		for (int j = FD_KIND_UNKNOWN + 1; j < k; j++)
			cr_assert_str_neq(fd_kinds__name(k), fd_kinds__name(j), "kinds %d and %d", j, k);
	}
}

Test(fd_kinds, the_words_are_the_ones_docs_attach_lists)
{
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNIX_STREAM), "unix stream socket");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNIX_DGRAM), "unix dgram socket");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNIX_SEQPACKET), "unix seqpacket socket");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_FIFO), "fifo");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_MQUEUE), "mqueue");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_BLOCK_DEVICE), "block device");
}

Test(fd_kinds, an_unknown_or_closed_kind_or_one_out_of_range_is_an_fd)
{
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNKNOWN), "fd");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_CLOSED), "fd");
	cr_assert_str_eq(fd_kinds__name(NR_FD_KINDS), "fd");
	cr_assert_str_eq(fd_kinds__name((enum fd_kind)200), "fd");
}
