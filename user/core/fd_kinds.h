/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd_kinds.h - what a file descriptor of a traced process is (an eventfd, a
 * pipe, a unix socket, ...), so that a wakeup through read() or write() can
 * be named by what it went through. Read from the /proc/PID/fd link, and
 * for a socket from its protocol's name (the system.sockprotoname
 * attribute of the same link).
 */
#ifndef WAKEPROBE_FD_KINDS_H
#define WAKEPROBE_FD_KINDS_H

#include <stdint.h>
#include <sys/types.h>

enum fd_kind {
	FD_KIND_UNKNOWN,		/* closed, or the process is gone */
	FD_KIND_EVENTFD,
	FD_KIND_PIPE,		/* a pipe or a FIFO */
	FD_KIND_UNIX_SOCKET,
	FD_KIND_TCP_SOCKET,
	FD_KIND_UDP_SOCKET,
	FD_KIND_SOCKET,		/* another family: netlink, packet, ... */
	FD_KIND_EPOLL,
	FD_KIND_TIMERFD,
	FD_KIND_SIGNALFD,
	FD_KIND_FILE,		/* a file or a device */
	FD_KIND_OTHER,		/* another anonymous inode (io_uring, pidfd, ...) */
	NR_FD_KINDS,
};

/* fd_kinds__name - "eventfd", "pipe", "unix socket", ...; "fd" for an unknown kind */
const char *fd_kinds__name(enum fd_kind k);

/*
 * fd_kinds__classify - the kind of an fd from its /proc/PID/fd link text
 * ("anon_inode:[eventfd]", "pipe:[123]", "socket:[456]", "/dev/null"); a
 * socket's family is not in the link, so a socket is FD_KIND_SOCKET here
 */
enum fd_kind fd_kinds__classify(const char *link);

/* fd_kinds__socket_kind - a socket's kind from its protocol's name: "UNIX-STREAM", "TCPv6", "UDP", ... */
enum fd_kind fd_kinds__socket_kind(const char *protoname);

/* fd_kinds__of - the kind of fd @fd of process @tgid, now */
enum fd_kind fd_kinds__of(pid_t tgid, int fd);

/*
 * A cache of fd_kinds__of() for a busy program, whose every wakeup would
 * otherwise cost a readlink(): an answer is reused for FD_KINDS_CACHE_NS,
 * so an fd closed and opened as something else is named anew after that.
 */
#define FD_KINDS_CACHE_SLOTS	1024
#define FD_KINDS_CACHE_NS	(1000ull * 1000 * 1000)

struct fd_kinds_cache {
	struct {
		int32_t tgid;		/* 0: empty */
		int32_t fd;
		uint64_t when_ns;
		enum fd_kind kind;
	} slot[FD_KINDS_CACHE_SLOTS];
};

/* fd_kinds__cached - fd_kinds__of(), from @c when it asked less than FD_KINDS_CACHE_NS before @now_ns */
enum fd_kind fd_kinds__cached(struct fd_kinds_cache *c, pid_t tgid, int fd, uint64_t now_ns);
/* fd_kinds__cached_now - fd_kinds__cached() asked at this moment (CLOCK_MONOTONIC) */
enum fd_kind fd_kinds__cached_now(struct fd_kinds_cache *c, pid_t tgid, int fd);

#endif /* WAKEPROBE_FD_KINDS_H */
