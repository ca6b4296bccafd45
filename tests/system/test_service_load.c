// SPDX-License-Identifier: GPL-2.0
/*
 * test_service_load.c - the scrape endpoint of `wakeprobe --all --listen`
 * under what anyone who reaches its port can send: a thousand connections
 * that dribble a request head a header line at a time and never end it
 * (reopened as soon as the server closes them, as an attacker would), and
 * a storm of ten thousand more connections that send nothing, half a
 * line, or close at once. Through it all a scraper, on a fresh connection
 * each time, must get every scrape whole within a second. The service
 * then ends on SIGTERM with status 0. Run twice: with the file limit this
 * machine gives, and with one so low that the connection table is smaller
 * than the flood, so that the storm has to take the place of the oldest
 * idle connections. Needs root and BTF: skips elsewhere, saying why.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"

/* the flood: connections that dribble a head and never end it, each a header line a second */
#define DRIBBLERS		1000
/* the storm: connections opened one after another, paced over STORM_S */
#define STORM_CONNECTS		10000
#define STORM_S			4.0
/* of the storm's connections, how many are held open at once at most (the oldest closed first) */
#define STORM_HELD		2000
/* the scrapes, each on a fresh connection, SCRAPE_GAP_S apart, each to be whole within SCRAPE_MAX_S */
#define SCRAPES			10
#define SCRAPE_GAP_S		0.4
#define SCRAPE_MAX_S		1.0
/* the descriptors the test and its children need: the flood, the storm's held ones, and spares */
#define TEST_NOFILE		(DRIBBLERS + STORM_HELD + 256)

static pid_t service = -1, dribbler = -1, storm = -1;
static int service_out = -1, service_err = -1;

static void stop_child(pid_t *pid, int sig)
{
	if (*pid <= 0)
		return;
	kill(*pid, sig);
	waitpid(*pid, NULL, 0);
	*pid = -1;
}

static void teardown(void)
{
	stop_child(&dribbler, SIGKILL);
	stop_child(&storm, SIGKILL);
	stop_child(&service, SIGKILL);
	if (service_out >= 0)
		close(service_out);
	if (service_err >= 0)
		close(service_err);
	service_out = service_err = -1;
}

TestSuite(service_load, .fini = teardown, .timeout = 180);

/*
 * dial - a connection to 127.0.0.1:@port, or -1. The connect gives up
 * after @timeout_s: with the listen queue full the kernel drops the SYN,
 * and the client would retry for minutes.
 */
