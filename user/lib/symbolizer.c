// SPDX-License-Identifier: GPL-2.0
/*
 * symbolizer.c - code and data addresses named from a process's objects
 * and mappings, and code addresses from the kernel's symbols (symbolizer.h)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include "symbolizer.h"

/* what a mapping of a process holds, by the name its maps line gives it (proc(5)) */
enum mapping_kind {
	MAPPING_FILE,		/* a path: an object, or a file mapped as data (a shared memory segment) */
	MAPPING_ANONYMOUS,	/* no name, or one given it with PR_SET_VMA_ANON_NAME ("[anon:NAME]") */
	MAPPING_HEAP,		/* [heap], the brk area */
	MAPPING_STACK,		/* [stack], the main thread's */
	MAPPING_KERNEL,		/* what the kernel names itself: [vdso], [vvar], [vsyscall], anon_inode:... */
};

/* one mapping of a process, as its maps file gave it */
struct mapping {
	uint64_t start, end, offset;
	enum mapping_kind kind;
	pid_t stack_of;		/* the thread whose stack it holds, 0 when none is known to */
	char path[160];		/* the file, or the kernel's name for the mapping; "" for anonymous memory */
};

struct process {
	pid_t pid;
	struct mapping *maps;
	size_t n;
};

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

/* an object read once, for every process that maps it */
struct object {
	char path[160];
	Dwfl *dwfl;		/* NULL: it could not be read */
	Dwfl_Module *mod;
	/* for data addresses alone, read on the first one asked of the object: code needs neither */
	bool data_read;
	struct data_symbol *data_syms;	/* by address */
	size_t ndata_syms;
	struct dwarf_variable *vars;	/* by address */
	size_t nvars;
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
	for (size_t i = 0; i < s->nobjs; i++) {
		if (s->objs[i].dwfl)
			dwfl_end(s->objs[i].dwfl);
		free(s->objs[i].data_syms);
		free(s->objs[i].vars);
	}
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

/* mapping_at - the mapping of @p that holds @addr, NULL for none */
static struct mapping *mapping_at(const struct process *p, uint64_t addr)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (addr >= p->maps[i].start && addr < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}

static enum mapping_kind mapping_kind(const char *name)
{
	if (name[0] == '/')
		return MAPPING_FILE;
	/* "[anon:NAME]", and "[anon_shmem:NAME]" for shared anonymous memory */
	if (!name[0] || !strncmp(name, "[anon", 5))
		return MAPPING_ANONYMOUS;
	if (!strcmp(name, "[heap]"))
		return MAPPING_HEAP;
	if (!strcmp(name, "[stack]"))
		return MAPPING_STACK;
	return MAPPING_KERNEL;
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

		/* start-end perms offset dev inode [path]: the space before the path takes the line's end without one */
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &at) != 4 || !at)
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
		m[n] = (struct mapping){ .start = start, .end = end, .offset = offset, .kind = mapping_kind(path) };
		/* the main thread's stack is the one the kernel names (fs/proc/task_mmu.c) */
		if (m[n].kind == MAPPING_STACK)
			m[n].stack_of = pid;
		memcpy(m[n++].path, path, sizeof(path));
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

int symbolizer__snapshot_thread_stack(struct symbolizer *s, pid_t pid, pid_t tid, uint64_t sp)
{
	struct process *p = process_of(s, pid);
	struct mapping *m;

	if (!p)
		return -ESRCH;
	m = mapping_at(p, sp);
	/* a stack in the heap is a coroutine's or a green thread's, and the heap is not all of it */
	if (!m || (m->kind != MAPPING_ANONYMOUS && m->kind != MAPPING_STACK))
		return -ENOENT;
	if (m->stack_of && m->stack_of != tid)
		return -EEXIST;
	m->stack_of = tid;
	return 0;
}

