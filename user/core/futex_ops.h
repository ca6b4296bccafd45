/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex_ops.h - what a futex(2) op does to its caller and its waiters:
 * which ops can wake a waiter, which put their caller to sleep on their
 * first address, and each op's name. The one rule user space reads a
 * futex call by: the merger takes only a waking op as a workload's notify
 * and only a waiting one as the wakee blocking again, mechanism.c names
 * the futex word of both ends by it.
 *
 * The waking ops are the BPF side's list (wp_futex_op_wakes(),
 * bpf/wakeprobe.h), which watches a waker's CPU only for such a call: a
 * notify user space takes is always one the kernel side watched. An op is
 * read without its PRIVATE and CLOCK_REALTIME flags.
 */
#ifndef WAKEPROBE_FUTEX_OPS_H
#define WAKEPROBE_FUTEX_OPS_H

#include <stdbool.h>
#include <stdint.h>

/* futex_ops__cmd - @op's command: the op without its PRIVATE and CLOCK_REALTIME flags */
unsigned int futex_ops__cmd(uint64_t op);
/* futex_ops__wakes - can @op wake a waiter (FUTEX_WAKE, the requeues, FUTEX_UNLOCK_PI, ...)? */
bool futex_ops__wakes(uint64_t op);
/* futex_ops__waits - does @op put its caller to sleep on its first address (FUTEX_WAIT, FUTEX_LOCK_PI, ...)? */
bool futex_ops__waits(uint64_t op);
/* futex_ops__name - @op's command as a word: "wake", "wait_bitset", "cmp_requeue_pi"; "op?" for none */
const char *futex_ops__name(uint64_t op);

#endif /* WAKEPROBE_FUTEX_OPS_H */
