// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "futex_ops.h"
#include "mechanism.h"
#include "wakeup.h"

/* the words of one end of a mechanism: what it acts on, and what it does */
#define END_WORD_LEN	48

struct end {
	char object[END_WORD_LEN];	/* "futex 0x7f12a0", "pipe", "fd 5", "signal", or empty */
	char kind[END_WORD_LEN];	/* the object without which one it is: "futex", "pipe", "fd", "signal" */
	char verb[END_WORD_LEN];	/* "wake", "write", "recv", "nanosleep" */
};

static const char *const family_names[NR_MECH_FAMILIES] = {
	[MECH_UNKNOWN] = "unknown",
	[MECH_FUTEX] = "futex",
	[MECH_EVENTFD] = "eventfd",
	[MECH_PIPE] = "pipe",
	[MECH_UNIX_SOCKET] = "unix socket",
	[MECH_SOCKET] = "socket",
	[MECH_EPOLL] = "epoll",
	[MECH_TIMER] = "timer",
	[MECH_SIGNAL] = "signal",
	[MECH_IRQ] = "irq",
	[MECH_SOFTIRQ] = "softirq",
	[MECH_KTHREAD] = "kernel thread",
	[MECH_PROCESS] = "process",
	[MECH_OTHER] = "other",
	[MECH_START] = "start",
	[MECH_MQUEUE] = "mqueue",
	[MECH_EXIT] = "exit",
};

const char *mechanism__family_name(enum mech_family f)
{
	return f < NR_MECH_FAMILIES ? family_names[f] : "?";
}

/* the keys of the waker classes: fixed identifiers, the words docs/attach.md uses */
static const char *const waker_class_names[WP_WAKER_CLASS_MAX] = {
	[0] = "none",
	[WP_WAKER_SYSCALL] = "syscall",
	[WP_WAKER_TRACKED] = "tracked",
	[WP_WAKER_PROCESS] = "process",
	[WP_WAKER_KTHREAD] = "kthread",
	[WP_WAKER_IRQ] = "irq",
	[WP_WAKER_SOFTIRQ] = "softirq",
	[WP_WAKER_TIMER] = "timer",
};

_Static_assert(WP_WAKER_CLASS_MAX == WP_WAKER_TIMER + 1, "a new waker class needs a name in waker_class_names");

const char *mechanism__waker_class_name(unsigned int cls)
{
	return cls < WP_WAKER_CLASS_MAX ? waker_class_names[cls] : "?";
}

/*
 * Every syscall's name, by number, for the architecture wakeprobe was built
 * for: generated from its kernel headers (<asm/unistd.h>) by the Makefile.
 */
static const char *const syscall_names[] = {
#include "syscall_names.h"
};

/*
 * The syscalls a wakeup can begin or end in that wakeprobe has a word for.
 * verb is what the syscall does to its object at either end of a
 * mechanism; fd says that its first argument is an fd.
 */
struct syscall_word {
	int nr;
	const char *verb;
	bool fd;
};

