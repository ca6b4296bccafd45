// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto_timeline.c - the trace-event timeline as a whole, read back
 * with python's json module and tests/check_timeline.py: slices that nest
 * whatever the stream, names escaped as the JSON report escapes them, a
 * stream that fails, memory that does not grow, and the checker itself. The
 * samples' tracks are test_perfetto_workload.c's, the CPUs' tracks
 * test_perfetto_cpus.c's; a real eventfd run written to both outputs is in
 * system/test_timeline.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "heap_use.h"
#include "perfetto_streams.h"

TestSuite(perfetto_timeline, .init = timeline_setup, .fini = timeline_teardown, .timeout = 120);

Test(perfetto_timeline, slices_that_would_overlap_are_dropped_so_every_thread_nests)
{
	struct sample_result first = complete(1), overlapping = complete(2), next = complete(3);
	struct sample_result unordered = complete(4);
	int k;

	perfetto_timeline__begin_run(tl, "eventfd", true);
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
	perfetto_timeline__sample(tl, &first);
	perfetto_timeline__sample(tl, &overlapping);
	perfetto_timeline__sample(tl, &next);
	perfetto_timeline__sample(tl, &unordered);
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
Test(perfetto_timeline, names_keep_their_valid_utf8_and_escape_every_other_byte_as_the_json_report_does)
{
	/* quote, backslash, a control, a byte that is never UTF-8, DEL */
	static const char comm[] = { 'a', '"', 'b', '\\', 'c', 0x01, (char)0xff, 0x7f, 0 };
	/* 16 bytes and no NUL, as the kernel may leave a comm: an é, a €, and an é cut after its first byte */
	static const char full[WP_TASK_COMM_LEN] = "caf\xc3\xa9 \xe2\x82\xac abcde\xc3";
	struct wp_event e = ev_wake(T0 + 400, WP_EV_WAKING, 0, WAKER, WAKEE, 1, 0);

	perfetto_timeline__begin_run(tl, "say \"hi\"\\ caf\xc3\xa9", true);
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

Test(perfetto_timeline, a_failed_stream_is_reported_and_the_stream_is_left_to_its_owner)
{
	struct sample_result r = complete(1);
	FILE *full = fopen("/dev/full", "w");
	struct perfetto_timeline *t;
	uint64_t seq;

	cr_assert_not_null(full);
	t = perfetto_timeline__open(full);
	cr_assert_not_null(t);
	perfetto_timeline__begin_run(t, "eventfd", true);
	for (seq = 1; seq <= 1000; seq++) {
		r = complete(seq);
		perfetto_timeline__sample(t, &r);
	}
	cr_assert_eq(perfetto_timeline__close(t), -EIO);
	fclose(full);	/* still open: fails only for the bytes /dev/full refuses */

	perfetto_timeline__begin_run(tl, "eventfd", true);
	perfetto_timeline__sample(tl, &r);
	cr_assert_eq(perfetto_timeline__close(tl), 0);
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
Test(perfetto_timeline, a_long_run_keeps_memory_flat_and_what_does_not_fit_the_fixed_state_is_counted)
{
	FILE *sink = fopen("/dev/null", "w");
	struct sample_result r;
	size_t before;
	struct perfetto_timeline *t;
	uint64_t i, seq;
	struct wp_event e = {};

	cr_assert_not_null(sink);
	t = perfetto_timeline__open(sink);
	cr_assert_not_null(t);
	perfetto_timeline__begin_run(t, "eventfd", true);
	r = complete(1);
	perfetto_timeline__sample(t, &r);
	before = heap_in_use();
	for (i = 0; i < 1000000; i++) {
		/* every kind of record on every CPU, with entries that never exit */
		e.ts_ns = T0 + i;
		e.cpu = (uint32_t)(i % WP_MAX_CPUS);
		e.type = WP_EV_SWITCH + (uint32_t)(i % (WP_EV_TYPE_MAX - 1));
		e.sw.prev_tid = (uint32_t)(i / WP_MAX_CPUS);
		e.sw.next_tid = (uint32_t)(i / WP_MAX_CPUS + 1);
		e.irq.kind = WP_IRQ_HARD;
		perfetto_timeline__event(t, &e);
	}
	for (seq = 2; seq < 200000; seq++) {
		r = complete(seq);
		perfetto_timeline__sample(t, &r);
	}
	assert_heap_flat(before);
	cr_assert_eq(perfetto_timeline__close(t), 0);
	fclose(sink);

	/* past the fixed state: 20 nested interrupts, 10 thread pairs, a CPU number out of range */
	perfetto_timeline__begin_run(tl, "eventfd", true);
	sw(10, 0, OTHER, HOG, "wp-hog", 0);
	for (i = 0; i < 20; i++)
		irq(20 + i, 0, WP_IRQ_HARD, (int)i, false, "");
	for (i = 20; i-- > 0;)
		irq(100 - i, 0, WP_IRQ_HARD, (int)i, true, "");
	for (seq = 1; seq <= 10; seq++) {
		r = complete(seq);
		r.sample.waker_tid = 2000 + 2 * (uint32_t)seq;
		r.sample.wakee_tid = 2001 + 2 * (uint32_t)seq;
		perfetto_timeline__sample(tl, &r);
	}
	put(ev(T0 + 200, WP_EV_SWITCH, WP_MAX_CPUS, 0));
	expect_timeline(
		"r = runs[1]\n"
		"want((r['entries_too_deep'], r['samples_not_drawn'], r['events_bad_cpu']) == (15, 6, 1), r)\n"
		"got = spans(tl.find(cat='irq'), T0)\n"
		"want(got == [(f'irq {n}', 20 + n, 100 - n) for n in range(5)], got)\n"
		"want(len(tl.find(prefix='wakeup #')) == 4 and len(tl.thread_names) == 8 + 1, tl.thread_names)\n");
}

Test(perfetto_timeline, the_checker_finds_what_breaks_the_rules)
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

	cr_assert_eq(perfetto_timeline__close(tl), 0);
	cr_assert_eq(fclose(file), 0);
	check_timeline(path, "%s", body);
}
