/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd_kinds.h - the words for what a file descriptor of a traced process is
 * (an eventfd, a pipe, a unix stream socket, ...), so that a wakeup through
 * read() or write() is named by what it went through. The kind itself is
 * the kernel's answer (enum fd_kind, bpf/wakeprobe.h), read while the
 * syscall that takes the fd runs.
 */
#ifndef WAKEPROBE_FD_KINDS_H
#define WAKEPROBE_FD_KINDS_H

#include <linux/types.h>
#include "wakeprobe.h"

/* fd_kinds__name - "eventfd", "pipe", "unix stream socket", ...; "fd" for an unknown kind */
const char *fd_kinds__name(enum fd_kind k);

#endif /* WAKEPROBE_FD_KINDS_H */
