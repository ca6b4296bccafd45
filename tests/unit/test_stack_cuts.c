// SPDX-License-Identifier: GPL-2.0
/*
 * test_stack_cuts.c - where frame pointers cut user stacks short
 * (stack_cuts.c), over combinations of the stacks of stacks_fixture.h,
 * which this process's own mappings name: a walk that reached the
 * thread's start is whole, one that stopped is cut in the last object it
 * reached, each object counted once a stack and weighed by its wakeups;
 * the objects the most stacks end in first; over every pair of an attach
 * run alike. Go's stacks end in its runtime, at a goroutine's or a
 * thread's bottom or where the thread switched to the scheduler's stack,
 * and are whole there: stand-ins of this binary's, named as Go's linker
 * names those functions, hold the rule to them.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "stack_combos_fixture.h"
#include "stack_cuts.h"

static struct stack_cuts cuts;

/*
 * GO_STAND_IN - @fn, a function of this binary's that its symbol table
 * names @name, as Go's linker names the Go runtime's function in a Go
 * binary (an assembly function with a Go-ABI wrapper gets ".abi0"): frames
 * in it read as a Go program's. @k makes each body its own, so that none
 * is folded into another.
 */
#define GO_STAND_IN(fn, name, k)							\
	__attribute__((noinline, used)) static int fn(int x) __asm__(name);		\
	static int fn(int x)								\
	{										\
		return x * (k) + 3;							\
	}

GO_STAND_IN(go_futex, "runtime.futex.abi0", 7)
GO_STAND_IN(go_goexit, "runtime.goexit.abi0", 11)
GO_STAND_IN(go_goexit1, "runtime.goexit1", 13)
GO_STAND_IN(go_mstart, "runtime.mstart.abi0", 17)
GO_STAND_IN(go_mstart1, "runtime.mstart1", 19)
GO_STAND_IN(go_rt0_go, "runtime.rt0_go", 23)
GO_STAND_IN(go_mcall, "runtime.mcall", 29)
GO_STAND_IN(go_morestack, "runtime.morestack.abi0", 31)
GO_STAND_IN(go_systemstack, "runtime.systemstack.abi0", 37)

/* the user stacks of a Go program, innermost first, past stacks_fixture.h's ids */
enum {
	STACK_GO_GOROUTINE = 20,	/* futex <- waker_code <- goexit: a goroutine's, whole */
	STACK_GO_THREAD,		/* futex <- mstart <- wakee_code <- astray: Go 1.19's walk past a thread's bottom */
	STACK_GO_FIRST_THREAD,		/* futex <- rt0_go: the first thread's, whole */
	STACK_GO_PARKED,		/* futex <- waker_code <- mcall: parked, the walk ended at the switch */
	STACK_GO_PARKED_ASTRAY,		/* futex <- mcall <- wakee_code <- astray: Go 1.19's walk on into the goroutine */
	STACK_GO_GROWN,			/* futex <- morestack: rescheduled growing its stack */
	STACK_GO_CGO_LIBC,		/* futex <- systemstack <- waker_code <- getppid: a callback from C, cut in libc */
	STACK_GO_SHORT_OF_GOEXIT,	/* futex <- systemstack <- goexit1: cut short of goexit */
	STACK_GO_SHORT_OF_MSTART,	/* futex <- mstart1: cut short of mstart */
};

/* add_go_stacks - the Go program's user stacks above into rs */
static void add_go_stacks(void)
{
	const struct {
		int32_t id;
		uint64_t ips[4];
		uint32_t n;
	} go[] = {
		{ STACK_GO_GOROUTINE, { code_at(go_futex), code_at(waker_code), code_at(go_goexit) }, 3 },
		{ STACK_GO_THREAD, { code_at(go_futex), code_at(go_mstart), code_at(wakee_code), 0x10 }, 4 },
		{ STACK_GO_FIRST_THREAD, { code_at(go_futex), code_at(go_rt0_go) }, 2 },
		{ STACK_GO_PARKED, { code_at(go_futex), code_at(waker_code), code_at(go_mcall) }, 3 },
		{ STACK_GO_PARKED_ASTRAY, { code_at(go_futex), code_at(go_mcall), code_at(wakee_code), 0x10 }, 4 },
		{ STACK_GO_GROWN, { code_at(go_futex), code_at(go_morestack) }, 2 },
		{ STACK_GO_CGO_LIBC, { code_at(go_futex), code_at(go_systemstack), code_at(waker_code), code_at(getppid) },
		  4 },
		{ STACK_GO_SHORT_OF_GOEXIT, { code_at(go_futex), code_at(go_systemstack), code_at(go_goexit1) }, 3 },
		{ STACK_GO_SHORT_OF_MSTART, { code_at(go_futex), code_at(go_mstart1) }, 2 },
	};

	for (size_t i = 0; i < sizeof(go) / sizeof(go[0]); i++)
		cr_assert_eq(run_stacks__add(rs, go[i].id, go[i].ips, go[i].n), 0);
}