/*
 * user_stack_pointer - the user stack pointer in @line, the text of a
 * thread's /proc/PID/task/TID/syscall: "NR ARG1 ... ARG6 SP PC" for a
 * thread blocked in a system call, "-1 SP PC" for one blocked outside of
 * one (stopped by a signal, or in a page fault), whose SP is as good, and
 * "running" for one on a CPU or runnable, whose registers the kernel does
 * not read (fs/proc/base.c, proc_pid_syscall(); lib/syscall.c,
 * task_current_syscall()); false for that
 */
static bool user_stack_pointer(const char *line, uint64_t *sp)
{
	unsigned long long word[8];
	int n = sscanf(line, "%*d %llx %llx %llx %llx %llx %llx %llx %llx", &word[0], &word[1], &word[2], &word[3],
		       &word[4], &word[5], &word[6], &word[7]);

	if (n != 2 && n != 8)
		return false;
	*sp = word[n - 2];
	return true;
}

/*
 * snapshot_thread_stacks - which anonymous mapping of @pid is which of its
 * threads' stacks: the one its stack pointer is in while it is off the
 * CPU. The syscall file is for a reader that may ptrace the process (root,
 * or its parent where Yama allows); for any other, and for a thread on a
 * CPU, the mapping stays anonymous memory.
 */
static void snapshot_thread_stacks(struct symbolizer *s, pid_t pid)
{
	char path[64], line[256];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);
		uint64_t sp;
		FILE *f;

		if (*end || tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/syscall", (int)pid, tid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && user_stack_pointer(line, &sp))
			symbolizer__snapshot_thread_stack(s, pid, (pid_t)tid, sp);
		fclose(f);
	}
	closedir(dir);
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
	if (!err)
		snapshot_thread_stacks(s, pid);
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
 * no segment holds it. A segment's .bss lies past its bytes in the file:
 * in the rest of the page that maps the last of them, then in the
 * anonymous mapping after it (fs/binfmt_elf.c; glibc's
 * elf/dl-map-segments.h), so offsets counted on from that page's mapping
 * land in the segment whose bytes end last before them, as far as its
 * size in memory reaches.
 */
static bool module_address(const struct object *o, uint64_t file_offset, Dwarf_Addr *out)
{
	Dwarf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	GElf_Phdr ph, seg = { .p_type = PT_NULL };	/* PT_NULL: none yet */
	size_t n = 0;

	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_offset > file_offset)
			continue;
		if (file_offset - ph.p_offset < ph.p_filesz) {
			seg = ph;
			break;
		}
		if (ph.p_filesz && (seg.p_type == PT_NULL || ph.p_offset > seg.p_offset))
			seg = ph;
	}
	if (seg.p_type == PT_NULL || file_offset - seg.p_offset >= seg.p_memsz)
		return false;
	*out = file_offset - seg.p_offset + seg.p_vaddr + bias;
	return true;
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
		if (p->maps[i].kind == MAPPING_FILE && addr >= p->maps[i].start && addr < p->maps[i].end)
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