static const struct syscall_word syscall_words[] = {
	{ SYS_read, "read", true },
	{ SYS_readv, "read", true },
	{ SYS_pread64, "read", true },
	{ SYS_preadv, "read", true },
	{ SYS_preadv2, "read", true },
	{ SYS_write, "write", true },
	{ SYS_writev, "write", true },
	{ SYS_pwrite64, "write", true },
	{ SYS_pwritev, "write", true },
	{ SYS_pwritev2, "write", true },
	{ SYS_recvfrom, "recv", true },
	{ SYS_recvmsg, "recv", true },
	{ SYS_recvmmsg, "recv", true },
	{ SYS_sendto, "send", true },
	{ SYS_sendmsg, "send", true },
	{ SYS_sendmmsg, "send", true },
	{ SYS_accept, "accept", true },
	{ SYS_accept4, "accept", true },
	{ SYS_connect, "connect", true },
	{ SYS_close, "close", true },
	{ SYS_shutdown, "shutdown", true },
	{ SYS_splice, "splice", true },
	{ SYS_epoll_ctl, "epoll_ctl", true },
	/* the multiplexers wait on their own object: epoll's fd, or none */
	{ SYS_epoll_wait, "wait", true },
	{ SYS_epoll_pwait, "wait", true },
	{ SYS_epoll_pwait2, "wait", true },
	{ SYS_poll, "poll", false },
	{ SYS_ppoll, "poll", false },
	{ SYS_select, "select", false },
	{ SYS_pselect6, "select", false },
	{ SYS_nanosleep, "nanosleep", false },
	{ SYS_clock_nanosleep, "clock_nanosleep", false },
	{ SYS_kill, "kill", false },
	{ SYS_tgkill, "tgkill", false },
	{ SYS_tkill, "tkill", false },
	{ SYS_rt_sigqueueinfo, "sigqueue", false },
	{ SYS_rt_tgsigqueueinfo, "sigqueue", false },
	{ SYS_rt_sigtimedwait, "sigtimedwait", false },
	{ SYS_rt_sigsuspend, "sigsuspend", false },
	{ SYS_pause, "pause", false },
	{ SYS_wait4, "wait4", false },
	{ SYS_waitid, "waitid", false },
	{ SYS_futex, "futex", false },
	{ SYS_futex_waitv, "waitv", false },
	{ SYS_futex_wake, "wake", false },
	{ SYS_futex_wait, "wait", false },
	{ SYS_futex_requeue, "requeue", false },
	{ SYS_exit, "exit", false },
	{ SYS_exit_group, "exit_group", false },
	{ SYS_restart_syscall, "restart_syscall", false },
	/* a process's start and its CPU: they wake a parent in vfork(), or a migration thread */
	{ SYS_execve, "execve", false },
	{ SYS_execveat, "execveat", false },
	{ SYS_vfork, "vfork", false },
	{ SYS_clone, "clone", false },
	{ SYS_clone3, "clone3", false },
	{ SYS_sched_setaffinity, "sched_setaffinity", false },
	{ SYS_sched_yield, "sched_yield", false },
	{ SYS_mmap, "mmap", false },
	{ SYS_munmap, "munmap", false },
	{ SYS_mprotect, "mprotect", false },
	{ SYS_madvise, "madvise", false },
	{ SYS_ioctl, "ioctl", true },
	{ SYS_io_uring_enter, "io_uring_enter", true },
	{ SYS_fsync, "fsync", true },
	{ SYS_fdatasync, "fdatasync", true },
	{ SYS_sync_file_range, "sync_file_range", true },
	{ SYS_flock, "flock", true },
	{ SYS_fcntl, "fcntl", true },
	{ SYS_sendfile, "sendfile", true },
	{ SYS_tee, "tee", true },
	{ SYS_vmsplice, "vmsplice", true },
	{ SYS_mq_timedsend, "send", true },
	{ SYS_mq_timedreceive, "receive", true },
	{ SYS_mq_notify, "mq_notify", true },
};

static const struct syscall_word *syscall_word(int64_t nr)
{
	size_t i;

	for (i = 0; i < sizeof(syscall_words) / sizeof(syscall_words[0]); i++)
		if (syscall_words[i].nr == nr)
			return &syscall_words[i];
	return NULL;
}

const char *mechanism__syscall_name(int64_t nr)
{
	if (nr >= 0 && nr < (int64_t)(sizeof(syscall_names) / sizeof(syscall_names[0])) && syscall_names[nr])
		return syscall_names[nr];
	/* the futex calls syscall_list.h numbers itself, for headers older than they are */
	switch (nr) {
	case SYS_futex_waitv:
		return "futex_waitv";
	case SYS_futex_wake:
		return "futex_wake";
	case SYS_futex_wait:
		return "futex_wait";
	case SYS_futex_requeue:
		return "futex_requeue";
	default:
		return NULL;
	}
}

bool mechanism__syscall_takes_fd(int64_t nr)
{
	const struct syscall_word *s = syscall_word(nr);

	return s && s->fd;
}