static int dial(int port, double timeout_s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = (time_t)timeout_s, .tv_usec = (long)((timeout_s - (time_t)timeout_s) * 1e6) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* dribble_open - a flood connection with its request line sent; -1 if the connect failed */
static int dribble_open(int port)
{
	static const char line[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n";
	int fd = dial(port, 0.5);

	if (fd >= 0 && send(fd, line, sizeof(line) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * run_dribbler - the flood, in a child until it is killed: DRIBBLERS
 * connections, each sending a header line a second and never the empty
 * line; one the server closed is opened again at its next line
 */
static void run_dribbler(int port, int report)
{
	static int fds[DRIBBLERS];
	unsigned long reopened = 0;

	for (int i = 0; i < DRIBBLERS; i++)
		fds[i] = dribble_open(port);
	if (write(report, "r", 1) != 1)
		_exit(1);
	for (unsigned tick = 0;; tick++) {
		/* a tenth of them every 100 ms: each once a second */
		for (int i = tick % 10; i < DRIBBLERS; i += 10) {
			char junk[64];

			if (fds[i] >= 0 && send(fds[i], "X-Drip: 1\r\n", 11, MSG_NOSIGNAL | MSG_DONTWAIT) == 11 &&
			    recv(fds[i], junk, sizeof(junk), MSG_DONTWAIT) < 0 && errno == EAGAIN)
				continue;
			if (fds[i] >= 0)
				close(fds[i]);
			fds[i] = dribble_open(port);
			reopened++;
		}
		usleep(100 * 1000);
	}
}

/*
 * run_storm - the storm, in a child: STORM_CONNECTS connections paced over
 * STORM_S, one in three closed at once, one held open silent, one held
 * with half a request line; at most STORM_HELD held, the oldest closed
 * first. It writes how many connects failed and how long it took.
 */
static void run_storm(int port, int report)
{
	static int held[STORM_HELD];
	int next = 0, failed = 0;
	double start = now_s();
	char line[64];

	for (int i = 0; i < STORM_HELD; i++)
		held[i] = -1;
	for (int i = 0; i < STORM_CONNECTS; i++) {
		double due = start + STORM_S * i / STORM_CONNECTS;
		int fd;

		if (now_s() < due)
			usleep((useconds_t)((due - now_s()) * 1e6));
		fd = dial(port, 0.5);
		if (fd < 0) {
			failed++;
			continue;
		}
		if (i % 3 == 0) {
			close(fd);
			continue;
		}
		if (i % 3 == 2)
			send(fd, "GET /metr", 9, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (held[next] >= 0)
			close(held[next]);
		held[next] = fd;
		next = (next + 1) % STORM_HELD;
	}
	snprintf(line, sizeof(line), "%d %.3f\n", failed, now_s() - start);
	if (write(report, line, strlen(line)) < 0)
		_exit(1);
	/* held until killed: the server is the one to close them */
	pause();
	_exit(0);
}

/* in_child - @fn(@port, the write end of a pipe) in a child that dies with the test; the read end into @report */
static pid_t in_child(void (*fn)(int port, int report), int port, int *report)
{
	int p[2];
	pid_t pid;

	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		fn(port, p[1]);
		_exit(0);
	}
	close(p[1]);
	*report = p[0];
	return pid;
}

/* what one scrape got */
struct scrape {
	int status;		/* 0: no response */
	bool whole;		/* a body with wakeprobe_scrapes_total */
	double took_s;		/* from the connect to the last byte */
	char why[96];		/* what went wrong, when something did */
};

static char buf[4 << 20];	/* the body of the last scrape */

/* scrape - GET /metrics on a fresh connection, as a scraper asks for it, given 3 s */
static void scrape(int port, struct scrape *out)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain;version=0.0.4\r\n"
				  "Connection: close\r\n\r\n";
	double start = now_s();
	size_t got = 0;
	ssize_t n = 0;
	int fd;

	memset(out, 0, sizeof(*out));
	fd = dial(port, 3);
	if (fd < 0) {
		snprintf(out->why, sizeof(out->why), "connect: %s", strerror(errno));
		out->took_s = now_s() - start;
		return;
	}
	if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) != (ssize_t)sizeof(req) - 1)
		snprintf(out->why, sizeof(out->why), "send: %s", strerror(errno));
	while (!out->why[0] && got < sizeof(buf) - 1 && (n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0)) > 0)
		got += (size_t)n;
	if (!out->why[0] && n < 0)
		snprintf(out->why, sizeof(out->why), "recv after %zu bytes: %s", got, strerror(errno));
	close(fd);
	out->took_s = now_s() - start;
	buf[got] = '\0';
	if (sscanf(buf, "HTTP/1.1 %d ", &out->status) != 1)
		out->status = 0;
	out->whole = strstr(buf, "\r\n\r\n") && strstr(buf, "\nwakeprobe_scrapes_total");
	if (!out->why[0] && !out->whole)
		snprintf(out->why, sizeof(out->why), "status %d, %zu bytes, no wakeprobe_scrapes_total", out->status,
			 got);
}

/* closed - in the last scrape, the connections the server closed early for @reason; -1: not said */
static long closed(const char *reason)
{
	char label[64];
	const char *at = buf;

	snprintf(label, sizeof(label), ",reason=\"%s\"} ", reason);
	while ((at = strstr(at, "\nwakeprobe_http_connections_closed_total{"))) {
		const char *end = strchr(at + 1, '\n'), *l = strstr(at, label);

		if (l && (!end || l < end))
			return strtol(l + strlen(label), NULL, 10);
		at++;
	}
	return -1;
}

/* raise_nofile - this process's file limit to at least @want, as root may */
static void raise_nofile(rlim_t want)
{
	struct rlimit lim;

	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
	if (lim.rlim_max < want)
		lim.rlim_max = want;
	lim.rlim_cur = lim.rlim_max;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0, "cannot raise RLIMIT_NOFILE to %lu: %s",
		     (unsigned long)want, strerror(errno));
}

/*
 * flood_and_scrape - the service started with the file limit @service_nofile
 * (0: the test's), the flood and the storm on it, the scrapes through them:
 * every one whole, 200, within SCRAPE_MAX_S; then SIGTERM, and status 0
 */
