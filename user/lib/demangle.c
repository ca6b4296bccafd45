// SPDX-License-Identifier: GPL-2.0
/* demangle.c - C++ and Rust names as their source spells them (demangle.h) */
#include <stdio.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "demangle.h"

/* text - a demangled name as libiberty hands it over, piece by piece, into a buffer of ours */
struct text {
	char *buf;
	size_t size, len;
};

static void text_append(const char *piece, size_t n, void *opaque)
{
	struct text *t = opaque;

	if (n > t->size - 1 - t->len)
		n = t->size - 1 - t->len;
	memcpy(t->buf + t->len, piece, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/*
 * libiberty's demanglers rather than __cxa_demangle: they are binutils'
 * and gdb's, and besides C++ they read both of Rust's manglings, which
 * libstdc++'s reads only as far as the legacy one's C++ shape (keeping
 * the hash). Their callback forms write straight into the caller's
 * buffer, with no string to allocate and free for every name.
 */
bool demangle__name(const char *name, char *out, size_t size)
{
	struct text t = { out, size, 0 };

	if (!size)
		return false;
	out[0] = '\0';
	/* Rust first: its legacy names are well-formed C++ names too, which would keep the hash */
	if (rust_demangle_callback(name, DMGL_NO_OPTS, text_append, &t))
		return true;
	t.len = 0;
	out[0] = '\0';
	/* no DMGL_PARAMS: the function, not its parameter types; a stack names the line besides */
	if (cplus_demangle_v3_callback(name, DMGL_NO_OPTS, text_append, &t))
		return true;
	snprintf(out, size, "%s", name);
	return false;
}
