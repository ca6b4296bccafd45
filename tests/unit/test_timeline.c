// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeline.c - the trace-event timeline, read back with python's json
 * module and tests/check_timeline.py: phases that tile each wakeup, arrows
 * that bind, CPU tracks built from synthetic event streams, slices that
 * nest whatever the stream, memory that does not grow. A real eventfd run
 * written to both outputs is in system/test_timeline.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "events.h"
#include "explain.h"
#include "readback.h"
#include "timeline.h"

#define WAKER		1001u
#define WAKEE		1002u
#define HOG		42u
#define OTHER		77u
#define T0		1000000000123ull	/* odd nanoseconds: none may be lost */

static char path[64];
static FILE *file;
static struct timeline *tl;

static void setup(void)
{
	file = temp_output("timeline", path);
	tl = timeline__open(file);
	cr_assert_not_null(tl);
}

static void teardown(void)
{
	unlink(path);
}

TestSuite(timeline, .init = setup, .fini = teardown, .timeout = 120);

/* close the timeline and its file, then check them */
#define expect_timeline(...)							\
	do {									\
		cr_assert_eq(timeline__close(tl), 0);				\
		cr_assert_eq(fclose(file), 0);					\
		check_timeline(path, __VA_ARGS__);				\
	} while (0)

/* ---------------------------------------------------------------- samples */

/* a complete eventfd wakeup: phases 300, 800, 800, 4000, 700, 250 from T0 + seq * 100 us */
static struct sample_result complete(uint64_t seq)
{
	static const int64_t phases[NR_PHASES] = { 300, 800, 800, 4000, 700, 250 };
	struct sample_result r;
	uint64_t at;
	int k;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.sample.waker_tid = WAKER;
	r.sample.wakee_tid = WAKEE;
	r.sample.waker_cpu = 0;
	r.sample.wakee_cpu = 1;
	r.t_notify_ns = T0 + seq * 100000;
	at = r.t_notify_ns;
	for (k = 0; k < NR_PHASES; k++) {
		r.phase_ns[k] = phases[k];
		at += (uint64_t)phases[k];
		if (k < NR_MARKS)
			r.mark_ns[k] = at;
		r.total_ns += phases[k];
	}
	r.t_woken_ns = at;
	r.waking_cpu = 0;
	r.wakeup_cpu = 1;
	r.target_cpu = 1;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	r.why.by_cause[CAUSE_UNEXPLAINED] = r.total_ns;
	for (k = 0; k < NR_PHASES; k++)
		r.why.by_phase_cause[k][CAUSE_UNEXPLAINED] = r.phase_ns[k];
	return r;
}

/* set_phase - phase @k of @r lasts @ns: the marks after it move, the total follows */
static void set_phase(struct sample_result *r, int k, int64_t ns)
{
	int64_t delta = ns - r->phase_ns[k];
	int m;

	r->phase_ns[k] = ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] = ns;
	for (m = k; m < NR_MARKS; m++)
		r->mark_ns[m] += (uint64_t)delta;
	r->t_woken_ns += (uint64_t)delta;
	r->total_ns += delta;
}

/* add_cause - @ns of phase @k was @cause, taken from its unexplained time */
static struct interval *add_cause(struct sample_result *r, int k, enum cause cause, int64_t ns)
{
	struct interval *iv = &r->why.iv[r->why.nr_iv++];

	r->why.by_phase_cause[k][cause] += ns;
	r->why.by_phase_cause[k][CAUSE_UNEXPLAINED] -= ns;
	r->why.by_cause[cause] += ns;
	r->why.by_cause[CAUSE_UNEXPLAINED] -= ns;
	memset(iv, 0, sizeof(*iv));
	iv->cause = (uint8_t)cause;
	iv->phase = (uint8_t)k;
	iv->dur_ns = (uint64_t)ns;
	iv->cpu = 1;
	return iv;
}

static struct sample_result not_complete(uint64_t seq, enum sample_label label)
{
	struct sample_result r = complete(seq);

