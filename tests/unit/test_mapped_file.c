// SPDX-License-Identifier: GPL-2.0
/*
 * test_mapped_file.c - a mapping's file opened as the file it maps
 * (mapped_file.h): this process's own program pinned through map_files,
 * what is not the file mapped, a FIFO or a link where its path was,
 * turned away without waiting; and a mountinfo line's mount, device,
 * type and mount point
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "mapped_file.h"
#include "proc_maps.h"

TestSuite(mapped_file, .timeout = 30);

/* own_text - this process's program's code mapping, as its maps line says it, its path into @path */
static struct mapped_file own_text(char path[PATH_MAX])
{
	char self[PATH_MAX], *line = NULL;
	struct mapped_file f = { 0 };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t room = 0;
	FILE *maps = fopen("/proc/self/maps", "re");

	cr_assert(n > 0 && maps);
	self[n] = '\0';
	while (!f.inode && getline(&line, &room, maps) > 0) {
		struct proc_maps_line l;

		line[strcspn(line, "\n")] = '\0';
		if (proc_maps__parse(line, &l) || strcmp(l.path, self) || l.perms[2] != 'x')
			continue;
		f = (struct mapped_file){ getpid(), l.start, l.end, l.dev_major, l.dev_minor, l.inode, NULL };
		snprintf(path, PATH_MAX, "%s", l.path);
	}
	free(line);
	fclose(maps);
	cr_assert_neq(f.inode, 0, "no code mapping of %s", self);
	f.path = path;
	return f;
}

/* root, through map_files: the program's own inode, which reads as that file does */
Test(mapped_file, a_live_mapping_is_pinned_and_read_as_the_file_it_maps)
{
	struct mount_tables *mt = mount_tables__new();
	char path[PATH_MAX], head[4];
	const char *why = NULL;
	struct mapped_file f = own_text(path);
	struct stat st;
	int pinned, fd;

	if (geteuid())
		cr_skip_test("map_files is root's (CAP_SYS_ADMIN)");
	pinned = mapped_file__pin(mt, &f, &why);
	cr_assert_geq(pinned, 0, "%s", why);
	cr_assert_eq(fcntl(pinned, F_GETFL) & O_PATH, O_PATH, "held O_PATH");
	fd = mapped_file__open(pinned);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert_eq(st.st_ino, f.inode);
	cr_assert_eq(fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK), O_RDONLY | O_NONBLOCK);
	cr_assert_eq(pread(fd, head, 4, 0), 4);
	cr_assert_eq(memcmp(head, "\177ELF", 4), 0);
	close(fd);
	close(pinned);
	mount_tables__free(mt);
}

/* a mapping said to be of another inode than the one mapped there is not that file */
Test(mapped_file, another_inode_than_the_maps_line_said_is_not_the_file_mapped)
{
	struct mount_tables *mt = mount_tables__new();
	char path[PATH_MAX];
	const char *why = NULL;
	struct mapped_file f = own_text(path);

	f.inode++;
	cr_assert_lt(mapped_file__pin(mt, &f, &why), 0);
	cr_assert_str_eq(why, "not the file mapped");
	mount_tables__free(mt);
}

/*
 * a mapping gone, so its path is tried in the process's root: a FIFO
 * there is not opened to wait for a writer, nor a link followed to a
 * regular file, nor a device opened
 */
Test(mapped_file, a_fifo_a_link_or_a_device_at_a_gone_mappings_path_is_turned_away_at_once)
{
	struct mount_tables *mt = mount_tables__new();
	char dir[] = "/tmp/wakeprobe-mapped-XXXXXX", fifo[64], link[64], self[PATH_MAX];
	const char *why = NULL;
	struct mapped_file f = { .pid = getpid(), .start = 0x1000, .end = 0x2000 };
	struct stat st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_eq(readlink("/proc/self/exe", self, sizeof(self) - 1) > 0, true);
	cr_assert_eq(symlink("/proc/self/exe", link), 0);

	cr_assert_eq(stat(fifo, &st), 0);
	f = (struct mapped_file){ getpid(), 0x1000, 0x2000, major(st.st_dev), minor(st.st_dev), st.st_ino, fifo };
	cr_assert_lt(mapped_file__pin(mt, &f, &why), 0);
	cr_assert_str_eq(why, "not a regular file");

	/* the link's target is this program, a regular file of the inode said: the link is not followed */
	cr_assert_eq(stat(link, &st), 0);
	f = (struct mapped_file){ getpid(), 0x1000, 0x2000, major(st.st_dev), minor(st.st_dev), st.st_ino, link };
	cr_assert_lt(mapped_file__pin(mt, &f, &why), 0);
	cr_assert_str_eq(why, "not a regular file");

	cr_assert_eq(stat("/dev/null", &st), 0);
	f = (struct mapped_file){ getpid(), 0x1000, 0x2000, major(st.st_dev), minor(st.st_dev), st.st_ino, "/dev/null" };
	cr_assert_lt(mapped_file__pin(mt, &f, &why), 0);
	cr_assert_str_eq(why, "not a regular file");

	/* a file unlinked has no path left */
	f.path = "/tmp/app (deleted)";
	cr_assert_lt(mapped_file__pin(mt, &f, &why), 0);
	cr_assert_str_eq(why, "gone before it was opened");
	unlink(fifo);
	unlink(link);
	rmdir(dir);
	mount_tables__free(mt);
}

Test(mapped_file, a_mountinfo_line_gives_its_mount_device_type_and_mount_point_unescaped)
{
	struct mount_entry e;

	cr_assert_eq(mount_entry__parse("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard", &e), 0);
	cr_assert_eq(e.id, 27);
	cr_assert_eq(e.dev_major, 254);
	cr_assert_eq(e.dev_minor, 0);
	cr_assert_str_eq(e.fstype, "ext4");
	cr_assert_str_eq(e.mount_point, "/");
	free(e.mount_point);
	/* optional fields before the "-", and a mount point with a space in it (\040) */
	cr_assert_eq(mount_entry__parse("391 27 0:52 / /home/u/my\\040mnt rw,nosuid shared:5 master:1 - fuse.sshfs "
					"u@h:/ rw,user_id=1000", &e), 0);
	cr_assert_eq(e.id, 391);
	cr_assert_eq(e.dev_major, 0);
	cr_assert_eq(e.dev_minor, 52);
	cr_assert_str_eq(e.fstype, "fuse.sshfs");
	cr_assert_str_eq(e.mount_point, "/home/u/my mnt");
	cr_assert(mount_entry__is_fuse(e.fstype));
	free(e.mount_point);
	cr_assert_eq(mount_entry__parse("27 1 254:0 / / rw,relatime ext4 /dev/vda rw", &e), -EINVAL, "no separator");
	cr_assert_eq(mount_entry__parse("27 1 / / rw - ext4 /dev/vda rw", &e), -EINVAL, "no device");
}

Test(mapped_file, fuse_is_told_by_its_type)
{
	cr_assert(mount_entry__is_fuse("fuse"));
	cr_assert(mount_entry__is_fuse("fuseblk"));
	cr_assert(mount_entry__is_fuse("fuse.squashfuse"));
	cr_assert_not(mount_entry__is_fuse("fusectl"), "the control file system is the kernel's");
	cr_assert_not(mount_entry__is_fuse("ext4"));
	cr_assert_not(mount_entry__is_fuse("overlay"));
}