bool mechanism__futex_wake_addr(const struct waker_info *w, uint64_t *addr)
{
	if (w->cls != WP_WAKER_SYSCALL)
		return false;
	if ((w->nr == SYS_futex && futex_ops__wakes(w->arg2)) || w->nr == SYS_futex_wake) {
		*addr = w->arg;
		return true;
	}
	return false;
}

bool mechanism__futex_wait_addr(const struct wait_info *wait, uint64_t *addr)
{
	if (!wait->known)
		return false;
	if ((wait->nr == SYS_futex && futex_ops__waits(wait->arg2)) || wait->nr == SYS_futex_wait) {
		*addr = wait->arg;
		return true;
	}
	return false;
}

uint32_t mechanism__waker_id(const struct waker_info *w)
{
	switch (w->cls) {
	case WP_WAKER_SYSCALL:
	case WP_WAKER_TRACKED:
	case WP_WAKER_KTHREAD:
		return w->tid;
	case WP_WAKER_PROCESS:
		return w->tgid;
	case WP_WAKER_IRQ:
		/* a hard irq by number, a system vector by its kind: their numbers overlap */
		return w->irq_kind == WP_IRQ_HARD ? (uint32_t)w->nr : 0x80000000u | w->irq_kind;
	case WP_WAKER_SOFTIRQ:
		if (w->raised)
			return MECHANISM_RAISER_ID | (w->tgid ? w->tgid : w->tid);
		return (uint32_t)w->nr;
	default:
		return 0;
	}
}

/*
 * fd_object - what an fd of @kind is called at one end: its kind; its
 * number when that is unknown; and "(closed)" when the syscall found no
 * file there
 */
static void fd_object(uint8_t kind, uint64_t fd, struct end *end)
{
	if (kind == FD_KIND_CLOSED) {
		snprintf(end->object, sizeof(end->object), "fd %d (closed)", (int)fd);
		snprintf(end->kind, sizeof(end->kind), "fd (closed)");
	} else if (kind != FD_KIND_UNKNOWN && kind < NR_FD_KINDS) {
		snprintf(end->object, sizeof(end->object), "%s", fd_kinds__name(kind));
		snprintf(end->kind, sizeof(end->kind), "%s", fd_kinds__name(kind));
	} else {
		snprintf(end->object, sizeof(end->object), "fd %d", (int)fd);
		snprintf(end->kind, sizeof(end->kind), "fd");
	}
}

/*
 * futex_object - a futex word as the object of an end: by its address in
 * its process, or a shared one by the file and offset the kernel keys it
 * by, the same in every process
 */
static void futex_object(uint64_t addr, const struct futex_key *key, struct end *end)
{
	if (key->shared)
		snprintf(end->object, sizeof(end->object), "futex inode %" PRIu64 "+0x%" PRIx64, key->ino,
			 key->offset);
	else
		snprintf(end->object, sizeof(end->object), "futex 0x%" PRIx64, addr);
	snprintf(end->kind, sizeof(end->kind), "futex");
}

/* plain_object - an object that is the same whichever one it is: "signal", "epoll" */
static void plain_object(const char *what, struct end *end)
{
	snprintf(end->object, sizeof(end->object), "%s", what);
	snprintf(end->kind, sizeof(end->kind), "%s", what);
}

/* syscall_verb - a syscall as the verb of an end: its word, else its name, else "syscall N" */
static void syscall_verb(int64_t nr, char *buf, size_t len)
{
	const struct syscall_word *s = syscall_word(nr);
	const char *name = s ? s->verb : mechanism__syscall_name(nr);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "syscall %" PRId64, nr);
}

