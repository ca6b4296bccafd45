// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeline_workload.c - the samples on the timeline (the waker and
 * wakee threads of timeline_workload.c), through timeline.h and read back
 * with tests/check_timeline.py: phases that tile each wakeup, arrows from
 * the notify to the wake, every interval worded as the reports word it,
 * what the wakeup slice says the merger found, samples without phases
 * drawn whole, and samples that cannot nest with the one before.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "timeline_streams.h"

TestSuite(timeline_workload, .init = timeline_setup, .fini = timeline_teardown, .timeout = 60);

Test(timeline_workload, phases_tile_each_wakeup_and_an_arrow_goes_from_the_notify_to_the_wake)
{
	struct sample_result r;
	struct interval *iv;
	uint64_t seq;

	timeline__begin_run(tl, "eventfd", true);
	for (seq = 1; seq <= 3; seq++) {
		r = complete(seq);
		if (seq == 2) {
			iv = add_cause(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 3000);
			iv->pid = HOG;
			iv->prio = 120;
			iv->left_known = iv->preempted = true;
			snprintf(iv->name, sizeof(iv->name), "wp-hog");
			iv = add_cause(&r, PHASE_WAKE_ENQUEUE, CAUSE_IRQ, 100);
			iv->irq_kind = WP_IRQ_CALL_FUNC;
			add_cause(&r, PHASE_WAKE_ENQUEUE, CAUSE_IDLE, 650);
			r.target_was_idle = true;
			r.idle_exit_seen = true;
			r.idle_exit_ns = 900;
		}
		timeline__sample(tl, &r);
	}
	timeline__end_run(tl);
	expect_timeline(
		"pid = pid_of('wakeprobe: eventfd')\n"
		"want(tl.thread('waker', pid)[1] == 1001 and tl.thread('wakee', pid)[1] == 1002, tl.thread_names)\n"
		"w = tl.find(name='wakeup #2', pid=pid)\n"
		"want(len(w) == 1, w)\n"
		"w = w[0]\n"
		"want((w.tid, w.start, w.end) == (1002, T0 + 200000, T0 + 200000 + 6850), w)\n"
		"want(w.event['ts'] == ct.decimal.Decimal('1000000200.123'), w.event['ts'])\n"
		"want(w.args['total_ns'] == 6850 and w.args['label'] == 'complete', w.args)\n"
		"want(w.args['target_was_idle'] is True and w.args['idle_exit_ns'] == 900, w.args)\n"
		"mine = [s for s in tl.find(cat='phase', pid=pid) if s.args['seq'] == 2]\n"
		"want(spans(mine, T0 + 200000) == [('notify_user', 0, 300), ('notify_kernel', 300, 1100),\n"
		"     ('wake_enqueue', 1100, 1900), ('runq_wait', 1900, 5900), ('resume_kernel', 5900, 6600),\n"
		"     ('resume_user', 6600, 6850)], spans(mine, T0 + 200000))\n"
		"want([s.tid for s in mine] == [1001, 1001] + [1002] * 4, [s.tid for s in mine])\n"
		"rq = [s for s in mine if s.name == 'runq_wait'][0]\n"
		"want(rq.args['ns'] == 4000, rq.args)\n"
		"want(rq.args['causes'] == {'other_task': 3000, 'unexplained': 1000}, rq.args)\n"
		"want(rq.args['intervals'] == [\"'wp-hog' pid 42 prio 120 ran on CPU 1 (then preempted): 3000 ns\"],\n"
		"     rq.args)\n"
		"we = [s for s in mine if s.name == 'wake_enqueue'][0]\n"
		"want(we.args['causes'] == {'idle': 650, 'irq': 100, 'unexplained': 50}, we.args)\n"
		"want(we.args['intervals'] == ['call-func IPI on CPU 1: 100 ns', 'CPU 1 idle: 650 ns'], we.args)\n"
		"pairs, _ = tl.flows()\n"
		"want(len(pairs) == 3, pairs)\n"
		"for p, c in pairs.values():\n"
		"    want((p.name, p.tid, c.name, c.tid) == ('notify_kernel', 1001, 'wake_enqueue', 1002), (p, c))\n"
		"    want(p.end == c.start, (p, c))\n"
		"want((runs[1]['workload'], runs[1]['traced'], runs[1]['samples']) == ('eventfd', True, 3), runs)\n"
		"want(runs[1]['pid'] == pid and tl.other['runs_not_listed'] == 0, runs)\n");
}

