// SPDX-License-Identifier: GPL-2.0
/*
 * make install and make uninstall, into a temporary DESTDIR with a PREFIX:
 * what lands where, that the installed tool runs its workloads from the
 * installed libexec directory, that the unit and the sysusers.d file of
 * its user are put where systemd reads them, and that uninstall takes away
 * exactly what install put.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

#define PREFIX "/opt/wakeprobe-test"

static char top[] = "/tmp/wakeprobe-install-XXXXXX";
static char destdir[64];	/* top/stage */
static char root[128];		/* what PREFIX is under DESTDIR */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void make_top(void)
{
	cr_assert_not_null(mkdtemp(top));
	snprintf(destdir, sizeof(destdir), "%s/stage", top);
	snprintf(root, sizeof(root), "%s%s", destdir, PREFIX);
}

static void remove_top(void)
{
	nftw(top, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(install, .init = make_top, .fini = remove_top, .timeout = 300);

/*
 * make_target - make @target (install, uninstall) with this DESTDIR and
 * PREFIX, from the source tree of these tests and into the build directory
 * of the wakeprobe under test, so nothing is built again
 */
static void make_target(const char *target)
{
	static struct wakeprobe_ran r;
	char makefile[PATH_MAX], src[PATH_MAX], build[PATH_MAX], output[PATH_MAX + 16], sanitize[32];
	char dest_arg[128], probe[PATH_MAX + 32];
	const char *san = getenv("WAKEPROBE_SANITIZED");

	if (!realpath(tests_file("../Makefile", makefile, sizeof(makefile)), src))
		cr_skip_test("needs the source tree beside the tests: %s is not there", makefile);
	dirname(src);
	snprintf(build, sizeof(build), "%s", wakeprobe_path());
	dirname(build);
	/* $(OBJ)/wakeprobe: a build directory holds its workloads too */
	snprintf(probe, sizeof(probe), "%s/workloads/eventfd", build);
	if (access(probe, X_OK))
		cr_skip_test("WAKEPROBE is not in a build directory with its workloads (%s)", probe);
	snprintf(output, sizeof(output), "OUTPUT=%s", build);
	snprintf(sanitize, sizeof(sanitize), "SANITIZE=%s", san && *san != '0' ? san : "");
	snprintf(dest_arg, sizeof(dest_arg), "DESTDIR=%s", destdir);
	/* the test may run under make test: its jobserver and flags are not this make's */
	program_run(&r, (char *[]){ "/usr/bin/env", "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", "make",
				    "--no-print-directory", "-C", src, output, sanitize, dest_arg,
				    "PREFIX=" PREFIX, (char *)target, NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "make %s: status 0x%x\n%s%s", target,
		  r.status, r.out, r.err);
}

/* installed - where PREFIX/@rel was put under DESTDIR */
static const char *installed(const char *rel)
{
	static char path[2][PATH_MAX];
	static unsigned int which;
	char *p = path[which++ & 1];

	snprintf(p, PATH_MAX, "%s/%s", root, rel);
	return p;
}

/* run_installed - the installed wakeprobe with @args, as a person runs it: no WAKEPROBE_WORKLOAD_DIR */
static void run_installed(struct wakeprobe_ran *r, char *const args[])
{
	char *argv[40] = { "/usr/bin/env", "-u", "WAKEPROBE_WORKLOAD_DIR", (char *)installed("bin/wakeprobe") };
	size_t n = 4;

	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	program_run(r, argv);
}

static void expect_file(const char *path, mode_t mode)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s was not installed", path);
	cr_expect(S_ISREG(st.st_mode), "%s is not a file", path);
	cr_expect_eq(st.st_mode & 07777, mode, "%s has mode %o, not %o", path, st.st_mode & 07777, mode);
}

/* expect_same - the file at @path holds what tests/@source does */
static void expect_same(const char *path, const char *source)
{
	char src[PATH_MAX];
	size_t a, b;
	char *want = read_file(tests_file(source, src, sizeof(src)), &a), *got = read_file(path, &b);

	cr_expect(a == b && !memcmp(want, got, a), "%s is not %s", path, src);
	free(want);
	free(got);
}

Test(install, puts_the_tool_its_workloads_the_man_page_and_the_completion_under_prefix)
{
	static struct names workloads;
	static struct wakeprobe_ran built, r;
	char rel[128];

	listed_workloads(&workloads, NULL);
	cr_assert_geq(workloads.n, 10);
	make_target("install");
	expect_file(installed("bin/wakeprobe"), 0755);
	for (size_t i = 0; i < workloads.n; i++) {
		snprintf(rel, sizeof(rel), "libexec/wakeprobe/%s", workloads.name[i]);
		expect_file(installed(rel), 0755);
	}
	expect_file(installed("share/man/man8/wakeprobe.8"), 0644);
	expect_same(installed("share/man/man8/wakeprobe.8"), "../docs/wakeprobe.8");
	expect_file(installed("share/bash-completion/completions/wakeprobe"), 0644);
	expect_same(installed("share/bash-completion/completions/wakeprobe"), "../completions/wakeprobe");
	/* the unit, and the user it runs as, for systemd-sysusers (a staged tree's is made by its package) */
	expect_file(installed("lib/systemd/system/wakeprobe.service"), 0644);
	expect_file(installed("lib/sysusers.d/wakeprobe.conf"), 0644);
	expect_same(installed("lib/sysusers.d/wakeprobe.conf"), "../dist/wakeprobe.sysusers");

	/* the installed tool is the one built */
	wakeprobe_run(&built, (char *[]){ "--version", NULL });
	run_installed(&r, (char *[]){ "--version", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "--version: 0x%x %s", r.status, r.err);
	cr_assert_str_eq(r.out, built.out);
	wakeprobe_run(&built, (char *[]){ "--list-workloads", NULL });
	run_installed(&r, (char *[]){ "--list-workloads", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "--list-workloads: 0x%x %s", r.status, r.err);
	cr_assert_str_eq(r.out, built.out);
	/* ... and finds its workloads in PREFIX/libexec/wakeprobe, wherever PREFIX is: no root needed untraced */
	run_installed(&r, (char *[]){ "--workload", "eventfd", "--no-trace", "--samples", "50", "--interval-us", "100",
				      NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "an untraced run: 0x%x %s", r.status, r.err);
	cr_assert(strstr(r.out, "wakeprobe 0.1.0: eventfd"), "%s", r.out);

	make_target("uninstall");
}

Test(install, the_installed_tool_traces_a_workload_from_its_libexec_dir)
{
	static struct wakeprobe_ran r;

	skip_unless_traceable();
	make_target("install");
	run_installed(&r, (char *[]){ "--workload", "eventfd", "--samples", "200", "--interval-us", "200", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "a traced run: 0x%x %s", r.status, r.err);
	cr_assert(strstr(r.err, "wakeprobe: tracing eventfd: 200 wakeups"), "%s", r.err);
	/* a traced report: the kernel's phases are there */
	cr_assert(strstr(r.out, "runq_wait"), "%s", r.out);
	cr_assert(strstr(r.out, "notify_kernel"), "%s", r.out);
	make_target("uninstall");
}

/* leftovers - every file and link under @dir, one path a line, into @buf */
static char *leftover_buf;
static size_t leftover_len, leftover_used;

static int note_leftover(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_F || flag == FTW_SL || flag == FTW_SLN)
		leftover_used += (size_t)snprintf(leftover_buf + leftover_used, leftover_len - leftover_used, "%s\n",
						  path);
	return leftover_used >= leftover_len;
}

static void leftovers(const char *dir, char *buf, size_t len)
{
	leftover_buf = buf;
	leftover_len = len;
	leftover_used = 0;
	buf[0] = '\0';
	cr_assert_geq(nftw(dir, note_leftover, 16, FTW_PHYS), 0, "cannot walk %s", dir);
}

Test(install, uninstall_takes_away_exactly_what_install_put)
{
	char left[4096], want[1024];
	struct stat st;
	FILE *f;

	make_target("install");
	/* what others put in the shared directories stays */
	f = fopen(installed("bin/other-tool"), "w");
	cr_assert_not_null(f);
	fclose(f);
	f = fopen(installed("share/man/man8/other.8"), "w");
	cr_assert_not_null(f);
	fclose(f);

	make_target("uninstall");
	leftovers(destdir, left, sizeof(left));
	snprintf(want, sizeof(want), "%s\n%s\n", installed("bin/other-tool"), installed("share/man/man8/other.8"));
	/* nftw walks a directory's entries in readdir order: compare as sets of two */
	cr_assert_eq(strlen(left), strlen(want), "left behind:\n%s", left);
	cr_assert(strstr(left, installed("bin/other-tool")), "uninstall took another's file:\n%s", left);
	cr_assert(strstr(left, installed("share/man/man8/other.8")), "uninstall took another's file:\n%s", left);
	cr_assert_neq(stat(installed("libexec/wakeprobe"), &st), 0, "libexec/wakeprobe is still there");

	/* a second uninstall finds nothing to do, and says nothing wrong */
	make_target("uninstall");
}
