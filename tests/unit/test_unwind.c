// SPDX-License-Identifier: GPL-2.0
/*
 * test_unwind.c - a copy of a user stack unwound by the objects' call
 * frame information (symbolizer__unwind(), object_unwind.c), and a run's
 * copies matched to their wakeups and made stacks (run_stacks.h).
 *
 * The stacks are real: tests/tools/unwind_fixture.c copies the top of its
 * own stack from inside leaf(), called through middle() and outer() from
 * main(), and lives on while its mappings are read. It is built with
 * frame pointers and debug information, and optimized without either:
 * both unwind through libc's start to _start.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/types.h>
#include "object_names.h"
#include "symbol_fixture_run.h"
#include "run_stacks.h"
#include "symbolizer.h"
#include "wakeprobe.h"

TestSuite(unwind, .timeout = 60);

/* what the fixture writes (tests/tools/unwind_fixture.c) */
struct unwind_capture {
	uint64_t regs[OBJECT_UNWIND_REGS];
	uint64_t sp;
	uint64_t len;
	uint8_t stack[OBJECT_UNWIND_STACK];
};

/* the fixture running, and the copy of its stack it wrote */
struct copying {
	struct running run;
	struct unwind_capture cap;
};

_Static_assert(WP_UNWIND_REGS == OBJECT_UNWIND_REGS, "the registers the BPF side copies are the ones unwound from");
_Static_assert(WP_STACK_COPY_MAX == OBJECT_UNWIND_STACK, "a copy fits a request");

/* start_copying - the fixture @name built next to this test binary, running, its capture read */
static void start_copying(const char *name, struct copying *r)
{
	char path[PATH_MAX];
	size_t got = 0;
	int out;

	if (geteuid())
		cr_skip_test("a process's mapped files are read through /proc/PID/map_files, which is root's: run as root");
	fixture_path(name, path);
	out = fixture_spawn(path, -1, &r->run);
	while (got < sizeof(r->cap)) {
		ssize_t k = read(out, (char *)&r->cap + got, sizeof(r->cap) - got);

		cr_assert_gt(k, 0, "the fixture wrote %zu of %zu bytes", got, sizeof(r->cap));
		got += (size_t)k;
	}
	close(out);
	cr_assert_leq(r->cap.len, OBJECT_UNWIND_STACK);
	cr_assert_eq(r->cap.sp, r->cap.regs[7]);
}

/* names - the functions of @n frames @pcs of @pid, innermost first, ' '-separated, into @out */
static void names(struct symbolizer *s, pid_t pid, const uint64_t *pcs, size_t n, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		struct symbol sym;
		size_t len = strlen(out);

		/* past the first, a return address: the call is just before it */
		symbolizer__user(s, pid, i ? pcs[i] - 1 : pcs[i], &sym);
		snprintf(out + len, size - len, "%s%s", i ? " " : "", sym.function[0] ? sym.function : "?");
	}
}

/* unwinds - the fixture @name's copy unwound: leaf, middle, outer, main, then libc's start and _start */
static void unwinds(const char *name)
{
	struct symbolizer *s = symbolizer__new();
	uint64_t pcs[WP_STACK_DEPTH], top;
	char said[2048];
	struct copying r;
	size_t n;

	cr_assert_not_null(s);
	start_copying(name, &r);
	cr_assert_eq(symbolizer__snapshot(s, r.run.pid), 0);
	n = symbolizer__unwind(s, r.run.pid, r.cap.regs, r.cap.sp, r.cap.stack, r.cap.len, pcs, WP_STACK_DEPTH, &top);
	names(s, r.run.pid, pcs, n, said, sizeof(said));
	stop(&r.run);
	cr_assert_eq(pcs[0], r.cap.regs[16], "the first frame is the registers' pc");
	cr_assert(!strncmp(said, "leaf middle outer main __libc_start_call_main __libc_start_main", 62) &&
			  strstr(said, " _start"),
		  "%s: %zu frames: %s", name, n, said);
	/* out to _start, inside the copy: where the stack ends is known, and no further than the copy */
	cr_assert(top > r.cap.sp && top <= r.cap.sp + r.cap.len, "top 0x%lx, the copy 0x%lx + %lu", top, r.cap.sp,
		  r.cap.len);
	symbolizer__free(s);
}

Test(unwind, a_copy_unwinds_to_start_with_frame_pointers)
{
	unwinds("unwind-fixture");
}

/* the fixture optimized without frame pointers: a walk by them would lose middle's and outer's frames */
Test(unwind, a_copy_unwinds_to_start_without_frame_pointers)
{
	unwinds("unwind-fixture-nofp");
}

