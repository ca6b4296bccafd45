/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summaries.h - the one-line summary of each wakeup path, written once:
 * wakeprobe's catalog shows it (--list-workloads, the first line of a report,
 * a recording's run header) and the workload prints the same words in its
 * own --help.
 *
 * A recorded run keeps the summary it was made with, and the golden reports
 * in tests/fixtures/ quote these: rewording one changes what new reports say.
 */
#ifndef WAKEPROBE_SUMMARIES_H
#define WAKEPROBE_SUMMARIES_H

#define WP_SUMMARY_COND			"pthread_cond_signal() wakes a thread in pthread_cond_wait() (futex)"
#define WP_SUMMARY_SEM			"sem_post() wakes a thread blocked in sem_wait() (futex)"
#define WP_SUMMARY_EVENTFD		"write() to an eventfd wakes a thread blocked in read()"
#define WP_SUMMARY_PIPE			"a one-byte write() to a pipe wakes a thread blocked in read()"
#define WP_SUMMARY_SIGNAL_HANDLER	"tgkill() runs the handler of a thread waiting in sigsuspend()"
#define WP_SUMMARY_SIGWAIT		"tgkill() wakes a thread blocked in sigwaitinfo() on that signal"
#define WP_SUMMARY_SPIN			"a store to a shared cache line ends a thread's busy-wait (no kernel)"
#define WP_SUMMARY_SHMSEM		"sem_post() on a process-shared semaphore in mmap'd memory wakes another process"
#define WP_SUMMARY_FUTEX		"raw FUTEX_WAKE_PRIVATE wakes a thread in FUTEX_WAIT_PRIVATE"
#define WP_SUMMARY_THREAD_START		"pthread_create() starts a thread: clone(), then its first run (sched_wakeup_new)"

#endif /* WAKEPROBE_SUMMARIES_H */
