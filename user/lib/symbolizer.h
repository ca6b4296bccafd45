/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbolizer.h - a code address of a process, or of the kernel, as a
 * person reads it: the function and the offset into it, the source file
 * and line where the object has debug information, else the object and
 * the offset into it. A data address of a process (a futex word) as the
 * global variable and the member of it that it is, or as the heap, a
 * thread's stack or anonymous memory.
 *
 * A process's mappings are taken while it lives (symbolizer__snapshot())
 * and kept, so that its addresses can be named after it has exited: the
 * stacks of a run are named once it is over, off the traced path. The
 * objects are read with elfutils' libdwfl (perf's choice, Debian's
 * libdw): symbol tables (.symtab, else a stripped object's .dynsym, its
 * exported functions), DWARF line tables, and debug files under
 * /usr/lib/debug (by build ID, or .gnu_debuglink). C++ and Rust names are
 * demangled (symbolizer__demangle()). Where no symbol covers an address,
 * the object's build ID and the offset in its file say where it is.
 *
 * What it trusts. A traced process may be hostile, and wakeprobe runs as
 * root. Each object is the very file its process maps, opened when its
 * mappings are taken, through /proc/PID/map_files and checked
 * (mapped_file.h), never by the path its maps line gives: a FIFO, a device
 * or a link put at that path since is not opened. Its ELF and DWARF, which
 * the process could have crafted, are parsed in a child process that holds
 * no privileges (sandbox.h, object_names.h): an object that crashes it,
 * loops it or holds it up past its time is named no further, the child
 * killed and started again for the others, and a frame of it says why
 * (symbol.why_unnamed). A signal that asks the run to end while names are
 * asked ends the naming too (symbolizer__interrupt_on()).
 */
#ifndef WAKEPROBE_SYMBOLIZER_H
#define WAKEPROBE_SYMBOLIZER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct symbolizer;

/* a named code address */
struct symbol {
	char function[160];	/* "" when no symbol covers it */
	uint64_t function_offset;	/* from the function's start */
	char file[160];		/* the source file, "" without line information */
	int line;		/* 0 without line information */
	char object[160];	/* the object's path ("[kernel]" for the kernel), "" when nothing is mapped there;
				   a longer path is "..." and its end, so that its file name stays */
	uint64_t object_offset;	/* the address's offset in the object's file */
	const char *why_unnamed;	/* why the object said nothing of it ("not a regular file", "the
					   symbolizer took too long on it"): static text, NULL when it was read */
	char build_id[129];	/* the object's GNU build ID in hex, as the child read it: "" without one, or
				   when it was not read. With object_offset, it names the code where no symbol
				   does, to debuginfod or a dbgsym package */
};

/*
 * what a data address of a process is. In an object, the global it lies
 * in and, where the object has DWARF, the member at that offset, down
 * through structures and arrays but not into unions, whose members
 * overlap: glibc's pthread_mutex_t, pthread_cond_t and sem_t are unions,
 * so a mutex is named as the member that is one ("my_queue.lock"), not by
 * glibc's insides of it.
 */
struct data_name {
	char what[200];		/* "my_queue.lock", "my_queue.lock+0x4" inside the union; "my_queue+0x8"
				   without DWARF; "" where no symbol covers it (a stripped object). Outside
				   objects: "heap", "stack of thread TID", "anonymous memory", or the
				   kernel's name ("[vvar]"); "" when nothing was mapped there */
	char object[160];	/* the object whose data it is, "" when not in an object's mapping */
	uint64_t object_offset;	/* its offset in that object's file (as symbol.object_offset), past the
				   file's end for .bss beyond the file's last page */
	const char *why_unnamed;	/* as symbol.why_unnamed */
};

/* how much time the symbolizer's child is given (symbolizer_opts), when not said */
#define SYMBOLIZER_OBJECT_MS	10000	/* on one object, all its answers together: its first, which reads it, the longest */
#define SYMBOLIZER_RUN_MS	120000	/* on all the objects of a run */

struct symbolizer_opts {
	/*
	 * debuginfod - ask the debuginfod servers DEBUGINFOD_URLS names for a
	 * debug file not found under /usr/lib/debug: off unless asked for, here
	 * or by WAKEPROBE_DEBUGINFOD=1 in the environment (a Debian login sets
	 * DEBUGINFOD_URLS for everyone, and a traced object's build ID would
	 * have a root process fetch files from the network). The child keeps
	 * what it fetches in DEBUGINFOD_CACHE_PATH when set, else in
	 * /var/cache/wakeprobe/debuginfod, made for its uid.
	 */
	bool debuginfod;
	unsigned int object_ms;		/* 0: SYMBOLIZER_OBJECT_MS */
	unsigned int run_ms;		/* 0: SYMBOLIZER_RUN_MS */
};