	r.label = label;
	r.phased = false;
	return r;
}

Test(timeline, phases_tile_each_wakeup_and_an_arrow_goes_from_the_notify_to_the_wake)
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
Test(timeline, every_interval_is_worded_as_the_reports_word_it)
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

Test(timeline, an_empty_notify_phase_moves_the_arrow_to_slices_that_keep_it_in_time_order)
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

Test(timeline, samples_without_phases_are_one_slice_named_by_label_in_runs_that_follow_each_other)
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

/* ---------------------------------------------------------------- CPU events */

/* the test's shorthands: times are offsets from T0, each event goes straight into the timeline */
static void put(struct wp_event e)
{
	timeline__event(tl, &e);
}

static void sw(uint64_t off, uint32_t cpu, uint32_t prev, uint32_t next, const char *comm, uint32_t prev_state)
{
	struct wp_event e = with_next_comm(ev_switch(T0 + off, cpu, prev, next, prev_state, !prev_state), comm);

	e.sw.next_tgid = next;
	put(e);
}

static void irq(uint64_t off, uint32_t cpu, enum wp_irq_kind kind, int nr, bool exit, const char *name)
{
	put(ev_irq(T0 + off, cpu, kind, nr, exit, name));
}

static void idle_enter(uint64_t off, uint32_t cpu, uint32_t state)
{
	put(ev_idle_enter(T0 + off, cpu, state));
}

static void idle_exit(uint64_t off, uint32_t cpu, uint64_t since_off)
{
	put(ev_idle_exit(T0 + off, cpu, T0 + since_off));
}

static void wake(uint64_t off, enum wp_event_type type, uint32_t cpu, uint32_t target, uint64_t idle_since_off)
{
	put(ev_wake(T0 + off, type, cpu, WAKER, WAKEE, target, idle_since_off ? T0 + idle_since_off : 0));
}

static void migrate(uint64_t off, uint32_t cpu, uint32_t from, uint32_t to)
{
	put(ev_migrate(T0 + off, cpu, 0, WAKEE, from, to));
}

Test(timeline, a_cpu_track_shows_tasks_interrupts_and_idle_between_the_events_that_bound_them)
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

Test(timeline, slices_that_would_overlap_are_dropped_so_every_thread_nests)
{
	struct sample_result first = complete(1), overlapping = complete(2), next = complete(3);
	struct sample_result unordered = complete(4);
	int k;

	timeline__begin_run(tl, "eventfd", true);
	sw(100, 2, OTHER, HOG, "wp-hog", 0);
	/* irq 25's exit is lost: closing irq 24 drops it, and its late exit finds nothing */
	irq(200, 2, WP_IRQ_HARD, 24, false, "eth0");
	irq(250, 2, WP_IRQ_HARD, 25, false, "eth1");
	irq(300, 2, WP_IRQ_HARD, 24, true, "");
	irq(350, 2, WP_IRQ_HARD, 25, true, "");
	/* a softirq open when the task leaves never ended as far as we know */
	irq(400, 2, WP_IRQ_SOFT, 1, false, "");
	sw(500, 2, HOG, OTHER, "other", 1);
	/* older than what CPU 2 has shown: skipped */
	irq(450, 2, WP_IRQ_HARD, 24, false, "eth0");
	/* an idle entry whose exit was lost, then one that ends */
	idle_enter(600, 2, 1);
	idle_enter(700, 2, 2);
	idle_exit(800, 2, 700);
	sw(900, 2, OTHER, 0, "swapper/2", 1);

	/* sample 2 starts before sample 1 ended: it cannot nest with it */
	overlapping.t_notify_ns = first.t_woken_ns - 100;
	overlapping.t_woken_ns = overlapping.t_notify_ns + 6850;
	for (k = 0; k < NR_MARKS; k++)
		overlapping.mark_ns[k] = first.mark_ns[k] + 6750;
	/* marks out of order cannot be phases: the sample is drawn whole */
	unordered.mark_ns[MARK_WAKEUP] = unordered.mark_ns[MARK_WAKING] - 1;
	timeline__sample(tl, &first);
	timeline__sample(tl, &overlapping);
	timeline__sample(tl, &next);
	timeline__sample(tl, &unordered);
	expect_timeline(
		"cpus = pid_of('CPUs (run 1)')\n"
		"c2 = tl.thread('CPU 2', cpus)\n"
		"got = spans(tl.find(pid=cpus, tid=c2[1]), T0)\n"
		"want(got == [('wp-hog 42', 100, 500), ('irq 24 eth0', 200, 300), ('other 77', 500, 900),\n"
		"             ('cpu_idle', 700, 800)], got)\n"
		"want(tl.find(name='cpu_idle')[0].args == {'state': 2}, tl.find(name='cpu_idle')[0].args)\n"
		"r = runs[1]\n"
		"want((r['entries_without_exit'], r['exits_without_entry'], r['late_events']) == (3, 1, 1), r)\n"
		"names = sorted(s.name for s in tl.find(cat='wakeup', prefix='wakeup #'))\n"
		"want(names == ['wakeup #1', 'wakeup #3', 'wakeup #4'], names)\n"
		"want(r['samples'] == 4 and r['samples_not_drawn'] == 1, r)\n"
		"want(sorted({s.args['seq'] for s in tl.find(cat='phase')}) == [1, 3], 'sample 4 has no phases')\n"
		"want(len(tl.flows()[0]) == 3, tl.flows())\n");
}

