// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <grp.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "collector.h"
#include "helpers.h"
#include "json_reader.h"
#include "readback.h"

static void check_sample(const struct sample_result *r, void *ctx)
{
	struct checks *c = ctx;
	int64_t sum = 0, diff;
	int k;

	c->seen++;
	if (c->hook)
		c->hook(r, c->hook_ctx);
	if (r->sample.seq != c->last_seq + 1)
		c->seq_out_of_order++;
	c->last_seq = r->sample.seq;
	c->waiter_syscalls += r->waiter_syscalls;
	if (r->label == LABEL_MISSING_EVENT && !c->first_missing.sample.seq)
		c->first_missing = *r;
	if (r->label != LABEL_COMPLETE)
		return;
	c->complete++;
	if (!r->phased)
		return;
	if (!c->phased++)
		c->first_phased = *r;
	c->last_phased = *r;
	for (k = 0; k < NR_PHASES; k++) {
		if (r->phase_ns[k] < 0)
			c->negative_phase++;
		sum += r->phase_ns[k];
	}
	diff = llabs(sum - r->total_ns);
	if (diff > c->worst_sum_error)
		c->worst_sum_error = diff;
	if (diff > 50)
		c->sum_off++;
}

bool machine_emulated(void)
{
	const char *e = getenv("WAKEPROBE_TEST_EMULATED");

	return e && *e && strcmp(e, "0");
}

void skip_unless_traceable(void)
{
	char why[256];

	if (collector__check_access(why, sizeof(why)))
		cr_skip_test("needs root and BTF: %s", why);
}

struct test_session test_session(const char *name, bool trace, uint64_t samples, uint64_t interval_us,
				 struct checks *c)
{
	struct test_session s = {
		.cfg = {
			.workload = catalog__find(name),
			.samples = samples,
			.interval_us = interval_us,
			.waker_cpu = 0,
			.wakee_cpu = 1,
			.traced = trace,
			.ringbuf_bytes = 8 << 20,
		},
		.opts.analysis = {
			.on_sample = check_sample,
			.on_sample_ctx = c,
		},
	};

	cr_assert_not_null(s.cfg.workload, "no workload '%s' in the catalog", name);
	return s;
}

int run_workload(const char *name, bool trace, uint64_t samples, uint64_t interval_us, struct checks *c,
		 struct run_result *res, char msg[256])
{
	struct test_session s = test_session(name, trace, samples, interval_us, c);

	return session__run(&s.cfg, &s.opts, res, msg, 256);
}

const char *wakeprobe_path(void)
{
	const char *p = getenv("WAKEPROBE");

	if (!p)
		cr_skip_test("set WAKEPROBE to the binary (make test does)");
	return p;
}

const char *relay_path(void)
{
	const char *p = getenv("RELAY");

	if (!p)
		cr_skip_test("set RELAY to build/tests/relay (make test does)");
	return p;
}

void read_to_end(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

uint64_t labelled(const struct aggregate *a)
{
	uint64_t n = 0;
	int l;

	for (l = 0; l < NR_LABELS; l++)
		if (l != LABEL_COMPLETE)
			n += a->by_label[l];
	return n;
}

const char *describe_missing(uint64_t n, const struct sample_result *r)
{
	static char buf[512];
	int k, len;

	len = snprintf(buf, sizeof(buf), "%lu samples miss a bounding event; first: seq %lu lacks '%s', "
		       "t_notify %lu t_woken %lu, marks:", n, r->sample.seq, wakeup__mark_name(r->missing),
		       r->t_notify_ns, r->t_woken_ns);
	for (k = 0; k < (int)r->missing && len < (int)sizeof(buf); k++)
		len += snprintf(buf + len, sizeof(buf) - len, " %lu", r->mark_ns[k]);
	return buf;
}

/*
 * become - @uid (and the gid of the same number) from root, keeping @caps
 * (bit N: capability N) as ambient capabilities, which a program run next
 * has in its permitted and effective sets (capabilities(7)): the way
 * systemd starts a unit's User= with AmbientCapabilities=. A uid changed
 * from 0 keeps the permitted set only under PR_SET_KEEPCAPS, and an
 * ambient capability must be permitted and inheritable first.
 */
static int become(int uid, uint64_t caps)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid))
		return -1;
	if (!caps)
		return 0;
	data[0].permitted = data[0].effective = data[0].inheritable = (uint32_t)caps;
	data[1].permitted = data[1].effective = data[1].inheritable = (uint32_t)(caps >> 32);
	if (syscall(SYS_capset, &head, data))
		return -1;
	for (int cap = 0; cap < 64; cap++)
		if ((caps >> cap & 1) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0))
			return -1;
	return 0;
}

