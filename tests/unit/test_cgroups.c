// SPDX-License-Identifier: GPL-2.0
/*
 * test_cgroups.c - cgroups by id: the cgroup2 mount found in a mount
 * table (unified, hybrid, none), a cgroup named by path or by directory
 * and its id, and a hierarchy that is not kernfs (a tree made here) named
 * by a walk: every id its path and label, the root "/", an id made after
 * the walk named once a later one finds it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroups.h"

static char root[PATH_MAX];

#define CONTAINER "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void mkdirs(const char *rel)
{
	char path[PATH_MAX * 2], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s: %s", path, strerror(errno));
}

static uint64_t ino_of(const char *rel)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	cr_assert_eq(stat(path, &st), 0);
	return st.st_ino;
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/wakeprobe-cgroups-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	mkdirs("system.slice/nginx.service");
	mkdirs("docker/" CONTAINER);
	mkdirs("odd/layout");
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(cgroups, .init = setup, .fini = teardown);

static int mount_of(const char *table, char *buf, size_t len)
{
	FILE *f = fmemopen((void *)table, strlen(table), "r");
	int err;

	cr_assert_not_null(f);
	err = cgroups__mount_in(f, buf, len);
	fclose(f);
	return err;
}

Test(cgroups, the_cgroup2_mount_is_found_on_a_unified_and_on_a_hybrid_machine)
{
	char mount[PATH_MAX];

	cr_assert_eq(mount_of("proc /proc proc rw 0 0\n"
			      "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec 0 0\n", mount, sizeof(mount)), 0);
	cr_assert_str_eq(mount, "/sys/fs/cgroup");
	cr_assert_eq(mount_of("tmpfs /sys/fs/cgroup tmpfs ro 0 0\n"
			      "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n"
			      "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n", mount, sizeof(mount)), 0);
	cr_assert_str_eq(mount, "/sys/fs/cgroup/unified");
	cr_assert_eq(mount_of("cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n", mount, sizeof(mount)), -ENOENT);
}

Test(cgroups, a_cgroup_is_found_by_its_path_from_the_root_or_by_its_directory)
{
	char path[CGROUP_PATH_LEN], msg[512], dir[PATH_MAX * 2];
	uint64_t id;

	cr_assert_eq(cgroups__find(root, "/system.slice/nginx.service", &id, path, sizeof(path), msg, sizeof(msg)), 0,
		     "%s", msg);
	cr_assert_str_eq(path, "/system.slice/nginx.service");
	cr_assert_eq(id, ino_of("system.slice/nginx.service"));
	cr_assert_eq(cgroups__find(root, "system.slice", &id, path, sizeof(path), msg, sizeof(msg)), 0);
	cr_assert_str_eq(path, "/system.slice");
	snprintf(dir, sizeof(dir), "%s/docker/%s", root, CONTAINER);
	cr_assert_eq(cgroups__find(root, dir, &id, path, sizeof(path), msg, sizeof(msg)), 0);
	cr_assert_str_eq(path, "/docker/" CONTAINER);
	cr_assert_eq(cgroups__find(root, "/", &id, path, sizeof(path), msg, sizeof(msg)), 0);
	cr_assert_str_eq(path, "/");
}

Test(cgroups, a_cgroup_that_is_not_there_is_one_line_naming_the_fix)
{
	char path[CGROUP_PATH_LEN], msg[512];
	uint64_t id;

	cr_assert_eq(cgroups__find(root, "/system.slice/nope.service", &id, path, sizeof(path), msg, sizeof(msg)),
		     -ENOENT);
	cr_assert_not_null(strstr(msg, "--cgroup /system.slice/nope.service: no such cgroup"), "%s", msg);
	cr_assert_null(strchr(msg, '\n'));
	cr_assert_eq(cgroups__find("", "/x", &id, path, sizeof(path), msg, sizeof(msg)), -ENOENT);
	cr_assert_not_null(strstr(msg, "mount -t cgroup2"), "%s", msg);
	/* out of the hierarchy, by way of a parent */
	cr_assert_eq(cgroups__find(root, "../..", &id, path, sizeof(path), msg, sizeof(msg)), -EINVAL, "%s", msg);
}

Test(cgroups, a_tree_that_is_not_kernfs_is_walked_and_each_id_gets_its_path_and_label)
{
	struct cgroup_names *n = cgroup_names__new(root);
	const struct cgroup_name *c;
	struct cgroup_names_stats st;

	cr_assert_not_null(n);
	c = cgroup_names__get(n, ino_of("system.slice/nginx.service"));
	cr_assert_str_eq(c->path, "/system.slice/nginx.service");
	cr_assert_str_eq(c->label, "nginx.service");
	c = cgroup_names__get(n, ino_of("docker/" CONTAINER));
	cr_assert_str_eq(c->label, "docker:0123456789ab");
	c = cgroup_names__get(n, ino_of("odd/layout"));
	cr_assert_str_eq(c->label, "/odd/layout", "an unknown layout keeps its path");
	c = cgroup_names__get(n, CGROUP_ROOT_ID);
	cr_assert_str_eq(c->label, "/");
	cgroup_names__stats(n, &st);
	cr_assert_eq(st.walks, 1, "one walk named them all");
	cr_assert_geq(st.walked, 5);
	/* made after the walk: unknown, not kept, until a later walk finds it */
	mkdirs("system.slice/late.service");
	c = cgroup_names__get(n, ino_of("system.slice/late.service"));
	cr_assert_str_eq(c->label, "unknown");
	cgroup_names__free(n);
}

Test(cgroups, with_no_hierarchy_every_id_but_the_root_is_unknown)
{
	struct cgroup_names *n = cgroup_names__new("");

	cr_assert_str_eq(cgroup_names__get(n, 4242)->label, "unknown");
	cr_assert_str_eq(cgroup_names__get(n, CGROUP_ROOT_ID)->label, "/");
	cgroup_names__free(n);
}
