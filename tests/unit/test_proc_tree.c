// SPDX-License-Identifier: GPL-2.0
/*
 * test_proc_tree.c - what a started command left, found in /proc: a real
 * tree of sleeping processes forked here is found whole and nothing else,
 * an orphan that came to this process (its subreaper) is found by when it
 * started, a process that exited is marked a zombie, and a command name
 * holding ") " does not throw the fields off. Every process forked is
 * killed and reaped in the fixture: nothing is left running.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "proc_tree.h"

/* what each process of the tree reports once it is up */
struct hello {
	pid_t pid;
	pid_t ppid;
	char name[16];
};

#define MAX_PROCS	8
/* a command name that reads like the fields after it: the fields count from the last ')' */
#define ODD_NAME	"x) Z 1 2 (y"

static int report[2] = { -1, -1 };
static struct hello procs[MAX_PROCS];
static size_t nr_procs;

static void setup(void)
{
	/* the orphans of the tree come to this process, to be found and reaped */
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	cr_assert_eq(pipe(report), 0);
	nr_procs = 0;
}

static void teardown(void)
{
	struct proc_tree t;

	for (size_t i = 0; i < nr_procs; i++)
		kill(procs[i].pid, SIGKILL);
	/* as a subreaper, every process of the tree ends up here: ECHILD once all are reaped */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	close(report[0]);
	close(report[1]);
	proc_tree__find(&t, 0, 0);
	cr_assert_eq(t.n, 0, "%zu processes left after the test", t.n);
}

TestSuite(proc_tree, .init = setup, .fini = teardown);

/*
 * spawn - fork a process named @name that runs @body (which may spawn its
 * own), then says hello and sleeps until it is killed; its pid, -1 if
 * fork failed. alarm() ends it should the fixture never run.
 */
static pid_t spawn(const char *name, void (*body)(void))
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_NAME, name);
	if (body)
		body();
	struct hello h = { .pid = getpid(), .ppid = getppid() };

	snprintf(h.name, sizeof(h.name), "%s", name);
	if (write(report[1], &h, sizeof(h)) != sizeof(h))
		_exit(1);
	alarm(30);
	for (;;)
		pause();
}

static void a_body(void)
{
	if (spawn(ODD_NAME, NULL) < 0)
		_exit(1);
}

static void root_body(void)
{
	if (spawn("wp-a", a_body) < 0 || spawn("wp-b", NULL) < 0)
		_exit(1);
}

/* await - the hellos of @n more processes */
static void await(size_t n)
{
	cr_assert_leq(nr_procs + n, MAX_PROCS);
	while (n--) {
		ssize_t got = read(report[0], &procs[nr_procs], sizeof(procs[0]));

		cr_assert_eq(got, (ssize_t)sizeof(procs[0]), "a process of the tree did not say hello");
		nr_procs++;
	}
}

/* pid_of - the process of the tree named @name */
static pid_t pid_of(const char *name)
{
	for (size_t i = 0; i < nr_procs; i++)
		if (!strcmp(procs[i].name, name))
			return procs[i].pid;
	cr_assert_fail("no process named %s", name);
	return -1;
}

/* start_tree - wp-root, its children wp-a and wp-b, and wp-a's child ODD_NAME, all up */
static pid_t start_tree(void)
{
	pid_t root = spawn("wp-root", root_body);

	cr_assert_gt(root, 0);
	await(4);
	cr_assert_eq(pid_of("wp-root"), root);
	return root;
}

/* index_in - where @pid is in @t, -1 if it is not */
static int index_in(const struct proc_tree *t, pid_t pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pids[i] == pid)
			return (int)i;
	return -1;
}

/* expect_exactly - @t holds the processes named in @names and no other; how it marked each in @zombie */
static void expect_exactly(const struct proc_tree *t, const char *const names[], size_t n, bool zombie[])
{
	cr_assert_eq(t->n, n, "found %zu processes, want %zu", t->n, n);
	for (size_t i = 0; i < n; i++) {
		int at = index_in(t, pid_of(names[i]));

		cr_assert_geq(at, 0, "%s (pid %d) was not found", names[i], pid_of(names[i]));
		zombie[i] = t->zombie[at];
	}
}

/* wait_state - until /proc says @pid is in state @state (a second at most) */
static void wait_state(pid_t pid, char state)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	char path[32], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == state)
			return;
		nanosleep(&ms, NULL);
	}
	cr_assert_fail("pid %d never reached state %c", pid, state);
}

