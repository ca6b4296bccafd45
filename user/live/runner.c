// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "capability.h"
#include "file_limit.h"
#include "parse.h"
#include "runner.h"

/* the runner whose child is running, for runner__kill_all_now() */
static struct runner *volatile running;

static bool is_executable(const char *path)
{
	return access(path, X_OK) == 0;
}

int runner__find_workload(const char *name, char *path, size_t len)
{
	const char *dir = getenv("WAKEPROBE_WORKLOAD_DIR");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (dir && *dir) {
		snprintf(path, len, "%s/%s", dir, name);
		return is_executable(path) ? 0 : -ENOENT;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, len, "%s/build/workloads/%s", self, name);
			if (is_executable(path))
				return 0;
			snprintf(path, len, "%s/workloads/%s", self, name);
			if (is_executable(path))
				return 0;
			/*
			 * PREFIX/bin/wakeprobe finds PREFIX/libexec/wakeprobe: a tree
			 * staged under DESTDIR, or installed with another PREFIX than
			 * the objects were compiled with, works as it lies.
			 */
			snprintf(path, len, "%s/../libexec/wakeprobe/%s", self, name);
			if (is_executable(path))
				return 0;
		}
	}
	snprintf(path, len, "%s/%s", WAKEPROBE_LIBEXECDIR, name);
	return is_executable(path) ? 0 : -ENOENT;
}

