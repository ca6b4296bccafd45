// SPDX-License-Identifier: GPL-2.0
/*
 * test_hardening.c - wakeprobe as root, made to fail: a workload that runs
 * too long, a workload run as another user, and what is left behind.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"
#include "text_workload.h"

static struct run_result result;

TestSuite(hardening);

/* uid_of - the real uid of task @tid, from /proc; -1 if it is gone */
static long uid_of(uint32_t tid)
{
	char path[64], line[256];
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %ld", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

struct uid_probe {
	long waker_uid;
	long wakee_uid;
};

static void probe_uids(const struct sample_result *r, void *ctx)
{
	struct uid_probe *p = ctx;

	/* the first sample: both threads are alive until the run ends */
	if (p->waker_uid == -2) {
		p->waker_uid = uid_of(r->sample.waker_tid);
		p->wakee_uid = uid_of(r->sample.wakee_tid);
	}
}

Test(hardening, a_workload_run_as_another_user_is_traced_as_usual, .timeout = 60)
{
	struct uid_probe probe = { .waker_uid = -2, .wakee_uid = -2 };
	struct checks c = { .hook = probe_uids, .hook_ctx = &probe };
	struct test_session sess;
	char msg[256] = "";

	skip_unless_traceable();
	sess = test_session("eventfd", true, 200, 300, &c);
	/* its hook acts on the run while it goes */
	sess.opts.analyse_live = true;
	sess.opts.drop_privileges = true;
	sess.opts.uid = 65534;
	sess.opts.gid = 65534;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not(result.workload_failed, "%s", result.workload_error);
	cr_assert_eq(probe.waker_uid, 65534, "the waker runs as uid %ld", probe.waker_uid);
	cr_assert_eq(probe.wakee_uid, 65534, "the wakee runs as uid %ld", probe.wakee_uid);
	cr_assert_eq(result.samples_sent, 200);
	cr_assert_eq(c.seen, 200);
	cr_assert_geq(c.phased, 180, "traced as usual: %lu of 200 phased", c.phased);
	cr_assert_eq(result.drops_total, 0);
}

Test(hardening, a_workload_past_its_timeout_is_stopped_reaped_and_reported, .timeout = 60)
{
	struct checks c = {};
	struct test_session sess;
	char msg[256] = "";

	skip_unless_traceable();
	sess = test_session("eventfd", true, 1000000, 1000, &c);
	sess.opts.timeout_ms = 400;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(result.timed_out);
	cr_assert(result.workload_failed);
	cr_assert(strstr(result.workload_error, "timed out after 0.4 s (--timeout)"), "%s", result.workload_error);
	cr_assert(strstr(result.workload_exit, "killed by signal 15"), "%s", result.workload_exit);
	/* a loaded host can spend most of the 0.4 s starting it: that it ran is what counts */
	cr_assert_gt(result.samples_sent, 0, "the workload took no sample before its timeout");
	cr_assert_lt(result.samples_sent, 1000000);
	cr_assert_eq(c.seen, result.samples_sent, "every sample taken is accounted for");
	cr_assert_eq(kill((pid_t)result.waker_tid, 0), -1, "the workload is gone");
	cr_assert_eq(errno, ESRCH);
}

/* ---------------------------------------------------------------- signals, through the binary */

/* workloads_running - processes whose executable lies in the workload directory */
static int workloads_running(void)
{
	const char *dir = getenv("WAKEPROBE_WORKLOAD_DIR");
	char real_dir[PATH_MAX], path[300], exe[PATH_MAX];
	struct dirent *d;
	DIR *proc;
	int n = 0;

	cr_assert_not_null(dir, "set WAKEPROBE_WORKLOAD_DIR (make test does)");
	cr_assert_not_null(realpath(dir, real_dir));
	proc = opendir("/proc");
	cr_assert_not_null(proc);
	while ((d = readdir(proc))) {
		ssize_t len;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/exe", d->d_name);
		len = readlink(path, exe, sizeof(exe) - 1);
		if (len <= 0)
			continue;
		exe[len] = '\0';
		if (!strncmp(exe, real_dir, strlen(real_dir)))
			n++;
	}
	closedir(proc);
	return n;
}

/*
 * bpf_links - how many BPF links the kernel holds, whoever made them. The
 * tests compare the count before and after a run: another tracer starting
 * or stopping meanwhile would disturb it (there is none on CI).
 */
static int bpf_links(void)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_link_get_next_id(id, &id))
		n++;
	return n;
}

