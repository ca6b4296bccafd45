// SPDX-License-Identifier: GPL-2.0
/*
 * test_stacks_debuginfod.c - a stripped program's frames, named later by
 * a real debuginfod: elfutils' server (Debian's debuginfod package) run
 * here on a directory that holds the program and the debug file the test
 * split off it (objcopy --only-keep-debug, then strip). Without
 * --debuginfod its frames are its object, the offset in its file and its
 * build ID; with it, the same frames are named, function and source line,
 * from the debug file the server sent.
 *
 * The program is tests/tools/handoff_stacks.c ($HANDOFF_STACKS), built
 * with debug information and frame pointers. debuginfod 0.188 has no
 * option to listen on one address alone: the test runs it, and wakeprobe,
 * in a network namespace of its own whose only interface is loopback, so
 * that nothing outside reaches the server. The server, its database and
 * every file are gone when the test ends, whether it passed or not.
 * Needs root and BTF.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "helpers.h"
#include "json_reader.h"
#include "readback.h"

/* nobody, as wakeprobe's naming child runs: the cache is its to write */
#define NOBODY 65534
/* how long the server may take to index the directory, a second or so here */
#define INDEX_S 60.0
#define ROUNDS "1500"

/* what the test made, for teardown() to take away whatever happened */
static struct {
	char dir[64];		/* the served directory's parent: the server's database and log beside it */
	char cache[64];		/* the naming child's debuginfod cache */
	pid_t server;
} made;

static void teardown(void)
{
	struct wakeprobe_ran rm;

	if (made.server > 0) {
		kill(made.server, SIGKILL);
		waitpid(made.server, NULL, 0);
	}
	if (made.dir[0])
		program_run(&rm, (char *[]){ "/bin/rm", "-rf", made.dir, NULL });
	if (made.cache[0])
		program_run(&rm, (char *[]){ "/bin/rm", "-rf", made.cache, NULL });
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
	memset(&made, 0, sizeof(made));
}

TestSuite(stacks_debuginfod, .fini = teardown, .timeout = 240);

static const char *handoff_path(void)
{
	const char *p = getenv("HANDOFF_STACKS");

	if (!p)
		cr_skip_test("set HANDOFF_STACKS to build/tests/handoff-stacks (make test does)");
	return p;
}

/*
 * own_loopback - this test's process in a network namespace of its own,
 * its loopback up (a new namespace's is down): what it starts from here
 * on is reached from nowhere else
 */
static void own_loopback(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s;

	cr_assert_eq(unshare(CLONE_NEWNET), 0, "unshare(CLONE_NEWNET): %s", strerror(errno));
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(s, 0);
	cr_assert_eq(ioctl(s, SIOCGIFFLAGS, &ifr), 0, "lo: %s", strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	cr_assert_eq(ioctl(s, SIOCSIFFLAGS, &ifr), 0, "lo up: %s", strerror(errno));
	close(s);
}

/* run_ok - the program at @argv[0] to its end, which must be status 0 */
static void run_ok(char *const argv[])
{
	static struct wakeprobe_ran r;

	program_run(&r, argv);
	cr_assert(WIFEXITED(r.status) && !WEXITSTATUS(r.status), "%s: status 0x%x: %s", argv[0], r.status, r.err);
}

/* build_id_of - the GNU build ID of ELF file @path in hex, as binutils' readelf reads it */
static void build_id_of(const char *path, char hex[129])
{
	static struct wakeprobe_ran r;
	const char *at;

	program_run(&r, (char *[]){ "/usr/bin/readelf", "-n", (char *)path, NULL });
	at = strstr(r.out, "Build ID: ");
	cr_assert(at && sscanf(at, "Build ID: %128[0-9a-f]", hex) == 1, "no build ID in %s\n%s", path, r.out);
}

/*
 * start_server - debuginfod scanning @served for ELF and DWARF files, on
 * @port, its database and log in @dir: no rescan, no grooming, and no
 * server of its own to ask (a DEBUGINFOD_URLS it inherited would make it
 * ask on); it dies with the test's process
 */
static pid_t start_server(const char *dir, const char *served, int port)
{
	char port_arg[16], db[128], log[128];
	pid_t pid;

	snprintf(port_arg, sizeof(port_arg), "%d", port);
	snprintf(db, sizeof(db), "%s/debuginfod.sqlite", dir);
	snprintf(log, sizeof(log), "%s/debuginfod.log", dir);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || dup2(fd, 1) != 1 || dup2(fd, 2) != 2 || prctl(PR_SET_PDEATHSIG, SIGKILL))
			_exit(99);
		unsetenv("DEBUGINFOD_URLS");
		setenv("TMPDIR", dir, 1);
		execl("/usr/bin/debuginfod", "debuginfod", "-F", "-p", port_arg, "-d", db, "-t", "0", "-g", "0", "-c",
		      "1", served, (char *)NULL);
		_exit(98);
	}
	return pid;
}