static void flood_and_scrape(rlim_t service_nofile)
{
	struct child_setup setup = { .uid = -1, .stdout_to = "/dev/null", .dies_with_test = true };
	struct scrape got[SCRAPES];
	char listen[32], line[128] = "", err[8192] = "";
	const char *drops;
	int port = free_port(), report, storm_report, answered = 0, failed = -1;
	double worst = 0, storm_s = 0, start;
	struct rlimit saved;

	skip_unless_traceable();
	raise_nofile(TEST_NOFILE);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	/* the service's limit is the test's, or lowered in its child alone when asked */
	setup.nofile = service_nofile;
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &saved), 0);
	service = spawn_piped((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, NULL }, &setup,
			      &service_out, &service_err);
	start = now_s();
	for (;;) {
		struct scrape first;

		scrape(port, &first);
		if (first.whole)
			break;
		cr_assert_lt(now_s() - start, 60, "wakeprobe never answered on %s", listen);
		cr_assert_eq(waitpid(service, NULL, WNOHANG), 0, "wakeprobe ended before it answered");
		usleep(100 * 1000);
	}
	wait_attached(service, "wakeprobe --all --listen");

	dribbler = in_child(run_dribbler, port, &report);
	cr_assert_eq(read(report, line, 1), 1, "the flood never opened");
	close(report);
	storm = in_child(run_storm, port, &storm_report);
	/* the scrapes begin with the storm, and the flood is open already */
	for (int i = 0; i < SCRAPES; i++) {
		double due = now_s() + SCRAPE_GAP_S;

		scrape(port, &got[i]);
		if (got[i].status == 200 && got[i].whole && got[i].took_s < SCRAPE_MAX_S)
			answered++;
		if (got[i].took_s > worst)
			worst = got[i].took_s;
		if (now_s() < due)
			usleep((useconds_t)((due - now_s()) * 1e6));
	}
	memset(line, 0, sizeof(line));
	if (read(storm_report, line, sizeof(line) - 1) > 0)
		sscanf(line, "%d %lf", &failed, &storm_s);
	close(storm_report);
	cr_log_info("service_load (nofile %lu): %d of %d scrapes whole within %.1f s, the worst %.3f s; the storm's "
		    "%d connects took %.2f s, %s", (unsigned long)(service_nofile ? service_nofile : saved.rlim_max),
		    answered, SCRAPES, SCRAPE_MAX_S, worst, STORM_CONNECTS, storm_s, line);
	for (int i = 0; i < SCRAPES; i++) {
		cr_expect_eq(got[i].status, 200, "scrape %d: %s (%.3f s)", i, got[i].why, got[i].took_s);
		cr_expect(got[i].whole, "scrape %d: %s", i, got[i].why);
		cr_expect_lt(got[i].took_s, SCRAPE_MAX_S, "scrape %d took %.3f s", i, got[i].took_s);
	}

	/* what the server closed, and why: a rendering a second later than the last scrape's */
	usleep(1100 * 1000);
	scrape(port, &got[0]);
	cr_assert(got[0].whole, "the last scrape: %s", got[0].why);
	drops = strstr(buf, "\nwakeprobe_dropped_events_total");
	cr_log_info("closed early: %ld timed out, %ld evicted, %ld refused; the tracer dropped %ld events",
		    closed("timed_out"), closed("evicted"), closed("refused"),
		    drops && strchr(drops + 1, ' ') ? strtol(strchr(drops + 1, ' '), NULL, 10) : -1);
	if (service_nofile) {
		/* a table smaller than the flood and the storm: they took each other's places */
		cr_expect_gt(closed("evicted"), 0);
	} else {
		/* room for them all: the flood's connections reached their head timeout instead */
		cr_expect_gt(closed("timed_out"), 0);
		cr_expect_eq(closed("evicted"), 0);
	}
	stop_child(&dribbler, SIGKILL);
	stop_child(&storm, SIGKILL);
	kill(service, SIGTERM);
	cr_expect_eq(wait_exit(service, "wakeprobe", 30), 0, "wakeprobe did not exit 0 on SIGTERM");
	service = -1;
	read_to_end(service_err, err, sizeof(err));
	cr_log_info("wakeprobe said: %s", err);
	if (!service_nofile)
		cr_expect_null(strstr(err, "connections"), "a warning on the table with a limit of %lu: %s",
			       (unsigned long)saved.rlim_max, err);
}

Test(service_load, every_scrape_is_answered_within_a_second_through_a_flood_and_a_storm)
{
	flood_and_scrape(0);
}

Test(service_load, a_table_smaller_than_the_flood_still_lets_every_scrape_through)
{
	/* room for some 1,200 connections: the flood and the storm's held ones do not fit, and are evicted */
	flood_and_scrape(1536);
}
