// SPDX-License-Identifier: GPL-2.0
/*
 * test_csv_attach.c - attach mode's CSV, one row per wakeup, from a small
 * run of the engine over synthetic records (attach_fixture.h), read back with
 * python's csv module: the header, a row per wakeup in the order they were
 * handed over, the values the run was made of, empty cells where a value
 * does not apply, names quoted as RFC 4180 wants. And attach mode's outputs
 * through outputs.h: written whole, or nothing left.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_fixture.h"
#include "csv_attach.h"
#include "outputs.h"
#include "readback.h"

#define HEADER "header=seq,t_ns,total_ns,label,missing_mark,waker_class,waker,waker_tid,waker_tgid,wakee_tid," \
	"wakee_tgid,wakee_comm,mechanism,family,notify_nr,wait_nr,notify_kernel_ns,notify_kernel_absent," \
	"wake_enqueue_ns,wake_enqueue_absent,runq_wait_ns,runq_wait_absent,resume_kernel_ns,resume_kernel_absent," \
	"wake_to_run_ns,notify_to_return_ns,waited_ns,waking_cpu,wakeup_cpu,target_cpu,target_was_idle," \
	"idle_exit_ns,migrations,cause_idle_ns,cause_ipi_in_flight_ns,cause_other_task_ns,cause_irq_ns," \
	"cause_softirq_ns,cause_waker_preempted_ns,cause_wakee_preempted_ns,cause_reacquire_ns,cause_host_ns,cause_own_work_ns," \
	"cause_unexplained_ns,chain_wait_ns,chain_on_path_ns,chain_end,chain_rest_ns" HOP(1) HOP(2) HOP(3) HOP(4)
#define HOP(n) ",hop" #n "_waker_tid,hop" #n "_waker_comm,hop" #n "_ran_ns,hop" #n "_runnable_ns,hop" #n \
	"_holder_tid,hop" #n "_holder_comm"

/* a number as an expectation's value: "ROW:column=N" */
#define WANT_NUM(buf, row, col, v) (snprintf(buf, sizeof(buf), "%d:%s=%llu", row, col, (unsigned long long)(v)), buf)

static struct attach_fixture run;
static struct csv_attach *csv;
static FILE *file;
static char path[64];

static void take(const struct attach_result *r, void *ctx)
{
	csv_attach__add(ctx, r);
}

static void setup(void)
{
	memset(&run, 0, sizeof(run));
	file = temp_output("attach-csv", path);
	csv = csv_attach__open(file);
	cr_assert_not_null(csv);
	run.also = take;
	run.also_ctx = csv;
	attach_fixture__make(&run);
	cr_assert_eq(csv_attach__close(csv), 0);
	cr_assert_eq(fclose(file), 0);
}

static void teardown(void)
{
	attach_fixture__free(&run);
	unlink(path);
}

TestSuite(attach_csv, .init = setup, .fini = teardown);

Test(attach_csv, a_header_then_one_row_per_wakeup_the_aggregate_took)
{
	const char *const want[] = { HEADER, "rows=7", "0:seq=1", "6:seq=7", NULL };

	cr_assert_eq(run.agg->wakeups, RUN_WAKEUPS);
	cr_assert(csv_check(path, want));
}

Test(attach_csv, a_complete_wakeup_gives_who_woke_whom_through_what_and_every_kernel_phase)
{
	char t[48], notify_nr[32], wait_nr[32];
	const char *const want[] = {
		WANT_NUM(t, 0, "t_ns", RUN_T0 + 1000), "0:total_ns=6000", "0:label=complete", "0:missing_mark=",
		"0:waker_class=syscall", "0:waker=thread producer 5001", "0:waker_tid=5001", "0:waker_tgid=5000",
		"0:wakee_tid=5002", "0:wakee_tgid=5000", "0:wakee_comm=" RUN_WAKEE_COMM,
		"0:mechanism=eventfd write -> read", "0:family=eventfd", WANT_NUM(notify_nr, 0, "notify_nr", SYS_write),
		WANT_NUM(wait_nr, 0, "wait_nr", SYS_read), "0:notify_kernel_ns=1000", "0:notify_kernel_absent=",
		"0:wake_enqueue_ns=1000", "0:runq_wait_ns=3000", "0:runq_wait_absent=", "0:resume_kernel_ns=1000",
		"0:wake_to_run_ns=4000", "0:notify_to_return_ns=6000", "0:waited_ns=7500", "0:waking_cpu=0",
		"0:wakeup_cpu=1", "0:target_cpu=1", "0:target_was_idle=1", "0:idle_exit_ns=1500", "0:migrations=0",
		"2:runq_wait_ns=33000", "2:total_ns=36000", "2:wake_to_run_ns=34000", "3:family=futex",
		NULL
	};

	cr_assert(csv_check(path, want));
}

