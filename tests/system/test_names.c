// SPDX-License-Identifier: GPL-2.0
/*
 * test_names.c - attach mode names the wakers of real programs from
 * Debian's packages in words a person can act on: the client behind a
 * loopback server's NET_RX softirq (redis-server under redis-benchmark), a
 * forking server's workers when its master is the target (nginx under ab),
 * a POSIX message queue (stress-ng --mq) and unix sockets (perf bench sched
 * messaging). Needs root and BTF, and the programs, which make test
 * installs.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

/* in_path - @name's path along $PATH into @buf (room for PATH_MAX), or NULL: spawn_piped() execs a path */
static const char *in_path(const char *name, char *buf)
{
	const char *path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";

	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, PATH_MAX, "%.*s/%s", (int)n, path, name);
		if (n && !access(buf, X_OK))
			return buf;
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* loopback_port - a TCP port free on 127.0.0.1 a moment ago: bound to port 0, read back, let go */
static int loopback_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert_geq(s, 0, "socket: %s", strerror(errno));
	cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof(a)), 0, "bind: %s", strerror(errno));
	cr_assert_eq(getsockname(s, (struct sockaddr *)&a, &len), 0);
	close(s);
	return ntohs(a.sin_port);
}

/* wait_listening - until a connection to @port on 127.0.0.1 is taken, at most 10 s; @server must not end */
static void wait_listening(int port, pid_t server)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	double end = now_s() + 10;
	int status;

	while (now_s() < end) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		bool up = s >= 0 && !connect(s, (struct sockaddr *)&a, sizeof(a));

		if (s >= 0)
			close(s);
		if (up)
			return;
		cr_assert_eq(waitpid(server, &status, WNOHANG), 0, "the server ended (status 0x%x)", status);
		usleep(50000);
	}
	cr_assert_fail("nothing listened on port %d within 10 s", port);
}

/*
 * A server under its own benchmark, its process traced by `wakeprobe
 * --pid SERVER --duration 4 --json`: what serve_traced() runs, and what
 * it keeps of the run
 */
struct served {
	char *const *server_args;	/* the server, listening on 127.0.0.1:port */
	int port;
	int stop_signal;		/* what ends the server */
	char *const *bench_args;	/* its benchmark, run to its end once wakeprobe is attached */
	pid_t server, bench;
	char json[64];			/* wakeprobe's JSON */
	char text[65536];		/* its report */
	char dir[64];			/* the server's own directory, removed at the end; "": none */
	bool server_ended;		/* reaped: its pid is no longer its own */
};

/* the test's server, ended by served_fini() however the test ended: a failed assert leaves nothing running */
static struct served *serving;

static void served_fini(void)
{
	struct served *s = serving;
	char rm[128];

	serving = NULL;
	if (!s)
		return;
	if (s->server > 0 && !s->server_ended) {
		kill(s->server, s->stop_signal);
		for (int i = 0; i < 100 && !waitpid(s->server, NULL, WNOHANG); i++)
			usleep(100 * 1000);
		if (!kill(s->server, SIGKILL))
			waitpid(s->server, NULL, 0);
	}
	if (s->dir[0]) {
		snprintf(rm, sizeof(rm), "rm -rf %s", s->dir);
		if (system(rm))
			fprintf(stderr, "could not remove %s\n", s->dir);
	}
}

/*
 * serve_traced - @s's server started, wakeprobe attached to it, the
 * benchmark run to its end and wakeprobe with it, the server ended; the
 * benchmark and wakeprobe must each exit 0
 */
static void serve_traced(struct served *s)
{
	char pid_arg[16];
	char *tracer_args[] = { (char *)wakeprobe_path(), "--pid", pid_arg, "--duration", "4", "--json", s->json,
				"--outliers", "0", NULL };
	int s_out, s_err, t_out, t_err, b_out, b_err, status;
	pid_t tracer;

	fclose(temp_output("names", s->json));
	serving = s;
	s->server = spawn_piped(s->server_args, NULL, &s_out, &s_err);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)s->server);
	wait_listening(s->port, s->server);
	tracer = spawn_piped(tracer_args, NULL, &t_out, &t_err);
	wait_attached(tracer, "wakeprobe");
	s->bench = spawn_piped(s->bench_args, NULL, &b_out, &b_err);
	status = wait_exit(s->bench, s->bench_args[0], 60);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "%s: status 0x%x", s->bench_args[0], status);
	read_to_end(t_out, s->text, sizeof(s->text));
	status = wait_exit(tracer, "wakeprobe", 30);
	kill(s->server, s->stop_signal);
	wait_exit(s->server, s->server_args[0], 30);
	s->server_ended = true;
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "wakeprobe: status 0x%x", status);
	for (int fd = 0; fd < 2; fd++) {
		close(fd ? s_err : s_out);
		close(fd ? t_err : t_out);
		close(fd ? b_err : b_out);
	}
}