Test(proc_tree, the_root_and_every_descendant_are_found_and_nothing_else)
{
	static const char *const all[] = { "wp-root", "wp-a", "wp-b", ODD_NAME };
	pid_t root = start_tree();
	bool zombie[4];
	struct proc_tree t;

	proc_tree__find(&t, root, ULLONG_MAX);
	expect_exactly(&t, all, 4, zombie);
	cr_assert_eq(t.pids[0], root, "the root comes first");
	for (size_t i = 0; i < 4; i++)
		cr_assert_not(zombie[i], "%s is running", all[i]);

	/* a subtree: wp-a and its child, not its parent or its sibling */
	proc_tree__find(&t, pid_of("wp-a"), ULLONG_MAX);
	expect_exactly(&t, (const char *const[]){ "wp-a", ODD_NAME }, 2, zombie);
	/* a leaf: itself */
	proc_tree__find(&t, pid_of(ODD_NAME), ULLONG_MAX);
	expect_exactly(&t, (const char *const[]){ ODD_NAME }, 1, zombie);
}

Test(proc_tree, this_process_is_never_in_what_it_finds)
{
	static const char *const all[] = { "wp-root", "wp-a", "wp-b", ODD_NAME };
	bool zombie[4];
	struct proc_tree t;

	start_tree();
	/* as the root: its descendants are the tree, and it is not among them */
	proc_tree__find(&t, getpid(), ULLONG_MAX);
	cr_assert_eq(t.n, 0, "the root's children count only as adopted ones, since the time given");
	proc_tree__find(&t, getpid(), 0);
	expect_exactly(&t, all, 4, zombie);
	cr_assert_eq(index_in(&t, getpid()), -1);
}

Test(proc_tree, with_no_root_the_children_started_since_the_time_given_are_found_with_theirs)
{
	static const char *const all[] = { "wp-root", "wp-a", "wp-b", ODD_NAME };
	unsigned long long started;
	pid_t root = start_tree();
	bool zombie[4];
	struct proc_tree t;

	started = proc_tree__start_ticks(root);
	cr_assert_gt(started, 0);
	proc_tree__find(&t, 0, started);
	expect_exactly(&t, all, 4, zombie);
	/* started before the time given: another command's, not this one's */
	proc_tree__find(&t, 0, started + 1);
	cr_assert_eq(t.n, 0, "found %zu", t.n);
}

Test(proc_tree, an_orphan_adopted_here_is_found_by_when_it_started)
{
	static const char *const rest[] = { "wp-root", "wp-a", "wp-b" };
	pid_t root = start_tree(), a = pid_of("wp-a"), odd = pid_of(ODD_NAME);
	unsigned long long started = proc_tree__start_ticks(root);
	bool zombie[4];
	struct proc_tree t;

	/* wp-a dies: its parent does not reap it, and its child comes to this process */
	cr_assert_eq(kill(a, SIGKILL), 0);
	wait_state(a, 'Z');
	proc_tree__find(&t, root, ULLONG_MAX);
	expect_exactly(&t, rest, 3, zombie);
	cr_assert_not(zombie[0]);
	cr_assert(zombie[1], "wp-a exited and is not reaped: nothing to signal");
	cr_assert_not(zombie[2]);

	/* the orphan started after the command: it is the command's */
	proc_tree__find(&t, root, started);
	expect_exactly(&t, (const char *const[]){ "wp-root", "wp-a", "wp-b", ODD_NAME }, 4, zombie);
	cr_assert_not(zombie[3]);
	cr_assert_geq(index_in(&t, odd), 0);
}

Test(proc_tree, a_root_that_exited_is_found_as_a_zombie)
{
	siginfo_t si;
	struct proc_tree t;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(0);
	/* exited, not reaped */
	cr_assert_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	proc_tree__find(&t, pid, ULLONG_MAX);
	cr_assert_eq(t.n, 1);
	cr_assert_eq(t.pids[0], pid);
	cr_assert(t.zombie[0]);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	/* reaped: gone */
	proc_tree__find(&t, pid, ULLONG_MAX);
	cr_assert_eq(t.n, 0);
	cr_assert_eq(proc_tree__start_ticks(pid), 0, "a process that is gone has no start");
}

Test(proc_tree, start_ticks_follow_the_order_the_processes_started_in)
{
	unsigned long long self = proc_tree__start_ticks(getpid());
	pid_t root = start_tree();
	unsigned long long r = proc_tree__start_ticks(root);
	unsigned long long a = proc_tree__start_ticks(pid_of("wp-a"));
	unsigned long long odd = proc_tree__start_ticks(pid_of(ODD_NAME));
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec up;

	cr_assert_gt(self, 0);
	cr_assert_leq(self, r);
	cr_assert_leq(r, a);
	cr_assert_leq(a, odd);
	/* started by now: no later than the time since boot */
	cr_assert_eq(clock_gettime(CLOCK_BOOTTIME, &up), 0);
	cr_assert_leq(odd, (unsigned long long)(up.tv_sec + 1) * (unsigned long long)hz);
	cr_assert_eq(proc_tree__start_ticks(-1), 0);
}
