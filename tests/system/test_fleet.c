// SPDX-License-Identifier: GPL-2.0
/*
 * test_fleet.c - wakeprobe as a service: `--all --listen` traces the whole
 * machine while two workloads run in two cgroups made here, and /metrics,
 * scraped twice, has each cgroup's wakeups under its own label, counters
 * that grew, and a body that promtool accepts, as text and as OpenMetrics
 * on request. A real Prometheus (Debian's package) scrapes it, and its
 * histogram_quantile(0.99) of one cgroup falls in the bucket of the p99
 * wakeprobe's own JSON report gives, and every query of the Grafana
 * dashboard (dist/) gives series. --cgroup traces the tasks of one
 * cgroup and of one made under it during the run, and nothing of the
 * other; SIGTERM ends a service cleanly, SIGHUP rewrites its --prometheus
 * file and it goes on. --web-config serves HTTPS with a certificate made
 * here and asks a bcrypt password, which a SIGHUP after the file changed
 * replaces; a bad file is refused at start. Needs root and BTF, and
 * Prometheus's package, curl and openssl: skips elsewhere, saying why.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cgroups.h"
#include "helpers.h"
#include "json_reader.h"
#include "readback.h"

TestSuite(fleet, .timeout = 300);

#define BODY_MAX	(4 << 20)

static char mount[PATH_MAX];
static char cg_a[PATH_MAX + 128], cg_b[PATH_MAX + 128];	/* the two cgroups' directories */
static char rel_a[128], rel_b[128];		/* ... their paths from the hierarchy's root: their labels */
static char dir[64];
static pid_t service = -1, prometheus = -1, hog = -1;
static char report_path[PATH_MAX];
static int service_out = -1, service_err = -1;

/*
 * http_get_as - GET @path of 127.0.0.1:@port, naming the server @host,
 * asking for OpenMetrics when @openmetrics: the status into @status, the
 * body into @body (@len bytes); false when nothing listens there
 */
static bool http_get_as(int port, const char *host, const char *path, bool openmetrics, int *status, char *body,
			size_t len, char *content_type, size_t ctlen)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char req[512], *buf = malloc(BODY_MAX), *end, *ct;
	size_t got = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_not_null(buf);
	cr_assert_geq(fd, 0);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		free(buf);
		return false;
	}
	snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nAccept: %s\r\n\r\n", path,
		 host, openmetrics ? "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" :
		 "text/plain");
	cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while (got < BODY_MAX - 1 && (n = read(fd, buf + got, BODY_MAX - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	cr_assert_eq(sscanf(buf, "HTTP/1.%*d %d", status), 1, "%.200s", buf);
	end = strstr(buf, "\r\n\r\n");
	cr_assert_not_null(end);
	*end = '\0';
	content_type[0] = '\0';
	ct = strcasestr(buf, "\r\nContent-Type: ");
	if (ct)
		snprintf(content_type, ctlen, "%.*s", (int)strcspn(ct + 16, "\r\n"), ct + 16);
	snprintf(body, len, "%s", end + 4);
	free(buf);
	return true;
}

/* http_get - http_get_as() a scraper that names the server by its address */
static bool http_get(int port, const char *path, bool openmetrics, int *status, char *body, size_t len,
		     char *content_type, size_t ctlen)
{
	return http_get_as(port, "127.0.0.1", path, openmetrics, status, body, len, content_type, ctlen);
}

/* sample - the value of the first sample of @name whose labels hold @labels ("" for any); -1: none */
static double sample(const char *body, const char *name, const char *labels)
{
	size_t n = strlen(name);

	for (const char *line = body; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] ? 1 : 0)) {
		const char *end = line + strcspn(line, "\n"), *value = end;

		/* the value is after the labels, whose values may hold spaces: the last field */
		while (value > line && value[-1] != ' ')
			value--;
		if (strncmp(line, name, n) || (line[n] != '{' && line[n] != ' ') || value == line)
			continue;
		if (labels[0] && !memmem(line, (size_t)(value - line), labels, strlen(labels)))
			continue;
		return strtod(value, NULL);
	}
	return -1;
}

/* cgroup_count - the count of the wake-to-run histogram of the cgroup labelled @label in @body; -1: none */
static double cgroup_count(const char *body, const char *label)
{
	char labels[256];

	snprintf(labels, sizeof(labels), "cgroup=\"%s\"}", label);
	return sample(body, "wakeprobe_cgroup_wake_to_run_seconds_count", labels);
}

/* remove_stale - the cgroups of a run of these tests that was killed before its teardown, now empty */
static void remove_stale(void)
{
	DIR *d = opendir(mount);
	struct dirent *e;
	char path[PATH_MAX * 2];
	int pid;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "wakeprobe-fleet-%d-", &pid) == 1 && kill(pid, 0) && errno == ESRCH) {
			snprintf(path, sizeof(path), "%s/%s/late", mount, e->d_name);
			rmdir(path);
			snprintf(path, sizeof(path), "%s/%s", mount, e->d_name);
			rmdir(path);
		}
	closedir(d);
}

