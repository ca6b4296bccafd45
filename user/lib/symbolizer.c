// SPDX-License-Identifier: GPL-2.0
/*
 * symbolizer.c - code and data addresses named from a process's objects
 * and mappings, and code addresses from the kernel's symbols
 * (symbolizer.h). This side, root's, keeps the mappings and opens the
 * files; the child (sandbox.c) reads them (object_names.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "demangle.h"
#include "mapped_file.h"
#include "object_names.h"
#include "proc_maps.h"
#include "sandbox.h"
#include "symbolizer.h"

/* where the child keeps what debuginfod fetched, when DEBUGINFOD_CACHE_PATH does not say */
#define DEBUGINFOD_CACHE "/var/cache/wakeprobe/debuginfod"
/* times an object that could not be opened is tried again, from other mappings of it */
#define PIN_TRIES 3

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
	bool exec;		/* mapped executable: code, which a stack's frames are in */
	char *path;		/* the file, or the kernel's name for the mapping, whole; NULL for anonymous memory */
	int object;		/* a file mapping's object in symbolizer.objs, -1 for none */
};

struct process {
	pid_t pid;
	struct mapping *maps;
	size_t n;
	bool from_text;		/* symbolizer__snapshot_from()'s: no process to open its files through */
};

/* an object: a file that mappings hold, the same for every process that maps it */
struct object {
	unsigned int dev_major, dev_minor;
	uint64_t inode;
	char *path;		/* the path it was first seen by: where its debug link points under /usr/lib/debug */
	int pinned;		/* an O_PATH descriptor of it (mapped_file.h), -1 while none */
	int pin_tries;
	const char *why;	/* why it says nothing: NULL while it may */
	unsigned int sent;	/* the child's generation it was handed to, 0 for none */
	uint64_t spent_ms;	/* the child's time on it */
	char build_id[2 * OBJECT_NAMES_BUILD_ID_MAX + 1];	/* in hex, from the child's first answer */
};

/* a symbol's build ID is an object's, in hex */
_Static_assert(sizeof(((struct symbol *)0)->build_id) == 2 * OBJECT_NAMES_BUILD_ID_MAX + 1, "symbol.build_id");

/* a name asked of the child and answered, kept: the same frame is in many stacks */
struct cached_name {
	uint32_t object;	/* UINT32_MAX: an empty slot */
	uint32_t kind;		/* OBJECT_NAMES_CODE or OBJECT_NAMES_DATA */
	uint64_t file_offset;
	char *text;		/* the function, or the global and member */
	char *file;
	uint64_t function_offset;
	int32_t line;
	bool in_module;
};

struct kernel_symbol {
	uint64_t addr;
	char name[128];
	char module[48];	/* "" for the kernel itself */
};

