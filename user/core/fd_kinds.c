// SPDX-License-Identifier: GPL-2.0
/* fd_kinds.c - what a traced process's fd is, from /proc */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/xattr.h>
#include "fd_kinds.h"

const char *fd_kinds__name(enum fd_kind k)
{
	static const char *const names[NR_FD_KINDS] = {
		[FD_KIND_UNKNOWN] = "fd", [FD_KIND_EVENTFD] = "eventfd", [FD_KIND_PIPE] = "pipe",
		[FD_KIND_UNIX_SOCKET] = "unix socket", [FD_KIND_TCP_SOCKET] = "tcp socket", [FD_KIND_UDP_SOCKET] = "udp socket",
		[FD_KIND_SOCKET] = "socket", [FD_KIND_EPOLL] = "epoll", [FD_KIND_TIMERFD] = "timerfd", [FD_KIND_SIGNALFD] = "signalfd",
		[FD_KIND_FILE] = "file", [FD_KIND_OTHER] = "other",
	};

	return (unsigned int)k < NR_FD_KINDS ? names[k] : "fd";
}

enum fd_kind fd_kinds__classify(const char *link)
{
	static const struct {
		const char *link;
		enum fd_kind kind;
	} anon[] = {
		{ "anon_inode:[eventfd]", FD_KIND_EVENTFD },
		{ "anon_inode:[eventpoll]", FD_KIND_EPOLL },
		{ "anon_inode:[timerfd]", FD_KIND_TIMERFD },
		{ "anon_inode:[signalfd]", FD_KIND_SIGNALFD },
	};
	if (!strncmp(link, "pipe:[", 6))
		return FD_KIND_PIPE;
	if (!strncmp(link, "socket:[", 8))
		return FD_KIND_SOCKET;
	for (size_t i = 0; i < sizeof(anon) / sizeof(anon[0]); i++)
		if (!strcmp(link, anon[i].link))
			return anon[i].kind;
	if (!strncmp(link, "anon_inode:", 11))
		return FD_KIND_OTHER;
	if (link[0] == '/')
		return FD_KIND_FILE;
	return FD_KIND_UNKNOWN;
}

enum fd_kind fd_kinds__socket_kind(const char *protoname)
{
	if (!strncmp(protoname, "UNIX", 4))
		return FD_KIND_UNIX_SOCKET;
	if (!strncmp(protoname, "TCP", 3) || !strcmp(protoname, "MPTCP"))
		return FD_KIND_TCP_SOCKET;
	if (!strncmp(protoname, "UDP", 3))
		return FD_KIND_UDP_SOCKET;
	return FD_KIND_SOCKET;
}

enum fd_kind fd_kinds__of(pid_t tgid, int fd)
{
	char path[64], link[256], proto[32];
	enum fd_kind kind;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tgid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return FD_KIND_UNKNOWN;
	link[n] = '\0';
	kind = fd_kinds__classify(link);
	if (kind != FD_KIND_SOCKET)
		return kind;
	/* the socket's own name for its protocol; an unbound socket has one too */
	n = getxattr(path, "system.sockprotoname", proto, sizeof(proto) - 1);
	if (n <= 0)
		return FD_KIND_SOCKET;
	proto[n] = '\0';
	return fd_kinds__socket_kind(proto);
}

enum fd_kind fd_kinds__cached(struct fd_kinds_cache *c, pid_t tgid, int fd, uint64_t now_ns)
{
	uint32_t h = ((uint32_t)tgid * 2654435761u) ^ ((uint32_t)fd * 40503u);
	__typeof__(c->slot[0]) *s = &c->slot[h % FD_KINDS_CACHE_SLOTS];

	if (s->tgid == tgid && s->fd == fd && now_ns - s->when_ns < FD_KINDS_CACHE_NS)
		return s->kind;
	s->tgid = tgid;
	s->fd = fd;
	s->when_ns = now_ns;
	s->kind = fd_kinds__of(tgid, fd);
	return s->kind;
}

enum fd_kind fd_kinds__cached_now(struct fd_kinds_cache *c, pid_t tgid, int fd)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return fd_kinds__cached(c, tgid, fd, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}