static void make_cgroups(void)
{
	skip_unless_traceable();
	if (cgroups__mount(mount, sizeof(mount)))
		cr_skip_test("no cgroup2 hierarchy is mounted: mount -t cgroup2 none /sys/fs/cgroup");
	remove_stale();
	snprintf(rel_a, sizeof(rel_a), "/wakeprobe-fleet-%d-a", (int)getpid());
	snprintf(rel_b, sizeof(rel_b), "/wakeprobe-fleet-%d-b", (int)getpid());
	snprintf(cg_a, sizeof(cg_a), "%s%s", mount, rel_a);
	snprintf(cg_b, sizeof(cg_b), "%s%s", mount, rel_b);
	cr_assert_eq(mkdir(cg_a, 0755), 0, "mkdir %s: %s", cg_a, strerror(errno));
	cr_assert_eq(mkdir(cg_b, 0755), 0, "mkdir %s: %s", cg_b, strerror(errno));
	snprintf(dir, sizeof(dir), "/tmp/wakeprobe-fleet-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

/* stop - @pid, if running: SIGTERM, then SIGKILL after @grace_s */
static int stop(pid_t *pid, double grace_s)
{
	int status = -1;

	if (*pid <= 0)
		return -1;
	kill(*pid, SIGTERM);
	status = wait_exit(*pid, "the process", grace_s);
	*pid = -1;
	return status;
}

/* remove_cgroup - @path, once the processes in it are gone */
static void remove_cgroup(const char *path)
{
	for (int i = 0; path[0] && i < 100; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return;
		usleep(50 * 1000);
	}
	cr_expect(false, "cannot remove the cgroup %s: %s", path, strerror(errno));
}

static void teardown(void)
{
	char cmd[128], sub[PATH_MAX + 160];

	stop(&prometheus, 10);
	stop(&service, 10);
	stop(&hog, 10);
	if (service_out >= 0)
		close(service_out);
	if (service_err >= 0)
		close(service_err);
	service_out = service_err = -1;
	snprintf(sub, sizeof(sub), "%s/late", cg_a);
	remove_cgroup(sub);
	remove_cgroup(cg_a);
	remove_cgroup(cg_b);
	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		cr_expect_eq(system(cmd), 0);
	}
}

/*
 * in_cgroup_held - run @argv in the cgroup at @path from its first
 * instruction; with @go, held before its exec until a byte comes down
 * *@go, so that its pid is the process's from the start, for a witness to
 * count all its life. Its pid.
 */
static pid_t in_cgroup_held(const char *path, char *const argv[], int *go)
{
	int p[2] = { -1, -1 };
	pid_t pid;

	if (go)
		cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		char procs[PATH_MAX + 160], byte;
		int fd, null = open("/dev/null", O_RDWR);

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
		fd = open(procs, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(126);
		close(fd);
		if (go) {
			close(p[1]);
			if (read(p[0], &byte, 1) != 1)
				_exit(125);
		}
		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (go) {
		close(p[0]);
		*go = p[1];
	}
	return pid;
}

/* in_cgroup - in_cgroup_held(), not held */
static pid_t in_cgroup(const char *path, char *const argv[])
{
	return in_cgroup_held(path, argv, NULL);
}

/* run_eventfd - the eventfd workload in @cgroup, @samples wakeups @interval_us apart, to its end */
static void run_eventfd(const char *cgroup, const char *samples, const char *interval_us)
{
	char path[512];
	char *argv[] = { (char *)workload_path("eventfd", path, sizeof(path)), "--samples", (char *)samples,
			 "--interval-us", (char *)interval_us, NULL };
	pid_t pid = in_cgroup(cgroup, argv);

	cr_assert_eq(wait_exit(pid, "the eventfd workload", 60), 0);
}

/*
 * start_service_as - wakeprobe with @args after it, as @uid (-1: this
 * process's) with @caps as its ambient capabilities, its report into the
 * test's directory; back once it answers on @port
 */
static void start_service_as(char *const args[], int port, int uid, uint64_t caps)
{
	struct child_setup setup = { .uid = uid, .ambient_caps = caps, .stdout_to = report_path,
				     .dies_with_test = true };
	char body[256], ct[128];
	double until = now_s() + 60;
	int status;

	snprintf(report_path, sizeof(report_path), "%s/report.txt", dir);
	close(open(report_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
	service = spawn_piped(args, &setup, &service_out, &service_err);
	while (!http_get(port, "/", false, &status, body, sizeof(body), ct, sizeof(ct))) {
		cr_assert_lt(now_s(), until, "wakeprobe never listened on port %d", port);
		cr_assert_eq(waitpid(service, &status, WNOHANG), 0, "wakeprobe ended before it listened");
		usleep(100 * 1000);
	}
	wait_attached(service, "wakeprobe --listen");
}

/* start_service - start_service_as() this process's user */
static void start_service(char *const args[], int port)
{
	start_service_as(args, port, -1, 0);
}

/* body_accepted - `promtool check metrics` of @body, a scrape */
static void body_accepted(const char *body)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/scrape.prom", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(body, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert(promtool_accepts(path));
}

/* report_names - the text report the service left names the cgroup labelled @label */
static void report_names(const char *label)
{
	char *text = malloc(BODY_MAX);
	int fd = open(report_path, O_RDONLY | O_CLOEXEC);

	cr_assert_not_null(text);
	cr_assert_geq(fd, 0, "no report at %s", report_path);
	read_to_end(fd, text, BODY_MAX);
	close(fd);
	cr_assert_not_null(strstr(text, "Cgroups, the "), "%.3000s", text);
	cr_assert_not_null(strstr(text, label), "the report names %s:\n%.3000s", label, text);
	free(text);
}

static void skip_without_prometheus(void)
{
	if (system("command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1"))
		cr_skip_test("prometheus and promtool are not installed: scripts/setup-deps.sh test installs them "
			     "(Debian package prometheus)");
}

Test(fleet, each_cgroups_wakeups_are_under_its_label_and_the_counters_grow, .init = make_cgroups,
     .fini = teardown)
{
	char listen[32], *body = malloc(BODY_MAX), ct[128];
	double a1, b1, a2, b2, scrapes1, scrapes2;
	int port = free_port(), status;

	cr_assert_not_null(body);
	skip_without_prometheus();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	start_service((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, NULL }, port);
	run_eventfd(cg_a, "300", "1000");
	run_eventfd(cg_b, "100", "1000");
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	cr_assert_str_eq(ct, "text/plain; version=0.0.4; charset=utf-8");
	body_accepted(body);
	a1 = cgroup_count(body, rel_a);
	b1 = cgroup_count(body, rel_b);
	scrapes1 = sample(body, "wakeprobe_scrapes_total", "");
	/* each ran a thread woken once a sample at least: its own label, its own count */
	cr_assert_geq(a1, 300, "cgroup %s: %.0f wakeups in\n%.2000s", rel_a, a1, body);
	cr_assert_geq(b1, 100, "cgroup %s: %.0f wakeups", rel_b, b1);
	cr_assert_lt(b1, a1);
	run_eventfd(cg_a, "200", "1000");
	run_eventfd(cg_b, "200", "1000");
	/* a scrape is served a rendering up to a second old (SERVICE_RENDER_EVERY_NS) */
	usleep(1100 * 1000);
	cr_assert(http_get(port, "/metrics", true, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	cr_assert_str_eq(ct, "application/openmetrics-text; version=1.0.0; charset=utf-8");
	cr_assert_not_null(strstr(body, "\n# EOF\n"), "OpenMetrics ends in # EOF");
	cr_assert_not_null(strstr(body, "# TYPE wakeprobe_scrapes counter\n"), "a counter's family drops _total");
	a2 = cgroup_count(body, rel_a);
	b2 = cgroup_count(body, rel_b);
	cr_assert_geq(a2, a1 + 200, "%.0f then %.0f", a1, a2);
	cr_assert_geq(b2, b1 + 200, "%.0f then %.0f", b1, b2);
	scrapes2 = sample(body, "wakeprobe_scrapes_total", "");
	cr_assert_eq(scrapes2, scrapes1 + 1, "%.0f then %.0f", scrapes1, scrapes2);
	/* SIGTERM ends it cleanly: exit 0, and a report naming both cgroups */
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	report_names(rel_a);
	free(body);
}

/*
 * witnessed - the workload @name in the cgroup at @cgroup with @args,
 * counted by the witness (bench/wake-count) from before its exec to its
 * end: the witness's count of its wakeups
 */
static unsigned long long witnessed(const char *cgroup, const char *name, const char *samples, const char *interval)
{
	char path[512], pid_arg[16], line[256], out[4096];
	char *argv[] = { (char *)workload_path(name, path, sizeof(path)), "--samples", (char *)samples,
			 "--interval-us", (char *)interval, NULL };
	char *witness_args[] = { getenv("WAKE_COUNT"), "0", pid_arg, NULL };
	int go, w_out, w_err;
	unsigned long long counted = 0;
	pid_t pid = in_cgroup_held(cgroup, argv, &go), witness;
	const char *at;

	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)pid);
	witness = spawn_piped(witness_args, NULL, &w_out, &w_err);
	read_line(w_err, line, sizeof(line));
	cr_assert(strstr(line, "counting"), "the witness did not start: '%s'", line);
	cr_assert_eq(write(go, "g", 1), 1);
	close(go);
	cr_assert_eq(wait_exit(pid, name, 60), 0);
	kill(witness, SIGINT);
	cr_assert_eq(wait_exit(witness, "the witness", 30), 0);
	read_to_end(w_out, out, sizeof(out));
	close(w_out);
	close(w_err);
	at = strstr(out, "wakeups ");
	cr_assert(at && sscanf(at, "wakeups %llu", &counted) == 1, "the witness said '%s'", out);
	return counted;
}

Test(fleet, a_services_sums_count_each_cgroups_wakeups_as_a_witness_counts_them, .init = make_cgroups,
     .fini = teardown)
{
	char listen[32], json[PATH_MAX + 16], check[2048];
	unsigned long long a, b;
	int port = free_port(), status;

	if (!getenv("WAKE_COUNT"))
		cr_skip_test("set WAKE_COUNT to the witness, build/bench/wake-count (make test does)");
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(json, sizeof(json), "%s/service.json", dir);
	start_service((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, "--json", json, NULL }, port);
	a = witnessed(cg_a, "eventfd", "2000", "500");
	b = witnessed(cg_b, "pipe", "1000", "1000");
	/* the last of the sums are taken at the end, after the last record */
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	/*
	 * Each cgroup's complete wakeups, summed in the kernel but for the slow
	 * ones, are the witness's sched_wakeups of its tasks, less those that
	 * are no complete wakeup of the lean engine's: a wake that found its
	 * task on its CPU, or not asleep, and one whose switch-in went
	 * untraced. Those are counted for the machine alone; they bound the gap.
	 */
	snprintf(check, sizeof(check),
		 "w = d['wakeups']; e = d['events']\n"
		 "assert w['summed_complete'] > 0 and w['sums_refused'] == 0, w\n"
		 "assert e['dropped'] == 0, e\n"
		 "rows = {r['cgroup']: r['wakeups'] for r in d['cgroups']['by_cgroup']}\n"
		 "slack = e['lean_woke_running'] + e['lean_wakeup_unpaired'] + e['lean_no_storage'] + w['not_in_table']\n"
		 "for label, seen in (('%s', %llu), ('%s', %llu)):\n"
		 "    n = rows.get(label, 0)\n"
		 "    assert n <= seen <= n + slack, (label, n, seen, slack)\n"
		 "    print('sums: %%s: wakeprobe %%d complete, the witness %%d wakeups (the machine\\'s others: %%d)' %% (label, n, seen, slack))\n",
		 rel_a, a, rel_b, b);
	cr_assert(json_check(json, "%s", check), "the sums differ from the witness's counts");
}

/*
 * promql_n - @query's first value, as Prometheus at 127.0.0.1:@port answers
 * it through its HTTP API (python3 reads the JSON), NAN when it has none,
 * and how many series it gave into @series (NULL: not asked); a query
 * Prometheus refuses fails the test
 */
static double promql_n(int port, const char *query, int *series)
{
	static const char script[] =
		"import json, sys, urllib.parse, urllib.request\n"
		"url = 'http://127.0.0.1:' + sys.argv[1] + '/api/v1/query?' + urllib.parse.urlencode({'query': sys.argv[2]})\n"
		"r = json.load(urllib.request.urlopen(url, timeout=10))\n"
		"assert r['status'] == 'success', r\n"
		"res = r['data']['result']\n"
		"print(res[0]['value'][1] if res else 'nan', len(res))\n";
	char cmd[4096], out[2048] = "";
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "python3 -c \"$WP_PROMQL\" %d '%s' 2>&1", port, query);
	setenv("WP_PROMQL", script, 1);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	cr_assert_eq(pclose(p), 0, "the query %s: %s", query, out);
	if (series)
		*series = atoi(strchr(out, ' ') ? strchr(out, ' ') + 1 : "0");
	return strtod(out, NULL);
}

static double promql(int port, const char *query)
{
	return promql_n(port, query, NULL);
}

/* dashboard_queries_answer - every query of dist/grafana-dashboard.json gives series, the data as it is now */
static void dashboard_queries_answer(int port)
{
	char cmd[PATH_MAX + 64], line[1024];
	int queries = 0, series;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "python3 '%s/../../scripts/dashboard-queries.py'", fixtures_dir());
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		promql_n(port, line, &series);
		cr_expect_gt(series, 0, "the dashboard's query gave no series: %s", line);
		queries++;
	}
	cr_assert_eq(pclose(p), 0);
	cr_assert_geq(queries, 8, "the dashboard's queries: %d", queries);
}

