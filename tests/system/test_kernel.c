// SPDX-License-Identifier: GPL-2.0
/*
 * test_kernel.c - every mode on the running kernel, held to counts and
 * never to times: the smoke suite `make vmtest` runs in each kernel it
 * boots (scripts/vmtest.sh), as slow as software emulation makes them.
 * What `wakeprobe kernel` finds is held against the kernel's history (the
 * per-CPU layout by its release), and what the lean engine tells through that
 * layout against what a program did.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "cgroups.h"
#include "helpers.h"
#include "readback.h"

/* an emulated machine runs a traced workload some 50 times slower than ours */
TestSuite(kernel, .timeout = 600);

/* wakeups a workload hands over, paced far apart enough for an emulated machine to keep up */
#define SAMPLES "40"
#define INTERVAL_US "3000"

static struct wakeprobe_ran ran;

/* release - the running kernel's major and minor numbers */
static void release(int *major, int *minor)
{
	struct utsname u;

	cr_assert_eq(uname(&u), 0);
	cr_assert_eq(sscanf(u.release, "%d.%d", major, minor), 2, "release '%s'", u.release);
}

static const char *const engine_lines[] = {
	"\n  yes  a workload, the lean engine\n", "\n  yes  a workload, the lean engine, --stacks\n",
	"\n  yes  a workload, the full engine\n",
	"\n  yes  attach, the lean engine\n", "\n  yes  attach, the lean engine, --stacks\n",
	"\n  yes  attach, the lean engine, --chains\n",
	"\n  yes  attach, the full engine\n", "\n  yes  attach, the full engine, --chains\n",
	"\n  yes  a service, the lean engine summing by cgroup\n",
};

Test(kernel, wakeprobe_kernel_finds_the_floor_the_per_cpu_layout_and_loads_every_engine)
{
	char *args[] = { "kernel", NULL };
	int major, minor;
	bool hot;

	skip_unless_traceable();
	wakeprobe_run(&ran, args);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 0, "status 0x%x:\n%s%s", ran.status, ran.out,
		  ran.err);
	cr_assert(strstr(ran.out, "\n  floor        met: "), "%s", ran.out);
	/* each engine as its runs open it (an older kernel's missing features have their fallbacks) */
	for (size_t i = 0; i < sizeof(engine_lines) / sizeof(engine_lines[0]); i++)
		cr_assert(strstr(ran.out, engine_lines[i]), "not loaded: '%s'\n%s", engine_lines[i] + 1, ran.out);
	/* cpu_number and __preempt_count were fields of struct pcpu_hot from v6.2 to v6.14 */
	release(&major, &minor);
	hot = major == 6 && minor >= 2 && minor <= 14;
	cr_assert(strstr(ran.out, hot ? "__preempt_count in struct pcpu_hot" : "__preempt_count variables of their own"),
		  "%s the v6.2-v6.14 layout:\n%s", hot ? "not" : "", ran.out);
	cr_assert(strstr(ran.out, ", at runqueues-") || strstr(ran.out, ", at runqueues+"), "%s", ran.out);
	/* the steal clock's place, found on a kernel built as a KVM guest, whether the host offers it or not */
	cr_assert(strstr(ran.out, "kvm_steal_time.steal at runqueues") || strstr(ran.out, "no per-CPU steal_time"),
		  "%s", ran.out);
}

/* the paced paths, each with its own name, and the engine: copied into the test's process */
struct path_case {
	char name[16];
	char engine[8];
};

static struct path_case paths[] = {
	{ "cond", "lean" }, { "sem", "lean" }, { "eventfd", "lean" }, { "pipe", "lean" },
	{ "signal-handler", "lean" }, { "sigwait", "lean" }, { "spin", "lean" }, { "shmsem", "lean" },
	{ "futex", "lean" }, { "thread-start", "lean" }, { "eventfd", "full" },
};

ParameterizedTestParameters(kernel, every_paced_path_is_traced_to_its_last_wakeup)
{
	return cr_make_param_array(struct path_case, paths, sizeof(paths) / sizeof(paths[0]));
}

/*
 * Each path's wakeups, every one seen and its records all kept; nine in
 * ten at least complete (the rest said why they are not in the table: a
 * wakee not yet asleep when its waker came, on a slow machine), but the
 * spin-wait's, whose wakee never sleeps: a switch in its spin is its label.
 * The full engine (--engine full) splits each complete one by cause.
 */
