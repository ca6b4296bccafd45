// SPDX-License-Identifier: GPL-2.0
/*
 * test_stacks_trust.c - --stacks against a hostile traced process: root's
 * wakeprobe must read the file the process maps, not whatever its path
 * names by then (a FIFO, a device, a link to a root-only file, a host's
 * file of the name a container's process mapped), whatever the path's
 * length; must not stall on what it reads, so that a stop signal while
 * names are asked still ends the run with its report; and asks no
 * debuginfod server unless told to.
 *
 * The hostile process is tests/tools/handoff_stacks.c ($HANDOFF_STACKS),
 * run as nobody from a copy the test then swaps away as its owner could,
 * and tests/tools/crafted_fixture.c, built next to it, whose DWARF is
 * crafted. Each run of wakeprobe is given a deadline, past which it is
 * killed and the test fails. Needs root and BTF.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "helpers.h"

/* nobody, as the hostile process runs */
#define NOBODY 65534
/* the longest a run of wakeprobe here may take: a hang is a failure, not the suite's timeout */
#define DEADLINE_S 60.0

TestSuite(stacks_trust, .timeout = 180);

/* what a run of wakeprobe did within its deadline */
struct bounded_run {
	int status;		/* waitpid()'s, or -1 when it was killed at its deadline */
	double seconds;		/* from start to end */
	double after_signal;	/* from the signal to its end, when one was sent */
	char out[64 * 1024];
	char err[8 * 1024];
};

/* drain - what is ready on @fd appended to @buf of @len bytes: false at its end */
static bool drain(int fd, char *buf, size_t len, size_t *n)
{
	char scrap[4096];
	ssize_t r = read(fd, *n + 1 < len ? buf + *n : scrap, *n + 1 < len ? len - 1 - *n : sizeof(scrap));

	if (r > 0 && *n + 1 < len)
		*n += (size_t)r;
	buf[*n] = '\0';
	return r > 0 || (r < 0 && errno == EINTR);
}

/*
 * run_bounded - wakeprobe with @args, ended by DEADLINE_S at the latest
 * (SIGKILL); SIGTERM sent @signal_at seconds in when that is above 0
 */
static void run_bounded(struct bounded_run *r, char *const args[], double signal_at)
{
	char *argv[32] = { (char *)wakeprobe_path() };
	size_t nout = 0, nerr = 0, i;
	int out, err, status;
	bool out_open = true, err_open = true, signalled = false, reaped = false;
	double t0 = now_s(), signal_time = 0;
	pid_t pid;

	for (i = 0; args[i] && i < 30; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	memset(r, 0, sizeof(*r));
	pid = spawn_piped(argv, NULL, &out, &err);
	/* until it has ended and both its pipes are read to their end, whichever comes first */
	while (!reaped || out_open || err_open) {
		struct pollfd p[2] = { { out_open ? out : -1, POLLIN, 0 }, { err_open ? err : -1, POLLIN, 0 } };

		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = true;
			r->status = status;
		}
		if (!reaped && now_s() - t0 > DEADLINE_S) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			r->status = -1;
			break;
		}
		if (signal_at > 0 && !signalled && now_s() - t0 >= signal_at) {
			kill(pid, SIGTERM);
			signalled = true;
			signal_time = now_s();
		}
		if (poll(p, 2, 20) > 0) {
			if (p[0].revents && !drain(out, r->out, sizeof(r->out), &nout))
				out_open = false;
			if (p[1].revents && !drain(err, r->err, sizeof(r->err), &nerr))
				err_open = false;
		}
		/* ended: what is left in the pipes is all there is, unless a child of its holds them */
		if (reaped && now_s() - t0 > DEADLINE_S)
			break;
	}
	close(out);
	close(err);
	r->seconds = now_s() - t0;
	r->after_signal = signalled ? now_s() - signal_time : 0;
}

