/* SPDX-License-Identifier: GPL-2.0 */
/* test_mechanism.c - a wakeup's mechanism named from both ends: the waker's and the wait's */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "mechanism.h"

#define FUTEX_ADDR	0x7f12a0ull
#define OTHER_ADDR	0x7f12c8ull

static struct waker_info syscall_waker(int32_t nr, uint64_t arg, uint64_t arg2, enum fd_kind kind)
{
	struct waker_info w;

	memset(&w, 0, sizeof(w));
	w.cls = WP_WAKER_SYSCALL;
	w.nr = nr;
	w.tid = 1001;
	w.tgid = 1000;
	w.since_ns = 1;
	w.arg = arg;
	w.arg2 = arg2;
	w.fd_kind = (uint8_t)kind;
	return w;
}

static struct waker_info other_waker(enum wp_waker_class cls, enum wp_irq_kind kind, int32_t nr, uint32_t tid,
				     uint32_t tgid, const char *comm)
{
	struct waker_info w;

	memset(&w, 0, sizeof(w));
	w.cls = (uint8_t)cls;
	w.irq_kind = (uint8_t)kind;
	w.nr = nr;
	w.tid = tid;
	w.tgid = tgid;
	if (comm)
		strncpy(w.comm, comm, sizeof(w.comm) - 1);
	return w;
}

static struct wait_info wait_in(int64_t nr, uint64_t arg, uint64_t arg2, enum fd_kind kind)
{
	struct wait_info t;

	memset(&t, 0, sizeof(t));
	t.known = true;
	t.nr = nr;
	t.arg = arg;
	t.arg2 = arg2;
	t.fd_kind = (uint8_t)kind;
	return t;
}

static void assert_named(const struct waker_info *w, const struct wait_info *t, const char *want,
			 enum mech_family family)
{
	char name[MECHANISM_NAME_LEN];

	mechanism__name(w, t, name, sizeof(name));
	cr_assert_str_eq(name, want);
	cr_assert_eq(mechanism__family(w, t), family, "%s: family %s, not %s", want,
		     mechanism__family_name(mechanism__family(w, t)), mechanism__family_name(family));
}

Test(mechanism, a_futex_wake_and_a_wait_on_the_same_address_name_the_address_once)
{
	struct waker_info w = syscall_waker(SYS_futex, FUTEX_ADDR, FUTEX_WAKE_PRIVATE, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_BITSET_PRIVATE, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "futex 0x7f12a0 wake -> wait_bitset", MECH_FUTEX);
	t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "futex 0x7f12a0 wake -> wait", MECH_FUTEX);
	/* the v6.7 calls name the same ends */
	w = syscall_waker(SYS_futex_wake, FUTEX_ADDR, ~0ull, FD_KIND_UNKNOWN);
	t = wait_in(SYS_futex_wait, FUTEX_ADDR, 0, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "futex 0x7f12a0 wake -> wait", MECH_FUTEX);
}

Test(mechanism, a_futex_wake_on_another_address_names_both)
{
	/* a requeued waiter: the wake is on the mutex, the wait was on the condition variable */
	struct waker_info w = syscall_waker(SYS_futex, OTHER_ADDR, FUTEX_WAKE_PRIVATE, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_REQUEUE_PI, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "futex 0x7f12c8 wake -> futex 0x7f12a0 wait_requeue_pi", MECH_FUTEX);
}

Test(mechanism, the_futex_addresses_of_a_wake_and_a_wait)
{
	struct waker_info w = syscall_waker(SYS_futex, FUTEX_ADDR, FUTEX_CMP_REQUEUE_PRIVATE, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_futex, OTHER_ADDR, FUTEX_LOCK_PI, FD_KIND_UNKNOWN);
	uint64_t addr = 0;

	cr_assert(mechanism__futex_wake_addr(&w, &addr));
	cr_assert_eq(addr, FUTEX_ADDR);
	cr_assert(mechanism__futex_wait_addr(&t, &addr));
	cr_assert_eq(addr, OTHER_ADDR);
	/* a futex call that cannot wake, or cannot wait, is neither */
	w = syscall_waker(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_PRIVATE, FD_KIND_UNKNOWN);
	cr_assert_not(mechanism__futex_wake_addr(&w, &addr));
	t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAKE, FD_KIND_UNKNOWN);
	cr_assert_not(mechanism__futex_wait_addr(&t, &addr));
	/* futex_waitv waits on an array: no one address */
	t = wait_in(SYS_futex_waitv, FUTEX_ADDR, 2, FD_KIND_UNKNOWN);
	cr_assert_not(mechanism__futex_wait_addr(&t, &addr));
	t.known = false;
	t.nr = SYS_futex;
	t.arg2 = FUTEX_WAIT;
	cr_assert_not(mechanism__futex_wait_addr(&t, &addr), "an unknown wait is no futex wait");
}