/* spawn_logged - @argv (found in PATH), its output into @log in the test's directory */
static pid_t spawn_logged(char *const argv[], const char *log)
{
	char path[PATH_MAX];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, log);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), null = open("/dev/null", O_RDONLY);

		/* a test killed by its timeout leaves no server behind */
		if (fd < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* start_prometheus - Debian's prometheus on 127.0.0.1:@port, scraping wakeprobe on @target every second */
static void start_prometheus(int port, int target)
{
	char config[PATH_MAX], data[PATH_MAX], listen[64], cfg_arg[PATH_MAX + 16], data_arg[PATH_MAX + 32];
	char listen_arg[96];
	double until = now_s() + 60;
	FILE *f;

	snprintf(config, sizeof(config), "%s/prometheus.yml", dir);
	snprintf(data, sizeof(data), "%s/tsdb", dir);
	f = fopen(config, "w");
	cr_assert_not_null(f);
	fprintf(f, "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
		"scrape_configs:\n  - job_name: wakeprobe\n    static_configs:\n"
		"      - targets: ['127.0.0.1:%d']\n", target);
	cr_assert_eq(fclose(f), 0);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(cfg_arg, sizeof(cfg_arg), "--config.file=%s", config);
	snprintf(data_arg, sizeof(data_arg), "--storage.tsdb.path=%s", data);
	snprintf(listen_arg, sizeof(listen_arg), "--web.listen-address=%s", listen);
	prometheus = spawn_logged((char *[]){ "prometheus", cfg_arg, data_arg, listen_arg, NULL }, "prometheus.log");
	/* up once it answers a query */
	for (;;) {
		char body[256], ct[64];
		int status;

		if (http_get(port, "/-/ready", false, &status, body, sizeof(body), ct, sizeof(ct)) && status == 200)
			break;
		cr_assert_lt(now_s(), until, "prometheus did not start on %s", listen);
		usleep(200 * 1000);
	}
}

Test(fleet, prometheus_scrapes_it_and_its_p99_of_a_cgroup_falls_in_the_bucket_of_wakeprobes_own,
     .init = make_cgroups, .fini = teardown)
{
	char listen[32], json[PATH_MAX], query[512], err[256], *text;
	int port = free_port(), prom_port = free_port();
	const struct json_node *rows;
	struct json_doc *doc;
	uint64_t p99_ns = 0, low, high;
	double q, scrapes, first, until;
	int fd, status;

	skip_without_prometheus();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(json, sizeof(json), "%s/run.json", dir);
	start_service((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, "--json", json, NULL }, port);
	start_prometheus(prom_port, port);
	run_eventfd(cg_a, "2000", "500");
	/* the workload is over: two scrapes more, and its cgroup's numbers are those of the end */
	until = now_s() + 60;
	snprintf(query, sizeof(query), "count_over_time(up{job=\"wakeprobe\"}[5m])");
	/* the scrapes so far (none yet: NaN), then two more */
	for (first = promql(prom_port, query); isnan(first); first = promql(prom_port, query)) {
		cr_assert_lt(now_s(), until, "prometheus never scraped 127.0.0.1:%d", port);
		usleep(500 * 1000);
	}
	for (scrapes = first; scrapes < first + 2; scrapes = promql(prom_port, query)) {
		cr_assert_lt(now_s(), until, "prometheus scraped %.0f times, %.0f at first", scrapes, first);
		usleep(500 * 1000);
	}
	cr_assert_eq(promql(prom_port, "min(up{job=\"wakeprobe\"})"), 1);
	snprintf(query, sizeof(query), "histogram_quantile(0.99, sum by (le) (wakeprobe_cgroup_wake_to_run_seconds_bucket"
		 "{cgroup=\"%s\"}))", rel_a);
	q = promql(prom_port, query);
	dashboard_queries_answer(prom_port);
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);

	/* wakeprobe's own p99 of the cgroup, from its JSON */
	text = malloc(BODY_MAX);
	cr_assert_not_null(text);
	fd = open(json, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	read_to_end(fd, text, BODY_MAX);
	close(fd);
	doc = json_reader__parse(text, strlen(text), err, sizeof(err));
	cr_assert_not_null(doc, "%s", err);
	rows = json_reader__get(json_reader__get(json_reader__root(doc), "cgroups"), "by_cgroup");
	cr_assert_not_null(rows, "no cgroups.by_cgroup in %s", json);
	for (size_t i = 0; i < json_reader__len(rows); i++) {
		const struct json_node *r = json_reader__at(rows, i);
		const char *label = json_reader__get_string(r, "cgroup");

		if (label && !strcmp(label, rel_a))
			cr_assert(json_reader__get_u64(json_reader__get(r, "wake_to_run"), "p99_ns", &p99_ns));
	}
	cr_assert_gt(p99_ns, 0, "no p99 for %s in %s", rel_a, json);
	json_reader__free(doc);
	free(text);
	/* the log2 bucket it lies in: le of the row below, and its own (prom.h) */
	low = 1;
	while (low * 2 <= p99_ns)
		low *= 2;
	high = 2 * low - 1;
	cr_log_info("prometheus's p99 of %s: %.9f s; wakeprobe's: %llu ns, bucket %llu..%llu ns", rel_a, q,
		    (unsigned long long)p99_ns, (unsigned long long)(low - 1), (unsigned long long)high);
	cr_assert(q * 1e9 >= (double)(low - 1) - 1 && q * 1e9 <= (double)high + 1,
		  "prometheus's p99 %.9f s is not in the bucket of wakeprobe's %llu ns (%llu..%llu)", q,
		  (unsigned long long)p99_ns, (unsigned long long)(low - 1), (unsigned long long)high);
}

Test(fleet, cgroup_traces_its_cgroup_and_one_made_under_it_and_nothing_else, .init = make_cgroups, .fini = teardown)
{
	char listen[32], late[PATH_MAX + 160], late_label[160], *body = malloc(BODY_MAX), ct[128], prom[PATH_MAX];
	char json[PATH_MAX];
	int port = free_port(), status;
	struct stat st;

	cr_assert_not_null(body);
	skip_without_prometheus();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(prom, sizeof(prom), "%s/live.prom", dir);
	snprintf(json, sizeof(json), "%s/live.json", dir);
	start_service((char *[]){ (char *)wakeprobe_path(), "--cgroup", rel_a, "--listen", listen, "--prometheus",
				  prom, "--json", json, NULL }, port);
	/* made while it runs, under the traced one */
	snprintf(late, sizeof(late), "%s/late", cg_a);
	cr_assert_eq(mkdir(late, 0755), 0);
	snprintf(late_label, sizeof(late_label), "%s/late", rel_a);
	run_eventfd(late, "200", "1000");
	run_eventfd(cg_b, "200", "1000");
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	cr_assert_geq(cgroup_count(body, late_label), 200, "%s: %.0f in\n%.3000s", late_label,
		      cgroup_count(body, late_label), strstr(body, "wakeprobe_cgroup_wake_to_run_seconds_count") ?
		      strstr(body, "wakeprobe_cgroup_wake_to_run_seconds_count") : body);
	cr_assert_eq(cgroup_count(body, rel_b), -1, "%s is not traced", rel_b);
	body_accepted(body);
	/* SIGHUP: the --prometheus and --json files now, and the service goes on */
	cr_assert_eq(stat(prom, &st), -1, "no file before it is asked for");
	cr_assert_eq(stat(json, &st), -1, "no file before it is asked for");
	kill(service, SIGHUP);
	for (double until = now_s() + 10; stat(prom, &st) || stat(json, &st); usleep(50 * 1000))
		cr_assert_lt(now_s(), until, "SIGHUP wrote no %s or no %s", prom, json);
	cr_assert(json_check(json, "assert any(c['cgroup'].endswith('/late') and c['wakeups'] >= 200 "
			     "for c in d['cgroups']['by_cgroup'])"), "the run so far, its late cgroup in it");
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)), "it goes on");
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	free(body);
}