/* assert_ended_well - @r ended on its own within its deadline, with status 0 */
static void assert_ended_well(const struct bounded_run *r)
{
	cr_assert_neq(r->status, -1, "wakeprobe did not end within %.0f s: it was killed\n%s", DEADLINE_S, r->err);
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "status 0x%x: %s", r->status, r->err);
}

static const char *handoff_path(void)
{
	const char *p = getenv("HANDOFF_STACKS");

	if (!p)
		cr_skip_test("set HANDOFF_STACKS to build/tests/handoff-stacks (make test does)");
	return p;
}

/* beside_handoff - the test program @name that the build makes next to $HANDOFF_STACKS, into @path */
static const char *beside_handoff(const char *name, char path[PATH_MAX])
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", handoff_path());
	snprintf(path, PATH_MAX, "%s/%s", dirname(dir), name);
	cr_assert_eq(access(path, X_OK), 0, "%s is not built (make test builds it)", path);
	return path;
}

/* copy - @from into a new file @to of mode @mode */
static void copy(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	ssize_t n;

	cr_assert(in >= 0 && out >= 0, "%s -> %s: %s", from, to, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		cr_assert_eq(write(out, buf, (size_t)n), n);
	close(in);
	cr_assert_eq(fchmod(out, mode), 0);
	close(out);
}

/* hostile_dir - a directory under /tmp for the hostile process's files, into @dir */
static void hostile_dir(char dir[64])
{
	strcpy(dir, "/tmp/wakeprobe-hostile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0755), 0);
}

/* remove_tree - @dir and what the test put in it (rm -rf: the names are the test's own) */
static void remove_tree(const char *dir)
{
	struct wakeprobe_ran r;

	program_run(&r, (char *[]){ "/bin/rm", "-rf", (char *)dir, NULL });
}

/* maps_holds - does @pid map a file whose path has @what in it? */
static bool maps_holds(pid_t pid, const char *what)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = strstr(line, what) != NULL;
	free(line);
	fclose(f);
	return found;
}

/*
 * start_as_nobody - @argv running as nobody, its output to /dev/null, and
 * mapping @maps (a path): its pid; it dies with the test
 */
static pid_t start_as_nobody(char *const argv[], const char *maps)
{
	struct child_setup setup = { .uid = NOBODY, .stdout_to = "/dev/null", .dies_with_test = true };
	int out, err;
	pid_t pid = spawn_piped(argv, &setup, &out, &err);

	close(out);
	close(err);
	for (int i = 0; i < 2000 && !maps_holds(pid, maps); i++)
		usleep(1000);
	cr_assert(maps_holds(pid, maps), "%s does not map %s", argv[0], maps);
	return pid;
}

static void stop_target(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* trace - wakeprobe --pid @pid --stacks for 2 s, within the deadline (the caller asserts, its files removed) */
static void trace(struct bounded_run *r, pid_t pid)
{
	char pid_arg[16];

	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)pid);
	run_bounded(r, (char *[]){ "--pid", pid_arg, "--stacks", "--pairs", "1", "--duration", "2", NULL }, 0);
}

/* assert_handoff_named - @r ended well, its report naming handoff_stacks.c's functions from the file mapped */
static void assert_handoff_named(const struct bounded_run *r)
{
	assert_ended_well(r);
	cr_assert(strstr(r->out, "Stacks of the 1 busiest pairs"), "%s", r->out);
	cr_assert(strstr(r->out, "producer_release+0x") || strstr(r->out, "consumer_wait+0x"),
		  "the program's functions are named from the file it maps\n%s", r->out);
	cr_assert(strstr(r->out, "handoff_stacks.c:"), "with their lines\n%s", r->out);
}

/* swap_deleted - @prog unlinked, and @make putting something else where maps says it was, "PROG (deleted)" */
static void swap_deleted(const char *prog, char deleted[PATH_MAX])
{
	snprintf(deleted, PATH_MAX, "%s (deleted)", prog);
	cr_assert_eq(unlink(prog), 0);
}

