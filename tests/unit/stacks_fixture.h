/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks_fixture.h - a run's stacks for the tests of what names and writes
 * them (test_stacks.c, test_stack_cuts.c, test_folded_*.c,
 * test_text_stacks.c, test_json_stacks.c): a small kernel symbol table,
 * the scheduler's and futex's functions under the BPF side's own frames;
 * user stacks of this very process, through two functions of the test
 * binary, getppid() in libc (one no sanitizer wraps, as ASan does
 * printf()) and the binary's _start, which its own mappings name; the
 * stack ids a wakeup carries, and an attach run's wakeup that
 * carries them.
 */
#ifndef WAKEPROBE_TEST_STACKS_FIXTURE_H
#define WAKEPROBE_TEST_STACKS_FIXTURE_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include "attach_result.h"
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

/*
 * The kernel stacks of stacks_with_kernel(), and the user stacks of
 * stacks_with_user(), by id. A user stack is innermost first: the walk
 * from the waker's or the wakee's frame out to where it stopped.
 */
enum {
	STACK_WAKER_KERNEL = 1,		/* try_to_wake_up <- futex_wake */
	STACK_WAIT_KERNEL = 2,		/* __schedule <- futex_wait */
	STACK_WHOLE = 10,		/* wakee_code <- _start: the walk reached the thread's start */
	STACK_CUT_HERE = 11,		/* waker_code <- wakee_code: it stopped in the test binary */
	STACK_CUT_LIBC = 12,		/* waker_code <- getppid: it stopped in libc */
	STACK_ASTRAY = 13,		/* waker_code <- an address nothing maps: it went astray */
};

/* the executable's entry: a walk that reaches it has the whole of a thread's stack */
extern char _start[];

/* waker_code, wakee_code - two functions of the test binary's own, for frames to be in */
__attribute__((noinline, used, unused)) static int waker_code(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used, unused)) static int wakee_code(int x)
{
	return x * 5 + 2;
}

/* code_at - an address 4 bytes into the code at @fn */
#define code_at(fn) ((uint64_t)(uintptr_t)(fn) + 4)

/*
 * stacks_with_user - stacks_with_kernel()'s, and the user stacks of the
 * enum above, this process's mappings kept to name them (the caller frees)
 */
static inline struct run_stacks *stacks_with_user(void)
{
	struct run_stacks *rs = stacks_with_kernel();
	const uint64_t waker_k[] = { 0xffffffff81002010, 0xffffffff81003010 };
	const uint64_t wait_k[] = { 0xffffffff81000100, 0xffffffff81001010 };
	const uint64_t whole[] = { code_at(wakee_code), code_at(_start) };
	const uint64_t cut_here[] = { code_at(waker_code), code_at(wakee_code) };
	const uint64_t cut_libc[] = { code_at(waker_code), code_at(getppid) };
	const uint64_t astray[] = { code_at(waker_code), 0x10 };

	run_stacks__process(rs, getpid(), "unit-tests");
	cr_assert_eq(run_stacks__add(rs, STACK_WAKER_KERNEL, waker_k, 2), 0);
	cr_assert_eq(run_stacks__add(rs, STACK_WAIT_KERNEL, wait_k, 2), 0);
	cr_assert_eq(run_stacks__add(rs, STACK_WHOLE, whole, 2), 0);
	cr_assert_eq(run_stacks__add(rs, STACK_CUT_HERE, cut_here, 2), 0);
	cr_assert_eq(run_stacks__add(rs, STACK_CUT_LIBC, cut_libc, 2), 0);
	cr_assert_eq(run_stacks__add(rs, STACK_ASTRAY, astray, 2), 0);
	return rs;
}

/* own_stack_ids - a wakeup's stacks: the kernel's above, the user ones @waker_user and @wait_user of this process */
static inline struct wp_lean_stacks own_stack_ids(int32_t waker_user, int32_t wait_user)
{
	struct wp_lean_stacks st = lean_stack_ids(STACK_WAKER_KERNEL, waker_user, STACK_WAIT_KERNEL, wait_user);

	st.waker_tgid = (uint32_t)getpid();
	return st;
}

/*
 * stacked_wakeup - a complete wakeup of thread @wakee by thread 10's
 * syscall, both of this process, @ns from the waking to the switch-in,
 * with the stacks @st
 */
static inline struct attach_result stacked_wakeup(uint32_t wakee, int64_t ns, struct wp_lean_stacks st)
{
	struct attach_result r;

	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.sample.wakee_tid = wakee;
	r.sr.sample.waker_tid = 10;
	r.waker.cls = WP_WAKER_SYSCALL;
	r.waker.tid = 10;
	r.waker.tgid = (uint32_t)getpid();
	r.wakee_tgid = (uint32_t)getpid();
	r.wake_to_run_ns = ns;
	r.sr.total_ns = ns;
	r.sr.stacked = true;
	r.sr.stacks = st;
	return r;
}

/* object_of - the object run_stacks names user stack @id's frame @i in */
static inline const char *object_of(struct run_stacks *rs, int32_t id, size_t i)
{
	const struct stack_frame *fr;

	cr_assert_gt(run_stacks__frames(rs, id, getpid(), &fr), i);
	cr_assert_neq(fr[i].sym.object[0], '\0', "frame %zu of stack %d is in no object", i, id);
	return fr[i].sym.object;
}

#endif /* WAKEPROBE_TEST_STACKS_FIXTURE_H */
