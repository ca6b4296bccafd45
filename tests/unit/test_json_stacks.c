// SPDX-License-Identifier: GPL-2.0
/*
 * test_json_stacks.c - --stacks in the JSON documents (json_stacks.c),
 * over the stacks of stacks_fixture.h, read back by python3's json
 * module: a combination's figures and its four stacks frame by frame, a
 * stack the kernel did not keep as null and why, a stripped program's
 * frames with their object's build ID, the wakeups in no combination
 * listed; the run's "stacks" (what was kept, what it cost,
 * where frame pointers cut); a workload run's combinations; a futex word
 * named by the global it is; and nothing at all without --stacks.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "json_stacks.h"
#include "readback.h"
#include "stack_combos_fixture.h"
#include "symbol_fixture_run.h"

static char path[64];
static FILE *file;
static struct json_writer w;

/* a futex word of this process's own, for its name */
static struct {
	int state;
	int futex;
} handoff;

static void setup(void)
{
	file = temp_output("json-stacks", path);
	json_writer__init(&w, file);
	json_writer__begin_object(&w);
	stack_combos_fixture__open();
}

static void teardown(void)
{
	stack_combos_fixture__close();
	if (file)
		fclose(file);
	file = NULL;
	unlink(path);
}

TestSuite(json_stacks, .init = setup, .fini = teardown);

/* end_doc - the object is complete: close the file so python reads all of it */
static void end_doc(void)
{
	json_writer__end_object(&w);
	cr_assert_eq(json_writer__finish(&w), 0);
	cr_assert_eq(fclose(file), 0);
	file = NULL;
}

Test(json_stacks, a_combination_gives_its_figures_and_its_four_stacks_frame_by_frame)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 2, 10000);
	json_stacks__combos(&w, rs, &combos, 2);
	end_doc();
	cr_assert(json_check(path,
		"s = d['stacks']\n"
		"assert len(s) == 1 and d['stacks_other'] == 0, d\n"
		"c = s[0]\n"
		"assert list(c) == ['count', 'unwound', 'wake_to_run_total_ns', 'wake_to_run_max_ns', 'wake_to_run_p50_floor_ns', "
		"'wake_to_run_p99_floor_ns', 'waker_tgid', 'wakee_tgid', 'waker_user', 'waker_kernel', 'wakee_user', "
		"'wakee_kernel'], list(c)\n"
		"assert (c['count'], c['wake_to_run_total_ns'], c['wake_to_run_max_ns']) == (2, 20000, 10000), c\n"
		"assert c['unwound'] is False and d['stacks_unwound'] == 0, c\n"
		"assert (c['wake_to_run_p50_floor_ns'], c['wake_to_run_p99_floor_ns']) == (8192, 8192), c\n"
		"assert c['waker_tgid'] == c['wakee_tgid'] == %d, c\n"
		"assert [f['function'] for f in c['waker_kernel']] == ['try_to_wake_up', 'futex_wake'], c\n"
		"assert [f['function'] for f in c['wakee_kernel']] == ['__schedule', 'futex_wait'], c\n"
		"assert [f['function'] for f in c['waker_user']] == ['waker_code', 'wakee_code'], c['waker_user']\n"
		"assert [f['function'] for f in c['wakee_user']] == ['wakee_code', '_start'], c['wakee_user']\n"
		"f = c['waker_user'][0]\n"
		"assert f['ip'] == %llu and f['offset'] == 4, f\n"
		"assert f['file'].endswith('stacks_fixture.h') and f['line'] > 0, f\n"
		"assert f['object'].endswith('/unit-tests') and f['object_offset'] > 0, f\n"
		"assert 'build_id' not in f, 'a frame a symbol names needs no build ID'\n"
		"k = c['waker_kernel'][0]\n"
		"assert set(k) == {'ip', 'function', 'offset', 'object', 'object_offset'}, k\n",
		getpid(), (unsigned long long)code_at(waker_code)));
}

/*
 * a stripped program's frames: no function, and beside the object and the
 * offset in its file, the object's build ID, which debuginfod or a dbgsym
 * package names them by later
 */
Test(json_stacks, a_frame_no_symbol_covers_has_its_objects_build_id)
{
	struct run_stacks *own = run_stacks__new(NULL);
	char fixture[PATH_MAX], id[129];
	struct running r;
	uint64_t ips[2];

	cr_assert_not_null(own);
	fixture_path("symbol-fixture-stripped", fixture);
	build_id_of(fixture, id);
	start("symbol-fixture-stripped", &r);
	run_stacks__process(own, r.pid, "fixture");
	stop(&r);
	ips[0] = said(&r, "producer_release");
	ips[1] = said(&r, "consumer_wait") + 4;
	cr_assert_eq(run_stacks__add(own, 1, ips, 2), 0);
	json_stacks__stack(&w, own, "user", 1, r.pid);
	run_stacks__free(own);
	end_doc();
	cr_assert(json_check(path,
		"u = d['user']\n"
		"assert len(u) == 2, u\n"
		"for f in u:\n"
		"    assert list(f) == ['ip', 'object', 'object_offset', 'build_id'], f\n"
		"    assert f['object'] == '%s' and f['build_id'] == '%s', f\n"
		"assert u[0]['ip'] == %llu, u\n",
		fixture, id, (unsigned long long)ips[0]));
}