/*
 * the audit's probe: the running program's file deleted and a FIFO named
 * as maps names it, "app (deleted)". Opening it waited for a writer for
 * ever, and no SIGTERM ended that; map_files reaches the deleted file
 * itself, whose functions the report names.
 */
Test(stacks_trust, a_deleted_binary_swapped_for_a_fifo_is_read_from_the_file_it_maps)
{
	char dir[64], prog[PATH_MAX], deleted[PATH_MAX];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	hostile_dir(dir);
	snprintf(prog, sizeof(prog), "%s/app", dir);
	copy(handoff_path(), prog, 0755);
	pid = start_as_nobody((char *[]){ prog, "100000000", NULL }, prog);
	swap_deleted(prog, deleted);
	cr_assert_eq(mkfifo(deleted, 0666), 0);
	trace(&r, pid);
	stop_target(pid);
	remove_tree(dir);
	assert_handoff_named(&r);
	cr_assert(strstr(r.out, "(app (deleted))"), "the object by the name maps gives it\n%s", r.out);
}

/*
 * a program at a path of more than 511 bytes, its maps line longer than
 * that, and a FIFO at the path's first 159 bytes: the path was cut there
 * and the FIFO opened. Read whole, the path is not used to open anything.
 */
Test(stacks_trust, a_path_past_511_bytes_with_a_fifo_at_its_first_159_is_read_whole)
{
	char dir[64], prog[PATH_MAX], prefix[160], part[201];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	hostile_dir(dir);
	memset(part, 'd', 200);
	part[200] = '\0';
	snprintf(prog, sizeof(prog), "%s/%s", dir, part);
	cr_assert_eq(mkdir(prog, 0755), 0);
	snprintf(prog + strlen(prog), sizeof(prog) - strlen(prog), "/%s", part);
	cr_assert_eq(mkdir(prog, 0755), 0);
	snprintf(prog + strlen(prog), sizeof(prog) - strlen(prog), "/%.150s", part);
	cr_assert_gt(strlen(prog), 511);
	copy(handoff_path(), prog, 0755);
	/* the first 159 bytes end inside the first 200-byte name: a sibling of it */
	snprintf(prefix, sizeof(prefix), "%.159s", prog);
	cr_assert_eq(mkfifo(prefix, 0666), 0);
	pid = start_as_nobody((char *[]){ prog, "100000000", NULL }, part);
	trace(&r, pid);
	stop_target(pid);
	remove_tree(dir);
	assert_handoff_named(&r);
}

/*
 * the deleted file's name made a symbolic link to a root-only program
 * (in a directory only root may enter): its symbols must not reach the
 * report, which names the program's own
 */
Test(stacks_trust, a_link_to_a_root_only_program_does_not_put_its_symbols_in_the_report)
{
	char dir[64], secret_dir[64], prog[PATH_MAX], deleted[PATH_MAX], secret[PATH_MAX], fixture[PATH_MAX];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	hostile_dir(dir);
	hostile_dir(secret_dir);
	cr_assert_eq(chmod(secret_dir, 0700), 0);
	snprintf(secret, sizeof(secret), "%s/secret", secret_dir);
	copy(beside_handoff("symbol-fixture-cxx", fixture), secret, 0700);
	snprintf(prog, sizeof(prog), "%s/app", dir);
	copy(handoff_path(), prog, 0755);
	pid = start_as_nobody((char *[]){ prog, "100000000", NULL }, prog);
	swap_deleted(prog, deleted);
	cr_assert_eq(symlink(secret, deleted), 0);
	trace(&r, pid);
	stop_target(pid);
	remove_tree(dir);
	remove_tree(secret_dir);
	assert_handoff_named(&r);
	cr_assert_null(strstr(r.out, "wakeprobe_fixture"), "the root-only program's symbols are in the report\n%s",
		       r.out);
	cr_assert_null(strstr(r.out, "symbol_fixture_cxx.cc"), "its source lines too\n%s", r.out);
}

