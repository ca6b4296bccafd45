// SPDX-License-Identifier: GPL-2.0
/*
 * test_sandbox.c - the symbolizer's child (sandbox.h) with a serve
 * function of the tests': a request answered, a descriptor riding along,
 * what the child holds (no privilege, none of the parent's files), and a
 * child that crashes, stalls, answers too much or is killed, each a
 * request failed with what happened, the next one served by a new child.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "process_ended.h"
#include "sandbox.h"

TestSuite(sandbox, .timeout = 30);

#define ANSWER_MAX 64

/*
 * serve - the tests' requests: "echo TEXT", "read" (the descriptor's
 * first bytes), "open PATH" (its errno, 0 when it opened), "crash",
 * "stall", "spin", "too-long", "fail"
 */
static int serve(void *ctx, const void *request, size_t len, int fd, void *answer, size_t room)
{
	char text[128];
	ssize_t n;
	int got;

	(void)ctx;
	snprintf(text, sizeof(text), "%.*s", (int)len, (const char *)request);
	if (!strncmp(text, "echo ", 5)) {
		snprintf(answer, room, "%s", text + 5);
		return (int)strlen(text + 5);
	}
	if (!strcmp(text, "read")) {
		n = fd >= 0 ? pread(fd, answer, room, 0) : -1;
		if (fd >= 0)
			close(fd);
		return n < 0 ? -EBADF : (int)n;
	}
	if (!strncmp(text, "open ", 5)) {
		got = open(text + 5, O_RDONLY | O_CLOEXEC);
		snprintf(answer, room, "%d", got < 0 ? errno : 0);
		if (got >= 0)
			close(got);
		return (int)strlen(answer);
	}
	if (!strcmp(text, "crash"))
		raise(SIGSEGV);
	if (!strcmp(text, "stall"))
		for (;;)
			pause();
	if (!strcmp(text, "spin"))
		for (volatile unsigned long i = 0;; i++)
			;
	if (!strcmp(text, "too-long"))
		return (int)room + 1;
	if (fd >= 0)
		close(fd);
	return -ENOENT;
}

static struct sandbox *new_sandbox(void)
{
	struct sandbox_opts opts = {
		.serve = serve,
		.request_max = 128,
		.answer_max = ANSWER_MAX,
		.name = "sandbox-test",
	};
	struct sandbox *sb = sandbox__new(&opts);

	cr_assert_not_null(sb);
	return sb;
}

/* ask - @text asked, its answer into @answer (terminated): the call's return */
static int ask(struct sandbox *sb, const char *text, int fd, char answer[ANSWER_MAX + 1], int timeout_ms)
{
	int n = sandbox__call(sb, text, strlen(text), fd, answer, ANSWER_MAX, timeout_ms);

	answer[n > 0 ? n : 0] = '\0';
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

Test(sandbox, a_request_is_answered_and_a_descriptor_rides_along)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1], file[] = "/tmp/wakeprobe-sandbox-XXXXXX";
	int fd = mkstemp(file);

	cr_assert_eq(sandbox__pid(sb), 0, "no child before the first request");
	cr_assert_eq(ask(sb, "echo hello", -1, answer, 5000), 5);
	cr_assert_str_eq(answer, "hello");
	cr_assert_gt(sandbox__pid(sb), 0);
	cr_assert_eq(sandbox__generation(sb), 1);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, "from a file", 11), 11);
	cr_assert_eq(ask(sb, "read", fd, answer, 5000), 11);
	cr_assert_str_eq(answer, "from a file");
	/* the caller keeps its own */
	cr_assert_eq(fcntl(fd, F_GETFD) >= 0, true);
	close(fd);
	unlink(file);
	cr_assert_eq(ask(sb, "nothing known", -1, answer, 5000), -ENOENT, "the child's own error comes back");
	cr_assert_eq(sandbox__generation(sb), 1, "one child served them all");
	sandbox__free(sb);
}

