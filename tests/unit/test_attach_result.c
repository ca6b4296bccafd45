// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_result.c - what attach mode hands over, whichever engine
 * paired it: the reasons a phase is absent, in words, and the mechanism
 * named from the waker's and the wait's ends, the fd's kind asked only of
 * an end that has an fd and whose record did not say
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include "attach_result.h"
#include "fd_kind_stub.h"

#define OTHER_PROC	4000u
#define WAKER		2001u
#define WAKEE		2002u
#define FUTEX_ADDR	0x7f12a0ull
#define SIGMASK_ADDR	0x7ffd1000ull

TestSuite(attach_result);

/* ---------------------------------------------------------------- absences */

Test(attach_result, every_absence_has_a_name_and_a_sentence_of_its_own)
{
	for (int k = 0; k < NR_ATTACH_ABSENCES; k++) {
		cr_assert_not_null(attach__absence_name(k));
		cr_assert_str_neq(attach__absence_name(k), "?", "absence %d", k);
		cr_assert_gt(strlen(attach__absence_describe(k)), strlen(attach__absence_name(k)), "absence %d", k);
		for (int j = 0; j < k; j++) {
			cr_assert_str_neq(attach__absence_name(k), attach__absence_name(j), "%d and %d", j, k);
			cr_assert_str_neq(attach__absence_describe(k), attach__absence_describe(j), "%d and %d", j, k);
		}
	}
}

Test(attach_result, the_absences_are_named_as_the_json_and_csv_spell_them)
{
	cr_assert_str_eq(attach__absence_name(ATTACH_PRESENT), "present");
	cr_assert_str_eq(attach__absence_name(ATTACH_ABSENT_NO_USER_STAMP), "no_user_stamp");
	cr_assert_str_eq(attach__absence_name(ATTACH_ABSENT_NO_WAIT_SYSCALL), "no_wait_syscall");
	cr_assert_str_eq(attach__absence_name(ATTACH_ABSENT_UNTIMED), "untimed");
	cr_assert(strstr(attach__absence_describe(ATTACH_ABSENT_UNTIMED), "--syscall-phases"));
}

Test(attach_result, an_absence_out_of_range_is_a_question_mark)
{
	cr_assert_str_eq(attach__absence_name(NR_ATTACH_ABSENCES), "?");
	cr_assert_str_eq(attach__absence_describe(NR_ATTACH_ABSENCES), "?");
	cr_assert_str_eq(attach__absence_name((enum attach_absence)200), "?");
}

/* notify_kernel is there only when a thread's syscall woke it and its entry was seen */
Test(attach_result, notify_kernel_is_absent_for_each_waker_but_a_timed_syscall_with_its_entry)
{
	static const struct {
		uint8_t cls;
		uint64_t since_ns;
		bool untimed;
		enum attach_absence want;
	} cases[] = {
		{ WP_WAKER_SYSCALL, 1000, false, ATTACH_PRESENT },
		{ WP_WAKER_SYSCALL, 0, false, ATTACH_ABSENT_ENTRY_UNSEEN },
		{ WP_WAKER_SYSCALL, 0, true, ATTACH_ABSENT_UNTIMED },
		{ WP_WAKER_TRACKED, 1000, false, ATTACH_ABSENT_WAKER_NO_SYSCALL },
		{ WP_WAKER_PROCESS, 0, false, ATTACH_ABSENT_WAKER_UNTRACKED },
		{ WP_WAKER_KTHREAD, 0, false, ATTACH_ABSENT_WAKER_UNTRACKED },
		{ WP_WAKER_IRQ, 1000, false, ATTACH_ABSENT_WAKER_INTERRUPT },
		{ WP_WAKER_SOFTIRQ, 1000, false, ATTACH_ABSENT_WAKER_INTERRUPT },
		{ WP_WAKER_TIMER, 1000, false, ATTACH_ABSENT_WAKER_INTERRUPT },
		{ 0, 0, false, ATTACH_ABSENT_WAKER_INTERRUPT },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct waker_info w = { .cls = cases[i].cls, .since_ns = cases[i].since_ns,
					.untimed = cases[i].untimed, .nr = -1 };

		cr_assert_eq(attach__notify_absence(&w), cases[i].want, "case %zu: %s, not %s", i,
			     attach__absence_name(attach__notify_absence(&w)), attach__absence_name(cases[i].want));
	}
}

/* ---------------------------------------------------------------- mechanisms */

/* a wakeup of WAKEE, of PROC, by @waker, ending the wait in @nr (@arg, @arg2) */
static struct attach_result woken(struct waker_info waker, int64_t nr, uint64_t arg, uint64_t arg2)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.waker = waker;
	r.wakee_tgid = PROC;
	r.wait = (struct wait_info){ .known = true, .nr = nr, .arg = arg, .arg2 = arg2 };
	return r;
}

static struct waker_info syscall_waker(int32_t nr, uint64_t arg, uint64_t arg2)
{
	return (struct waker_info){ .cls = WP_WAKER_SYSCALL, .nr = nr, .tid = WAKER, .tgid = PROC, .arg = arg,
				    .arg2 = arg2, .since_ns = 1000 };
}

/* arrays, not pointers: Criterion copies parameters into each test's process */
struct family_case {
	enum wp_waker_class cls;	/* SYSCALL, or TIMER */
	int32_t waker_nr;
	uint64_t waker_arg;
	uint64_t waker_arg2;
	int64_t wait_nr;
	uint64_t wait_arg;
	uint64_t wait_arg2;
	char mechanism[MECHANISM_NAME_LEN];
	enum mech_family family;
	unsigned int fd_questions;
};

