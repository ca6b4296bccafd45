// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_attach.c - attach mode's timeline, read back with
 * tests/check_timeline.py: the attach engine driven with synthetic records
 * hands its wakeups to the timeline as a live run does, and hand-made
 * results try what the records rarely show (a tid in another process, a
 * thread renamed, wakeups that cannot nest, more threads than the tracks
 * kept). A real traced command is in system/test_timeline_attach.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "attach.h"
#include "attach_analysis.h"
#include "events.h"
#include "heap_use.h"
#include "outputs.h"
#include "outputs.h"
#include "perfetto_timeline.h"
#include "readback.h"

/* the traced process PROC: WAKER (on CPU 0) wakes WAKEE (on CPU 1) through the eventfd EFD */
#define PROC		2000u
#define WAKER		2001u
#define WAKEE		2002u
#define OTHER_PROC	4000u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define EFD		5
#define TASK_INTERRUPTIBLE 1u
#define BASE		1000000000123ull	/* odd nanoseconds: none may be lost */

static char path[64];
static FILE *file;
static struct perfetto_timeline *tl;
static struct attach *engine;

static void setup(void)
{
	file = temp_output("timeline-attach", path);
	tl = perfetto_timeline__open(file);
	cr_assert_not_null(tl);
}

static void teardown(void)
{
	attach__free(engine);
	engine = NULL;
	unlink(path);
}

TestSuite(perfetto_attach, .init = setup, .fini = teardown, .timeout = 120);

/* close the timeline and its file, then check them; B is BASE in the checks */
#define expect_timeline(fmt, ...)						\
	do {									\
		cr_assert_eq(perfetto_timeline__close(tl), 0);			\
		cr_assert_eq(fclose(file), 0);					\
		check_timeline(path, "B = %llu\n" fmt, BASE, ##__VA_ARGS__);	\
	} while (0)

/* ---------------------------------------------------------------- the engine, fed as a live run feeds it */

static enum fd_kind stub_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	(void)ctx;
	return tgid == PROC && fd == EFD ? FD_KIND_EVENTFD : FD_KIND_UNKNOWN;
}

static void to_timeline(const struct attach_result *r, void *ctx)
{
	perfetto_timeline__attach_result(ctx, r);
}

static void start_engine(void)
{
	static const struct attach_config cfg = { .fd_kind = stub_fd_kind };

	engine = attach__new(&cfg, to_timeline, tl);
	cr_assert_not_null(engine);
	cr_assert_eq(perfetto_timeline__begin_attach(tl, "pid 2000"), 0);
}

/* put - one record to the timeline and to the engine, in that order as attach_analysis__event() does */
static void put(struct wp_event e)
{
	perfetto_timeline__attach_event(tl, &e);
	attach__add_event(engine, &e);
}

static void name_thread(uint64_t ts, uint32_t cpu, uint32_t tid, const char *comm)
{
	put(with_next_tgid(with_next_comm(ev_switch(ts, cpu, 0, tid, 0, 0), comm), PROC));
	put(ev_switch(ts + 100, cpu, tid, 0, TASK_INTERRUPTIBLE, 0));
}

/*
 * wakeup - WAKEE sleeps in read(EFD) at @t and is woken by @waker (a
 * WAKER record; type 0: none came), onto its CPU idle since @t + 100:
 * waking @t + 10000, wakeup + 10800, idle exit + 11000, switch-in + 14000,
 * the read returns + 14700
 */
static void wakeup(uint64_t t, struct wp_event waker)
{
	put(ev_switch(t, WAKEE_CPU, WAKEE, 0, TASK_INTERRUPTIBLE, 0));
	put(ev_block(t, WAKEE_CPU, WAKEE, SYS_read, EFD, 0, t - 500));
	if (waker.type) {
		waker.ts_ns = t + 10000;
		put(waker);
	}
	put(ev_waking(t + 10000, WAKER_CPU, waker.type ? waker.tid : 0, WAKEE, WAKEE_CPU, t + 100));
	put(ev_wakeup(t + 10800, WAKEE_CPU, 0, WAKEE, WAKEE_CPU));
	put(ev_idle_exit(t + 11000, WAKEE_CPU, t + 100));
	put(with_next_tgid(with_next_comm(ev_switch(t + 14000, WAKEE_CPU, 0, WAKEE, 0, 0), "consumer"), PROC));
	put(ev_sys_exit(t + 14700, WAKEE_CPU, WAKEE, SYS_read, 8));
}