/* append - add to the text in @buf of @size bytes, cut short when full */
__attribute__((format(printf, 3, 4))) static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static int data_symbol_order(const void *a, const void *b)
{
	const struct data_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int variable_order(const void *a, const void *b)
{
	const struct dwarf_variable *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* read_data_symbols - @o's data objects from its symbol table (.symtab, else .dynsym), by address */
static void read_data_symbols(struct object *o)
{
	int n = dwfl_module_getsymtab(o->mod);
	size_t cap = 0;

	for (int i = 0; i < n; i++) {
		struct data_symbol *more;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;
		const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr, &shndx, NULL, NULL);

		if (!name || !name[0] || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || shndx == SHN_UNDEF ||
		    shndx == SHN_ABS || shndx == SHN_COMMON || shndx == (GElf_Word)-1)
			continue;
		if (o->ndata_syms == cap) {
			more = realloc(o->data_syms, (cap ? 2 * cap : 256) * sizeof(*more));
			if (!more)
				break;
			o->data_syms = more;
			cap = cap ? 2 * cap : 256;
		}
		o->data_syms[o->ndata_syms++] = (struct data_symbol){ addr, sym.st_size, GELF_ST_BIND(sym.st_info), name };
	}
	if (o->ndata_syms)
		qsort(o->data_syms, o->ndata_syms, sizeof(*o->data_syms), data_symbol_order);
}

/*
 * collect_variables - the variables at fixed addresses under DWARF DIE
 * @parent: globals, and statics inside functions and namespaces
 */
static void collect_variables(struct object *o, Dwarf_Die *parent, Dwarf_Addr bias, size_t *cap, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child))
		return;
	do {
		struct dwarf_variable *more;
		Dwarf_Attribute attr;
		Dwarf_Op *ops;
		size_t nops;

		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
			/* one DW_OP_addr: at a fixed place; a TLS one's or a location list is not */
			if (!dwarf_attr(&child, DW_AT_location, &attr) || dwarf_getlocation(&attr, &ops, &nops) ||
			    nops != 1 || ops[0].atom != DW_OP_addr)
				break;
			if (o->nvars == *cap) {
				more = realloc(o->vars, (*cap ? 2 * *cap : 256) * sizeof(*more));
				if (!more)
					return;
				o->vars = more;
				*cap = *cap ? 2 * *cap : 256;
			}
			o->vars[o->nvars++] = (struct dwarf_variable){ ops[0].number + bias, child };
			break;
		case DW_TAG_namespace:
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
			collect_variables(o, &child, bias, cap, depth + 1);
			break;
		}
	} while (!dwarf_siblingof(&child, &child));
}

/*
 * read_data_tables - what naming @o's data takes, once: its data symbols,
 * and where it has DWARF, its variables, found by walking every unit
 * (DWARF indexes code by address, not data), which costs a pass over the
 * object's debug information the first time one of its data addresses is
 * asked
 */
static void read_data_tables(struct object *o)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Addr bias;
	Dwarf *dwarf;
	size_t cap = 0;

	if (o->data_read)
		return;
	o->data_read = true;
	read_data_symbols(o);
	dwarf = dwfl_module_getdwarf(o->mod, &bias);
	if (!dwarf)
		return;
	while (!dwarf_get_units(dwarf, cu, &cu, NULL, NULL, &cudie, NULL))
		collect_variables(o, &cudie, bias, &cap, 0);
	if (o->nvars)
		qsort(o->vars, o->nvars, sizeof(*o->vars), variable_order);
}

/* symbol_rank - which of two data symbols at one address names it: a sized one, then a global, a weak, a local */
static int symbol_rank(const struct data_symbol *d)
{
	return (d->size ? 4 : 0) + (d->binding == STB_GLOBAL ? 2 : d->binding == STB_WEAK ? 1 : 0);
}

/*
 * data_symbol_at - @o's data symbol that @at lies in: of those starting
 * nearest below it, the best ranked whose size reaches it (a sizeless one
 * only at its start)
 */
static const struct data_symbol *data_symbol_at(const struct object *o, Dwarf_Addr at)
{
	const struct data_symbol *best = NULL;
	size_t lo = 0, hi = o->ndata_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->data_syms[mid].addr <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && o->data_syms[i].addr == o->data_syms[lo - 1].addr;) {
		const struct data_symbol *d = &o->data_syms[i];

		if (d->size ? at - d->addr >= d->size : at != d->addr)
			continue;
		/* walking back, the first of equals in name order wins */
		if (!best || symbol_rank(d) >= symbol_rank(best))
			best = d;
	}
	return best;
}

/* variable_at - @o's DWARF variable at @addr, NULL for none */
static const struct dwarf_variable *variable_at(const struct object *o, Dwarf_Addr addr)
{
	size_t lo = 0, hi = o->nvars;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->vars[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->nvars && o->vars[lo].addr == addr ? &o->vars[lo] : NULL;
}

/* type_of - the type DIE of @die (a variable's, a member's, an array's elements') */
static bool type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, type);
}

/* member_offset - where member (or base class) @member starts in its structure */
static bool member_offset(Dwarf_Die *member, Dwarf_Word *offset)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr(member, DW_AT_data_member_location, &attr))
		return false;
	if (!dwarf_formudata(&attr, offset))
		return true;
	/* DWARF 2 wrote it as an expression: DW_OP_plus_uconst N */
	if (dwarf_getlocation(&attr, &ops, &n) || n != 1 || ops[0].atom != DW_OP_plus_uconst)
		return false;
	*offset = ops[0].number;
	return true;
}

