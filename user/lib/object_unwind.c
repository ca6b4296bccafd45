// SPDX-License-Identifier: GPL-2.0
/*
 * object_unwind.c - a copy of the top of a user stack unwound by the call
 * frame information of the objects its process maps, in the child
 * (object_names.h, OBJECT_NAMES_UNWIND).
 *
 * libdwfl's unwinder does it, as perf's --call-graph dwarf has it do: the
 * objects are reported where the process maps them, the thread's state is
 * the registers the copy came with, and the only memory it reads is the
 * copy. Each frame's caller comes from .eh_frame (every x86-64 object a C
 * or C++ compiler made has it, stripped or not), and from the frame
 * pointer where an address has none. An object without .eh_frame (a Go
 * binary) is not reported: its frames are left to the walk by frame
 * pointers. An unwinding ends where the copy ends, where a frame's rule
 * reads outside it or its pc lies in no module, or at a return address the
 * CFI leaves undefined (a thread's start), with the frames found so far.
 *
 * A process's modules are reported once and kept, for as long as the next
 * requests name the same objects at the same places (UNWIND_CACHED
 * processes at once): what takes the time is reading an object's CFI, once
 * per Dwfl. A module's ELF is its object's own, the one the names are read
 * from, shared (libelf counts its users): no file is opened again, and the
 * child holds no descriptor more.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "hash.h"
#include "object_names.h"
#include "object_names_internal.h"

/* the processes whose modules are kept, by their objects' places */
#define UNWIND_CACHED	8
/* the thread an unwinding's Dwfl holds: there is one, and its number is no one's */
#define UNWIND_TID	1
/* the page its objects' segments are mapped in */
#define UNWIND_PAGE	4096ull

/* one process's modules, and the request being unwound in them */
struct unwinding {
	Dwfl *dwfl;		/* NULL: an empty slot */
	uint64_t key;
	struct object_names_placed *objects;
	uint32_t nobjects;
	const struct object_names_unwind *req;
	struct object_names_frames *out;
	uint64_t read_end;	/* past the highest word read of the copy */
	bool read_outside;	/* a rule read past the copy: the stack went on */
};

struct unwind_cache {
	struct unwinding slots[UNWIND_CACHED];
	unsigned int next;	/* the slot taken next, round and round */
};

static void unwinding_clear(struct unwinding *u)
{
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u->objects);
	memset(u, 0, sizeof(*u));
}

void object_unwind__free(struct unwind_cache *cache)
{
	if (!cache)
		return;
	for (int i = 0; i < UNWIND_CACHED; i++)
		unwinding_clear(&cache->slots[i]);
	free(cache);
}

/* ---- libdwfl's callbacks: no file is looked for, and the thread is the request's ---- */

/* object_elf - the ELF of the module's object (its user data), shared with the object's own module */
static int object_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base, char **file_name,
		      Elf **elfp)
{
	struct object *o = *userdata;
	Dwarf_Addr unused;
	Elf *elf = o ? dwfl_module_getelf(o->mod, &unused) : NULL;

	(void)mod, (void)name, (void)base, (void)file_name;
	/* with a descriptor of -1 and an ELF that is no archive, libelf hands back that one, counted once more */
	*elfp = elf ? elf_begin(-1, ELF_C_READ_MMAP, elf) : NULL;
	return -1;
}

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)name, (void)base, (void)file_name, (void)debuglink_file;
	(void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks module_callbacks = {
	.find_elf = object_elf,
	.find_debuginfo = no_debuginfo,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return UNWIND_TID;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	*thread_argp = arg;
	return tid == UNWIND_TID;
}

/* memory_read - the word at @addr, from the copy: nothing else of the process is there to read */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinding *u = arg;
	const struct object_names_unwind *req = u->req;

	(void)dwfl;
	if (addr < req->sp || req->len < sizeof(*result) || addr - req->sp > req->len - sizeof(*result)) {
		u->read_outside = true;
		return false;
	}
	memcpy(result, req->stack + (addr - req->sp), sizeof(*result));
	if (addr + sizeof(*result) > u->read_end)
		u->read_end = addr + sizeof(*result);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct unwinding *u = arg;
	Dwarf_Word regs[OBJECT_UNWIND_REGS];

	for (int i = 0; i < OBJECT_UNWIND_REGS; i++)
		regs[i] = u->req->regs[i];
	return dwfl_thread_state_registers(thread, 0, OBJECT_UNWIND_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- a process's modules ---- */

/*
 * module_range - where object @o lies in its process, placed by @p, into
 * [*@start, *@end): from its first loadable segment's start, page
 * aligned as libdwfl aligns it, to its last one's end. The loadable
 * segment @p maps says at which virtual address its bytes are, and so the
 * bias of them all: the one whose first page is the mapping's, as the
 * loader maps each segment from its first page (two segments can share a
 * page of the file, the last of one and the first of the next, where the
 * linker packs them: lld's, rustc's); else one whose pages hold it (a
 * maps line that joined two). False when none does.
 */
static bool module_range(struct object *o, const struct object_names_placed *p, uint64_t *start, uint64_t *end)
{
	Dwarf_Addr unused;
	Elf *elf = dwfl_module_getelf(o->mod, &unused);
	uint64_t lo = UINT64_MAX, hi = 0, bias = 0;
	bool placed = false, first_page = false;
	size_t n = 0;
	GElf_Phdr ph;

	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t page_offset, page_vaddr;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (lo == UINT64_MAX)
			lo = ph.p_align > 1 ? ph.p_vaddr & -ph.p_align : ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
		page_offset = ph.p_offset & ~(UNWIND_PAGE - 1);
		page_vaddr = ph.p_vaddr & ~(UNWIND_PAGE - 1);
		if (first_page || p->offset < page_offset ||
		    p->offset - page_offset >= ph.p_offset - page_offset + ph.p_filesz ||
		    (placed && p->offset != page_offset))
			continue;
		bias = p->start - (page_vaddr + (p->offset - page_offset));
		placed = true;
		first_page = p->offset == page_offset;
	}
	if (!placed || hi <= lo)
		return false;
	*start = lo + bias;
	*end = hi + bias;
	return true;
}

/*
 * has_eh_frame - does @o carry .eh_frame, the CFI that code built to be
 * unwound (exceptions, backtraces) keeps loaded? Go's linker writes none,
 * only .debug_frame, whose rules for its runtime end an unwinding where
 * it switches stacks; Go keeps frame pointers, and the walk by them is
 * the better there.
 */
static bool has_eh_frame(struct object *o)
{
	Dwarf_Addr unused;
	Elf *elf = dwfl_module_getelf(o->mod, &unused);
	Elf_Scn *scn = NULL;
	size_t strndx;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &strndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, strndx, sh.sh_name) : NULL;

		if (name && !strcmp(name, ".eh_frame") && sh.sh_size && sh.sh_type == SHT_PROGBITS)
			return true;
	}
	return false;
}

