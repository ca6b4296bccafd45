/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_stacks.h - a run's stacks (--stacks), named once it is over.
 *
 * The BPF side keeps each distinct stack once in its stacks map and sends
 * ids. While the run goes, the mappings of each process a record names are
 * kept as they are then (symbolizer__snapshot()), so that a process that
 * exits before the end is still named; when it ends, every stack of the
 * map is copied out before the BPF side is closed. Frames are named on
 * first asking, off the traced path, and kept: a stack is named once
 * however many outputs ask for it.
 */
#ifndef WAKEPROBE_RUN_STACKS_H
#define WAKEPROBE_RUN_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "stack_combos.h"
#include "symbolizer.h"
#include "wakeprobe.h"

struct collector;
struct run_stacks;

/* one frame of a stack, named */
struct stack_frame {
	uint64_t ip;
	struct symbol sym;	/* symbol.object "" and function "": nothing mapped there (JIT'd code, a late map) */
	bool kernel;
};

/* run_stacks__new - ready to keep mappings; with the kernel's symbols when @kallsyms can be read */
struct run_stacks *run_stacks__new(const char *kallsyms);
/* run_stacks__new_with - the same, the symbolizer with @opts (NULL: its defaults; symbolizer.h) */
struct run_stacks *run_stacks__new_with(const char *kallsyms, const struct symbolizer_opts *opts);
void run_stacks__free(struct run_stacks *rs);

/*
 * run_stacks__process - keep @tgid's mappings when it is first named, and
 * again when a thread of it is named @comm anew (an exec changes the name,
 * and what is mapped); a call that changes nothing costs a lookup
 */
void run_stacks__process(struct run_stacks *rs, pid_t tgid, const char *comm);
/* run_stacks__count_processes - the processes whose mappings are kept */
size_t run_stacks__count_processes(const struct run_stacks *rs);
/*
 * run_stacks__fallback - a user stack of a process whose mappings were not
 * kept is named with @tgid's: a workload's processes are forks of its
 * first, which map what it maps where it maps it
 */
void run_stacks__fallback(struct run_stacks *rs, pid_t tgid);
/* run_stacks__refresh - the run is over: the mappings of the processes still alive again (a late dlopen()) */
void run_stacks__refresh(struct run_stacks *rs);
/*
 * run_stacks__follow - while the run goes, a stack not copied yet is read
 * from @c's stacks map when it is first asked for (--perfetto names each
 * wakeup's as it writes it); NULL once @c is closed
 */
void run_stacks__follow(struct run_stacks *rs, const struct collector *c);
/*
 * run_stacks__take - copy every stack of @c's stacks map not copied yet,
 * and what the map held and the stacks cost the programs: 0, or a
 * negative errno
 */
int run_stacks__take(struct run_stacks *rs, const struct collector *c);
/*
 * run_stacks__stop_on_signal - the run is over: from now on a stop signal
 * (launch.h) ends the naming of user frames, the ones left shown by
 * object and offset with why. Not when a signal ended the run already:
 * its stacks are named whole, a second signal ending wakeprobe.
 * run_stacks__take() does it.
 */
void run_stacks__stop_on_signal(struct run_stacks *rs);
/* run_stacks__note_cost - what the map held, @kernel_bytes, and what taking the stacks cost, @cost (the tests') */
void run_stacks__note_cost(struct run_stacks *rs, uint64_t kernel_bytes, const struct wp_stack_cost *cost);
/* run_stacks__add - stack @id's @n frames, innermost first, as the map held them (the tests') */
int run_stacks__add(struct run_stacks *rs, int32_t id, const uint64_t *ips, size_t n);

/*
 * run_stacks__frames - stack @id named: a kernel stack (@tgid 0), or a user
 * stack of process @tgid; the frames of the BPF side's own (its program,
 * the tracepoint's trampoline) left out of a kernel stack. How many frames
 * *@out holds, innermost first; 0 when the map had no such stack.
 */
size_t run_stacks__frames(struct run_stacks *rs, int32_t id, pid_t tgid, const struct stack_frame **out);