/* waker_end - the waker's end of a mechanism, for a waker in a syscall */
static void waker_end(const struct waker_info *w, struct end *end)
{
	memset(end, 0, sizeof(*end));
	switch (w->nr) {
	case SYS_futex:
		futex_object(w->arg, &w->futex, end);
		snprintf(end->verb, sizeof(end->verb), "%s", futex_ops__name(w->arg2));
		return;
	case SYS_futex_wake:
		futex_object(w->arg, &w->futex, end);
		snprintf(end->verb, sizeof(end->verb), "wake");
		return;
	case SYS_futex_requeue:
		/* its first argument is an array of futexes */
		plain_object("futex", end);
		snprintf(end->verb, sizeof(end->verb), "requeue");
		return;
	case SYS_kill:
	case SYS_tgkill:
	case SYS_tkill:
	case SYS_rt_sigqueueinfo:
	case SYS_rt_tgsigqueueinfo:
		plain_object("signal", end);
		break;
	default:
		if (mechanism__syscall_takes_fd(w->nr))
			fd_object(w->fd_kind, w->arg, end);
		break;
	}
	syscall_verb(w->nr, end->verb, sizeof(end->verb));
}

/* wakee_end - the wakee's end of a mechanism: the syscall it slept in */
static void wakee_end(const struct wait_info *wait, struct end *end)
{
	memset(end, 0, sizeof(*end));
	if (wait->start) {
		snprintf(end->verb, sizeof(end->verb), "first run");
		return;
	}
	if (wait->nr < 0) {
		snprintf(end->verb, sizeof(end->verb), "sleep outside a syscall");
		return;
	}
	switch (wait->nr) {
	case SYS_futex:
		futex_object(wait->arg, &wait->futex, end);
		snprintf(end->verb, sizeof(end->verb), "%s", futex_ops__name(wait->arg2));
		return;
	case SYS_futex_wait:
		futex_object(wait->arg, &wait->futex, end);
		snprintf(end->verb, sizeof(end->verb), "wait");
		return;
	case SYS_futex_waitv:
		/* its first argument is an array of futexes */
		plain_object("futex", end);
		snprintf(end->verb, sizeof(end->verb), "waitv");
		return;
	case SYS_epoll_wait:
	case SYS_epoll_pwait:
	case SYS_epoll_pwait2:
		plain_object("epoll", end);
		break;
	default:
		if (mechanism__syscall_takes_fd(wait->nr))
			fd_object(wait->fd_kind, wait->arg, end);
		break;
	}
	syscall_verb(wait->nr, end->verb, sizeof(end->verb));
}

/* end_object - the object of @end: which one it is, or only its kind */
static const char *end_object(const struct end *end, bool which)
{
	return which ? end->object : end->kind;
}

/* end_name - "object verb", or the verb alone */
static void end_name(const struct end *end, bool which, char *buf, size_t len)
{
	const char *object = end_object(end, which);

	snprintf(buf, len, "%s%s%s", object, object[0] ? " " : "", end->verb);
}

void mechanism__wait_name(const struct wait_info *wait, char *buf, size_t len)
{
	struct end end;

	if (!wait->known) {
		snprintf(buf, len, "unknown wait");
		return;
	}
	wakee_end(wait, &end);
	end_name(&end, true, buf, len);
}

/* softirq_name - "softirq NET_RX", or "softirq" when its vector is not known */
static void softirq_name(const struct waker_info *w, char *buf, size_t len)
{
	if (w->nr < 0)
		snprintf(buf, len, "softirq");
	else
		snprintf(buf, len, "softirq %s", wakeup__softirq_name(w->nr));
}

/* thread_name - "thread worker 1234", or "thread 1234" before its name is known */
static void thread_name(const char *what, const char *comm, uint32_t id, char *buf, size_t len)
{
	char pid[24];

	wakeup__pid(id, pid, sizeof(pid));
	if (comm[0])
		snprintf(buf, len, "%s %.*s %s", what, WP_TASK_COMM_LEN, comm, pid);
	else
		snprintf(buf, len, "%s %s", what, pid);
}

