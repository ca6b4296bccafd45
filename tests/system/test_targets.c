// SPDX-License-Identifier: GPL-2.0
/*
 * test_targets.c - what attach mode checks about its targets before it
 * loads anything: processes, threads, the dead, other users' processes,
 * and commands found as execvp() would.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "collector.h"
#include "targets.h"

TestSuite(targets, .timeout = 30);

Test(targets, this_process_can_be_traced)
{
	char msg[256] = "";

	cr_assert_eq(targets__check_pid(getpid(), msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(targets__alive(getpid()));
}

static pthread_barrier_t started, done;
static pid_t thread_tid;

static void *thread_main(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	pthread_barrier_wait(&started);
	pthread_barrier_wait(&done);
	return NULL;
}

Test(targets, a_thread_is_refused_with_its_process_and_tid_named)
{
	char msg[256] = "", want[128];
	pthread_t t;

	pthread_barrier_init(&started, NULL, 2);
	pthread_barrier_init(&done, NULL, 2);
	cr_assert_eq(pthread_create(&t, NULL, thread_main, NULL), 0);
	pthread_barrier_wait(&started);
	cr_assert_eq(targets__check_pid(thread_tid, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "--pid %d is a thread of process %d: give --pid %d --tid %d", thread_tid,
		 getpid(), getpid(), thread_tid);
	cr_assert_str_eq(msg, want);
	pthread_barrier_wait(&done);
	pthread_join(t, NULL);
}

/* zombie_child - a child that has exited and is not reaped yet */
static pid_t zombie_child(void)
{
	pid_t pid = fork();
	char path[64], state = 0;

	cr_assert_geq(pid, 0);
	if (!pid)
		_exit(0);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 500 && state != 'Z'; i++) {
		struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
		FILE *f = fopen(path, "r");

		cr_assert_not_null(f);
		cr_assert_eq(fscanf(f, "%*d (%*[^)]) %c", &state), 1);
		fclose(f);
		nanosleep(&ts, NULL);
	}
	cr_assert_eq(state, 'Z', "the child never became a zombie");
	return pid;
}

Test(targets, a_process_that_exited_or_never_was_is_refused)
{
	char msg[256] = "", want[128];
	pid_t pid = zombie_child();

	cr_assert_not(targets__alive(pid));
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), -ESRCH);
	snprintf(want, sizeof(want), "--pid %d has exited: there is nothing left to trace", pid);
	cr_assert_str_eq(msg, want);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	/* reaped, the pid names nothing (until the kernel hands it out again, which it does last) */
	cr_assert_not(targets__alive(pid));
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), -ESRCH);
	snprintf(want, sizeof(want), "--pid %d: no such process (ps -e lists the running ones)", pid);
	cr_assert_str_eq(msg, want);
}

/*
 * kthreadd, pid 2, is a kernel thread; a process named like one, with
 * parentheses and spaces in its name, is a process.
 */
Test(targets, a_kernel_thread_is_refused_and_a_process_named_like_one_is_not)
{
	char msg[256] = "";
	int go[2], status;
	pid_t pid;
	char byte;

	cr_assert_eq(targets__check_pid(2, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "--pid 2 is a kernel thread (kthreadd): wakeprobe traces user processes"), "%s", msg);
	cr_assert_eq(pipe(go), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		close(go[1]);
		prctl(PR_SET_NAME, "k) S 1 (kworker");
		_exit(read(go[0], &byte, 1) < 0);
	}
	close(go[0]);
	for (int i = 0; i < 500; i++) {
		struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
		char path[64], line[256] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		cr_assert_not_null(f);
		cr_assert_not_null(fgets(line, sizeof(line), f));
		fclose(f);
		if (strstr(line, "(k) S 1 (kworker)"))
			break;
		nanosleep(&ts, NULL);
	}
	cr_assert_eq(targets__check_pid(pid, msg, sizeof(msg)), 0, "%s", msg);
	close(go[1]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
}

/* Another user's process: the check runs in a child that became nobody, against init. */
Test(targets, another_users_process_is_refused_naming_root)
{
	int status;
	pid_t pid;

	if (geteuid())
		cr_skip_test("needs root to become another user");
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		char msg[256] = "";

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (targets__check_pid(1, msg, sizeof(msg)) != -EPERM)
			_exit(11);
		_exit(strcmp(msg, "--pid 1 belongs to another user, and signalling it takes CAP_KILL, which this "
			     "process lacks: run wakeprobe as root (sudo)") ? 12 : 0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_assert_eq(WEXITSTATUS(status), 0, "child's check failed at step %d", WEXITSTATUS(status));
}

Test(targets, wakeprobe_here_sees_the_kernels_pids)
{
	char msg[256] = "";

	/* the tests run in the machine's own pid namespace, as wakeprobe must */
	cr_assert_eq(collector__check_pid_namespace(true, msg, sizeof(msg)), 0, "%s", msg);
}

Test(targets, a_command_is_found_as_execvp_finds_it)
{
	char path[4096];

	cr_assert_eq(targets__find_command("sh", path, sizeof(path)), 0);
	cr_assert(strlen(path) > 3 && !strcmp(path + strlen(path) - 3, "/sh"), "%s", path);
	cr_assert_eq(access(path, X_OK), 0);
	cr_assert_eq(targets__find_command("/bin/sh", path, sizeof(path)), 0);
	cr_assert_str_eq(path, "/bin/sh");
	cr_assert_eq(targets__find_command("wakeprobe-no-such-command", path, sizeof(path)), -ENOENT);
	cr_assert_eq(targets__find_command("/etc/passwd", path, sizeof(path)), -EACCES);
	cr_assert_eq(targets__find_command("/etc", path, sizeof(path)), -EACCES);
	cr_assert_eq(targets__find_command("", path, sizeof(path)), -ENOENT);
}