pid_t spawn_piped(char *const args[], const struct child_setup *setup, int *out, int *err)
{
	int o[2], e[2];
	pid_t pid;

	cr_assert_eq(pipe2(o, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(e, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int unread[2];

		dup2(o[1], 1);
		dup2(e[1], 2);
		if (setup && setup->stdout_to && dup2(open(setup->stdout_to, O_WRONLY), 1) != 1)
			_exit(99);
		/* the reader is gone before the program starts: every write to stdout fails */
		if (setup && setup->stdout_unread && (pipe(unread) || close(unread[0]) || dup2(unread[1], 1) != 1))
			_exit(99);
		if (setup && setup->uid >= 0 && become(setup->uid, setup->ambient_caps))
			_exit(99);
		if (setup && setup->cpus && sched_setaffinity(0, sizeof(*setup->cpus), setup->cpus))
			_exit(99);
		if (setup && setup->dies_with_test && prctl(PR_SET_PDEATHSIG, SIGTERM))
			_exit(99);
		if (setup && setup->nofile &&
		    setrlimit(RLIMIT_NOFILE, &(struct rlimit){ setup->nofile, setup->nofile }))
			_exit(99);
		execv(args[0], args);
		dprintf(2, "cannot run %s: %s\n", args[0], strerror(errno));
		_exit(98);
	}
	close(o[1]);
	close(e[1]);
	*out = o[0];
	*err = e[0];
	return pid;
}

pid_t spawn_held(char *const args[], void (*body)(void), int in, int *go)
{
	int p[2], null;
	pid_t pid;
	char b;

	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(97);
		null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		if (in >= 0)
			dup2(in, 0);
		close_range(3, ~0U, 0);
		if (body) {
			body();
			_exit(0);
		}
		execvp(args[0], args);
		_exit(98);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

pid_t trace_body(void (*body)(void), const char *what, char json[64])
{
	char pid_arg[16];
	char *tracer_args[] = { (char *)wakeprobe_path(), "--pid", pid_arg, "--json", json, "--outliers", "0", NULL };
	int go, t_out, t_err, status;
	pid_t child, tracer;

	fclose(temp_output("traced", json));
	child = spawn_held(NULL, body, -1, &go);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)child);
	tracer = spawn_piped(tracer_args, NULL, &t_out, &t_err);
	wait_attached(tracer, "wakeprobe");
	cr_assert_eq(write(go, "g", 1), 1);
	close(go);
	status = wait_exit(child, what, 60);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status 0x%x", what, status);
	status = wait_exit(tracer, "wakeprobe", 30);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wakeprobe: status 0x%x", status);
	close(t_out);
	close(t_err);
	return child;
}

const char *workload_path(const char *name, char *buf, size_t len)
{
	const char *dir = getenv("WAKEPROBE_WORKLOAD_DIR");

	if (!dir)
		cr_skip_test("set WAKEPROBE_WORKLOAD_DIR to the workloads (make test does)");
	snprintf(buf, len, "%s/%s", dir, name);
	cr_assert_eq(access(buf, X_OK), 0, "no %s at %s", name, buf);
	return buf;
}

pid_t workload_spawn(const char *name, const char *const args[], int *out, int *err)
{
	char path[512], *argv[32];
	int i;

	argv[0] = (char *)workload_path(name, path, sizeof(path));
	for (i = 0; args[i]; i++) {
		cr_assert_lt(i, 30);
		argv[i + 1] = (char *)args[i];
	}
	argv[i + 1] = NULL;
	return spawn_piped(argv, NULL, out, err);
}

int workload_collect(pid_t pid, int out, int err, struct workload_outcome *o)
{
	/* stdout first: the document may be larger than a pipe holds, a one-line error never is */
	read_to_end(out, o->out, sizeof(o->out));
	read_to_end(err, o->err, sizeof(o->err));
	close(out);
	close(err);
	cr_assert_eq(waitpid(pid, &o->status, 0), pid);
	return WIFEXITED(o->status) ? WEXITSTATUS(o->status) : -1;
}

int workload_run(const char *name, struct workload_outcome *o, const char *const args[])
{
	int out, err, status;
	pid_t pid = workload_spawn(name, args, &out, &err);

	status = workload_collect(pid, out, err, o);
	cr_assert_neq(status, -1, "%s did not exit normally: 0x%x", name, o->status);
	return status;
}

bool workload_json_check(const struct workload_outcome *o, const char *fmt, ...)
{
	char path[64];
	FILE *f = temp_output("workload-json", path);
	va_list ap;
	bool ok;

	cr_assert_eq(fputs(o->out, f) < 0, false);
	cr_assert_eq(fclose(f), 0);
	va_start(ap, fmt);
	ok = json_vcheck(path, fmt, ap);
	va_end(ap);
	unlink(path);
	return ok;
}

int text_count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* program_run_setup - program_run() with @setup for the child */
/* drain - read @fd to its end and let it go: a program with more to say than a buffer holds is not left blocked */
static void drain(int fd)
{
	char drop[4096];

	while (read(fd, drop, sizeof(drop)) > 0)
		;
}

static void program_run_setup(struct wakeprobe_ran *r, const struct child_setup *setup, char *const argv[])
{
	int out, err;
	pid_t pid;

	pid = spawn_piped(argv, setup, &out, &err);
	read_to_end(out, r->out, sizeof(r->out));
	drain(out);
	read_to_end(err, r->err, sizeof(r->err));
	drain(err);
	close(out);
	close(err);
	cr_assert_eq(wait4(pid, &r->status, 0, &r->usage), pid);
}

void wakeprobe_run_setup(struct wakeprobe_ran *r, const struct child_setup *setup, char *const args[])
{
	char *argv[32] = { (char *)wakeprobe_path() };
	int i;

	for (i = 0; args[i] && i < 30; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	program_run_setup(r, setup, argv);
}

void wakeprobe_run(struct wakeprobe_ran *r, char *const args[])
{
	wakeprobe_run_setup(r, NULL, args);
}

void wakeprobe_run_ok(struct wakeprobe_ran *r, char *const args[])
{
	wakeprobe_run(r, args);
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "status 0x%x; stderr: %s\n%s", r->status, r->err,
		  r->out);
}

void program_run(struct wakeprobe_ran *r, char *const argv[])
{
	program_run_setup(r, NULL, argv);
}

void names_add(struct names *n, const char *word, size_t len)
{
	cr_assert_lt(n->n, sizeof(n->name) / sizeof(n->name[0]), "more than %zu names", n->n);
	cr_assert_lt(len, sizeof(n->name[0]), "a name of %zu bytes: %.*s", len, (int)len, word);
	memcpy(n->name[n->n], word, len);
	n->name[n->n++][len] = '\0';
}

bool names_has(const struct names *n, const char *word)
{
	for (size_t i = 0; i < n->n; i++)
		if (!strcmp(n->name[i], word))
			return true;
	return false;
}

void help_long_options(struct names *n)
{
	static struct wakeprobe_ran r;
	const char *line;

	wakeprobe_run(&r, (char *[]){ "--help", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "--help: status 0x%x, %s", r.status, r.err);
	n->n = 0;
	for (line = r.out; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *opt;

		/* an option's line: "  -w, --workload NAME ..." or "      --mode M ..." */
		if (!strncmp(line, "  -", 3) && !strncmp(line + 4, ", --", 4))
			opt = line + 6;
		else if (!strncmp(line, "      --", 8))
			opt = line + 6;
		else
			continue;
		names_add(n, opt, strcspn(opt, " \n"));
	}
}

void listed_workloads(struct names *n, const char *modes_of)
{
	static struct wakeprobe_ran r;
	const char *line, *name = "";
	size_t name_len = 0;

	wakeprobe_run(&r, (char *[]){ "--list-workloads", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "--list-workloads: status 0x%x, %s", r.status,
		  r.err);
	n->n = 0;
	for (line = r.out; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *modes = strstr(line, "modes:"), *end = line + strcspn(line, "\n");

		/* a workload starts its line in lower case; its modes, if any, are on the next line */
		if (*line >= 'a' && *line <= 'z') {
			name = line;
			name_len = strcspn(line, " ");
			if (!modes_of)
				names_add(n, name, name_len);
		} else if (*line == ' ' && modes && modes < end && modes_of && strlen(modes_of) == name_len &&
			   !strncmp(name, modes_of, name_len)) {
			for (const char *m = modes + strlen("modes:"); m < end; m += strspn(m, " ")) {
				size_t len = strcspn(m, " \n");

				if (len)
					names_add(n, m, len);
				m += len;
			}
		}
	}
}

long report_pair_count(const char *report, const char *mechanism)
{
	char via[128];
	const char *at, *line, *header, *column;
	size_t start, end;
	long count;

	snprintf(via, sizeof(via), "via %s\n", mechanism);
	at = strstr(report, via);
	if (!at)
		return -1;
	/* the row is the line before its "via" line: waker, wakee, count */
	for (line = at; line > report && line[-1] != '\n'; line--)
		;
	for (line--; line > report && line[-1] != '\n'; line--)
		;
	/*
	 * the count is right-aligned under the header's "count": found by that
	 * column, not by counting words, as a name may be one word ("thread
	 * 1234", its comm unknown) or several (a comm with spaces)
	 */
	header = strstr(report, "\nwaker ");
	cr_assert_not_null(header, "no pairs table:\n%s", report);
	header++;
	column = strstr(header, " count");
	cr_assert(column && column < strchr(header, '\n'), "no count column: %.200s", header);
	end = (size_t)(column - header) + strlen(" count");
	cr_assert(strchr(line, '\n') - line >= (long)end, "row shorter than its header: %.120s", line);
	for (start = end; start > 0 && line[start - 1] >= '0' && line[start - 1] <= '9'; start--)
		;
	cr_assert(start < end && line[start - 1] == ' ', "no count under the header's: %.120s", line);
	count = strtol(line + start, NULL, 10);
	return count;
}

/* spawn_pinned - fork a child named @comm on @cpu that dies with the test: 0 in the child */
static pid_t spawn_pinned(const char *comm, int cpu)
{
	cpu_set_t set;
	pid_t pid = fork();

	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid)
		return pid;
	prctl(PR_SET_NAME, comm);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	return 0;
}

pid_t spawn_hog(const char *comm, int cpu)
{
	pid_t pid = spawn_pinned(comm, cpu);

	if (pid)
		return pid;
	for (;;)
		;
}

pid_t spawn_udp_sender(const char *comm, int cpu)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(to);
	char buf[64] = "";
	pid_t pid = spawn_pinned(comm, cpu);
	int s;

	if (pid)
		return pid;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&to, sizeof(to)) || getsockname(s, (struct sockaddr *)&to, &len))
		_exit(1);
	for (;;)
		if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&to, sizeof(to)) > 0)
			recv(s, buf, sizeof(buf), 0);
}