/* write_waker - WAKER in write(EFD), entered 300 ns before the waking of the wakeup() at @t */
static struct wp_event write_waker(uint64_t t)
{
	return ev_waker_syscall(0, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, EFD, 0, t + 9700);
}

Test(perfetto_attach, a_complete_wakeup_is_its_kernel_phases_on_the_wakee_with_an_arrow_from_the_waker_thread)
{
	start_engine();
	name_thread(BASE - 3000, WAKER_CPU, WAKER, "producer");
	wakeup(BASE, write_waker(BASE));
	attach__advance(engine, BASE + 20000);
	perfetto_timeline__end_run(tl);
	expect_timeline(
		"proc = [p for p, n in tl.process_names.items() if n.endswith(' 2000')]\n"
		"want(proc == [2000], tl.process_names)\n"
		"want(tl.thread('consumer 2002', 2000) == (2000, 2002), tl.thread_names)\n"
		"want(tl.thread('producer 2001', 2000) == (2000, 2001), tl.thread_names)\n"
		"w = tl.find(name='wakeup #1')\n"
		"want(len(w) == 1 and (w[0].pid, w[0].tid) == (2000, 2002), w)\n"
		"w = w[0]\n"
		"want(spans(tl.find(cat='kernel_phase'), B) == [('notify_kernel', 9700, 10000),\n"
		"     ('wake_enqueue', 10000, 10800), ('runq_wait', 10800, 14000), ('resume_kernel', 14000, 14700)],\n"
		"     spans(tl.find(cat='kernel_phase'), B))\n"
		"want((w.start - B, w.end - B) == (9700, 14700), w)\n"
		"a = w.args\n"
		"want((a['label'], a['waker'], a['mechanism']) == ('complete', 'thread producer 2001',\n"
		"     'eventfd write -> read'), a)\n"
		"want((a['wake_to_run_ns'], a['notify_to_return_ns'], a['total_ns']) == (4000, 5000, 5000), a)\n"
		"want(a['absent'] == {} and a['wakee_comm'] == 'consumer' and a['family'] == 'eventfd', a)\n"
		"want(a['causes'] and sum(a['causes'].values()) == 5000 and isinstance(a['main_causes'], list), a)\n"
		"want(all(c.endswith(tuple(' in ' + p for p in ct.PHASES)) for c in a['main_causes']), a)\n"
		"pairs, _ = tl.flows()\n"
		"want(len(pairs) == 1, pairs)\n"
		"p, c = list(pairs.values())[0]\n"
		"want((p.name, p.pid, p.tid, p.start - B, p.end - B) == ('wakes consumer 2002', 2000, 2001, 10000, 10000),\n"
		"     p)\n"
		"want((c.name, c.tid, c.args['seq']) == ('runq_wait', 2002, 1), c)\n"
		"cpus = pid_of('CPUs (run 1)')\n"
		"c1 = tl.thread('CPU 1', cpus)\n"
		"want(('cpu_idle', 100, 11000) in spans(tl.find(pid=cpus, tid=c1[1]), B), tl.find(pid=cpus))\n"
		"r = runs[1]\n"
		"want((r['mode'], r['target'], r['wakeups'], r['flows'], r['flows_from_cpus']) ==\n"
		"     ('attach', 'pid 2000', 1, 1, 0), r)\n"
		"want(r['cpus_pid'] == cpus and r['events'] > 0 and 'pid' not in r, r)\n"
		"want(tl.other['tracks'].startswith('Attach mode'), tl.other['tracks'])\n"
		"want(summary.endswith('1 attach wakeups tiled, 0 samples tiled'), summary)\n");
}

