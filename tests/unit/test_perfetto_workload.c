// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_workload.c - the samples on the timeline (the waker and wakee
 * threads of perfetto_workload.c), through perfetto_timeline.h and read back
 * with tests/check_timeline.py: phases that tile each wakeup, arrows from the
 * notify to the wake, every interval worded as the reports word it, what the
 * wakeup slice says the merger found, samples without phases drawn whole, and
 * samples that cannot nest with the one before.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "perfetto_streams.h"

TestSuite(perfetto_workload, .init = timeline_setup, .fini = timeline_teardown, .timeout = 60);

Test(perfetto_workload, phases_tile_each_wakeup_and_an_arrow_goes_from_the_notify_to_the_wake)
{
	struct sample_result r;
	struct interval *iv;
	uint64_t seq;

	perfetto_timeline__begin_run(tl, "eventfd", true);
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
		perfetto_timeline__sample(tl, &r);
	}
	perfetto_timeline__end_run(tl);
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
Test(perfetto_workload, every_interval_is_worded_as_the_reports_word_it)
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
	perfetto_timeline__begin_run(tl, "cond", true);
	perfetto_timeline__sample(tl, &r);
	expect_timeline(
		"want_all = [%s]\n"
		"got = [d for s in sorted(tl.find(cat='phase'), key=lambda s: s.start) for d in s.args['intervals']]\n"
		"want(sorted(got) == sorted(want_all) and len(got) == %zu, (got, want_all))\n"
		"want(\"'wp-hog' pid 42 prio 120 ran on CPU 1: 12 ns\" in got, got)\n",
		want, sizeof(parts) / sizeof(parts[0]));
}

Test(perfetto_workload, an_empty_notify_phase_moves_the_arrow_to_slices_that_keep_it_in_time_order)
{
	struct sample_result a = complete(1), b = complete(2);

	/* notify_kernel empty: the arrow leaves notify_user */
	set_phase(&a, PHASE_NOTIFY_KERNEL, 0);
	/* both notify phases empty: wake_enqueue starts at t_notify too, so the arrow lands on runq_wait */
	set_phase(&b, PHASE_NOTIFY_USER, 0);
	set_phase(&b, PHASE_NOTIFY_KERNEL, 0);
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &a);
	perfetto_timeline__sample(tl, &b);
	expect_timeline(
		"got = sorted((p.args['seq'], p.name, c.name) for p, c in tl.flows()[0].values())\n"
		"want(got == [(1, 'notify_user', 'wake_enqueue'), (2, 'notify_user', 'runq_wait')], got)\n"
		"want(summary.endswith('2 samples tiled'), summary)\n");
}

Test(perfetto_workload, samples_without_phases_are_one_slice_named_by_label_in_runs_that_follow_each_other)
{
	struct sample_result missing = not_complete(1, LABEL_MISSING_EVENT), no_sleep = not_complete(2, LABEL_NO_SLEEP);
	struct sample_result spin = not_complete(3, LABEL_COMPLETE), plain = complete(1);

	missing.missing = MARK_SWITCH_IN;
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &missing);
	perfetto_timeline__sample(tl, &no_sleep);
	perfetto_timeline__sample(tl, &spin);
	/* a second run, untraced: what it hands over is a sample and two stamps */
	memset(&plain.why, 0, sizeof(plain.why));
	memset(plain.mark_ns, 0, sizeof(plain.mark_ns));
	memset(plain.phase_ns, 0, sizeof(plain.phase_ns));
	plain.phased = false;
	perfetto_timeline__begin_run(tl, "cond", false);
	perfetto_timeline__sample(tl, &plain);
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

