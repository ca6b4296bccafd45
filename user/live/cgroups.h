/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroups.h - cgroups (v2) by id, as the BPF side sends them: where the
 * hierarchy is mounted, the id of a cgroup a user names, and the path and
 * label of an id a record carries.
 *
 * An id is the kernfs id of the cgroup's directory, which user space sees
 * as its inode number; the kernel opens a cgroup by it (open_by_handle_at()
 * with a kernfs handle, v5.5+), so an id is named with two system calls
 * the first time it is met, while the cgroup still exists. Where the
 * handle is refused, the hierarchy is walked instead, at most once every
 * CGROUPS_WALK_EVERY_NS.
 *
 * The hierarchy is wherever /proc/self/mounts says cgroup2 is: the whole
 * of /sys/fs/cgroup on a unified system, /sys/fs/cgroup/unified on a
 * hybrid one (v1 controllers beside it).
 */
#ifndef WAKEPROBE_CGROUPS_H
#define WAKEPROBE_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cgroup_label.h"

#define CGROUP_PATH_LEN		256	/* a path kept, from the hierarchy's root; a longer one is cut */
#define CGROUPS_NAMED		8192	/* ids named at once (three quarters of the slots) */
#define CGROUPS_WALK_EVERY_NS	(5ull * 1000000000)
/* the root cgroup's id: the kernel's first kernfs node of the hierarchy */
#define CGROUP_ROOT_ID		1

/* cgroups__mount_in - the first cgroup2 mount point listed in @mounts (/proc/self/mounts' format); -ENOENT: none */
int cgroups__mount_in(FILE *mounts, char *buf, size_t len);
/* cgroups__mount - the same, of this process's /proc/self/mounts */
int cgroups__mount(char *buf, size_t len);

/*
 * cgroups__find - the cgroup @name is: a directory under @mount, or a path
 * from the hierarchy's root ("/system.slice/nginx.service", or without its
 * first slash). Its id into @id, its path from the root into @path. A
 * negative errno and a one-line reason naming the fix in @msg.
 */
int cgroups__find(const char *mount, const char *name, uint64_t *id, char *path, size_t pathlen, char *msg,
		  size_t msglen);

/* a cgroup as the reports name it */
struct cgroup_name {
	uint64_t id;			/* 0: a free slot */
	char path[CGROUP_PATH_LEN];	/* from the hierarchy's root; "" when it could not be found */
	char label[CGROUP_LABEL_LEN];	/* cgroup_label__of() of the path; "unknown" when it could not be found */
	uint64_t hash;			/* series_cap__hash() of the label */
};

struct cgroup_names_stats {
	uint64_t named;			/* ids named by their handle */
	uint64_t walked;		/* ... by a walk of the hierarchy */
	uint64_t unknown;		/* ids that could not be named: gone before it, or not in the hierarchy */
	uint64_t walks;
	uint64_t forgotten;		/* times the table was full and started afresh */
};

struct cgroup_names;

/* cgroup_names__new - ids named under the cgroup2 hierarchy at @mount ("": none is mounted: every id unknown) */
struct cgroup_names *cgroup_names__new(const char *mount);
void cgroup_names__free(struct cgroup_names *n);
/*
 * cgroup_names__get - @id's name, looked up the first time it is met
 * (CGROUP_ROOT_ID is "/"); it stays until cgroup_names__tidy(). An id met
 * while the table is full is "unknown" until then.
 */
const struct cgroup_name *cgroup_names__get(struct cgroup_names *n, uint64_t id);
/*
 * cgroup_names__gone - has cgroup @id been removed? Asked of the kernel by
 * its handle; false where that cannot be told (no hierarchy, handles
 * refused) and for the root
 */
bool cgroup_names__gone(struct cgroup_names *n, uint64_t id);
/* cgroup_names__tidy - past half full, forget every name: they are looked up again as they come */
void cgroup_names__tidy(struct cgroup_names *n);
void cgroup_names__stats(const struct cgroup_names *n, struct cgroup_names_stats *out);

#endif /* WAKEPROBE_CGROUPS_H */
