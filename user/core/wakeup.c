// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "wakeup.h"

static const char *const phase_names[NR_PHASES] = {
	[PHASE_NOTIFY_USER] = "notify_user",
	[PHASE_NOTIFY_KERNEL] = "notify_kernel",
	[PHASE_WAKE_ENQUEUE] = "wake_enqueue",
	[PHASE_RUNQ_WAIT] = "runq_wait",
	[PHASE_RESUME_KERNEL] = "resume_kernel",
	[PHASE_RESUME_USER] = "resume_user",
};

static const char *const label_names[NR_LABELS] = {
	[LABEL_COMPLETE] = "complete",
	[LABEL_NO_SLEEP] = "no_sleep",
	[LABEL_LOST_EVENTS] = "lost_events",
	[LABEL_OUT_OF_WINDOW] = "out_of_window",
	[LABEL_MISSING_EVENT] = "missing_event",
	[LABEL_CLOCK_ORDER] = "clock_order",
	[LABEL_COALESCED] = "coalesced",
	[LABEL_PREEMPTED] = "preempted",
	[LABEL_WOKEN_EARLY] = "woken_early",
};

static const char *const label_texts[NR_LABELS] = {
	[LABEL_COMPLETE] = "every bounding event seen, in order",
	[LABEL_NO_SLEEP] = "wakee had not slept: the notify found it still on its CPU",
	[LABEL_LOST_EVENTS] = "kernel events were dropped inside the sample",
	[LABEL_OUT_OF_WINDOW] = "taken while tracing was not running",
	[LABEL_MISSING_EVENT] = "a bounding kernel event never arrived",
	[LABEL_CLOCK_ORDER] = "a TSC stamp fell just across a kernel one, within the clock error budget",
	[LABEL_COALESCED] = "one wait consumed several notifies",
	[LABEL_PREEMPTED] = "the waiter was switched out while it spun",
	[LABEL_WOKEN_EARLY] = "an earlier notify's wake had already woken this wait",
};

static const char *const mark_names[NR_MARKS] = {
	[MARK_NOTIFY_ENTER] = "waker notify syscall entry",
	[MARK_WAKING] = "sched_waking of the wakee",
	[MARK_WAKEUP] = "sched_wakeup of the wakee",
	[MARK_SWITCH_IN] = "sched_switch to the wakee",
	[MARK_WAIT_EXIT] = "wakee wait syscall exit or signal delivery",
};

const char *wakeup__phase_name(enum phase p)
{
	return p < NR_PHASES ? phase_names[p] : "?";
}

const char *wakeup__label_name(enum sample_label l)
{
	return l < NR_LABELS ? label_names[l] : "?";
}

const char *wakeup__label_describe(enum sample_label l)
{
	return l < NR_LABELS ? label_texts[l] : "?";
}

const char *wakeup__mark_name(enum mark k)
{
	return k < NR_MARKS ? mark_names[k] : "?";
}

static const char *const cause_names[NR_CAUSES] = {
	[CAUSE_IDLE] = "idle",
	[CAUSE_IPI] = "ipi_in_flight",
	[CAUSE_OTHER_TASK] = "other_task",
	[CAUSE_IRQ] = "irq",
	[CAUSE_SOFTIRQ] = "softirq",
	[CAUSE_WAKER_PREEMPTED] = "waker_preempted",
	[CAUSE_WAKEE_PREEMPTED] = "wakee_preempted",
	[CAUSE_REACQUIRE] = "reacquire",
	[CAUSE_HOST] = "host",
	[CAUSE_OWN_WORK] = "own_work",
	[CAUSE_UNEXPLAINED] = "unexplained",
};

static const char *const cause_texts[NR_CAUSES] = {
	[CAUSE_IDLE] = "the target CPU was idle (a halted vCPU waits for the host to run it)",
	[CAUSE_IPI] = "the wake was queued for the target CPU and its IPI had not run yet",
	[CAUSE_OTHER_TASK] = "another task held the CPU the wakee was woken onto",
	[CAUSE_IRQ] = "interrupt handlers: devices, the timer, IPIs",
	[CAUSE_SOFTIRQ] = "softirq processing",
	[CAUSE_WAKER_PREEMPTED] = "the waker was off its CPU inside its notify",
	[CAUSE_WAKEE_PREEMPTED] = "the wakee lost its CPU before it took its timestamp",
	[CAUSE_REACQUIRE] = "the wakee blocked again before its timestamp (cond: the mutex)",
	[CAUSE_HOST] = "host: the hypervisor ran something else on the vCPU the phase needed (steal)",
	[CAUSE_OWN_WORK] = "the path's own work: its task (syscall, library) or the scheduler switching to it",
	[CAUSE_UNEXPLAINED] = "nothing seen accounts for it: no task, interrupt, idle, host or own work",
};

const char *wakeup__cause_name(enum cause c)
{
	return c < NR_CAUSES ? cause_names[c] : "?";
}

const char *wakeup__cause_describe(enum cause c)
{
	return c < NR_CAUSES ? cause_texts[c] : "?";
}

const char *wakeup__irq_kind_name(unsigned int kind)
{
	switch (kind) {
	case WP_IRQ_HARD:
		return "irq";
	case WP_IRQ_SOFT:
		return "softirq";
	case WP_IRQ_TIMER:
		return "timer";
	case WP_IRQ_RESCHED:
		return "resched IPI";
	case WP_IRQ_CALL_FUNC:
		return "call-func IPI";
	default:
		return "?";
	}
}

const char *wakeup__softirq_name(int vec)
{
	/* include/linux/interrupt.h, in vector order */
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec >= 0 && vec < (int)(sizeof(names) / sizeof(names[0])) ? names[vec] : "?";
}

const char *wakeup__signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sig > 0 ? sigabbrev_np(sig) : NULL;

	if (sig <= 0)
		return NULL;
	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

const char *wakeup__interruption(int sig, char *buf, size_t len)
{
	char name[24];

	if (wakeup__signal_name(sig, name, sizeof(name)))
		snprintf(buf, len, "interrupted by %s", name);
	else
		snprintf(buf, len, "interrupted");
	return buf;
}

const char *wakeup__pid(uint32_t pid, char *buf, size_t len)
{
	if (pid & WP_PID_OUTSIDE)
		snprintf(buf, len, "host:%u", pid & ~WP_PID_OUTSIDE);
	else
		snprintf(buf, len, "%u", pid);
	return buf;
}