/* links_back_to - wait a little for the count to return to @n: the kernel may free links after exit */
static int links_back_to(int n)
{
	int now = bpf_links();

	for (int i = 0; i < 100 && now != n; i++) {
		struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		now = bpf_links();
	}
	return now;
}

/*
 * The bench's interleaved measure: a run whose programs go off and on
 * notes each switch in order, takes every sample, and leaves no link.
 */
Test(hardening, a_run_whose_programs_go_off_and_on_notes_each_switch_and_leaves_no_link, .timeout = 60)
{
	static struct session_bench bench;
	struct checks c = {};
	struct test_session sess;
	char msg[256] = "";
	int links_before;
	uint32_t i;

	skip_unless_traceable();
	links_before = bpf_links();
	sess = test_session("eventfd", true, 600, 1000, &c);
	bench = (struct session_bench){ .toggle_trace_ms = 100 };
	sess.opts.bench = &bench;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not(result.workload_failed, "%s", result.workload_error);
	cr_assert_eq(c.seen, 600, "every sample is accounted for: %lu of 600", c.seen);
	cr_assert_geq(bench.nr_toggles, 2, "a 0.6 s run switched off %u times every 0.1 s", bench.nr_toggles);
	for (i = 0; i < bench.nr_toggles; i++) {
		const struct trace_toggle *t = &bench.toggles[i];
		bool last = i == bench.nr_toggles - 1;

		cr_assert(result.trace_start_ns <= t->detach_ns && t->detach_ns <= t->off_ns &&
			  (t->off_ns <= t->attach_ns || (last && !t->attach_ns)) &&
			  (t->on_ns ? t->attach_ns <= t->on_ns && t->on_ns <= result.trace_end_ns : last),
			  "switch %u of %u out of order: %lu %lu %lu %lu, run %lu..%lu", i, bench.nr_toggles,
			  t->detach_ns, t->off_ns, t->attach_ns, t->on_ns, result.trace_start_ns, result.trace_end_ns);
		if (i)
			cr_assert_leq(bench.toggles[i - 1].on_ns, t->detach_ns, "switches %u and %u overlap", i - 1, i);
	}
	cr_assert_eq(links_back_to(links_before), links_before, "BPF links left behind");
}

/* what a run's own toggle switched, and when; the second "on" fails */
struct switches {
	bool on[8];
	uint64_t at_ns[8];
	int n, calls;
};

static int note_switch(bool on, void *ctx)
{
	struct switches *sw = ctx;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (sw->calls++ < 8) {
		sw->on[sw->n] = on;
		sw->at_ns[sw->n++] = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	}
	return on && sw->calls == 4 ? -1 : 0;
}