/* the deleted file's name a device's (/dev/zero through a link): no device is opened, and the program is named */
Test(stacks_trust, a_device_where_the_program_was_is_not_opened)
{
	char dir[64], prog[PATH_MAX], deleted[PATH_MAX];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	hostile_dir(dir);
	snprintf(prog, sizeof(prog), "%s/app", dir);
	copy(handoff_path(), prog, 0755);
	pid = start_as_nobody((char *[]){ prog, "100000000", NULL }, prog);
	swap_deleted(prog, deleted);
	cr_assert_eq(symlink("/dev/zero", deleted), 0);
	trace(&r, pid);
	stop_target(pid);
	remove_tree(dir);
	assert_handoff_named(&r);
}

/*
 * a process in a mount namespace of its own (a container's, cheaply:
 * unshare -m and a bind mount) maps its program by a path under which
 * wakeprobe's namespace holds another program: the process's own file
 * is the one read
 */
Test(stacks_trust, a_containers_file_is_read_not_the_hosts_of_that_name)
{
	char dir[64], prog[PATH_MAX], fixture[PATH_MAX], script[PATH_MAX * 2 + 128];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	if (access("/usr/bin/unshare", X_OK) || access("/usr/bin/setpriv", X_OK))
		cr_skip_test("needs unshare and setpriv (util-linux)");
	hostile_dir(dir);
	snprintf(prog, sizeof(prog), "%s/app", dir);
	/*
	 * the host's file of that name: a program of other functions. setpriv
	 * sets the parent-death signal again after the change of user, which
	 * clears it (prctl(2)): a test killed midway leaves no program running
	 */
	copy(beside_handoff("symbol-fixture-cxx", fixture), prog, 0755);
	snprintf(script, sizeof(script),
		 "mount --bind '%s' '%s' && exec setpriv --reuid=%d --regid=%d --clear-groups --pdeathsig TERM "
		 "'%s' 100000000",
		 handoff_path(), prog, NOBODY, NOBODY, prog);
	{
		struct child_setup setup = { .uid = -1, .stdout_to = "/dev/null", .dies_with_test = true };
		int out, err;

		pid = spawn_piped((char *[]){ "/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c",
					     script, NULL },
				  &setup, &out, &err);
		close(out);
		close(err);
	}
	for (int i = 0; i < 3000 && !maps_holds(pid, prog); i++)
		usleep(1000);
	cr_assert(maps_holds(pid, prog), "the program did not start in its namespace");
	trace(&r, pid);
	stop_target(pid);
	remove_tree(dir);
	assert_handoff_named(&r);
	cr_assert_null(strstr(r.out, "wakeprobe_fixture"), "the host's file was read\n%s", r.out);
}

/*
 * a stop signal while names are asked: the crafted program's futex word
 * takes seconds to name (a walk down a crafted structure), which held
 * root's process and let no SIGTERM in; the run ends at the signal now,
 * its report written, what was not named saying why
 */
Test(stacks_trust, a_stop_signal_while_names_are_asked_ends_the_run_with_its_report)
{
	char fixture[PATH_MAX], pid_arg[16];
	static struct bounded_run r;
	pid_t pid;

	skip_unless_traceable();
	beside_handoff("crafted-fixture", fixture);
	pid = start_as_nobody((char *[]){ fixture, "futex", "1000000000", NULL }, "crafted-fixture");
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)pid);
	/* the run takes 2 s and its start some tenths; its futex word's name, seconds more */
	run_bounded(&r, (char *[]){ "--pid", pid_arg, "--stacks", "--pairs", "1", "--duration", "2", NULL }, 4.5);
	stop_target(pid);
	assert_ended_well(&r);
	cr_assert_lt(r.after_signal, 3.0, "the run ended %.1f s after SIGTERM", r.after_signal);
	cr_assert(strstr(r.out, "Stacks of the 1 busiest pairs"), "the report is written\n%s", r.out);
	cr_assert(strstr(r.out, "futex"), "%s", r.out);
}

