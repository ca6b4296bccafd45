/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc_maps.h - one line of a process's /proc/PID/maps, read whole: its
 * range, permissions, offset, device, inode and path (proc(5)). The
 * device and inode say which file a mapping holds whatever its path names
 * by the time it is read; the path is the kernel's, up to the line's end,
 * never cut.
 */
#ifndef WAKEPROBE_PROC_MAPS_H
#define WAKEPROBE_PROC_MAPS_H

#include <stdint.h>

struct proc_maps_line {
	uint64_t start, end;		/* the range, end excluded */
	char perms[5];			/* "r-xp" */
	uint64_t offset;		/* into the file */
	unsigned int dev_major, dev_minor;	/* the file's device as the kernel numbers it (its superblock's) */
	uint64_t inode;			/* 0: no file */
	const char *path;		/* into the line parsed: "" for none */
};

/*
 * proc_maps__parse - @line, one line of a maps file without its newline,
 * into @out: 0, or -EINVAL when it is not a maps line (the kernel writes
 * "START-END PERMS OFFSET MAJOR:MINOR INODE", then padding and the path
 * for a named mapping; fs/proc/task_mmu.c, show_map_vma()). The path is
 * what follows the padding, spaces inside or at its end kept; a newline
 * in a file's name is written as "\012" by the kernel (seq_file_path()),
 * so one line is one mapping.
 */
int proc_maps__parse(const char *line, struct proc_maps_line *out);

#endif /* WAKEPROBE_PROC_MAPS_H */