Test(json_stacks, a_stack_the_kernel_did_not_keep_is_null_and_says_why)
{
	add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, -ENOMEM, -EEXIST, -EFAULT), 1, 1000);
	json_stacks__combos(&w, rs, &combos, 1);
	end_doc();
	/* a kernel thread's user stack is null with nothing to say */
	cr_assert(json_check(path,
		"c = d['stacks'][0]\n"
		"assert c['waker_user'] is None and c['waker_user_missing'] == '[stack not kept: the stack table was "
		"full]', c\n"
		"assert c['wakee_kernel'] is None and 'slot' in c['wakee_kernel_missing'], c\n"
		"assert c['wakee_user'] is None and 'wakee_user_missing' not in c, c\n"
		"assert len(c['waker_kernel']) == 2, c\n"));
}

Test(json_stacks, the_eight_most_frequent_are_listed_and_the_rest_counted)
{
	/* ten combinations, the one of id 100 + i taken i + 1 times */
	for (int i = 0; i < 10; i++)
		add_wakeups(lean_stack_ids(STACK_WAKER_KERNEL, WP_STACK_NONE, 100 + i, WP_STACK_NONE), i + 1, 1000);
	json_stacks__combos(&w, rs, &combos, 55);
	end_doc();
	cr_assert(json_check(path,
		"assert [c['count'] for c in d['stacks']] == [10, 9, 8, 7, 6, 5, 4, 3], d['stacks']\n"
		"assert d['stacks_other'] == 3, 'the 2 and the 1 left out'\n"));
	cr_assert_eq(JSON_STACKS_PER_PAIR, 8);
}

Test(json_stacks, the_runs_stacks_say_what_was_kept_what_it_cost_and_where_it_was_cut)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run, .agg = g };
	struct wp_stack_cost cost = { .ns = 30000, .taken = 12, .not_kept = 3, .copy_ns = 9000, .copies = 24,
				      .copied_bytes = 24 * 4096, .sent_slow = 1, .sent_budget = 2, .sent_bytes = 3 * 8392,
				      .over_budget = 9, .lost = 1 };
	struct attach_result r = stacked_wakeup(11, 1000, own_stack_ids(STACK_CUT_LIBC, STACK_WHOLE));

	cr_assert_not_null(g);
	run_stacks__note_cost(rs, 2 << 20, &cost);
	attach_aggregate__add(g, &r);
	attach_aggregate__add(g, &r);
	json_stacks__run(&w, &rep);
	end_doc();
	cr_assert(json_check(path,
		"s = d['stacks']\n"
		"assert list(s) == ['distinct', 'kernel_bytes', 'taken', 'not_kept', 'program_ns', 'unwound', "
		"'cut_short'], s\n"
		"assert (s['distinct'], s['kernel_bytes'], s['taken'], s['not_kept'], s['program_ns']) == "
		"(6, 2097152, 12, 3, 30000), s\n"
		"u = s['unwound']\n"
		"assert (u['copies_taken'], u['copied_bytes'], u['copy_program_ns'], u['sent_slow'], "
		"u['sent_within_budget'], u['over_budget'], u['ring_bytes'], u['lost']) == "
		"(24, 98304, 9000, 1, 2, 9, 25176, 1), u\n"
		"assert (u['wakeups'], u['stacks'], u['distinct'], u['unmatched']) == (0, 0, 0, 0), u\n"
		"assert len(s['cut_short']) == 1, s['cut_short']\n"
		"cut = s['cut_short'][0]\n"
		"assert 'libc' in cut['object'] and (cut['stacks_ending_there'], cut['stacks_through_it']) == (2, 2), cut\n"));
	attach_aggregate__free(g);
}

Test(json_stacks, a_workload_run_has_its_stacks_and_its_combinations)
{
	add_wakeups(own_stack_ids(STACK_CUT_HERE, STACK_WHOLE), 3, 2000);
	json_stacks__workload(&w, rs, &combos, 5);
	end_doc();
	/* 5 complete wakeups, 3 with stacks: 2 in no combination */
	cr_assert(json_check(path,
		"assert list(d) == ['stacks', 'stacks_of_wakeups'], list(d)\n"
		"cut = d['stacks']['cut_short']\n"
		"assert len(cut) == 1 and cut[0]['object'].endswith('/unit-tests'), cut\n"
		"assert cut[0]['stacks_ending_there'] == 3 and cut[0]['stacks_through_it'] == 6, cut\n"
		"o = d['stacks_of_wakeups']\n"
		"assert [c['count'] for c in o['stacks']] == [3] and o['stacks_other'] == 2, o\n"));
}

Test(json_stacks, a_futex_word_is_named_by_the_global_it_is)
{
	struct attach_session_result run = { .stacks = rs };
	struct attach_report rep = { .run = &run };

	json_stacks__futex(&w, &rep, (uint32_t)getpid(), (uint64_t)(uintptr_t)&handoff.futex);
	end_doc();
	cr_assert(json_check(path,
		"n = d['name']\n"
		"assert n['what'] == 'handoff.futex', n\n"
		"assert n['object'].endswith('/unit-tests') and n['object_offset'] > 0, n\n"));
}

Test(json_stacks, without_stacks_nothing_is_written)
{
	struct attach_aggregate *g = attach_aggregate__new();
	struct attach_session_result run = { .stacks = NULL };
	struct attach_report rep = { .run = &run, .agg = g };
	struct attach_pair pair = { .count = 3 };

	cr_assert_not_null(g);
	json_stacks__run(&w, &rep);
	json_stacks__pair(&w, &rep, &pair);
	json_stacks__futex(&w, &rep, (uint32_t)getpid(), (uint64_t)(uintptr_t)&handoff.futex);
	json_stacks__workload(&w, NULL, &combos, 3);
	json_stacks__workload(&w, rs, NULL, 3);
	end_doc();
	cr_assert(json_check(path, "assert d == {}, d\n"));
	attach_aggregate__free(g);
}