/* http_status - the status of GET @path from 127.0.0.1:@port, 0 when nothing answered */
static int http_status(int port, const char *path)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char request[256], reply[64] = "";
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), status = 0;
	ssize_t n;

	cr_assert_geq(s, 0);
	if (!connect(s, (struct sockaddr *)&a, sizeof(a))) {
		snprintf(request, sizeof(request), "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
			 path);
		if (write(s, request, strlen(request)) == (ssize_t)strlen(request) &&
		    (n = read(s, reply, sizeof(reply) - 1)) > 0) {
			reply[n] = '\0';
			sscanf(reply, "HTTP/%*s %d", &status);
		}
	}
	close(s);
	return status;
}

/* log_tail - the last of what the server in @dir logged, for a failure's message (free it) */
static char *log_tail(const char *dir)
{
	char log[128], *text;
	size_t len;

	snprintf(log, sizeof(log), "%s/debuginfod.log", dir);
	text = read_file(log, &len);
	if (len > 2000)
		memmove(text, text + len - 2000, 2001);
	return text;
}

/*
 * wait_indexed - until the server at @port, its log in @dir, serves the
 * debug file of build ID @id: it scans its directory once it has
 * started, in a second or so
 */
static void wait_indexed(pid_t server, int port, const char *dir, const char *id)
{
	char path[200];
	double t0 = now_s();
	bool ended = false;
	int status = 0;

	snprintf(path, sizeof(path), "/buildid/%s/debuginfo", id);
	while (!ended && (status = http_status(port, path)) != 200 && now_s() - t0 < INDEX_S) {
		ended = waitpid(server, NULL, WNOHANG) != 0;
		usleep(100 * 1000);
	}
	if (status != 200)
		cr_assert_fail("debuginfod %s %s within %.0f s (status %d); its log:\n%s",
			       ended ? "ended, and did not serve" : "did not serve", path, INDEX_S, status, log_tail(dir));
}


/* the frames of the program (object @prog) in the user stacks of a run's busiest pair */
struct prog_frames {
	size_t n;
	struct {
		char function[64];
		char file[PATH_MAX];
		uint64_t line, offset;
		char build_id[129];
	} f[256];
};

/* prog_frames - @doc's frames of object @prog, in every combination of its first pair, into @out */
static void prog_frames(const struct json_doc *doc, const char *prog, struct prog_frames *out)
{
	static const char *const sides[] = { "waker_user", "wakee_user" };
	const struct json_node *pair = json_reader__at(json_reader__get(json_reader__root(doc), "pairs"), 0);
	const struct json_node *combos = json_reader__get(pair, "stacks");

	out->n = 0;
	for (size_t c = 0; c < json_reader__len(combos); c++)
		for (size_t s = 0; s < 2; s++) {
			const struct json_node *frames = json_reader__get(json_reader__at(combos, c), sides[s]);

			for (size_t i = 0; frames && i < json_reader__len(frames) && out->n < 256; i++) {
				const struct json_node *f = json_reader__at(frames, i);
				const char *object = json_reader__get_string(f, "object");
				const char *v;

				if (!object || strcmp(object, prog))
					continue;
				memset(&out->f[out->n], 0, sizeof(out->f[0]));
				if ((v = json_reader__get_string(f, "function")))
					snprintf(out->f[out->n].function, sizeof(out->f[0].function), "%s", v);
				if ((v = json_reader__get_string(f, "file")))
					snprintf(out->f[out->n].file, sizeof(out->f[0].file), "%s", v);
				if ((v = json_reader__get_string(f, "build_id")))
					snprintf(out->f[out->n].build_id, sizeof(out->f[0].build_id), "%s", v);
				json_reader__get_u64(f, "line", &out->f[out->n].line);
				json_reader__get_u64(f, "object_offset", &out->f[out->n].offset);
				out->n++;
			}
		}
}

/* has_offset - is one of @frames at file offset @offset? */
static bool has_offset(const struct prog_frames *frames, uint64_t offset)
{
	for (size_t i = 0; i < frames->n; i++)
		if (frames->f[i].offset == offset)
			return true;
	return false;
}

