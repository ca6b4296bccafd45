/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demangle.h - a C++ or Rust symbol name as its source spells it, with
 * libiberty's demanglers (binutils' and gdb's). A name comes from an
 * object a traced process mapped: the symbolizer's child, which holds no
 * privileges, demangles the names of user objects (object_names.c); the
 * kernel's come from kallsyms.
 */
#ifndef WAKEPROBE_DEMANGLE_H
#define WAKEPROBE_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * demangle__name - @name as its source spells it, into @out of @size bytes
 * (cut short when longer): a C++ name (the Itanium ABI's _Z...) or a Rust
 * one (legacy _ZN...17h<hash>E, or v0 _R...) demangled to its path and
 * template arguments, without the parameter types or Rust's hash, as perf
 * shows them; any other name as it is. True when @name was demangled.
 */
bool demangle__name(const char *name, char *out, size_t size);

#endif /* WAKEPROBE_DEMANGLE_H */
