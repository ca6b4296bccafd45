// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeline_cpus.c - the CPUs on the timeline (a thread per CPU, of
 * timeline_cpus.c), through timeline.h from synthetic event streams and
 * read back with tests/check_timeline.py: the tasks, interrupts and idle
 * periods between the events that bound them, the instants of wakes and
 * migrations, the names of the CPU threads, and what a stream that skips,
 * comes late or draws nothing leaves.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "timeline_streams.h"

TestSuite(timeline_cpus, .init = timeline_setup, .fini = timeline_teardown, .timeout = 60);

Test(timeline_cpus, a_cpu_track_shows_tasks_interrupts_and_idle_between_the_events_that_bound_them)
{
	timeline__begin_run(tl, "eventfd", true);
	/* the wakee sleeps on CPU 1; the CPU goes unwatched */
	sw(100, 1, WAKEE, 0, "swapper/1", 1);
	/* the wake finds CPU 1 idle since 150: its idle opens there, the IPI nests inside */
	wake(1000, WP_EV_WAKING, 0, 1, 150);
	irq(1200, 1, WP_IRQ_CALL_FUNC, 251, false, "");
	wake(1250, WP_EV_WAKEUP, 1, 1, 150);
	irq(1300, 1, WP_IRQ_CALL_FUNC, 251, true, "");
	idle_exit(1500, 1, 150);
	sw(1600, 1, 0, WAKEE, "eventfd", 0);
	/* a device interrupt, then a softirq with the timer inside it */
	irq(2000, 1, WP_IRQ_HARD, 24, false, "virtio0-input");
	irq(2100, 1, WP_IRQ_HARD, 24, true, "");
	irq(2200, 1, WP_IRQ_SOFT, 3, false, "");
	irq(2250, 1, WP_IRQ_TIMER, 236, false, "");
	irq(2260, 1, WP_IRQ_TIMER, 236, true, "");
	irq(2300, 1, WP_IRQ_SOFT, 3, true, "");
	/* the wakee is preempted by the hog; the next switch seen is from another task: a gap */
	sw(3000, 1, WAKEE, HOG, "wp-hog", 0);
	sw(4000, 1, OTHER, WAKEE, "eventfd", 0);
	/* exits with no entry: a softirq, and an idle exit older than what the CPU has shown */
	irq(4100, 1, WP_IRQ_SOFT, 1, true, "");
	idle_exit(4200, 1, 50);
	migrate(4300, 1, 1, 0);
	sw(5000, 1, WAKEE, 0, "swapper/1", 1);
	/* CPU 3 is seen only leaving idle: its exit says since when */
	idle_exit(800, 3, 300);
	expect_timeline(
		"cpus = pid_of('CPUs (run 1)')\n"
		"want(cpus == runs[1]['cpus_pid'], (cpus, runs))\n"
		"c0, c1, c3 = (tl.thread(f'CPU {n}', cpus) for n in (0, 1, 3))\n"
		"want(c1[1] - c0[1] == 1 and c3[1] - c0[1] == 3, (c0, c1, c3))\n"
		"got = spans(tl.find(pid=cpus, tid=c1[1]), T0)\n"
		"want(got == [('idle', 100, 1600), ('cpu_idle', 150, 1500), ('call-func IPI', 1200, 1300),\n"
		"             ('eventfd 1002', 1600, 3000), ('irq 24 virtio0-input', 2000, 2100),\n"
		"             ('softirq NET_RX', 2200, 2300), ('timer', 2250, 2260),\n"
		"             ('eventfd 1002', 4000, 5000)], got)\n"
		"want(spans(tl.find(pid=cpus, tid=c3[1]), T0) == [('cpu_idle', 300, 800)], 'CPU 3 idle')\n"
		"want(tl.find(prefix='wp-hog') == [], 'the hog was not seen leaving: no slice')\n"
		"left = [s.args.get('left') for s in tl.find(name='eventfd 1002')]\n"
		"want(left == ['preempted', 'slept'], left)\n"
		"inst = sorted((e['tid'] - c0[1], e['name'], ct.to_ns(e['ts'], 'ts') - T0) for e in tl.instants)\n"
		"want(inst == [(0, 'sched_waking 1002', 1000), (1, 'migrate 1002', 4300),\n"
		"              (1, 'sched_wakeup 1002', 1250)], inst)\n"
		"waking = [e for e in tl.instants if e['name'].startswith('sched_waking')][0]\n"
		"want(waking['args'] == {'pid': 1002, 'target_cpu': 1, 'target_idle_for_ns': 850}, waking['args'])\n"
		"r = runs[1]\n"
		"want((r['cpu_slices'], r['cpu_slices_dropped_unwatched'], r['exits_without_entry'],\n"
		"      r['entries_without_exit'], r['late_events']) == (9, 1, 2, 0, 0), r)\n");
}