static void irq_name(const struct waker_info *w, char *buf, size_t len)
{
	switch (w->irq_kind) {
	case WP_IRQ_HARD:
		if (w->comm[0])
			snprintf(buf, len, "irq %d %.*s", w->nr, WP_TASK_COMM_LEN, w->comm);
		else
			snprintf(buf, len, "irq %d", w->nr);
		break;
	case WP_IRQ_TIMER:
		/* the local APIC timer's own vector, not an hrtimer's expiry (class TIMER) */
		snprintf(buf, len, "timer interrupt");
		break;
	case WP_IRQ_RESCHED:
	case WP_IRQ_CALL_FUNC:
		snprintf(buf, len, "%s", wakeup__irq_kind_name(w->irq_kind));
		break;
	default:
		/* the lean engine knows it was a hard interrupt, not which */
		if (w->nr < 0)
			snprintf(buf, len, "interrupt");
		else
			snprintf(buf, len, "irq %d", w->nr);
		break;
	}
}

void mechanism__waker_name(const struct waker_info *w, char *buf, size_t len)
{
	switch (w->cls) {
	case WP_WAKER_SYSCALL:
	case WP_WAKER_TRACKED:
		thread_name("thread", w->comm, w->tid, buf, len);
		break;
	case WP_WAKER_PROCESS:
		thread_name("process", w->comm, w->tgid, buf, len);
		break;
	case WP_WAKER_KTHREAD:
		if (w->comm[0])
			snprintf(buf, len, "kernel thread %.*s", WP_TASK_COMM_LEN, w->comm);
		else
			thread_name("kernel thread", "", w->tid, buf, len);
		break;
	case WP_WAKER_IRQ:
		irq_name(w, buf, len);
		break;
	case WP_WAKER_SOFTIRQ:
		if (w->raised)
			thread_name("process", w->comm, w->tgid ? w->tgid : w->tid, buf, len);
		else
			softirq_name(w, buf, len);
		break;
	case WP_WAKER_TIMER:
		snprintf(buf, len, "timer");
		break;
	default:
		snprintf(buf, len, "unknown waker");
		break;
	}
}

void mechanism__waker_kind(const struct waker_info *w, char *buf, size_t len)
{
	bool raised = w->cls == WP_WAKER_SOFTIRQ && w->raised;
	const char *what = w->cls == WP_WAKER_PROCESS || raised ? "process" : "thread";

	if (w->cls != WP_WAKER_SYSCALL && w->cls != WP_WAKER_TRACKED && w->cls != WP_WAKER_PROCESS && !raised) {
		mechanism__waker_name(w, buf, len);
		return;
	}
	if (w->comm[0])
		snprintf(buf, len, "%s %.*s", what, WP_TASK_COMM_LEN, w->comm);
	else
		snprintf(buf, len, "%s", what);
}

static bool is_sleep(int64_t nr)
{
	return nr == SYS_nanosleep || nr == SYS_clock_nanosleep;
}

/*
 * name - the mechanism from both ends; @which: with the futex word's
 * address and the fd's number where they are known, else only their kinds
 */
static void name(const struct waker_info *w, const struct wait_info *wait, bool which, char *buf, size_t len)
{
	char waker[MECHANISM_NAME_LEN], waited[MECHANISM_NAME_LEN];
	bool have_wait = wait && wait->known;
	struct end wk, wt;

	if (have_wait) {
		wakee_end(wait, &wt);
		end_name(&wt, which, waited, sizeof(waited));
	}
	if (w->cls == WP_WAKER_SYSCALL) {
		waker_end(w, &wk);
		/* one object at both ends (the same futex, two ends of a pipe): named once */
		if (have_wait && wk.object[0] && !strcmp(wk.object, wt.object))
			snprintf(buf, len, "%s %s -> %s", end_object(&wk, which), wk.verb, wt.verb);
		else if (have_wait)
			snprintf(buf, len, "%s%s%s -> %s", end_object(&wk, which), wk.object[0] ? " " : "", wk.verb,
				 waited);
		else
			end_name(&wk, which, buf, len);
		return;
	}
	if (w->cls == WP_WAKER_TIMER && have_wait && is_sleep(wait->nr)) {
		snprintf(buf, len, "timer (sleep ended)");
		return;
	}
	/* a softirq its task raised is still the mechanism: the task is the waker, named apart */
	if (w->cls == WP_WAKER_SOFTIRQ)
		softirq_name(w, waker, sizeof(waker));
	else if (which)
		mechanism__waker_name(w, waker, sizeof(waker));
	else
		mechanism__waker_kind(w, waker, sizeof(waker));
	if (have_wait)
		snprintf(buf, len, "%s -> %s", waker, waited);
	else
		snprintf(buf, len, "%s", waker);
}