/*
 * the child holds its socket and /dev/null as 0, 1 and 2, nothing of the
 * parent's, and no memory shared with it; no capability; nobody's uid when its parent is root; no new
 * privileges, not dumpable, no core, no process, no file written
 */
Test(sandbox, the_child_holds_no_privilege_and_none_of_the_parents_files)
{
	struct sandbox *sb = new_sandbox();
	struct sandbox_identity id;
	char answer[ANSWER_MAX + 1];
	int held[2];
	void *shared;
	uid_t uid;
	gid_t gid;

	cr_assert_eq(pipe(held), 0, "a descriptor of the parent's, not close-on-exec");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(shared, MAP_FAILED, "memory of the parent's a fork shares");
	cr_assert_eq(sandbox__identity(sb, &id, 5000), 0);
	cr_assert_eq(id.open_fds, 4, "0, 1, 2 and its socket: %d", id.open_fds);
	cr_assert_eq(id.shared_mappings, 0, "%d shared mappings", id.shared_mappings);
	cr_assert_eq(id.cap_effective, 0);
	cr_assert_eq(id.cap_permitted, 0);
	cr_assert_eq(id.cap_inheritable, 0);
	cr_assert_eq(id.no_new_privs, 1);
	cr_assert_eq(id.dumpable, 0);
	cr_assert_eq(id.rlimit_core, 0);
	cr_assert_eq(id.rlimit_nproc, 0);
	cr_assert_eq(id.rlimit_fsize, 0);
	cr_assert_eq(id.rlimit_cpu, SANDBOX_CPU_SECONDS);
	sandbox__child_ids(sb, &uid, &gid);
	if (geteuid() == 0) {
		cr_assert_eq(id.uid, uid);
		cr_assert_eq(id.euid, uid);
		cr_assert_eq(id.suid, uid);
		cr_assert_eq(id.gid, gid);
		cr_assert_eq(id.egid, gid);
		cr_assert_eq(id.groups, 0);
		/*
		 * a root-only file (mode 0600, root's) is not the child's to read: one
		 * of the test's own, in /tmp (a guest of the vmtest suite reads /etc
		 * through its host's root, where /etc/shadow opens for anyone)
		 */
		char secret[] = "/tmp/wakeprobe-sandbox-secret.XXXXXX", request[64];
		int fd = mkstemp(secret);

		cr_assert_geq(fd, 0);
		cr_assert_eq(fchmod(fd, 0600), 0);
		close(fd);
		cr_assert_eq(ask(sb, "open /etc/passwd", -1, answer, 5000), 1, "everyone's: %s", answer);
		cr_assert_str_eq(answer, "0");
		snprintf(request, sizeof(request), "open %s", secret);
		cr_assert_gt(ask(sb, request, -1, answer, 5000), 0);
		unlink(secret);
		cr_assert_str_eq(answer, "13", "EACCES on a root-only file, as nobody");
	} else {
		cr_assert_eq(id.uid, getuid());
	}
	close(held[0]);
	close(held[1]);
	munmap(shared, 4096);
	sandbox__free(sb);
}

/* a crash ends the request with -ECHILD and how the child ended; the next request has a child of its own */
Test(sandbox, a_child_that_crashes_fails_its_request_and_the_next_has_a_new_one)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];
	int status;

	cr_assert_eq(ask(sb, "echo first", -1, answer, 5000), 5);
	cr_assert_eq(ask(sb, "crash", -1, answer, 5000), -ECHILD);
	status = sandbox__last_end(sb);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "ended by SIGSEGV: 0x%x", status);
	cr_assert_eq(sandbox__pid(sb), 0);
	cr_assert_eq(ask(sb, "echo again", -1, answer, 5000), 5);
	cr_assert_str_eq(answer, "again");
	cr_assert_eq(sandbox__generation(sb), 2);
	sandbox__free(sb);
}