struct symbolizer {
	struct symbolizer_opts opts;
	struct process *procs;
	size_t nprocs;
	struct object *objs;
	size_t nobjs;
	size_t npinned, pin_limit;	/* descriptors held, and how many may be */
	struct mount_tables *mounts;
	struct sandbox *sandbox;
	struct object_names *names;	/* the child's, made in it */
	const char *why_all;		/* why no object says anything any more: NULL while they may */
	uint64_t spent_ms;		/* the child's time on every object */
	struct cached_name *cache;	/* open addressing, a power of two long */
	size_t cache_cap, cache_n;
	struct kernel_symbol *ksyms;
	size_t nksyms;
	struct object_names_unwind *unwind_req;	/* symbolizer__unwind()'s, made on its first */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the child: what it runs ---- */

/* child_init - in the child: its reader, and where debuginfod keeps its files */
static void child_init(void *ctx)
{
	struct symbolizer *s = ctx;
	struct object_names_opts opts = { .debuginfod = s->opts.debuginfod };

	if (opts.debuginfod && !getenv("DEBUGINFOD_CACHE_PATH"))
		setenv("DEBUGINFOD_CACHE_PATH", DEBUGINFOD_CACHE, 1);
	s->names = object_names__new(&opts);
}

static int child_serve(void *ctx, const void *request, size_t len, int fd, void *answer, size_t room)
{
	struct symbolizer *s = ctx;

	if (!s->names) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	return object_names__serve(s->names, request, len, fd, answer, room);
}

/*
 * debuginfod_cache - the directory the child keeps debuginfod's files in,
 * made for its uid when there is none: no other uid's. Only root's child
 * changes uid (sandbox.h), so only root makes it for another; a process of
 * any other user runs its child as itself, which makes the directory where
 * it may (a unit's CacheDirectory=wakeprobe gives it /var/cache/wakeprobe)
 */
static void debuginfod_cache(const struct sandbox *sb)
{
	uid_t uid;
	gid_t gid;

	if (getenv("DEBUGINFOD_CACHE_PATH") || geteuid())
		return;
	sandbox__child_ids(sb, &uid, &gid);
	mkdir("/var/cache/wakeprobe", 0755);
	if (!mkdir(DEBUGINFOD_CACHE, 0700) && chown(DEBUGINFOD_CACHE, uid, gid))
		rmdir(DEBUGINFOD_CACHE);
}

struct symbolizer *symbolizer__new_with(const struct symbolizer_opts *opts)
{
	struct symbolizer *s = calloc(1, sizeof(*s));
	const char *env = getenv("WAKEPROBE_DEBUGINFOD");
	struct rlimit files;
	struct sandbox_opts child = {
		.serve = child_serve,
		.child_init = child_init,
		.request_max = sizeof(struct object_names_unwind),
		.answer_max = sizeof(struct object_names_frames),
		.name = "wakeprobe-names",
	};

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	s->opts.debuginfod = s->opts.debuginfod || (env && !strcmp(env, "1"));
	if (!s->opts.object_ms)
		s->opts.object_ms = SYMBOLIZER_OBJECT_MS;
	if (!s->opts.run_ms)
		s->opts.run_ms = SYMBOLIZER_RUN_MS;
	/* half the descriptors a process may hold: the rest are the run's (its BPF side, its files) */
	s->pin_limit = getrlimit(RLIMIT_NOFILE, &files) ? 256 : files.rlim_cur / 2;
	child.ctx = s;
	child.may_write_files = s->opts.debuginfod;
	s->mounts = mount_tables__new();
	s->sandbox = sandbox__new(&child);
	if (!s->mounts || !s->sandbox) {
		symbolizer__free(s);
		return NULL;
	}
	if (s->opts.debuginfod)
		debuginfod_cache(s->sandbox);
	return s;
}

struct symbolizer *symbolizer__new(void)
{
	return symbolizer__new_with(NULL);
}

static void free_mappings(struct mapping *maps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(maps[i].path);
	free(maps);
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	sandbox__free(s->sandbox);
	for (size_t i = 0; i < s->nprocs; i++)
		free_mappings(s->procs[i].maps, s->procs[i].n);
	for (size_t i = 0; i < s->nobjs; i++) {
		if (s->objs[i].pinned >= 0)
			close(s->objs[i].pinned);
		free(s->objs[i].path);
	}
	for (size_t i = 0; i < s->cache_cap; i++) {
		free(s->cache[i].text);
		free(s->cache[i].file);
	}
	mount_tables__free(s->mounts);
	free(s->cache);
	free(s->procs);
	free(s->objs);
	free(s->ksyms);
	free(s->unwind_req);
	free(s);
}

void symbolizer__interrupt_on(struct symbolizer *s, const volatile sig_atomic_t *flag)
{
	sandbox__interrupt_on(s->sandbox, flag);
}

struct sandbox *symbolizer__sandbox(struct symbolizer *s)
{
	return s->sandbox;
}

/* ---- processes and their mappings ---- */

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

/* object_for - the object of the file @line maps, added when new: its index, -1 without memory */
static int object_for(struct symbolizer *s, const struct proc_maps_line *line)
{
	struct object *grown;

	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i].inode == line->inode && s->objs[i].dev_major == line->dev_major &&
		    s->objs[i].dev_minor == line->dev_minor)
			return (int)i;
	grown = realloc(s->objs, (s->nobjs + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->objs = grown;
	s->objs[s->nobjs] = (struct object){
		.dev_major = line->dev_major, .dev_minor = line->dev_minor, .inode = line->inode,
		.path = strdup(line->path), .pinned = -1,
	};
	if (!s->objs[s->nobjs].path)
		return -1;
	return (int)s->nobjs++;
}

/*
 * pin - object @o held open, through mapping @m of live process @pid, if
 * it is not yet: false, with o->why, when it cannot be, or may not
 * (no descriptor to spare: it is tried again when a name is asked of it)
 */
static bool pin(struct symbolizer *s, struct object *o, pid_t pid, const struct mapping *m)
{
	struct mapped_file f = {
		.pid = pid, .start = m->start, .end = m->end, .dev_major = o->dev_major, .dev_minor = o->dev_minor,
		.inode = o->inode, .path = m->path,
	};
	const char *why = "could not be opened";
	int fd;

	if (o->pinned >= 0)
		return true;
	if (o->pin_tries >= PIN_TRIES || s->npinned >= s->pin_limit)
		return false;
	o->pin_tries++;
	fd = mapped_file__pin(s->mounts, &f, &why);
	if (fd < 0) {
		o->why = why;
		return false;
	}
	o->pinned = fd;
	o->why = NULL;
	s->npinned++;
	return true;
}

/*
 * read_maps - the mappings in the text of maps file @maps, each line read
 * whole (getline(3)): a path is never cut, and no part of one reads as a
 * line of its own. The objects of file mappings are found or added.
 */
static int read_maps(struct symbolizer *s, pid_t pid, FILE *maps, struct mapping **out, size_t *nout)
{
	struct mapping *m = NULL, *more;
	size_t n = 0, cap = 0, room = 0;
	char *line = NULL;
	ssize_t len;
	int err = 0;

	while ((len = getline(&line, &room, maps)) > 0) {
		struct proc_maps_line parsed;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		/* a NUL inside the line is no kernel's: not a line to read */
		if (strlen(line) != (size_t)len || proc_maps__parse(line, &parsed))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			more = realloc(m, cap * sizeof(*m));
			if (!more) {
				err = -ENOMEM;
				break;
			}
			m = more;
		}
		m[n] = (struct mapping){ .start = parsed.start, .end = parsed.end, .offset = parsed.offset,
					 .kind = mapping_kind(parsed.path), .exec = parsed.perms[2] == 'x', .object = -1 };
		if (parsed.path[0] && !(m[n].path = strdup(parsed.path))) {
			err = -ENOMEM;
			break;
		}
		/* the main thread's stack is the one the kernel names (fs/proc/task_mmu.c) */
		if (m[n].kind == MAPPING_STACK)
			m[n].stack_of = pid;
		/* a file is known by its device and inode: the kernel's name of a pseudo-file has none */
		if (m[n].kind == MAPPING_FILE && parsed.inode)
			m[n].object = object_for(s, &parsed);
		n++;
	}
	free(line);
	if (err) {
		free_mappings(m, n);
		return err;
	}
	*out = m;
	*nout = n;
	return 0;
}

