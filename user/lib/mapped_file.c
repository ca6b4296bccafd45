// SPDX-License-Identifier: GPL-2.0
/* mapped_file.c - a process's mapped file, opened as the very file it maps (mapped_file.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "mapped_file.h"

/* the mounts of one mount namespace, as a process in it showed them */
struct mount_table {
	uint64_t ns;		/* the namespace's inode (/proc/PID/ns/mnt), which names it */
	struct mount_entry *mounts;
	size_t n;
};

struct mount_tables {
	struct mount_table *tables;
	size_t n;
};

struct mount_tables *mount_tables__new(void)
{
	return calloc(1, sizeof(struct mount_tables));
}

static void table_clear(struct mount_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->mounts[i].mount_point);
	free(t->mounts);
	t->mounts = NULL;
	t->n = 0;
}

void mount_tables__free(struct mount_tables *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->n; i++)
		table_clear(&mt->tables[i]);
	free(mt->tables);
	free(mt);
}

bool mount_entry__is_fuse(const char *fstype)
{
	return !strcmp(fstype, "fuse") || !strcmp(fstype, "fuseblk") || !strncmp(fstype, "fuse.", 5);
}

/* unescape - a mountinfo path field: the kernel writes space, tab, newline and backslash as \ooo (proc(5)) */
static char *unescape(const char *field, size_t len)
{
	char *out = malloc(len + 1), *w = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (field[i] == '\\' && i + 3 < len && field[i + 1] >= '0' && field[i + 1] <= '3' && field[i + 2] >= '0' &&
		    field[i + 2] <= '7' && field[i + 3] >= '0' && field[i + 3] <= '7') {
			*w++ = (char)((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
			i += 3;
		} else {
			*w++ = field[i];
		}
	}
	*w = '\0';
	return out;
}

int mount_entry__parse(const char *line, struct mount_entry *out)
{
	int id, parent, at = 0, point_at = 0, point_end = 0, fstype_at = 0;
	unsigned int major, minor;
	const char *dash;
	char fstype[32];

	memset(out, 0, sizeof(*out));
	/* ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS */
	if (sscanf(line, "%d %d %u:%u %*s %n%*s%n %n", &id, &parent, &major, &minor, &point_at, &point_end, &at) != 4 ||
	    !at)
		return -EINVAL;
	/* the optional fields end at a lone "-" */
	dash = strstr(line + at, " - ");
	if (!dash || sscanf(dash, " - %31s%n", fstype, &fstype_at) != 1)
		return -EINVAL;
	out->mount_point = unescape(line + point_at, (size_t)(point_end - point_at));
	if (!out->mount_point)
		return -ENOMEM;
	out->id = id;
	out->dev_major = major;
	out->dev_minor = minor;
	snprintf(out->fstype, sizeof(out->fstype), "%s", fstype);
	return 0;
}

/* read_table - the mounts /proc/@pid/mountinfo shows into @t, emptied first */
static int read_table(struct mount_table *t, pid_t pid)
{
	struct mount_entry e, *grown;
	char path[64], *line = NULL;
	size_t cap = 0, room = 0;
	int err = 0;
	FILE *f;

	table_clear(t);
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		err = mount_entry__parse(line, &e);
		if (err == -EINVAL)
			continue;
		if (err)
			break;
		if (t->n == room) {
			room = room ? 2 * room : 64;
			grown = realloc(t->mounts, room * sizeof(*grown));
			if (!grown) {
				free(e.mount_point);
				err = -ENOMEM;
				break;
			}
			t->mounts = grown;
		}
		t->mounts[t->n++] = e;
		err = 0;
	}
	free(line);
	fclose(f);
	return err;
}

/*
 * table_of - the mounts of @pid's mount namespace: read on the first
 * process seen in it, and again when @reread (a mount not found, made
 * since); NULL when the process is gone
 */
static struct mount_table *table_of(struct mount_tables *mt, pid_t pid, bool reread)
{
	struct mount_table *t = NULL, *grown;
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	if (stat(path, &st))
		return NULL;
	for (size_t i = 0; i < mt->n && !t; i++)
		if (mt->tables[i].ns == (uint64_t)st.st_ino)
			t = &mt->tables[i];
	if (t && !reread)
		return t;
	if (!t) {
		grown = realloc(mt->tables, (mt->n + 1) * sizeof(*grown));
		if (!grown)
			return NULL;
		mt->tables = grown;
		t = &mt->tables[mt->n++];
		*t = (struct mount_table){ .ns = (uint64_t)st.st_ino };
	}
	return read_table(t, pid) ? NULL : t;
}