Test(perfetto_attach, a_wakeup_no_thread_made_has_no_absent_phase_drawn_and_its_arrow_leaves_the_waking_cpu)
{
	start_engine();
	/* a timer on CPU 0, in on whatever ran there: no syscall, so no notify_kernel */
	wakeup(BASE, ev_waker_timer(0, WAKER_CPU, 77, WAKEE, BASE + 9000, 0xffffffff81000000ull));
	attach__advance(engine, BASE + 20000);
	expect_timeline(
		"w = tl.find(name='wakeup #1')[0]\n"
		"want(w.args['absent'] == {'notify_kernel': 'waker_interrupt'} and w.args['waker'] == 'timer', w.args)\n"
		"want((w.start - B, w.end - B) == (10000, 14700), w)\n"
		"got = [s.name for s in sorted(tl.find(cat='kernel_phase'), key=lambda s: s.start)]\n"
		"want(got == ['wake_enqueue', 'runq_wait', 'resume_kernel'], got)\n"
		"p, c = list(tl.flows()[0].values())[0]\n"
		"cpus = pid_of('CPUs (run 1)')\n"
		"want((p.pid, p.tid) == tl.thread('CPU 0', cpus) and p.name == 'timer wakes consumer 2002', p)\n"
		"want(p.args['wakee_tid'] == 2002 and c.name == 'runq_wait', (p.args, c))\n"
		"want(runs[1]['flows_from_cpus'] == 1, runs)\n"
		"want(not [t for t in tl.thread_names.values() if t.startswith('thread 77')], tl.thread_names)\n");
}

Test(perfetto_attach, a_wakeup_that_is_not_complete_is_one_slice_named_by_its_label)
{
	struct wp_event none = {};

	start_engine();
	/* no WAKER record before the waking: who woke it is unknown, so is which phases it has */
	wakeup(BASE, none);
	wakeup(BASE + 100000, write_waker(BASE + 100000));
	attach__advance(engine, BASE + 200000);
	expect_timeline(
		"m = tl.find(cat='wakeup', prefix='missing_event #')\n"
		"want(len(m) == 1, tl.find(cat='wakeup'))\n"
		"m = m[0]\n"
		"want((m.name, m.tid, m.start - B, m.end - B) == ('missing_event #1', 2002, 10000, 14700), m)\n"
		"want((m.args['label'], m.args['missing']) == ('missing_event', 'waker notify syscall entry'), m.args)\n"
		"want('absent' not in m.args and 'bind_id' not in m.event, m.event)\n"
		"want([s for s in tl.slices if s.args.get('seq') == 1 and s is not m] == [], 'one slice only')\n"
		"want(len(tl.find(prefix='wakeup #2')) == 1 and len(tl.flows()[0]) == 1, tl.slices)\n"
		"want((runs[1]['wakeups'], runs[1]['wakeups_labelled']) == (2, 1), runs)\n");
}

/* ---------------------------------------------------------------- hand-made results */

/*
 * complete - wakeup @seq of @tid (process @tgid, named @comm) by WAKER in
 * write(EFD) from @t: notify_kernel 300, wake_enqueue 800, runq_wait 4000,
 * resume_kernel 700
 */
static struct attach_result complete(uint64_t seq, uint32_t tgid, uint32_t tid, const char *comm, uint64_t t)
{
	static const int64_t phases[NR_PHASES] = { 0, 300, 800, 4000, 700, 0 };
	struct attach_result r;
	struct sample_result *sr = &r.sr;
	uint64_t at = t;
	int k;