ParameterizedTest(struct path_case *p, kernel, every_paced_path_is_traced_to_its_last_wakeup)
{
	char json[64];
	char *args[] = { "--workload", p->name, "--engine", p->engine, "--samples", SAMPLES, "--interval-us",
			 INTERVAL_US, "--outliers", "1", "--json", json, NULL };

	skip_unless_traceable();
	fclose(temp_output("kernel-path", json));
	wakeprobe_run_ok(&ran, args);
	cr_assert(json_check(json,
			     "r = d['runs'][0]\n"
			     "s, e = r['samples'], r['events']\n"
			     "assert r['options']['lean'] is %s, r['options']\n"
			     "assert s['sent'] == s['seen'] == %s, s\n"
			     "assert s['complete'] + s['not_in_table'] == s['sent'], s\n"
			     "assert r['workload']['user_only'] or s['complete'] >= s['sent'] * 9 // 10, s\n"
			     "assert e['dropped'] == 0 and e['missed_runs'] == 0, e\n"
			     "assert r['stats']['total']['count'] == s['complete'], r['stats']['total']\n"
			     "assert r['options']['lean'] or r['explained_wakeups'] == s['complete'], r['explained_wakeups']\n",
			     strcmp(p->engine, "full") ? "True" : "False", SAMPLES),
		  "%s, --engine %s:\n%s", p->name, p->engine, ran.out);
	unlink(json);
}

/* a recording made on this kernel reports what the live run did, count for count */
Test(kernel, a_recording_reports_what_its_live_run_did)
{
	char wpr[64], live[64], again[64];
	char *record[] = { "record", "-o", wpr, "--json", live, "--workload", "pipe", "--samples", SAMPLES,
			   "--interval-us", INTERVAL_US, NULL };
	char *report[] = { "report", wpr, "--json", again, NULL };
	char check[256];

	skip_unless_traceable();
	fclose(temp_output("kernel-rec", wpr));
	fclose(temp_output("kernel-live", live));
	fclose(temp_output("kernel-again", again));
	wakeprobe_run_ok(&ran, record);
	wakeprobe_run_ok(&ran, report);
	snprintf(check, sizeof(check), "import json\nlive = json.load(open('%s'))['runs'][0]\n", live);
	cr_assert(json_check(again,
			     "%s"
			     "r = d['runs'][0]\n"
			     "assert r['samples'] == live['samples'], (r['samples'], live['samples'])\n"
			     "assert r['stats']['total'] == live['stats']['total']\n"
			     "assert live['samples']['complete'] >= %s * 9 // 10, live['samples']\n",
			     check, SAMPLES),
		  "%s", ran.out);
	unlink(wpr);
	unlink(live);
	unlink(again);
}

/* an engine of attach mode's: "slow" (the default) or "all" */
struct engine_case {
	char engine[8];
};

static struct engine_case engines[] = { { "lean" }, { "full" } };

ParameterizedTestParameters(kernel, a_commands_hand_offs_are_each_named_by_both_engines)
{
	return cr_make_param_array(struct engine_case, engines, sizeof(engines) / sizeof(engines[0]));
}

/*
 * A program started by wakeprobe (the eventfd path's own binary, run by
 * itself): its wakee's eventfd wakeups are each one named row, as many as
 * it woke, bar those that found the wakee still on its way back to read()
 */
ParameterizedTest(struct engine_case *c, kernel, a_commands_hand_offs_are_each_named_by_both_engines)
{
	char json[64], program[256];
	char *args[] = { "--engine", c->engine, "--outliers", "0", "--json", json, "--", program, "--samples", SAMPLES,
			 "--interval-us", INTERVAL_US, NULL };

	skip_unless_traceable();
	workload_path("eventfd", program, sizeof(program));
	fclose(temp_output("kernel-cmd", json));
	wakeprobe_run_ok(&ran, args);
	cr_assert(json_check(json,
			     "e, w = d['events'], d['wakeups']\n"
			     "assert e['dropped'] == 0, e\n"
			     "rows = [p for p in d['pairs'] if p['mechanism'] == 'eventfd write -> read']\n"
			     "assert len(rows) == 1, d['pairs']\n"
			     "n = rows[0]['count']\n"
			     "assert %s * 9 // 10 <= n <= %s, n\n"
			     "assert w['complete_by_family']['eventfd'] == n, w['complete_by_family']\n",
			     SAMPLES, SAMPLES),
		  "--engine %s:\n%s", c->engine, ran.out);
	unlink(json);
}