/* keep_mappings - @pid's mappings are @maps now, its former ones gone (an exec) */
static int keep_mappings(struct symbolizer *s, pid_t pid, struct mapping *maps, size_t n, bool from_text)
{
	struct process *p = process_of(s, pid), *grown;

	if (!p) {
		grown = realloc(s->procs, (s->nprocs + 1) * sizeof(*s->procs));
		if (!grown) {
			free_mappings(maps, n);
			return -ENOMEM;
		}
		s->procs = grown;
		p = &s->procs[s->nprocs++];
	} else {
		free_mappings(p->maps, p->n);
	}
	*p = (struct process){ pid, maps, n, from_text };
	return 0;
}

int symbolizer__snapshot_from(struct symbolizer *s, pid_t pid, FILE *maps)
{
	struct mapping *m;
	size_t n;
	int err = read_maps(s, pid, maps, &m, &n);

	return err ? err : keep_mappings(s, pid, m, n, true);
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
	struct mapping *m;
	char path[64];
	size_t n;
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = read_maps(s, pid, f, &m, &n);
	fclose(f);
	if (err)
		return err;
	/*
	 * A process on its way out has let its memory go before it is gone:
	 * its maps read empty. What was kept of it while it lived stays.
	 */
	if (!n) {
		free(m);
		return -ESRCH;
	}
	/* while the process lives: its files are the ones it maps now, whatever their paths name later */
	for (size_t i = 0; i < n; i++)
		if (m[i].object >= 0)
			pin(s, &s->objs[m[i].object], pid, &m[i]);
	err = keep_mappings(s, pid, m, n, false);
	if (!err)
		snapshot_thread_stacks(s, pid);
	return err;
}

/* ---- names asked of the child ---- */