static void setup(void)
{
	stack_combos_fixture__open();
	add_go_stacks();
	memset(&cuts, 0, sizeof(cuts));
}

TestSuite(stack_cuts, .init = setup, .fini = stack_combos_fixture__close);

/* add - @times wakeups whose waker's user stack is @waker_user and the wakee's @wait_user */
static void add(int32_t waker_user, int32_t wait_user, int times)
{
	add_wakeups(own_stack_ids(waker_user, wait_user), times, 1000);
}

/* cut_of - the row of @object among the objects counted; NULL if it has none */
static const struct stack_cut *cut_of(const char *object)
{
	for (size_t i = 0; i < cuts.n; i++)
		if (!strcmp(cuts.all[i].object, object))
			return &cuts.all[i];
	return NULL;
}

Test(stack_cuts, a_walk_that_reached_the_threads_start_is_whole)
{
	struct stack_cut top[STACK_CUTS_MAX];
	const struct stack_cut *binary;

	add(STACK_WHOLE, STACK_WHOLE, 2);
	stack_cuts__count(&cuts, rs, &combos);
	/* the kernel's stacks are not walked by frame pointers: only the test binary is counted */
	cr_assert_eq(cuts.n, 1);
	binary = cut_of(object_of(rs, STACK_WHOLE, 0));
	cr_assert_not_null(binary);
	cr_assert_eq(binary->of, 4, "two wakeups, two user stacks each");
	cr_assert_eq(binary->stacks, 0);
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 0, "nothing was cut");
}

Test(stack_cuts, a_walk_that_stopped_is_cut_in_the_last_object_it_reached)
{
	const char *binary = object_of(rs, STACK_CUT_HERE, 0), *libc = object_of(rs, STACK_CUT_LIBC, 1);
	const struct stack_cut *b, *l;

	cr_assert_str_neq(binary, libc);
	add(STACK_CUT_LIBC, STACK_WHOLE, 3);
	add(STACK_CUT_HERE, STACK_WHOLE, 1);
	stack_cuts__count(&cuts, rs, &combos);
	b = cut_of(binary);
	l = cut_of(libc);
	cr_assert(b && l);
	/* each stack has a frame in the binary: 3 + 3 + 1 + 1 wakeups' stacks; only getppid's 3 in libc */
	cr_assert_eq(b->of, 8);
	cr_assert_eq(b->stacks, 1);
	cr_assert_eq(l->of, 3);
	cr_assert_eq(l->stacks, 3);
}

Test(stack_cuts, the_objects_most_stacks_end_in_come_first_as_many_as_asked)
{
	struct stack_cut top[STACK_CUTS_MAX];

	add(STACK_CUT_HERE, STACK_WHOLE, 1);
	add(STACK_CUT_LIBC, STACK_CUT_LIBC, 2);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 2);
	cr_assert_str_eq(top[0].object, object_of(rs, STACK_CUT_LIBC, 1));
	cr_assert_eq(top[0].stacks, 4, "two wakeups, both of their stacks cut in libc");
	cr_assert_str_eq(top[1].object, object_of(rs, STACK_CUT_HERE, 1));
	cr_assert_eq(top[1].stacks, 1);
	cr_assert_eq(stack_cuts__top(&cuts, top, 1), 1);
	cr_assert_str_eq(top[0].object, object_of(rs, STACK_CUT_LIBC, 1));
}

Test(stack_cuts, frames_in_no_object_past_the_last_are_a_walk_gone_astray)
{
	const struct stack_cut *b;

	add(STACK_ASTRAY, STACK_WHOLE, 1);
	stack_cuts__count(&cuts, rs, &combos);
	b = cut_of(object_of(rs, STACK_ASTRAY, 0));
	cr_assert_not_null(b);
	cr_assert_eq(b->stacks, 1, "cut where the objects end, in the binary");
	cr_assert_null(cut_of(""), "no row for what nothing maps");
}

Test(stack_cuts, an_attach_run_counts_every_pairs_stacks_and_none_without_stacks)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct stack_cut top[STACK_CUTS_MAX];

	cr_assert_not_null(g);
	/* two pairs: the wakee of one is thread 11, of the other thread 12 */
	for (uint32_t wakee = 11; wakee <= 12; wakee++) {
		int32_t waker_user = wakee == 11 ? STACK_CUT_LIBC : STACK_CUT_HERE;
		struct attach_result r = stacked_wakeup(wakee, 1000, own_stack_ids(waker_user, STACK_WHOLE));

		attach_aggregate__add(g, &r);
	}
	cr_assert_eq(g->nr_pairs, 2);
	cr_assert_eq(stack_cuts__find(&rep, top, STACK_CUTS_MAX), 2, "each pair's cut, libc's and the binary's");
	run.stacks = NULL;
	cr_assert_eq(stack_cuts__find(&rep, top, STACK_CUTS_MAX), 0, "a run without --stacks cut nothing");
	attach_aggregate__free(g);
}