/* the benchmark's do-nothing programs go off and on in an untraced run through a toggle of its own */
Test(hardening, an_untraced_run_switches_its_own_toggle_on_schedule_and_retries_a_refused_switch, .timeout = 60)
{
	static struct session_bench bench;
	struct switches sw = {};
	struct checks c = {};
	struct test_session sess;
	char msg[256] = "";
	int i;

	sess = test_session("eventfd", false, 700, 1000, &c);
	bench = (struct session_bench){ .toggle_trace_ms = 100, .toggle = note_switch, .toggle_ctx = &sw };
	sess.opts.bench = &bench;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not(result.workload_failed, "%s", result.workload_error);
	cr_assert_eq(c.seen, 700, "every sample is accounted for: %lu of 700", c.seen);
	/* off, on, off, on (refused), on: the second stretch off lasts until a switch on succeeds */
	cr_assert_geq(sw.calls, 5, "a 0.7 s run switched %d times every 0.1 s", sw.calls);
	cr_assert(!sw.on[0] && sw.on[1] && !sw.on[2] && sw.on[3] && sw.on[4], "off, on, off, on, on again");
	cr_assert_geq(bench.nr_toggles, 2, "two stretches off: %u", bench.nr_toggles);
	cr_assert(bench.toggles[0].detach_ns <= sw.at_ns[0] && sw.at_ns[0] <= bench.toggles[0].off_ns &&
		  bench.toggles[0].attach_ns <= sw.at_ns[1] && sw.at_ns[1] <= bench.toggles[0].on_ns,
		  "the first stretch off is bounded by its switches");
	cr_assert(bench.toggles[1].detach_ns <= sw.at_ns[2] && sw.at_ns[2] <= bench.toggles[1].off_ns,
		  "the second stretch off begins at its switch");
	cr_assert(sw.at_ns[3] < bench.toggles[1].attach_ns && bench.toggles[1].attach_ns <= sw.at_ns[4] &&
		  sw.at_ns[4] <= bench.toggles[1].on_ns,
		  "the second stretch off ends at the switch that succeeded, not at the refused one");
	for (i = 5; i < sw.n; i++)
		cr_assert_eq(sw.on[i], i % 2 == 0, "after the retry the switches alternate again: %d", i);
}

/* what on_start was told, and what it answers */
struct started {
	pid_t pid;
	int calls;
	int answer;
};

static int note_start(pid_t pid, void *ctx)
{
	struct started *st = ctx;

	st->pid = pid;
	st->calls++;
	return st->answer;
}

/* the benchmark's floor tracer follows the workload through on_start */
Test(hardening, on_start_is_told_the_workload_pid_once_and_a_refusal_stops_the_run_with_no_child_left,
     .timeout = 60)
{
	struct started st = {};
	static struct session_bench bench;
	struct checks c = {};
	struct test_session sess;
	char msg[256] = "";

	sess = test_session("eventfd", false, 50, 100, &c);
	bench = (struct session_bench){ .on_start = note_start, .on_start_ctx = &st };
	sess.opts.bench = &bench;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not(result.workload_failed, "%s", result.workload_error);
	cr_assert_eq(st.calls, 1, "told %d times", st.calls);
	/* eventfd's waker is the workload's main thread: its tid is the process's pid */
	cr_assert_eq((uint32_t)st.pid, result.waker_tid, "told pid %d, the waker was %u", st.pid, result.waker_tid);

	st = (struct started){ .answer = -EPERM };
	cr_assert_neq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0,
		      "a refused start fails the run");
	cr_assert(strstr(msg, "cannot start") && strstr(msg, strerror(EPERM)), "the reason is given: %s", msg);
	cr_assert_eq(st.calls, 1);
	cr_assert(kill(st.pid, 0) == -1 && errno == ESRCH, "the refused workload %d is gone, reaped", st.pid);
}

struct interrupted_run {
	int status;
	char out[1 << 20];
	char err[4096];
};

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* signal_pending_in - @sig is sent to @pid and not yet taken by any of its threads */
static bool signal_pending_in(pid_t pid, int sig)
{
	bool pending = false, zombie = false;
	char path[64], line[256];
	unsigned long long mask;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ShdPnd: %llx", &mask) == 1 || sscanf(line, "SigPnd: %llx", &mask) == 1)
			pending |= (mask >> (sig - 1)) & 1;
		else if (!strncmp(line, "State:\tZ", 8))
			zombie = true;
	}
	fclose(f);
	return pending && !zombie;
}