/* a copy cut short ends the stack where the copy ends, with what it reached */
Test(unwind, a_copy_cut_short_gives_the_frames_inside_it)
{
	struct symbolizer *s = symbolizer__new();
	uint64_t pcs[WP_STACK_DEPTH], top;
	char said[2048];
	struct copying r;
	size_t n;

	start_copying("unwind-fixture-nofp", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.run.pid), 0);
	n = symbolizer__unwind(s, r.run.pid, r.cap.regs, r.cap.sp, r.cap.stack, 8, pcs, WP_STACK_DEPTH, &top);
	names(s, r.run.pid, pcs, n, said, sizeof(said));
	stop(&r.run);
	cr_assert(n >= 1 && n < 4, "%zu frames: %s", n, said);
	cr_assert(!strncmp(said, "leaf", 4), "%s", said);
	cr_assert_eq(top, 0, "the stack went on past the copy: where it ends is not known");
	symbolizer__free(s);
}

/* a process never seen: nothing to unwind by */
Test(unwind, a_process_without_a_snapshot_unwinds_nothing)
{
	struct symbolizer *s = symbolizer__new();
	uint64_t regs[OBJECT_UNWIND_REGS] = { 0 }, pcs[4];
	uint8_t stack[64] = { 0 };

	cr_assert_eq(symbolizer__unwind(s, 999999, regs, 0x1000, stack, sizeof(stack), pcs, 4, NULL), 0);
	symbolizer__free(s);
}

/* copy_of - the fixture's capture as the ring brings it: @which stack of @wakee's wakeup */
static void copy_of(const struct copying *r, uint32_t wakee, uint16_t which, struct wp_stack_copy *c)
{
	memset(c, 0, sizeof(*c));
	c->head.type = WP_EV_LEAN;
	c->head.copy.flags = WP_LEAN_NAMES | WP_LEAN_COPY;
	c->head.copy.sp = r->cap.sp;
	c->head.copy.tgid = (uint32_t)r->run.pid;
	c->head.copy.wakee_tid = wakee;
	c->head.copy.len = (uint32_t)r->cap.len;
	c->head.copy.which = which;
	memcpy(c->regs, r->cap.regs, sizeof(c->regs));
	memcpy(c->bytes, r->cap.stack, r->cap.len);
}

/* stacks_of - a wakeup of @wakee whose waker's user stack the frame pointers walked as @fp, its copy went */
static struct wp_lean_stacks stacks_of(uint32_t wakee, int32_t fp, uint16_t copied)
{
	return (struct wp_lean_stacks){ .waker_kernel = WP_STACK_NONE, .waker_user = fp, .wait_kernel = WP_STACK_NONE,
					.wait_user = WP_STACK_NONE, .wakee_tid = wakee, .copied = copied,
					.flags = WP_LEAN_NAMES | WP_LEAN_STACKS };
}

/* a run's copies: each matched to its wakeup by wakee and kind, unwound, each distinct stack once */
Test(unwind, a_runs_copies_become_its_wakeups_stacks_each_distinct_one_once)
{
	struct run_stacks *rs = run_stacks__new(NULL);
	static struct wp_stack_copy copy;
	struct wp_lean_stacks first, second;
	const struct stack_frame *frames;
	const uint64_t walked[2] = { 0x1000, 0x2000 };
	struct copying r;
	size_t n;

	cr_assert_not_null(rs);
	start_copying("unwind-fixture-nofp", &r);
	run_stacks__process(rs, r.run.pid, NULL);
	cr_assert_eq(run_stacks__add(rs, 7, walked, 2), 0);
	copy_of(&r, 42, WP_COPY_WAKER, &copy);
	run_stacks__copy(rs, &copy);
	first = stacks_of(42, 7, WP_COPY_WAKER);
	run_stacks__unwind(rs, &first);
	/* the same stack again, another wakeup's: the same id */
	run_stacks__copy(rs, &copy);
	second = stacks_of(42, 7, WP_COPY_WAKER);
	run_stacks__unwind(rs, &second);
	cr_assert_geq(first.waker_user, RUN_STACKS_UNWOUND);
	cr_assert_eq(second.waker_user, first.waker_user);
	n = run_stacks__frames(rs, first.waker_user, r.run.pid, &frames);
	stop(&r.run);
	cr_assert_geq(n, 6);
	cr_assert_str_eq(frames[0].sym.function, "leaf");
	cr_assert_str_eq(frames[1].sym.function, "middle");
	cr_assert_str_eq(frames[2].sym.function, "outer");
	cr_assert_str_eq(frames[3].sym.function, "main");
	cr_assert_eq(run_stacks__unwound(rs)->wakeups, 2);
	cr_assert_eq(run_stacks__unwound(rs)->stacks, 2);
	cr_assert_eq(run_stacks__unwound(rs)->distinct, 1);
	cr_assert_eq(run_stacks__unwound(rs)->copies, 2);
	run_stacks__free(rs);
}