/* report - the modules of @req's @objects, in a Dwfl of their own, attached to the copy's thread: 0 or -errno */
static int report(struct unwinding *u, const struct object_names_unwind *req, struct object *const *objects)
{
	u->dwfl = dwfl_begin(&module_callbacks);
	if (!u->dwfl)
		return -ENOMEM;
	dwfl_report_begin(u->dwfl);
	for (uint32_t i = 0; i < req->nobjects; i++) {
		struct object *o = objects[i];
		uint64_t start, end;
		Dwfl_Module *mod;
		void **userdata = NULL;

		/* one without .eh_frame is left to the walk; one that overlaps another is not made */
		if (!o || !has_eh_frame(o) || !module_range(o, &req->objects[i], &start, &end) ||
		    !(mod = dwfl_report_module(u->dwfl, o->path, start, end)))
			continue;
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		if (userdata)
			*userdata = o;
	}
	dwfl_report_end(u->dwfl, NULL, NULL);
	if (!dwfl_attach_state(u->dwfl, NULL, UNWIND_TID, &thread_callbacks, u))
		return -ENOEXEC;
	u->objects = malloc(req->nobjects * sizeof(*u->objects) + 1);
	if (!u->objects)
		return -ENOMEM;
	memcpy(u->objects, req->objects, req->nobjects * sizeof(*u->objects));
	u->nobjects = req->nobjects;
	return 0;
}

/* unwinding_for - the modules of @req's process, kept or reported now: NULL when they cannot be */
static struct unwinding *unwinding_for(struct unwind_cache *cache, const struct object_names_unwind *req,
				       struct object *const *objects)
{
	uint64_t key = hash__fnv1a(HASH_FNV_BASIS, req->objects, req->nobjects * sizeof(req->objects[0]));
	struct unwinding *u;

	for (int i = 0; i < UNWIND_CACHED; i++) {
		u = &cache->slots[i];
		if (u->dwfl && u->key == key && u->nobjects == req->nobjects &&
		    !memcmp(u->objects, req->objects, req->nobjects * sizeof(req->objects[0])))
			return u;
	}
	u = &cache->slots[cache->next];
	cache->next = (cache->next + 1) % UNWIND_CACHED;
	unwinding_clear(u);
	if (report(u, req, objects)) {
		unwinding_clear(u);
		return NULL;
	}
	u->key = key;
	return u;
}

/* take_frame - one frame more, innermost first: its pc (the return address, past the first) */
static int take_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinding *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	u->out->pc[u->out->n++] = pc;
	return u->out->n < OBJECT_UNWIND_FRAMES ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int object_unwind__serve(struct unwind_cache **cache, const struct object_names_unwind *req,
			 struct object *const *objects, struct object_names_frames *out)
{
	struct unwinding *u;

	if (req->nobjects > OBJECT_UNWIND_OBJECTS || req->len > OBJECT_UNWIND_STACK)
		return -EINVAL;
	if (!*cache && !(*cache = calloc(1, sizeof(**cache))))
		return -ENOMEM;
	u = unwinding_for(*cache, req, objects);
	if (!u) {
		/* no module to unwind by: the registers' pc alone */
		out->pc[out->n++] = req->regs[OBJECT_UNWIND_PC];
		return 0;
	}
	u->req = req;
	u->out = out;
	u->read_end = 0;
	u->read_outside = false;
	/*
	 * It ends with an error where the frames end short (no CFI, a read
	 * past the copy): what came before is the stack. 0 is the thread's
	 * start, its return address undefined.
	 */
	if (!dwfl_getthread_frames(u->dwfl, UNWIND_TID, take_frame, u) && !u->read_outside) {
		out->whole = 1;
		out->top = u->read_end;
	}
	if (!out->n)
		out->pc[out->n++] = req->regs[OBJECT_UNWIND_PC];
	u->req = NULL;
	u->out = NULL;
	return 0;
}
