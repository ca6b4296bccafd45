// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeline_attach.c - wakeprobe --perfetto FILE in attach mode, on
 * wakeprobe's own eventfd workload run as a command: the file passes
 * tests/check_timeline.py and holds a tiled wakeup for every eventfd
 * wakeup the text report counts; a file that cannot be made leaves
 * nothing. Tracing needs root and BTF; elsewhere the tests skip and say
 * why. Synthetic streams are in unit/test_perfetto_attach.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

TestSuite(timeline_attach, .timeout = 120);

/*
 * Both engines: the full one streams what ran on the CPUs; the default,
 * lean, draws every wakeup from its one record and the CPUs from the
 * flight records of the slow ones, here every wakeup over 1 us. Asked for
 * as --explain all and --explain slow, the older spelling of --engine,
 * which scripts still type: both of its values, live.
 */
struct timeline_case {
	char explain[8];
	char threshold_us[8];
};

static struct timeline_case timeline_cases[] = {
	{ "all", "0" },
	{ "slow", "1" },
};

ParameterizedTestParameters(timeline_attach, a_traced_command_gets_a_timeline_with_every_eventfd_wakeup_tiled_and_its_arrow)
{
	return cr_make_param_array(struct timeline_case, timeline_cases,
				   sizeof(timeline_cases) / sizeof(timeline_cases[0]));
}

ParameterizedTest(struct timeline_case *c, timeline_attach,
		  a_traced_command_gets_a_timeline_with_every_eventfd_wakeup_tiled_and_its_arrow)
{
	char dir[] = "/tmp/wakeprobe-attach-XXXXXX", file[128], path[PATH_MAX];
	char *args[] = { "--explain", c->explain, "--threshold-us", c->threshold_us, "--perfetto", file, "--",
			 (char *)workload_path("eventfd", path, sizeof(path)), "--samples", "200", NULL };
	static struct wakeprobe_ran r;
	long n;

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/eventfd.trace.json", dir);
	wakeprobe_run(&r, args);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "status 0x%x; stderr: %s", r.status, r.err);
	n = report_pair_count(r.out, "eventfd write -> read");
	/*
	 * 200 notifies; one that finds the reader awake wakes nobody, and a
	 * waking the kernel leaves untraced makes its wakeup missing_event,
	 * more often on a loaded machine. What this test is about is that the
	 * timeline holds exactly the complete ones the report counts.
	 */
	cr_assert(n >= 180 && n <= 200, "%ld eventfd wakeups of 200:\n%s", n, r.out);
	cr_assert_eq(dir_entries(dir), 1, "only the timeline, no temporary file");
	/*
	 * Every eventfd wakeup is drawn. Others may not be: a thread woken twice
	 * from inside one syscall of its waker (at the command's exit) has its
	 * second wakeup start before the first ended; it is counted, not drawn.
	 */
	check_timeline(file,
		"n = %ld\n"
		"ev = [s for s in tl.find(cat='wakeup', prefix='wakeup #') if s.args['mechanism'] == 'eventfd write -> read']\n"
		"want(len(ev) == n, (len(ev), n))\n"
		/* without --syscall-phases the write and the read are named, not timed: two phases tile each */
		"untimed = {'notify_kernel': 'untimed', 'resume_kernel': 'untimed'}\n"
		"want(all(s.args['absent'] == untimed and s.args['wake_to_run_ns'] > 0 for s in ev), ev[:3])\n"
		"mine = {s.args['seq'] for s in ev}\n"
		"phases = [s for s in tl.find(cat='kernel_phase') if s.args['seq'] in mine]\n"
		"want(len(phases) == 2 * n, len(phases))\n"
		"want({s.name for s in phases} == {'wake_enqueue', 'runq_wait'}, {s.name for s in phases})\n"
		"arrows = [(p, c) for p, c in tl.flows()[0].values() if c.args['seq'] in mine]\n"
		"want(len(arrows) == n, len(arrows))\n"
		"want(all(p.cat == 'waker' and p.pid == c.pid and p.tid != c.tid for p, c in arrows), arrows[:3])\n"
		"wakee = ev[0].tid\n"
		"want(all(s.tid == wakee for s in ev), 'one reader thread')\n"
		"want(tl.thread_names[(ev[0].pid, wakee)] == f'eventfd {wakee}', tl.thread_names)\n"
		"r = runs[1]\n"
		"want(r['mode'] == 'attach' and r['target'].endswith('eventfd --samples 200'), r)\n"
		"drawn = len(tl.find(cat='wakeup'))\n"
		"want(drawn == r['wakeups'] - r['wakeups_not_drawn'] - r['wakeups_without_process'], (drawn, r))\n"
		"want(r['wakeups'] >= n and r['wakeups_without_process'] == 0, r)\n"
		"cpus = pid_of('CPUs (run 1)')\n"
		"want(len(tl.find(pid=cpus)) > 0 and r['cpu_slices'] > 0, 'the CPU tracks have slices')\n"
		"want(summary.count('attach wakeups tiled') == 1, summary)\n",
		n);
	unlink(file);
	rmdir(dir);
}

Test(timeline_attach, a_timeline_that_cannot_be_made_stops_the_run_and_leaves_nothing)
{
	char dir[] = "/tmp/wakeprobe-attach-XXXXXX", file[128];
	char *args[] = { "--perfetto", file, "--", "/bin/true", NULL };
	static struct wakeprobe_ran r;

	skip_unless_traceable();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/no/such/dir/t.json", dir);
	wakeprobe_run(&r, args);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 1, "status 0x%x; stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, "--perfetto") && strstr(r.err, "cannot create it"), "%s", r.err);
	cr_assert(!strstr(r.err, "tracing"), "nothing is traced: %s", r.err);
	cr_assert_eq(dir_entries(dir), 0);
	rmdir(dir);
}