/*
 * A task --cgroup traced is counted while it is in the traced cgroup, not
 * after it was moved out of it: a paced eventfd workload starts in the
 * traced cgroup and is moved to its sibling a second into its three; its
 * wakeups after the move are under no label, and the traced cgroup has
 * about its first second's.
 */
Test(fleet, a_task_moved_out_of_the_traced_cgroup_is_counted_no_more, .init = make_cgroups, .fini = teardown)
{
	char listen[32], json[PATH_MAX], procs[PATH_MAX + 160], path[512], pid_text[32];
	char *argv[] = { (char *)workload_path("eventfd", path, sizeof(path)), "--samples", "3000", "--interval-us",
			 "1000", NULL };
	int port = free_port(), fd, status;
	pid_t workload;

	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(json, sizeof(json), "%s/moved.json", dir);
	start_service((char *[]){ (char *)wakeprobe_path(), "--cgroup", rel_a, "--listen", listen, "--json", json,
				  NULL }, port);
	workload = in_cgroup(cg_a, argv);
	usleep(1000 * 1000);
	/* cgroup v2 moves the whole process, every thread (cgroups(7)) */
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg_b);
	snprintf(pid_text, sizeof(pid_text), "%d", (int)workload);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "%s: %s", procs, strerror(errno));
	cr_assert_eq(write(fd, pid_text, strlen(pid_text)), (ssize_t)strlen(pid_text), "%s", strerror(errno));
	close(fd);
	cr_assert_eq(wait_exit(workload, "the eventfd workload", 60), 0);
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	cr_assert(json_check(json, "assert not any(c['cgroup'] == '%s' for c in d['cgroups']['by_cgroup']), "
			     "[c for c in d['cgroups']['by_cgroup']]", rel_b), "after the move, nothing under %s", rel_b);
	cr_assert(json_check(json, "n = sum(c['wakeups'] for c in d['cgroups']['by_cgroup'] if c['cgroup'] == '%s'); "
			     "assert 300 <= n <= 2500, n", rel_a),
		  "about the first of the three seconds under %s", rel_a);
}

