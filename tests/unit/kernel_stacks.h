/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_stacks.h - a run's stacks for the tests of what names and writes
 * them (test_stacks.c, test_folded_*.c, test_text_stacks.c,
 * test_json_stacks.c): a small kernel symbol table, the scheduler's and
 * futex's functions under the BPF side's own frames, and the stack ids a
 * wakeup carries.
 */
#ifndef WAKEPROBE_TEST_KERNEL_STACKS_H
#define WAKEPROBE_TEST_KERNEL_STACKS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run_stacks.h"
#include "wakeprobe.h"

/* lean_stack_ids - the four stack ids of a wakeup, its waker in process 100 */
static inline struct wp_lean_stacks lean_stack_ids(int32_t wk, int32_t wu, int32_t sk, int32_t su)
{
	return (struct wp_lean_stacks){ .waker_kernel = wk, .waker_user = wu, .wait_kernel = sk, .wait_user = su,
					.waker_tgid = 100 };
}

/* a kernel symbol table: the BPF side's frames on top of the scheduler's */
static const char kallsyms[] =
	"ffffffff81000000 T __schedule\n"
	"ffffffff81000400 T schedule\n"
	"ffffffff81001000 T futex_wait\n"
	"ffffffff81002000 T try_to_wake_up\n"
	"ffffffff81003000 T futex_wake\n"
	"ffffffff81004000 t __traceiter_sched_switch\n"
	"ffffffff81005000 T bpf_trace_run4\n"
	"ffffffffa0000000 t bpf_prog_6deef7357e7b4530_lean_sched_switch\t[bpf]\n";

static char kallsyms_path[64];

/* stacks_with_kernel - a run's stacks, their kernel frames named from the table above (the caller frees) */
static inline struct run_stacks *stacks_with_kernel(void)
{
	struct run_stacks *rs;
	FILE *f;
	int fd;

	strcpy(kallsyms_path, "/tmp/wakeprobe-kallsyms-XXXXXX");
	fd = mkstemp(kallsyms_path);
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs(kallsyms, f);
	fclose(f);
	rs = run_stacks__new(kallsyms_path);
	unlink(kallsyms_path);
	cr_assert_not_null(rs);
	return rs;
}

#endif /* WAKEPROBE_TEST_KERNEL_STACKS_H */