/* function_of - the function run_stacks names user stack @id's frame @i */
static const char *function_of(int32_t id, size_t i)
{
	const struct stack_frame *fr;

	cr_assert_gt(run_stacks__frames(rs, id, getpid(), &fr), i);
	return fr[i].sym.function;
}

/* cut_in_binary - the wakeups whose stacks the counting says end short in the test binary */
static uint64_t cut_in_binary(void)
{
	const struct stack_cut *b = cut_of(object_of(rs, STACK_WHOLE, 0));

	return b ? b->stacks : 0;
}

Test(stack_cuts, the_stand_ins_read_as_the_go_runtimes_functions)
{
	cr_assert_str_eq(function_of(STACK_GO_GOROUTINE, 0), "runtime.futex.abi0");
	cr_assert_str_eq(function_of(STACK_GO_GOROUTINE, 2), "runtime.goexit.abi0");
	cr_assert_str_eq(function_of(STACK_GO_THREAD, 1), "runtime.mstart.abi0");
	cr_assert_str_eq(function_of(STACK_GO_FIRST_THREAD, 1), "runtime.rt0_go");
	cr_assert_str_eq(function_of(STACK_GO_PARKED, 2), "runtime.mcall");
	cr_assert_str_eq(function_of(STACK_GO_GROWN, 1), "runtime.morestack.abi0");
	cr_assert_str_eq(function_of(STACK_GO_SHORT_OF_GOEXIT, 2), "runtime.goexit1");
	cr_assert_str_eq(function_of(STACK_GO_SHORT_OF_MSTART, 1), "runtime.mstart1");
}

Test(stack_cuts, a_goroutines_stack_is_whole_at_runtime_goexit)
{
	add(STACK_GO_GOROUTINE, STACK_GO_GOROUTINE, 2);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(cut_of(object_of(rs, STACK_GO_GOROUTINE, 0))->of, 4, "two wakeups, two user stacks each");
	cr_assert_eq(cut_in_binary(), 0);
}

Test(stack_cuts, a_threads_scheduler_stack_is_whole_at_its_bottom_whatever_the_walk_read_past_it)
{
	struct stack_cut top[STACK_CUTS_MAX];

	/* Go 1.19's mstart keeps the frame pointer the thread was cloned with: the walk went on past it */
	add(STACK_GO_THREAD, STACK_GO_FIRST_THREAD, 3);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(cut_in_binary(), 0);
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 0, "nothing was cut");
}

Test(stack_cuts, a_walk_of_the_scheduler_stack_is_whole_where_the_thread_switched_to_it)
{
	/* ended at mcall or morestack, as later Go's are; or on past mcall into the goroutine, as 1.19's */
	add(STACK_GO_PARKED, STACK_GO_PARKED_ASTRAY, 2);
	add(STACK_GO_GROWN, STACK_GO_PARKED_ASTRAY, 1);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(cut_of(object_of(rs, STACK_GO_PARKED, 0))->of, 6);
	cr_assert_eq(cut_in_binary(), 0);
}

Test(stack_cuts, a_go_stack_that_stops_in_a_library_through_cgo_is_cut_there)
{
	const struct stack_cut *libc;

	/*
	 * C code called back into Go, whose callback woke a thread: systemstack
	 * leaves the frame pointer to the goroutine's frames, and the walk went
	 * on through them into the C code's, and stopped in libc
	 */
	add(STACK_GO_CGO_LIBC, STACK_GO_GOROUTINE, 2);
	stack_cuts__count(&cuts, rs, &combos);
	libc = cut_of(object_of(rs, STACK_GO_CGO_LIBC, 3));
	cr_assert_not_null(libc);
	cr_assert_eq(libc->stacks, 2, "cut in libc, the Go runtime's frames on the way or not");
	cr_assert_eq(cut_in_binary(), 0, "the goroutine's own stack is whole");
}

Test(stack_cuts, a_go_stack_that_ends_short_of_its_bottom_is_cut_in_the_go_binary)
{
	struct stack_cut top[STACK_CUTS_MAX];

	/* goexit1 and mstart1 are what goexit and mstart call, not where a stack begins; systemstack is no switch */
	add(STACK_GO_SHORT_OF_GOEXIT, STACK_GO_SHORT_OF_MSTART, 3);
	stack_cuts__count(&cuts, rs, &combos);
	cr_assert_eq(cut_in_binary(), 6, "both stacks of each of the three wakeups");
	cr_assert_eq(stack_cuts__top(&cuts, top, STACK_CUTS_MAX), 1);
	cr_assert_str_eq(top[0].object, object_of(rs, STACK_GO_SHORT_OF_GOEXIT, 0));
}