void mechanism__name(const struct waker_info *w, const struct wait_info *wait, char *buf, size_t len)
{
	name(w, wait, true, buf, len);
}

void mechanism__kind(const struct waker_info *w, const struct wait_info *wait, char *buf, size_t len)
{
	name(w, wait, false, buf, len);
}

static enum mech_family fd_family(uint8_t kind)
{
	switch (kind) {
	case FD_KIND_EVENTFD:
		return MECH_EVENTFD;
	case FD_KIND_PIPE:
	case FD_KIND_FIFO:
		return MECH_PIPE;
	case FD_KIND_UNIX_STREAM:
	case FD_KIND_UNIX_DGRAM:
	case FD_KIND_UNIX_SEQPACKET:
		return MECH_UNIX_SOCKET;
	case FD_KIND_TCP_SOCKET:
	case FD_KIND_UDP_SOCKET:
	case FD_KIND_NETLINK:
	case FD_KIND_SOCKET:
		return MECH_SOCKET;
	case FD_KIND_EPOLL:
		return MECH_EPOLL;
	case FD_KIND_TIMERFD:
		return MECH_TIMER;
	case FD_KIND_SIGNALFD:
		return MECH_SIGNAL;
	case FD_KIND_MQUEUE:
		return MECH_MQUEUE;
	case FD_KIND_FILE:
	case FD_KIND_OTHER:
	case FD_KIND_INOTIFY:
	case FD_KIND_IO_URING:
	case FD_KIND_TTY:
	case FD_KIND_BLOCK_DEVICE:
	case FD_KIND_CHAR_DEVICE:
		return MECH_OTHER;
	default:
		/* unknown, or closed: the other end may tell */
		return MECH_UNKNOWN;
	}
}

static bool is_multiplexer(int64_t nr)
{
	return nr == SYS_epoll_wait || nr == SYS_epoll_pwait || nr == SYS_epoll_pwait2 || nr == SYS_poll ||
	       nr == SYS_ppoll || nr == SYS_select || nr == SYS_pselect6;
}

static bool is_signal_send(int64_t nr)
{
	return nr == SYS_kill || nr == SYS_tgkill || nr == SYS_tkill || nr == SYS_rt_sigqueueinfo ||
	       nr == SYS_rt_tgsigqueueinfo;
}

static bool is_signal_wait(int64_t nr)
{
	return nr == SYS_rt_sigtimedwait || nr == SYS_rt_sigsuspend || nr == SYS_pause;
}

uint8_t mechanism__syscall_roles(int64_t nr)
{
	uint8_t roles = 0;

	if (nr == SYS_futex || nr == SYS_futex_wake || nr == SYS_futex_requeue)
		roles |= WP_ROLE_WAKE_FUTEX;
	if (nr == SYS_futex || nr == SYS_futex_wait || nr == SYS_futex_waitv)
		roles |= WP_ROLE_WAIT_FUTEX;
	if (is_signal_send(nr))
		roles |= WP_ROLE_SIGNAL_SEND;
	if (is_signal_wait(nr))
		roles |= WP_ROLE_SIGNAL_WAIT;
	if (is_sleep(nr))
		roles |= WP_ROLE_SLEEP;
	if (nr == SYS_wait4 || nr == SYS_waitid)
		roles |= WP_ROLE_CHILD_WAIT;
	if (is_multiplexer(nr))
		roles |= WP_ROLE_MULTIPLEXER;
	if (mechanism__syscall_takes_fd(nr))
		roles |= WP_ROLE_TAKES_FD;
	return roles;
}

