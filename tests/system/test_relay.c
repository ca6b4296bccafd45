// SPDX-License-Identifier: GPL-2.0
/*
 * test_relay.c - what wakeprobe says today of a delay that travels. relay
 * (tests/tools/relay.c) passes each request client -> dispatcher ->
 * worker -> client, the worker alone on CPU 1, the client and the
 * dispatcher on CPU 0, for six rounds of 200 requests that the test lets
 * go one by one. In the second and the fourth (relay's rounds 1 and 3: it
 * counts from 0) a task named wphog spins on CPU 1, fifteen nice levels
 * above relay (-15 when the test runs at nice 0, -20 at most). Of the
 * worker's 200 wakeups in such a round, those that waited 100 us or more,
 * on this VM (Linux 6.18, EEVDF): with the hog at relay's own nice, 3 to
 * 14, the worker preempting it at most wakes; ten levels above, 15 to 64;
 * fifteen, 54 to 110, waits of a few milliseconds; twenty, 150 to 190,
 * rounds of seconds, and the balancer moves the machine's other work onto
 * CPU 0, where it delays the client too.
 *
 * wakeprobe --pid traces the run, --tid the worker's wakeups alone, and
 * the test stamps each round's start and end with CLOCK_MONOTONIC, the
 * clock of the report's t_ns and of the timeline's. Of the worker's slow
 * wakeups (--threshold-us) in the hog's rounds, most must name that
 * round's hog as a task that held CPU 1; in the other rounds, none may
 * name a hog. How many the hog makes slow is the scheduler's to say (1
 * in a round and 45 in the other, once, on a quiet machine): each hog
 * round has some, the two at least ten. The JSON lists the 100 slowest wakeups at most, and the
 * hog's rounds alone have more: the quiet rounds' are seldom among them,
 * and those it lists are where the machine's other work held CPU 1 too
 * (beside two virtual machines busy on this one, that work was named in
 * more of them than the hog). The timeline (--perfetto) has every one:
 * the check is held to it, and the JSON to naming, for each wakeup it
 * lists, the tasks the timeline names. Without --tid the client's and
 * the dispatcher's slow wakeups, behind the machine's other work on CPU
 * 0, could take every place in the JSON. Needs root and BTF.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

#define ROUNDS		6
#define PER_ROUND	200
#define INTERVAL_US	1000
#define WORKER_CPU	1
/* slow: over an idle CPU's wake-up (tens of us here), under most of the hog's holds */
#define THRESHOLD_US	100
/* a client's wait is slow with this much of it on its chain: the hog holds CPU 1 for milliseconds */
#define CHAIN_SLOW_US	1000
/* the hog's nice, against the test's and so relay's */
#define HOG_NICE_DELTA	(-15)

/* the hog's rounds, as relay counts them */
static const bool hog_round[ROUNDS] = { [1] = true, [3] = true };

/* what is running, for the cleanup whatever ends the test; and its files */
static struct {
	pid_t relay, tracer, hog;
	char json[64], timeline[64], csv[64], digest[64], record[64];
} run;

/*
 * stop - SIGKILL @pid and reap it, if it is still a child of ours: one
 * reaped already (wait_exit() reaps what it kills) is not signalled, its
 * pid may be another's by now
 */