Test(perfetto_workload, the_wakeup_slice_says_what_the_merger_found_on_the_way)
{
	struct sample_result r = complete(1), early = not_complete(2, LABEL_MISSING_EVENT);
	struct sample_result late = not_complete(3, LABEL_MISSING_EVENT);

	r.target_was_idle = true;
	r.idle_exit_seen = true;
	r.idle_exit_ns = 900;
	r.waker_preempted = true;
	r.waker_preempted_ns = 400;
	r.rewait_seen = true;
	r.rewait_ns = 300;
	r.why.migrations = 2;
	r.why.migrated_from = 0;
	r.why.migrated_to = 1;
	r.why.more_iv = 5;
	/* its waking never came: the wake's CPUs are not known, what the merger left in them is not shown */
	early.missing = MARK_WAKING;
	early.rewait_seen = true;
	early.waker_preempted = true;
	/* the waking came: its CPUs are known; a later mark was missing */
	late.missing = MARK_SWITCH_IN;
	late.idle_exit_seen = true;
	late.idle_exit_ns = 700;
	late.rewait_seen = true;
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &r);
	perfetto_timeline__sample(tl, &early);
	perfetto_timeline__sample(tl, &late);
	expect_timeline(
		"w = tl.find(name='wakeup #1')[0]\n"
		"want(w.args == {'seq': 1, 'total_ns': 6850, 'label': 'complete', 'waker_cpu': 0, 'wakee_cpu': 1,\n"
		"                'waking_cpu': 0, 'target_cpu': 1, 'target_was_idle': True, 'waker_preempted_ns': 400,\n"
		"                'idle_exit_ns': 900, 'mutex_reacquire_ns': 300, 'migrations': 2, 'migrated_from_cpu': 0,\n"
		"                'migrated_to_cpu': 1, 'intervals_not_listed': 5}, w.args)\n"
		"e = tl.find(name='missing_event #2')[0]\n"
		"want(e.args == {'seq': 2, 'total_ns': 6850, 'label': 'missing_event', 'waker_cpu': 0, 'wakee_cpu': 1,\n"
		"                'missing': 'sched_waking of the wakee'}, e.args)\n"
		"l = tl.find(name='missing_event #3')[0]\n"
		"want(l.args == {'seq': 3, 'total_ns': 6850, 'label': 'missing_event', 'waker_cpu': 0, 'wakee_cpu': 1,\n"
		"                'missing': 'sched_switch to the wakee', 'waking_cpu': 0, 'target_cpu': 1,\n"
		"                'target_was_idle': False, 'idle_exit_ns': 700}, l.args)\n");
}

/* a phase's args: its time by cause, only the causes it had, and only its own intervals */
Test(perfetto_workload, each_phase_carries_its_causes_and_its_own_intervals_alone)
{
	struct sample_result r = complete(1);
	struct interval *iv;

	iv = add_cause(&r, PHASE_RUNQ_WAIT, CAUSE_OTHER_TASK, 4000);
	iv->pid = HOG;
	iv->prio = 120;
	snprintf(iv->name, sizeof(iv->name), "wp-hog");
	/* own work: time by cause, no interval of it */
	r.why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_OWN_WORK] = 500;
	r.why.by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_UNEXPLAINED] = 200;
	r.why.by_phase_cause[PHASE_RESUME_USER][CAUSE_UNEXPLAINED] = 0;
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &r);
	expect_timeline(
		"ph = {s.name: s.args for s in tl.find(cat='phase')}\n"
		"want(ph['runq_wait'] == {'seq': 1, 'ns': 4000, 'causes': {'other_task': 4000},\n"
		"     'intervals': [\"'wp-hog' pid 42 prio 120 ran on CPU 1: 4000 ns\"]}, ph['runq_wait'])\n"
		"want(ph['resume_kernel'] == {'seq': 1, 'ns': 700, 'causes': {'own_work': 500, 'unexplained': 200},\n"
		"     'intervals': []}, ph['resume_kernel'])\n"
		"want(ph['resume_user'] == {'seq': 1, 'ns': 250, 'causes': {}, 'intervals': []}, ph['resume_user'])\n"
		"want(ph['notify_user']['causes'] == {'unexplained': 300}, ph['notify_user'])\n");
}

Test(perfetto_workload, the_arrows_of_runs_that_follow_each_other_keep_ids_of_their_own)
{
	struct sample_result r;

	perfetto_timeline__begin_run(tl, "eventfd", true);
	for (uint64_t seq = 1; seq <= 2; seq++) {
		r = complete(seq);
		perfetto_timeline__sample(tl, &r);
	}
	perfetto_timeline__begin_run(tl, "cond", true);
	for (uint64_t seq = 1; seq <= 2; seq++) {
		r = complete(seq);
		perfetto_timeline__sample(tl, &r);
	}
	expect_timeline(
		"one, two = pid_of('wakeprobe: eventfd'), pid_of('wakeprobe: cond')\n"
		"pairs, problems = tl.flows()\n"
		"want(sorted(pairs) == [1, 2, 3, 4] and problems == [], (sorted(pairs), problems))\n"
		"want([pairs[i][0].pid for i in (1, 2, 3, 4)] == [one, one, two, two], 'each run its own')\n"
		"want(tl.thread('waker', one)[1] == tl.thread('waker', two)[1] == 1001, tl.thread_names)\n"
		"sorts = {(e['pid'], e['tid']): e['args']['sort_index'] for e in tl.events\n"
		"         if e['name'] == 'thread_sort_index'}\n"
		"want(sorts == {(one, 1001): 0, (one, 1002): 1, (two, 1001): 0, (two, 1002): 1}, sorts)\n"
		"want(summary.endswith('4 samples tiled'), summary)\n");
}