/*
 * What a service publishes is the operator's to say: a command's arguments
 * stay out of the target label, a name it was not told of is refused in
 * Host (a browser's page reaching the metrics by DNS rebinding), and one
 * it was told of (--allow-host, a DNS alias) is answered.
 */
Test(fleet, a_command_is_published_by_its_name_and_a_scrape_must_name_the_machine, .init = make_cgroups,
     .fini = teardown)
{
	char listen[32], path[512], label[600], *body = malloc(BODY_MAX), ct[128];
	int port = free_port(), status;

	cr_assert_not_null(body);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	workload_path("eventfd", path, sizeof(path));
	start_service((char *[]){ (char *)wakeprobe_path(), "--listen", listen, "--allow-host", "metrics-alias.example",
				  "--", path, "--samples", "100000", "--interval-us", "1000", NULL }, port);
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	snprintf(label, sizeof(label), "target=\"%s\"", path);
	cr_assert_not_null(strstr(body, label), "labelled by the command's name: %.600s", body);
	cr_assert_null(strstr(body, "--samples"), "its arguments are not published: %.600s", body);
	cr_assert(http_get_as(port, "attacker.example", "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 421, "another name is misdirected");
	cr_assert(http_get_as(port, "metrics-alias.example:80", "/metrics", false, &status, body, BODY_MAX, ct,
			      sizeof(ct)));
	cr_assert_eq(status, 200, "the alias it was told of is answered");
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	free(body);
}

/*
 * --chains by cgroup: relay (tests/tools/relay.c) in cgroup a, its worker
 * on CPU 1, where a task of cgroup b spins fifteen nice levels above it.
 * The client's waits in a wait on the worker, whose own waits for CPU 1
 * are behind b's task: b held a's critical paths, as="wait", and the
 * family never puts a cgroup down as holding its own.
 */
Test(fleet, the_neighbour_on_a_workers_cpu_is_said_to_hold_its_clients_critical_path, .init = make_cgroups,
     .fini = teardown)
{
	char listen[32], procs[PATH_MAX + 160], pid[16], labels[512], *body = malloc(BODY_MAX), ct[128];
	char *relay[] = { (char *)relay_path(), "--rounds", "2", "--per-round", "400", "--worker-cpu", "1", NULL };
	int port = free_port(), status, fd;
	double held, own;

	cr_assert_not_null(body);
	skip_without_prometheus();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	start_service((char *[]){ (char *)wakeprobe_path(), "--cgroup", cg_a, "--chains", "--listen", listen, NULL },
		      port);
	hog = spawn_hog("wphog", 1);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg_b);
	snprintf(pid, sizeof(pid), "%d", (int)hog);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	cr_assert(fd >= 0 && write(fd, pid, strlen(pid)) == (ssize_t)strlen(pid), "into %s: %s", procs,
		  strerror(errno));
	close(fd);
	cr_assert_eq(setpriority(PRIO_PROCESS, (id_t)hog, getpriority(PRIO_PROCESS, 0) - 15), 0);
	cr_assert_eq(wait_exit(in_cgroup(cg_a, relay), "relay", 120), 0);
	stop(&hog, 10);
	/* a scrape is served a rendering up to a second old (SERVICE_RENDER_EVERY_NS) */
	usleep(1100 * 1000);
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	body_accepted(body);
	snprintf(labels, sizeof(labels), "cgroup=\"%s\",holder=\"%s\",as=\"wait\"}", rel_a, rel_b);
	held = sample(body, "wakeprobe_cgroup_chain_held_seconds_total", labels);
	snprintf(labels, sizeof(labels), "cgroup=\"%s\",holder=\"%s\"", rel_a, rel_a);
	own = sample(body, "wakeprobe_cgroup_chain_held_seconds_total", labels);
	cr_log_info("cgroup %s: %.6f s of its critical paths waiting behind %s", rel_a, held, rel_b);
	cr_assert_geq(held, 0.001, "%s held %.6f s of %s's critical paths:\n%.4000s", rel_b, held, rel_a,
		      strstr(body, "# HELP wakeprobe_cgroup_chain_held") ?: body);
	cr_assert_eq(own, -1, "a cgroup is put down as holding its own critical path");
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	free(body);
}

/* ------------------------------------------------------------ least privilege */

/*
 * The capabilities dist/wakeprobe.service grants its user, in
 * AmbientCapabilities= and CapabilityBoundingSet= alike: the set the
 * service is run with below, which the unit's lines are held to, so that
 * the two cannot drift apart (include/uapi/linux/capability.h's numbers).
 */
static const struct {
	const char *name;
	int nr;
} unit_caps[] = {
	{ "CAP_BPF", 39 },
	{ "CAP_PERFMON", 38 },
	{ "CAP_DAC_READ_SEARCH", 2 },
};
#define NR_UNIT_CAPS (sizeof(unit_caps) / sizeof(unit_caps[0]))

static uint64_t unit_caps_mask(void)
{
	uint64_t mask = 0;

	for (size_t i = 0; i < NR_UNIT_CAPS; i++)
		mask |= 1ull << unit_caps[i].nr;
	return mask;
}

/* unit_line_caps - the capabilities the one line "@key=..." of @unit names, as a mask; fails the test on a name not in unit_caps */
static uint64_t unit_line_caps(const char *unit, const char *key)
{
	char line[512], *save = NULL;
	const char *at = NULL;
	uint64_t mask = 0;
	size_t klen = strlen(key);
	int lines = 0;

	for (const char *l = unit; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0))
		if (!strncmp(l, key, klen) && l[klen] == '=') {
			at = l + klen + 1;
			lines++;
		}
	cr_assert_eq(lines, 1, "the unit has %d %s= lines, not one", lines, key);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(at, "\n"), at);
	for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i = 0;

		while (i < NR_UNIT_CAPS && strcmp(w, unit_caps[i].name))
			i++;
		cr_assert_lt(i, NR_UNIT_CAPS, "%s= names %s, which the service is not tested with", key, w);
		mask |= 1ull << unit_caps[i].nr;
	}
	return mask;
}

