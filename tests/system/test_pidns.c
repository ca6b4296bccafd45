// SPDX-License-Identifier: GPL-2.0
/*
 * test_pidns.c - wakeprobe run inside a pid namespace of its own, as in a
 * container without the host's pids (unshare -fp --mount-proc): workload
 * mode, a command, and a --pid of a process started in the namespace are
 * each measured, with the namespace's pids in the report, and a task of
 * the host's is named as one (host:PID). What wakeprobe would start into a
 * namespace it is not in (unshare -p without -f) is refused in one line,
 * exit 2. Making a pid namespace needs root, tracing root and BTF;
 * elsewhere the tests skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "helpers.h"
#include "targets.h"

TestSuite(pidns, .timeout = 60);

/* unshare_path - unshare(1) into @buf; skips the calling test where it cannot make a pid namespace */
static const char *unshare_path(char *buf, size_t len)
{
	skip_unless_traceable();
	if (geteuid())
		cr_skip_test("needs root to make a pid namespace");
	if (targets__find_command("unshare", buf, len))
		cr_skip_test("needs unshare(1), from util-linux, to make a pid namespace");
	return buf;
}

/* run_unshared - @args (a program's path first) run by unshare(1) with @how, its options */
static void run_unshared(struct wakeprobe_ran *r, char *const how[], char *const args[])
{
	char unshare[PATH_MAX];
	char *argv[32] = { (char *)unshare_path(unshare, sizeof(unshare)) };
	int n = 1;

	for (int i = 0; how[i] && n < 8; i++)
		argv[n++] = how[i];
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	program_run(r, argv);
}

/* run_in_pid_namespace - @args in a new pid namespace with its own /proc: a container's view */
static void run_in_pid_namespace(struct wakeprobe_ran *r, char *const args[])
{
	char *how[] = { "-fp", "--mount-proc", NULL };

	run_unshared(r, how, args);
}

/* ran - @r ran to exit 0 */
static void ran(const struct wakeprobe_ran *r)
{
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "status 0x%x; stderr: %s", r->status, r->err);
}

/* In the namespace wakeprobe is pid 1 and its workload pid 2, the waker thread. */
Test(pidns, a_workload_in_a_pid_namespace_is_measured_with_its_pids)
{
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--samples", "100", "--cpus", "0,1", NULL };
	static struct wakeprobe_ran r;
	char *complete;

	run_in_pid_namespace(&r, args);
	ran(&r);
	complete = strstr(r.out, "100 sent, ");
	cr_assert_not_null(complete, "%s", r.out);
	cr_assert_geq(atoi(complete + strlen("100 sent, ")), 90, "the kernel's events were not found:\n%s", r.out);
	cr_assert(strstr(r.out, "waker tid 2 on CPU"), "not the namespace's tids:\n%s", r.out);
}

/*
 * unshare -p without a fork: wakeprobe keeps the kernel's pids, but the
 * workload it starts would be pid 1 of a new namespace, whose pids
 * wakeprobe does not see: refused, one line naming the fix, nothing run
 */
Test(pidns, a_workload_started_into_a_pid_namespace_of_its_own_is_refused)
{
	char *how[] = { "-p", NULL };
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--samples", "100", "--cpus", "0,1", NULL };
	static struct wakeprobe_ran r;

	/*
	 * The ASan build's leak check stops the process at exit with a tracer
	 * it forks, which here would be the new namespace's first process and
	 * never come back: wakeprobe spins. The check is not this test's.
	 */
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
	run_unshared(&r, how, args);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "status 0x%x; stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, "wakeprobe: ") == r.err, "stderr: '%s'", r.err);
	cr_assert(strstr(r.err, "run it as unshare -fp --mount-proc wakeprobe"), "no fix named: '%s'", r.err);
	cr_assert_eq(strchr(r.err, '\n'), strrchr(r.err, '\n'), "one line: '%s'", r.err);
	cr_assert_str_eq(r.out, "");
}