/*
 * The fd mechanisms: the same kind at both ends is named once. Arrays, not
 * pointers: Criterion copies parameters into each test's process.
 */
struct fd_case {
	int waker_nr;
	int wait_nr;
	enum fd_kind kind;
	char want[MECHANISM_NAME_LEN];
	enum mech_family family;
};

ParameterizedTestParameters(mechanism, fd_mechanisms)
{
	static struct fd_case cases[] = {
		{ SYS_write, SYS_read, FD_KIND_EVENTFD, "eventfd write -> read", MECH_EVENTFD },
		{ SYS_write, SYS_read, FD_KIND_PIPE, "pipe write -> read", MECH_PIPE },
		{ SYS_writev, SYS_readv, FD_KIND_PIPE, "pipe write -> read", MECH_PIPE },
		{ SYS_sendto, SYS_recvfrom, FD_KIND_UNIX_STREAM, "unix stream socket send -> recv", MECH_UNIX_SOCKET },
		{ SYS_sendmsg, SYS_recvmsg, FD_KIND_TCP_SOCKET, "tcp socket send -> recv", MECH_SOCKET },
		{ SYS_connect, SYS_accept4, FD_KIND_UNIX_STREAM, "unix stream socket connect -> accept",
		  MECH_UNIX_SOCKET },
		{ SYS_close, SYS_read, FD_KIND_PIPE, "pipe close -> read", MECH_PIPE },
		{ SYS_read, SYS_write, FD_KIND_PIPE, "pipe read -> write", MECH_PIPE },
		/* every other kind the kernel side tells */
		{ SYS_write, SYS_read, FD_KIND_FIFO, "fifo write -> read", MECH_PIPE },
		{ SYS_sendto, SYS_recvfrom, FD_KIND_UNIX_DGRAM, "unix dgram socket send -> recv", MECH_UNIX_SOCKET },
		{ SYS_write, SYS_read, FD_KIND_UNIX_SEQPACKET, "unix seqpacket socket write -> read",
		  MECH_UNIX_SOCKET },
		{ SYS_sendto, SYS_recvfrom, FD_KIND_UDP_SOCKET, "udp socket send -> recv", MECH_SOCKET },
		{ SYS_sendmsg, SYS_recvmsg, FD_KIND_NETLINK, "netlink socket send -> recv", MECH_SOCKET },
		{ SYS_sendto, SYS_recvfrom, FD_KIND_SOCKET, "socket send -> recv", MECH_SOCKET },
		{ SYS_write, SYS_read, FD_KIND_TIMERFD, "timerfd write -> read", MECH_TIMER },
		{ SYS_write, SYS_read, FD_KIND_SIGNALFD, "signalfd write -> read", MECH_SIGNAL },
		{ SYS_write, SYS_read, FD_KIND_INOTIFY, "inotify write -> read", MECH_OTHER },
		{ SYS_mq_timedsend, SYS_mq_timedreceive, FD_KIND_MQUEUE, "mqueue send -> receive", MECH_MQUEUE },
		{ SYS_io_uring_enter, SYS_io_uring_enter, FD_KIND_IO_URING, "io_uring io_uring_enter -> io_uring_enter",
		  MECH_OTHER },
		{ SYS_write, SYS_read, FD_KIND_TTY, "tty write -> read", MECH_OTHER },
		{ SYS_fdatasync, SYS_read, FD_KIND_BLOCK_DEVICE, "block device fdatasync -> read", MECH_OTHER },
		{ SYS_write, SYS_read, FD_KIND_CHAR_DEVICE, "char device write -> read", MECH_OTHER },
		{ SYS_fsync, SYS_read, FD_KIND_FILE, "file fsync -> read", MECH_OTHER },
		{ SYS_write, SYS_read, FD_KIND_OTHER, "other write -> read", MECH_OTHER },
		{ SYS_flock, SYS_flock, FD_KIND_FILE, "file flock -> flock", MECH_OTHER },
	};

	return cr_make_param_array(struct fd_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct fd_case *c, mechanism, fd_mechanisms)
{
	struct waker_info w = syscall_waker(c->waker_nr, 5, 0, c->kind);
	struct wait_info t = wait_in(c->wait_nr, 7, 0, c->kind);

	assert_named(&w, &t, c->want, c->family);
}

Test(mechanism, fds_of_unknown_kinds_go_by_their_numbers)
{
	struct waker_info w = syscall_waker(SYS_write, 5, 0, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_read, 7, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "fd 5 write -> fd 7 read", MECH_OTHER);
	/* one end known: the family comes from it */
	t.fd_kind = FD_KIND_PIPE;
	assert_named(&w, &t, "fd 5 write -> pipe read", MECH_PIPE);
}

/* a child's exit ends its parent's wait4(): the family says so, not "other" */
Test(mechanism, a_wait_for_a_child_is_of_the_exit_family)
{
	struct waker_info w = syscall_waker(SYS_exit_group, 0, 0, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_wait4, (uint64_t)-1, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "exit_group -> wait4", MECH_EXIT);
	t = wait_in(SYS_waitid, 0, 0, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "exit_group -> waitid", MECH_EXIT);
	/* a thread's end that wakes its joiner is the futex's */
	w = syscall_waker(SYS_exit, 0, 0, FD_KIND_UNKNOWN);
	t = wait_in(SYS_futex, 0x7f0000, FUTEX_WAIT_BITSET, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "exit -> futex 0x7f0000 wait_bitset", MECH_FUTEX);
	cr_assert_str_eq(mechanism__family_name(MECH_EXIT), "exit");
	cr_assert_str_eq(mechanism__family_name(MECH_MQUEUE), "mqueue");
}

Test(mechanism, an_fd_the_syscall_found_closed_says_so_with_its_number)
{
	struct waker_info w = syscall_waker(SYS_write, 5, 0, FD_KIND_CLOSED);
	struct wait_info t = wait_in(SYS_read, 7, 0, FD_KIND_PIPE);

	assert_named(&w, &t, "fd 5 (closed) write -> pipe read", MECH_PIPE);
	w.fd_kind = FD_KIND_PIPE;
	t.fd_kind = FD_KIND_CLOSED;
	assert_named(&w, &t, "pipe write -> fd 7 (closed) read", MECH_PIPE);
	w.fd_kind = FD_KIND_CLOSED;
	assert_named(&w, &t, "fd 5 (closed) write -> fd 7 (closed) read", MECH_OTHER);
}

Test(mechanism, a_wakee_in_epoll_is_woken_through_epoll_whatever_made_the_fd_ready)
{
	struct waker_info w = syscall_waker(SYS_write, 5, 0, FD_KIND_EVENTFD);
	struct wait_info t = wait_in(SYS_epoll_wait, 9, 0, FD_KIND_EPOLL);

	assert_named(&w, &t, "eventfd write -> epoll wait", MECH_EPOLL);
	t = wait_in(SYS_epoll_pwait2, 9, 0, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "eventfd write -> epoll wait", MECH_EPOLL);
	t = wait_in(SYS_ppoll, 0x7ffd0000, 2, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "eventfd write -> poll", MECH_EPOLL);
	t = wait_in(SYS_pselect6, 8, 0, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "eventfd write -> select", MECH_EPOLL);
}

Test(mechanism, signals_name_the_sending_call_and_the_wait)
{
	struct waker_info w = syscall_waker(SYS_tgkill, 1000, 1002, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_rt_sigtimedwait, 0x7ffd0000, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "signal tgkill -> sigtimedwait", MECH_SIGNAL);
	t = wait_in(SYS_rt_sigsuspend, 0x7ffd0000, 8, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "signal tgkill -> sigsuspend", MECH_SIGNAL);
	/* a signal that interrupts a read: the read is what it ended */
	w = syscall_waker(SYS_kill, 1000, 10, FD_KIND_UNKNOWN);
	t = wait_in(SYS_read, 3, 0, FD_KIND_PIPE);
	assert_named(&w, &t, "signal kill -> pipe read", MECH_SIGNAL);
}

Test(mechanism, a_timer_ends_a_sleep_or_times_a_wait_out)
{
	struct waker_info w = other_waker(WP_WAKER_TIMER, WP_IRQ_TIMER, -1, 0, 0, NULL);
	struct wait_info t = wait_in(SYS_clock_nanosleep, 1, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "timer (sleep ended)", MECH_TIMER);
	t = wait_in(SYS_nanosleep, 0x7ffd0000, 0, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "timer (sleep ended)", MECH_TIMER);
	t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_BITSET_PRIVATE, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "timer -> futex 0x7f12a0 wait_bitset", MECH_TIMER);
	t = wait_in(SYS_read, 4, 0, FD_KIND_TIMERFD);
	assert_named(&w, &t, "timer -> timerfd read", MECH_TIMER);
	assert_named(&w, NULL, "timer", MECH_TIMER);
}