/*
 * member_at - the member of structure @type that @offset lies in, and
 * @offset made relative to it. Bit-fields are passed over: a byte of
 * theirs does not say which one it is.
 */
static bool member_at(Dwarf_Die *type, Dwarf_Word *offset, Dwarf_Die *member, Dwarf_Die *member_type)
{
	Dwarf_Die child;

	if (dwarf_child(type, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Word at, size;

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) || dwarf_hasattr(&child, DW_AT_bit_size) ||
		    !member_offset(&child, &at) || !type_of(&child, member_type) ||
		    dwarf_aggregate_size(member_type, &size) || *offset < at || *offset - at >= size)
			continue;
		*member = child;
		*offset -= at;
		return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

/* subrange_count - the number of elements of an array's dimension @subrange, 0 when DWARF does not say */
static Dwarf_Word subrange_count(Dwarf_Die *subrange)
{
	Dwarf_Attribute attr;
	Dwarf_Word count, upper, lower = 0;

	if (dwarf_attr(subrange, DW_AT_count, &attr))
		return dwarf_formudata(&attr, &count) ? 0 : count;
	if (!dwarf_attr(subrange, DW_AT_upper_bound, &attr) || dwarf_formudata(&attr, &upper))
		return 0;
	if (dwarf_attr(subrange, DW_AT_lower_bound, &attr) && dwarf_formudata(&attr, &lower))
		return 0;
	return upper >= lower ? upper - lower + 1 : 0;
}

/*
 * element_at - the element of array @type that @offset lies in, its
 * indexes appended to @what and @offset made relative to it; every
 * dimension's size but the first must be known
 */
static bool element_at(Dwarf_Die *type, Dwarf_Word *offset, Dwarf_Die *element, char *what, size_t size)
{
	Dwarf_Word count[8], index[8], stride, element_size;
	Dwarf_Die child;
	int dims = 0;

	if (!type_of(type, element) || dwarf_aggregate_size(element, &element_size) || !element_size ||
	    dwarf_child(type, &child))
		return false;
	do {
		if (dwarf_tag(&child) != DW_TAG_subrange_type)
			continue;
		if (dims == 8)
			return false;
		count[dims++] = subrange_count(&child);
	} while (!dwarf_siblingof(&child, &child));
	if (!dims)
		return false;
	/* a step of one dimension's index is a whole array of the dimensions after it */
	stride = element_size;
	for (int i = dims - 1; i > 0; i--) {
		if (!count[i])
			return false;
		stride *= count[i];
	}
	for (int i = 0; i < dims; i++) {
		index[i] = *offset / stride;
		if (count[i] && index[i] >= count[i])
			return false;
		*offset -= index[i] * stride;
		if (i + 1 < dims)
			stride /= count[i + 1];
	}
	for (int i = 0; i < dims; i++)
		append(what, size, "[%" PRIu64 "]", (uint64_t)index[i]);
	return true;
}

/*
 * member_path - append to @what the path to the byte @offset into a
 * variable of @type: ".lock", "[3].head", and "+0x4" for what is left past
 * the innermost member. Down through structures and classes (a base
 * class adding no name, as C++ reads its members) and arrays, as far as
 * DWARF says; not into a union, whose members all overlap, DWARF not
 * saying which one is in use. glibc keeps pthread_mutex_t, pthread_cond_t,
 * sem_t and the other types a futex word sits in as unions, to hide their
 * insides: so a mutex is named as the member it is ("queue.lock", the
 * futex word its first one) rather than by glibc's fields
 * ("queue.lock.__data.__lock"), which change between its versions.
 */
static void member_path(Dwarf_Die *type, Dwarf_Word offset, char *what, size_t size)
{
	Dwarf_Die t = *type, member, next;

	/* no type holds itself, but a damaged DWARF could say one does */
	for (int depth = 0; depth < 32 && dwarf_peel_type(&t, &t) == 0; depth++) {
		int tag = dwarf_tag(&t);

		if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
			if (!member_at(&t, &offset, &member, &next))
				break;
			if (dwarf_tag(&member) == DW_TAG_member && dwarf_diename(&member))
				append(what, size, ".%s", dwarf_diename(&member));
		} else if (tag != DW_TAG_array_type || !element_at(&t, &offset, &next, what, size)) {
			break;
		}
		t = next;
	}
	if (offset)
		append(what, size, "+0x%" PRIx64, (uint64_t)offset);
}

