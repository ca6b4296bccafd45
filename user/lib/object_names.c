// SPDX-License-Identifier: GPL-2.0
/* object_names.c - addresses in mapped objects named from their ELF and DWARF, in the child (object_names.h) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <zlib.h>
#include "demangle.h"
#include "object_names.h"
#include "object_names_internal.h"

struct object_names {
	struct object_names_opts opts;
	/*
	 * by the asker's number, NULL for one not added: each its own
	 * allocation, which stays where it is while the table grows, as an
	 * object read is its module's user data, which libdwfl hands its
	 * debug file lookups for as long as the module lives
	 */
	struct object **objs;
	size_t nobjs;
	struct unwind_cache *unwind;	/* the processes unwound last (object_unwind.c) */
};

struct object_names *object_names__new(const struct object_names_opts *opts)
{
	struct object_names *on = calloc(1, sizeof(*on));

	if (on && opts)
		on->opts = *opts;
	return on;
}

static void object_clear(struct object *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->dwfl)
		dwfl_end(o->dwfl);
	free(o->path);
	free(o->debug_path);
	free(o->dwz_name);
	free(o->data_syms);
	free(o->vars);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

void object_names__free(struct object_names *on)
{
	if (!on)
		return;
	object_unwind__free(on->unwind);
	for (size_t i = 0; i < on->nobjs; i++) {
		if (!on->objs[i])
			continue;
		object_clear(on->objs[i]);
		free(on->objs[i]);
	}
	free(on->objs);
	free(on);
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

/* ---- an object read ---- */

/*
 * object_read - @o read from the descriptor it came with, once: libdwfl
 * takes the descriptor (dwfl_report_offline() consumes it when it
 * succeeds), and the module's user data is @o, which the debug file
 * lookups are handed
 */
static bool object_read(struct object *o)
{
	void **userdata = NULL;

	if (o->read)
		return o->dwfl != NULL;
	o->read = true;
	o->dwfl = dwfl_begin(&object_debug__callbacks);
	if (!o->dwfl)
		return false;
	o->mod = dwfl_report_offline(o->dwfl, o->path, o->path, o->fd);
	dwfl_report_end(o->dwfl, NULL, NULL);
	if (!o->mod) {
		dwfl_end(o->dwfl);
		o->dwfl = NULL;
		return false;
	}
	/* libdwfl has it now, and closes it once it has read the file in */
	o->fd = -1;
	dwfl_module_info(o->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (userdata)
		*userdata = o;
	return true;
}

/*
 * object_dwarf - @o's DWARF and its bias, NULL without, or where using it
 * would have libdw open files by the names it holds: a dwz file not found
 * under DEBUG_DIR (libdw's dwarf_getalt() would try the name the link
 * gives), or split DWARF's skeleton units, whose .dwo files libdw looks
 * for by DW_AT_dwo_name. Decided once.
 */
static Dwarf *object_dwarf(struct object *o, Dwarf_Addr *bias)
{
	Dwarf *dwarf = dwfl_module_getdwarf(o->mod, bias);
	const void *id;
	const char *name;

	if (!dwarf || o->dwarf_checked)
		return o->dwarf_usable ? dwarf : NULL;
	o->dwarf_checked = true;
	o->dwarf_usable = dwelf_dwarf_gnu_debugaltlink(dwarf, &name, &id) <= 0 || o->dwz_found;
	for (Dwarf_CU *cu = NULL; o->dwarf_usable;) {
		uint8_t unit_type;
		Dwarf_Half version;

		if (dwarf_get_units(dwarf, cu, &cu, &version, &unit_type, NULL, NULL))
			break;
		if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile || unit_type == DW_UT_split_type)
			o->dwarf_usable = false;
	}
	return o->dwarf_usable ? dwarf : NULL;
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

/*
 * object_build_id - @o's GNU build ID into @out: libdwfl read its note
 * when the object was reported, and keeps it (dwfl_module_build_id()),
 * so that each answer carries it at no cost
 */
static void object_build_id(struct object *o, struct object_names_code *out)
{
	const unsigned char *bits = NULL;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(o->mod, &bits, &vaddr);

	if (len <= 0 || (size_t)len > sizeof(out->build_id))
		return;
	memcpy(out->build_id, bits, (size_t)len);
	out->build_id_len = (uint32_t)len;
}

/* name_code - the function and line of the byte at @file_offset of @o, and @o's build ID */
static void name_code(struct object *o, uint64_t file_offset, struct object_names_code *out)
{
	Dwarf_Addr at, bias;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name, *src;
	Dwfl_Line *line;
	int lineno = 0;

	if (!object_read(o))
		return;
	object_build_id(o, out);
	if (!module_address(o, file_offset, &at))
		return;
	name = dwfl_module_addrinfo(o->mod, at, &off, &sym, NULL, NULL, NULL);
	if (name) {
		demangle__name(name, out->function, sizeof(out->function));
		out->function_offset = off;
	}
	if (!object_dwarf(o, &bias))
		return;
	line = dwfl_module_getsrc(o->mod, at);
	src = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (src) {
		snprintf(out->file, sizeof(out->file), "%s", src);
		out->line = lineno;
	}
}

/* ---- data: the global, and the member of it ---- */

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
 * next_sibling - the DIE after @die at its level into @die: false at the
 * list's end, and where DWARF says a sibling lies at or before @die (a
 * DW_AT_sibling pointing back, which libdw follows), which would make a
 * walk go round for ever
 */
static bool next_sibling(Dwarf_Die *die)
{
	Dwarf_Off at = dwarf_dieoffset(die);
	Dwarf_Die next;

	if (dwarf_siblingof(die, &next) || dwarf_dieoffset(&next) <= at)
		return false;
	*die = next;
	return true;
}

/*
 * collect_variables - the variables at fixed addresses under DWARF DIE
 * @parent: globals, and statics inside functions and namespaces. *@budget
 * DIEs at most, all levels together.
 */
static void collect_variables(struct object *o, Dwarf_Die *parent, Dwarf_Addr bias, size_t *cap, int depth,
			      size_t *budget)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child))
		return;
	do {
		struct dwarf_variable *more;
		Dwarf_Attribute attr;
		Dwarf_Op *ops;
		size_t nops;

		if (!*budget)
			return;
		--*budget;
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
			collect_variables(o, &child, bias, cap, depth + 1, budget);
			break;
		}
	} while (next_sibling(&child));
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
	size_t cap = 0, budget = 64 * (size_t)DIES_MAX;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Addr bias;
	Dwarf *dwarf;

	if (o->data_read)
		return;
	o->data_read = true;
	read_data_symbols(o);
	dwarf = object_dwarf(o, &bias);
	if (!dwarf)
		return;
	while (budget && !dwarf_get_units(dwarf, cu, &cu, NULL, NULL, &cudie, NULL))
		collect_variables(o, &cudie, bias, &cap, 0, &budget);
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
	size_t budget = DIES_MAX;
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
	} while (--budget && next_sibling(&child));
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
	/* a count of 2^64 is no count */
	return upper >= lower && upper - lower < UINT64_MAX ? upper - lower + 1 : 0;
}