/* where the frame pointers' walk reached further than the copy's unwinding, it stays */
Test(unwind, a_walk_deeper_than_the_unwinding_is_kept)
{
	struct run_stacks *rs = run_stacks__new(NULL);
	static struct wp_stack_copy copy;
	uint64_t deep[WP_STACK_DEPTH];
	struct wp_lean_stacks st;
	struct copying r;

	for (int i = 0; i < WP_STACK_DEPTH; i++)
		deep[i] = 0x1000 + (uint64_t)i;
	start_copying("unwind-fixture", &r);
	run_stacks__process(rs, r.run.pid, NULL);
	cr_assert_eq(run_stacks__add(rs, 9, deep, WP_STACK_DEPTH), 0);
	copy_of(&r, 42, WP_COPY_WAIT, &copy);
	run_stacks__copy(rs, &copy);
	st = stacks_of(42, WP_STACK_NONE, WP_COPY_WAIT);
	st.wait_user = 9;
	run_stacks__unwind(rs, &st);
	stop(&r.run);
	cr_assert_eq(st.wait_user, 9);
	cr_assert_eq(run_stacks__unwound(rs)->shorter, 1);
	cr_assert_eq(run_stacks__unwound(rs)->wakeups, 0);
	run_stacks__free(rs);
}

/*
 * an unwinding that ended short of the thread's start (its copy cut
 * here) is taken only where it went through the walk's outermost frame
 */
Test(unwind, an_unwinding_cut_short_is_taken_only_past_the_walks_end)
{
	struct symbolizer *s = symbolizer__new();
	struct run_stacks *rs = run_stacks__new(NULL);
	static struct wp_stack_copy copy;
	uint64_t pcs[WP_STACK_DEPTH], top;
	struct wp_lean_stacks reached, short_of;
	struct copying r;
	size_t n;

	start_copying("unwind-fixture-nofp", &r);
	/* how far a copy of 64 bytes unwinds, by itself */
	cr_assert_eq(symbolizer__snapshot(s, r.run.pid), 0);
	n = symbolizer__unwind(s, r.run.pid, r.cap.regs, r.cap.sp, r.cap.stack, 64, pcs, WP_STACK_DEPTH, &top);
	cr_assert(n >= 2 && !top, "%zu frames, top 0x%lx", n, top);
	run_stacks__process(rs, r.run.pid, NULL);
	r.cap.len = 64;
	/* a walk whose last frame the unwinding went through: it went further */
	cr_assert_eq(run_stacks__add(rs, 3, pcs, 1), 0);
	/* one whose last frame it never reached */
	cr_assert_eq(run_stacks__add(rs, 4, (uint64_t[]){ pcs[0], 0x1000 }, 2), 0);
	copy_of(&r, 42, WP_COPY_WAKER, &copy);
	run_stacks__copy(rs, &copy);
	reached = stacks_of(42, 3, WP_COPY_WAKER);
	run_stacks__unwind(rs, &reached);
	run_stacks__copy(rs, &copy);
	short_of = stacks_of(42, 4, WP_COPY_WAKER);
	run_stacks__unwind(rs, &short_of);
	stop(&r.run);
	cr_assert_geq(reached.waker_user, RUN_STACKS_UNWOUND);
	cr_assert_eq(short_of.waker_user, 4);
	cr_assert_eq(run_stacks__unwound(rs)->shorter, 1);
	run_stacks__free(rs);
	symbolizer__free(s);
}

/* a copy whose wakeup never says it came is counted, and a wakeup whose copy never came keeps its walk */
Test(unwind, copies_and_wakeups_that_do_not_meet_are_counted)
{
	struct run_stacks *rs = run_stacks__new(NULL);
	static struct wp_stack_copy copy;
	struct wp_lean_stacks st;
	struct copying r;

	start_copying("unwind-fixture", &r);
	run_stacks__process(rs, r.run.pid, NULL);
	copy_of(&r, 42, WP_COPY_WAKER, &copy);
	run_stacks__copy(rs, &copy);
	run_stacks__copy(rs, &copy);
	/* another wakee's wakeup: its copy is not 42's */
	st = stacks_of(43, 5, WP_COPY_WAKER);
	run_stacks__unwind(rs, &st);
	stop(&r.run);
	cr_assert_eq(st.waker_user, 5);
	cr_assert_eq(run_stacks__unwound(rs)->unmatched, 1);
	cr_assert_eq(run_stacks__unwound(rs)->wakeups, 0);
	run_stacks__free(rs);
}