/* cache_slot - where (@object, @kind, @file_offset) is kept in s->cache, or goes */
static struct cached_name *cache_slot(const struct symbolizer *s, uint32_t object, uint32_t kind, uint64_t file_offset)
{
	uint64_t h = (file_offset ^ ((uint64_t)object << 40) ^ ((uint64_t)kind << 62)) * 0x9e3779b97f4a7c15ULL;

	for (size_t i = (size_t)(h >> 20) & (s->cache_cap - 1);; i = (i + 1) & (s->cache_cap - 1)) {
		struct cached_name *c = &s->cache[i];

		if (c->object == UINT32_MAX || (c->object == object && c->kind == kind && c->file_offset == file_offset))
			return c;
	}
}

/* cache_grow - room for one name more, the table at most three quarters full: false without memory */
static bool cache_grow(struct symbolizer *s)
{
	struct cached_name *old = s->cache;
	size_t old_cap = s->cache_cap, cap = old_cap ? 2 * old_cap : 1024;

	if (4 * (s->cache_n + 1) <= 3 * old_cap)
		return true;
	s->cache = calloc(cap, sizeof(*s->cache));
	if (!s->cache) {
		s->cache = old;
		return false;
	}
	for (size_t i = 0; i < cap; i++)
		s->cache[i].object = UINT32_MAX;
	s->cache_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].object != UINT32_MAX)
			*cache_slot(s, old[i].object, old[i].kind, old[i].file_offset) = old[i];
	free(old);
	return true;
}

/* a name as the child gave it, or the cache kept it */
struct name {
	char text[200];		/* the function; or the global and member */
	char file[160];
	uint64_t function_offset;
	int32_t line;
	bool in_module;
};

/* remember - name @n of (@object, @kind, @file_offset) kept */
static void remember(struct symbolizer *s, uint32_t object, uint32_t kind, uint64_t file_offset, const struct name *n)
{
	struct cached_name *slot;

	if (!cache_grow(s))
		return;
	slot = cache_slot(s, object, kind, file_offset);
	*slot = (struct cached_name){
		.object = object, .kind = kind, .file_offset = file_offset,
		.text = n->text[0] ? strdup(n->text) : NULL, .file = n->file[0] ? strdup(n->file) : NULL,
		.function_offset = n->function_offset, .line = n->line, .in_module = n->in_module,
	};
	s->cache_n++;
}

/* recall - the name kept for (@object, @kind, @file_offset) into @n: false for none */
static bool recall(const struct symbolizer *s, uint32_t object, uint32_t kind, uint64_t file_offset, struct name *n)
{
	const struct cached_name *c = s->cache_cap ? cache_slot(s, object, kind, file_offset) : NULL;

	if (!c || c->object == UINT32_MAX)
		return false;
	snprintf(n->text, sizeof(n->text), "%s", c->text ? c->text : "");
	snprintf(n->file, sizeof(n->file), "%s", c->file ? c->file : "");
	n->function_offset = c->function_offset;
	n->line = c->line;
	n->in_module = c->in_module;
	return true;
}

/* why_failed - what a call's error says of the object it was on, or of them all (s->why_all) */
static const char *why_failed(struct symbolizer *s, struct object *o, int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return o->why = "the symbolizer took too long on it";
	case -ECHILD:
		return o->why = "the symbolizer crashed on it";
	case -EPROTO:
		return o->why = "the symbolizer's answer on it did not parse";
	case -EINTR:
		return s->why_all = "naming was stopped by a signal";
	case -EAGAIN:
		return s->why_all = "the symbolizer could not be started, or crashed too often";
	default:
		return o->why = "the symbolizer could not read it";
	}
}

/*
 * timed_call - @request asked of the child within @timeout_ms, the time
 * it took counted against @o and the run: sandbox__call()'s return
 */
static int timed_call(struct symbolizer *s, struct object *o, const void *request, size_t len, int fd, void *answer,
		      size_t room, uint64_t timeout_ms)
{
	uint64_t began = now_ms(), took;
	int n = sandbox__call(s->sandbox, request, len, fd, answer, room, (int)timeout_ms);

	took = now_ms() - began;
	o->spent_ms += took;
	s->spent_ms += took;
	return n;
}

/*
 * hand_over - object @o, number @id, given to the child now running,
 * opened through its pin; or, for one that could not be pinned for want
 * of descriptors, through a pin made for the while from mapping @m of
 * @p, if that still lives. NULL, or why not.
 */
