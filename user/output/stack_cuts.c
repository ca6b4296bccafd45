// SPDX-License-Identifier: GPL-2.0
/*
 * stack_cuts.c - where frame pointers cut the user stacks short: the
 * objects a walk ended in before reaching a thread's start, or where a Go
 * stack begins, counted over a run's combinations of stacks, for the text
 * report and the JSON alike
 */
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "run_stacks.h"
#include "stack_combos.h"
#include "stack_cuts.h"

/* thread_root - is @f where a thread's stack begins: the walk reached its start, nothing is cut */
static bool thread_root(const struct stack_frame *f)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3",
		"__clone", "__clone3", "__GI___clone3", "__GI___clone",
	};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(f->sym.function, roots[i]))
			return true;
	return false;
}

/*
 * go_named - is @f the Go function @name, as Go's linker names it in the
 * symbol table: an assembly function that also has a Go-ABI wrapper is
 * "name.abi0" (cmd/link, mangleABIName), as Debian 12's Go 1.19 names
 * runtime.goexit
 */
static bool go_named(const struct stack_frame *f, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(f->sym.function, name, n) && (!f->sym.function[n] || !strcmp(f->sym.function + n, ".abi0"));
}

/*
 * go_bottom - is @f where one of a Go program's stacks begins: Go keeps
 * frame pointers on x86-64, and its stacks start in its runtime, not at a
 * thread's start. runtime/asm_amd64.s marks them TOPFRAME: runtime.goexit
 * is under every goroutine's first frame (newproc1 puts its return
 * address there), runtime.mstart is the first frame of the scheduler's
 * stack (g0) of every thread the runtime starts, runtime.rt0_go of the
 * first thread's. A walk that reached one has the whole stack; mstart0 and
 * mstart1 are not among them, a walk through them goes on to mstart. Go
 * 1.19 (Debian 12's) leaves in mstart the frame pointer the thread was
 * cloned with, its creator's, and the walk goes on past it into what is
 * left of the creator's frames (runtime.newm1, runtime.execute, an address
 * nothing maps); later releases zero it (go.dev/issue/63630). Past a
 * bottom, nothing is the stack's.
 */
static bool go_bottom(const struct stack_frame *f)
{
	return go_named(f, "runtime.goexit") || go_named(f, "runtime.mstart") || go_named(f, "runtime.rt0_go");
}

/*
 * go_switch - is @f where the runtime moved a goroutine's thread onto its
 * scheduler's stack and left the goroutine: runtime.mcall, to park it or
 * yield, and runtime.morestack, to grow its stack (newstack reschedules it
 * when it was asked to yield). The thread's stack ends there: the
 * goroutine may run on another thread meanwhile, so later releases than
 * 1.19 zero the frame pointer there ("as caller may execute on another
 * M") and the walk ends at them. 1.19 keeps it, and the walk goes on into
 * the goroutine's frames as they are by then: down to runtime.goexit while
 * it has not run again, else wherever its new frames lead (runtime.cgocall,
 * an address nothing maps). Past a switch, nothing is the thread's stack.
 * Not runtime.systemstack nor runtime.asmcgocall: they leave the frame
 * pointer as it was, and their goroutine waits in them, so a walk goes on
 * through them into its frames as they are; one that ends short of
 * runtime.goexit, or stops in the C code asmcgocall ran (a library without
 * frame pointers, through cgo), was cut short.
 */
static bool go_switch(const struct stack_frame *f)
{
	return go_named(f, "runtime.mcall") || go_named(f, "runtime.morestack");
}

/*
 * stack_whole - did the walk of @fr, @k frames the last of which is in an
 * object, reach where its thread's stack begins: a Go stack's bottom or
 * the switch onto Go's scheduler stack, wherever the walk went past them,
 * or a thread's start, where it ended
 */
static bool stack_whole(const struct stack_frame *fr, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (go_bottom(&fr[i]) || go_switch(&fr[i]))
			return true;
	return thread_root(&fr[k - 1]);
}

/* cut_of - the row of @object in @cuts, made if there is room; NULL */
static struct stack_cut *cut_of(struct stack_cut *cuts, size_t *n, size_t max, const char *object)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(cuts[i].object, object))
			return &cuts[i];
	if (*n == max)
		return NULL;
	memset(&cuts[*n], 0, sizeof(cuts[*n]));
	snprintf(cuts[*n].object, sizeof(cuts[*n].object), "%s", object);
	return &cuts[(*n)++];
}

/* count_cut - user stack @id of @tgid, @count wakeups: the objects it passes, and the one it ends short in */
static void count_cut(struct run_stacks *rs, int32_t id, pid_t tgid, uint64_t count, struct stack_cut *cuts,
		      size_t *n, size_t max)
{
	const struct stack_frame *fr;
	size_t k = run_stacks__frames(rs, id, tgid, &fr);
	struct stack_cut *c;

	if (!k)
		return;
	for (size_t i = 0; i < k; i++) {
		bool seen = false;

		if (!fr[i].sym.object[0])
			continue;
		/* each object once a stack */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(fr[j].sym.object, fr[i].sym.object);
		if (!seen && (c = cut_of(cuts, n, max, fr[i].sym.object)))
			c->of += count;
	}
	/* the walk's last frame in an object: past it, frames in none are a walk gone astray */
	while (k > 1 && !fr[k - 1].sym.object[0])
		k--;
	if (!stack_whole(fr, k) && fr[k - 1].sym.object[0] && (c = cut_of(cuts, n, max, fr[k - 1].sym.object)))
		c->stacks += count;
}

static int by_stacks(const void *a, const void *b)
{
	const struct stack_cut *x = a, *y = b;

	if (x->stacks != y->stacks)
		return x->stacks > y->stacks ? -1 : 1;
	return strcmp(x->object, y->object);
}

void stack_cuts__count(struct stack_cuts *cuts, struct run_stacks *rs, const struct stack_combos *c)
{
	size_t max = sizeof(cuts->all) / sizeof(cuts->all[0]);

	for (uint32_t k = 0; rs && c && k < c->n; k++) {
		count_cut(rs, c->rows[k].waker_user, (pid_t)c->rows[k].waker_tgid, c->rows[k].count, cuts->all,
			  &cuts->n, max);
		count_cut(rs, c->rows[k].wait_user, (pid_t)c->rows[k].wakee_tgid, c->rows[k].count, cuts->all,
			  &cuts->n, max);
	}
}

size_t stack_cuts__top(struct stack_cuts *cuts, struct stack_cut *out, size_t max)
{
	size_t kept = 0;

	qsort(cuts->all, cuts->n, sizeof(cuts->all[0]), by_stacks);
	for (size_t i = 0; i < cuts->n && kept < max; i++)
		if (cuts->all[i].stacks)
			out[kept++] = cuts->all[i];
	return kept;
}

size_t stack_cuts__find(const struct attach_report *r, struct stack_cut *out, size_t max)
{
	static struct stack_cuts cuts;
	struct run_stacks *rs = r->run ? r->run->stacks : NULL;

	cuts.n = 0;
	for (uint32_t i = 0; rs && i < r->agg->nr_pairs; i++)
		stack_cuts__count(&cuts, rs, r->agg->pairs[i]->stacks);
	return stack_cuts__top(&cuts, out, max);
}