Test(fleet, the_units_capability_lines_grant_the_set_the_service_is_tested_with)
{
	char path[PATH_MAX];
	size_t len;
	char *unit = read_file(tests_file("../dist/wakeprobe.service", path, sizeof(path)), &len);

	cr_assert_not_null(unit, "no unit at %s", path);
	cr_expect_eq(unit_line_caps(unit, "AmbientCapabilities"), unit_caps_mask());
	cr_expect_eq(unit_line_caps(unit, "CapabilityBoundingSet"), unit_caps_mask());
	cr_expect(strstr(unit, "\nUser=wakeprobe\n"), "the unit runs as its own user");
	free(unit);
}

/*
 * reachable_by_others - @path, or a copy of it in the test's directory when some
 * directory above it is not searchable by others (a tree cloned under
 * /root) or the file is not theirs to run: a program another user can exec
 */
static const char *reachable_by_others(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX], cmd[PATH_MAX * 2 + 32];
	struct stat st;
	bool reachable;

	cr_assert_not_null(realpath(path, real), "%s: %s", path, strerror(errno));
	reachable = !stat(real, &st) && (st.st_mode & S_IROTH) && (st.st_mode & S_IXOTH);
	for (char *slash = strrchr(real, '/'); reachable && slash && slash != real; slash = strrchr(real, '/')) {
		*slash = '\0';
		reachable = !stat(real, &st) && (st.st_mode & S_IXOTH);
	}
	if (reachable)
		return path;
	/* mkdtemp made it 0700, root's */
	cr_assert_eq(chmod(dir, 0711), 0);
	snprintf(buf, len, "%s/wakeprobe", dir);
	snprintf(cmd, sizeof(cmd), "install -m 0755 '%s' '%s'", path, buf);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	return buf;
}

/* status_hex - the hexadecimal field @key of /proc/@pid/status (CapEff and so on) */
/* status_field - the hexadecimal field @key of @text, a /proc/PID/status's; fails the test when it is not there */
static uint64_t status_field(const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, key, n) && line[n] == ':')
			return strtoull(line + n + 1, NULL, 16);
	cr_assert_fail("no %s in:\n%s", key, text);
	return 0;
}

static uint64_t status_hex(pid_t pid, const char *key)
{
	char path[64], text[4096];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	read_to_end(fd, text, sizeof(text));
	close(fd);
	return status_field(text, key);
}

/*
 * The service as the unit runs it, without root: a user of no privilege
 * (nobody, on every Debian) holding the unit's capabilities alone, as
 * ambient ones. It holds exactly those, and names and counts a cgroup's
 * wakeups as root does, with no word of a capability it lacks.
 */