static const char *hand_over(struct symbolizer *s, struct object *o, uint32_t id, const struct process *p,
			     const struct mapping *m, uint64_t timeout_ms)
{
	struct object_names_add add = { .kind = OBJECT_NAMES_ADD, .object = id };
	struct mapped_file f = {
		.pid = p->pid, .start = m->start, .end = m->end, .dev_major = o->dev_major, .dev_minor = o->dev_minor,
		.inode = o->inode, .path = m->path,
	};
	const char *why = "could not be opened";
	int pinned = o->pinned, fd, err;

	if (o->sent && o->sent == sandbox__generation(s->sandbox) && sandbox__pid(s->sandbox))
		return NULL;
	if (strlen(o->path) >= sizeof(add.path))
		return o->why = "its path is too long to use";
	strcpy(add.path, o->path);
	if (pinned < 0 && (pinned = mapped_file__pin(s->mounts, &f, &why)) < 0)
		return o->why = why;
	fd = mapped_file__open(pinned);
	if (pinned != o->pinned)
		close(pinned);
	if (fd < 0)
		return o->why = "could not be opened";
	err = timed_call(s, o, &add, sizeof(add), fd, NULL, 0, timeout_ms);
	close(fd);
	if (err)
		return why_failed(s, o, err);
	o->sent = sandbox__generation(s->sandbox);
	return NULL;
}

/* time_left - what the child may still take on @o: the object's time and the run's; 0 with why, when none */
static uint64_t time_left(struct symbolizer *s, struct object *o, const char **why)
{
	uint64_t object_left = o->spent_ms < s->opts.object_ms ? s->opts.object_ms - o->spent_ms : 0;
	uint64_t run_left = s->spent_ms < s->opts.run_ms ? s->opts.run_ms - s->spent_ms : 0;

	if (!object_left)
		*why = o->why = "the symbolizer took too long on it";
	else if (!run_left)
		*why = s->why_all = "the symbolizer's time for the run was spent";
	return object_left < run_left ? object_left : run_left;
}

/*
 * keep_build_id - @o's build ID, from the child's answer @code, kept in
 * hex the first time: it is the object's, the same in every answer. One
 * longer than the room for it is no build ID.
 */
static void keep_build_id(struct object *o, const struct object_names_code *code)
{
	if (o->build_id[0] || !code->build_id_len || code->build_id_len > sizeof(code->build_id))
		return;
	for (uint32_t i = 0; i < code->build_id_len; i++)
		snprintf(o->build_id + 2 * i, 3, "%02x", code->build_id[i]);
}

/*
 * ask_child - the name of the byte at @file_offset of object @id, which
 * @p maps in @m, as @kind, from the child, into @n: NULL, or why there is
 * none. A child
 * started since @o was handed to it (the one before ended) does not know
 * it: it is handed over again, once.
 */
static const char *ask_child(struct symbolizer *s, struct object *o, uint32_t id, const struct process *p,
			     const struct mapping *m, uint32_t kind, uint64_t file_offset, struct name *n)
{
	struct object_names_ask req = { .kind = kind, .object = id, .file_offset = file_offset };
	union {
		struct object_names_code code;
		struct object_names_data data;
	} answer;
	const char *why = NULL;
	uint64_t left;
	int got = -ENOENT;

	for (int tries = 0; tries < 2 && got == -ENOENT; tries++) {
		left = time_left(s, o, &why);
		if (!left)
			return why;
		why = hand_over(s, o, id, p, m, left);
		if (why)
			return why;
		left = time_left(s, o, &why);
		if (!left)
			return why;
		got = timed_call(s, o, &req, sizeof(req), -1, &answer, sizeof(answer), left);
		if (got == -ENOENT)
			o->sent = 0;
	}
	if (got < 0)
		return why_failed(s, o, got);
	memset(n, 0, sizeof(*n));
	if (kind == OBJECT_NAMES_CODE && got == (int)sizeof(answer.code)) {
		snprintf(n->text, sizeof(n->text), "%.*s", (int)sizeof(answer.code.function), answer.code.function);
		snprintf(n->file, sizeof(n->file), "%.*s", (int)sizeof(answer.code.file), answer.code.file);
		n->function_offset = answer.code.function_offset;
		n->line = answer.code.line;
		keep_build_id(o, &answer.code);
	} else if (kind == OBJECT_NAMES_DATA && got == (int)sizeof(answer.data)) {
		snprintf(n->text, sizeof(n->text), "%.*s", (int)sizeof(answer.data.what), answer.data.what);
		n->in_module = answer.data.in_module;
	} else {
		return why_failed(s, o, -EPROTO);
	}
	return NULL;
}