Test(stacks_debuginfod, a_stripped_programs_frames_are_its_build_id_and_offset_and_debuginfod_names_them)
{
	static struct wakeprobe_ran bare_run, named_run;
	static struct prog_frames bare, named;
	char served[128], prog[160], debug[160], urls[64], id[129], cached[256], tag[160];
	struct json_doc *doc;
	bool producer = false, consumer = false, same = false;
	int port;

	skip_unless_traceable();
	if (access("/usr/bin/debuginfod", X_OK))
		cr_assert_fail("/usr/bin/debuginfod is not installed: scripts/setup-deps.sh test installs it");
	own_loopback();
	strcpy(made.dir, "/tmp/wakeprobe-debuginfod-XXXXXX");
	cr_assert_not_null(mkdtemp(made.dir));
	cr_assert_eq(chmod(made.dir, 0755), 0);
	strcpy(made.cache, "/tmp/wakeprobe-debuginfod-cache-XXXXXX");
	cr_assert_not_null(mkdtemp(made.cache));
	cr_assert_eq(chown(made.cache, NOBODY, NOBODY), 0);
	snprintf(served, sizeof(served), "%s/served", made.dir);
	cr_assert_eq(mkdir(served, 0755), 0);
	snprintf(prog, sizeof(prog), "%s/app", served);
	snprintf(debug, sizeof(debug), "%s/app.debug", served);

	/* the debug file split off, then every symbol stripped: the build ID stays in both */
	run_ok((char *[]){ "/usr/bin/objcopy", "--only-keep-debug", (char *)handoff_path(), debug, NULL });
	run_ok((char *[]){ "/usr/bin/strip", "--strip-all", (char *)handoff_path(), "-o", prog, NULL });
	build_id_of(prog, id);

	port = free_port();
	made.server = start_server(made.dir, served, port);
	wait_indexed(made.server, port, made.dir, id);
	snprintf(urls, sizeof(urls), "http://127.0.0.1:%d", port);
	setenv("DEBUGINFOD_URLS", urls, 1);
	setenv("DEBUGINFOD_CACHE_PATH", made.cache, 1);
	unsetenv("WAKEPROBE_DEBUGINFOD");

	/* not asked: the program's frames are its object, offsets and build ID */
	doc = wakeprobe_run_json(&bare_run, (char *[]){ "--stacks", "--pairs", "1", "--", prog, ROUNDS, NULL });
	prog_frames(doc, prog, &bare);
	json_reader__free(doc);
	/* asked: the same frames named from the debug file the server sends */
	doc = wakeprobe_run_json(&named_run,
			  (char *[]){ "--debuginfod", "--stacks", "--pairs", "1", "--", prog, ROUNDS, NULL });
	prog_frames(doc, prog, &named);
	json_reader__free(doc);
	snprintf(cached, sizeof(cached), "%s/%s/debuginfo", made.cache, id);

	cr_assert_gt(bare.n, 0, "the program's frames are in its busiest pair's stacks\n%s", bare_run.out);
	for (size_t i = 0; i < bare.n; i++) {
		cr_assert_str_eq(bare.f[i].function, "", "named without its symbols: %s", bare.f[i].function);
		cr_assert_str_eq(bare.f[i].build_id, id, "frame at 0x%lx", (unsigned long)bare.f[i].offset);
	}
	snprintf(tag, sizeof(tag), "[build-id %s] (app)", id);
	cr_assert(strstr(bare_run.out, "app+0x") && strstr(bare_run.out, tag),
		  "the text report shows the frames by object, offset and build ID\n%s", bare_run.out);
	cr_assert_null(strstr(bare_run.out, "producer_release"), "%s", bare_run.out);

	cr_assert_eq(access(cached, R_OK), 0, "the naming child kept the debug file it fetched in %s", made.cache);
	cr_assert_gt(named.n, 0, "%s", named_run.out);
	for (size_t i = 0; i < named.n; i++) {
		bool looked_for = !strcmp(named.f[i].function, "producer_release") ||
				  !strcmp(named.f[i].function, "consumer_wait");

		cr_assert_neq(named.f[i].function[0], '\0', "a frame at 0x%lx is not named",
			      (unsigned long)named.f[i].offset);
		cr_assert_str_eq(named.f[i].build_id, "", "a frame a symbol names needs no build ID");
		/* the lines are the debug file's alone: the stripped program has none */
		cr_assert(!looked_for || (strstr(named.f[i].file, "handoff_stacks.c") && named.f[i].line > 0),
			  "%s: %s:%lu", named.f[i].function, named.f[i].file, (unsigned long)named.f[i].line);
		producer = producer || !strcmp(named.f[i].function, "producer_release");
		consumer = consumer || !strcmp(named.f[i].function, "consumer_wait");
		same = same || (looked_for && has_offset(&bare, named.f[i].offset));
	}
	cr_assert(producer && consumer, "producer_release() and consumer_wait() are named\n%s", named_run.out);
	cr_assert(same, "a frame shown by build ID and offset in the one run is named in the other");
	cr_assert(strstr(named_run.out, "producer_release+0x") && strstr(named_run.out, "handoff_stacks.c:"),
		  "the text report names them with their lines\n%s", named_run.out);
}
