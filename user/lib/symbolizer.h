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
 * libdw): symbol tables, DWARF line tables, and debug files found the
 * standard ways (.gnu_debuglink, /usr/lib/debug/.build-id). C++ and Rust
 * names are demangled (symbolizer__demangle()).
 */
#ifndef WAKEPROBE_SYMBOLIZER_H
#define WAKEPROBE_SYMBOLIZER_H

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
	char object[160];	/* the object's path ("[kernel]" for the kernel), "" when nothing is mapped there */
	uint64_t object_offset;	/* the address's offset in the object's file */
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
};

struct symbolizer *symbolizer__new(void);
void symbolizer__free(struct symbolizer *s);

/*
 * symbolizer__snapshot - keep @pid's mappings as its /proc/PID/maps says
 * them now, and which of them is which thread's stack (as
 * symbolizer__snapshot_thread_stack() from each thread's
 * /proc/PID/task/TID/syscall, which root can read; a thread on a CPU
 * then shows none, and its stack stays anonymous memory); again for a pid
 * replaces them (an exec). 0, or a negative errno (the process is gone,
 * or not ours to read).
 */
int symbolizer__snapshot(struct symbolizer *s, pid_t pid);

/* symbolizer__snapshot_from - the mappings alone, from the text of a maps file @maps (the tests') */
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

/*
 * symbolizer__demangle - @name as its source spells it, into @out of
 * @size bytes (cut short when longer): a C++ name (the Itanium ABI's
 * _Z...) or a Rust one (legacy _ZN...17h<hash>E, or v0 _R...) demangled
 * to its path and template arguments, without the parameter types or
 * Rust's hash, as perf shows them; any other name as it is. True when
 * @name was demangled.
 */
bool symbolizer__demangle(const char *name, char *out, size_t size);

#endif /* WAKEPROBE_SYMBOLIZER_H */
