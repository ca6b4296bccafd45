// SPDX-License-Identifier: GPL-2.0
/*
 * object_debug.c - where an object's debug information is, in the child:
 * its separate debug file under /usr/lib/debug, by build ID or by
 * .gnu_debuglink, and the dwz file that names, each opened without
 * blocking and kept only as a regular file that is the object's own (its
 * build ID or CRC); debuginfod's servers only when asked for
 */
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
#include "object_names_internal.h"

/* debuginfod_find_debuginfo - libdebuginfod's (debuginfod.h), found at run time: libdw loads it only with DEBUGINFOD_URLS set */
typedef int (*debuginfod_find_fn)(debuginfod_client *client, const unsigned char *build_id, int build_id_len,
				  char **path);

/* ---- debug files: under DEBUG_DIR, checked to be the object's ---- */

/*
 * canonical - is @path absolute, with no empty, "." or ".." component?
 * The kernel writes a mapping's path so; what a debug link or a dwz link
 * adds must not step out of DEBUG_DIR.
 */
static bool canonical(const char *path)
{
	if (path[0] != '/')
		return false;
	for (const char *c = path + 1;; c++) {
		size_t len = strcspn(c, "/");

		if (!len || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += len;
		if (!*c)
			return true;
	}
}

/* open_regular - @path opened to read, without blocking, if it is a regular file; else -1 */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* elf_build_id - the build ID of the ELF file at @fd into @id: its length, 0 for none */
static size_t elf_build_id(int fd, uint8_t id[BUILD_ID_MAX])
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits = NULL;
	ssize_t len = elf ? dwelf_elf_gnu_build_id(elf, &bits) : -1;

	if (len > 0 && len <= BUILD_ID_MAX)
		memcpy(id, bits, (size_t)len);
	else
		len = 0;
	if (elf)
		elf_end(elf);
	return (size_t)len;
}

/*
 * elf_dwz_link - the dwz file the ELF @elf names, .gnu_debugaltlink: a
 * file name then its build ID. False for none, or one that does not parse.
 */
static bool elf_dwz_link(Elf *elf, const char **name, const uint8_t **id, size_t *id_len)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *section;
		Elf_Data *data;
		size_t len;

		if (!gelf_getshdr(scn, &shdr) || !(section = elf_strptr(elf, shstrndx, shdr.sh_name)) ||
		    strcmp(section, ".gnu_debugaltlink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || !data->d_size)
			return false;
		len = strnlen(data->d_buf, data->d_size);
		if (len + 1 >= data->d_size || data->d_size - len - 1 > BUILD_ID_MAX)
			return false;
		*name = data->d_buf;
		*id = (const uint8_t *)data->d_buf + len + 1;
		*id_len = data->d_size - len - 1;
		return true;
	}
	return false;
}

/* note_dwz_link - what dwz file the ELF file at @fd, which holds @o's DWARF, names, if any */
static void note_dwz_link(struct object *o, Elf *elf)
{
	const uint8_t *id;
	const char *name;
	size_t len;

	if (!elf_dwz_link(elf, &name, &id, &len))
		return;
	free(o->dwz_name);
	o->dwz_name = strdup(name);
	o->dwz_named = true;
	memcpy(o->dwz_id, id, len);
	o->dwz_id_len = len;
}

/* build_id_path - DEBUG_DIR/.build-id/NN/NNNN....debug for build ID @id into @path */
static bool build_id_path(const uint8_t *id, size_t len, char *path, size_t size)
{
	int n;

	if (len < 2 || len > BUILD_ID_MAX)
		return false;
	n = snprintf(path, size, DEBUG_DIR "/.build-id/%02x/", id[0]);
	for (size_t i = 1; i < len && n > 0 && (size_t)n < size; i++)
		n += snprintf(path + n, size - (size_t)n, "%02x", id[i]);
	return n > 0 && (size_t)n < size && (size_t)snprintf(path + n, size - (size_t)n, ".debug") < size - (size_t)n;
}

/* file_crc - the CRC-32 of the file at @fd, as .gnu_debuglink records its debug file's (zlib's, gdb's) */
static bool file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong sum = crc32(0, NULL, 0);
	off_t at = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		sum = crc32(sum, buf, (uInt)n);
		at += n;
	}
	*crc = (uint32_t)sum;
	return n == 0;
}

/*
 * open_verified - @path if it is a regular file with build ID @id (when
 * one is known, @id_len > 0), else with CRC @crc; -1 when it is not
 */
static int open_verified(const char *path, const uint8_t *id, size_t id_len, uint32_t crc)
{
	uint8_t found[BUILD_ID_MAX];
	uint32_t sum;
	int fd = open_regular(path);

	if (fd < 0)
		return -1;
	if (id_len ? elf_build_id(fd, found) != id_len || memcmp(found, id, id_len) :
		     !file_crc(fd, &sum) || sum != crc) {
		close(fd);
		return -1;
	}
	return fd;
}

/* take_debug_file - @fd, @o's debug file found at @path: the dwz file it names noted */
static int take_debug_file(struct object *o, int fd, const char *path)
{
	Elf *elf;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	note_dwz_link(o, elf);
	if (elf)
		elf_end(elf);
	free(o->debug_path);
	o->debug_path = strdup(path);
	return fd;
}

