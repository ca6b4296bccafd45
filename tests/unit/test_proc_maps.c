// SPDX-License-Identifier: GPL-2.0
/*
 * test_proc_maps.c - a /proc/PID/maps line read whole and strictly: its
 * device and inode kept, a path with spaces or past any buffer's length
 * kept whole, what is not the kernel's line format refused
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "proc_maps.h"

TestSuite(proc_maps);

Test(proc_maps, a_file_mappings_line_gives_its_range_offset_device_inode_and_path)
{
	struct proc_maps_line l;

	cr_assert_eq(proc_maps__parse("7fcfe1df8000-7fcfe1f4e000 r-xp 00026000 fe:01 326269"
				      "                     /usr/lib/x86_64-linux-gnu/libc.so.6", &l), 0);
	cr_assert_eq(l.start, 0x7fcfe1df8000);
	cr_assert_eq(l.end, 0x7fcfe1f4e000);
	cr_assert_str_eq(l.perms, "r-xp");
	cr_assert_eq(l.offset, 0x26000);
	cr_assert_eq(l.dev_major, 0xfe);
	cr_assert_eq(l.dev_minor, 0x01);
	cr_assert_eq(l.inode, 326269);
	cr_assert_str_eq(l.path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
}

Test(proc_maps, anonymous_memory_has_no_path_and_the_kernels_names_are_paths_too)
{
	struct proc_maps_line l;

	/* the kernel ends the fields with a space even when no name follows */
	cr_assert_eq(proc_maps__parse("7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ", &l), 0);
	cr_assert_eq(l.inode, 0);
	cr_assert_str_eq(l.path, "");
	cr_assert_eq(proc_maps__parse("7f0000000000-7f0000001000 rw-p 00000000 00:00 0", &l), 0, "a line cut at its inode");
	cr_assert_str_eq(l.path, "");
	cr_assert_eq(proc_maps__parse("7ffe00000000-7ffe00021000 rw-p 00000000 00:00 0                          [stack]",
				      &l), 0);
	cr_assert_str_eq(l.path, "[stack]");
	/* a device of 12 bits and a minor of 20, as the kernel numbers them */
	cr_assert_eq(proc_maps__parse("1000-2000 r--s 00000000 fff:fffff 1 /dev/shm/x", &l), 0);
	cr_assert_eq(l.dev_major, 0xfff);
	cr_assert_eq(l.dev_minor, 0xfffff);
}

/* a file's name may hold spaces, and " (deleted)" is the kernel's, not the name's: kept as written */
Test(proc_maps, a_path_keeps_its_spaces_and_the_kernels_deleted_mark)
{
	struct proc_maps_line l;

	cr_assert_eq(proc_maps__parse("55d0a0000000-55d0a0001000 r-xp 00001000 fe:01 77 /tmp/my app  (deleted)", &l), 0);
	cr_assert_str_eq(l.path, "/tmp/my app  (deleted)");
}

/*
 * a path of 600 bytes, its tail written as a maps line of its own: one
 * mapping, its path whole (fgets() into 512 bytes read the tail as a
 * second mapping, of a file of the process's choosing)
 */
Test(proc_maps, a_path_past_any_buffer_is_read_whole_and_its_tail_is_no_line_of_its_own)
{
	char line[1024], path[700];
	struct proc_maps_line l;

	memset(path, 0, sizeof(path));
	strcpy(path, "/tmp/");
	memset(path + 5, 'a', 600 - 5 - strlen("7f0000000000-7f0000100000 r-xp 00000000 fe:01 9 /etc/shadow"));
	strcat(path, "7f0000000000-7f0000100000 r-xp 00000000 fe:01 9 /etc/shadow");
	snprintf(line, sizeof(line), "55d0a0000000-55d0a0001000 r-xp 00001000 fe:01 77 %s", path);
	cr_assert_gt(strlen(line), 511);
	cr_assert_eq(proc_maps__parse(line, &l), 0);
	cr_assert_str_eq(l.path, path);
	cr_assert_eq(l.start, 0x55d0a0000000);
}

Test(proc_maps, what_is_not_a_maps_line_is_refused)
{
	static const char *const bad[] = {
		"",
		"garbage",
		"7f00-7e00 r-xp 00000000 fe:01 1 /x",		/* ends before it starts */
		"7f00-7f10 r-x 00000000 fe:01 1 /x",		/* three permissions */
		"7f00-7f10 r-xp 0000000g fe:01 1 /x",		/* not hex */
		"7f00-7f10 r-xp 00000000 fe01 1 /x",		/* no colon */
		"7f00-7f10 r-xp 00000000 1000:01 1 /x",		/* a major past 12 bits */
		"7f00-7f10 r-xp 00000000 fe:01 -1 /x",		/* a sign */
		"7f00-7f10 r-xp 00000000 fe:01 99999999999999999999999 /x",	/* past 64 bits */
		"0x7f00-7f10 r-xp 00000000 fe:01 1 /x",
		"7f00 7f10 r-xp 00000000 fe:01 1 /x",
	};
	struct proc_maps_line l;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(proc_maps__parse(bad[i], &l), -EINVAL, "'%s'", bad[i]);
}
