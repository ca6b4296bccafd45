/* SPDX-License-Identifier: GPL-2.0 */
/*
 * object_names_internal.h - object_names.c's own: an object as the child
 * holds it, which object_debug.c finds the debug files of
 */
#ifndef WAKEPROBE_OBJECT_NAMES_INTERNAL_H
#define WAKEPROBE_OBJECT_NAMES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "object_names.h"

/* where debug files are looked for, and nowhere else: gdb's and the distributions' layout */
#define DEBUG_DIR "/usr/lib/debug"
#define BUILD_ID_MAX OBJECT_NAMES_BUILD_ID_MAX
/* the DIEs a walk of one DWARF list takes at most: a crafted list is as long as its section lets it be */
#define DIES_MAX 1000000

/* a data symbol of an object, its address in the module */
struct data_symbol {
	Dwarf_Addr addr;
	GElf_Xword size;
	int binding;		/* STB_GLOBAL, STB_WEAK, STB_LOCAL */
	const char *name;	/* libdwfl's, kept as long as the object's Dwfl */
};

/* a variable of an object's DWARF at a fixed address in the module */
struct dwarf_variable {
	Dwarf_Addr addr;
	Dwarf_Die die;
};

/* an object as the parent handed it over, read on the first name asked of it */
struct object {
	int fd;			/* until it is read: libdwfl takes it then */
	char *path;		/* as its process mapped it */
	bool read;		/* tried: dwfl is what came of it */
	Dwfl *dwfl;		/* NULL: it could not be read */
	Dwfl_Module *mod;
	/* its separate debug file, when one was found under DEBUG_DIR, and the dwz file that one names */
	char *debug_path;
	bool dwz_named;		/* the file holding its DWARF names a dwz file (.gnu_debugaltlink) */
	bool dwz_found;
	char *dwz_name;
	uint8_t dwz_id[BUILD_ID_MAX];
	size_t dwz_id_len;
	bool debuginfod;	/* debug files may come from the servers DEBUGINFOD_URLS names */
	/* whether its DWARF may be used: read once */
	bool dwarf_checked, dwarf_usable;
	/* for data addresses alone, read on the first one asked of the object: code needs neither */
	bool data_read;
	struct data_symbol *data_syms;	/* by address */
	size_t ndata_syms;
	struct dwarf_variable *vars;	/* by address */
	size_t nvars;
};

/*
 * object_debug__callbacks - libdwfl's callbacks for an object the parent
 * handed over: no path is opened to find the main file, and its debug
 * files are looked for under DEBUG_DIR alone, checked to be its own
 * (object_debug.c); the module's user data is its struct object
 */
extern const Dwfl_Callbacks object_debug__callbacks;

struct object_names_unwind;
struct object_names_frames;

/*
 * object_unwind__serve - unwind @req into @out (object_unwind.c), its
 * objects @objects (req->objects' each, read: its module made; NULL for
 * one that was not added or could not be read), with @cache, the child's
 * state of the processes unwound last (NULL at first,
 * object_unwind__free() at the end): 0, or a negative errno for a request
 * that is not one
 */
struct unwind_cache;
int object_unwind__serve(struct unwind_cache **cache, const struct object_names_unwind *req,
			 struct object *const *objects, struct object_names_frames *out);
void object_unwind__free(struct unwind_cache *cache);

#endif /* WAKEPROBE_OBJECT_NAMES_INTERNAL_H */
