// SPDX-License-Identifier: GPL-2.0
/*
 * test_program_set.c - what a run asks of the BPF side's programs, worked
 * out without loading them
 */
#include <criterion/criterion.h>
#include "catalog.h"
#include "program_set.h"

TestSuite(program_set);

/*
 * A catalog list ends at -1, and what follows it is zeros: syscall 0 is
 * read(), so a walk past the end would trace eventfd's wait at its entry too.
 */
Test(program_set, a_syscall_list_is_read_up_to_its_end_and_no_further)
{
	const struct workload_desc *wl = catalog__find("eventfd");
	__u8 wanted[WP_MAX_SYSCALLS] = {};
	const struct syscall_list full = { { 3, 4, 5, 6 } };
	int nr;

	cr_assert_not_null(wl);
	cr_assert_eq(wl->notify_syscalls.nr[1], -1, "eventfd's notify list is one syscall long");
	program_set__want_syscalls(wanted, &wl->notify_syscalls, WP_SYSCALL_ENTER);
	program_set__want_syscalls(wanted, &wl->wait_syscalls, WP_SYSCALL_EXIT);
	for (nr = 0; nr < WP_MAX_SYSCALLS; nr++) {
		__u8 want = (nr == wl->notify_syscalls.nr[0] ? WP_SYSCALL_ENTER : 0) |
			    (nr == wl->wait_syscalls.nr[0] ? WP_SYSCALL_EXIT : 0);

		cr_assert_eq(wanted[nr], want, "syscall %d: wanted %#x, not %#x", nr, wanted[nr], want);
	}
	/* a list without -1 is read to its size */
	program_set__want_syscalls(wanted, &full, WP_SYSCALL_NOTIFY);
	for (nr = 3; nr <= 6; nr++)
		cr_assert(wanted[nr] & WP_SYSCALL_NOTIFY, "syscall %d of a full list", nr);
	cr_assert_not(wanted[7] & WP_SYSCALL_NOTIFY);
}