/* the body traced: 50 sleeps, each ended by the timer's interrupt */
#define SLEEPS 50

static void sleeper(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };

	for (int i = 0; i < SLEEPS; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/*
 * Lean attach mode tells an interrupt's wake from a task's by the CPU's
 * preempt count, found through the per-CPU layout of this kernel: the
 * sleeps the process took are an interrupt's wakes, none a task's. Nine
 * in ten at least: a sleep whose timer fires before its task is off the
 * CPU (an interrupt between arming it and the switch) ends with no wakeup.
 */
Test(kernel, a_timers_wakes_are_told_as_an_interrupts_through_the_per_cpu_layout)
{
	char json[64];

	skip_unless_traceable();
	trace_body(sleeper, "the sleeper", json);
	cr_assert(json_check(json,
			     "sleeps = [(p['mechanism'], p['count']) for p in d['pairs'] if 'clock_nanosleep' in p['mechanism']]\n"
			     "rows = [p for p in d['pairs'] if p['mechanism'] == 'interrupt -> clock_nanosleep']\n"
			     "assert len(rows) == 1, sleeps\n"
			     "assert %d * 9 // 10 <= rows[0]['count'] <= %d, sleeps\n"
			     "assert rows[0]['waker']['class'] == 'irq', rows[0]['waker']\n"
			     "assert not [p for p in d['pairs'] if p['waker']['class'] == 'tracked'"
			     " and 'clock_nanosleep' in p['mechanism']], sleeps\n",
			     SLEEPS, SLEEPS),
		  "the sleeps were not told as an interrupt's");
	unlink(json);
}

/*
 * --stacks loads on this kernel, and its stacks are named from its own
 * symbols: a workload's futex wakeups show the kernel's futex calls on
 * both sides
 */
Test(kernel, a_workloads_stacks_are_taken_and_named)
{
	static struct wakeprobe_ran r;

	skip_unless_traceable();
	wakeprobe_run_ok(&r, (char *[]){ "--workload", "cond", "--stacks", "--samples", SAMPLES, NULL });
	cr_assert(strstr(r.out, "Stacks of the cond path's complete wakeups"), "%s", r.out);
	cr_assert(strstr(r.out, "futex_wake") && strstr(r.out, "futex_wait"), "%s", r.out);
	cr_assert(strstr(r.out, "pthread_cond_signal") || strstr(r.out, "lll_lock_wake"),
		  "the waker's user stack, in libc\n%s", r.out);
}

/*
 * --all and --cgroup load on this kernel (the cgroup walk is verified only
 * when asked for, rodata says so) and label what they trace: the machine's
 * own wakeups in a few seconds, each under a cgroup, the root's at least
 */
Test(kernel, the_machines_tasks_are_traced_and_labelled_by_cgroup)
{
	char json[64];
	char *all[] = { "--all", "--duration", "3", "--json", json, NULL };
	char *root[] = { "--cgroup", "/", "--duration", "3", "--json", json, NULL };
	char **runs[] = { all, root }, mount[256];

	skip_unless_traceable();
	/* with no cgroup2 hierarchy every task is in its root, and --cgroup has nothing to name */
	for (size_t i = 0; i < (cgroups__mount(mount, sizeof(mount)) ? 1 : 2); i++) {
		fclose(temp_output("kernel-cgroups", json));
		wakeprobe_run_ok(&ran, runs[i]);
		cr_assert(json_check(json,
				     "c = d['cgroups']\n"
				     "assert c['wakeups'] > 0, c\n"
				     "r = c['retired']\n"
				     "assert sum(x['wakeups'] for x in c['by_cgroup']) + r['by_cgroup'] == c['wakeups'], c\n"
				     "assert sum(x['wakeups'] for x in c['holders']) + r['holders'] == c['wakeups'], c\n"
				     "assert sum(x['wakeups'] for x in c['pairs']) + r['pairs'] == c['wakeups'], c\n"
				     "assert all(r['cgroup'] for r in c['by_cgroup']), c['by_cgroup']\n"), "%s", runs[i][0]);
		unlink(json);
	}
}

/*
 * A throughput workload, run untraced and then traced: the futex hand-offs
 * between its two threads that the workload itself counted as waking the
 * other are each in the census, bar those the lean engine leaves out (a wake
 * that found the thread still on its CPU), and a gate's at most
 */
Test(kernel, a_throughput_workloads_hand_offs_are_each_in_its_census)
{
	char json[64];
	char *args[] = { "--workload", "spawn", "--mode", "switch-thread", "--json", json, "--", "--switches", "200",
			 "--repeat", "1", NULL };

	skip_unless_traceable();
	fclose(temp_output("kernel-design", json));
	wakeprobe_run_ok(&ran, args);
	cr_assert(json_check(json,
			     "r = d['runs'][0]\n"
			     "assert r['handed_over'] == {'count': 200, 'unit': 'switch'}, r['handed_over']\n"
			     "woken = r['figures'][0]['counts']['futex_woken']\n"
			     "assert woken > 0, r['figures']\n"
			     "names = ('sp-creator', 'sp-partner')\n"
			     "traced = sum(k['wakeups'] for k in r['census']['kinds'] if k['mechanism'] == 'futex wake -> wait'"
			     " and k['wakee'] in names and k['waker'].split(' ')[-1] in names"
			     " and k['waker'].split(' ')[-1] != k['wakee'])\n"
			     "assert woken * 9 // 10 <= traced <= woken + 2, (traced, woken)\n"
			     "assert r['attach']['events']['dropped'] == 0, r['attach']['events']\n"),
		  "%s", ran.out);
	unlink(json);
}

TestSuite(floor, .timeout = 600);

/*
 * On a kernel without what every traced mode needs (Linux 5.10's, booted by
 * scripts/vmtest.sh; or this one told it lacks task storage), each traced
 * run ends at once with one line naming what is missing and what still
 * works, a workload without tracing runs, and `wakeprobe kernel` says why
 */
Test(floor, below_the_floor_a_traced_run_is_one_line_naming_what_is_missing_and_no_trace_still_runs)
{
	char *workload[] = { "--workload", "eventfd", "--samples", "20", NULL };
	char *command[] = { "--", "true", NULL };
	char *untraced[] = { "--workload", "eventfd", "--samples", "20", "--interval-us", "500", "--no-trace", NULL };
	char *kernel[] = { "kernel", NULL };
	char *const *traced[] = { workload, command };
	int major, minor;
	const char *line;

	skip_unless_traceable();
	release(&major, &minor);
	if (major > 5 || (major == 5 && minor >= 13))
		cr_assert_eq(setenv("WAKEPROBE_KERNEL_LACKS", "task_storage", 1), 0);
	for (size_t i = 0; i < sizeof(traced) / sizeof(traced[0]); i++) {
		wakeprobe_run(&ran, traced[i]);
		cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x:\n%s", ran.status,
			  ran.err);
		line = strstr(ran.err, "wakeprobe: this kernel (");
		cr_assert(line && (strstr(line, " lacks ") || strstr(line, " has no BTF")), "%s", ran.err);
		cr_assert(strstr(line, "every traced mode needs") && strstr(line, "--no-trace"), "%s", ran.err);
		cr_assert_eq(strchr(line, '\n')[1], '\0', "more than the line:\n%s", ran.err);
	}
	wakeprobe_run(&ran, kernel);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x:\n%s", ran.status, ran.out);
	cr_assert(strstr(ran.out, "\n  floor        not met: this kernel ("), "%s", ran.out);
	unsetenv("WAKEPROBE_KERNEL_LACKS");
	wakeprobe_run_ok(&ran, untraced);
	cr_assert(strstr(ran.out, "20 sent"), "%s", ran.out);
}