Test(fleet, a_user_with_the_units_capabilities_alone_counts_each_cgroups_wakeups_under_its_label,
     .init = make_cgroups, .fini = teardown)
{
	char listen[32], *body = malloc(BODY_MAX), ct[128], copy[PATH_MAX], said[4096], uids[128];
	struct passwd *nobody = getpwnam("nobody");
	int port = free_port(), status;
	const char *bin;
	double a, b;
	FILE *f;

	cr_assert_not_null(body);
	if (!nobody)
		cr_skip_test("there is no user nobody to run the service as");
	bin = reachable_by_others(wakeprobe_path(), copy, sizeof(copy));
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	start_service_as((char *[]){ (char *)bin, "--all", "--listen", listen, NULL }, port, (int)nobody->pw_uid,
			 unit_caps_mask());
	/* what it holds: those capabilities, effective and ambient, and not one more; no uid of root's */
	cr_assert_eq(status_hex(service, "CapEff"), unit_caps_mask(), "CapEff %llx",
		     (unsigned long long)status_hex(service, "CapEff"));
	cr_assert_eq(status_hex(service, "CapPrm"), unit_caps_mask());
	cr_assert_eq(status_hex(service, "CapAmb"), unit_caps_mask());
	snprintf(said, sizeof(said), "/proc/%d/status", (int)service);
	f = fopen(said, "re");
	cr_assert_not_null(f);
	uids[0] = '\0';
	while (fgets(uids, sizeof(uids), f) && strncmp(uids, "Uid:", 4))
		;
	fclose(f);
	snprintf(said, sizeof(said), "Uid:\t%u\t%u\t%u\t%u\n", nobody->pw_uid, nobody->pw_uid, nobody->pw_uid,
		 nobody->pw_uid);
	cr_assert_str_eq(uids, said, "real, effective, saved and file-system uid all nobody's");
	run_eventfd(cg_a, "300", "1000");
	run_eventfd(cg_b, "100", "1000");
	/* a scrape is served a rendering up to a second old (SERVICE_RENDER_EVERY_NS) */
	usleep(1100 * 1000);
	cr_assert(http_get(port, "/metrics", false, &status, body, BODY_MAX, ct, sizeof(ct)));
	cr_assert_eq(status, 200);
	a = cgroup_count(body, rel_a);
	b = cgroup_count(body, rel_b);
	/* named, by their handles: each under its own label, each thread woken once a sample at least */
	cr_assert_geq(a, 300, "cgroup %s: %.0f wakeups in\n%.2000s", rel_a, a, body);
	cr_assert_geq(b, 100, "cgroup %s: %.0f wakeups", rel_b, b);
	cr_assert_lt(b, a);
	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	read_to_end(service_err, said, sizeof(said));
	cr_assert_null(strstr(said, "lacks"), "it lacks nothing it needs: %s", said);
	report_names(rel_a);
	free(body);
}

/*
 * The capabilities the unit gives wakeprobe are for tracing, not for the
 * commands it starts: run so, it starts one that prints its own, which
 * are none, whichever set is asked.
 */
Test(fleet, a_command_started_by_a_user_with_the_units_capabilities_gets_none_of_them, .init = make_cgroups,
     .fini = teardown)
{
	struct passwd *nobody = getpwnam("nobody");
	char copy[PATH_MAX], out[16384], err[4096];
	struct child_setup setup = { .ambient_caps = unit_caps_mask(), .dies_with_test = true };
	const char *bin;
	int o, e;
	pid_t pid;

	if (!nobody)
		cr_skip_test("there is no user nobody to run wakeprobe as");
	bin = reachable_by_others(wakeprobe_path(), copy, sizeof(copy));
	setup.uid = (int)nobody->pw_uid;
	pid = spawn_piped((char *[]){ (char *)bin, "--", "/bin/grep", "^Cap", "/proc/self/status", NULL }, &setup, &o,
			  &e);
	read_to_end(o, out, sizeof(out));
	read_to_end(e, err, sizeof(err));
	close(o);
	close(e);
	cr_assert_eq(wait_exit(pid, "wakeprobe -- grep", 60), 0, "%s", err);
	cr_expect_eq(status_field(out, "CapEff"), 0, "%s", out);
	cr_expect_eq(status_field(out, "CapPrm"), 0, "%s", out);
	cr_expect_eq(status_field(out, "CapInh"), 0, "%s", out);
	cr_expect_eq(status_field(out, "CapAmb"), 0, "%s", out);
}

/* run_quiet - @cmd by the shell, its output to /dev/null: 0, or the failed test says what */
static void run_quiet(const char *cmd)
{
	char line[2048];

	snprintf(line, sizeof(line), "%s >/dev/null 2>&1", cmd);
	cr_assert_eq(system(line), 0, "%s failed", cmd);
}

static void skip_without_curl(void)
{
	if (system("command -v curl >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 && "
		   "command -v htpasswd >/dev/null 2>&1"))
		cr_skip_test("curl, openssl or htpasswd is not installed: scripts/setup-deps.sh test installs them");
}

/* make_cert - a P-256 key and a certificate of it for 127.0.0.1 and localhost, as an operator makes them */
static void make_cert(const char *key, const char *crt)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
		 "-keyout '%s' -out '%s' -days 1 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost",
		 key, crt);
	run_quiet(cmd);
}

/* bcrypt_of - htpasswd's bcrypt hash of @password, cost 5, into @hash */
static void bcrypt_of(const char *password, char hash[64])
{
	char cmd[256], line[256];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "htpasswd -nbBC 5 user '%s'", password);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	cr_assert_not_null(fgets(line, sizeof(line), p));
	pclose(p);
	line[strcspn(line, "\r\n")] = '\0';
	cr_assert(!strncmp(line, "user:$2y$05$", 12) && strlen(line + 5) == 60, "%s", line);
	memcpy(hash, line + 5, 61);
}

/* write_web_config - @text into @path whole, by a rename, as an operator's tools replace a file */
static void write_web_config(const char *path, const char *text)
{
	char tmp[PATH_MAX + 8];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(rename(tmp, path), 0);
}

/*
 * curl_get - @url by curl, trusting the test's certificate, as @user
 * ("name:password", NULL for none): the status (0 when no HTTP answer
 * came), the body into @body
 */
static int curl_get(const char *url, const char *user, char *body, size_t len)
{
	char cmd[2048], out[128];
	int code = 0, fd;
	FILE *p;

	snprintf(out, sizeof(out), "%s/curl.out", dir);
	unlink(out);
	snprintf(cmd, sizeof(cmd), "curl -s --max-time 10 --cacert '%s/server.crt' %s%s%s -o '%s' -w '%%{http_code}' '%s'",
		 dir, user ? "-u '" : "", user ? user : "", user ? "'" : "", out, url);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	if (fscanf(p, "%d", &code) != 1)
		code = 0;
	pclose(p);
	body[0] = '\0';
	fd = open(out, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		read_to_end(fd, body, len);
		close(fd);
	}
	return code;
}

/*
 * A fleet service over HTTPS with a password: curl with the test's CA and
 * the password gets the metrics; without it, or with a wrong one, 401 and
 * none; plain HTTP on the TLS port none. A SIGHUP after the file changed
 * puts its new password in force and the old one out; a bad file then is
 * said in one line and the good one before stays.
 */