static void stop(pid_t *pid)
{
	if (*pid > 0 && waitpid(*pid, NULL, WNOHANG) == 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

static void cleanup(void)
{
	char *files[] = { run.json, run.timeline, run.csv, run.digest, run.record };

	stop(&run.hog);
	stop(&run.tracer);
	stop(&run.relay);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (files[i][0])
			unlink(files[i]);
}

TestSuite(relay, .timeout = 120, .fini = cleanup);

/*
 * start_relay - relay with @args, its stdin fed by *@to and its stdout
 * read from *@from; it dies with the test, and ends by itself when its
 * stdin does
 */
static pid_t start_relay(char *const args[], int *to, int *from)
{
	int in[2], out[2];
	pid_t pid;

	cr_assert_eq(pipe2(in, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execv(args[0], args);
		dprintf(2, "cannot run %s: %s\n", args[0], strerror(errno));
		_exit(98);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = out[0];
	return pid;
}

/* on_cpu_only - until @pid may run on @cpu alone (spawn_hog() pins it after its fork); within 5 s */
static void on_cpu_only(pid_t pid, int cpu)
{
	char path[64], want[64], line[256];
	double end = now_s() + 5;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	snprintf(want, sizeof(want), "Cpus_allowed_list:\t%d\n", cpu);
	while (now_s() < end) {
		FILE *f = fopen(path, "r");
		bool pinned = false;

		cr_assert_not_null(f, "the hog %d is gone", (int)pid);
		while (!pinned && fgets(line, sizeof(line), f))
			pinned = !strcmp(line, want);
		fclose(f);
		if (pinned)
			return;
		usleep(2000);
	}
	cr_assert_fail("the hog %d was not pinned to CPU %d within 5 s", (int)pid, cpu);
}

static uint64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* a round as the test drove it */
struct round {
	uint64_t start_ns, end_ns;	/* the go line written; the next "round K" (or the summary) read */
	pid_t hog;			/* 0: a quiet round */
};

/* relay_done - relay's summary, "done rounds=N requests=M" and a line per round, says every round was done */
static void relay_done(const char *out)
{
	const char *line = strstr(out, "done rounds=");
	unsigned int n, m;

	cr_assert_not_null(line, "no summary from relay:\n%s", out);
	cr_assert_eq(sscanf(line, "done rounds=%u requests=%u", &n, &m), 2, "%s", out);
	cr_assert(n == ROUNDS && m == ROUNDS * PER_ROUND, "relay did not do every round:\n%s", out);
	cr_assert_eq(text_count_lines(line), 1 + ROUNDS, "a line per round:\n%s", out);
}

/*
 * The report's check, in python: spans are the rounds (start, end, hog
 * pid or 0), T the threshold in ns. The timeline's phase slices name what
 * held the CPU in the words of the text report ("'wphog' pid 812 prio 105
 * ran on CPU 1 ..."). It writes a line per round into the digest first,
 * so that a failure shows what each round had.
 */
static const char relay_check[] =
	"import collections, csv, json, re, statistics\n"
	"spans = [%s]\n"
	"T = %d\n"
	"hogs = {h for s, e, h in spans if h}\n"
	"def round_of(t):\n"
	"    for k, (s, e, h) in enumerate(spans):\n"
	"        if s <= t < e:\n"
	"            return k\n"
	"    return None\n"
	"def by_disp(waker):\n"
	"    return waker.startswith('thread relay-disp ')\n"
	"def names_hog(held, h):\n"
	"    return ('wphog', h) in held\n"
	"def names_a_hog(held):\n"
	"    return any(n == 'wphog' or p in hogs for n, p in held)\n"
	"def most_named(slow):\n"
	"    return collections.Counter(t for held in slow for t in held).most_common()\n"
	"def said(slow, h):\n"
	"    top = ', '.join(f'{n} {p} {c}' for (n, p), c in most_named(slow)[:2])\n"
	"    return f'{len(slow)}, {sum(names_hog(x, h) for x in slow)} naming its hog, ' \\\n"
	"           f'{sum(names_a_hog(x) for x in slow)} a hog (most named: {top or \"none\"})'\n"
	/* the JSON's slow wakeups of the worker by the dispatcher, each as the (name, pid) of its parts */
	"listed = [[] for s in spans]\n"
	"for o in d['outliers']['samples']:\n"
	"    k = round_of(o['t_ns'])\n"
	"    if k is not None and o['wakee']['comm'] == 'relay-work' and by_disp(o['waker']['name']):\n"
	"        listed[k].append({(p['name'], p['pid']) for ph in o['phases'] for p in ph['parts'] if p['pid']})\n"
	/* the timeline's: every wakeup slice, and the tasks its phases' slices name */
	"task = re.compile(\"^'(.*)' pid ([0-9]+) prio \")\n"
	"wakeups, named = {}, {}\n"
	"for e in json.load(open('%s'))['traceEvents']:\n"
	"    a = e.get('args') or {}\n"
	"    if e.get('cat') == 'wakeup' and a.get('wakee_comm') == 'relay-work':\n"
	"        wakeups[a['seq']] = (round(e['ts'] * 1000), a)\n"
	"    elif e.get('cat') == 'kernel_phase':\n"
	"        for m in filter(None, map(task.match, a.get('intervals', []))):\n"
	"            named.setdefault(a['seq'], set()).add((m.group(1), int(m.group(2))))\n"
	"timeline = [[] for s in spans]\n"
	"for seq, (t, a) in wakeups.items():\n"
	"    k = round_of(t)\n"
	"    if k is not None and by_disp(a['waker']) and a.get('wake_to_run_ns', 0) >= T:\n"
	"        timeline[k].append(named.get(seq, set()))\n"
	"rows = [r for r in csv.DictReader(open('%s', newline='')) if r['label'] == 'complete']\n"
	"lines = []\n"
	"for k, (s, e, h) in enumerate(spans):\n"
	"    work = [int(r['wake_to_run_ns']) for r in rows\n"
	"            if s <= int(r['t_ns']) < e and r['wakee_comm'] == 'relay-work' and by_disp(r['waker'])]\n"
	"    lines.append(f'round {k} ' + (f'hog {h}' if h else 'quiet') + f': {(e - s) / 1e6:.0f} ms, the worker '\n"
	"                 f'woken {len(work)} times, wake->run p50 {statistics.median(work or [0]) / 1e3:.1f} us; '\n"
	"                 f'slow {sum(x >= T for x in work)}: the JSON lists {said(listed[k], h)}; '\n"
	"                 f'the timeline has {said(timeline[k], h)}')\n"
	"held = ', '.join(f\"{t['comm']} {t['pid']} {t['ns'] / 1e6:.1f} ms\" for t in d['tasks'] or [])\n"
	"o = d['outliers']\n"
	"lines.append(f\"slow wakeups the JSON lists: {len(o['samples'])} of {o['candidates']}; holders: {held}; \"\n"
	"             f\"dropped {d['events']['dropped']}\")\n"
	"open('%s', 'w').write('\\n'.join(lines) + '\\n')\n"
	"assert d['kind'] == 'attach' and d['options']['outlier_threshold_ns'] == T, d['options']\n"
	/* the JSON's parts and the timeline's slices are one explanation: the same tasks */
	"for o in d['outliers']['samples']:\n"
	"    held = {(p['name'], p['pid']) for ph in o['phases'] for p in ph['parts'] if p['pid']}\n"
	"    if o['seq'] in wakeups:\n"
	"        assert held == named.get(o['seq'], set()), (o['seq'], held, named.get(o['seq']))\n"
	"for k, (s, e, h) in enumerate(spans):\n"
	"    if h:\n"
	"        assert timeline[k], lines[k]\n"
	"        assert sum(names_hog(x, h) for x in timeline[k]) * 2 > len(timeline[k]), lines[k]\n"
	"        assert not listed[k] or any(names_hog(x, h) for x in listed[k]), lines[k]\n"
	"    else:\n"
	"        assert not any(names_a_hog(x) for x in listed[k] + timeline[k]), lines[k]\n"
	"assert sum(len(timeline[k]) for k, (s, e, h) in enumerate(spans) if h) >= 10, lines\n"
	"assert sum(len(listed[k]) for k, (s, e, h) in enumerate(spans) if h) >= 10, lines\n";

/* spans_of - @rounds as the checks' python takes them, "(start, end, hog), ..." into @spans */
static void spans_of(const struct round *rounds, char *spans, size_t len)
{
	size_t n = 0;

	for (int k = 0; k < ROUNDS; k++)
		n += (size_t)snprintf(spans + n, len - n, "(%llu, %llu, %d), ", (unsigned long long)rounds[k].start_ns,
				      (unsigned long long)rounds[k].end_ns, (int)rounds[k].hog);
}

/* read_digest - what a check wrote of each round into run.digest, into @digest ("" when it wrote nothing) */
static void read_digest(char *digest, size_t len)
{
	int fd = open(run.digest, O_RDONLY | O_CLOEXEC);

	digest[0] = '\0';
	if (fd >= 0) {
		read_to_end(fd, digest, len);
		close(fd);
	}
}

/* check_report - the JSON, the timeline and the CSV held to relay_check over @rounds; its digest into @digest */
static bool check_report(const struct round *rounds, char *digest, size_t len)
{
	char spans[ROUNDS * 64];
	bool ok;

	spans_of(rounds, spans, sizeof(spans));
	ok = json_check(run.json, relay_check, spans, THRESHOLD_US * 1000, run.timeline, run.csv, run.digest);
	read_digest(digest, len);
	return ok;
}

/* thread_named - the thread of process @pid named @comm, once it is (within 5 s) */
static pid_t thread_named(pid_t pid, const char *comm)
{
	char path[320], name[32];
	double end = now_s() + 5;

	while (now_s() < end) {
		struct dirent *t;
		DIR *tasks;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		tasks = opendir(path);
		cr_assert_not_null(tasks, "process %d is gone", (int)pid);
		while ((t = readdir(tasks))) {
			FILE *f;

			if (t->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid, t->d_name);
			f = fopen(path, "r");
			if (f && fgets(name, sizeof(name), f) && !strcmp(strtok(name, "\n"), comm)) {
				pid_t tid = atoi(t->d_name);

				fclose(f);
				closedir(tasks);
				return tid;
			}
			if (f)
				fclose(f);
		}
		closedir(tasks);
		usleep(10000);
	}
	cr_assert_fail("process %d has no thread named %s", (int)pid, comm);
	return 0;
}

/*
 * drive - relay's six rounds, a hog on the worker's CPU in hog_round[]'s,
 * traced by wakeprobe --pid with @args (its own, at most 12), --tid the
 * worker's when @worker_only; each round's span and hog into @rounds,
 * relay's summary into @relay_out. wakeprobe has ended well when it returns.
 */
static void drive(char *const args[], bool worker_only, struct round *rounds, char *relay_out, size_t len)
{
	char pid_arg[16], tid_arg[16], line[128], rounds_arg[16], per_round_arg[16], interval_arg[16], cpu_arg[16];
	static char tracer_err[4096];
	struct child_setup setup = { .uid = -1, .stdout_to = "/dev/null", .dies_with_test = true };
	char *argv[24] = { (char *)wakeprobe_path() };
	int to, from, t_out, t_err, status, hog_nice, n = 1;

	errno = 0;
	hog_nice = getpriority(PRIO_PROCESS, 0) + HOG_NICE_DELTA;
	cr_assert_eq(errno, 0, "getpriority: %s", strerror(errno));
	if (hog_nice < -20)
		hog_nice = -20;
	signal(SIGPIPE, SIG_IGN);
	snprintf(rounds_arg, sizeof(rounds_arg), "%d", ROUNDS);
	snprintf(per_round_arg, sizeof(per_round_arg), "%d", PER_ROUND);
	snprintf(interval_arg, sizeof(interval_arg), "%d", INTERVAL_US);
	snprintf(cpu_arg, sizeof(cpu_arg), "%d", WORKER_CPU);
	run.relay = start_relay((char *[]){ (char *)relay_path(), "--rounds", rounds_arg, "--per-round", per_round_arg,
					    "--interval-us", interval_arg, "--worker-cpu", cpu_arg,
					    "--pause-between-rounds", NULL }, &to, &from);
	/* relay has started its threads and waits for the first round's line */
	read_line(from, line, sizeof(line));
	cr_assert_str_eq(line, "round 0", "relay did not start");

	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)run.relay);
	/* run.record named: the run is recorded there, to be reported after */
	if (run.record[0]) {
		argv[n++] = "record";
		argv[n++] = "-o";
		argv[n++] = run.record;
	}
	argv[n++] = "--pid";
	argv[n++] = pid_arg;
	if (worker_only) {
		snprintf(tid_arg, sizeof(tid_arg), "%d", (int)thread_named(run.relay, "relay-work"));
		argv[n++] = "--tid";
		argv[n++] = tid_arg;
	}
	for (; *args && n < 23; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	run.tracer = spawn_piped(argv, &setup, &t_out, &t_err);
	wait_attached(run.tracer, "wakeprobe");

	for (int k = 0; k < ROUNDS; k++) {
		if (hog_round[k]) {
			run.hog = spawn_hog("wphog", WORKER_CPU);
			cr_assert_eq(setpriority(PRIO_PROCESS, (id_t)run.hog, hog_nice), 0, "renice the hog: %s",
				     strerror(errno));
			on_cpu_only(run.hog, WORKER_CPU);
		}
		rounds[k].hog = run.hog;
		rounds[k].start_ns = monotonic_ns();
		cr_assert_eq(write(to, "\n", 1), 1, "relay is gone: %s", strerror(errno));
		/* the next round's line, or the summary's first: relay waits or is done, no request is out */
		read_line(from, line, sizeof(line));
		rounds[k].end_ns = monotonic_ns();
		stop(&run.hog);
		if (k + 1 < ROUNDS) {
			char want[32];

			snprintf(want, sizeof(want), "round %d", k + 1);
			cr_assert_str_eq(line, want, "relay's round %d did not end as it should", k);
		}
	}
	close(to);
	snprintf(relay_out, len, "%s\n", line);
	read_to_end(from, relay_out + strlen(relay_out), len - strlen(relay_out));
	close(from);
	status = wait_exit(run.relay, "relay", 30);
	run.relay = 0;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "relay: status 0x%x\n%s", status, relay_out);
	relay_done(relay_out);
	/* wakeprobe --pid ends with its target, and analyses the run then */
	status = wait_exit(run.tracer, "wakeprobe", 60);
	run.tracer = 0;
	read_to_end(t_err, tracer_err, sizeof(tracer_err));
	close(t_out);
	close(t_err);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wakeprobe: status 0x%x\n%s", status, tracer_err);
}

Test(relay, a_hog_on_the_workers_cpu_is_named_in_its_slow_wakeups_and_in_no_others)
{
	char threshold[16];
	static char relay_out[4096], digest[4096];
	struct round rounds[ROUNDS] = { 0 };

	skip_unless_traceable();
	fclose(temp_output("relay-json", run.json));
	fclose(temp_output("relay-timeline", run.timeline));
	fclose(temp_output("relay-csv", run.csv));
	fclose(temp_output("relay-digest", run.digest));
	snprintf(threshold, sizeof(threshold), "%d", THRESHOLD_US);
	drive((char *[]){ "--json", run.json, "--perfetto", run.timeline, "--csv", run.csv, "--threshold-us", threshold,
			  "--outliers", "100", NULL }, true, rounds, relay_out, sizeof(relay_out));
	cr_assert(check_report(rounds, digest, sizeof(digest)), "the report does not say it:\n%s\nrelay:\n%s", digest,
		  relay_out);
	cr_log_info("relay:\n%s", relay_out);
	cr_log_info("wakeprobe:\n%s", digest);
}

/*
 * The chains' check, in python, on every wakeup's row of the CSV: spans
 * the rounds (start, end, hog pid or 0), T the least time on its chain
 * that makes a client's wait slow. The client's own wakeup, by the
 * worker's eventfd write, is fast whatever the round: the delay is a hop
 * back, where the worker waited for CPU 1.
 */
static const char chains_check[] =
	"import csv\n"
	"spans = [%s]\n"
	"T = %d\n"
	"hogs = {h for s, e, h in spans if h}\n"
	"rows = [r for r in csv.DictReader(open('%s', newline='')) if r['label'] == 'complete']\n"
	"def hops(r):\n"
	"    return [(r[f'hop{i}_waker_comm'], r[f'hop{i}_holder_comm'], int(r[f'hop{i}_holder_tid'] or 0))\n"
	"            for i in range(1, 5) if r[f'hop{i}_waker_tid']]\n"
	"def names_hog(r, h):\n"
	"    return any(w == 'relay-work' and (c, t) == ('wphog', h) for w, c, t in hops(r))\n"
	"def names_a_hog(r):\n"
	"    return any(c == 'wphog' or t in hogs for w, c, t in hops(r))\n"
	"lines, slow = [], []\n"
	"for k, (s, e, h) in enumerate(spans):\n"
	"    client = [r for r in rows if s <= int(r['t_ns']) < e and r['wakee_comm'] == 'relay-client'\n"
	"              and r['waker'].startswith('thread relay-work ')]\n"
	"    assert all(r['chain_end'] for r in client), 'a client wakeup without its chain'\n"
	"    slow.append([r for r in client if int(r['chain_on_path_ns'] or 0) >= T])\n"
	"    lines.append(f'round {k} ' + (f'hog {h}' if h else 'quiet') + f': the client woken {len(client)} times, '\n"
	"                 f'{len(slow[k])} of them with {T / 1e3:.0f} us or more on the chain, '\n"
	"                 f'{sum(names_hog(r, h) for r in slow[k])} naming the hog at the worker, '\n"
	"                 f'{sum(names_a_hog(r) for r in client)} any hog anywhere')\n"
	"open('%s', 'w').write('\\n'.join(lines) + '\\n')\n"
	"for k, (s, e, h) in enumerate(spans):\n"
	"    if h:\n"
	"        assert slow[k], lines[k]\n"
	"        assert sum(names_hog(r, h) for r in slow[k]) * 2 > len(slow[k]), lines[k]\n"
	"    else:\n"
	"        assert not any(names_a_hog(r) for r in rows if s <= int(r['t_ns']) < e), lines[k]\n"
	"assert sum(len(slow[k]) for k, (s, e, h) in enumerate(spans) if h) >= 6, lines\n";

/*
 * follow_chains - relay traced with --chains and @engine (NULL: the
 * default), every thread: the chains' check held to every wakeup's row
 */
static void follow_chains(const char *engine)
{
	static char relay_out[4096], digest[4096];
	struct round rounds[ROUNDS] = { 0 };
	char spans[ROUNDS * 64], *code;
	bool ok;

	skip_unless_traceable();
	fclose(temp_output("relay-csv", run.csv));
	fclose(temp_output("relay-digest", run.digest));
	drive((char *[]){ "--chains", "--csv", run.csv, engine ? "--engine" : NULL, (char *)engine, NULL }, false,
	      rounds, relay_out, sizeof(relay_out));
	spans_of(rounds, spans, sizeof(spans));
	cr_assert_geq(asprintf(&code, chains_check, spans, CHAIN_SLOW_US * 1000, run.csv, run.digest), 0);
	ok = run_python(code, (const char *const[]){ NULL }) == 0;
	free(code);
	read_digest(digest, sizeof(digest));
	cr_assert(ok, "the chains do not say it:\n%s\nrelay:\n%s", digest, relay_out);
	cr_log_info("wakeprobe --chains%s%s:\n%s", engine ? " --engine " : "", engine ? engine : "", digest);
}

/*
 * --chains on every thread of relay: the client's slow waits in a hog's
 * round are followed back to the worker's hop, and most name the hog that
 * held CPU 1 there; no wakeup of a quiet round names a hog at any hop. How
 * many of the client's waits the hog makes slow is the scheduler's to say
 * (7 and 30 in the two rounds on a quiet machine, 6 and 6 on another day;
 * traced by the full engine, which slows relay, 50 and 30): each hog round
 * has some, the two at least six.
 */
Test(relay, a_clients_slow_wait_is_followed_back_to_the_hog_behind_the_worker)
{
	follow_chains(NULL);
}

/* the same, the links built from the full engine's stream (core/chain_stream.c), not carried in the kernel */
Test(relay, the_full_engine_follows_the_same_wait_back_to_the_hog_from_its_stream)
{
	follow_chains("full");
}

/*
 * The two chains' check, in python, on the report of the recording: each
 * slow wakeup the JSON lists with its chain has the stream's chain held
 * against the kernel's, and the same; over every chain compared, none
 * differs but by the one in a hundred that lost records could make.
 */
static const char twice_check[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"k = d['chains']['check']\n"
	"slow = [s for s in d['outliers']['samples'] if s['chain']]\n"
	"same = sum(s['chain_check'] == 'same' for s in slow)\n"
	"open(sys.argv[2], 'w').write(f\"compared {k['compared']}, the same {k['same']}, differ {k['differ']}, \"\n"
	"    f\"no kernel's chain {k['no_kernel']}; the kernel's {k['kernel']}, unmatched {k['kernel_unmatched']}, \"\n"
	"    f\"not kept {k['kernel_not_kept']}; slow wakeups {len(slow)}, {same} the same; times apart \"\n"
	"    f\"{k['mean_time_diff_ns']} ns on average, {k['max_time_diff_ns']} at most; first difference: \"\n"
	"    f\"{k['first_difference']}\\n\")\n"
	"assert slow and same == len(slow), [(s['seq'], s['chain_check']) for s in slow if s['chain_check'] != 'same']\n"
	"assert k['compared'] >= 1000 and k['differ'] * 100 <= k['compared'], k\n";

/*
 * --chains with the full engine, recorded: the recording holds the stream
 * and, beside it, the links the lean engine's programs carried in the
 * kernel; its report builds each chain from the stream and holds it
 * against the kernel's. Every slow wakeup's chain is the same, hop for hop,
 * in both.
 */
Test(relay, the_kernels_chains_and_the_streams_of_one_recording_are_the_same_hop_for_hop)
{
	static char relay_out[4096], digest[4096];
	static struct wakeprobe_ran ran;
	struct round rounds[ROUNDS] = { 0 };
	char threshold[16];

	skip_unless_traceable();
	fclose(temp_output("relay-record", run.record));
	fclose(temp_output("relay-json", run.json));
	fclose(temp_output("relay-digest", run.digest));
	snprintf(threshold, sizeof(threshold), "%d", THRESHOLD_US);
	drive((char *[]){ "--chains", "--engine", "full", NULL }, false, rounds, relay_out, sizeof(relay_out));
	wakeprobe_run_ok(&ran, (char *[]){ "report", run.record, NULL });
	cr_assert(strstr(ran.out, "The chains built twice: the full engine's from its stream, the kernel's"), "%s",
		  ran.out);
	wakeprobe_run_ok(&ran, (char *[]){ "report", run.record, "--json", run.json, "--threshold-us", threshold,
					   "--outliers", "100", NULL });
	cr_assert_eq(run_python(twice_check, (const char *const[]){ run.json, run.digest, NULL }), 0,
		     "the chains differ:\n%s", ran.err);
	read_digest(digest, sizeof(digest));
	cr_log_info("the recording's chains, built twice: %s", digest);
}

/*
 * The hops' stacks' check, in python: the JSON's slow wakeups and the ten
 * whose chains held the most, the folded critical paths. The client's
 * chains name where each waker woke the next: the worker, which woke the
 * client, in write (the eventfd); the dispatcher, which woke that worker,
 * in pthread_cond_signal. (The worker wakes the dispatcher too, by
 * pthread_cond_signal, when the queue was full: a hop further back.) The
 * folded paths hold the client's waits, the worker's waits for a CPU
 * behind the hog among them.
 */
static const char stacks_check[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"names = lambda st: [f.get('function', '') for f in (st or {}).get('user') or []]\n"
	"kept = [(s['wakee']['comm'], s['chain']) for s in d['outliers']['samples'] if s['chain']]\n"
	"kept += [(s['wakee_comm'], s['chain']) for s in d['chains']['most_on_path']]\n"
	"chains = [c['hops'] for comm, c in kept if comm == 'relay-client' and c['hops']]\n"
	"work = [names(h[0]['waker_stacks']) for h in chains if h[0]['waker']['comm'] == 'relay-work'\n"
	"        and h[0]['waker_stacks']]\n"
	"disp = [names(h[1]['waker_stacks']) for h in chains if len(h) > 1 and h[0]['waker']['comm'] == 'relay-work'\n"
	"        and h[1]['waker']['comm'] == 'relay-disp' and h[1]['waker_stacks']]\n"
	"paths = {}\n"
	"for line in open(sys.argv[2]):\n"
	"    frames, ns = line.rsplit(' ', 1)\n"
	"    if frames.startswith('[chains];relay-client;'):\n"
	"        key = ';'.join(frames.split(';')[2:5])\n"
	"        paths[key] = paths.get(key, 0) + int(ns)\n"
	"held = sum(ns for k, ns in paths.items() if k == 'relay-work;[waited for a CPU];wphog')\n"
	"open(sys.argv[3], 'w').write(f'client hops with stacks: {len(work)} by the worker, {len(disp)} by the dispatcher; '\n"
	"    f'the worker in write in {sum(any(\"write\" in f for f in n) for n in work)}, the dispatcher in '\n"
	"    f'pthread_cond_signal in {sum(any(\"cond_signal\" in f for f in n) for n in disp)}; folded paths of the client: '\n"
	"    f'{len(paths)}, {held / 1e6:.2f} ms of them waiting behind wphog\\n')\n"
	"assert work and all(any('write' in f for f in n) for n in work), work\n"
	"assert disp and all(any('cond_signal' in f for f in n) for n in disp), disp\n"
	"assert held >= 1e6, paths\n";

/*
 * --chains with --stacks: each hop has the stacks its waker woke the next
 * from, and --folded the critical paths under [chains]: the client's
 * waits split by who held them and where
 */
Test(relay, each_hop_says_where_its_waker_woke_the_next_and_the_folded_paths_hold_the_waits)
{
	static char relay_out[4096], digest[4096];
	struct round rounds[ROUNDS] = { 0 };
	char threshold[16], folded[64];

	skip_unless_traceable();
	fclose(temp_output("relay-json", run.json));
	fclose(temp_output("relay-digest", run.digest));
	fclose(temp_output("relay-folded", folded));
	/* the folded file is the cleanup's to remove too */
	snprintf(run.csv, sizeof(run.csv), "%s", folded);
	snprintf(threshold, sizeof(threshold), "%d", THRESHOLD_US);
	drive((char *[]){ "--chains", "--stacks", "--folded", folded, "--json", run.json, "--threshold-us", threshold,
			  "--outliers", "100", NULL }, false, rounds, relay_out, sizeof(relay_out));
	cr_assert_eq(run_python(stacks_check, (const char *const[]){ run.json, folded, run.digest, NULL }), 0,
		     "the hops' stacks do not say it");
	read_digest(digest, sizeof(digest));
	cr_log_info("%s", digest);
}