ParameterizedTestParameters(attach_result, every_mechanism_family_is_named_from_both_ends)
{
	static struct family_case cases[] = {
		{ WP_WAKER_SYSCALL, SYS_futex, FUTEX_ADDR, FUTEX_WAKE_PRIVATE, SYS_futex, FUTEX_ADDR,
		  FUTEX_WAIT_PRIVATE, "futex 0x7f12a0 wake -> wait", MECH_FUTEX, 0 },
		{ WP_WAKER_SYSCALL, SYS_write, EFD, 0, SYS_read, EFD, 0, "eventfd write -> read", MECH_EVENTFD, 2 },
		{ WP_WAKER_SYSCALL, SYS_write, PIPE_W, 0, SYS_read, PIPE_R, 0, "pipe write -> read", MECH_PIPE, 2 },
		{ WP_WAKER_SYSCALL, SYS_sendto, SOCK, 0, SYS_recvfrom, SOCK, 0, "unix stream socket send -> recv",
		  MECH_UNIX_SOCKET, 2 },
		{ WP_WAKER_SYSCALL, SYS_write, EFD, 0, SYS_epoll_wait, EPFD, 0, "eventfd write -> epoll wait",
		  MECH_EPOLL, 2 },
		{ WP_WAKER_SYSCALL, SYS_tgkill, PROC, WAKEE, SYS_rt_sigtimedwait, SIGMASK_ADDR, 0,
		  "signal tgkill -> sigtimedwait", MECH_SIGNAL, 0 },
		{ WP_WAKER_TIMER, -1, 0, 0, SYS_clock_nanosleep, 1, 0, "timer (sleep ended)", MECH_TIMER, 0 },
	};

	return cr_make_param_array(struct family_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct family_case *c, attach_result, every_mechanism_family_is_named_from_both_ends)
{
	struct waker_info w = syscall_waker(c->waker_nr, c->waker_arg, c->waker_arg2);
	struct attach_result r;

	fd_kind_calls = 0;
	if (c->cls == WP_WAKER_TIMER)
		w = (struct waker_info){ .cls = WP_WAKER_TIMER, .irq_kind = WP_IRQ_TIMER, .nr = -1,
					 .timer_fn = 0xffffffff81234560ull };
	r = woken(w, c->wait_nr, c->wait_arg, c->wait_arg2);
	attach__name_mechanism(&stub_cfg, &r, NULL);

	cr_assert_str_eq(r.mechanism, c->mechanism);
	cr_assert_eq(r.family, c->family, "family %s", mechanism__family_name(r.family));
	cr_assert_eq(fd_kind_calls, c->fd_questions, "the fd's kind is asked only of the ends that have an fd");
}

Test(attach_result, an_fd_the_kernel_named_is_not_asked_and_without_a_callback_none_is)
{
	struct attach_result r = woken(syscall_waker(SYS_write, EFD, 0), SYS_read, EFD, 0);
	const struct attach_config no_callback = { 0 };

	fd_kind_calls = 0;
	r.waker.fd_kind = FD_KIND_EVENTFD;
	r.wait.fd_kind = FD_KIND_EVENTFD;
	attach__name_mechanism(&stub_cfg, &r, NULL);
	cr_assert_eq(fd_kind_calls, 0);
	cr_assert_str_eq(r.mechanism, "eventfd write -> read");

	r = woken(syscall_waker(SYS_write, EFD, 0), SYS_read, EFD, 0);
	attach__name_mechanism(&no_callback, &r, NULL);
	cr_assert_eq(r.waker.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_eq(r.wait.fd_kind, FD_KIND_UNKNOWN);
	cr_assert_str_eq(r.mechanism, "fd 5 write -> read");
}

Test(attach_result, the_wait_is_asked_of_the_wakees_process_and_not_when_it_is_unknown)
{
	struct attach_result r = woken(syscall_waker(SYS_write, EFD, 0), SYS_read, EFD, 0);

	fd_kind_calls = 0;
	r.wakee_tgid = OTHER_PROC;
	attach__name_mechanism(&stub_cfg, &r, NULL);
	cr_assert_eq(r.waker.fd_kind, FD_KIND_EVENTFD, "the waker's fd is its own process's");
	cr_assert_eq(r.wait.fd_kind, FD_KIND_UNKNOWN, "the wakee's is OTHER_PROC's, which the stub does not know");
	cr_assert_eq(fd_kind_calls, 2);

	r = woken(syscall_waker(SYS_write, EFD, 0), SYS_read, EFD, 0);
	r.wait.known = false;
	fd_kind_calls = 0;
	attach__name_mechanism(&stub_cfg, &r, NULL);
	cr_assert_eq(fd_kind_calls, 1, "a wait no BLOCK told has no fd to ask about");
}

Test(attach_result, a_memo_names_a_mechanism_as_it_is_named_afresh)
{
	struct mechanism_memo *memo = mechanism_memo__new();
	struct attach_result fresh = woken(syscall_waker(SYS_write, PIPE_W, 0), SYS_read, PIPE_R, 0);
	struct attach_result remembered = fresh;

	cr_assert_not_null(memo);
	attach__name_mechanism(&stub_cfg, &fresh, NULL);
	for (int i = 0; i < 3; i++) {
		struct attach_result r = remembered;

		attach__name_mechanism(&stub_cfg, &r, memo);
		cr_assert_str_eq(r.mechanism, fresh.mechanism, "time %d", i);
		cr_assert_eq(r.family, fresh.family, "time %d", i);
	}
	cr_assert_str_eq(fresh.mechanism, "pipe write -> read");
	mechanism_memo__free(memo);
}
