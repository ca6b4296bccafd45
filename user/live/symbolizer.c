// SPDX-License-Identifier: GPL-2.0
/* symbolizer.c - code addresses named from a process's objects and the kernel's symbols (symbolizer.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include "symbolizer.h"

/* one file mapping of a process, as its maps file gave it */
struct mapping {
	uint64_t start, end, offset;
	char path[160];
};

struct process {
	pid_t pid;
	struct mapping *maps;
	size_t n;
};

/* an object read once, for every process that maps it */
struct object {
	char path[160];
	Dwfl *dwfl;		/* NULL: it could not be read */
	Dwfl_Module *mod;
};

struct kernel_symbol {
	uint64_t addr;
	char name[128];
	char module[48];	/* "" for the kernel itself */
};

struct symbolizer {
	struct process *procs;
	size_t nprocs;
	struct object *objs;
	size_t nobjs;
	struct kernel_symbol *ksyms;
	size_t nksyms;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct symbolizer *symbolizer__new(void)
{
	return calloc(1, sizeof(struct symbolizer));
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocs; i++)
		free(s->procs[i].maps);
	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i].dwfl)
			dwfl_end(s->objs[i].dwfl);
	free(s->procs);
	free(s->objs);
	free(s->ksyms);
	free(s);
}

static struct process *process_of(struct symbolizer *s, pid_t pid)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

int symbolizer__snapshot_from(struct symbolizer *s, pid_t pid, FILE *maps)
{
	struct process *p = process_of(s, pid), *grown;
	struct mapping *m = NULL, *more;
	size_t n = 0, cap = 0;
	char line[512];

	while (fgets(line, sizeof(line), maps)) {
		unsigned long long start, end, offset;
		char perms[8], path[sizeof(m->path)];
		int at = 0;

		/* start-end perms offset dev inode path: only what is backed by a file */
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &at) != 4 || !at ||
		    line[at] != '/')
			continue;
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(line + at, "\n"), line + at);
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			more = realloc(m, cap * sizeof(*m));
			if (!more) {
				free(m);
				return -ENOMEM;
			}
			m = more;
		}
		m[n++] = (struct mapping){ start, end, offset, "" };
		memcpy(m[n - 1].path, path, sizeof(path));
	}
	if (!p) {
		grown = realloc(s->procs, (s->nprocs + 1) * sizeof(*s->procs));
		if (!grown) {
			free(m);
			return -ENOMEM;
		}
		s->procs = grown;
		p = &s->procs[s->nprocs++];
	} else {
		free(p->maps);
	}
	*p = (struct process){ pid, m, n };
	return 0;
}

int symbolizer__snapshot(struct symbolizer *s, pid_t pid)
{
	char path[64];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = symbolizer__snapshot_from(s, pid, f);
	fclose(f);
	return err;
}

/* object_of - @path read once, with its debug information where it has some */
static struct object *object_of(struct symbolizer *s, const char *path)
{
	struct object *grown, *o;

	for (size_t i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i].path, path))
			return &s->objs[i];
	grown = realloc(s->objs, (s->nobjs + 1) * sizeof(*s->objs));
	if (!grown)
		return NULL;
	s->objs = grown;
	o = &s->objs[s->nobjs++];
	memset(o, 0, sizeof(*o));
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->dwfl = dwfl_begin(&offline_callbacks);
	if (o->dwfl) {
		o->mod = dwfl_report_offline(o->dwfl, path, path, -1);
		dwfl_report_end(o->dwfl, NULL, NULL);
		if (!o->mod) {
			dwfl_end(o->dwfl);
			o->dwfl = NULL;
		}
	}
	return o;
}

/*
 * module_address - the address in @o's module of the byte at @file_offset
 * of its file: the loadable segment holding it says at which virtual
 * address it lies, and the module sits at its bias from there; false when
 * no segment holds it
 */
static bool module_address(const struct object *o, uint64_t file_offset, Dwarf_Addr *out)
{
	Dwarf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	size_t n = 0;

	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (file_offset >= ph.p_offset && file_offset < ph.p_offset + ph.p_filesz) {
			*out = file_offset - ph.p_offset + ph.p_vaddr + bias;
			return true;
		}
	}
	return false;
}

bool symbolizer__user(struct symbolizer *s, pid_t pid, uint64_t addr, struct symbol *out)
{
	struct process *p = process_of(s, pid);
	const struct mapping *m = NULL;
	struct object *o;
	Dwarf_Addr at;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name, *src;
	Dwfl_Line *line;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; p && i < p->n && !m; i++)
		if (addr >= p->maps[i].start && addr < p->maps[i].end)
			m = &p->maps[i];
	if (!m)
		return false;
	memcpy(out->object, m->path, sizeof(out->object));
	out->object_offset = addr - m->start + m->offset;
	o = object_of(s, m->path);
	if (!o || !o->dwfl || !module_address(o, out->object_offset, &at))
		return true;
	name = dwfl_module_addrinfo(o->mod, at, &off, &sym, NULL, NULL, NULL);
	if (name) {
		symbolizer__demangle(name, out->function, sizeof(out->function));
		out->function_offset = off;
	}
	line = dwfl_module_getsrc(o->mod, at);
	src = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (src) {
		snprintf(out->file, sizeof(out->file), "%s", src);
		out->line = lineno;
	}
	return true;
}

static int by_address(const void *a, const void *b)
{
	const struct kernel_symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int symbolizer__kernel_from(struct symbolizer *s, FILE *kallsyms)
{
	struct kernel_symbol *k = NULL, *more;
	size_t n = 0, cap = 0;
	char line[512];

	while (fgets(line, sizeof(line), kallsyms)) {
		unsigned long long addr;
		char type, name[128], module[64] = "";

		if (sscanf(line, "%llx %c %127s [%63[^]]]", &addr, &type, name, module) < 3)
			continue;
		/* text only: a stack holds code addresses; 0 is what kallsyms shows a reader without privileges */
		if (!addr || (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			more = realloc(k, cap * sizeof(*k));
			if (!more) {
				free(k);
				return -ENOMEM;
			}
			k = more;
		}
		k[n].addr = addr;
		snprintf(k[n].name, sizeof(k[n].name), "%s", name);
		snprintf(k[n].module, sizeof(k[n].module), "%s", module);
		n++;
	}
	qsort(k, n, sizeof(*k), by_address);
	free(s->ksyms);
	s->ksyms = k;
	s->nksyms = n;
	return (int)n;
}

bool symbolizer__kernel(const struct symbolizer *s, uint64_t addr, struct symbol *out)
{
	size_t lo = 0, hi = s->nksyms;
	const struct kernel_symbol *k;

	memset(out, 0, sizeof(*out));
	/* the last symbol at or below the address */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	k = &s->ksyms[lo - 1];
	/* the kernel's Rust code is in kallsyms by its v0 names */
	symbolizer__demangle(k->name, out->function, sizeof(out->function));
	out->function_offset = addr - k->addr;
	if (k->module[0])
		snprintf(out->object, sizeof(out->object), "[%s]", k->module);
	else
		snprintf(out->object, sizeof(out->object), "[kernel]");
	return true;
}

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
bool symbolizer__demangle(const char *name, char *out, size_t size)
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