/* a debuginfod server of the test's: it counts the requests, and has no file for any */
struct fake_server {
	int sock;
	int port;
	int requests;
	char first[256];	/* the first request's line */
	pthread_t thread;
};

static void *serve_requests(void *arg)
{
	struct fake_server *s = arg;
	static const char no[] = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

	for (;;) {
		char request[1024];
		ssize_t n;
		int c = accept(s->sock, NULL, NULL);

		if (c < 0)
			return NULL;
		n = read(c, request, sizeof(request) - 1);
		if (n > 0) {
			request[n] = '\0';
			if (!s->requests++)
				snprintf(s->first, sizeof(s->first), "%.*s", (int)strcspn(request, "\r\n"), request);
		}
		if (write(c, no, sizeof(no) - 1) < 0)
			n = -1;
		close(c);
	}
}

static void server_start(struct fake_server *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert(s->sock >= 0);
	cr_assert_eq(bind(s->sock, (struct sockaddr *)&a, sizeof(a)), 0);
	cr_assert_eq(listen(s->sock, 16), 0);
	cr_assert_eq(getsockname(s->sock, (struct sockaddr *)&a, &len), 0);
	s->port = ntohs(a.sin_port);
	cr_assert_eq(pthread_create(&s->thread, NULL, serve_requests, s), 0);
}

/*
 * a traced program without symbols or a debug file under /usr/lib/debug:
 * with DEBUGINFOD_URLS set, as a Debian login sets it, no server is asked
 * for its debug file unless WAKEPROBE_DEBUGINFOD=1 says to
 */
Test(stacks_trust, debuginfod_is_asked_only_when_wakeprobe_is_told_to)
{
	char dir[64], prog[PATH_MAX], cache[64], urls[64], first[256];
	static struct bounded_run r, quiet;
	struct fake_server server;
	int asked_by_default;
	struct wakeprobe_ran strip;
	pid_t pid;

	skip_unless_traceable();
	hostile_dir(dir);
	snprintf(prog, sizeof(prog), "%s/app", dir);
	program_run(&strip, (char *[]){ "/usr/bin/strip", "--strip-all", (char *)handoff_path(), "-o", prog, NULL });
	cr_assert(WIFEXITED(strip.status) && !WEXITSTATUS(strip.status), "strip: %s", strip.err);
	strcpy(cache, "/tmp/wakeprobe-debuginfod-XXXXXX");
	cr_assert_not_null(mkdtemp(cache));
	cr_assert_eq(chown(cache, NOBODY, NOBODY), 0);
	server_start(&server);
	snprintf(urls, sizeof(urls), "http://127.0.0.1:%d", server.port);
	setenv("DEBUGINFOD_URLS", urls, 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	unsetenv("WAKEPROBE_DEBUGINFOD");
	pid = start_as_nobody((char *[]){ prog, "100000000", NULL }, prog);
	trace(&quiet, pid);
	asked_by_default = server.requests;
	snprintf(first, sizeof(first), "%s", server.first);
	setenv("WAKEPROBE_DEBUGINFOD", "1", 1);
	trace(&r, pid);
	unsetenv("WAKEPROBE_DEBUGINFOD");
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
	stop_target(pid);
	remove_tree(dir);
	remove_tree(cache);
	assert_ended_well(&quiet);
	cr_assert(strstr(quiet.out, "Stacks of the 1 busiest pairs"), "%s", quiet.out);
	cr_assert_eq(asked_by_default, 0, "asked by default: %s", first);
	assert_ended_well(&r);
	cr_assert_gt(server.requests, 0, "not asked when told to");
	cr_assert(strstr(server.first, "/buildid/") && strstr(server.first, "/debuginfo"), "%s", server.first);
}