bool object_names__array_element(const uint64_t *count, int dims, uint64_t element_size, uint64_t *offset,
				 uint64_t *index)
{
	uint64_t stride = element_size;

	if (dims <= 0 || !element_size)
		return false;
	/*
	 * a step of one dimension's index is a whole array of the dimensions
	 * after it: their product, which must be known and fit, so that no
	 * stride is 0 and none is wrapped
	 */
	for (int i = dims - 1; i > 0; i--)
		if (!count[i] || __builtin_mul_overflow(stride, count[i], &stride))
			return false;
	for (int i = 0; i < dims; i++) {
		index[i] = *offset / stride;
		if (count[i] && index[i] >= count[i])
			return false;
		/* index * stride is at most the offset: no wrap */
		*offset -= index[i] * stride;
		/* the stride was a product with count[i + 1] in it: exact */
		if (i + 1 < dims)
			stride /= count[i + 1];
	}
	return true;
}

/*
 * element_at - the element of array @type that @offset lies in, its
 * indexes appended to @what and @offset made relative to it; every
 * dimension's size but the first must be known
 */
static bool element_at(Dwarf_Die *type, Dwarf_Word *offset, Dwarf_Die *element, char *what, size_t size)
{
	uint64_t count[8], index[8];
	Dwarf_Word element_size;
	size_t budget = DIES_MAX;
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
	} while (--budget && next_sibling(&child));
	if (!object_names__array_element(count, dims, element_size, offset, index))
		return false;
	for (int i = 0; i < dims; i++)
		append(what, size, "[%" PRIu64 "]", index[i]);
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
 * name_data - name the byte at @file_offset of @o: whether a loadable
 * segment holds it, and the data symbol it lies in with the member path
 * inside it where DWARF has the variable, else the offset into it
 */