/*
 * wait_exec - until @pid runs @path: a signal sent between the fork and
 * the exec goes to the test's own handler, inherited by the child, and is
 * lost to the program (as it was under ASan, whose start is slow); one
 * that ended already is a zombie, and has run it
 */
static void wait_exec(pid_t pid, const char *path)
{
	char want[PATH_MAX], link[64], got[PATH_MAX];

	cr_assert_not_null(realpath(path, want), "%s: %s", path, strerror(errno));
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	for (int w = 0;; w++) {
		ssize_t n = readlink(link, got, sizeof(got) - 1);

		if (n < 0)
			return;	/* a zombie's has none */
		got[n] = '\0';
		if (!strcmp(got, want))
			return;
		cr_assert_lt(w, 200000, "%s did not start within 20 s", path);
		usleep(100);
	}
}

/*
 * interrupt - run wakeprobe with @args, send SIGINT after each of @after_ms
 * (relative to the start, or with @from_workload to its workload's start:
 * a run whose BPF side loads slowly, as the first in a fresh clone may,
 * has not begun at a fixed time; -1 ends the list), and collect what it
 * printed.
 * Each signal is taken before the next is sent: two SIGINTs pending at
 * once are one, which a busy host that runs nothing of wakeprobe between
 * the two kill()s would otherwise make of them.
 * With @stall_stdout nobody reads its stdout until it has exited, so a
 * report larger than the pipe blocks it while it prints.
 */
static void interrupt(struct interrupted_run *ir, char *const args[], const long after_ms[], bool stall_stdout,
		      bool from_workload)
{
	long slept = 0;
	int out, err;
	pid_t pid;

	pid = spawn_piped(args, NULL, &out, &err);
	/* the times are from its start, in the program: not from a fork the signal would land in */
	wait_exec(pid, args[0]);
	for (int w = 0; from_workload && !workloads_running(); w++) {
		cr_assert_lt(w, 20000, "no workload started within 20 s");
		sleep_ms(1);
	}
	for (int i = 0; after_ms[i] >= 0; i++) {
		sleep_ms(after_ms[i] - slept);
		slept = after_ms[i];
		kill(pid, SIGINT);
		for (int w = 0; w < 2000 && signal_pending_in(pid, SIGINT); w++)
			sleep_ms(1);
	}
	if (stall_stdout) {
		for (int i = 0; i < 500 && waitpid(pid, &ir->status, WNOHANG) == 0; i++)
			sleep_ms(10);
		cr_assert_eq(waitpid(pid, &ir->status, WNOHANG), -1, "wakeprobe still runs 5 s after the signals");
	}
	/* stderr carries a line or two: it cannot fill its pipe while stdout is read */
	read_to_end(out, ir->out, sizeof(ir->out));
	read_to_end(err, ir->err, sizeof(ir->err));
	if (!stall_stdout)
		cr_assert_eq(waitpid(pid, &ir->status, 0), pid);
	close(out);
	close(err);
}

struct sigint_case {
	char what[48];
	long after_ms[3];	/* -1 ends */
	bool short_run;		/* 0.2 s of wakeups, over before any signal; else far longer than the test */
	/*
	 * The JSON report (100 outliers, hundreds of KiB) goes to a pipe that
	 * nobody reads until wakeprobe has exited: it blocks while printing,
	 * so it cannot end by itself before a second signal arrives.
	 */
	bool stall_stdout;
	int exit_code;
	bool report;		/* a partial report is printed */
	bool recording;		/* the record file exists afterwards, and replays */
	/*
	 * So early that the signal comes before the run began: wakeprobe ends
	 * at once, exit 130, and makes nothing (or, before its handlers exist,
	 * dies of the signal).
	 */
	bool maybe_before_the_run;
};

