// SPDX-License-Identifier: GPL-2.0
/* test_fd_kinds.c - what a traced process's fd is, from its /proc link and socket tables */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include "fd_kinds.h"

TestSuite(fd_kinds);

Test(fd_kinds, a_link_names_the_kind)
{
	cr_assert_eq(fd_kinds__classify("anon_inode:[eventfd]"), FD_KIND_EVENTFD);
	cr_assert_eq(fd_kinds__classify("pipe:[816243]"), FD_KIND_PIPE);
	cr_assert_eq(fd_kinds__classify("socket:[815340]"), FD_KIND_SOCKET);
	cr_assert_eq(fd_kinds__classify("anon_inode:[eventpoll]"), FD_KIND_EPOLL);
	cr_assert_eq(fd_kinds__classify("anon_inode:[timerfd]"), FD_KIND_TIMERFD);
	cr_assert_eq(fd_kinds__classify("anon_inode:[signalfd]"), FD_KIND_SIGNALFD);
	cr_assert_eq(fd_kinds__classify("anon_inode:[io_uring]"), FD_KIND_OTHER);
	cr_assert_eq(fd_kinds__classify("/dev/null"), FD_KIND_FILE);
	cr_assert_eq(fd_kinds__classify("net:[4026531840]"), FD_KIND_UNKNOWN);
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNIX_SOCKET), "unix socket");
	cr_assert_str_eq(fd_kinds__name(NR_FD_KINDS), "fd");
	cr_assert_str_eq(fd_kinds__name(FD_KIND_UNKNOWN), "fd");
}

Test(fd_kinds, a_socket_is_named_by_its_protocol)
{
	cr_assert_eq(fd_kinds__socket_kind("UNIX-STREAM"), FD_KIND_UNIX_SOCKET);
	cr_assert_eq(fd_kinds__socket_kind("UNIX"), FD_KIND_UNIX_SOCKET);
	cr_assert_eq(fd_kinds__socket_kind("TCP"), FD_KIND_TCP_SOCKET);
	cr_assert_eq(fd_kinds__socket_kind("TCPv6"), FD_KIND_TCP_SOCKET);
	cr_assert_eq(fd_kinds__socket_kind("UDPv6"), FD_KIND_UDP_SOCKET);
	cr_assert_eq(fd_kinds__socket_kind("NETLINK"), FD_KIND_SOCKET);
}

Test(fd_kinds, this_processs_own_fds_are_told_apart)
{
	int pipefd[2], pair[2], efd, ep, tfd, tcp, udp, nul, sfd;
	sigset_t mask;

	cr_assert_eq(pipe(pipefd), 0);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
	efd = eventfd(0, 0);
	ep = epoll_create1(0);
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	tcp = socket(AF_INET, SOCK_STREAM, 0);
	udp = socket(AF_INET, SOCK_DGRAM, 0);
	nul = open("/dev/null", O_RDONLY);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sfd = signalfd(-1, &mask, 0);
	cr_assert(efd >= 0 && ep >= 0 && tfd >= 0 && tcp >= 0 && udp >= 0 && nul >= 0 && sfd >= 0);

	cr_assert_eq(fd_kinds__of(getpid(), pipefd[0]), FD_KIND_PIPE);
	cr_assert_eq(fd_kinds__of(getpid(), pair[1]), FD_KIND_UNIX_SOCKET);
	cr_assert_eq(fd_kinds__of(getpid(), efd), FD_KIND_EVENTFD);
	cr_assert_eq(fd_kinds__of(getpid(), ep), FD_KIND_EPOLL);
	cr_assert_eq(fd_kinds__of(getpid(), tfd), FD_KIND_TIMERFD);
	cr_assert_eq(fd_kinds__of(getpid(), sfd), FD_KIND_SIGNALFD);
	/* an unbound socket is in its family's table too */
	cr_assert_eq(fd_kinds__of(getpid(), tcp), FD_KIND_TCP_SOCKET);
	cr_assert_eq(fd_kinds__of(getpid(), udp), FD_KIND_UDP_SOCKET);
	cr_assert_eq(fd_kinds__of(getpid(), nul), FD_KIND_FILE);
	close(nul);
	cr_assert_eq(fd_kinds__of(getpid(), nul), FD_KIND_UNKNOWN, "a closed fd");
	cr_assert_eq(fd_kinds__of(0x7ffffff, 0), FD_KIND_UNKNOWN, "no such process");
	close(pipefd[0]);
	close(pipefd[1]);
	close(pair[0]);
	close(pair[1]);
	close(efd);
	close(ep);
	close(tfd);
	close(tcp);
	close(udp);
	close(sfd);
}

Test(fd_kinds, a_cached_answer_is_reused_for_a_second_then_asked_again)
{
	static struct fd_kinds_cache cache;
	int pipefd[2], efd;

	cr_assert_eq(pipe(pipefd), 0);
	cr_assert_eq(fd_kinds__cached(&cache, getpid(), pipefd[0], 1000), FD_KIND_PIPE);
	/* the fd becomes an eventfd: within the second the cache still says pipe, after it eventfd */
	close(pipefd[0]);
	efd = eventfd(0, 0);
	cr_assert_eq(dup2(efd, pipefd[0]), pipefd[0]);
	cr_assert_eq(fd_kinds__cached(&cache, getpid(), pipefd[0], 1000 + FD_KINDS_CACHE_NS - 1), FD_KIND_PIPE);
	cr_assert_eq(fd_kinds__cached(&cache, getpid(), pipefd[0], 1000 + FD_KINDS_CACHE_NS), FD_KIND_EVENTFD);
	close(pipefd[0]);
	close(pipefd[1]);
	close(efd);
}
