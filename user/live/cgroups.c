// SPDX-License-Identifier: GPL-2.0
/* cgroups.c - cgroups (v2) by id: the mount, a named cgroup's id, an id's path and label (cgroups.h) */
#define _GNU_SOURCE	/* open_by_handle_at(), name_to_handle_at() */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <mntent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "cgroups.h"
#include "series_cap.h"

/* include/linux/exportfs.h: a kernfs node's handle is its 64-bit id */
#define FILEID_KERNFS		0xfe
/* include/uapi/linux/magic.h */
#define CGROUP2_SUPER_MAGIC	0x63677270

struct cgroup_names {
	char mount[PATH_MAX];
	int mount_fd;			/* -1: no hierarchy, or it could not be opened */
	bool handles_refused;		/* open_by_handle_at() said EPERM or EOPNOTSUPP once: walk instead */
	uint64_t last_walk_ns;
	struct cgroup_name *slots;	/* open addressing by id, CGROUPS_NAMED of them */
	struct cgroup_name unnamed;	/* "unknown", for an id a walk has not found yet */
	uint32_t used;
	struct cgroup_names_stats stats;
};

int cgroups__mount_in(FILE *mounts, char *buf, size_t len)
{
	struct mntent ent;
	char line[4096];

	while (getmntent_r(mounts, &ent, line, sizeof(line)))
		if (!strcmp(ent.mnt_type, "cgroup2")) {
			if ((size_t)snprintf(buf, len, "%s", ent.mnt_dir) >= len)
				return -ENAMETOOLONG;
			return 0;
		}
	return -ENOENT;
}

int cgroups__mount(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	int err;

	if (!f)
		return -errno;
	err = cgroups__mount_in(f, buf, len);
	endmntent(f);
	return err;
}

/* id_of - the id of the cgroup directory @path (from @dirfd): its kernfs handle, or else its inode number */
static int id_of(int dirfd, const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	struct stat st;
	int mount_id;

	/* a kernfs handle is the id; any other file system's (ext4's is as long) is not */
	if (!name_to_handle_at(dirfd, path, &h.fh, &mount_id, 0) && h.fh.handle_bytes == sizeof(uint64_t) &&
	    h.fh.handle_type == FILEID_KERNFS) {
		memcpy(id, h.fh.f_handle, sizeof(*id));
		return 0;
	}
	if (fstatat(dirfd, path, &st, 0))
		return -errno;
	*id = st.st_ino;
	return 0;
}

/* under - @full as a path from the hierarchy's root, when it lies under @mount; NULL when not */
static const char *under(const char *mount, const char *full)
{
	size_t n = strlen(mount);

	while (n > 1 && mount[n - 1] == '/')
		n--;
	if (strncmp(full, mount, n) || (full[n] && full[n] != '/'))
		return NULL;
	return full[n] ? full + n : "/";
}

int cgroups__find(const char *mount, const char *name, uint64_t *id, char *path, size_t pathlen, char *msg,
		  size_t msglen)
{
	char full[PATH_MAX], real[PATH_MAX];
	const char *rel;
	struct stat st;
	int err;

	if (!mount[0]) {
		snprintf(msg, msglen, "--cgroup %s: no cgroup2 hierarchy is mounted (see /proc/mounts): "
			 "mount one with 'mount -t cgroup2 none /sys/fs/cgroup'", name);
		return -ENOENT;
	}
	/* a directory under the mount as it is; any other path is one from the hierarchy's root */
	if (under(mount, name))
		snprintf(full, sizeof(full), "%s", name);
	else
		snprintf(full, sizeof(full), "%s/%s", mount, name[0] == '/' ? name + 1 : name);
	if (!realpath(full, real) || stat(real, &st)) {
		err = -errno;
		snprintf(msg, msglen, "--cgroup %s: no such cgroup under %s (%s): give a path such as "
			 "/system.slice/NAME.service, or a directory under %s", name, mount, strerror(-err), mount);
		return err;
	}
	rel = under(mount, real);
	if (!S_ISDIR(st.st_mode) || !rel) {
		snprintf(msg, msglen, "--cgroup %s: %s is not a cgroup of the cgroup2 hierarchy at %s", name, real,
			 mount);
		return -EINVAL;
	}
	err = id_of(AT_FDCWD, real, id);
	if (err) {
		snprintf(msg, msglen, "--cgroup %s: cannot read its id: %s", name, strerror(-err));
		return err;
	}
	snprintf(path, pathlen, "%s", rel);
	return 0;
}

static void name(struct cgroup_name *c);