/* drop_to - become @uid:@gid with no supplementary groups, for good */
static int drop_to(uid_t uid, gid_t gid)
{
	if (setgroups(1, &gid) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return -1;
	/* no way back: a process that could regain root would not be unprivileged */
	if (setuid(0) == 0 || getuid() != uid || geteuid() != uid) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/*
 * What the child sends up its error pipe when it cannot become the
 * program: the step that failed and its errno. Eight bytes, written at
 * once: a pipe passes them whole or not at all.
 */
struct child_error {
	int step;		/* an enum child_step */
	int err;
};

enum child_step {
	STEP_EXEC,
	STEP_DROP,
	STEP_DEATH_SIGNAL,
	STEP_MOVE_PIPES,
	STEP_RING_FD,
	STEP_STDOUT,
	STEP_CAPS,
};

/* what a failed step did, as "cannot start PATH: ... failed" says it */
static const char *const step_names[] = {
	[STEP_EXEC] = NULL,
	[STEP_DROP] = "becoming the --user in the child",
	[STEP_DEATH_SIGNAL] = "setting the child's parent-death signal",
	[STEP_MOVE_PIPES] = "moving the child's pipes clear of fd 3 (F_DUPFD)",
	[STEP_RING_FD] = "putting the sample ring on the child's fd 3",
	[STEP_STDOUT] = "pointing the child's standard output at wakeprobe's file",
	[STEP_CAPS] = "keeping wakeprobe's capabilities from the command (capset, PR_CAP_AMBIENT)",
};

/* child_failed - tell the parent over @err_fd that @step failed with errno, and end */
static void __attribute__((noreturn)) child_failed(int err_fd, enum child_step step)
{
	struct child_error e = { .step = step, .err = errno };

	/* the parent gone (EPIPE), nobody is left to tell */
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* runner_child - never returns: becomes the workload or reports why not */
static void __attribute__((noreturn))
runner_child(const struct runner *r, const char *path, char *const argv[], int ring_fd, int go_fd, int err_fd,
	     pid_t parent)
{
	sigset_t none;
	int go, err;
	char byte;

	/*
	 * Named after what it is about to run, not after wakeprobe: a tracer
	 * that sees it wait for the parent, or in its execve() before the
	 * kernel renames it, names it so (PR_SET_NAME keeps 15 bytes, as exec)
	 */
	prctl(PR_SET_NAME, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	/* a run begins whole (launch__begin_whole()): wakeprobe holds its stop signals, the workload must not */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (r->drop_privileges && drop_to(r->uid, r->gid))
		child_failed(err_fd, STEP_DROP);
	/* run by a user holding capabilities for wakeprobe (a service's ambient ones), the command gets none */
	if (capability__none_to_pass_on())
		child_failed(err_fd, STEP_CAPS);
	/*
	 * wakeprobe may die without cleaning up; the workload must not outlive
	 * it. After the drop: a change of credentials clears the death signal.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		child_failed(err_fd, STEP_DEATH_SIGNAL);
	if (getppid() != parent)
		_exit(127);
	/*
	 * Keep the hand-shake pipes clear of the fd number the ring goes to.
	 * Each needs a free fd above it: a process near its fd limit (ulimit
	 * -n) has none, and says so on the pipe it has.
	 */
	go = fcntl(go_fd, F_DUPFD_CLOEXEC, RUNNER_RING_FD + 1);
	if (go < 0)
		child_failed(err_fd, STEP_MOVE_PIPES);
	err = fcntl(err_fd, F_DUPFD_CLOEXEC, RUNNER_RING_FD + 1);
	if (err < 0)
		child_failed(err_fd, STEP_MOVE_PIPES);
	if (ring_fd == RUNNER_RING_FD) {
		if (fcntl(ring_fd, F_SETFD, 0))
			child_failed(err, STEP_RING_FD);
	} else if (ring_fd >= 0 && dup2(ring_fd, RUNNER_RING_FD) < 0) {
		child_failed(err, STEP_RING_FD);
	}
	if (r->capture_stdout && dup2(r->stdout_fd, STDOUT_FILENO) < 0)
		child_failed(err, STEP_STDOUT);
	/* wait until the parent has put this pid under tracing; no byte: it gave up, and ends this one */
	if (read(go, &byte, 1) != 1)
		_exit(127);
	/* the file limit the command would have had without wakeprobe, which raised its own for --listen */
	file_limit__restore();
	execv(path, argv);
	child_failed(err, STEP_EXEC);
}

/* start_failed - @r did not start: at @step, with @err (a negative errno) */
static int start_failed(struct runner *r, const char *step, int err)
{
	r->failed = step;
	return err;
}

int runner__start(struct runner *r, const char *path, char *const argv[], int ring_fd,
		  runner_ready_fn ready, void *ctx)
{
	int go[2] = { -1, -1 }, errp[2] = { -1, -1 };
	struct child_error child;
	pid_t parent = getpid();
	char byte = 1;
	ssize_t n;
	int err = 0;

	r->pid = -1;
	r->exited = false;
	r->status = 0;
	r->failed = NULL;
	r->others_stopped = 0;
	r->signalled.n = 0;
	/* what the child's processes leave running when their parents go comes back here, to be ended */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		err = start_failed(r, "becoming the subreaper of its processes", -errno);
		goto out;
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		err = start_failed(r, "making its pipes", -errno);
		goto out;
	}
	r->pid = fork();
	if (r->pid < 0) {
		err = start_failed(r, "fork", -errno);
		goto out;
	}
	if (r->pid == 0)
		runner_child(r, path, argv, ring_fd, go[0], errp[1], parent);

	r->start_ticks = proc_tree__start_ticks(r->pid);
	running = r;
	close(errp[1]);
	errp[1] = -1;
	if (ready) {
		err = ready(r->pid, ctx);
		if (err) {
			start_failed(r, "putting it under tracing", err);
			runner__stop(r, 0);
			goto out;
		}
	}
	if (write(go[1], &byte, 1) != 1) {
		err = start_failed(r, "letting it go on", -errno);
		runner__stop(r, 0);
		goto out;
	}
	/* the error pipe closes on a successful exec (CLOEXEC) or says which step failed, and why */
	n = read(errp[0], &child, sizeof(child));
	if (n == sizeof(child)) {
		err = start_failed(r, child.step >= 0 && (size_t)child.step < sizeof(step_names) / sizeof(step_names[0]) ?
				   step_names[child.step] :
				   "an unknown step in the child", -child.err);
		runner__stop(r, 0);
	}
out:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	if (errp[0] >= 0)
		close(errp[0]);
	if (errp[1] >= 0)
		close(errp[1]);
	return err;
}

void runner__describe_start(const struct runner *r, const char *path, const char *why, char *buf, size_t len)
{
	if (r->failed)
		snprintf(buf, len, "cannot start %s: %s failed: %s", parse__shown(path), r->failed, why);
	else
		snprintf(buf, len, "cannot start %s: %s", parse__shown(path), why);
}

bool runner__poll(struct runner *r)
{
	pid_t p;

	if (r->pid < 0 || r->exited)
		return true;
	p = waitpid(r->pid, &r->status, WNOHANG);
	if (p == r->pid || (p < 0 && errno == ECHILD))
		r->exited = true;
	return r->exited;
}

/* note_signalled - @pid is one runner__stop() signalled: true the first time */
static bool note_signalled(struct runner *r, pid_t pid)
{
	struct proc_tree *s = &r->signalled;

	for (size_t i = 0; i < s->n; i++)
		if (s->pids[i] == pid)
			return false;
	if (s->n < PROC_TREE_MAX)
		s->pids[s->n++] = pid;
	if (pid != r->pid)
		r->others_stopped++;
	return true;
}

/*
 * signal_tree - @sig to what is left of @r's processes (each one once,
 * unless @again), reaping the ones that came back here: how many still run
 */
static size_t signal_tree(struct runner *r, int sig, bool again)
{
	struct proc_tree t;
	size_t live = 0;

	runner__poll(r);
	proc_tree__find(&t, r->exited ? 0 : r->pid, r->start_ticks);
	for (size_t i = 0; i < t.n; i++) {
		pid_t pid = t.pids[i];

		if (t.zombie[i]) {
			/* runner__poll() reaps the child, and keeps its status; another's parent may not be here */
			if (pid != r->pid)
				waitpid(pid, NULL, WNOHANG);
			continue;
		}
		live++;
		if (note_signalled(r, pid) || again)
			kill(pid, sig);
	}
	return live;
}

void runner__stop(struct runner *r, int grace_ms)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	int waited = 0;

	if (r->pid < 0)
		return;
	/* the child, and what it started that still runs, whether the child is gone or not */
	while (grace_ms && signal_tree(r, SIGTERM, false) && waited < grace_ms) {
		nanosleep(&tick, NULL);
		waited += 10;
	}
	/* what SIGTERM did not end; a process that forks as fast as it is killed gets a second of this */
	for (waited = 0; signal_tree(r, SIGKILL, true) && waited < 1000; waited += 10)
		nanosleep(&tick, NULL);
	if (!r->exited) {
		while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
			;
		r->exited = true;
	}
	if (running == r)
		running = NULL;
}

void runner__kill_all_now(void)
{
	struct runner *r = running;
	struct proc_tree t;

	if (!r)
		return;
	proc_tree__find(&t, r->exited ? 0 : r->pid, r->start_ticks);
	for (size_t i = 0; i < t.n; i++)
		if (!t.zombie[i])
			kill(t.pids[i], SIGKILL);
}

void runner__describe_exit(const struct runner *r, char *buf, size_t len)
{
	if (r->pid < 0 && !r->exited)
		snprintf(buf, len, "not started");
	else if (!r->exited)
		snprintf(buf, len, "still running");
	else if (WIFEXITED(r->status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
	else
		snprintf(buf, len, "ended with wait status 0x%x", r->status);
}