	memset(&r, 0, sizeof(r));
	sr->sample.seq = seq;
	sr->sample.waker_tid = WAKER;
	sr->sample.wakee_tid = tid;
	sr->t_notify_ns = t;
	for (k = 0; k < NR_PHASES; k++) {
		at += (uint64_t)phases[k];
		sr->phase_ns[k] = phases[k];
		if (k < NR_MARKS)
			sr->mark_ns[k] = at;
		sr->total_ns += phases[k];
		sr->why.by_phase_cause[k][CAUSE_UNEXPLAINED] = phases[k];
	}
	sr->t_woken_ns = at;
	sr->why.by_cause[CAUSE_UNEXPLAINED] = sr->total_ns;
	sr->label = LABEL_COMPLETE;
	sr->phased = true;
	sr->waking_cpu = WAKER_CPU;
	sr->target_cpu = WAKEE_CPU;
	r.wakee_tgid = tgid;
	snprintf(r.wakee_comm, sizeof(r.wakee_comm), "%s", comm);
	r.waker = (struct waker_info){ .cls = WP_WAKER_SYSCALL, .nr = SYS_write, .tid = WAKER, .tgid = PROC,
				       .arg = EFD, .comm = "producer" };
	r.absent[PHASE_NOTIFY_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r.absent[PHASE_RESUME_USER] = ATTACH_ABSENT_NO_USER_STAMP;
	r.wake_to_run_ns = 4800;
	r.notify_to_return_ns = -1;
	r.waited_ns = -1;
	snprintf(r.mechanism, sizeof(r.mechanism), "eventfd write -> read");
	return r;
}

static void draw(struct attach_result r)
{
	perfetto_timeline__attach_result(tl, &r);
}

Test(perfetto_attach, threads_are_named_by_what_the_records_say_at_the_time_and_what_cannot_nest_is_counted)
{
	struct attach_result r;
	struct wp_event e;

	cr_assert_eq(perfetto_timeline__begin_attach(tl, "./server"), 0);
	draw(complete(1, PROC, WAKEE, "consumer", BASE));
	/* the thread renamed itself */
	draw(complete(2, PROC, WAKEE, "renamed", BASE + 10000));
	/* the tid again, in another process: another thread, on a track of its own */
	draw(complete(3, OTHER_PROC, WAKEE, "newcomer", BASE + 20000));
	/* starts before wakeup 3 ended on its thread: cannot nest */
	draw(complete(4, OTHER_PROC, WAKEE, "newcomer", BASE + 23000));
	/* no record named the process of this tid */
	draw(complete(5, 0, 3333, "", BASE + 30000));
	/* ... and this one's process is known from a switch-in */
	e = with_next_tgid(with_next_comm(ev_switch(BASE + 35000, 3, 0, 3334, 0, 0), "late"), OTHER_PROC);
	perfetto_timeline__attach_event(tl, &e);
	draw(complete(6, 0, 3334, "", BASE + 40000));
	/* a record that says a thread woke itself: the arrow leaves the CPU, the wakee's track stays */
	r = complete(7, PROC, WAKER, "producer", BASE + 50000);
	draw(r);
	expect_timeline(
		"want(tl.thread_names[(2000, 2002)] == 'renamed 2002', tl.thread_names)\n"
		"want(tl.thread_names[(4000, 2002)] == 'newcomer 2002', tl.thread_names)\n"
		"want(tl.thread_names[(4000, 3334)] == 'late 3334', tl.thread_names)\n"
		"want(tl.process_names[2000] == 'consumer 2000' and tl.process_names[4000] == 'newcomer 4000',\n"
		"     tl.process_names)\n"
		"got = sorted((s.args['seq'], s.pid, s.tid) for s in tl.find(cat='wakeup'))\n"
		"want(got == [(1, 2000, 2002), (2, 2000, 2002), (3, 4000, 2002), (6, 4000, 3334), (7, 2000, 2001)], got)\n"
		"got = [tl.find(name=f'wakeup #{n}')[0].args['wakee_comm'] for n in (1, 2, 3)]\n"
		"want(got == ['consumer', 'renamed', 'newcomer'], got)\n"
		"r = runs[1]\n"
		"want((r['target'], r['wakeups'], r['wakeups_not_drawn'], r['wakeups_without_process']) ==\n"
		"     ('./server', 7, 1, 1), r)\n"
		"want((r['threads_renamed'], r['flows'], r['flows_from_cpus']) == (1, 5, 1), r)\n"
		"p = [p for p, c in tl.flows()[0].values() if p.args['seq'] == 7][0]\n"
		"want(p.pid == r['cpus_pid'] and p.name == 'thread producer 2001 wakes producer 2001', p)\n");
}

/* ---------------------------------------------------------------- --chains */

#define CLIENT		2010u
#define DISPATCHER	2020u
#define WORKER		2030u
#define HOG		900u
#define US		1000ull

/* thread_link - a wp_lean_link of a thread, its times in us, as the kernel keeps them (spans: ns plus one) */
static struct wp_lean_link thread_link(uint32_t waker, uint32_t wakee, uint64_t blocked, uint64_t ran,
				       uint64_t runnable, uint32_t holder, uint16_t cpu)
{
	return (struct wp_lean_link){ .waker_tid = waker, .wakee_tid = wakee, .kind = WP_LINK_THREAD,
				      .blocked = (uint32_t)(blocked * US) + 1, .ran = (uint32_t)(ran * US) + 1,
				      .runnable = (uint32_t)(runnable * US) + 1, .holder_tid = holder, .cpu = cpu,
				      .preempted = 7, .nr = -1 };
}

/*
 * relayed - wakeup @seq of the client at @t, woken by the worker: it slept
 * 4500 us; the worker ran 52 us before it woke it, after 4370 us runnable
 * on CPU 1 behind the hog; the dispatcher woke the worker after running
 * 40 us, 12 us after its own waking by the client, a ping-pong that ends
 * the chain with 26 us left
 */
static struct attach_result relayed(uint64_t seq, uint64_t t)
{
	struct wp_lean_link links[] = {
		thread_link(WORKER, CLIENT, 4500, 52, 4370, HOG, 1),
		thread_link(DISPATCHER, WORKER, 4400, 40, 12, 0, 0),
		thread_link(CLIENT, DISPATCHER, 900, 15, 5, 0, 0),
	};
	struct attach_result r = complete(seq, PROC, CLIENT, "client", t);

