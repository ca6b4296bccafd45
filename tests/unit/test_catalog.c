// SPDX-License-Identifier: GPL-2.0
/*
 * test_catalog.c - the wakeup paths wakeprobe knows: each found by its
 * exact name, with the syscalls that bound its kernel phases, how its
 * wait ends and what the merger is told of it, and the summary the
 * workload prints as its own; nothing found for a name it does not know.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include "catalog.h"
#include "summaries.h"

TestSuite(catalog);

#define NR_WORKLOADS	10

struct path_case {
	char name[16];
	char summary[96];
	int32_t notify[SYSCALL_LIST_MAX];	/* -1 ends a shorter list */
	int32_t wait[SYSCALL_LIST_MAX];
	int match_fd;
	enum wait_end wait_end;
	bool user_only;
	bool notify_optional;
	bool new_task;
};

#define FUTEX_NOTIFY	{ SYS_futex, SYS_futex_wake, SYS_futex_requeue, -1 }
#define FUTEX_WAIT	{ SYS_futex, SYS_futex_waitv, SYS_futex_wait, -1 }
#define NONE		{ -1 }

ParameterizedTestParameters(catalog, each_path_is_bounded_by_its_own_syscalls)
{
	static struct path_case cases[] = {
		{ "cond", WP_SUMMARY_COND, FUTEX_NOTIFY, FUTEX_WAIT, 0, WAIT_END_SYSCALL_EXIT, false, true, false },
		{ "sem", WP_SUMMARY_SEM, FUTEX_NOTIFY, FUTEX_WAIT, 0, WAIT_END_SYSCALL_EXIT, false, true, false },
		{ "eventfd", WP_SUMMARY_EVENTFD, { SYS_write, -1 }, { SYS_read, -1 }, 1, WAIT_END_SYSCALL_EXIT, false,
		  false, false },
		{ "pipe", WP_SUMMARY_PIPE, { SYS_write, -1 }, { SYS_read, -1 }, 1, WAIT_END_SYSCALL_EXIT, false, false,
		  false },
		{ "signal-handler", WP_SUMMARY_SIGNAL_HANDLER, { SYS_tgkill, -1 }, NONE, 0, WAIT_END_SIGNAL_DELIVER,
		  false, false, false },
		{ "sigwait", WP_SUMMARY_SIGWAIT, { SYS_tgkill, -1 }, { SYS_rt_sigtimedwait, -1 }, 0,
		  WAIT_END_SYSCALL_EXIT, false, false, false },
		{ "spin", WP_SUMMARY_SPIN, NONE, NONE, 0, WAIT_END_SYSCALL_EXIT, true, false, false },
		{ "shmsem", WP_SUMMARY_SHMSEM, FUTEX_NOTIFY, FUTEX_WAIT, 0, WAIT_END_SYSCALL_EXIT, false, true, false },
		{ "futex", WP_SUMMARY_FUTEX, FUTEX_NOTIFY, FUTEX_WAIT, 0, WAIT_END_SYSCALL_EXIT, false, true, false },
		{ "thread-start", WP_SUMMARY_THREAD_START, { SYS_clone, SYS_clone3, -1 }, { SYS_clone, SYS_clone3, -1 },
		  0, WAIT_END_SYSCALL_EXIT, false, false, true },
	};

	_Static_assert(sizeof(cases) / sizeof(cases[0]) == NR_WORKLOADS, "a path without its case");
	return cr_make_param_array(struct path_case, cases, sizeof(cases) / sizeof(cases[0]));
}

/* expect_list - @l holds @want's numbers up to its -1, in order, and ends there */
static void expect_list(const char *what, const struct syscall_list *l, const int32_t want[SYSCALL_LIST_MAX])
{
	int n = 0;

	while (n < SYSCALL_LIST_MAX && want[n] >= 0)
		n++;
	cr_assert_eq(syscall_list__len(l), n, "%s: %d syscalls, want %d", what, syscall_list__len(l), n);
	for (int i = 0; i < n; i++) {
		cr_assert_eq(l->nr[i], want[i], "%s[%d]: %d, want %d", what, i, l->nr[i], want[i]);
		cr_assert(syscall_list__has(l, want[i]));
	}
	cr_assert_not(syscall_list__has(l, -1), "%s: the end is not a syscall", what);
}

ParameterizedTest(struct path_case *c, catalog, each_path_is_bounded_by_its_own_syscalls)
{
	const struct workload_desc *wl = catalog__find(c->name);

	cr_assert_not_null(wl, "%s", c->name);
	cr_assert_str_eq(wl->name, c->name);
	cr_assert_str_eq(wl->summary, c->summary);
	expect_list("notify", &wl->notify_syscalls, c->notify);
	expect_list("wait", &wl->wait_syscalls, c->wait);
	cr_assert_eq(wl->match_fd, c->match_fd, "%s: match_fd", c->name);
	cr_assert_eq(wl->wait_end, c->wait_end, "%s: wait_end", c->name);
	cr_assert_eq(wl->user_only, c->user_only, "%s: user_only", c->name);
	cr_assert_eq(wl->notify_optional, c->notify_optional, "%s: notify_optional", c->name);
	cr_assert_eq(wl->new_task, c->new_task, "%s: new_task", c->name);
}

Test(catalog, every_path_is_listed_once_under_a_name_of_its_own)
{
	cr_assert_eq(catalog__count(), NR_WORKLOADS);
	cr_assert_leq(catalog__count(), CATALOG_MAX_WORKLOADS);
	for (size_t i = 0; i < catalog__count(); i++) {
		const struct workload_desc *wl = catalog__at(i);

		cr_assert_not_null(wl);
		cr_assert_eq(catalog__find(wl->name), wl, "%s is found where it is listed", wl->name);
		for (size_t k = 0; k < i; k++)
			cr_assert_str_neq(wl->summary, catalog__at(k)->summary, "%s", wl->name);
	}
	cr_assert_null(catalog__at(catalog__count()));
	cr_assert_null(catalog__at((size_t)-1));
}

Test(catalog, only_an_exact_name_is_found)
{
	cr_assert_null(catalog__find("event"));
	cr_assert_null(catalog__find("eventfd2"));
	cr_assert_null(catalog__find("EventFD"));
	cr_assert_null(catalog__find(""));
	cr_assert_null(catalog__find("all"));
	/* a throughput design is not a paced path */
	cr_assert_null(catalog__find("burst-queue"));
	cr_assert_not_null(catalog__find("signal-handler"));
}