/* symbolizer__new - with the options' defaults */
struct symbolizer *symbolizer__new(void);
struct symbolizer *symbolizer__new_with(const struct symbolizer_opts *opts);
void symbolizer__free(struct symbolizer *s);

/*
 * symbolizer__interrupt_on - from now on, once *@flag is not 0 (a signal
 * handler's), no name is asked of an object any more: the one being asked
 * is given up, the child killed, and what is left unnamed says so; NULL:
 * never. Kernel addresses are named all the same.
 */
void symbolizer__interrupt_on(struct symbolizer *s, const volatile sig_atomic_t *flag);

struct sandbox;
/* symbolizer__sandbox - the child that parses the objects (the tests': its pid, what it holds) */
struct sandbox *symbolizer__sandbox(struct symbolizer *s);

/*
 * symbolizer__snapshot - keep @pid's mappings as its /proc/PID/maps says
 * them now, with the files they map opened to be read (mapped_file.h;
 * an object already opened for another mapping is not again), and which
 * of them is which thread's stack (as
 * symbolizer__snapshot_thread_stack() from each thread's
 * /proc/PID/task/TID/syscall, which root can read; a thread on a CPU
 * then shows none, and its stack stays anonymous memory); again for a pid
 * replaces them (an exec), but for one that maps nothing (a process past
 * its exit's release of its memory: what was kept stays). 0, or a
 * negative errno (the process is gone or going, or not ours to read).
 */
int symbolizer__snapshot(struct symbolizer *s, pid_t pid);

/*
 * symbolizer__snapshot_from - the mappings alone, from the text of a maps
 * file @maps (the tests'): no file is opened for them, and their objects
 * say nothing
 */
int symbolizer__snapshot_from(struct symbolizer *s, pid_t pid, FILE *maps);

/*
 * symbolizer__snapshot_thread_stack - in @pid's snapshot, the anonymous
 * mapping that holds stack pointer @sp of its thread @tid is that
 * thread's stack (the first thread said to be there keeps it). 0, or
 * -ESRCH without a snapshot of @pid, -ENOENT when no anonymous mapping
 * holds @sp (a stack in the heap is not all of the heap), -EEXIST when
 * another thread's stack is said to be there.
 */
int symbolizer__snapshot_thread_stack(struct symbolizer *s, pid_t pid, pid_t tid, uint64_t sp);

/*
 * symbolizer__user - name @addr of process @pid from its snapshot into
 * @out: true when an object was mapped there (a function and line when
 * the object says them), false when none was (JIT'd code, a snapshot
 * taken too late)
 */
bool symbolizer__user(struct symbolizer *s, pid_t pid, uint64_t addr, struct symbol *out);

/*
 * symbolizer__unwind - a stack of a thread of @pid, whose top @len bytes
 * from @sp are @stack and whose registers were @regs (OBJECT_UNWIND_REGS
 * of them, in DWARF's order: object_names.h), unwound by the call frame
 * information of the objects @pid's snapshot maps executable, in the
 * child: the frames' addresses into @pcs, innermost first (the first the
 * registers' pc, the others return addresses), at most @max; how many. 0
 * when @pid has no snapshot, or the child could not (an object's time
 * spent, the child crashed on it: said of the object's frames). *@top
 * (NULL: not asked) where the stack ends, when the unwinding reached the
 * thread's start within the copy (object_names_frames.top), else 0: the
 * unwinding ended short of the start.
 */
size_t symbolizer__unwind(struct symbolizer *s, pid_t pid, const uint64_t *regs, uint64_t sp, const uint8_t *stack,
			  size_t len, uint64_t *pcs, size_t max, uint64_t *top);

/*
 * symbolizer__data - name data address @addr of process @pid from its
 * snapshot into @out: a global of an object mapped there (its .data, or
 * its .bss, also in the anonymous mapping right after the object's last
 * file mapping), else what the mapping is. False when nothing was mapped
 * there, or @pid has no snapshot.
 */
bool symbolizer__data(struct symbolizer *s, pid_t pid, uint64_t addr, struct data_name *out);

/*
 * symbolizer__kernel_from - read the kernel's symbols from @kallsyms (the
 * text of /proc/kallsyms, which shows addresses to root alone); the
 * number read, or a negative errno
 */
int symbolizer__kernel_from(struct symbolizer *s, FILE *kallsyms);

/* symbolizer__kernel - name kernel text address @addr into @out: false before any symbol */
bool symbolizer__kernel(const struct symbolizer *s, uint64_t addr, struct symbol *out);

/* symbolizer__demangle - demangle__name() (demangle.h): what a kernel symbol's name, or a test's, reads as */
bool symbolizer__demangle(const char *name, char *out, size_t size);

#endif /* WAKEPROBE_SYMBOLIZER_H */
