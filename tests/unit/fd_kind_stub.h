/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd_kind_stub.h - the traced process PROC's fds as a stub fd_kind lookup
 * tells them, for the tests that name a wakeup's mechanism from its ends
 * (test_attach.c, test_attach_result.c): an eventfd, a pipe's two ends, a
 * unix stream socket and an epoll fd; any other fd, or any fd of another
 * process, is unknown. stub_fd_kind() counts the questions it is asked in
 * fd_kind_calls; stub_cfg is an attach config that asks it.
 */
#ifndef WAKEPROBE_TEST_FD_KIND_STUB_H
#define WAKEPROBE_TEST_FD_KIND_STUB_H

#include <stdint.h>
#include "attach_result.h"

#define PROC		2000u
#define EFD		5
#define PIPE_R		6
#define PIPE_W		7
#define SOCK		8
#define EPFD		9

static unsigned int fd_kind_calls;

/* stub_fd_kind - what @fd of @tgid is: PROC's fds above; nothing else is known */
static inline enum fd_kind stub_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	(void)ctx;
	fd_kind_calls++;
	if (tgid != PROC)
		return FD_KIND_UNKNOWN;
	switch (fd) {
	case EFD:
		return FD_KIND_EVENTFD;
	case PIPE_R:
	case PIPE_W:
		return FD_KIND_PIPE;
	case SOCK:
		return FD_KIND_UNIX_STREAM;
	case EPFD:
		return FD_KIND_EPOLL;
	default:
		return FD_KIND_UNKNOWN;
	}
}

static const struct attach_config stub_cfg = { .fd_kind = stub_fd_kind };

#endif /* WAKEPROBE_TEST_FD_KIND_STUB_H */