/*
 * Names are written as json_writer writes every string, the JSON report's
 * too: valid UTF-8 as it is, quote and backslash escaped, and a control or
 * a byte that is not part of valid UTF-8 as \u00XX.
 */
Test(timeline, names_keep_their_valid_utf8_and_escape_every_other_byte_as_the_json_report_does)
{
	/* quote, backslash, a control, a byte that is never UTF-8, DEL */
	static const char comm[] = { 'a', '"', 'b', '\\', 'c', 0x01, (char)0xff, 0x7f, 0 };
	/* 16 bytes and no NUL, as the kernel may leave a comm: an é, a €, and an é cut after its first byte */
	static const char full[WP_TASK_COMM_LEN] = "caf\xc3\xa9 \xe2\x82\xac abcde\xc3";
	struct wp_event e = ev_wake(T0 + 400, WP_EV_WAKING, 0, WAKER, WAKEE, 1, 0);

	timeline__begin_run(tl, "say \"hi\"\\ caf\xc3\xa9", true);
	sw(100, 0, OTHER, HOG, comm, 0);
	sw(200, 0, HOG, OTHER, "caf\xc3\xa9 \xe2\x82\xac abcd\xc3", 0);
	sw(300, 0, OTHER, HOG, "other", 0);
	e.wake.target_curr_pid = HOG;
	memcpy(e.wake.target_curr_comm, full, sizeof(full));
	put(e);
	expect_timeline(
		"want(pid_of('wakeprobe: say \"hi\"\\\\ caf\\u00e9') == runs[1]['pid'], tl.process_names)\n"
		"got = [s.name for s in tl.find(prefix='a')]\n"
		"want(got == ['a\"b\\\\c\\x01\\xff\\x7f 42'], got)\n"
		"got = [s.name for s in tl.find(prefix='caf')]\n"
		"want(got == ['caf\\u00e9 \\u20ac abcd\\xc3 77'], got)\n"
		"got = [i['args'].get('target_running') for i in tl.instants]\n"
		"want(got == ['caf\\u00e9 \\u20ac abcde\\xc3'], got)\n"
		"raw = open(sys.argv[2], 'rb').read()\n"
		"want(b'\"caf\\xc3\\xa9 \\xe2\\x82\\xac abcd\\\\u00c3 77\"' in raw, 'UTF-8 kept, a cut byte not')\n"
		"want(b'\"caf\\xc3\\xa9 \\xe2\\x82\\xac abcde\\\\u00c3\"' in raw, 'a comm ends at 16 bytes')\n"
		"want(b'\"a\\\\\"b\\\\\\\\c\\\\u0001\\\\u00ff\\x7f 42\"' in raw, 'stray bytes as \\\\u00XX')\n");
}