Test(mechanism, interrupts_processes_and_kernel_threads_are_named_as_wakers)
{
	struct wait_info t = wait_in(SYS_recvfrom, 6, 0, FD_KIND_TCP_SOCKET);
	struct waker_info w;

	w = other_waker(WP_WAKER_IRQ, WP_IRQ_HARD, 24, 0, 0, "eth0");
	assert_named(&w, NULL, "irq 24 eth0", MECH_IRQ);
	assert_named(&w, &t, "irq 24 eth0 -> tcp socket recv", MECH_IRQ);
	w = other_waker(WP_WAKER_IRQ, WP_IRQ_CALL_FUNC, 251, 0, 0, NULL);
	assert_named(&w, NULL, "call-func IPI", MECH_IRQ);
	w = other_waker(WP_WAKER_IRQ, WP_IRQ_TIMER, 236, 0, 0, NULL);
	assert_named(&w, NULL, "timer interrupt", MECH_IRQ);
	w = other_waker(WP_WAKER_SOFTIRQ, WP_IRQ_SOFT, 3, 0, 0, NULL);
	assert_named(&w, NULL, "softirq NET_RX", MECH_SOFTIRQ);
	assert_named(&w, &t, "softirq NET_RX -> tcp socket recv", MECH_SOFTIRQ);
	w = other_waker(WP_WAKER_KTHREAD, 0, -1, 77, 0, "kworker/1:2");
	assert_named(&w, NULL, "kernel thread kworker/1:2", MECH_KTHREAD);
	w = other_waker(WP_WAKER_PROCESS, 0, -1, 1236, 1234, "bash");
	assert_named(&w, NULL, "process bash 1234", MECH_PROCESS);
	w = other_waker(WP_WAKER_TRACKED, 0, -1, 1003, 1000, "worker");
	t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT, FD_KIND_UNKNOWN);
	assert_named(&w, &t, "thread worker 1003 -> futex 0x7f12a0 wait", MECH_FUTEX);
	memset(&w, 0, sizeof(w));
	assert_named(&w, &t, "unknown waker -> futex 0x7f12a0 wait", MECH_FUTEX);
	assert_named(&w, NULL, "unknown waker", MECH_UNKNOWN);
}

