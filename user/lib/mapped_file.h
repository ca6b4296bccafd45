/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mapped_file.h - the file a process maps, opened as that very file and
 * never by a path the process could have changed since.
 *
 * wakeprobe reads, as root, the objects the processes it traces map, and
 * a traced process is not to be trusted with what root opens: it can
 * delete its binary and put a FIFO, a device or a symbolic link to a
 * root-only file where its path was, and a process in a container names
 * its files by paths of its own mount namespace. So a mapping's file is
 * reached through /proc/PID/map_files/START-END, the kernel's link to the
 * mapping's own file whatever its path names now (proc(5); following it
 * takes CAP_SYS_ADMIN, or CAP_CHECKPOINT_RESTORE from Linux 5.9 on:
 * "proc: allow access in init userns for map_files with
 * CAP_CHECKPOINT_RESTORE"), and only where that cannot be opened (the
 * mapping gone since its maps line was read), through the process's own
 * root, /proc/PID/root/PATH, resolved inside it and without following a
 * symbolic link at its end. Either way it is opened O_PATH first, which
 * runs no driver's or file system's open, and kept only when it is a
 * regular file with the device and inode the maps line gave, on a file
 * system whose server is not a process (FUSE's could stall an open for
 * ever). Reading it takes a second open through /proc/self/fd, of that
 * very inode, non-blocking.
 */
#ifndef WAKEPROBE_MAPPED_FILE_H
#define WAKEPROBE_MAPPED_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* a file mapping of a process, as its maps line says it (proc_maps.h) */
struct mapped_file {
	pid_t pid;
	uint64_t start, end;
	unsigned int dev_major, dev_minor;
	uint64_t inode;
	const char *path;	/* as the kernel wrote it: " (deleted)" at the end of a file unlinked */
};

/* the mounts of each mount namespace a pin looked into, read once and again when one is not found */
struct mount_tables;

struct mount_tables *mount_tables__new(void);
void mount_tables__free(struct mount_tables *mt);

/*
 * mapped_file__pin - an O_PATH descriptor of @f's file, checked as the
 * header says, or a negative errno and in *@why a few words on what was
 * wrong: "not a regular file", "not the file mapped", "on a FUSE file
 * system", "gone before it was opened"... (static text). -EPERM without
 * the capability map_files asks, and no fallback.
 */
int mapped_file__pin(struct mount_tables *mt, const struct mapped_file *f, const char **why);

/*
 * mapped_file__open - a descriptor to read the file @pinned holds:
 * O_RDONLY | O_NONBLOCK | O_CLOEXEC, reopened through /proc/self/fd/N,
 * which reaches that inode without a path lookup. Or a negative errno.
 */
int mapped_file__open(int pinned);

/* one line of a /proc/PID/mountinfo (proc(5)) */
struct mount_entry {
	int id;
	unsigned int dev_major, dev_minor;	/* the superblock's device, as maps lines number files */
	char fstype[32];
	char *mount_point;	/* unescaped, allocated: free it */
};

/* mount_entry__parse - @line into @out: 0, -EINVAL when it is no mountinfo line, -ENOMEM */
int mount_entry__parse(const char *line, struct mount_entry *out);

/* mount_entry__is_fuse - is @fstype FUSE's ("fuse", "fuseblk", "fuse.sshfs"...), whose server is a process? */
bool mount_entry__is_fuse(const char *fstype);

#endif /* WAKEPROBE_MAPPED_FILE_H */