Test(timeline, a_failed_stream_is_reported_and_the_stream_is_left_to_its_owner)
{
	struct sample_result r = complete(1);
	FILE *full = fopen("/dev/full", "w");
	struct timeline *t;
	uint64_t seq;

	cr_assert_not_null(full);
	t = timeline__open(full);
	cr_assert_not_null(t);
	timeline__begin_run(t, "eventfd", true);
	for (seq = 1; seq <= 1000; seq++) {
		r = complete(seq);
		timeline__sample(t, &r);
	}
	cr_assert_eq(timeline__close(t), -EIO);
	fclose(full);	/* still open: fails only for the bytes /dev/full refuses */

	timeline__begin_run(tl, "eventfd", true);
	timeline__sample(tl, &r);
	cr_assert_eq(timeline__close(tl), 0);
	/* still ours: whitespace after the document keeps it valid JSON */
	cr_assert_geq(fputs("\n", file), 0);
	cr_assert_eq(fclose(file), 0);
	check_timeline(path, "want(len(tl.find(prefix='wakeup #')) == 1, tl.slices)\n");
}

/*
 * The state a timeline keeps is sized at open: a CPU holds at most
 * TL_DEPTH (6) open slices, a run TL_THREADS (8) sample threads. What goes
 * past them is counted, not stored.
 */
Test(timeline, a_long_run_keeps_memory_flat_and_what_does_not_fit_the_fixed_state_is_counted)
{
	FILE *sink = fopen("/dev/null", "w");
	struct sample_result r;
	struct mallinfo2 before, after;
	struct timeline *t;
	uint64_t i, seq;
	struct wp_event e = {};

	cr_assert_not_null(sink);
	t = timeline__open(sink);
	cr_assert_not_null(t);
	timeline__begin_run(t, "eventfd", true);
	r = complete(1);
	timeline__sample(t, &r);
	before = mallinfo2();
	for (i = 0; i < 1000000; i++) {
		/* every kind of record on every CPU, with entries that never exit */
		e.ts_ns = T0 + i;
		e.cpu = (uint32_t)(i % WP_MAX_CPUS);
		e.type = WP_EV_SWITCH + (uint32_t)(i % (WP_EV_TYPE_MAX - 1));
		e.sw.prev_tid = (uint32_t)(i / WP_MAX_CPUS);
		e.sw.next_tid = (uint32_t)(i / WP_MAX_CPUS + 1);
		e.irq.kind = WP_IRQ_HARD;
		timeline__event(t, &e);
	}
	for (seq = 2; seq < 200000; seq++) {
		r = complete(seq);
		timeline__sample(t, &r);
	}
	after = mallinfo2();
	cr_assert_eq(after.uordblks + after.hblkhd, before.uordblks + before.hblkhd,
		     "the heap grew by %zd bytes over a long run",
		     (ssize_t)(after.uordblks + after.hblkhd) - (ssize_t)(before.uordblks + before.hblkhd));
	cr_assert_eq(timeline__close(t), 0);
	fclose(sink);

	/* past the fixed state: 20 nested interrupts, 10 thread pairs, a CPU number out of range */
	timeline__begin_run(tl, "eventfd", true);
	sw(10, 0, OTHER, HOG, "wp-hog", 0);
	for (i = 0; i < 20; i++)
		irq(20 + i, 0, WP_IRQ_HARD, (int)i, false, "");
	for (i = 20; i-- > 0;)
		irq(100 - i, 0, WP_IRQ_HARD, (int)i, true, "");
	for (seq = 1; seq <= 10; seq++) {
		r = complete(seq);
		r.sample.waker_tid = 2000 + 2 * (uint32_t)seq;
		r.sample.wakee_tid = 2001 + 2 * (uint32_t)seq;
		timeline__sample(tl, &r);
	}
	put(ev(T0 + 200, WP_EV_SWITCH, WP_MAX_CPUS, 0));
	expect_timeline(
		"r = runs[1]\n"
		"want((r['entries_too_deep'], r['samples_not_drawn'], r['events_bad_cpu']) == (15, 6, 1), r)\n"
		"got = spans(tl.find(cat='irq'), T0)\n"
		"want(got == [(f'irq {n}', 20 + n, 100 - n) for n in range(5)], got)\n"
		"want(len(tl.find(prefix='wakeup #')) == 4 and len(tl.thread_names) == 8 + 1, tl.thread_names)\n");
}