static struct sigint_case sigint_cases[] = {
	/*
	 * The BPF programs load for about 100 ms: the signal lands before
	 * tracing starts, and nothing is measured or written (it was: an empty
	 * report and its files, exit 0)
	 */
	{ "before attach", { 5, -1 }, false, false, 128 + SIGINT, false, false, true },
	{ "mid-run", { 700, -1 }, false, false, 0, true, true, false },
	/*
	 * The second one follows while the first is still ending the run, or
	 * while its report is blocked: never after wakeprobe is done, however
	 * late a busy host delivers it.
	 */
	{ "twice mid-run", { 700, 702, -1 }, false, true, 128 + SIGINT, false, false, false },
	/* the run is over and its report blocked: the first signal lets it go on, the second ends it */
	{ "during the report", { 2500, 2600, -1 }, true, true, 128 + SIGINT, false, false, false },
};

ParameterizedTestParameters(hardening, sigint_leaves_no_process_no_bpf_link_no_file_behind)
{
	return cr_make_param_array(struct sigint_case, sigint_cases, sizeof(sigint_cases) / sizeof(sigint_cases[0]));
}

ParameterizedTest(struct sigint_case *c, hardening, sigint_leaves_no_process_no_bpf_link_no_file_behind,
		  .timeout = 60)
{
	char dir[] = "/tmp/wakeprobe-test-sig.XXXXXX", rec[600];
	char *const args[] = { (char *)wakeprobe_path(), "record", "-o", rec, "--workload", "eventfd",
			       "--samples", c->short_run ? "2000" : "1000000", "--interval-us",
			       c->short_run ? "100" : "1000", "--cpus", "0,1", "--outliers", "100",
			       c->stall_stdout ? "--json" : NULL, "-", NULL };
	static struct interrupted_run ir;
	int links_before;

	skip_unless_traceable();
	cr_assert_eq(workloads_running(), 0, "a workload was running before the test");
	links_before = bpf_links();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);

	/* a signal meant for a run that began is timed from its workload's start */
	interrupt(&ir, args, c->after_ms, c->stall_stdout, !c->maybe_before_the_run);
	/* so early that wakeprobe had no handler yet (a slow start, as under ASan): it died of it, having made nothing */
	if (c->maybe_before_the_run && WIFSIGNALED(ir.status) && WTERMSIG(ir.status) == SIGINT) {
		c->report = c->recording = false;
		goto check_leftovers;
	}
	cr_assert(WIFEXITED(ir.status), "%s: wakeprobe ended with wait status 0x%x", c->what, ir.status);
	if (c->maybe_before_the_run)
		cr_assert(strstr(ir.err, "interrupted before the run began: nothing measured, nothing written"),
			  "%s: %s", c->what, ir.err);
	cr_assert_eq(WEXITSTATUS(ir.status), c->exit_code, "%s: exit %d; stderr: %s", c->what,
		     WEXITSTATUS(ir.status), ir.err);
check_leftovers:
	cr_assert_eq(workloads_running(), 0, "%s: a workload outlived wakeprobe", c->what);
	cr_assert_eq(links_back_to(links_before), links_before, "%s: BPF links left behind", c->what);
	if (c->report)
		cr_assert(strstr(ir.out, "NOTE       interrupted"), "%s: no partial report: %s", c->what, ir.out);
	if (c->recording) {
		char *const report[] = { (char *)wakeprobe_path(), "report", rec, "--outliers", "100", NULL };
		static struct interrupted_run replay;
		const long none[] = { -1 };

		cr_assert_eq(dir_entries(dir), 1, "%s: the recording and nothing else", c->what);
		interrupt(&replay, report, none, false, false);
		cr_assert_eq(WEXITSTATUS(replay.status), 0, "%s: the recording does not replay: %s", c->what,
			     replay.err);
		cr_assert_str_eq(replay.out, ir.out, "%s: the recording says otherwise than the run", c->what);
		unlink(rec);
	} else {
		cr_assert_eq(dir_entries(dir), 0, "%s: a file was left behind", c->what);
	}
	cr_assert_eq(rmdir(dir), 0);
}

