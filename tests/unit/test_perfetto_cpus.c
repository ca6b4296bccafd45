// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_cpus.c - the CPUs on the timeline (a thread per CPU, of
 * perfetto_cpus.c), through perfetto_timeline.h from synthetic event streams
 * and read back with tests/check_timeline.py: the tasks, interrupts and idle
 * periods between the events that bound them, the instants of wakes and
 * migrations, the names of the CPU threads, and what a stream that skips,
 * comes late or draws nothing leaves.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "perfetto_streams.h"

TestSuite(perfetto_cpus, .init = timeline_setup, .fini = timeline_teardown, .timeout = 60);

Test(perfetto_cpus, a_cpu_track_shows_tasks_interrupts_and_idle_between_the_events_that_bound_them)
{
	perfetto_timeline__begin_run(tl, "eventfd", true);
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

Test(perfetto_cpus, a_task_slice_says_who_ran_and_how_it_left)
{
	struct wp_event host = with_next_comm(ev_switch(T0 + 1000, 2, 0, WP_PID_OUTSIDE | 7, 0, 0), "kworker/2:1");

	perfetto_timeline__begin_run(tl, "eventfd", true);
	sw(100, 2, 0, HOG, "wp-hog", 0);
	/* it sleeps; the next is preempted; the idle task comes and goes */
	sw(500, 2, HOG, OTHER, "other", 1);
	sw(900, 2, OTHER, 0, "swapper/2", 0);
	put(host);
	sw(1200, 2, WP_PID_OUTSIDE | 7, HOG, "wp-hog", 1);
	expect_timeline(
		"cpus = pid_of('CPUs (run 1)')\n"
		"c2 = tl.thread('CPU 2', cpus)[1]\n"
		"got = [(s.name, s.start - T0, s.end - T0, s.cat, s.args) for s in tl.find(pid=cpus, tid=c2)]\n"
		"want(got == [('wp-hog 42', 100, 500, 'sched', {'tid': 42, 'tgid': 42, 'prio': 120, 'left': 'slept',\n"
		"                                              'prev_state': 1}),\n"
		"             ('other 77', 500, 900, 'sched', {'tid': 77, 'tgid': 77, 'prio': 120, 'left': 'preempted',\n"
		"                                             'prev_state': 0}),\n"
		"             ('idle', 900, 1000, 'sched', {'tid': 0, 'tgid': 0, 'prio': 120}),\n"
		"             ('kworker/2:1 host:7', 1000, 1200, 'sched', {'tid': 2**30 + 7, 'tgid': 0, 'prio': 120,\n"
		"                                                         'left': 'slept', 'prev_state': 1})], got)\n"
		"want(runs[1]['cpu_slices'] == 4 and runs[1]['entries_without_exit'] == 0, runs[1])\n");
}

Test(perfetto_cpus, interrupts_are_named_by_their_kind_number_and_handler)
{
	static const struct {
		enum wp_irq_kind kind;
		int nr;
		const char *name;
	} irqs[] = {
		{ WP_IRQ_HARD, 24, "eth0" }, { WP_IRQ_HARD, 25, NULL }, { WP_IRQ_SOFT, 9, NULL },
		{ WP_IRQ_SOFT, 99, NULL }, { WP_IRQ_RESCHED, 253, NULL }, { WP_IRQ_CALL_FUNC, 251, NULL },
		{ WP_IRQ_TIMER, 236, NULL },
	};

	perfetto_timeline__begin_run(tl, "eventfd", true);
	for (uint64_t i = 0; i < sizeof(irqs) / sizeof(irqs[0]); i++) {
		irq(100 * (i + 1), 3, irqs[i].kind, irqs[i].nr, false, irqs[i].name);
		irq(100 * (i + 1) + 50, 3, irqs[i].kind, irqs[i].nr, true, NULL);
	}
	/* an exit of another number of the same kind ends nothing */
	irq(1000, 3, WP_IRQ_HARD, 30, false, "a");
	irq(1010, 3, WP_IRQ_HARD, 31, true, NULL);
	irq(1020, 3, WP_IRQ_HARD, 30, true, NULL);
	expect_timeline(
		"got = [(s.name, s.start - T0, s.end - T0, s.cat, s.args) for s in tl.find(cat='irq')]\n"
		"want(got == [('irq 24 eth0', 100, 150, 'irq', {'kind': 'irq', 'nr': 24}),\n"
		"             ('irq 25', 200, 250, 'irq', {'kind': 'irq', 'nr': 25}),\n"
		"             ('softirq RCU', 300, 350, 'irq', {'kind': 'softirq', 'nr': 9}),\n"
		"             ('softirq ?', 400, 450, 'irq', {'kind': 'softirq', 'nr': 99}),\n"
		"             ('resched IPI', 500, 550, 'irq', {'kind': 'resched IPI', 'nr': 253}),\n"
		"             ('call-func IPI', 600, 650, 'irq', {'kind': 'call-func IPI', 'nr': 251}),\n"
		"             ('timer', 700, 750, 'irq', {'kind': 'timer', 'nr': 236}),\n"
		"             ('irq 30 a', 1000, 1020, 'irq', {'kind': 'irq', 'nr': 30})], got)\n"
		"want(runs[1]['exits_without_entry'] == 1, runs[1])\n");
}

/* the waking says what it found on its target: how long it had been idle, or what ran there */
Test(perfetto_cpus, a_waking_is_an_instant_on_the_wakers_cpu_saying_what_its_target_was_doing)
{
	struct wp_event busy = with_target_curr(ev_waking(T0 + 200, 0, WAKER, WAKEE, 1, 0), HOG, "wp-hog");

	perfetto_timeline__begin_run(tl, "eventfd", true);
	wake(100, WP_EV_WAKING, 0, 1, 40);
	put(busy);
	wake(300, WP_EV_WAKING, 0, 1, 0);
	/* a time of idle after the waking is not one: nothing said */
	wake(400, WP_EV_WAKING, 0, 1, 450);
	wake(500, WP_EV_WAKEUP, 1, 1, 0);
	migrate(600, 1, 1, 3);
	expect_timeline(
		"c0 = tl.thread('CPU 0', pid_of('CPUs (run 1)'))\n"
		"c1 = tl.thread('CPU 1', pid_of('CPUs (run 1)'))\n"
		"got = [(e['name'], (e['pid'], e['tid']), e['ts_ns'] - T0, e['args']) for e in tl.instants]\n"
		"want(got == [('sched_waking 1002', c0, 100, {'pid': 1002, 'target_cpu': 1, 'target_idle_for_ns': 60}),\n"
		"             ('sched_waking 1002', c0, 200, {'pid': 1002, 'target_cpu': 1, 'target_running': 'wp-hog'}),\n"
		"             ('sched_waking 1002', c0, 300, {'pid': 1002, 'target_cpu': 1}),\n"
		"             ('sched_waking 1002', c0, 400, {'pid': 1002, 'target_cpu': 1}),\n"
		"             ('sched_wakeup 1002', c1, 500, {'pid': 1002, 'target_cpu': 1}),\n"
		"             ('migrate 1002', c1, 600, {'pid': 1002, 'from_cpu': 1, 'to_cpu': 3})], got)\n"
		"want(all(e['cat'] == 'sched' and e['s'] == 't' for e in tl.instants), tl.instants)\n"
		"want(tl.slices == [], 'the idle the first waking opened never saw its end')\n");
}

/*
 * A wake opens its target's idle period from the time the waking says,
 * unless the target is the waker's own CPU, already shows an idle period,
 * or was seen doing something since.
 */
Test(perfetto_cpus, a_wake_opens_the_idle_of_its_target_only_where_nothing_says_otherwise)
{
	perfetto_timeline__begin_run(tl, "eventfd", true);
	/* CPU 1: idle from 100 as the wake at 300 says, to its exit at 400 (which says 200) */
	wake(300, WP_EV_WAKING, 0, 1, 100);
	idle_exit(400, 1, 200);
	/* CPU 2: seen at 500, so an idle said to begin at 450 is older than what it showed: its exit ends nothing */
	sw(500, 2, 0, HOG, "wp-hog", 0);
	wake(600, WP_EV_WAKING, 0, 2, 450);
	idle_exit(700, 2, 450);
	/* CPU 0 wakes from itself: the waker runs there, nothing is left open for its next switch to drop */
	wake(700, WP_EV_WAKING, 0, 0, 650);
	sw(750, 0, 0, HOG, "wp-hog", 0);
	/* a target past the CPUs there can be */
	put(ev_wake(T0 + 900, WP_EV_WAKING, 0, WAKER, WAKEE, WP_MAX_CPUS + 3, T0 + 850));
	/* CPU 4: an idle period already open is not opened again */
	idle_enter(1000, 4, 2);
	wake(1100, WP_EV_WAKING, 0, 4, 1050);
	idle_exit(1200, 4, 1000);
	expect_timeline(
		"cpus = pid_of('CPUs (run 1)')\n"
		"idle = [(s.tid - cpus - 1, s.start - T0, s.end - T0, s.args) for s in tl.find(name='cpu_idle')]\n"
		"want(idle == [(1, 100, 400, {}), (4, 1000, 1200, {'state': 2})], idle)\n"
		"want(len(tl.instants) == 5, tl.instants)\n"
		"r = runs[1]\n"
		"want((r['exits_without_entry'], r['entries_without_exit']) == (1, 0), r)\n");
}

Test(perfetto_cpus, each_cpu_is_a_thread_named_once_in_its_runs_process)
{
	perfetto_timeline__begin_run(tl, "eventfd", true);
	sw(100, 0, 0, HOG, "wp-hog", 0);
	sw(200, 5, 0, OTHER, "other", 0);
	sw(300, 0, HOG, 0, "swapper/0", 1);
	sw(350, 0, 0, OTHER, "other", 0);
	perfetto_timeline__begin_run(tl, "cond", true);
	sw(400, 5, OTHER, HOG, "wp-hog", 0);
	sw(500, 5, HOG, 0, "swapper/5", 1);
	expect_timeline(
		"one, two = pid_of('CPUs (run 1)'), pid_of('CPUs (run 2)')\n"
		"want((one, two) == (runs[1]['cpus_pid'], runs[2]['cpus_pid']) and one != two, runs)\n"
		"names = sorted((p, t - p, n) for (p, t), n in tl.thread_names.items() if p in (one, two))\n"
		"want(names == [(one, 1, 'CPU 0'), (two, 6, 'CPU 5')], ('named when first drawn on', names))\n"
		"meta = [(e['name'], e['pid'], e['tid'], e['args']) for e in tl.events if e['ph'] == 'M']\n"
		"want(len(tl.find(pid=one)) == 2, 'two slices on CPU 0')\n"
		"want(len([m for m in meta if m[0] == 'thread_name' and m[1] == one]) == 1, 'named once')\n"
		"want(('process_sort_index', one, one, {'sort_index': 3}) in meta, meta)\n"
		"want(('process_sort_index', two, two, {'sort_index': 5}) in meta, meta)\n"
		"want(('thread_sort_index', two, two + 6, {'sort_index': 5}) in meta, meta)\n"
		"got = spans(tl.find(pid=two), T0)\n"
		"want(got == [('wp-hog 42', 400, 500)], ('a run starts from nothing open', got))\n"
		"want(runs[2]['cpu_slices_dropped_unwatched'] == 0, runs[2])\n");
}

/* syscalls and signals bound the phases, drawn with the samples; forks show nothing */
Test(perfetto_cpus, events_that_draw_nothing_are_counted_and_name_no_cpu)
{
	perfetto_timeline__begin_run(tl, "eventfd", true);
	put(ev_sys_enter(T0 + 100, 0, WAKER, 290, 5));
	put(ev_sys_exit(T0 + 200, 1, WAKEE, 0, 8));
	put(ev_fork(T0 + 300, 0, WAKER, WAKER, 3000));
	put(ev_signal_deliver(T0 + 400, 1, WAKEE, 10));
	put(ev_block(T0 + 500, 1, WAKEE, 0, 5, 0, T0 + 450));
	put(ev_waker(T0 + 600, 0, WAKER, WAKEE, WP_WAKER_SYSCALL, WAKER));
	put(ev_steal(T0 + 700, 2, 0, 1000, T0 + 10));
	expect_timeline(
		"want(tl.slices == [] and tl.instants == [], 'nothing drawn')\n"
		"want(list(tl.process_names.values()) == ['wakeprobe: eventfd'], tl.process_names)\n"
		"want(runs[1]['events'] == 7 and runs[1]['cpu_slices'] == 0, runs[1])\n");
}

/* an event older than what its CPU has shown is skipped there, and there alone */
Test(perfetto_cpus, a_late_event_is_skipped_on_its_own_cpu_alone)
{
	perfetto_timeline__begin_run(tl, "eventfd", true);
	sw(1000, 1, 0, HOG, "wp-hog", 0);
	irq(500, 1, WP_IRQ_HARD, 24, false, "eth0");
	irq(500, 2, WP_IRQ_HARD, 24, false, "eth0");
	irq(600, 2, WP_IRQ_HARD, 24, true, NULL);
	irq(1100, 1, WP_IRQ_HARD, 24, true, NULL);
	sw(1200, 1, HOG, 0, "swapper/1", 1);
	expect_timeline(
		"cpus = pid_of('CPUs (run 1)')\n"
		"got = sorted((s.tid - cpus - 1, s.name, s.start - T0, s.end - T0) for s in tl.slices)\n"
		"want(got == [(1, 'wp-hog 42', 1000, 1200), (2, 'irq 24 eth0', 500, 600)], got)\n"
		"want((runs[1]['late_events'], runs[1]['exits_without_entry']) == (1, 1), runs[1])\n");
}