/* one that never answers, asleep or on the CPU, is killed once its time is up */
Test(sandbox, a_child_that_takes_too_long_is_killed_when_its_time_is_up)
{
	static const char *const stalls[] = { "stall", "spin" };
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];

	for (size_t i = 0; i < 2; i++) {
		double t0 = now_s();
		pid_t pid;

		cr_assert_eq(ask(sb, "echo up", -1, answer, 5000), 2);
		pid = sandbox__pid(sb);
		cr_assert_eq(ask(sb, stalls[i], -1, answer, 300), -ETIMEDOUT, "%s", stalls[i]);
		cr_assert_geq(now_s() - t0, 0.3);
		cr_assert_lt(now_s() - t0, 2.5, "%s: killed within its time, and reaped", stalls[i]);
		cr_assert(process_ended(pid), "the child killed");
		cr_assert_eq(sandbox__pid(sb), 0);
	}
	cr_assert_eq(ask(sb, "echo after", -1, answer, 5000), 5);
	sandbox__free(sb);
}

static volatile sig_atomic_t stop_flag;

static void *raise_flag(void *unused)
{
	(void)unused;
	usleep(200 * 1000);
	stop_flag = 1;
	return NULL;
}

/* a signal handler's flag ends a wait at once, the child killed; with it up, nothing is asked */
Test(sandbox, a_raised_flag_ends_the_wait_and_the_child)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];
	pthread_t thread;
	double t0;
	pid_t pid;

	stop_flag = 0;
	sandbox__interrupt_on(sb, &stop_flag);
	cr_assert_eq(ask(sb, "echo up", -1, answer, 5000), 2);
	pid = sandbox__pid(sb);
	cr_assert_eq(pthread_create(&thread, NULL, raise_flag, NULL), 0);
	t0 = now_s();
	cr_assert_eq(ask(sb, "stall", -1, answer, 20000), -EINTR);
	cr_assert_lt(now_s() - t0, 2.0, "ended by the flag, not the timeout");
	pthread_join(thread, NULL);
	cr_assert(process_ended(pid));
	cr_assert_eq(ask(sb, "echo more", -1, answer, 5000), -EINTR);
	cr_assert_eq(sandbox__pid(sb), 0, "no child started with the flag up");
	sandbox__free(sb);
}

/* a child killed between requests (by anyone of its uid) is replaced, the request not lost */
Test(sandbox, a_child_killed_while_idle_is_replaced_for_the_next_request)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];
	pid_t pid;

	cr_assert_eq(ask(sb, "echo up", -1, answer, 5000), 2);
	pid = sandbox__pid(sb);
	cr_assert_eq(kill(pid, SIGKILL), 0);
	for (int i = 0; i < 2000 && !process_ended(pid); i++)
		usleep(1000);
	cr_assert_eq(ask(sb, "echo next", -1, answer, 5000), 4);
	cr_assert_str_eq(answer, "next");
	cr_assert_neq(sandbox__pid(sb), pid);
	sandbox__free(sb);
}

/* an answer longer than the room said is no answer: the child says so itself */
Test(sandbox, an_answer_longer_than_its_room_is_refused)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];

	cr_assert_eq(ask(sb, "too-long", -1, answer, 5000), -EIO);
	cr_assert_eq(ask(sb, "echo fine", -1, answer, 5000), 4);
	sandbox__free(sb);
}

/* a child that keeps crashing is started SANDBOX_STARTS times, then no more */
Test(sandbox, a_child_that_keeps_crashing_is_not_started_for_ever)
{
	struct sandbox *sb = new_sandbox();
	char answer[ANSWER_MAX + 1];

	for (int i = 0; i < SANDBOX_STARTS; i++)
		cr_assert_eq(ask(sb, "crash", -1, answer, 5000), -ECHILD, "start %d", i + 1);
	cr_assert_eq(ask(sb, "echo no more", -1, answer, 5000), -EAGAIN);
	cr_assert_eq(sandbox__generation(sb), SANDBOX_STARTS);
	sandbox__free(sb);
}
