// SPDX-License-Identifier: GPL-2.0
/*
 * test_targets.c - attach mode's targets checked against /proc before
 * anything is loaded: this process and a child of it can be traced, the
 * child once exited is refused until reaped and then names no process, nor
 * do pids that never were; a command is found as execvp() finds it, on
 * $PATH, its empty entries the current directory, past files that cannot
 * run. Threads, kernel threads and other users' processes are in
 * system/test_targets.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "targets.h"

/* ---------------------------------------------------------------- --pid */

Test(targets, this_process_and_a_running_child_of_it_can_be_traced)
{
	char msg[256] = "untouched";
	int go[2], status;
	char byte = 0;
	pid_t pid;

	cr_assert_eq(targets__check_pid(getpid(), msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(msg, "untouched", "no message when all is well");
	cr_assert(targets__alive(getpid()));
	cr_assert_eq(pipe(go), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		close(go[1]);
		_exit(read(go[0], &byte, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(targets__alive(pid));
	cr_assert_eq(write(go[1], &byte, 1), 1);
	close(go[1]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

Test(targets, a_child_that_exited_is_refused_until_reaped_and_then_names_no_process)
{
	char msg[256] = "", want[128];
	siginfo_t info;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (!pid)
		_exit(3);
	/* wait for its exit and leave it a zombie */
	cr_assert_eq(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0);
	cr_assert_not(targets__alive(pid), "a zombie counts as gone");
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), -ESRCH);
	snprintf(want, sizeof(want), "--pid %d has exited: there is nothing left to trace", pid);
	cr_assert_str_eq(msg, want);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	cr_assert_not(targets__alive(pid));
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), -ESRCH);
	snprintf(want, sizeof(want), "--pid %d: no such process (ps -e lists the running ones)", pid);
	cr_assert_str_eq(msg, want);
}

struct nopid_case {
	pid_t pid;
	char want[80];
};

static struct nopid_case nopids[] = {
	{ 0, "--pid 0: no such process (ps -e lists the running ones)" },
	{ -1, "--pid -1: no such process (ps -e lists the running ones)" },
	{ INT_MAX, "--pid 2147483647: no such process (ps -e lists the running ones)" },
	/* past the kernel's limit on pids (PID_MAX_LIMIT) */
	{ 4194305, "--pid 4194305: no such process (ps -e lists the running ones)" },
};

ParameterizedTestParameters(targets, a_pid_that_never_was_is_no_such_process)
{
	return cr_make_param_array(struct nopid_case, nopids, sizeof(nopids) / sizeof(nopids[0]));
}

ParameterizedTest(struct nopid_case *c, targets, a_pid_that_never_was_is_no_such_process)
{
	char msg[256] = "";

	cr_assert_eq(targets__check_pid(c->pid, msg, sizeof(msg)), -ESRCH);
	cr_assert_str_eq(msg, c->want);
	cr_assert_not(targets__alive(c->pid));
}

/* ---------------------------------------------------------------- commands on $PATH */

/*
 * A directory with a "tool" in each of its subdirectories: one that runs in
 * a/ and b/ and cwd/ (the test's working directory), one that does not in
 * noexec/, a directory named tool in dir/; none/ does not exist.
 */
static char root[64];

static void make_tool(const char *sub, mode_t mode)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, sub);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/tool", root, sub);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	cr_assert_eq(chmod(path, mode), 0);
}

static void make_root(void)
{
	char path[128];

	snprintf(root, sizeof(root), "/tmp/wakeprobe-targets-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	make_tool("a", 0755);
	make_tool("b", 0755);
	make_tool("cwd", 0755);
	make_tool("noexec", 0644);
	snprintf(path, sizeof(path), "%s/dir", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/dir/tool", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/cwd", root);
	cr_assert_eq(chdir(path), 0);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* the test may have changed PATH: no rm(1) here */
static void remove_root(void)
{
	cr_assert_eq(chdir("/"), 0);
	cr_assert_eq(nftw(root, remove_one, 8, FTW_DEPTH | FTW_PHYS), 0);
}

TestSuite(targets_command, .init = make_root, .fini = remove_root);

/* @ stands for the directory above */
struct command_case {
	char what[48];
	char path_env[64];
	char name[32];
	int err;
	char want[48];		/* the path found, when err is 0 */
};

static struct command_case commands[] = {
	{ "the first on PATH", "@/a:@/b", "tool", 0, "@/a/tool" },
	{ "past a file that cannot run", "@/noexec:@/b", "tool", 0, "@/b/tool" },
	{ "past a directory of its name", "@/dir:@/b", "tool", 0, "@/b/tool" },
	{ "past a directory that is not there", "@/none:@/a", "tool", 0, "@/a/tool" },
	{ "an empty entry first is the current directory", ":@/a", "tool", 0, "./tool" },
	{ "an empty entry last is the current directory", "@/none:", "tool", 0, "./tool" },
	{ "an empty PATH is the current directory", "", "tool", 0, "./tool" },
	{ "only files that cannot run", "@/noexec:@/dir", "tool", -EACCES, "" },
	{ "one that cannot run, then none", "@/noexec:@/none", "tool", -EACCES, "" },
	{ "none anywhere", "@/none:/nonexistent", "tool", -ENOENT, "" },
	{ "an empty name", "@/a", "", -ENOENT, "" },
	{ "a name with a slash is not looked for", "@/a", "./tool", 0, "./tool" },
	{ "... nor when it is not there", "@/a", "sub/tool", -ENOENT, "" },
	{ "... nor when it cannot run", "@/a", "../noexec/tool", -EACCES, "" },
};

/* at - @s with each @ the directory of the tools */
static void at(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		n += (size_t)snprintf(out + n, len - n, *s == '@' ? "%s" : "%.1s", *s == '@' ? root : s);
	out[n] = '\0';
}

ParameterizedTestParameters(targets_command, a_command_is_found_as_execvp_would_find_it)
{
	return cr_make_param_array(struct command_case, commands, sizeof(commands) / sizeof(commands[0]));
}

ParameterizedTest(struct command_case *c, targets_command, a_command_is_found_as_execvp_would_find_it)
{
	char env[256], want[256], path[4096] = "";

	at(c->path_env, env, sizeof(env));
	cr_assert_eq(setenv("PATH", env, 1), 0);
	cr_assert_eq(targets__find_command(c->name, path, sizeof(path)), c->err, "%s: %s", c->what, path);
	if (!c->err) {
		at(c->want, want, sizeof(want));
		cr_assert_str_eq(path, want, "%s", c->what);
	}
}

/* execvp's default with PATH unset: /bin, then /usr/bin */
Test(targets_command, with_no_path_a_command_is_looked_for_in_bin_then_usr_bin)
{
	char path[4096] = "";

	if (access("/bin/sh", X_OK))
		cr_skip_test("no /bin/sh here");
	cr_assert_eq(unsetenv("PATH"), 0);
	cr_assert_eq(targets__find_command("sh", path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/bin/sh");
	cr_assert_eq(targets__find_command("tool", path, sizeof(path)), -ENOENT, "the current directory is not on it");
}