/* ... and the command wakeprobe starts pid 2 */
Test(pidns, a_command_in_a_pid_namespace_is_measured_with_its_pids)
{
	char path[PATH_MAX];
	char *args[] = { (char *)wakeprobe_path(), "--", (char *)workload_path("eventfd", path, sizeof(path)),
			 "--samples", "300", "--interval-us", "1000", "--cpus", "0,1", NULL };
	static struct wakeprobe_ran r;
	long n;

	run_in_pid_namespace(&r, args);
	ran(&r);
	cr_assert(strstr(r.out, "(pid 2, "), "not the namespace's pid:\n%s", r.out);
	n = report_pair_count(r.out, "eventfd write -> read");
	cr_assert(n >= 250 && n <= 300, "%ld eventfd wakeups of 300:\n%s", n, r.out);
}

/*
 * A process the namespace's shell starts, pid 2 there, given as --pid 2:
 * the host's pid 2 is kthreadd, which wakeprobe must not take instead.
 * The shell's status is wakeprobe's. wakeprobe attaches while the workload
 * runs, which it must do within 0.7 s of its 1 s for the 300 wakeups asked:
 * under emulation, where loading the programs alone takes longer, the
 * workload runs 10 s.
 */
Test(pidns, a_pid_in_a_pid_namespace_is_measured_with_its_pids)
{
	char path[PATH_MAX];
	char *args[] = { "/bin/sh", "-c",
			 "\"$0\" --samples $2 --interval-us 1000 --cpus 0,1 >/dev/null & "
			 "\"$1\" --pid $!; s=$?; wait; exit $s",
			 (char *)workload_path("eventfd", path, sizeof(path)), (char *)wakeprobe_path(),
			 machine_emulated() ? "10000" : "1000", NULL };
	static struct wakeprobe_ran r;
	long n;

	run_in_pid_namespace(&r, args);
	ran(&r);
	cr_assert(strstr(r.out, "attached to pid 2\n"), "not the namespace's pid:\n%s", r.out);
	n = report_pair_count(r.out, "eventfd write -> read");
	cr_assert(n >= 300 && n <= atol(args[5]), "%ld eventfd wakeups of %s:\n%s", n, args[5], r.out);
}

/*
 * A task of the host's, outside the namespace, holds the wakee's CPU: it has
 * no pid there, and the report names it by its comm and its host pid
 * (host:PID), not by a number the namespace could mistake for one of its own
 */
Test(pidns, a_host_task_holding_the_cpu_is_named_as_the_hosts)
{
	/* every wakeup explained: 300 are too few for the kernel engine's running p99 to pick the slow ones */
	char *args[] = { (char *)wakeprobe_path(), "--workload", "eventfd", "--samples", "300", "--cpus", "0,1",
			 "--outliers", "5", "--engine", "full", NULL };
	static struct wakeprobe_ran r;
	char want[64];
	pid_t hog;

	skip_unless_traceable();
	hog = spawn_hog("wp-host-hog", 1);
	run_in_pid_namespace(&r, args);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	ran(&r);
	snprintf(want, sizeof(want), "'wp-host-hog' pid host:%d", (int)hog);
	cr_assert(strstr(r.out, want), "the hog is not named '%s':\n%s", want, r.out);
}

/*
 * Threads that end: a thread's struct pid is detached before its last
 * switch-out, which must still carry the tid its switch-in did, or the
 * census of a throughput workload loses the thread's slice (it said "41
 * times a thread left a CPU it was not seen to enter" and counted no
 * consumer's CPU time). Every consumer's end is counted: 20, and in one
 * sanitized CI run 21, which is not understood yet; what this holds is
 * that none is lost.
 */
Test(pidns, threads_that_end_in_a_pid_namespace_keep_their_tids_to_the_last_switch)
{
	char *args[] = { (char *)wakeprobe_path(), "--workload", "burst-queue", "--mode", "cond", "--", "--tasks",
			 "100", NULL };
	static struct wakeprobe_ran r;
	const char *row;

	run_in_pid_namespace(&r, args);
	ran(&r);
	cr_assert_null(strstr(r.out, "not seen to enter"), "a switch-out lost its thread:\n%s", r.out);
	row = strstr(r.out, "\n  bq-consumer ");
	cr_assert_not_null(row, "%s", r.out);
	cr_assert_geq(atoi(row + strlen("\n  bq-consumer ")), 20, "the 20 consumers did not end:\n%s", r.out);
}