Test(fleet, web_config_serves_https_behind_a_password_that_sighup_replaces, .init = make_cgroups, .fini = teardown)
{
	char listen[32], web[PATH_MAX], key[PATH_MAX], crt[PATH_MAX], url[64], plain[64], hash[64], text[512];
	char *body = malloc(BODY_MAX), *err = malloc(65536);
	struct child_setup setup = { .uid = -1, .dies_with_test = true };
	int port = free_port(), status, code;
	double until;

	skip_without_curl();
	cr_assert(body && err);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/metrics", port);
	snprintf(plain, sizeof(plain), "http://127.0.0.1:%d/metrics", port);
	snprintf(web, sizeof(web), "%s/web.yml", dir);
	snprintf(key, sizeof(key), "%s/server.key", dir);
	snprintf(crt, sizeof(crt), "%s/server.crt", dir);
	make_cert(key, crt);
	bcrypt_of("first-secret", hash);
	/* paths relative to the file, as exporter-toolkit takes them */
	snprintf(text, sizeof(text), "# the test's\ntls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
		 "basic_auth_users:\n  scraper: '%s'\n", hash);
	write_web_config(web, text);

	service = spawn_piped((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, "--web-config", web,
					  NULL }, &setup, &service_out, &service_err);
	for (until = now_s() + 60; !curl_get(url, NULL, body, BODY_MAX); usleep(100 * 1000)) {
		cr_assert_lt(now_s(), until, "wakeprobe never answered on port %d", port);
		cr_assert_eq(waitpid(service, &status, WNOHANG), 0, "wakeprobe ended before it listened");
	}
	wait_attached(service, "wakeprobe --listen --web-config");

	code = curl_get(url, "scraper:first-secret", body, BODY_MAX);
	cr_assert_eq(code, 200, "%.300s", body);
	cr_assert_not_null(strstr(body, "wakeprobe_run_start_timestamp_seconds"), "the metrics: %.300s", body);
	cr_assert_eq(curl_get(url, NULL, body, BODY_MAX), 401);
	cr_assert_null(strstr(body, "wakeprobe_"), "no metrics without a password: %.300s", body);
	cr_assert_eq(curl_get(url, "scraper:wrong", body, BODY_MAX), 401);
	cr_assert_null(strstr(body, "wakeprobe_"), "no metrics with a wrong one: %.300s", body);
	cr_assert_eq(curl_get(url, "someone:first-secret", body, BODY_MAX), 401, "another user's name");
	code = curl_get(plain, "scraper:first-secret", body, BODY_MAX);
	cr_assert_neq(code, 200, "plain HTTP on the TLS port");
	cr_assert_null(strstr(body, "wakeprobe_"), "no metrics in the clear: %.300s", body);

	/* a new password, and SIGHUP: in force, the old one out */
	bcrypt_of("second-secret", hash);
	snprintf(text, sizeof(text), "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
		 "basic_auth_users:\n  scraper: %s\n", hash);
	write_web_config(web, text);
	kill(service, SIGHUP);
	for (until = now_s() + 10; curl_get(url, "scraper:second-secret", body, BODY_MAX) != 200; usleep(100 * 1000))
		cr_assert_lt(now_s(), until, "the new password never worked");
	cr_assert_not_null(strstr(body, "wakeprobe_run_start_timestamp_seconds"));
	cr_assert_eq(curl_get(url, "scraper:first-secret", body, BODY_MAX), 401, "the old password is out");

	/* a bad file: said, and the good one stays */
	write_web_config(web, "basic_auth_users:\n  scraper: not-a-hash\n");
	kill(service, SIGHUP);
	usleep(500 * 1000);
	cr_assert_eq(curl_get(url, "scraper:second-secret", body, BODY_MAX), 200, "the good file stays in force");
	cr_assert_eq(curl_get(url, NULL, body, BODY_MAX), 401, "and its password asked");

	status = stop(&service, 30);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status 0x%x", status);
	read_to_end(service_err, err, 65536);
	cr_assert_not_null(strstr(err, "read again"), "the good reload said: %s", err);
	cr_assert_not_null(strstr(err, "line 2: basic_auth_users: scraper: not a bcrypt hash") &&
			   strstr(err, "the configuration before stays in force"), "the bad one said in a line: %s", err);
	free(body);
	free(err);
}

/* refused_at_start - wakeprobe --all --listen with --web-config @web: it must end at once, status 2, one line saying @says */
static void refused_at_start(const char *web, const char *says)
{
	char listen[32], out[4096], err[4096];
	int port = free_port(), o = -1, e = -1, status;
	pid_t pid;

	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	pid = spawn_piped((char *[]){ (char *)wakeprobe_path(), "--all", "--listen", listen, "--web-config",
				      (char *)web, NULL }, NULL, &o, &e);
	read_to_end(o, out, sizeof(out));
	read_to_end(e, err, sizeof(err));
	close(o);
	close(e);
	status = wait_exit(pid, "wakeprobe with a bad --web-config", 30);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status 0x%x: %s", status, err);
	cr_assert_not_null(strstr(err, says), "'%s' does not say '%s'", err, says);
	cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
	cr_assert(!strncmp(err, "wakeprobe: --web-config ", 24), "%s", err);
}

Test(fleet, a_bad_web_config_ends_the_run_before_it_starts_in_one_line, .init = make_cgroups, .fini = teardown)
{
	char web[PATH_MAX], key[PATH_MAX], crt[PATH_MAX], other[PATH_MAX], other_crt[PATH_MAX], text[1024];

	skip_without_curl();
	snprintf(web, sizeof(web), "%s/web.yml", dir);
	snprintf(key, sizeof(key), "%s/server.key", dir);
	snprintf(crt, sizeof(crt), "%s/server.crt", dir);
	snprintf(other, sizeof(other), "%s/other.key", dir);
	snprintf(other_crt, sizeof(other_crt), "%s/other.crt", dir);
	make_cert(key, crt);
	make_cert(other, other_crt);
	write_web_config(web, "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
			      "  client_ca_file: ca.crt\n");
	refused_at_start(web, "line 4: tls_server_config: client_ca_file is not supported by wakeprobe");
	write_web_config(web, "");
	refused_at_start(web, "no tls_server_config and no basic_auth_users");
	write_web_config(web, "tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n");
	refused_at_start(web, "line 2: cert_file ");
	write_web_config(web, "basic_auth_users:\n\tscraper: x\n");
	refused_at_start(web, "line 2: a tab in the indentation");
	/* a key that is not the certificate's: OpenSSL finds it, before anything loads */
	snprintf(text, sizeof(text), "tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n");
	write_web_config(web, text);
	refused_at_start(web, "other.key is not the key of cert_file");
	refused_at_start("/nonexistent/web.yml", "--web-config /nonexistent/web.yml: no such file");
}
