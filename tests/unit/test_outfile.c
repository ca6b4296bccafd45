// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfile.c - an output file: two names of one file are told apart
 * from two files, the first failed write's errno is kept and named, a
 * failed file leaves nothing; a replaced file keeps its owner and mode when
 * root or the invoking user owns it, and is ours and private when another
 * user does; a new file is 0600 whatever the umask, unless told otherwise.
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

/* replace - write "{}\n" to @path through an outfile, and commit it; its stat after, in @st */
static void replace(const char *path, struct stat *st)
{
	char msg[256];
	struct outfile o;

	cr_assert_eq(outfile__open(&o, "--json", path, msg, sizeof(msg)), 0, "%s", msg);
	fputs("{}\n", o.f);
	cr_assert_eq(outfile__commit(&o, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(stat(path, st), 0);
	cr_expect_eq(st->st_size, 3, "%s was not replaced", path);
}

/* plant - a file at @path owned by @uid:@gid with @mode, as someone else may have left it */
static void plant(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	touch(path);
	cr_assert_eq(chown(path, uid, gid), 0, "chown %s: %s", path, strerror(errno));
	cr_assert_eq(chmod(path, mode), 0);
}

#define NOBODY	65534

Test(outfile, a_file_another_user_planted_is_replaced_by_one_of_ours_that_only_we_read)
{
	char path[256];
	struct stat st;

	if (geteuid())
		cr_skip_test("only root can plant another user's file");
	/* sudo or not, nobody is not the invoking user */
	unsetenv("SUDO_UID");
	plant(at("planted.json", path), NOBODY, NOBODY, 0666);
	umask(0);
	replace(path, &st);
	cr_expect(st.st_uid == geteuid() && st.st_gid == getegid(), "the report is %d:%d's", st.st_uid, st.st_gid);
	cr_expect_eq(st.st_mode & 07777, 0600, "and its mode %o", st.st_mode & 07777);

	setenv("SUDO_UID", "1000", 1);
	plant(path, NOBODY, NOBODY, 0644);
	replace(path, &st);
	cr_expect_eq(st.st_uid, geteuid(), "under sudo for 1000, nobody's file became %d's", st.st_uid);
	cr_expect_eq(st.st_mode & 07777, 0600, "%o", st.st_mode & 07777);
	umask(022);
}

Test(outfile, a_file_of_root_or_of_the_invoking_user_keeps_its_owner_and_mode)
{
	char path[256];
	struct stat st;

	if (geteuid())
		cr_skip_test("only root can give a file an owner");
	/* root's, readable by a reader's group: node_exporter reads a textfile so */
	plant(at("root.prom", path), 0, NOBODY, 0640);
	umask(077);
	replace(path, &st);
	cr_expect(st.st_uid == 0 && st.st_gid == NOBODY, "root's file became %d:%d's", st.st_uid, st.st_gid);
	cr_expect_eq(st.st_mode & 07777, 0640, "%o", st.st_mode & 07777);

	/* the user sudo ran it for: their file stays theirs, with their mode */
	setenv("SUDO_UID", "4242", 1);
	plant(at("mine.json", path), 4242, 4343, 0604);
	replace(path, &st);
	cr_expect(st.st_uid == 4242 && st.st_gid == 4343, "the invoking user's file became %d:%d's", st.st_uid,
		  st.st_gid);
	cr_expect_eq(st.st_mode & 07777, 0604, "%o", st.st_mode & 07777);
	/* a SUDO_UID that is no number names nobody */
	setenv("SUDO_UID", "4242x", 1);
	plant(path, 4242, 4343, 0604);
	replace(path, &st);
	cr_expect_eq(st.st_uid, geteuid(), "a garbled SUDO_UID kept 4242's file theirs");
	unsetenv("SUDO_UID");
	umask(022);
}

Test(outfile, a_replaced_file_of_ours_keeps_its_mode)
{
	char path[256];
	struct stat st;

	touch(at("private.json", path));
	cr_assert_eq(chmod(path, 0640), 0);
	umask(077);
	replace(path, &st);
	cr_expect_eq(st.st_mode & 07777, 0640, "replaced: %o", st.st_mode & 07777);
	cr_expect_eq(st.st_uid, geteuid());
	umask(022);
}

Test(outfile, a_new_file_is_0600_whatever_the_umask_unless_told_otherwise)
{
	static const mode_t umasks[] = { 022, 0, 077, 002 };
	char path[256], name[64];
	struct stat st;

	for (size_t i = 0; i < sizeof(umasks) / sizeof(umasks[0]); i++) {
		umask(umasks[i]);
		snprintf(name, sizeof(name), "new-%zu.json", i);
		replace(at(name, path), &st);
		cr_expect_eq(st.st_mode & 07777, 0600, "new under umask %03o: %o", umasks[i], st.st_mode & 07777);
	}
	/* told: as given, the umask not applied */
	umask(077);
	cr_assert_eq(outfile__set_new_mode(0644), 0);
	replace(at("told.prom", path), &st);
	cr_expect_eq(st.st_mode & 07777, 0644, "told 0644: %o", st.st_mode & 07777);
	cr_assert_eq(outfile__set_new_mode(0), 0);
	replace(at("none.prom", path), &st);
	cr_expect_eq(st.st_mode & 07777, 0, "told 0: %o", st.st_mode & 07777);
	/* never writable by others, no set-id bits: refused, and the mode in force stays */
	cr_expect_eq(outfile__set_new_mode(0666), -EINVAL);
	cr_expect_eq(outfile__set_new_mode(0602), -EINVAL);
	cr_expect_eq(outfile__set_new_mode(04600), -EINVAL);
	cr_expect_eq(outfile__set_new_mode(01000), -EINVAL);
	replace(at("still.prom", path), &st);
	cr_expect_eq(st.st_mode & 07777, 0, "after a refused mode: %o", st.st_mode & 07777);
	cr_assert_eq(outfile__set_new_mode(OUTFILE_NEW_MODE), 0);
	replace(at("again.json", path), &st);
	cr_expect_eq(st.st_mode & 07777, 0600, "%o", st.st_mode & 07777);
	umask(022);
}