static void name_data(struct object *o, uint64_t file_offset, struct object_names_data *out)
{
	const struct data_symbol *sym;
	const struct dwarf_variable *var;
	Dwarf_Die die, type;
	Dwarf_Addr at;

	if (!object_read(o) || !module_address(o, file_offset, &at))
		return;
	out->in_module = 1;
	read_data_tables(o);
	sym = data_symbol_at(o, at);
	if (!sym)
		return;
	demangle__name(sym->name, out->what, sizeof(out->what));
	var = variable_at(o, sym->addr);
	if (var) {
		die = var->die;
		if (type_of(&die, &type)) {
			member_path(&type, at - sym->addr, out->what, sizeof(out->what));
			return;
		}
	}
	if (at != sym->addr)
		append(out->what, sizeof(out->what), "+0x%" PRIx64, (uint64_t)(at - sym->addr));
}

/* ---- requests ---- */

/* add - object @req->object is the file at @fd */
static int add(struct object_names *on, const struct object_names_add *req, int fd)
{
	struct object **grown, *o;

	/* the asker numbers its objects from 0, one at a time: a number far ahead is no object of its */
	if (fd < 0 || req->object > on->nobjs + 1024 || memchr(req->path, '\0', sizeof(req->path)) == NULL)
		return -EINVAL;
	if (req->object >= on->nobjs) {
		grown = realloc(on->objs, (req->object + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		on->objs = grown;
		for (size_t i = on->nobjs; i <= req->object; i++)
			on->objs[i] = NULL;
		on->nobjs = req->object + 1;
	}
	if (!on->objs[req->object]) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return -ENOMEM;
		o->fd = -1;
		on->objs[req->object] = o;
	}
	/*
	 * the unwindings kept may hold the object this number named before, or
	 * have gone without it: let go of them before it is cleared
	 */
	object_unwind__free(on->unwind);
	on->unwind = NULL;
	o = on->objs[req->object];
	object_clear(o);
	o->path = strdup(req->path);
	if (!o->path)
		return -ENOMEM;
	o->fd = fd;
	o->debuginfod = on->opts.debuginfod;
	return 0;
}

/* unwind - @req's objects read, and its copy unwound by them into @out (object_unwind.c) */
static int unwind(struct object_names *on, const struct object_names_unwind *req, struct object_names_frames *out)
{
	struct object *objects[OBJECT_UNWIND_OBJECTS];

	if (req->nobjects > OBJECT_UNWIND_OBJECTS)
		return -EINVAL;
	for (uint32_t i = 0; i < req->nobjects; i++) {
		uint32_t id = req->objects[i].object;
		struct object *o = id < on->nobjs ? on->objs[id] : NULL;

		objects[i] = o && o->path && object_read(o) ? o : NULL;
	}
	return object_unwind__serve(&on->unwind, req, objects, out);
}

/* object_asked - the object a name request is about, NULL when it was not added */
static struct object *object_asked(struct object_names *on, const struct object_names_ask *req)
{
	struct object *o = req->object < on->nobjs ? on->objs[req->object] : NULL;

	return o && o->path ? o : NULL;
}

int object_names__serve(void *ctx, const void *request, size_t len, int fd, void *answer, size_t room)
{
	struct object_names *on = ctx;
	const struct object_names_ask *ask = request;
	int err = -EINVAL;
	struct object *o;
	uint32_t kind;

	if (len < sizeof(kind))
		goto refuse;
	memcpy(&kind, request, sizeof(kind));
	switch (kind) {
	case OBJECT_NAMES_ADD:
		if (len != sizeof(struct object_names_add))
			goto refuse;
		err = add(on, request, fd);
		if (err)
			goto refuse;
		return 0;
	case OBJECT_NAMES_CODE:
		if (len != sizeof(*ask) || fd >= 0 || room < sizeof(struct object_names_code))
			goto refuse;
		o = object_asked(on, ask);
		if (!o) {
			err = -ENOENT;
			goto refuse;
		}
		memset(answer, 0, sizeof(struct object_names_code));
		name_code(o, ask->file_offset, answer);
		return sizeof(struct object_names_code);
	case OBJECT_NAMES_DATA:
		if (len != sizeof(*ask) || fd >= 0 || room < sizeof(struct object_names_data))
			goto refuse;
		o = object_asked(on, ask);
		if (!o) {
			err = -ENOENT;
			goto refuse;
		}
		memset(answer, 0, sizeof(struct object_names_data));
		name_data(o, ask->file_offset, answer);
		return sizeof(struct object_names_data);
	case OBJECT_NAMES_UNWIND:
		if (len != sizeof(struct object_names_unwind) || fd >= 0 || room < sizeof(struct object_names_frames))
			goto refuse;
		memset(answer, 0, sizeof(struct object_names_frames));
		err = unwind(on, request, answer);
		if (err)
			goto refuse;
		return sizeof(struct object_names_frames);
	}
refuse:
	if (fd >= 0)
		close(fd);
	return err;
}