Test(attach_csv, a_timer_has_no_waker_thread_and_says_why_notify_kernel_is_absent)
{
	char t[48], wait_nr[32];
	const char *const want[] = {
		WANT_NUM(t, 5, "t_ns", RUN_T0 + 5 * RUN_STEP + 2000), "5:total_ns=5000", "5:label=complete",
		"5:waker_class=timer", "5:waker=timer", "5:waker_tid=", "5:waker_tgid=", "5:family=timer",
		"5:notify_nr=", WANT_NUM(wait_nr, 5, "wait_nr", SYS_clock_nanosleep), "5:notify_kernel_ns=",
		"5:notify_kernel_absent=waker_interrupt", "5:runq_wait_ns=3000", "5:wake_to_run_ns=4000",
		"5:notify_to_return_ns=", NULL
	};

	cr_assert(csv_check(path, want));
}

Test(attach_csv, a_labelled_wakeup_has_its_label_and_no_phase_time_or_cause)
{
	char mark[96];
	int k;

	for (k = 0; k < NR_MARKS && !run.agg->missing_by_mark[k]; k++)
		;
	cr_assert_lt(k, NR_MARKS, "the wakeup without its WAKER record is missing_event");
	snprintf(mark, sizeof(mark), "6:missing_mark=%s", wakeup__mark_name(k));
	{
		const char *const want[] = {
			"6:label=missing_event", mark, "6:waker_class=none", "6:waker_tid=", "6:notify_kernel_ns=",
			"6:notify_kernel_absent=labelled", "6:runq_wait_ns=", "6:runq_wait_absent=labelled",
			"6:wake_to_run_ns=", "6:notify_to_return_ns=", "6:waited_ns=", "6:waking_cpu=0",
			"6:target_was_idle=1", "6:cause_idle_ns=", "6:cause_unexplained_ns=", NULL
		};

		cr_assert(csv_check(path, want));
	}
}

Test(attach_csv, the_causes_of_a_complete_wakeup_add_up_to_its_total_and_quoted_names_read_back)
{
	static const char script[] =
		"import csv, sys\n"
		"rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
		"causes = [c for c in rows[0] if c.startswith('cause_')]\n"
		"assert len(causes) == int(sys.argv[2]), causes\n"
		"for r in rows:\n"
		"    if r['label'] == 'complete':\n"
		"        assert sum(int(r[c]) for c in causes) == int(r['total_ns']), r\n"
		"    else:\n"
		"        assert all(r[c] == '' for c in causes), r\n"
		"assert open(sys.argv[1], newline='').read().count('\"con,\"\"sumer\"') == len(rows)\n";
	char nr_causes[8];
	const char *args[] = { path, nr_causes, NULL };

	snprintf(nr_causes, sizeof(nr_causes), "%d", NR_CAUSES);
	cr_assert_eq(run_python(script, args), 0, "the causes or the quoting (see above)");
}

/*
 * The lean engine: a wakeup its flight recorder explained has its causes,
 * one it did not has them empty, not 0
 */