Test(mechanism, a_sleep_outside_a_syscall_is_said_so)
{
	struct waker_info w = other_waker(WP_WAKER_KTHREAD, 0, -1, 40, 0, "kswapd0");
	struct wait_info t = wait_in(-1, 0, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "kernel thread kswapd0 -> sleep outside a syscall", MECH_KTHREAD);
}

Test(mechanism, a_waker_is_identified_within_its_class)
{
	struct waker_info w = syscall_waker(SYS_write, 5, 0, FD_KIND_EVENTFD);
	struct waker_info irq = other_waker(WP_WAKER_IRQ, WP_IRQ_HARD, 24, 99, 0, "eth0");
	struct waker_info ipi = other_waker(WP_WAKER_IRQ, WP_IRQ_CALL_FUNC, 24, 99, 0, NULL);
	struct waker_info proc = other_waker(WP_WAKER_PROCESS, 0, -1, 1236, 1234, "bash");
	struct waker_info timer = other_waker(WP_WAKER_TIMER, WP_IRQ_TIMER, -1, 99, 0, NULL);

	cr_assert_eq(mechanism__waker_id(&w), 1001, "a thread by its tid");
	cr_assert_eq(mechanism__waker_id(&proc), 1234, "a process by its pid");
	cr_assert_eq(mechanism__waker_id(&irq), 24, "a hard irq by its number");
	cr_assert_neq(mechanism__waker_id(&ipi), mechanism__waker_id(&irq), "a vector is not irq 24");
	cr_assert_eq(mechanism__waker_id(&timer), 0, "the timers are one waker");
}