/*
 * One function words an interval for the text report, the JSON report and
 * the timeline: each interval of every cause reads as
 * explain__describe_interval() has it, then its time.
 */
Test(timeline_workload, every_interval_is_worded_as_the_reports_word_it)
{
	static const struct {
		enum cause cause;
		int phase;
		uint8_t irq_kind;
		int32_t nr;
		uint32_t pid;
		bool left_known, preempted;
		const char *name;
	} parts[] = {
		{ .cause = CAUSE_IDLE, .phase = PHASE_WAKE_ENQUEUE },
		{ .cause = CAUSE_IPI, .phase = PHASE_WAKE_ENQUEUE },
		{ .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .pid = HOG, .name = "wp-hog" },
		{ .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .pid = OTHER, .left_known = true,
		  .name = "other" },
		{ .cause = CAUSE_OTHER_TASK, .phase = PHASE_RUNQ_WAIT, .pid = 78, .left_known = true, .preempted = true,
		  .name = "third" },
		{ .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .irq_kind = WP_IRQ_HARD, .nr = 24, .name = "eth0" },
		{ .cause = CAUSE_IRQ, .phase = PHASE_RUNQ_WAIT, .irq_kind = WP_IRQ_TIMER },
		{ .cause = CAUSE_SOFTIRQ, .phase = PHASE_RUNQ_WAIT, .irq_kind = WP_IRQ_SOFT, .nr = 3 },
		{ .cause = CAUSE_WAKER_PREEMPTED, .phase = PHASE_NOTIFY_KERNEL, .pid = HOG, .name = "wp-hog" },
		{ .cause = CAUSE_WAKEE_PREEMPTED, .phase = PHASE_RESUME_KERNEL, .pid = HOG, .name = "wp-hog" },
		{ .cause = CAUSE_REACQUIRE, .phase = PHASE_RESUME_USER },
	};
	struct sample_result r = complete(1);
	char want[2048], desc[128];
	size_t n = 0, i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct interval *iv = add_cause(&r, parts[i].phase, parts[i].cause, 10 + (int64_t)i);

		iv->irq_kind = parts[i].irq_kind;
		iv->nr = parts[i].nr;
		iv->pid = parts[i].pid;
		iv->prio = parts[i].pid ? 120 : 0;
		iv->left_known = parts[i].left_known;
		iv->preempted = parts[i].preempted;
		snprintf(iv->name, sizeof(iv->name), "%s", parts[i].name ? parts[i].name : "");
		explain__describe_interval(iv, desc, sizeof(desc));
		/* the descriptions quote comms with ' and hold no " or backslash: a python literal as they are */
		cr_assert_null(strpbrk(desc, "\"\\"), "%s", desc);
		n += (size_t)snprintf(want + n, sizeof(want) - n, "\"%s: %" PRIu64 " ns\", ", desc, iv->dur_ns);
		cr_assert_lt(n, sizeof(want));
	}
	timeline__begin_run(tl, "cond", true);
	timeline__sample(tl, &r);
	expect_timeline(
		"want_all = [%s]\n"
		"got = [d for s in sorted(tl.find(cat='phase'), key=lambda s: s.start) for d in s.args['intervals']]\n"
		"want(sorted(got) == sorted(want_all) and len(got) == %zu, (got, want_all))\n"
		"want(\"'wp-hog' pid 42 prio 120 ran on CPU 1: 12 ns\" in got, got)\n",
		want, sizeof(parts) / sizeof(parts[0]));
}