/*
 * On loopback the client's send queues the packet and raises NET_RX in the
 * client's own context, whose bh enable runs the receive that wakes the
 * server: the softirq is the client's doing. The server's wakeups through
 * that softirq name the benchmark's process as their waker, in one pair
 * that is the busiest, and nearly every complete wakeup has a named
 * mechanism.
 */
Test(names, a_loopback_servers_wakeups_name_the_client_that_sent_them, .timeout = 120, .fini = served_fini)
{
	char port_arg[16], server_path[PATH_MAX], bench_path[PATH_MAX];
	char *server_args[] = { server_path, "--port", port_arg, "--bind", "127.0.0.1", "--save", "",
				"--appendonly", "no", NULL };
	char *bench_args[] = { bench_path, "-p", port_arg, "-n", "20000", "-c", "4", "-t", "set,get", "-q",
			       NULL };
	static struct served s;

	skip_unless_traceable();
	if (!in_path("redis-server", server_path) || !in_path("redis-benchmark", bench_path))
		cr_skip_test("no redis-server or redis-benchmark (make test installs redis-server and redis-tools)");
	s = (struct served){ .server_args = server_args, .port = loopback_port(), .stop_signal = SIGTERM,
			     .bench_args = bench_args };
	snprintf(port_arg, sizeof(port_arg), "%d", s.port);
	serve_traced(&s);
	cr_assert(json_check(s.json,
			     "w = d['wakeups']\n"
			     "soft = w['by_class']['softirq']\n"
			     /* the first few, before the raises were followed, are the softirq's */
			     "assert soft > 1000 and w['softirq_raised_by_task'] >= soft * 95 // 100, w\n"
			     "p = d['pairs'][0]\n"
			     "assert p['waker']['raised_by_task'] and p['waker']['tgid'] == %d, p\n"
			     "assert p['waker']['name'] == 'process redis-benchmark %d', p\n"
			     "assert p['mechanism'] == 'softirq NET_RX -> epoll wait', p\n"
			     "assert p['count'] >= w['softirq_raised_by_task'] * 9 // 10, (p['count'], w)\n"
			     "named = sum(q['count'] for q in d['pairs'] if q['family'] not in ('unknown', 'other'))\n"
			     "assert named >= w['complete'] * 99 // 100, (named, w['complete'], d['pairs'])\n",
			     (int)s.bench, (int)s.bench),
		  "the JSON does not name the client");
	unlink(s.json);
}

/*
 * nginx's master forks its workers at its start and then sleeps in
 * sigsuspend(): --pid of the master traces the workers it forked before
 * the attach, and the report says the master was never woken while they
 * served ab's requests, all of them named.
 */
