// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfile.c - an output file: two names of one file are told apart
 * from two files, the first failed write's errno is kept and named, a
 * failed file leaves nothing, and a replaced file keeps its mode.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "outfile.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/wakeprobe-outfile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(outfile, .init = make_dir, .fini = remove_dir);

static const char *at(const char *name, char buf[256])
{
	snprintf(buf, 256, "%s/%s", dir, name);
	return buf;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fclose(f);
}

Test(outfile, names_of_one_file_are_the_same_and_of_two_files_are_not)
{
	char a[256], b[256], c[256], d[256];

	/* neither exists: the resolved directory and the name */
	cr_expect(outfile__same(at("x.json", a), at("./x.json", b)));
	cr_expect_not(outfile__same(at("x.json", a), at("y.json", b)));
	cr_assert_eq(mkdir(at("sub", c), 0700), 0);
	cr_expect(outfile__same(at("sub/../x.json", a), at("x.json", b)));
	/* both exist: the device and inode, through a symbolic and a hard link */
	touch(at("in.wpr", a));
	cr_assert_eq(symlink("in.wpr", at("soft.wpr", b)), 0);
	cr_assert_eq(link(a, at("hard.wpr", c)), 0);
	cr_expect(outfile__same(a, b));
	cr_expect(outfile__same(a, c));
	cr_expect(outfile__same(b, c));
	touch(at("other.wpr", d));
	cr_expect_not(outfile__same(a, d));
	/* one exists and the other not: two files */
	cr_expect_not(outfile__same(a, at("new.wpr", d)));
}

/* write_past - @n bytes into an outfile at @path, then commit it: its result, the message in @msg */
static int write_past(const char *path, size_t n, char msg[256])
{
	struct outfile o;
	char err[256];

	cr_assert_eq(outfile__open(&o, "--csv", path, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < n; i++)
		fputc('x', o.f);
	msg[0] = '\0';
	return outfile__commit(&o, msg, 256);
}

Test(outfile, a_failed_write_is_named_by_its_errno_and_leaves_nothing)
{
	struct rlimit small = { 4096, 4096 };
	char path[256], msg[256], ls[512];
	struct stat st;
	int err;

	/* a file may grow to 4 KiB: the write past it fails with EFBIG, not a plain I/O error */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	err = write_past(at("big.csv", path), 65536, msg);
	cr_expect_eq(err, -EFBIG, "the commit says %d (%s)", err, strerror(-err));
	cr_expect(strstr(msg, "--csv ") && strstr(msg, "writing it failed: File too large"), "message: %s", msg);
	cr_expect_neq(stat(path, &st), 0, "no file is left");
	snprintf(ls, sizeof(ls), "test -z \"$(ls -A '%s')\"", dir);
	cr_expect_eq(system(ls), 0, "no temporary file is left");
	/* what fits is written, and named as written */
	err = write_past(path, 1000, msg);
	cr_expect_eq(err, 0, "%s", msg);
	cr_expect(stat(path, &st) == 0 && st.st_size == 1000);
}

Test(outfile, a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask)
{
	char path[256], fresh[256], msg[256];
	struct outfile o;
	struct stat st;

	touch(at("private.json", path));
	cr_assert_eq(chmod(path, 0600), 0);
	umask(022);
	cr_assert_eq(outfile__open(&o, "--json", path, msg, sizeof(msg)), 0, "%s", msg);
	fputs("{}\n", o.f);
	cr_assert_eq(outfile__commit(&o, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0600, "replaced: %o", st.st_mode & 07777);
	cr_expect_eq(st.st_size, 3);

	cr_assert_eq(outfile__open(&o, "--json", at("fresh.json", fresh), msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outfile__commit(&o, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(stat(fresh, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0644, "new under umask 022: %o", st.st_mode & 07777);
	/* never writable by others, whatever the umask allows */
	umask(0);
	cr_assert_eq(outfile__open(&o, "--json", at("open.json", fresh), msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outfile__commit(&o, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(stat(fresh, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0644, "new under umask 0: %o", st.st_mode & 07777);
	umask(022);
}