/* nothing after its start: no slice can take the arrow strictly later, so none is drawn */
Test(perfetto_workload, a_wakeup_of_no_time_has_its_phases_and_no_arrow)
{
	struct sample_result r = complete(1);

	for (int k = 0; k < NR_PHASES; k++)
		set_phase(&r, k, 0);
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &r);
	expect_timeline(
		"want(spans(tl.find(pid=pid_of('wakeprobe: eventfd')), T0) == [('wakeup #1', 100000, 100000)] +\n"
		"     [(n, 100000, 100000) for n in ct.PHASES], tl.slices)\n"
		"want(tl.flows()[0] == {} and all('bind_id' not in s.event for s in tl.slices), 'no arrow')\n");
}

Test(perfetto_workload, an_untraced_run_draws_even_a_phased_sample_whole)
{
	struct sample_result r = complete(1);

	perfetto_timeline__begin_run(tl, "eventfd", false);
	perfetto_timeline__sample(tl, &r);
	expect_timeline(
		"want(tl.find(cat='phase') == [], 'no phases untraced')\n"
		"[w] = tl.find(prefix='wakeup #')\n"
		"want(w.args == {'seq': 1, 'total_ns': 6850, 'label': 'untraced', 'waker_cpu': 0, 'wakee_cpu': 1}, w.args)\n"
		"[(p, c)] = tl.flows()[0].values()\n"
		"want((p.name, p.tid, p.dur, c.name, c.tid, c.dur) == ('notify #1', 1001, 0, 'woken #1', 1002, 0), (p, c))\n"
		"want(runs[1]['traced'] is False and runs[1]['samples'] == 1, runs[1])\n");
}

/* a woken stamp before the notify can only be clock error: a slice of no time, and no arrow back in time */
Test(perfetto_workload, a_sample_woken_before_its_notify_is_a_slice_of_no_time_without_an_arrow)
{
	struct sample_result back = not_complete(1, LABEL_CLOCK_ORDER), next = complete(2);

	back.t_woken_ns = back.t_notify_ns - 50;
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &back);
	perfetto_timeline__sample(tl, &next);
	expect_timeline(
		"got = spans(tl.find(cat='wakeup'), T0)\n"
		"want(got[0] == ('clock_order #1', 100000, 100000), got)\n"
		"want(tl.find(name='notify #1') == [] and tl.find(name='woken #1') == [], 'no arrow')\n"
		"want(len(tl.flows()[0]) == 1 and runs[1]['samples_not_drawn'] == 0, runs[1])\n");
}

/*
 * A sample may start where the last one on its threads ended, not before:
 * the waker is free again after its notify, the wakee once it is woken.
 */
Test(perfetto_workload, a_sample_starts_no_earlier_than_the_last_one_on_its_threads_ended)
{
	struct sample_result first = complete(1), touching = complete(2), early = complete(3), on_waker = complete(4);
	int k;

	/* from first's t_woken: drawn */
	touching.t_notify_ns = first.t_woken_ns;
	for (k = 0; k < NR_MARKS; k++)
		touching.mark_ns[k] = first.mark_ns[k] + 6850;
	touching.t_woken_ns = first.t_woken_ns + 6850;
	/* a nanosecond before touching's end: the wakee is still busy */
	early.t_notify_ns = touching.t_woken_ns - 1;
	for (k = 0; k < NR_MARKS; k++)
		early.mark_ns[k] = touching.mark_ns[k] + 6849;
	early.t_woken_ns = touching.t_woken_ns + 6849;
	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &first);
	perfetto_timeline__sample(tl, &touching);
	perfetto_timeline__sample(tl, &early);
	/* the waker's threads are free after its notify: a sample of another wakee then is drawn */
	on_waker.sample.wakee_tid = 2002;
	on_waker.t_notify_ns = touching.mark_ns[MARK_WAKING];
	for (k = 0; k < NR_MARKS; k++)
		on_waker.mark_ns[k] = on_waker.t_notify_ns + (first.mark_ns[k] - first.t_notify_ns);
	on_waker.t_woken_ns = on_waker.t_notify_ns + 6850;
	perfetto_timeline__sample(tl, &on_waker);
	expect_timeline(
		"names = sorted(s.name for s in tl.find(prefix='wakeup #'))\n"
		"want(names == ['wakeup #1', 'wakeup #2', 'wakeup #4'], names)\n"
		"want(runs[1]['samples'] == 4 and runs[1]['samples_not_drawn'] == 1, runs[1])\n"
		"want(tl.find(name='wakeup #4')[0].tid == 2002, 'on its own wakee')\n");
}
