/* SPDX-License-Identifier: GPL-2.0 */
/*
 * object_names.h - addresses in the objects a traced process maps, named
 * from their ELF and DWARF with elfutils' libdw: a code address as its
 * function, the offset into it, and its source line; a data address as
 * the global it lies in and the member of it (symbolizer.h says how).
 *
 * This is what the symbolizer's child runs, the process without
 * privileges that parses what a traced process could have crafted
 * (sandbox.h): it is handed each object as a descriptor the parent opened
 * (mapped_file.h), and opens nothing by a path an object chose. A debug
 * file is looked for under /usr/lib/debug alone (by build ID, or by
 * .gnu_debuglink in the object's directory there, as gdb lays them out),
 * opened non-blocking, kept only as a regular file whose build ID (or
 * CRC) is the object's; a dwz file (.gnu_debugaltlink) the same way. An
 * object whose DWARF names files that were not found so (split DWARF's
 * .dwo, a dwz file elsewhere), which libdw would open by those names
 * itself, is named by its symbols alone. Debuginfod servers are asked
 * only when asked to (object_names_opts.debuginfod).
 *
 * The requests are fixed in size for each kind, and so are the answers.
 */
#ifndef WAKEPROBE_OBJECT_NAMES_H
#define WAKEPROBE_OBJECT_NAMES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum object_names_kind {
	OBJECT_NAMES_ADD = 1,	/* an object, its descriptor with it: struct object_names_add */
	OBJECT_NAMES_CODE,	/* name a code address: struct object_names_ask, answered by object_names_code */
	OBJECT_NAMES_DATA,	/* name a data address: struct object_names_ask, answered by object_names_data */
	OBJECT_NAMES_UNWIND,	/* unwind a copy of a user stack: struct object_names_unwind, answered by object_names_frames */
};

/* object @object (numbered by the asker, from 0) is the file of the descriptor that comes with this */
struct object_names_add {
	uint32_t kind;		/* OBJECT_NAMES_ADD */
	uint32_t object;
	char path[PATH_MAX];	/* the path its process mapped it by: where gdb's layout puts its debug file */
};

/* name the byte at @file_offset of object @object's file, as code or as data */
struct object_names_ask {
	uint32_t kind;		/* OBJECT_NAMES_CODE or OBJECT_NAMES_DATA */
	uint32_t object;
	uint64_t file_offset;
};

/* no GNU build ID is longer: SHA-1's 20 bytes are the usual, and gdb reads up to 64 */
#define OBJECT_NAMES_BUILD_ID_MAX 64

struct object_names_code {
	uint64_t function_offset;
	int32_t line;		/* 0 without line information */
	char function[160];	/* "" when no symbol covers it */
	char file[160];		/* "" without line information */
	/*
	 * the object's GNU build ID (its NT_GNU_BUILD_ID note), whatever the
	 * address: where no symbol covers it, what names the object to a
	 * debuginfod server or a dbgsym package later
	 */
	uint32_t build_id_len;	/* 0 without one */
	uint8_t build_id[OBJECT_NAMES_BUILD_ID_MAX];
};

struct object_names_data {
	uint8_t in_module;	/* the offset lies in a loadable segment, .bss past the file's end included */
	char what[200];		/* the global and its member path, "" for no symbol */
};

/* the registers an unwinding starts from, in DWARF's numbering for x86-64: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, rip */
#define OBJECT_UNWIND_REGS	17
#define OBJECT_UNWIND_PC	16
/* the objects of one process an unwinding may pass through, its stack's bytes, its frames: at most */
#define OBJECT_UNWIND_OBJECTS	256
#define OBJECT_UNWIND_STACK	8192
#define OBJECT_UNWIND_FRAMES	127

/* object @object is mapped at @start from byte @offset of its file: where its process has it */
struct object_names_placed {
	uint32_t object;
	uint32_t __pad;
	uint64_t start;
	uint64_t offset;
};

/*
 * unwind the stack whose top @len bytes, from @sp, are @stack, from
 * registers @regs, through the objects @objects (already added) of its
 * process. The same @objects from one request to the next are one
 * process, whose unwinding state the child keeps.
 */
struct object_names_unwind {
	uint32_t kind;		/* OBJECT_NAMES_UNWIND */
	uint32_t nobjects;
	uint64_t regs[OBJECT_UNWIND_REGS];
	uint64_t sp;
	uint32_t len;
	uint32_t __pad;
	struct object_names_placed objects[OBJECT_UNWIND_OBJECTS];
	uint8_t stack[OBJECT_UNWIND_STACK];
};

/*
 * the frames unwound, innermost first: the first the registers' pc, the
 * others return addresses; and, where the unwinding ended at the thread's
 * start (a frame whose return address the CFI leaves undefined) having
 * read nothing past the copy, where the stack's last byte it read ends:
 * no copy of that thread's stack needs to reach further
 */
struct object_names_frames {
	uint32_t n;
	uint32_t whole;		/* it ended at the thread's start, not short of it (no CFI, a read past the copy) */
	uint64_t top;		/* 0: not known */
	uint64_t pc[OBJECT_UNWIND_FRAMES];
};

struct object_names_opts {
	bool debuginfod;	/* ask the servers DEBUGINFOD_URLS names for a debug file not under /usr/lib/debug */
};

struct object_names;

struct object_names *object_names__new(const struct object_names_opts *opts);
void object_names__free(struct object_names *on);

/*
 * object_names__serve - answer @request of @len bytes (one of the structs
 * above, its size its kind's), @fd the descriptor that came with it (-1
 * for none, else taken over): into @answer of @room bytes, how many it
 * holds; a negative errno for a request that is not one, a descriptor
 * where none belongs, an object not added. The sandbox's serve function
 * (sandbox.h).
 */
int object_names__serve(void *on, const void *request, size_t len, int fd, void *answer, size_t room);

/*
 * object_names__array_element - the element of an array of @dims
 * dimensions, of @count elements each (the first may be 0, not said) and
 * elements of @element_size bytes, that byte @offset lies in: its indexes
 * into @index, and @offset made relative to it. False where the counts do
 * not say (a later dimension's unknown, an index past its count), or
 * where the array's size does not fit 64 bits: a crafted DWARF's counts
 * could make the arithmetic wrap, and a stride of 0 divide by zero.
 */
bool object_names__array_element(const uint64_t *count, int dims, uint64_t element_size, uint64_t *offset,
				 uint64_t *index);

#endif /* WAKEPROBE_OBJECT_NAMES_H */