Test(mechanism, the_names_of_syscalls_and_fd_kinds)
{
	struct waker_info w = syscall_waker(SYS_getpid, 0, 0, FD_KIND_UNKNOWN);
	struct waker_info none = syscall_waker(100000, 0, 0, FD_KIND_UNKNOWN);

	/* every syscall of the build's architecture, from its headers: those with no word of wakeprobe's too */
	cr_assert_str_eq(mechanism__syscall_name(SYS_epoll_pwait2), "epoll_pwait2");
	cr_assert_str_eq(mechanism__syscall_name(SYS_futex_wake), "futex_wake");
	cr_assert_str_eq(mechanism__syscall_name(SYS_getpid), "getpid");
	cr_assert_str_eq(mechanism__syscall_name(SYS_fdatasync), "fdatasync");
	cr_assert_str_eq(mechanism__syscall_name(SYS_mq_timedsend), "mq_timedsend");
	cr_assert_str_eq(mechanism__syscall_name(0), "read");
	cr_assert_null(mechanism__syscall_name(-1));
	cr_assert_null(mechanism__syscall_name(100000), "no such syscall");
	cr_assert(mechanism__syscall_takes_fd(SYS_recvmsg));
	cr_assert_not(mechanism__syscall_takes_fd(SYS_futex));
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNIX_STREAM), "unix stream socket");
	cr_assert_str_eq(fd_kinds__name(NR_FD_KINDS), "fd");
	cr_assert_str_eq(mechanism__family_name(MECH_EPOLL), "epoll");

	/* a syscall wakeprobe has no word for goes by its name, one the headers do not know by its number */
	assert_named(&w, NULL, "getpid", MECH_OTHER);
	assert_named(&none, NULL, "syscall 100000", MECH_OTHER);
}

Test(mechanism, a_child_that_execs_wakes_its_parent_out_of_vfork)
{
	struct waker_info w = syscall_waker(SYS_execve, 0, 0, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_vfork, 0, 0, FD_KIND_UNKNOWN);

	assert_named(&w, &t, "execve -> vfork", MECH_OTHER);
}

static void assert_kind(const struct waker_info *w, const struct wait_info *t, const char *want)
{
	char kind[MECHANISM_NAME_LEN];

	mechanism__kind(w, t, kind, sizeof(kind));
	cr_assert_str_eq(kind, want);
}

/* a kind leaves out which futex word, fd, thread or process: many runs' hand-offs are one row */
Test(mechanism, a_kind_names_the_mechanism_without_addresses_fds_or_ids)
{
	struct waker_info w = syscall_waker(SYS_futex, FUTEX_ADDR, FUTEX_WAKE_PRIVATE, FD_KIND_UNKNOWN);
	struct wait_info t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_BITSET_PRIVATE, FD_KIND_UNKNOWN);
	char name[MECHANISM_NAME_LEN];

	assert_kind(&w, &t, "futex wake -> wait_bitset");
	/* two words stay two objects: the wake of one ended a wait on another */
	t = wait_in(SYS_futex, OTHER_ADDR, FUTEX_WAIT_PRIVATE, FD_KIND_UNKNOWN);
	assert_kind(&w, &t, "futex wake -> futex wait");
	w = syscall_waker(SYS_write, 7, 0, FD_KIND_UNKNOWN);
	t = wait_in(SYS_read, 9, 0, FD_KIND_UNKNOWN);
	assert_kind(&w, &t, "fd write -> fd read");
	w = syscall_waker(SYS_write, 7, 0, FD_KIND_PIPE);
	t = wait_in(SYS_read, 9, 0, FD_KIND_PIPE);
	assert_kind(&w, &t, "pipe write -> read");
	/* a thread outside a syscall, named by its name alone; the full name keeps its tid */
	w = other_waker(WP_WAKER_TRACKED, 0, -1, 4242, 4240, "bq-task");
	t = wait_in(SYS_futex, FUTEX_ADDR, FUTEX_WAIT_PRIVATE, FD_KIND_UNKNOWN);
	assert_kind(&w, &t, "thread bq-task -> futex wait");
	mechanism__name(&w, &t, name, sizeof(name));
	cr_assert_str_eq(name, "thread bq-task 4242 -> futex 0x7f12a0 wait");
	w = other_waker(WP_WAKER_PROCESS, 0, -1, 77, 70, "");
	mechanism__waker_kind(&w, name, sizeof(name));
	cr_assert_str_eq(name, "process");
	w = other_waker(WP_WAKER_SOFTIRQ, 0, 3, 0, 0, NULL);
	mechanism__waker_kind(&w, name, sizeof(name));
	cr_assert_str_eq(name, "softirq NET_RX");
}