/*
 * ask - the name of the byte at @file_offset of mapping @m's object, as
 * @kind (OBJECT_NAMES_CODE or _DATA), for process @p, into @n: from the
 * names kept, else asked of the child within the object's and the run's
 * time left. NULL, or why there is no name.
 */
static const char *ask(struct symbolizer *s, const struct process *p, const struct mapping *m, uint32_t kind,
		       uint64_t file_offset, struct name *n)
{
	struct object *o;
	const char *why;

	if (m->object < 0)
		return "not a file it could read";
	o = &s->objs[m->object];
	if (recall(s, (uint32_t)m->object, kind, file_offset, n))
		return NULL;
	if (s->why_all)
		return s->why_all;
	if (p->from_text)
		return "not opened: its mappings were given as text";
	/*
	 * one not pinned while its process ran may be now, from the mapping
	 * asked about; or, with no descriptor to spare, for the while it is
	 * handed over (hand_over())
	 */
	if (o->pinned < 0)
		pin(s, o, p->pid, m);
	if (o->why)
		return o->why;
	why = ask_child(s, o, (uint32_t)m->object, p, m, kind, file_offset, n);
	if (!why)
		remember(s, (uint32_t)m->object, kind, file_offset, n);
	return why;
}

_Static_assert(sizeof(struct object_names_unwind) >= sizeof(struct object_names_add), "the largest request");
_Static_assert(sizeof(struct object_names_frames) >= sizeof(struct object_names_code) &&
		       sizeof(struct object_names_frames) >= sizeof(struct object_names_data),
	       "the largest answer");

/*
 * place_objects - the objects @p maps executable, each handed to the
 * child, into @req: where each lies, by its first such mapping. The one
 * @pc is in, for the time the unwinding takes, into *@charged (NULL:
 * none is handed over). Objects that cannot be opened or were given up
 * on are left out: the unwinding stops at their frames.
 */
static void place_objects(struct symbolizer *s, const struct process *p, uint64_t pc,
			  struct object_names_unwind *req, struct object **charged)
{
	const char *why;

	req->nobjects = 0;
	*charged = NULL;
	for (size_t i = 0; i < p->n && req->nobjects < OBJECT_UNWIND_OBJECTS && !s->why_all; i++) {
		const struct mapping *m = &p->maps[i];
		struct object *o;
		bool placed = false;
		uint64_t left;

		if (!m->exec || m->object < 0)
			continue;
		for (uint32_t j = 0; j < req->nobjects && !placed; j++)
			placed = req->objects[j].object == (uint32_t)m->object;
		if (placed)
			continue;
		o = &s->objs[m->object];
		if (o->pinned < 0)
			pin(s, o, p->pid, m);
		if (o->why || !(left = time_left(s, o, &why)) || hand_over(s, o, (uint32_t)m->object, p, m, left))
			continue;
		req->objects[req->nobjects++] = (struct object_names_placed){
			.object = (uint32_t)m->object, .start = m->start, .offset = m->offset,
		};
		if (!*charged || (pc >= m->start && pc < m->end))
			*charged = o;
	}
}