/*
 * name_global - name module address @at of object @o into @what: the data
 * symbol it lies in, and the member path inside it where DWARF has the
 * variable, else the offset into it; "" for none
 */
static void name_global(struct object *o, Dwarf_Addr at, char *what, size_t size)
{
	const struct data_symbol *sym;
	const struct dwarf_variable *var;
	Dwarf_Die die, type;

	read_data_tables(o);
	sym = data_symbol_at(o, at);
	if (!sym)
		return;
	symbolizer__demangle(sym->name, what, size);
	var = variable_at(o, sym->addr);
	if (var) {
		die = var->die;
		if (type_of(&die, &type)) {
			member_path(&type, at - sym->addr, what, size);
			return;
		}
	}
	if (at != sym->addr)
		append(what, size, "+0x%" PRIx64, (uint64_t)(at - sym->addr));
}

/*
 * object_data - name @addr as data of the object that file mapping @file
 * maps: in @file itself, or (@beyond) in the anonymous mapping right after
 * it, which holds the rest of its .bss as far as its last segment reaches
 * in memory. False when @beyond and the object's segments do not reach.
 */
static bool object_data(struct symbolizer *s, const struct mapping *file, uint64_t addr, bool beyond,
			struct data_name *out)
{
	uint64_t file_offset = addr - file->start + file->offset;
	struct object *o = object_of(s, file->path);
	bool in_module;
	Dwarf_Addr at;

	in_module = o && o->dwfl && module_address(o, file_offset, &at);
	if (beyond && !in_module)
		return false;
	snprintf(out->object, sizeof(out->object), "%s", file->path);
	out->object_offset = file_offset;
	if (in_module)
		name_global(o, at, out->what, sizeof(out->what));
	return true;
}

/*
 * bss_before - the file mapping right before @m in @p that is the last of
 * its object's, for an anonymous mapping that may be that object's .bss;
 * NULL for none
 */
static const struct mapping *bss_before(const struct process *p, const struct mapping *m)
{
	const struct mapping *file = m > p->maps ? m - 1 : NULL;

	if (!file || file->kind != MAPPING_FILE || file->end != m->start)
		return NULL;
	for (const struct mapping *later = m + 1; later < p->maps + p->n; later++)
		if (later->kind == MAPPING_FILE && !strcmp(later->path, file->path))
			return NULL;
	return file;
}

bool symbolizer__data(struct symbolizer *s, pid_t pid, uint64_t addr, struct data_name *out)
{
	const struct process *p = process_of(s, pid);
	const struct mapping *m = mapping_at(p, addr), *file;

	memset(out, 0, sizeof(*out));
	if (!m)
		return false;
	if (m->kind == MAPPING_FILE)
		return object_data(s, m, addr, false, out);
	/* without address randomization the brk area may start right after .bss, and [heap] take it in */
	file = m->kind == MAPPING_ANONYMOUS || m->kind == MAPPING_HEAP ? bss_before(p, m) : NULL;
	if (file && object_data(s, file, addr, true, out))
		return true;
	if (m->stack_of)
		snprintf(out->what, sizeof(out->what), "stack of thread %d", (int)m->stack_of);
	else if (m->kind == MAPPING_HEAP)
		snprintf(out->what, sizeof(out->what), "heap");
	else if (m->kind == MAPPING_ANONYMOUS)
		snprintf(out->what, sizeof(out->what), "anonymous memory");
	else
		snprintf(out->what, sizeof(out->what), "%s", m->path);
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