Test(names, a_forking_servers_master_is_said_to_sleep_while_its_workers_serve, .timeout = 120, .fini = served_fini)
{
	char dir[] = "/tmp/wakeprobe-test-nginx.XXXXXX", conf[96], url[64], nginx_path[PATH_MAX], ab_path[PATH_MAX];
	char *server_args[] = { nginx_path, "-p", dir, "-c", conf, NULL };
	char *bench_args[] = { ab_path, "-q", "-n", "3000", "-c", "4", url, NULL };
	static struct served s;
	FILE *f;

	skip_unless_traceable();
	if (!in_path("nginx", nginx_path) || !in_path("ab", ab_path))
		cr_skip_test("no nginx or ab (make test installs nginx-light and apache2-utils)");
	cr_assert_not_null(mkdtemp(dir));
	s = (struct served){ .server_args = server_args, .port = loopback_port(), .stop_signal = SIGQUIT,
			     .bench_args = bench_args };
	snprintf(s.dir, sizeof(s.dir), "%s", dir);
	snprintf(conf, sizeof(conf), "%s/nginx.conf", dir);
	f = fopen(conf, "w");
	cr_assert_not_null(f);
	fprintf(f, "daemon off; master_process on; worker_processes 2; pid %s/nginx.pid; error_log %s/error.log;\n"
		"events { worker_connections 64; }\n"
		"http { access_log off; client_body_temp_path %s; proxy_temp_path %s; fastcgi_temp_path %s;\n"
		"  uwsgi_temp_path %s; scgi_temp_path %s;\n"
		"  server { listen 127.0.0.1:%d; location / { return 200 \"ok\\n\"; } } }\n",
		dir, dir, dir, dir, dir, dir, dir, s.port);
	fclose(f);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", s.port);
	serve_traced(&s);
	cr_assert(strstr(s.text, " and the 2 processes descending from it\n"), "%s", s.text);
	cr_assert(strstr(s.text, "the target was never woken: it slept or ran the whole run while its descendants "
			 "worked\n"), "%s", s.text);
	cr_assert(json_check(s.json,
			     "w = d['wakeups']\n"
			     "assert d['targets']['descendants'] == 2, d['targets']\n"
			     "assert w['of_targets'] == 0 and w['total'] > 1000, w\n"
			     "named = sum(n for fam, n in w['complete_by_family'].items() if fam not in ('unknown', 'other'))\n"
			     "assert named >= w['complete'] * 99 // 100, w\n"
			     "assert d['pairs'][0]['wakee']['tgid'] != %d, d['pairs'][0]\n", (int)s.server),
		  "the workers' wakeups are not the master's, or not named");
	unlink(s.json);
}

/*
 * run_named - wakeprobe -- @argv to its end, its JSON in @json: every
 * complete wakeup but 1% has a named mechanism
 */
static void run_named(char *const argv[], char json[64])
{
	char *args[32] = { (char *)wakeprobe_path(), "--json", json, "--outliers", "0", "--" };
	struct wakeprobe_ran r;
	int n = 6;

	fclose(temp_output("names", json));
	for (int i = 0; argv[i] && n < 31; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	wakeprobe_run_ok(&r, args + 1);
	cr_assert(json_check(json,
			     "w = d['wakeups']\n"
			     "named = sum(n for fam, n in w['complete_by_family'].items() if fam not in ('unknown', 'other'))\n"
			     "assert named >= w['complete'] * 99 // 100 and w['complete'] > 100, w\n"),
		  "under 99%% of %s's wakeups named", argv[0]);
}

/*
 * a POSIX message queue's mq_timedsend and mq_timedreceive: the busiest
 * pair, named by its kind (a deeper queue let a run make 77 wakeups in all)
 */
Test(names, a_message_queues_wakeups_are_named_by_it, .timeout = 120)
{
	char path[PATH_MAX], json[64];
	/* a queue of one message: each send waits for the receive, so nearly every message is a wakeup */
	/* its temporary files in /tmp: the directory the tests run from may be read-only (a booted kernel's) */
	char *argv[] = { "stress-ng", "--mq", "1", "--mq-ops", "3000", "--mq-size", "1", "--timeout", "20", "--quiet",
			 "--temp-path", "/tmp",
			 NULL };

	skip_unless_traceable();
	if (!in_path("stress-ng", path))
		cr_skip_test("no stress-ng (make test installs it)");
	run_named(argv, json);
	cr_assert(json_check(json,
			     "p = d['pairs'][0]\n"
			     "assert p['mechanism'] in ('mqueue send -> receive', 'mqueue receive -> send'), p['mechanism']\n"
			     "assert p['error'] == 0 and p['count'] > 500, p\n"),
		  "the message queue is not the busiest pair");
	unlink(json);
}

/* perf's messaging benchmark: processes writing to each other over unix stream sockets, all of them named */
Test(names, a_messaging_benchmarks_sockets_are_named_by_their_kind, .timeout = 120)
{
	char path[PATH_MAX], json[64];
	char *argv[] = { "perf", "bench", "sched", "messaging", "-g", "4", "-l", "50", NULL };

	skip_unless_traceable();
	if (!in_path("perf", path))
		cr_skip_test("no perf (make test installs linux-perf)");
	run_named(argv, json);
	cr_assert(json_check(json,
			     "fams = d['wakeups']['complete_by_family']\n"
			     "assert fams.get('unix socket', 0) >= d['wakeups']['complete'] // 2, fams\n"
			     "assert not [p for p in d['pairs'] if p['mechanism'].startswith('fd ')], d['pairs'][:3]\n"),
		  "the messaging benchmark's sockets are not named");
	unlink(json);
}