	r.waker = (struct waker_info){ .cls = WP_WAKER_SYSCALL, .nr = SYS_write, .tid = WORKER, .tgid = PROC,
				       .arg = EFD, .comm = "worker" };
	r.chained = true;
	cr_assert_eq(chain__assemble(links, 3, CLIENT, &r.chain), 2);
	cr_assert_eq(r.chain.end, CHAIN_END_CYCLE);
	snprintf(r.chain.hops[0].waker_comm, WP_TASK_COMM_LEN, "worker");
	snprintf(r.chain.hops[0].holder_comm, WP_TASK_COMM_LEN, "hog");
	snprintf(r.chain.hops[1].waker_comm, WP_TASK_COMM_LEN, "dispatcher");
	return r;
}

/* lean_like - wakeup @seq of @tid as the lean engine has it: @start its waking, @end its switch-in */
static struct attach_result lean_like(uint64_t seq, uint32_t tid, const char *comm, uint64_t start, uint64_t end)
{
	struct attach_result r = complete(seq, PROC, tid, comm, start);
	struct sample_result *sr = &r.sr;

	memset(sr->phase_ns, 0, sizeof(sr->phase_ns));
	memset(&sr->why, 0, sizeof(sr->why));
	sr->phase_ns[PHASE_WAKE_ENQUEUE] = 800;
	sr->phase_ns[PHASE_RUNQ_WAIT] = (int64_t)(end - start) - 800;
	sr->why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_UNEXPLAINED] = 800;
	sr->why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_UNEXPLAINED] = sr->phase_ns[PHASE_RUNQ_WAIT];
	sr->mark_ns[MARK_NOTIFY_ENTER] = sr->mark_ns[MARK_WAKING] = start;
	sr->mark_ns[MARK_WAKEUP] = start + 800;
	sr->mark_ns[MARK_SWITCH_IN] = sr->mark_ns[MARK_WAIT_EXIT] = end;
	sr->t_woken_ns = end;
	sr->total_ns = (int64_t)(end - start);
	sr->why.by_cause[CAUSE_UNEXPLAINED] = sr->total_ns;
	r.absent[PHASE_NOTIFY_KERNEL] = r.absent[PHASE_RESUME_KERNEL] = ATTACH_ABSENT_UNTIMED;
	return r;
}

/* the checks of relayed()'s chain drawn from the wakeup at T (B + T in the file), its waking W = T + 300 */
static const char relayed_checks[] =
	"W = B + T + 300\n"
	"two = [s for s in tl.find(cat='chain') if s.args['seq'] == 2]\n"
	"got = sorted(((s.name, ct.thread_of(s), s.start - W, s.end - W, s.args['hop']) for s in two),\n"
	"             key=lambda g: g[2])\n"
	"want(got == [('chain: runnable', 2020, -4474000, -4462000, 1), ('chain: ran', 2020, -4462000, -4422000, 1),\n"
	"             ('chain: runnable', 2030, -4422000, -52000, 0), ('chain: ran', 2030, -52000, 0, 0)], got)\n"
	"want(all(s.pid == 2000 and s.args['chain_of'] == 2010 for s in two), two)\n"
	"want(tl.thread_names[(2000, ct.CHAIN_TID + 2030)] == 'worker 2030 chain', tl.thread_names)\n"
	"ran0 = tl.find(name='chain: ran', tid=ct.CHAIN_TID + 2030)[0].args\n"
	"want(ran0 == {'seq': 2, 'hop': 0, 'chain_of': 2010, 'wakee_tid': 2010, 'wakee_comm': 'client',\n"
	"     'ran_ns': 52000, 'preempted_ns': 7, 'clipped': False}, ran0)\n"
	"wait0 = tl.find(name='chain: runnable', tid=ct.CHAIN_TID + 2030)[0].args\n"
	"want(wait0 == {'seq': 2, 'hop': 0, 'chain_of': 2010, 'runnable_ns': 4370000, 'holder_tid': 900,\n"
	"     'holder_comm': 'hog', 'cpu': 1, 'clipped': False}, wait0)\n"
	"want(tl.find(name='chain: ran', tid=ct.CHAIN_TID + 2020)[0].args['wakee_comm'] == 'worker', 'hop 1')\n"
	"pairs, problems = tl.flows()\n"
	"want(problems == [], problems)\n"
	"chain = sorted(((ct.thread_of(p), p.args['hop'], c.name, ct.thread_of(c)) for p, c in pairs.values()\n"
	"                if p.cat == 'chain' and p.args['seq'] == 2))\n"
	"want(chain == [(2020, 1, 'chain: runnable', 2030), (2030, 0, 'wakeup #2', 2010)], chain)\n";

