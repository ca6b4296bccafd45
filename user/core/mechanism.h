/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mechanism.h - what woke a thread, what it waited in, and the name of the
 * mechanism that joins the two, from both ends.
 *
 * The waker is what sched_waking found (struct wp_waker): a thread of a
 * tracked process inside a syscall, with the syscall's number and first two
 * arguments, or outside one, another process, a kernel thread, an interrupt,
 * a softirq, a timer. The wait is the syscall the wakee went to sleep in
 * (struct wp_block). What an fd is (an eventfd, a pipe, a socket) neither
 * record says: whoever knows tells it here, as an enum fd_kind. From these,
 * "futex 0x7f12a0 wake -> wait", "eventfd write -> read", "signal tgkill ->
 * sigtimedwait", "softirq NET_RX -> tcp socket recv", "timer (sleep ended)".
 *
 * Pure code: x86-64 syscall numbers (<sys/syscall.h>) and strings.
 */
#ifndef WAKEPROBE_MECHANISM_H
#define WAKEPROBE_MECHANISM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include "fd_kinds.h"
#include "syscall_list.h"
#include "wakeprobe.h"

/* longest mechanism or waker name, with its NUL: two 64-bit addresses and the longest words fit */
#define MECHANISM_NAME_LEN	96


/* enum mech_family, the family a mechanism belongs to, is wakeprobe.h's: the service sums by it in the kernel */

/*
 * futex_key - the kernel's key of a futex word that lies in a shared
 * mapping of a file (WP_LEAN_FUTEX_KEY): one lock to every process that
 * maps it, whatever address each has it at. Not shared: the word is keyed
 * by its process and address.
 */
struct futex_key {
	bool shared;
	uint32_t dev;			/* the file's device */
	uint64_t ino;			/* its inode */
	uint64_t offset;		/* the word's byte offset in the file */
};

/*
 * The waker, from a WP_EV_WAKER record. cls 0 means no record came with the
 * waking: nothing is known of the waker. tid is the task that was current on
 * the waking CPU: the waker itself, or for an interrupt, softirq or timer
 * the task it came in on.
 */
struct waker_info {
	uint8_t cls;			/* enum wp_waker_class, 0: unknown */
	uint8_t irq_kind;		/* IRQ, SOFTIRQ, TIMER: enum wp_irq_kind */
	uint8_t fd_kind;		/* SYSCALL on an fd: enum fd_kind of arg */
	bool untimed;			/* SYSCALL: named from its registers, its entry not traced (since_ns 0) */
	/*
	 * SOFTIRQ: raised by the task tid (tgid, comm) in its own context, a
	 * send on loopback: that task is the waker behind it (WP_WAKER_RAISED)
	 */
	bool raised;
	int32_t nr;			/* SYSCALL: the syscall; IRQ: irq or vector; SOFTIRQ: vector; else -1 */
	uint32_t tid;
	uint32_t tgid;
	uint64_t since_ns;		/* SYSCALL: its entry, 0 if unknown; IRQ, SOFTIRQ, TIMER: the context's start */
	uint64_t arg;			/* SYSCALL: its first two arguments */
	uint64_t arg2;
	uint64_t timer_fn;		/* TIMER: the hrtimer's function, a kernel text address */
	struct futex_key futex;		/* SYSCALL, a futex wake on a shared word: its key */
	char comm[WP_TASK_COMM_LEN];	/* PROCESS, KTHREAD, TRACKED: current's; IRQ: the handler's; SYSCALL: the
					   thread's, when its switch-in was seen */
};

/* mechanism__waker_is_thread - did a thread wake it (not an irq, softirq or timer, nor unknown)? */
bool mechanism__waker_is_thread(const struct waker_info *w);
/* mechanism__waker_has_task - is a task named as the waker: a thread, or the one that raised its softirq? */
bool mechanism__waker_has_task(const struct waker_info *w);

/* The wait, from the WP_EV_BLOCK record of the wakee's sleep. */
struct wait_info {
	bool known;			/* a BLOCK record told it, or the task is new (start) */
	/*
	 * Not a sleep: a new task's start, from its parent's clone() (nr) to
	 * the task's own exit of that syscall, its first return to user space
	 */
	bool start;
	uint8_t fd_kind;		/* a wait on an fd: enum fd_kind of arg */
	bool untimed;			/* named from its registers: its return is not traced */
	int64_t nr;			/* -1: the wakee slept outside a syscall */
	uint64_t arg;
	uint64_t arg2;
	uint64_t since_ns;		/* the syscall's entry, 0 if unknown */
	struct futex_key futex;		/* a futex wait on a shared word: its key */
};