/*
 * run_stacks__why_none - why a wakeup has no stack where @id (a
 * wp_lean_stacks id) is negative: "" when none was to be had (not taken, a
 * kernel thread's user stack), else why the kernel kept none
 */
const char *run_stacks__why_none(int32_t id);

/*
 * --unwind: the copies of user stacks (struct wp_stack_copy) come in
 * just before the record of their wakeup, and are kept until it does
 * (RUN_STACKS_PENDING of them); its wp_lean_stacks, which says which
 * went (copied), then has each unwound by the objects' call frame
 * information (symbolizer__unwind()), and its user stack's id made the
 * unwound stack's: an id from RUN_STACKS_UNWOUND up, each distinct
 * stack once, named as any other. The frame pointer walk's stays where
 * the unwinding reached fewer frames than it did (a stack deeper than
 * its copy), or, ending short of the thread's start, no more.
 */
#define RUN_STACKS_UNWOUND	STACK_ID_UNWOUND
#define RUN_STACKS_PENDING	16

/* what the unwinding did, for the cost line */
struct run_stacks_unwound {
	uint64_t copies;		/* copies that came */
	uint64_t wakeups;		/* wakeups with a user stack unwound */
	uint64_t stacks;		/* ... the stacks unwound and used */
	uint64_t shorter;		/* ... unwound, but no further than the frame pointers' walk: that one kept */
	uint64_t failed;		/* ... that nothing unwound (no snapshot of the process, the child gave up) */
	uint64_t unmatched;		/* copies whose wakeup's record never came, or came without them */
	uint64_t distinct;		/* distinct stacks unwound */
	uint64_t ns;			/* wakeprobe's time unwinding, the child's included */
	uint64_t tops;			/* threads' stack tops learned, which their copies stop at */
};

/* run_stacks__copy - a copy of a user stack, from the ring: kept for its wakeup's record */
void run_stacks__copy(struct run_stacks *rs, const struct wp_stack_copy *copy);
/*
 * run_stacks__unwind - @st, a wakeup's stacks as the ring gave them:
 * each copy that went before it unwound, and its id put in @st
 */
void run_stacks__unwind(struct run_stacks *rs, struct wp_lean_stacks *st);
/*
 * run_stacks__resolve - @e as the analysis takes it: @e itself, or, for
 * a wakeup's stacks that copies went before, @room, @e with them unwound
 */
const struct wp_event *run_stacks__resolve(struct run_stacks *rs, const struct wp_event *e, struct wp_event *room);
/* run_stacks__unwound - what the unwinding did so far */
const struct run_stacks_unwound *run_stacks__unwound(const struct run_stacks *rs);

/* run_stacks__symbolizer - what names the frames: the futex words' names ask it too */
struct symbolizer *run_stacks__symbolizer(struct run_stacks *rs);
/* run_stacks__count - the stacks copied */
size_t run_stacks__count(const struct run_stacks *rs);
/* run_stacks__kernel_bytes - the kernel memory the stacks map held, as run_stacks__take() found it */
uint64_t run_stacks__kernel_bytes(const struct run_stacks *rs);
/* run_stacks__cost - what taking the stacks cost the programs, as run_stacks__take() found it */
const struct wp_stack_cost *run_stacks__cost(const struct run_stacks *rs);

/* room for any name stack_frame__name() gives: an object's file name, its offset and a build ID or why */
#define STACK_FRAME_NAME_MAX 320

/*
 * stack_frame__name - @f as a person reads it, into @buf: "function+0x1a",
 * "app+0x1234 [build-id 3f2a...]" (an object read without a symbol there:
 * a stripped one, named later by its build ID and offset),
 * "libc.so.6+0x8e2f0" (the same without a build ID), "app+0x1234 [not
 * named: not a regular file]" (an object not read, and why), "0x7f..."
 * (nothing mapped there)
 */
void stack_frame__name(const struct stack_frame *f, char *buf, size_t len);
/*
 * stack_frame__function - the function alone ("libc.so.6+0x8e2f0" without
 * one, with no build ID or why), as folded stacks name it: a frame of a
 * flame graph, which the object and offset tell apart
 */
void stack_frame__function(const struct stack_frame *f, char *buf, size_t len);

#endif /* WAKEPROBE_RUN_STACKS_H */