int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port;

	cr_assert_geq(fd, 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* bpf_links_of - how many BPF links process @pid holds: programs it attached */
int bpf_links_of(pid_t pid)
{
	char dir[64], path[320], target[64];
	struct dirent *d;
	DIR *fds;
	int n = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	fds = opendir(dir);
	if (!fds)
		return 0;
	while ((d = readdir(fds))) {
		ssize_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			n += !strcmp(target, "anon_inode:bpf_link");
		}
	}
	closedir(fds);
	return n;
}

/* wait_attached - until @pid holds BPF links and their number held still for 0.3 s */
void wait_attached(pid_t pid, const char *what)
{
	double end = now_s() + 30, since = now_s();
	int last = 0, n, status;

	while (now_s() < end) {
		cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "%s ended before it attached (status 0x%x)", what,
			     status);
		n = bpf_links_of(pid);
		if (n != last) {
			last = n;
			since = now_s();
		} else if (n && now_s() - since >= 0.3) {
			return;
		}
		usleep(50000);
	}
	cr_assert_fail("%s did not attach within 30 s", what);
}

/* wait_exit - @pid's status, once it ends within @seconds; fails the test if it does not */
int wait_exit(pid_t pid, const char *what, double seconds)
{
	double end = now_s() + seconds;
	int status;

	while (now_s() < end) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			return status;
		cr_assert_eq(got, 0, "waitpid %s: %s", what, strerror(errno));
		usleep(20000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	cr_assert_fail("%s did not end within %.0f s", what, seconds);
	return -1;
}

/* read_line - up to a newline of @fd into @buf, terminated */
void read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n + 1 < len && read(fd, buf + n, 1) == 1 && buf[n] != '\n')
		n++;
	buf[n] = '\0';
}

/* promtool_accepts - `promtool check metrics` of @path: true when it finds no problem; what it said otherwise */
bool promtool_accepts(const char *path)
{
	char cmd[PATH_MAX + 64], said[4096] = "";
	size_t n;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "promtool check metrics < '%s' 2>&1", path);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(said, 1, sizeof(said) - 1, p);
	said[n] = '\0';
	status = pclose(p);
	cr_expect(WIFEXITED(status) && !WEXITSTATUS(status), "promtool check metrics %s: %s", path, said);
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

struct json_doc *wakeprobe_run_json(struct wakeprobe_ran *r, char *const *args)
{
	char json[] = "/tmp/wakeprobe-json-XXXXXX", err[128], *argv[16];
	struct json_doc *doc;
	size_t len, n = 0;
	char *text;
	int fd;

	fd = mkstemp(json);
	cr_assert(fd >= 0);
	close(fd);
	argv[n++] = "--json";
	argv[n++] = json;
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	wakeprobe_run_ok(r, argv);
	text = read_file(json, &len);
	unlink(json);
	/* the document holds what it read in its own memory */
	doc = json_reader__parse(text, len, err, sizeof(err));
	free(text);
	cr_assert(doc, "the JSON reads back: %s", err);
	return doc;
}