/* mechanism__family_name - "futex", "eventfd", ..., "other" */
const char *mechanism__family_name(enum mech_family f);
/* mechanism__waker_class_name - enum wp_waker_class as a key: "syscall", "irq", ...; 0 is "none" (no record) */
const char *mechanism__waker_class_name(unsigned int cls);
/* mechanism__syscall_name - a syscall's name on the architecture wakeprobe was built for, NULL for no syscall */
const char *mechanism__syscall_name(int64_t nr);
/* mechanism__syscall_roles - what syscall @nr is to a mechanism's family: WP_ROLE_* bits (wakeprobe.h) */
uint8_t mechanism__syscall_roles(int64_t nr);
/* mechanism__tables - the roles of every syscall and the family of every fd kind, for wp_mech_family() */
void mechanism__tables(struct wp_mech_tables *t);
/* mechanism__syscall_takes_fd - is the syscall's first argument an fd? */
bool mechanism__syscall_takes_fd(int64_t nr);

/* mechanism__futex_wake_addr - does @w wake through a futex? Its address into @addr */
bool mechanism__futex_wake_addr(const struct waker_info *w, uint64_t *addr);
/* mechanism__futex_wait_addr - is @wait a futex wait? Its address into @addr */
bool mechanism__futex_wait_addr(const struct wait_info *wait, uint64_t *addr);

/*
 * mechanism__waker_id - who the waker is, within its class: the thread
 * (SYSCALL, TRACKED, KTHREAD), the process (PROCESS), the irq or vector
 * (IRQ, SOFTIRQ), the process that raised a softirq (MECHANISM_RAISER_ID
 * and its tgid); 0 for a timer and an unknown waker
 */
#define MECHANISM_RAISER_ID	0x40000000u
uint32_t mechanism__waker_id(const struct waker_info *w);
/*
 * mechanism__waker_name - the waker as a person reads it: "thread worker 1234",
 * "process bash 1234", "kernel thread kworker/1:2", "irq 24 eth0",
 * "softirq NET_RX", "timer", "unknown waker"; a softirq its task raised, the
 * task: "process redis-benchmark 812"
 */
void mechanism__waker_name(const struct waker_info *w, char *buf, size_t len);
/* mechanism__wait_name - the wait: "futex 0x7f12a0 wait", "pipe read", "epoll wait", "nanosleep" */
void mechanism__wait_name(const struct wait_info *wait, char *buf, size_t len);
/*
 * mechanism__waker_kind - the waker as mechanism__waker_name() says it, but
 * without the thread's or process's id: "thread worker", "process bash".
 * The wakers of many short-lived threads of one name are one kind.
 */
void mechanism__waker_kind(const struct waker_info *w, char *buf, size_t len);
/*
 * mechanism__name - the mechanism, from both ends; @wait NULL or not known:
 * the waker's end alone. docs/attach.md gives the rules.
 */
void mechanism__name(const struct waker_info *w, const struct wait_info *wait, char *buf, size_t len);
/*
 * mechanism__kind - mechanism__name() without which futex word, fd,
 * thread or process: "futex wake -> wait_bitset", "exit -> futex
 * wait_bitset", "thread worker -> futex wait". What a design does once per
 * task, whatever addresses and ids each run gave it, is one kind.
 */
void mechanism__kind(const struct waker_info *w, const struct wait_info *wait, char *buf, size_t len);
enum mech_family mechanism__family(const struct waker_info *w, const struct wait_info *wait);

/*
 * A memo of names: a wakeup of a pair names the mechanism it named last
 * time, from the same waker and wait, as it was, with a copy instead of a
 * dozen formattings (a machine's wakeups, --all, are mostly repeats). Its
 * key is the whole waker_info and wait_info but for their times, which do
 * not name anything; a slot keeps the last of the keys that hash to it.
 */
#define MECHANISM_MEMO_SLOTS	1024

struct mechanism_memo;

struct mechanism_memo *mechanism_memo__new(void);
void mechanism_memo__free(struct mechanism_memo *m);
/* mechanism_memo__name - mechanism__name() into @buf, mechanism__family() back, from @m when it has them */
enum mech_family mechanism_memo__name(struct mechanism_memo *m, const struct waker_info *w,
				      const struct wait_info *wait, char *buf, size_t len);

#endif /* WAKEPROBE_MECHANISM_H */