/* mount_by_id - the mount @id of @t, NULL for none */
static const struct mount_entry *mount_by_id(const struct mount_table *t, uint64_t id)
{
	for (size_t i = 0; t && i < t->n; i++)
		if ((uint64_t)t->mounts[i].id == id)
			return &t->mounts[i];
	return NULL;
}

/* mount_by_device - a mount of @t of the superblock @major:@minor, NULL for none */
static const struct mount_entry *mount_by_device(const struct mount_table *t, unsigned int major, unsigned int minor)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->mounts[i].dev_major == major && t->mounts[i].dev_minor == minor)
			return &t->mounts[i];
	return NULL;
}

/*
 * file_status - @fd's type, inode, device and mount, without asking its
 * file system anything it would have to ask a server: AT_STATX_DONT_SYNC
 * takes the attributes the kernel holds (statx(2); FUSE and network file
 * systems honour it)
 */
static int file_status(int fd, struct statx *stx)
{
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO | STATX_MNT_ID,
		    stx))
		return -errno;
	return 0;
}

/*
 * shmem_device - the device of the kernel's own shared memory files,
 * whose mount no mountinfo lists: memfd_create()'s, SysV shared
 * memory's, a shared anonymous mapping's ("/dev/zero (deleted)"), and so a
 * program's run from a memfd (mm/shmem.c, shm_mnt). Known by a memfd of
 * this process's; false when it cannot be.
 */