struct cgroup_names *cgroup_names__new(const char *mount)
{
	struct cgroup_names *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->slots = calloc(CGROUPS_NAMED, sizeof(*n->slots));
	if (!n->slots) {
		free(n);
		return NULL;
	}
	snprintf(n->mount, sizeof(n->mount), "%s", mount);
	name(&n->unnamed);
	n->mount_fd = mount[0] ? open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	/* only kernfs opens a directory by its id: any other tree (a copy, a test's) is walked */
	if (n->mount_fd >= 0) {
		struct statfs fs;

		n->handles_refused = fstatfs(n->mount_fd, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC;
	}
	return n;
}

void cgroup_names__free(struct cgroup_names *n)
{
	if (!n)
		return;
	if (n->mount_fd >= 0)
		close(n->mount_fd);
	free(n->slots);
	free(n);
}

static uint32_t slot_of(const struct cgroup_names *n, uint64_t id)
{
	uint32_t i = (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 40) % CGROUPS_NAMED;

	while (n->slots[i].id && n->slots[i].id != id)
		i = (i + 1) % CGROUPS_NAMED;
	return i;
}

/* name - @c, whose id and path are set: its label and the label's hash */
static void name(struct cgroup_name *c)
{
	if (c->path[0])
		cgroup_label__of(c->path, c->label, sizeof(c->label));
	else
		snprintf(c->label, sizeof(c->label), "unknown");
	c->hash = series_cap__hash(c->label);
}

/* keep - a name for @id with @path into the table, unless it is full */
static struct cgroup_name *keep(struct cgroup_names *n, uint64_t id, const char *path)
{
	struct cgroup_name *c = &n->slots[slot_of(n, id)];

	if (!c->id) {
		if (n->used >= CGROUPS_NAMED * 3 / 4)
			return NULL;
		n->used++;
	}
	c->id = id;
	snprintf(c->path, sizeof(c->path), "%s", path);
	name(c);
	return c;
}

/* path_by_handle - @id's path from the hierarchy's root into @path, by opening it by its handle */
static int path_by_handle(struct cgroup_names *n, uint64_t id, char *path, size_t len)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t), .fh.handle_type = FILEID_KERNFS };
	char link[64], full[PATH_MAX];
	const char *rel;
	ssize_t got;
	int fd;

	memcpy(h.fh.f_handle, &id, sizeof(id));
	fd = open_by_handle_at(n->mount_fd, &h.fh, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	got = readlink(link, full, sizeof(full) - 1);
	close(fd);
	if (got < 0)
		return -errno;
	full[got] = '\0';
	rel = under(n->mount, full);
	if (!rel)
		return -ENOENT;
	snprintf(path, len, "%s", rel);
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* the walk's table and its mount, for nftw()'s callback, which takes no argument of the caller's */
static struct cgroup_names *walking;

static int walk_one(const char *full, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = under(walking->mount, full);
	uint64_t id;

	(void)st;
	(void)ftw;
	if (type != FTW_D || !rel || id_of(AT_FDCWD, full, &id))
		return 0;
	if (walking->slots[slot_of(walking, id)].id != id && keep(walking, id, rel))
		walking->stats.walked++;
	return 0;
}

/* walk - every cgroup of the hierarchy into the table, at most once every CGROUPS_WALK_EVERY_NS */
static void walk(struct cgroup_names *n)
{
	uint64_t now = now_ns();

	if (n->last_walk_ns && now - n->last_walk_ns < CGROUPS_WALK_EVERY_NS)
		return;
	n->last_walk_ns = now;
	n->stats.walks++;
	walking = n;
	nftw(n->mount, walk_one, 16, FTW_PHYS | FTW_MOUNT);
	walking = NULL;
}

const struct cgroup_name *cgroup_names__get(struct cgroup_names *n, uint64_t id)
{
	struct cgroup_name *c = &n->slots[slot_of(n, id)];
	char path[CGROUP_PATH_LEN];
	int err = -ENOENT;

	if (c->id == id)
		return c;
	path[0] = '\0';
	if (id == CGROUP_ROOT_ID) {
		snprintf(path, sizeof(path), "/");
		err = 0;
	} else if (n->mount_fd >= 0 && !n->handles_refused) {
		err = path_by_handle(n, id, path, sizeof(path));
		if (err == -EPERM || err == -EOPNOTSUPP || err == -EINVAL)
			n->handles_refused = true;
		if (!err)
			n->stats.named++;
	}
	if (err && n->mount_fd >= 0 && n->handles_refused) {
		walk(n);
		c = &n->slots[slot_of(n, id)];
		if (c->id == id)
			return c;
		/* not kept: made since the last walk, the next may find it */
		return &n->unnamed;
	}
	if (err) {
		path[0] = '\0';
		n->stats.unknown++;
	}
	c = keep(n, id, path);
	/* full: named again after the next cgroup_names__tidy() */
	return c ? c : &n->unnamed;
}

bool cgroup_names__gone(struct cgroup_names *n, uint64_t id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t), .fh.handle_type = FILEID_KERNFS };
	int fd;

	if (id == CGROUP_ROOT_ID || n->mount_fd < 0 || n->handles_refused)
		return false;
	memcpy(h.fh.f_handle, &id, sizeof(id));
	fd = open_by_handle_at(n->mount_fd, &h.fh, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return false;
	}
	/* a kernfs node that is gone: its handle is stale */
	return errno == ESTALE || errno == ENOENT;
}

void cgroup_names__tidy(struct cgroup_names *n)
{
	if (n->used < CGROUPS_NAMED / 2)
		return;
	/* a machine that made and removed this many: name them afresh, as they come */
	memset(n->slots, 0, CGROUPS_NAMED * sizeof(*n->slots));
	n->used = 0;
	n->stats.forgotten++;
}

void cgroup_names__stats(const struct cgroup_names *n, struct cgroup_names_stats *out)
{
	*out = n->stats;
}