Test(perfetto_attach, a_chain_is_each_hops_run_and_wait_on_its_wakers_track_with_arrows_toward_the_wakee)
{
	cr_assert_eq(perfetto_timeline__begin_attach(tl, "./relay"), 0);
	/* the tracks the hops go on: the dispatcher's and the worker's own wakeups, before the chain */
	draw(complete(1, PROC, DISPATCHER, "dispatcher", BASE));
	draw(complete(3, PROC, WORKER, "worker", BASE + 1000));
	draw(relayed(2, BASE + 10000000));
	expect_timeline("T = 10000000\n%s"
			"r = runs[1]\n"
			"want((r['chain_slices'], r['chain_flows'], r['chain_hops_not_drawn']) == (4, 2, 0), r)\n"
			"want(len(tl.find(prefix='wakeup #')) == 3 and r['flows'] == 3, r)\n",
			relayed_checks);
}

Test(perfetto_attach, a_chain_drawn_back_in_time_nests_with_the_chains_drawn_before_or_its_hop_is_not_drawn)
{
	struct wp_lean_link link;
	struct attach_result r;

	cr_assert_eq(perfetto_timeline__begin_attach(tl, "./relay"), 0);
	/* the worker's own wakeup is its wait for a CPU, as the chain has it, on the track beside */
	r = lean_like(1, WORKER, "worker", BASE + 10000300 - 4422000, BASE + 10000300 - 52000);
	draw(r);
	/* the dispatcher was woken again later: its run on the path is drawn before that, back in time */
	draw(complete(3, PROC, DISPATCHER, "dispatcher", BASE + 10000300 - 4000000));
	draw(relayed(2, BASE + 10000000));
	/* the dispatcher woke the worker after a run of 30 us: the second chain's run would cut into it */
	r = complete(4, PROC, WORKER, "worker", BASE + 20000300 - 4450000 - 300);
	r.waker.tid = DISPATCHER;
	r.chained = true;
	link = thread_link(DISPATCHER, WORKER, 100, 30, 10, 0, 0);
	chain__assemble(&link, 1, WORKER, &r.chain);
	draw(r);
	/* ... so that chain stops at the worker */
	draw(relayed(5, BASE + 20000000));
	expect_timeline("T = 10000000\n%s"
			"w = tl.find(name='wakeup #1')[0]\n"
			"c = tl.find(name='chain: runnable', tid=ct.CHAIN_TID + 2030)\n"
			"want([(s.start, s.end) for s in c if s.args['seq'] == 2] == [(w.start, w.end)], (c, w))\n"
			"five = [(s.name, ct.thread_of(s)) for s in tl.find(cat='chain') if s.args['seq'] == 5]\n"
			"want(sorted(five) == [('chain: ran', 2030), ('chain: runnable', 2030)], five)\n"
			"r = runs[1]\n"
			"want((r['chain_slices'], r['chain_flows'], r['chain_hops_not_drawn']) == (8, 4, 1), r)\n"
			"want(r['wakeups_not_drawn'] == 0, r)\n",
			relayed_checks);
}

/*
 * The state is sized at the first attach run: 16384 thread tracks, 4096
 * processes, 4096 names from the records. A long run with more threads
 * than that keeps the same memory; the tracks forgotten are counted, and
 * one made again still nests with what its set drew before.
 */