Test(timeline_workload, an_empty_notify_phase_moves_the_arrow_to_slices_that_keep_it_in_time_order)
{
	struct sample_result a = complete(1), b = complete(2);

	/* notify_kernel empty: the arrow leaves notify_user */
	set_phase(&a, PHASE_NOTIFY_KERNEL, 0);
	/* both notify phases empty: wake_enqueue starts at t_notify too, so the arrow lands on runq_wait */
	set_phase(&b, PHASE_NOTIFY_USER, 0);
	set_phase(&b, PHASE_NOTIFY_KERNEL, 0);
	timeline__begin_run(tl, "eventfd", true);
	timeline__sample(tl, &a);
	timeline__sample(tl, &b);
	expect_timeline(
		"got = sorted((p.args['seq'], p.name, c.name) for p, c in tl.flows()[0].values())\n"
		"want(got == [(1, 'notify_user', 'wake_enqueue'), (2, 'notify_user', 'runq_wait')], got)\n"
		"want(summary.endswith('2 samples tiled'), summary)\n");
}

Test(timeline_workload, samples_without_phases_are_one_slice_named_by_label_in_runs_that_follow_each_other)
{
	struct sample_result missing = not_complete(1, LABEL_MISSING_EVENT), no_sleep = not_complete(2, LABEL_NO_SLEEP);
	struct sample_result spin = not_complete(3, LABEL_COMPLETE), plain = complete(1);

	missing.missing = MARK_SWITCH_IN;
	timeline__begin_run(tl, "eventfd", true);
	timeline__sample(tl, &missing);
	timeline__sample(tl, &no_sleep);
	timeline__sample(tl, &spin);
	/* a second run, untraced: what it hands over is a sample and two stamps */
	memset(&plain.why, 0, sizeof(plain.why));
	memset(plain.mark_ns, 0, sizeof(plain.mark_ns));
	memset(plain.phase_ns, 0, sizeof(plain.phase_ns));
	plain.phased = false;
	timeline__begin_run(tl, "cond", false);
	timeline__sample(tl, &plain);
	expect_timeline(
		"one, two = pid_of('wakeprobe: eventfd'), pid_of('wakeprobe: cond')\n"
		"want(one != two and runs[1]['pid'] == one and runs[2]['pid'] == two, (one, two, runs))\n"
		"want((runs[1]['traced'], runs[2]['traced'], runs[2]['workload']) == (True, False, 'cond'), runs)\n"
		"want(tl.find(cat='phase') == [], 'no phases')\n"
		"got = spans(tl.find(cat='wakeup', pid=one), T0)\n"
		"want(got == [('missing_event #1', 100000, 106850), ('notify #1', 100000, 100000),\n"
		"             ('woken #1', 106850, 106850), ('no_sleep #2', 200000, 206850),\n"
		"             ('notify #2', 200000, 200000), ('woken #2', 206850, 206850),\n"
		"             ('wakeup #3', 300000, 306850), ('notify #3', 300000, 300000),\n"
		"             ('woken #3', 306850, 306850)], got)\n"
		"m = tl.find(name='missing_event #1')[0]\n"
		"want((m.args['label'], m.args['missing']) == ('missing_event', 'sched_switch to the wakee'), m.args)\n"
		"want(m.tid == 1002 and tl.find(name='notify #1')[0].tid == 1001, m)\n"
		"u = tl.find(pid=two, prefix='wakeup #')\n"
		"want(len(u) == 1 and u[0].args['label'] == 'untraced' and u[0].args['total_ns'] == 6850, u)\n"
		"want('target_cpu' not in u[0].args, u[0].args)\n"
		"pairs = tl.flows()[0]\n"
		"want(len(pairs) == 4, pairs)\n"
		"for p, c in pairs.values():\n"
		"    want(p.name.startswith('notify #') and c.name.startswith('woken #') and p.pid == c.pid, (p, c))\n"
		"want(tl.thread('wakee', two)[1] == 1002 and tl.thread('wakee', one)[1] == 1002, tl.thread_names)\n");
}
