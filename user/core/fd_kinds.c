// SPDX-License-Identifier: GPL-2.0
/* fd_kinds.c - the words for the kinds of fd */
#include "fd_kinds.h"

/* stable words: they are in mechanism names, and so in Prometheus labels (docs/attach.md lists them) */
static const char *const names[NR_FD_KINDS] = {
	[FD_KIND_UNKNOWN] = "fd",
	[FD_KIND_EVENTFD] = "eventfd",
	[FD_KIND_PIPE] = "pipe",
	[FD_KIND_FIFO] = "fifo",
	[FD_KIND_UNIX_STREAM] = "unix stream socket",
	[FD_KIND_UNIX_DGRAM] = "unix dgram socket",
	[FD_KIND_UNIX_SEQPACKET] = "unix seqpacket socket",
	[FD_KIND_TCP_SOCKET] = "tcp socket",
	[FD_KIND_UDP_SOCKET] = "udp socket",
	[FD_KIND_NETLINK] = "netlink socket",
	[FD_KIND_SOCKET] = "socket",
	[FD_KIND_EPOLL] = "epoll",
	[FD_KIND_TIMERFD] = "timerfd",
	[FD_KIND_SIGNALFD] = "signalfd",
	[FD_KIND_INOTIFY] = "inotify",
	[FD_KIND_MQUEUE] = "mqueue",
	[FD_KIND_IO_URING] = "io_uring",
	[FD_KIND_TTY] = "tty",
	[FD_KIND_BLOCK_DEVICE] = "block device",
	[FD_KIND_CHAR_DEVICE] = "char device",
	[FD_KIND_FILE] = "file",
	[FD_KIND_OTHER] = "other",
	[FD_KIND_CLOSED] = "fd",
};

_Static_assert(NR_FD_KINDS == FD_KIND_CLOSED + 1, "a new fd kind needs its word in names[]");

const char *fd_kinds__name(enum fd_kind k)
{
	return (unsigned int)k < NR_FD_KINDS ? names[k] : "fd";
}