void mechanism__tables(struct wp_mech_tables *t)
{
	for (int nr = 0; nr < WP_MAX_SYSCALLS; nr++)
		t->roles[nr] = mechanism__syscall_roles(nr);
	for (int kind = 0; kind < NR_FD_KINDS; kind++)
		t->fd_family[kind] = (uint8_t)fd_family((uint8_t)kind);
}

/* the rules are wakeprobe.h's wp_mech_family(), the kernel's too: each end's syscall by its roles */
enum mech_family mechanism__family(const struct waker_info *w, const struct wait_info *wait)
{
	bool have_wait = wait && wait->known, syscall = w->cls == WP_WAKER_SYSCALL;

	return (enum mech_family)wp_mech_family(w->cls, syscall ? mechanism__syscall_roles(w->nr) : 0,
						syscall ? (uint8_t)fd_family(w->fd_kind) : MECH_UNKNOWN, have_wait,
						have_wait && wait->start,
						have_wait ? mechanism__syscall_roles(wait->nr) : 0,
						have_wait ? (uint8_t)fd_family(wait->fd_kind) : MECH_UNKNOWN);
}

bool mechanism__waker_has_task(const struct waker_info *w)
{
	return mechanism__waker_is_thread(w) || (w->cls == WP_WAKER_SOFTIRQ && w->raised);
}

bool mechanism__waker_is_thread(const struct waker_info *w)
{
	return w->cls == WP_WAKER_SYSCALL || w->cls == WP_WAKER_TRACKED || w->cls == WP_WAKER_PROCESS ||
	       w->cls == WP_WAKER_KTHREAD;
}

/* the memo's key: what names a mechanism, compared but for the times, which do not */
struct memo_key {
	struct waker_info w;
	struct wait_info wait;
};

struct memo_slot {
	bool used;
	struct memo_key key;
	uint8_t family;
	char name[MECHANISM_NAME_LEN];
};

struct mechanism_memo {
	struct memo_slot slots[MECHANISM_MEMO_SLOTS];
};

struct mechanism_memo *mechanism_memo__new(void)
{
	return calloc(1, sizeof(struct mechanism_memo));
}

void mechanism_memo__free(struct mechanism_memo *m)
{
	free(m);
}

/* same_but_time - do @a and @b (@n bytes, @time the offset of their time's 8) agree but for it? */
static bool same_but_time(const void *a, const void *b, size_t n, size_t time)
{
	return !memcmp(a, b, time) && !memcmp((const char *)a + time + 8, (const char *)b + time + 8, n - time - 8);
}

enum mech_family mechanism_memo__name(struct mechanism_memo *m, const struct waker_info *w,
				      const struct wait_info *wait, char *buf, size_t len)
{
	static const struct wait_info none;
	struct memo_slot *s;
	uint64_t h;

	if (!wait)
		wait = &none;
	/* what tells two wakeups' names apart most: the rest is compared whole, but for the times */
	h = (uint64_t)w->cls << 56 ^ (uint64_t)(uint32_t)w->nr << 24 ^ w->tid;
	h = (h ^ w->arg) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uint64_t)wait->nr << 32 ^ wait->arg ^ (uint64_t)wait->known << 62) * 0xc2b2ae3d27d4eb4full;
	s = &m->slots[(h ^ (h >> 31)) % MECHANISM_MEMO_SLOTS];
	if (!s->used || !same_but_time(&s->key.w, w, sizeof(*w), offsetof(struct waker_info, since_ns)) ||
	    !same_but_time(&s->key.wait, wait, sizeof(*wait), offsetof(struct wait_info, since_ns))) {
		s->used = true;
		s->key.w = *w;
		s->key.wait = *wait;
		mechanism__name(w, wait == &none ? NULL : wait, s->name, sizeof(s->name));
		s->family = (uint8_t)mechanism__family(w, wait == &none ? NULL : wait);
	}
	if (len) {
		size_t n = strnlen(s->name, len - 1);

		memcpy(buf, s->name, n);
		buf[n] = '\0';
	}
	return (enum mech_family)s->family;
}