/* debuginfod_fd - a debug file for build ID @id from the debuginfod servers, its path into *@path; -1 for none */
static int debuginfod_fd(struct object *o, const uint8_t *id, size_t len, char **path)
{
	debuginfod_client *client = dwfl_get_debuginfod_client(o->dwfl);
	void *lib = client ? dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD) : NULL;
	debuginfod_find_fn find = lib ? (debuginfod_find_fn)dlsym(lib, "debuginfod_find_debuginfo") : NULL;
	uint8_t found[BUILD_ID_MAX];
	int fd = find ? find(client, id, (int)len, path) : -1;

	if (lib)
		dlclose(lib);
	if (fd >= 0 && (elf_build_id(fd, found) != len || memcmp(found, id, len))) {
		close(fd);
		fd = -1;
	}
	if (fd < 0 && path && *path) {
		free(*path);
		*path = NULL;
	}
	return fd < 0 ? -1 : fd;
}

/*
 * find_separate_debug - @o's debug file: by its build ID under
 * DEBUG_DIR/.build-id, then by its .gnu_debuglink @link in the directory
 * under DEBUG_DIR that mirrors its own (gdb's "Separate Debug Files"),
 * then, when asked for, from debuginfod; -1 for none
 */
static int find_separate_debug(struct object *o, Dwfl_Module *mod, const char *link, uint32_t crc)
{
	const unsigned char *bits = NULL;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);
	size_t id_len = len > 0 && len <= BUILD_ID_MAX ? (size_t)len : 0;
	char path[PATH_MAX + 64], dir[PATH_MAX], *fetched = NULL;
	const char *slash;
	int fd = -1;

	if (id_len && build_id_path(bits, id_len, path, sizeof(path)))
		fd = take_debug_file(o, open_verified(path, bits, id_len, crc), path);
	/* a link is a file name, and the object's directory as its process named it */
	slash = strrchr(o->path, '/');
	if (fd < 0 && link && link[0] && !strchr(link, '/') && strcmp(link, ".") && strcmp(link, "..") && slash &&
	    (size_t)(slash - o->path) < sizeof(dir)) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - o->path), o->path);
		if ((!dir[0] || canonical(dir)) &&
		    (size_t)snprintf(path, sizeof(path), DEBUG_DIR "%s/%s", dir, link) < sizeof(path))
			fd = take_debug_file(o, open_verified(path, bits, id_len, crc), path);
	}
	if (fd < 0 && id_len && o->debuginfod) {
		fd = take_debug_file(o, debuginfod_fd(o, bits, id_len, &fetched), fetched ? fetched : "");
		free(fetched);
	}
	return fd;
}

/*
 * find_dwz_file - the dwz file @o's DWARF names: by its build ID under
 * DEBUG_DIR/.build-id, else at the path it names, absolute or from the
 * directory of the file holding the DWARF, if that is under DEBUG_DIR,
 * else, when asked for, from debuginfod; with that build ID every way.
 * -1 for none.
 */
static int find_dwz_file(struct object *o)
{
	char path[PATH_MAX + 64], *fetched = NULL;
	const char *base = o->debug_path, *slash;
	int fd = -1;

	if (!o->dwz_named || !o->dwz_name)
		return -1;
	if (build_id_path(o->dwz_id, o->dwz_id_len, path, sizeof(path)))
		fd = open_verified(path, o->dwz_id, o->dwz_id_len, 0);
	path[0] = '\0';
	if (o->dwz_name[0] == '/')
		snprintf(path, sizeof(path), "%s", o->dwz_name);
	else if (base && (slash = strrchr(base, '/')))
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - base), base, o->dwz_name);
	if (fd < 0 && path[0] && canonical(path) && !strncmp(path, DEBUG_DIR "/", sizeof(DEBUG_DIR)))
		fd = open_verified(path, o->dwz_id, o->dwz_id_len, 0);
	if (fd < 0 && o->debuginfod) {
		fd = debuginfod_fd(o, o->dwz_id, o->dwz_id_len, &fetched);
		free(fetched);
	}
	o->dwz_found = fd >= 0;
	return fd;
}

/* no path is opened to find the main file: the parent hands it over */
static int refuse_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base, char **file_name,
		      Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name, (void)elfp;
	return -1;
}

/*
 * find_debug - libdwfl's find_debuginfo: asked first for the object's
 * debug file with its .gnu_debuglink name and CRC (the name NULL without
 * one) when the object holds no DWARF itself, then, once the DWARF is
 * open, for the dwz file it names, with that name and a CRC of 0
 * (libdwfl's dwfl_module_getdwarf.c: find_dw(), then find_debug_altlink()).
 * A debug link is a file name; a dwz link a path.
 */
static int find_debug(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *link, GElf_Word crc, char **debug_file_name)
{
	struct object *o = userdata ? *userdata : NULL;
	Dwarf_Addr bias;
	int fd;

	(void)modname, (void)base, (void)file_name;
	if (!o)
		return -1;
	if (link && !crc && strchr(link, '/')) {
		/* no debug file found: the DWARF is the object's own, and so is its dwz link */
		if (!o->debug_path)
			note_dwz_link(o, dwfl_module_getelf(mod, &bias));
		return find_dwz_file(o);
	}
	fd = find_separate_debug(o, mod, link, crc);
	if (fd >= 0 && debug_file_name && o->debug_path)
		*debug_file_name = strdup(o->debug_path);
	return fd;
}

const Dwfl_Callbacks object_debug__callbacks = {
	.find_elf = refuse_elf,
	.find_debuginfo = find_debug,
	.section_address = dwfl_offline_section_address,
};