Test(timeline, the_checker_finds_what_breaks_the_rules)
{
	/* each broken file must fail the check, and the one that keeps the rules must pass */
	static const char body[] =
		"import json, os, re, tempfile\n"
		"def verdict(events, raw=None):\n"
		"    doc = raw or json.dumps({'traceEvents': events, 'displayTimeUnit': 'ns', 'otherData': {}})\n"
		"    # times are given as strings to keep their decimals: written as numbers\n"
		"    doc = re.sub(r'\"(ts|dur)\": \"([0-9.]+)\"', r'\"\\1\": \\2', doc)\n"
		"    fd, name = tempfile.mkstemp()\n"
		"    os.write(fd, doc.encode())\n"
		"    os.close(fd)\n"
		"    try:\n"
		"        return ct.check(ct.load(name))[0]\n"
		"    except ct.Problem as err:\n"
		"        return [str(err)]\n"
		"    finally:\n"
		"        os.unlink(name)\n"
		"names = [{'name': 'process_name', 'ph': 'M', 'pid': 9, 'tid': 9, 'args': {'name': 'p'}},\n"
		"         {'name': 'thread_name', 'ph': 'M', 'pid': 9, 'tid': 5, 'args': {'name': 't'}}]\n"
		"def x(name, ts, dur, **more):\n"
		"    e = {'name': name, 'ph': 'X', 'ts': ts, 'dur': dur, 'pid': 9, 'tid': 5, 'cat': 'c'}\n"
		"    return dict(e, **more)\n"
		"nested = [x('a', '1.000', '2.000'), x('b', '1.500', '0.500')]\n"
		"want(verdict(names + nested) == [], 'a nested pair passes')\n"
		"want(verdict(names + [x('a', '1.000', '2.000'), x('b', '2.000', '2.000')]), 'partial overlap')\n"
		"w = x('wakeup #1', '1.000', '6.000', cat='wakeup', args={'seq': 1, 'total_ns': 6000})\n"
		"ph = [x(n, f'{1 + i}.000', '1.000', cat='phase', args={'seq': 1, 'ns': 1000})\n"
		"      for i, n in enumerate(ct.PHASES)]\n"
		"want(verdict(names + [w] + ph) == [], 'tiling phases pass')\n"
		"gap = x('resume_user', '6.500', '0.500', cat='phase', args={'seq': 1, 'ns': 500})\n"
		"want(verdict(names + [w] + ph[:5] + [gap]), 'a gap between phases')\n"
		"out = x('a', '1.000', '1.000', bind_id=1, flow_out=True)\n"
		"into = x('b', '1.000', '1.000', bind_id=1, flow_in=True)\n"
		"want(verdict(names + [out]), 'a flow that never ends')\n"
		"want(verdict(names + [out, into]), 'a flow that ends where it starts')\n"
		"want(verdict(names + [x('a', '1.000', '1.000', tid=6)]), 'a thread without a name')\n"
		"want(verdict(names + [x('a', '1.5', '1.000')]), 'ts with one decimal')\n"
		"no_dur = {'name': 'a', 'ph': 'X', 'ts': '1.000', 'pid': 9, 'tid': 5}\n"
		"want(verdict(names + [no_dur]), 'X without dur')\n";

	cr_assert_eq(timeline__close(tl), 0);
	cr_assert_eq(fclose(file), 0);
	check_timeline(path, "%s", body);
}