static bool shmem_device(unsigned int *major, unsigned int *minor)
{
	static unsigned int dev_major, dev_minor;
	static int known;	/* 0: not looked, 1: known, -1: could not be */
	struct statx stx;
	int fd;

	if (!known) {
		known = -1;
		fd = memfd_create("wakeprobe-shmem", MFD_CLOEXEC);
		if (fd >= 0 && !file_status(fd, &stx)) {
			dev_major = stx.stx_dev_major;
			dev_minor = stx.stx_dev_minor;
			known = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	*major = dev_major;
	*minor = dev_minor;
	return known > 0;
}

/*
 * overlay_layer_fuse - could the overlay layer @f's device (maps' number)
 * names be FUSE's? As its process's mounts or wakeprobe's list it; one
 * neither lists is taken for FUSE's when it has no block device (0:N)
 */
static bool overlay_layer_fuse(struct mount_tables *mt, const struct mapped_file *f)
{
	const struct mount_entry *m = mount_by_device(table_of(mt, f->pid, false), f->dev_major, f->dev_minor);

	if (!m)
		m = mount_by_device(table_of(mt, getpid(), false), f->dev_major, f->dev_minor);
	return m ? mount_entry__is_fuse(m->fstype) : !f->dev_major;
}

/*
 * check_pinned - is @fd the file @f maps: a regular file, of its inode
 * and device, on a file system that is not FUSE? 0, or -EINVAL with
 * *@why. The device maps shows is the file's superblock's
 * (fs/proc/task_mmu.c, show_map_vma()), which a stat() shows too except on
 * btrfs, whose subvolumes stat() numbers apart: their mount's line in
 * mountinfo says the superblock's. A device numbered 0:N is a file
 * system without a block device of its own, FUSE's among them, and its
 * type is read from the process's mountinfo; the kernel's shared memory,
 * which none lists, is known by its device, a superblock's number.
 *
 * A file on overlayfs is mapped as its layer's file: before Linux 6.8
 * maps gives that layer's device, and a stat() of the file the overlay's
 * (a container's files, a /tmp over tmpfs). Reached through the mapping
 * itself (@mapping: /proc/PID/map_files), of the inode maps gives, on an
 * overlay mount, it is taken when the layer's device is not FUSE's.
 */
static int check_pinned(struct mount_tables *mt, int fd, const struct mapped_file *f, bool mapping,
			const char **why)
{
	const struct mount_entry *mount = NULL;
	const struct mount_table *t = NULL;
	unsigned int shm_major, shm_minor;
	struct statx stx;
	bool same_device;

	if (file_status(fd, &stx) || !(stx.stx_mask & STATX_TYPE) || !S_ISREG(stx.stx_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if (stx.stx_ino != f->inode) {
		*why = "not the file mapped";
		return -EINVAL;
	}
	same_device = stx.stx_dev_major == f->dev_major && stx.stx_dev_minor == f->dev_minor;
	if (same_device && f->dev_major)
		return 0;
	if (same_device && shmem_device(&shm_major, &shm_minor) && shm_major == f->dev_major && shm_minor == f->dev_minor)
		return 0;
	if (stx.stx_mask & STATX_MNT_ID) {
		t = table_of(mt, f->pid, false);
		mount = mount_by_id(t, stx.stx_mnt_id);
		if (!mount && t)
			mount = mount_by_id(t = table_of(mt, f->pid, true), stx.stx_mnt_id);
	}
	if (!same_device && mapping && mount && !strcmp(mount->fstype, "overlay")) {
		if (overlay_layer_fuse(mt, f)) {
			*why = "on a FUSE file system, whose server could stall its opening";
			return -EINVAL;
		}
		return 0;
	}
	if (!mount)
		mount = mount_by_device(t ? t : table_of(mt, f->pid, false), f->dev_major, f->dev_minor);
	if (!same_device && (!mount || mount->dev_major != f->dev_major || mount->dev_minor != f->dev_minor)) {
		*why = "not the file mapped";
		return -EINVAL;
	}
	if (!mount) {
		*why = "on a mount its process does not list, which could be FUSE's";
		return -EINVAL;
	}
	if (mount_entry__is_fuse(mount->fstype)) {
		*why = "on a FUSE file system, whose server could stall its opening";
		return -EINVAL;
	}
	return 0;
}

/*
 * crosses_fuse - would a walk of @path in @pid's root go through a FUSE
 * mount, whose server answers each step of it? A mount point that is
 * @path or a directory above it.
 */
static bool crosses_fuse(struct mount_tables *mt, pid_t pid, const char *path)
{
	const struct mount_table *t = table_of(mt, pid, false);

	if (!t)
		return true;
	for (size_t i = 0; i < t->n; i++) {
		const char *point = t->mounts[i].mount_point;
		size_t len = strlen(point);

		if (!mount_entry__is_fuse(t->mounts[i].fstype))
			continue;
		if (!strcmp(point, "/") || (!strncmp(path, point, len) && (path[len] == '/' || !path[len])))
			return true;
	}
	return false;
}

/* ends_with - does @s end with @tail? */
static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

/*
 * pin_in_root - @f's path, resolved in its process's own root: openat2()'s
 * RESOLVE_IN_ROOT keeps every "/" and ".." of the walk, a symbolic link's
 * included, inside it (openat2(2), Linux 5.6), and O_NOFOLLOW takes a link
 * at the end as the link, which is no regular file. Before 5.6 an
 * openat() from that root: a link inside the path may then lead out of
 * it, to a file the device and inode check turns away.
 */
static int pin_in_root(struct mount_tables *mt, const struct mapped_file *f, const char **why)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int root = -1, fd = -1, err;
	char path[64];

	/* a file unlinked has no path left to find it by */
	if (f->path[0] != '/' || ends_with(f->path, " (deleted)")) {
		err = -ENOENT;
		*why = "gone before it was opened";
		goto out;
	}
	if (crosses_fuse(mt, f->pid, f->path)) {
		err = -EINVAL;
		*why = "on a FUSE file system, whose server could stall its opening";
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/root", (int)f->pid);
	root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		err = -errno;
		*why = "gone before it was opened";
		goto out;
	}
	fd = (int)syscall(SYS_openat2, root, f->path + 1, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		fd = openat(root, f->path + 1, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		*why = "gone before it was opened";
		goto out;
	}
	err = check_pinned(mt, fd, f, false, why);
out:
	if (root >= 0)
		close(root);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

int mapped_file__pin(struct mount_tables *mt, const struct mapped_file *f, const char **why)
{
	char path[96];
	int fd, err;

	/* the name is the range as the kernel prints it, "%lx-%lx" (fs/proc/base.c, proc_map_files_readdir()) */
	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)f->pid, f->start, f->end);
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		/*
		 * the mapping gone since its line was read, its process gone, or
		 * no capability to follow the link: its path, in its root
		 */
		return pin_in_root(mt, f, why);
	}
	err = check_pinned(mt, fd, f, true, why);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int mapped_file__open(int pinned)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", pinned);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}