/* 15 s here; 110 to 121 s in make vmtest's emulated guests, the suite's 120 s their edge */
Test(perfetto_attach, a_long_run_with_more_threads_than_tracks_keeps_memory_flat_and_every_slice_nests,
     .timeout = 600)
{
	FILE *sink = fopen("/dev/null", "w");
	size_t before;
	struct perfetto_timeline *t;
	struct attach_result r;
	struct wp_event e = {};
	uint64_t i;
	uint32_t tid;

	cr_assert_not_null(sink);
	t = perfetto_timeline__open(sink);
	cr_assert_not_null(t);
	cr_assert_eq(perfetto_timeline__begin_attach(t, "pid 1"), 0);
	r = complete(1, PROC, WAKEE, "consumer", BASE);
	perfetto_timeline__attach_result(t, &r);
	before = heap_in_use();
	for (i = 0; i < 500000; i++) {
		e = with_next_tgid(ev_switch(BASE + i, (uint32_t)(i % WP_MAX_CPUS), (uint32_t)i, (uint32_t)i + 1, 0, 0),
				   (uint32_t)(i / 8) + 1);
		e.type = WP_EV_SWITCH + (uint32_t)(i % (WP_EV_TYPE_MAX - 1));
		perfetto_timeline__attach_event(t, &e);
	}
	for (i = 2; i < 200000; i++) {
		tid = 10 + (uint32_t)(i % 50000);
		r = complete(i, tid / 8 + 1, tid, "worker", BASE + i * 10000);
		perfetto_timeline__attach_result(t, &r);
	}
	assert_heap_flat(before);
	cr_assert_eq(perfetto_timeline__close(t), 0);
	fclose(sink);

	/* 20000 threads, each woken twice, far apart: the tracks of the first ones are forgotten, then made again */
	cr_assert_eq(perfetto_timeline__begin_attach(tl, "pid 1"), 0);
	for (i = 0; i < 40000; i++) {
		tid = 10000 + (uint32_t)(i % 20000);
		r = complete(i + 1, PROC, tid, "worker", BASE + i * 10000);
		perfetto_timeline__attach_result(tl, &r);
	}
	expect_timeline(
		"r = runs[1]\n"
		"want(r['thread_tracks_forgotten'] > 20000 - 16384 and r['wakeups'] == 40000, r)\n"
		"want(r['wakeups_not_drawn'] == 0 and len(tl.find(prefix='wakeup #')) == 40000, r)\n"
		"workers = [k for k, n in tl.thread_names.items() if n.startswith('worker ')]\n"
		"want(len(workers) == 20000 and len(tl.thread_names) == 20000 + 1, len(tl.thread_names))\n"
		"want(tl.thread_names[(2000, 2001)] == 'producer 2001', tl.thread_names[(2000, 2001)])\n");
}

/* ---------------------------------------------------------------- the checker and the file */

