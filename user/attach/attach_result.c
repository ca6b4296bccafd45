// SPDX-License-Identifier: GPL-2.0
/* attach_result.c - why a phase is absent, in words, and a wakeup's mechanism named (attach_result.h) */
#include "attach_result.h"

static const char *const absence_names[NR_ATTACH_ABSENCES] = {
	[ATTACH_PRESENT] = "present",
	[ATTACH_ABSENT_NO_USER_STAMP] = "no_user_stamp",
	[ATTACH_ABSENT_WAKER_NO_SYSCALL] = "waker_no_syscall",
	[ATTACH_ABSENT_WAKER_UNTRACKED] = "waker_untracked",
	[ATTACH_ABSENT_WAKER_INTERRUPT] = "waker_interrupt",
	[ATTACH_ABSENT_ENTRY_UNSEEN] = "entry_unseen",
	[ATTACH_ABSENT_NO_WAIT_SYSCALL] = "no_wait_syscall",
	[ATTACH_ABSENT_SLEPT_AGAIN] = "slept_again",
	[ATTACH_ABSENT_LABELLED] = "labelled",
	[ATTACH_ABSENT_UNTIMED] = "untimed",
};

static const char *const absence_texts[NR_ATTACH_ABSENCES] = {
	[ATTACH_PRESENT] = "measured",
	[ATTACH_ABSENT_NO_USER_STAMP] = "attach mode has no timestamps inside the program",
	[ATTACH_ABSENT_WAKER_NO_SYSCALL] = "the waker is a tracked thread outside any syscall",
	[ATTACH_ABSENT_WAKER_UNTRACKED] = "the waker is another process or a kernel thread, whose syscalls are not traced",
	[ATTACH_ABSENT_WAKER_INTERRUPT] = "an interrupt, a softirq or a timer woke it: no syscall",
	[ATTACH_ABSENT_ENTRY_UNSEEN] = "the waker's syscall began before its entry could be seen",
	[ATTACH_ABSENT_NO_WAIT_SYSCALL] = "the wakee slept outside a syscall: nothing returns",
	[ATTACH_ABSENT_SLEPT_AGAIN] = "the wakee slept again in its wait syscall before it returned",
	[ATTACH_ABSENT_LABELLED] = "the wakeup is not complete (see its label)",
	[ATTACH_ABSENT_UNTIMED] = "syscalls are named, not timed, without --syscall-phases",
};

const char *attach__absence_name(enum attach_absence why)
{
	return why < NR_ATTACH_ABSENCES ? absence_names[why] : "?";
}

const char *attach__absence_describe(enum attach_absence why)
{
	return why < NR_ATTACH_ABSENCES ? absence_texts[why] : "?";
}

enum attach_absence attach__notify_absence(const struct waker_info *w)
{
	switch (w->cls) {
	case WP_WAKER_SYSCALL:
		if (w->since_ns)
			return ATTACH_PRESENT;
		return w->untimed ? ATTACH_ABSENT_UNTIMED : ATTACH_ABSENT_ENTRY_UNSEEN;
	case WP_WAKER_TRACKED:
		return ATTACH_ABSENT_WAKER_NO_SYSCALL;
	case WP_WAKER_PROCESS:
	case WP_WAKER_KTHREAD:
		return ATTACH_ABSENT_WAKER_UNTRACKED;
	default:
		return ATTACH_ABSENT_WAKER_INTERRUPT;
	}
}

void attach__name_mechanism(const struct attach_config *cfg, struct attach_result *r, struct mechanism_memo *memo)
{
	/* the kernel said what the fd was, since format version 11; an older recording's answers are asked */
	if (cfg->fd_kind && r->waker.cls == WP_WAKER_SYSCALL && !r->waker.fd_kind &&
	    mechanism__syscall_takes_fd(r->waker.nr))
		r->waker.fd_kind = (uint8_t)cfg->fd_kind(r->waker.tgid, (int)r->waker.arg, cfg->fd_kind_ctx);
	if (cfg->fd_kind && r->wait.known && r->wait.nr >= 0 && !r->wait.fd_kind &&
	    mechanism__syscall_takes_fd(r->wait.nr))
		r->wait.fd_kind = (uint8_t)cfg->fd_kind(r->wakee_tgid, (int)r->wait.arg, cfg->fd_kind_ctx);
	if (memo) {
		r->family = (uint8_t)mechanism_memo__name(memo, &r->waker, &r->wait, r->mechanism, sizeof(r->mechanism));
		return;
	}
	mechanism__name(&r->waker, &r->wait, r->mechanism, sizeof(r->mechanism));
	r->family = (uint8_t)mechanism__family(&r->waker, &r->wait);
}