size_t symbolizer__unwind(struct symbolizer *s, pid_t pid, const uint64_t *regs, uint64_t sp, const uint8_t *stack,
			  size_t len, uint64_t *pcs, size_t max, uint64_t *top)
{
	const struct process *p = process_of(s, pid);
	struct object_names_frames frames;
	struct object *charged;
	const char *why;
	uint64_t left;
	size_t n = 0;
	int got;

	if (top)
		*top = 0;
	if (!p || p->from_text || s->why_all || len > OBJECT_UNWIND_STACK)
		return 0;
	if (!s->unwind_req && !(s->unwind_req = malloc(sizeof(*s->unwind_req))))
		return 0;
	memset(s->unwind_req, 0, sizeof(*s->unwind_req));
	s->unwind_req->kind = OBJECT_NAMES_UNWIND;
	memcpy(s->unwind_req->regs, regs, sizeof(s->unwind_req->regs));
	s->unwind_req->sp = sp;
	s->unwind_req->len = (uint32_t)len;
	memcpy(s->unwind_req->stack, stack, len);
	place_objects(s, p, regs[OBJECT_UNWIND_PC], s->unwind_req, &charged);
	if (!charged || !(left = time_left(s, charged, &why)))
		return 0;
	got = timed_call(s, charged, s->unwind_req, sizeof(*s->unwind_req), -1, &frames, sizeof(frames), left);
	if (got != (int)sizeof(frames)) {
		why_failed(s, charged, got < 0 ? got : -EPROTO);
		return 0;
	}
	for (uint32_t i = 0; i < frames.n && i < OBJECT_UNWIND_FRAMES && n < max; i++)
		pcs[n++] = frames.pc[i];
	if (top && frames.top > sp && frames.top - sp <= len)
		*top = frames.top;
	return n;
}

/*
 * object_name - the path @path of a mapping, into @out of @size bytes;
 * one too long for it is "..." and its end, so that the file's name stays
 */
static void object_name(char *out, size_t size, const char *path)
{
	size_t len = strlen(path);

	if (len < size)
		memcpy(out, path, len + 1);
	else
		snprintf(out, size, "...%s", path + len - (size - 4));
}

bool symbolizer__user(struct symbolizer *s, pid_t pid, uint64_t addr, struct symbol *out)
{
	struct process *p = process_of(s, pid);
	const struct mapping *m = NULL;
	struct name n;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; p && i < p->n && !m; i++)
		if (p->maps[i].kind == MAPPING_FILE && addr >= p->maps[i].start && addr < p->maps[i].end)
			m = &p->maps[i];
	if (!m)
		return false;
	object_name(out->object, sizeof(out->object), m->path);
	out->object_offset = addr - m->start + m->offset;
	out->why_unnamed = ask(s, p, m, OBJECT_NAMES_CODE, out->object_offset, &n);
	if (out->why_unnamed)
		return true;
	snprintf(out->function, sizeof(out->function), "%.*s", (int)sizeof(out->function) - 1, n.text);
	out->function_offset = out->function[0] ? n.function_offset : 0;
	snprintf(out->file, sizeof(out->file), "%s", n.file);
	out->line = out->file[0] ? n.line : 0;
	snprintf(out->build_id, sizeof(out->build_id), "%s", s->objs[m->object].build_id);
	return true;
}

/*
 * object_data - name @addr as data of the object that file mapping @file
 * maps: in @file itself, or (@beyond) in the anonymous mapping right after
 * it, which holds the rest of its .bss as far as its last segment reaches
 * in memory. False when @beyond and the object's segments do not reach
 * (or the object says nothing).
 */
static bool object_data(struct symbolizer *s, const struct process *p, const struct mapping *file, uint64_t addr,
			bool beyond, struct data_name *out)
{
	uint64_t file_offset = addr - file->start + file->offset;
	struct name n;
	const char *why = ask(s, p, file, OBJECT_NAMES_DATA, file_offset, &n);

	if (beyond && (why || !n.in_module))
		return false;
	object_name(out->object, sizeof(out->object), file->path);
	out->object_offset = file_offset;
	out->why_unnamed = why;
	if (!why)
		snprintf(out->what, sizeof(out->what), "%s", n.text);
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
		if (later->kind == MAPPING_FILE &&
		    (file->object >= 0 ? later->object == file->object : !strcmp(later->path, file->path)))
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
		return object_data(s, p, m, addr, false, out);
	/* without address randomization the brk area may start right after .bss, and [heap] take it in */
	file = m->kind == MAPPING_ANONYMOUS || m->kind == MAPPING_HEAP ? bss_before(p, m) : NULL;
	if (file && object_data(s, p, file, addr, true, out))
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

/* ---- the kernel ---- */

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
	demangle__name(k->name, out->function, sizeof(out->function));
	out->function_offset = addr - k->addr;
	if (k->module[0])
		snprintf(out->object, sizeof(out->object), "[%s]", k->module);
	else
		snprintf(out->object, sizeof(out->object), "[kernel]");
	return true;
}

bool symbolizer__demangle(const char *name, char *out, size_t size)
{
	return demangle__name(name, out, size);
}