Test(attach_csv, a_lean_wakeup_has_causes_only_when_its_flight_records_explained_it)
{
	static const char script[] =
		"import csv, sys\n"
		"rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
		"assert len(rows) == 2, rows\n"
		"assert rows[0]['cause_idle_ns'] == '700' and rows[0]['cause_own_work_ns'] == '300', rows[0]\n"
		"assert all(rows[1][c] == '' for c in rows[1] if c.startswith('cause_')), rows[1]\n"
		"assert rows[0]['target_was_idle'] == '', rows[0]\n"
		/* its record tells the moves of every wakeup, slow or not */
		"assert rows[0]['migrations'] == '0' and rows[1]['migrations'] == '1', rows\n";
	char lean_path[64];
	const char *args[] = { lean_path, NULL };
	FILE *f = temp_output("attach-csv-lean", lean_path);
	struct csv_attach *c = csv_attach__open(f);
	struct attach_result r;

	cr_assert_not_null(c);
	memset(&r, 0, sizeof(r));
	r.sr.label = LABEL_COMPLETE;
	r.sr.lean = true;
	r.sr.phased = true;
	r.sr.total_ns = 1000;
	r.sr.phase_ns[PHASE_RUNQ_WAIT] = 1000;
	r.mark_seen[MARK_WAKING] = r.mark_seen[MARK_WAKEUP] = r.mark_seen[MARK_SWITCH_IN] = true;
	r.wake_to_run_ns = r.notify_to_return_ns = r.waited_ns = -1;
	r.sr.lean_flight = true;
	r.sr.why.by_cause[CAUSE_IDLE] = 700;
	r.sr.why.by_cause[CAUSE_OWN_WORK] = 300;
	csv_attach__add(c, &r);
	r.sr.lean_flight = false;
	memset(&r.sr.why, 0, sizeof(r.sr.why));
	r.migrations = 1;
	csv_attach__add(c, &r);
	cr_assert_eq(csv_attach__close(c), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(run_python(script, args), 0, "the lean causes (see above)");
	unlink(lean_path);
}

/* ---------------------------------------------------------------- through outputs.h */

static char dir[64];
static char json_path[96], csv_path[96];
static struct outputs out;

static void outputs_setup(void)
{
	memset(&run, 0, sizeof(run));
	snprintf(dir, sizeof(dir), "/tmp/wakeprobe-attach-out-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(json_path, sizeof(json_path), "%s/r.json", dir);
	snprintf(csv_path, sizeof(csv_path), "%s/r.csv", dir);
}

static void outputs_teardown(void)
{
	attach_fixture__free(&run);
	unlink(json_path);
	unlink(csv_path);
	rmdir(dir);
}

TestSuite(attach_outputs, .init = outputs_setup, .fini = outputs_teardown);

/* open_outputs - attach mode's outputs for --json and --csv into dir, and the run routed through them */
static void open_outputs(void)
{
	struct output_paths o = { .json = json_path, .csv = csv_path };
	struct attach_analysis_opts ao = {};
	char msg[256];

	cr_assert_eq(outputs__open(&out, &o, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(out.text, "no output took stdout: the text report is printed too");
	cr_assert_eq(outputs__begin_attach(&out, "pid 2000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_not_null(ao.on_result, "the CSV takes every wakeup");
	run.also = ao.on_result;
	run.also_ctx = ao.on_result_ctx;
	attach_fixture__make(&run);
}

Test(attach_outputs, finishing_puts_both_files_in_place_whole)
{
	const char *const want[] = { "rows=7", "0:label=complete", NULL };
	char msg[256];

	open_outputs();
	cr_assert_eq(access(json_path, F_OK), -1, "the JSON appears only once finished");
	cr_assert_eq(outputs__finish(&out, &(struct results){ .kind = RUN_ATTACH, .attach.report = &run.report }, msg,
				     sizeof(msg)), 0, "%s", msg);
	cr_assert(csv_check(csv_path, want));
	cr_assert_eq(run_python("import json, sys\n"
				"d = json.load(open(sys.argv[1]))\n"
				"assert d['kind'] == 'attach' and d['wakeups']['total'] == 7, d['wakeups']\n",
				(const char *const[]){ json_path, NULL }),
		     0);
}

Test(attach_outputs, abandoning_leaves_nothing_behind)
{
	open_outputs();
	outputs__abandon(&out);
	cr_assert_eq(access(json_path, F_OK), -1);
	cr_assert_eq(access(csv_path, F_OK), -1);
	cr_assert_eq(rmdir(dir), 0, "no temporary file is left in %s either", dir);
	dir[0] = '\0';
}

/* a wakeup without a chain (no --chains) has every chain cell empty; one with, its hops in order */
Test(attach_csv, a_chain_fills_its_hops_and_a_wakeup_without_one_leaves_them_empty)
{
	struct wp_lean_link links[] = {
		{ .waker_tid = 30, .wakee_tid = 10, .kind = WP_LINK_THREAD, .blocked = 4450001, .ran = 52001,
		  .runnable = 4370001, .holder_tid = 900, .cpu = 1, .nr = -1 },
		{ .waker_tid = 20, .wakee_tid = 30, .kind = WP_LINK_THREAD, .ran = 40001, .runnable = 12001, .nr = -1 },
	};
	struct attach_result r = run.agg->outliers[0];
	char chained[64];
	FILE *f;

	f = temp_output("attach-csv-chain", chained);
	csv = csv_attach__open(f);
	cr_assert_not_null(csv);
	csv_attach__add(csv, &r);
	r.chained = true;
	r.sr.sample.wakee_tid = 10;
	chain__assemble(links, 2, 10, &r.chain);
	memcpy(r.chain.hops[0].waker_comm, "relay-work", 11);
	memcpy(r.chain.hops[0].holder_comm, "wphog", 6);
	csv_attach__add(csv, &r);
	cr_assert_eq(csv_attach__close(csv), 0);
	cr_assert_eq(fclose(f), 0);
	{
		const char *const want[] = {
			"rows=2", "0:chain_end=", "0:chain_on_path_ns=", "0:hop1_waker_tid=", "0:hop4_holder_comm=",
			"1:chain_wait_ns=4450000", "1:chain_on_path_ns=4450000", "1:chain_end=sleep", "1:chain_rest_ns=0",
			"1:hop1_waker_tid=30", "1:hop1_waker_comm=relay-work", "1:hop1_ran_ns=52000",
			"1:hop1_runnable_ns=4370000", "1:hop1_holder_tid=900", "1:hop1_holder_comm=wphog",
			"1:hop2_waker_tid=20", "1:hop2_ran_ns=28000", "1:hop2_runnable_ns=0", "1:hop3_waker_tid=", NULL
		};

		cr_assert(csv_check(chained, want));
	}
	unlink(chained);
}