/* count_lines_with - how many lines of @text hold @what */
static int count_lines_with(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * A kernel older than a feature with an older way (this one, told it
 * lacks them): the older way is taken, said once each on stderr, and the
 * wakeups are all there, their syscalls unnamed without the registers;
 * with --syscall-phases each is named from its entry again, and the full
 * engine reads sched_switch's state from the task
 */
/* skip_below_the_floor - skip the calling test on a kernel older than 5.13: nothing traced runs there */
static void skip_below_the_floor(void)
{
	int major, minor;

	release(&major, &minor);
	if (major < 5 || (major == 5 && minor < 13))
		cr_skip_test("this kernel is below wakeprobe's floor (5.13): nothing traced runs to try a fallback on");
}

Test(floor, without_a_newer_feature_its_older_way_is_taken_and_said_once)
{
	char json[64], program[256];
	char *slow[] = { "--outliers", "0", "--json", json, "--", program, "--samples", SAMPLES, "--interval-us",
			 INTERVAL_US, NULL };
	char *timed[] = { "--syscall-phases", "--outliers", "0", "--json", json, "--", program, "--samples", SAMPLES,
			  "--interval-us", INTERVAL_US, NULL };
	static const char *const said[] = { "lacks bpf_task_pt_regs() (Linux 5.15): ",
					    "lacks bpf_find_vma() (Linux 5.17): ",
					    "lacks sched_switch's prev_state argument (Linux 5.18): " };

	skip_unless_traceable();
	skip_below_the_floor();
	workload_path("eventfd", program, sizeof(program));
	fclose(temp_output("kernel-older", json));
	cr_assert_eq(setenv("WAKEPROBE_KERNEL_LACKS", "task_pt_regs,find_vma,switch_prev_state", 1), 0);
	wakeprobe_run_ok(&ran, slow);
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		cr_assert_eq(count_lines_with(ran.err, said[i]), 1, "'%s' not said once:\n%s", said[i], ran.err);
	/*
	 * the eventfd wakeups, complete, their syscalls unnamed without the
	 * registers: the reader's start and end hand-offs (a futex, a first
	 * run), unnamed too, join the eventfd's in the rows of its wakeups
	 */
	cr_assert(json_check(json,
			     "e, w = d['events'], d['wakeups']\n"
			     "assert e['dropped'] == 0, e\n"
			     "pid = d['targets']['command']['pid']\n"
			     "rows = [p for p in d['pairs'] if p['wakee']['tid'] != pid]\n"
			     "n = sum(p['count'] for p in rows)\n"
			     "assert %s * 9 // 10 <= n <= %s + 8, [(p['mechanism'], p['count']) for p in d['pairs']]\n"
			     "assert not [p for p in d['pairs'] if p['mechanism'] == 'eventfd write -> read'], d['pairs']\n",
			     SAMPLES, SAMPLES),
		  "%s", ran.out);
	wakeprobe_run_ok(&ran, timed);
	cr_assert(json_check(json,
			     "rows = [p for p in d['pairs'] if p['mechanism'] == 'eventfd write -> read']\n"
			     "assert len(rows) == 1 and %s * 9 // 10 <= rows[0]['count'] <= %s, d['pairs']\n"
			     "assert d['events']['dropped'] == 0, d['events']\n",
			     SAMPLES, SAMPLES),
		  "%s", ran.out);
	unlink(json);
	unsetenv("WAKEPROBE_KERNEL_LACKS");
}

/* without bpf_loop() the flight recorder cannot run: the lean engine is refused, the fix named, and it works */
Test(floor, without_bpf_loop_the_flight_recorder_is_refused_and_the_fix_works)
{
	char *flight[] = { "--workload", "eventfd", "--samples", SAMPLES, "--interval-us", INTERVAL_US, NULL };
	char *fixed[] = { "--workload", "eventfd", "--samples", SAMPLES, "--interval-us", INTERVAL_US, "--outliers",
			  "0", NULL };

	skip_unless_traceable();
	skip_below_the_floor();
	cr_assert_eq(setenv("WAKEPROBE_KERNEL_LACKS", "loop", 1), 0);
	wakeprobe_run(&ran, flight);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x:\n%s", ran.status, ran.err);
	cr_assert(strstr(ran.err, "lacks bpf_loop() (Linux 5.17): the lean engine cannot explain a slow wakeup: give "
				  "--outliers 0, or --engine full\n"), "%s", ran.err);
	wakeprobe_run_ok(&ran, fixed);
	cr_assert(strstr(ran.out, " sent, "), "%s", ran.out);
	unsetenv("WAKEPROBE_KERNEL_LACKS");
}