Test(perfetto_attach, the_checker_finds_what_breaks_the_attach_rules)
{
	/* each broken file must fail the check, and the one that keeps the rules must pass */
	static const char body[] =
		"import json, os, tempfile\n"
		"def verdict(events):\n"
		"    doc = json.dumps({'traceEvents': events, 'displayTimeUnit': 'ns', 'otherData': {}})\n"
		"    fd, name = tempfile.mkstemp()\n"
		"    os.write(fd, doc.replace('\"@', '').replace('@\"', '').encode())\n"
		"    os.close(fd)\n"
		"    try:\n"
		"        return ct.check(ct.load(name))[0]\n"
		"    except ct.Problem as err:\n"
		"        return [str(err)]\n"
		"    finally:\n"
		"        os.unlink(name)\n"
		"names = [{'name': 'process_name', 'ph': 'M', 'pid': 9, 'tid': 9, 'args': {'name': 'p 9'}},\n"
		"         {'name': 'thread_name', 'ph': 'M', 'pid': 9, 'tid': 5, 'args': {'name': 't 5'}},\n"
		"         {'name': 'thread_name', 'ph': 'M', 'pid': 9, 'tid': 6, 'args': {'name': 't 6'}}]\n"
		"def x(name, start, dur, cat, tid=5, **more):\n"
		"    e = {'name': name, 'ph': 'X', 'ts': f'@{start}.000@', 'dur': f'@{dur}.000@', 'pid': 9, 'tid': tid,\n"
		"         'cat': cat}\n"
		"    return dict(e, **more)\n"
		"def wakeup(absent, total=6000):\n"
		"    return x('wakeup #1', 1, total // 1000, 'wakeup', args={'seq': 1, 'total_ns': total, 'absent': absent})\n"
		"def ph(name, start, dur, **more):\n"
		"    return x(name, start, dur, 'kernel_phase', args={'seq': 1, 'ns': dur * 1000}, **more)\n"
		"good = [wakeup({'notify_kernel': 'waker_interrupt'}), ph('wake_enqueue', 1, 1),\n"
		"        ph('runq_wait', 2, 4, bind_id=1, flow_in=True), ph('resume_kernel', 6, 1),\n"
		"        x('wakes t 5', 1, 0, 'waker', tid=6, bind_id=1, flow_out=True, args={'seq': 1, 'wakee_tid': 5})]\n"
		"want(verdict(names + good) == [], verdict(names + good))\n"
		"def broken(i, e):\n"
		"    return names + good[:i] + [e] + good[i + 1:]\n"
		"want(verdict(broken(0, wakeup({}))), 'an absent phase not said absent')\n"
		"want(verdict(broken(0, wakeup({'notify_kernel': 'x', 'runq_wait': 'x'}))), 'a drawn phase said absent')\n"
		"want(verdict(broken(0, wakeup({'notify_kernel': 'x'}, total=7000))), 'phases that do not add up')\n"
		"want(verdict(broken(3, ph('resume_kernel', 7, 0))), 'a gap between phases')\n"
		"want(verdict(broken(3, ph('resume_kernel', 6, 1, tid=6))), 'a phase off the wakee')\n"
		"want(verdict(broken(3, ph('notify_user', 6, 1))), 'a phase attach mode has not')\n"
		"want(verdict(names + good[1:]), 'phases without their wakeup slice')\n"
		"want(verdict(broken(0, dict(good[0], args=dict(good[0]['args'], seq=2)))), 'a wakeup without phases')\n"
		"want(verdict(broken(4, dict(good[4], args={'seq': 1, 'wakee_tid': 6}))), 'the arrow names another wakee')\n"
		"want(verdict(broken(4, dict(good[4], args={'seq': 2, 'wakee_tid': 5}))), 'the arrow of another wakeup')\n"
		"want(verdict(broken(4, dict(good[4], dur='@1.000@'))), 'a waker slice that is not zero wide')\n"
		"want(verdict(broken(4, dict(good[4], cat='phase'))), 'into a kernel phase from no waker')\n";

	cr_assert_eq(perfetto_timeline__close(tl), 0);
	cr_assert_eq(fclose(file), 0);
	check_timeline(path, "%s", body);
}

Test(perfetto_attach, the_file_appears_whole_at_the_end_or_not_at_all)
{
	char dir[] = "/tmp/wakeprobe-attach-XXXXXX", dest[128], msg[512];
	struct attach_analysis_opts ao = {};
	struct output_paths o = {};
	static struct outputs out;
	struct attach_result r = complete(1, PROC, WAKEE, "consumer", BASE);

	cr_assert_not_null(mkdtemp(dir));
	snprintf(dest, sizeof(dest), "%s/run.trace.json", dir);
	o.perfetto = dest;

	/* abandoned: nothing is left, not even the temporary file */
	cr_assert_eq(outputs__open(&out, &o, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 2000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not_null(ao.on_result);
	cr_assert_not_null(ao.on_event);
	ao.on_result(&r, ao.on_result_ctx);
	/* no name until the end (O_TMPFILE), or a temporary one beside its destination */
	cr_assert_eq(dir_entries(dir), out.sinks[2].file.unnamed ? 0 : 1, "only a temporary file, if any");
	cr_assert_eq(access(dest, F_OK), -1, "the file appears only at the end");
	outputs__abandon(&out);
	cr_assert_eq(dir_entries(dir), 0);

	/* finished: the file is in place, whole */
	memset(&ao, 0, sizeof(ao));
	cr_assert_eq(outputs__open(&out, &o, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 2000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	ao.on_result(&r, ao.on_result_ctx);
	cr_assert_eq(outputs__finish(&out, &(struct results){ .kind = RUN_ATTACH, .attach.report = NULL }, msg,
				     sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(dir_entries(dir), 1);
	check_timeline(dest, "want(len(tl.find(prefix='wakeup #')) == 1 and runs[1]['target'] == 'pid 2000', runs)\n");
	unlink(dest);
	rmdir(dir);
}