/* ---------------------------------------------------------------- an environment that refuses */

enum refusal {
	REFUSE_BPF_SYSCALL,	/* a seccomp filter answers bpf() with EPERM, as container runtimes do */
	REFUSE_BTF,		/* /sys/kernel/btf hidden under an empty tmpfs, in a mount namespace of its own */
};

static void refuse(enum refusal how)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	switch (how) {
	case REFUSE_BPF_SYSCALL:
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(97);
		break;
	case REFUSE_BTF:
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("none", "/sys/kernel/btf", "tmpfs", 0, NULL))
			_exit(97);
		break;
	}
}

struct refusal_case {
	enum refusal how;
	char message[64];	/* in the one line */
};

static struct refusal_case refusal_cases[] = {
	{ REFUSE_BPF_SYSCALL, "the bpf() syscall was refused (Operation not permitted)" },
	{ REFUSE_BTF, "this kernel has no BTF at /sys/kernel/btf/vmlinux" },
};

ParameterizedTestParameters(hardening, a_refused_bpf_or_missing_btf_is_one_line_exit_1_and_nothing_left)
{
	return cr_make_param_array(struct refusal_case, refusal_cases,
				   sizeof(refusal_cases) / sizeof(refusal_cases[0]));
}

ParameterizedTest(struct refusal_case *c, hardening, a_refused_bpf_or_missing_btf_is_one_line_exit_1_and_nothing_left,
		  .timeout = 30)
{
	char dir[] = "/tmp/wakeprobe-test-refuse.XXXXXX", rec[600], err[4096];
	char *const args[] = { (char *)wakeprobe_path(), "record", "-o", rec, "--workload", "eventfd", "--samples",
			       "50", NULL };
	int errp[2], status, links_before;
	char *last;
	pid_t pid;

	skip_unless_traceable();
	links_before = bpf_links();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/run.wpr", dir);
	cr_assert_eq(pipe2(errp, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(errp[1], 2);
		refuse(c->how);
		execv(args[0], args);
		_exit(98);
	}
	close(errp[1]);
	read_to_end(errp[0], err, sizeof(err));
	close(errp[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_assert_neq(WEXITSTATUS(status), 97, "the refusal could not be set up");
	cr_assert_eq(WEXITSTATUS(status), 1, "exit %d: %s", WEXITSTATUS(status), err);
	/* the error is one line, after at most the line that announced the run */
	last = strrchr(err, '\n');
	cr_assert(last && !last[1], "ends with its line: %s", err);
	*last = '\0';
	last = strrchr(err, '\n');
	last = last ? last + 1 : err;
	cr_assert(strstr(last, c->message), "'%s' lacks '%s'", last, c->message);
	cr_assert(last == err || !strchr(err, '\n') || strstr(err, "wakeprobe: tracing eventfd") == err,
		  "only the announcement may come first: %s", err);
	cr_assert_eq(workloads_running(), 0, "no workload was left");
	cr_assert_eq(links_back_to(links_before), links_before, "no BPF link was left");
	cr_assert_eq(dir_entries(dir), 0, "no file was left");
	cr_assert_eq(rmdir(dir), 0);
}

/* ---------------------------------------------------------------- a workload that dies */

static void kill_at_sample_50(const struct sample_result *r, void *ctx)
{
	(void)ctx;
	/* a signal to any thread of the process kills all of it */
	if (r->sample.seq == 50)
		kill((pid_t)r->sample.wakee_tid, SIGKILL);
}

Test(hardening, a_workload_killed_mid_run_is_reported_with_its_signal_and_reaped, .timeout = 60)
{
	struct checks c = { .hook = kill_at_sample_50 };
	struct test_session sess;
	char msg[256] = "";

	skip_unless_traceable();
	sess = test_session("eventfd", true, 100000, 1000, &c);
	/* its hook acts on the run while it goes */
	sess.opts.analyse_live = true;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(result.workload_failed);
	cr_assert(strstr(result.workload_exit, "killed by signal 9"), "%s", result.workload_exit);
	cr_assert(strstr(result.workload_error, "killed by signal 9"), "%s", result.workload_error);
	cr_assert_geq(result.samples_sent, 50);
	cr_assert_lt(result.samples_sent, 100000);
	cr_assert_eq(c.seen, result.samples_sent, "every sample taken is accounted for");
	cr_assert_eq(workloads_running(), 0, "nothing of the workload is left");
}

/* ---------------------------------------------------------------- lost events */

#define MAX_LOSSES 4096

/* where the records themselves say events were lost: between two whose drop counts differ */
struct loss_oracle {
	uint64_t last_ts;
	uint32_t last_drops;
	bool any;
	size_t n;
	uint64_t from[MAX_LOSSES], to[MAX_LOSSES];
	uint64_t complete_overlapping;
	uint64_t complete;
};

static void note_event(const struct wp_event *e, void *ctx)
{
	struct loss_oracle *lo = ctx;

	if (lo->any && e->drops != lo->last_drops && lo->n < MAX_LOSSES) {
		lo->from[lo->n] = lo->last_ts < e->ts_ns ? lo->last_ts : e->ts_ns;
		lo->to[lo->n++] = lo->last_ts < e->ts_ns ? e->ts_ns : lo->last_ts;
	}
	lo->any = true;
	lo->last_ts = e->ts_ns;
	lo->last_drops = e->drops;
}

static void check_complete(const struct sample_result *r, void *ctx)
{
	struct loss_oracle *lo = ctx;

	if (r->label != LABEL_COMPLETE)
		return;
	lo->complete++;
	for (size_t i = 0; i < lo->n; i++)
		if (lo->from[i] <= r->t_woken_ns && lo->to[i] >= r->t_notify_ns)
			lo->complete_overlapping++;
}

/*
 * A ring buffer far too small for a back-to-back run: the drops are
 * counted, the samples they touch are lost_events, the report says so
 * first, and no sample whose window the records show a loss in is
 * counted complete (an oracle built from the records themselves).
 */
Test(hardening, a_tiny_ring_buffer_drops_are_counted_and_no_touched_sample_is_attributed, .timeout = 60)
{
	static struct loss_oracle lo;
	struct checks c = { .hook = check_complete, .hook_ctx = &lo };
	struct test_session sess;
	char msg[256] = "", *text = NULL;
	size_t len = 0;
	FILE *out;

	skip_unless_traceable();
	sess = test_session("eventfd", true, 3000, 0, &c);
	sess.cfg.ringbuf_bytes = 4096;
	sess.cfg.ringbuf_fixed = true;		/* --ringbuf-kb 4: not grown to hold the run */
	sess.opts.analysis.on_event = note_event;
	sess.opts.analysis.on_event_ctx = &lo;
	cr_assert_eq(session__run(&sess.cfg, &sess.opts, &result, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_gt(result.drops_total, 100, "a 4 KiB ring must overflow: %lu drops", result.drops_total);
	cr_assert_gt(result.agg.by_label[LABEL_LOST_EVENTS], 100);
	cr_assert_eq(c.seen, 3000, "every sample is accounted for");
	cr_assert_gt(lo.n, 0, "the records show where events were lost");
	cr_assert_eq(lo.complete_overlapping, 0, "%lu complete samples overlap a loss the records show",
		     lo.complete_overlapping);
	cr_assert_eq(lo.complete, result.agg.by_label[LABEL_COMPLETE]);

	out = open_memstream(&text, &len);
	text_workload__print_text(out, &sess.cfg, &result);
	fclose(out);
	cr_assert(strstr(text, "\n  WARNING    ") && strstr(text, "events lost") < strstr(text, "  threads "),
		  "the report opens with the loss: %.400s", text);
	free(text);
}
