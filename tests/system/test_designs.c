// SPDX-License-Identifier: GPL-2.0
/*
 * test_designs.c - wakeprobe --workload on the throughput workloads
 * (burst-queue, spawn, executor, ipc-stream): each runs untraced and
 * traced, its own counts held (sent = received, bytes intact, every
 * handler run once), and the census of the traced run checked against what
 * the workload says it did. Bad options: one line, exit 2. Tracing needs
 * root and BTF; elsewhere those tests skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "json_reader.h"
#include "readback.h"

TestSuite(designs, .timeout = 180);

static struct wakeprobe_ran ran;

static void run_ok(char *const args[])
{
	wakeprobe_run_ok(&ran, args);
	cr_assert(strstr(ran.out, " 0 dropped"), "records were dropped:\n%s", ran.out);
}

/* count_of - the counter @name (" name=N") on the first counts line of mode @label; -1 if none */
static long long count_of(const char *text, const char *label, const char *name)
{
	const char *counts = strstr(text, "Its counts over the");
	char key[64];
	const char *line, *p, *end;

	cr_assert(counts, "no counts in:\n%s", text);
	line = strstr(counts, label);
	cr_assert(line, "no counts for '%s' in:\n%s", label, text);
	end = strchr(line, '\n');
	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	if (!p || (end && p > end))
		return -1;
	return strtoll(p + strlen(key), NULL, 10);
}

/* units_of - N of "over N units (UNIT)" in the census */
static long long units_of(const char *text, const char *unit)
{
	char tail[48];
	const char *p = strstr(text, " units (");

	cr_assert(p, "no census in:\n%s", text);
	snprintf(tail, sizeof(tail), " units (%s)", unit);
	cr_assert(!strncmp(p, tail, strlen(tail)), "the unit is not %s:\n%s", unit, text);
	while (p > text && p[-1] != ' ')
		p--;
	return strtoll(p, NULL, 10);
}

/*
 * kind_count - the wakeups of every census row whose waker starts with
 * @waker, wakee is @wakee and mechanism starts with @mechanism
 */
static long long kind_count(const char *text, const char *waker, const char *wakee, const char *mechanism)
{
	const char *p = strstr(text, "waker -> wakee via mechanism");
	long long sum = 0;

	cr_assert(p, "no census rows in:\n%s", text);
	for (p = strchr(p, '\n') + 1; *p == ' '; p = strchr(p, '\n') + 1) {
		char row[256], want[200];
		const char *via;
		long long n;

		if (sscanf(p, " %lld", &n) != 1)
			break;
		snprintf(row, sizeof(row), "%.*s", (int)(strchr(p, '\n') - p), p);
		via = strstr(row, " via ");
		snprintf(want, sizeof(want), " -> %s via ", wakee);
		if (via && strstr(row, waker) && strstr(row, want) && !strncmp(via + 5, mechanism, strlen(mechanism)))
			sum += n;
	}
	return sum;
}

Test(designs, burst_queue_hands_every_task_over_and_counts_them_per_task)
{
	char *args[] = { "--workload", "burst-queue", "--mode", "cond,pipe-record", "--", "--tasks", "100", "--repeat",
			 "2", NULL };

	skip_unless_traceable();
	run_ok(args);
	cr_assert(strstr(ran.out, "burst-queue, mode cond\n") && strstr(ran.out, "burst-queue, mode pipe-record\n"),
		  "%s", ran.out);
	/* a traced run states the host's steal and what tracing cost, as every traced run does */
	cr_assert(strstr(ran.out, "\n  steal      ") && strstr(ran.out, "\n  cost       BPF "), "%s", ran.out);
	/* seed and ready start points, 2 runs of 100 tasks each */
	cr_assert_eq(units_of(ran.out, "task"), 400, "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "tasks=100 start=seed", "sent"), 200, "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "tasks=100 start=seed", "received"), 200, "%s", ran.out);
	cr_assert(strstr(ran.out, "ratio"), "%s", ran.out);
	/* the threads of both sides got CPU time, and the producer's and consumer's rows say how much */
	cr_assert(strstr(ran.out, "  bq-producer "), "%s", ran.out);
	cr_assert(strstr(ran.out, "  bq-consumer "), "%s", ran.out);
}

/* every futex wake that woke the other thread, as the workload counted them, is in the census */
Test(designs, spawn_switch_thread_census_holds_every_futex_hand_off)
{
	char *args[] = { "--workload", "spawn", "--mode", "switch-thread", "--", "--switches", "200", "--repeat", "2",
			 NULL };
	long long woken, traced;

	skip_unless_traceable();
	run_ok(args);
	woken = count_of(ran.out, "switches=200", "futex_woken");
	cr_assert(woken > 0, "%s", ran.out);
	/* the partner starts with its creator's name, and a gate may add a wake per run */
	traced = kind_count(ran.out, "thread sp-", "sp-creator", "futex wake") +
		 kind_count(ran.out, "thread sp-", "sp-partner", "futex wake");
	cr_assert(traced >= woken && traced <= woken + 2 * 2, "%lld futex wakes traced, %lld counted:\n%s", traced,
		  woken, ran.out);
	cr_assert_eq(units_of(ran.out, "switch"), 400, "%s", ran.out);
}

Test(designs, executor_runs_every_handler_once)
{
	char *args[] = { "--workload", "executor", "--mode", "pool", "--", "--handlers", "20000", "--loops", "100",
			 "--threads", "2", "--repeat", "2", NULL };

	skip_unless_traceable();
	run_ok(args);
	cr_assert_eq(count_of(ran.out, "handlers=20000", "posted"), 40000, "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "handlers=20000", "run"), 40000, "%s", ran.out);
	cr_assert_eq(units_of(ran.out, "handler"), 40000, "%s", ran.out);
	cr_assert(strstr(ran.out, "  ex-pool-0 ") && strstr(ran.out, "  ex-pool-1 "), "%s", ran.out);
}

Test(designs, ipc_stream_delivers_every_message_and_byte)
{
	char *args[] = { "--workload", "ipc-stream", "--mode", "unix", "--", "--rounds", "20", "--receiver", "busy",
			 "--repeat", "2", NULL };

	skip_unless_traceable();
	run_ok(args);
	cr_assert_eq(count_of(ran.out, "stop=producer", "sent"), 6200, "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "stop=producer", "received"), 6200, "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "stop=producer", "bytes_sent"), count_of(ran.out, "stop=producer",
										 "bytes_received"), "%s", ran.out);
	cr_assert_eq(units_of(ran.out, "message"), 6200, "%s", ran.out);
	/* the consumer is a process of its own, forked: its threads are in the census too */
	cr_assert(strstr(ran.out, "  is-consumer ") && strstr(ran.out, "  is-producer "), "%s", ran.out);
}

Test(designs, no_trace_runs_untraced_only_without_root)
{
	char *args[] = { "--workload", "burst-queue", "--mode", "pipe-batch", "--no-trace", "--", "--tasks", "50",
			 "--repeat", "2", NULL };

	wakeprobe_run_ok(&ran, args);
	cr_assert(strstr(ran.out, "(untraced)"), "%s", ran.out);
	cr_assert(!strstr(ran.out, "Wakeups of the traced run"), "%s", ran.out);
	cr_assert_eq(count_of(ran.out, "tasks=50 start=seed", "received"), 100, "%s", ran.out);
}

/* bad options: one line naming the fix, exit 2, nothing run */
static void bad(char *const args[], const char *says)
{
	wakeprobe_run(&ran, args);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 2, "status 0x%x; stderr: %s", ran.status,
		  ran.err);
	cr_assert_eq(text_count_lines(ran.err), 1, "%s", ran.err);
	cr_assert(strstr(ran.err, says), "'%s' not in: %s", says, ran.err);
	cr_assert_str_empty(ran.out);
}

Test(designs, bad_options_are_one_line_and_exit_2)
{
	char *unknown_mode[] = { "--workload", "burst-queue", "--mode", "cond,nope", NULL };
	char *mode_of_paced[] = { "--workload", "eventfd", "--mode", "cond", NULL };
	char *json_after[] = { "--workload", "spawn", "--", "--count", "5", "--json", NULL };
	char *mode_after[] = { "--workload", "spawn", "--", "-mcoroutine", NULL };
	char *samples[] = { "--workload", "executor", "--samples", "10", NULL };
	char *csv[] = { "--workload", "ipc-stream", "--csv", "/tmp/x.csv", NULL };
	char *perfetto[] = { "--workload", "spawn", "--perfetto", "/tmp/x.trace.json", NULL };
	char *json_nowhere[] = { "--workload", "burst-queue", "--no-trace", "--json", "/nonexistent-dir/x.json", NULL };
	char *record[] = { "record", "-o", "/tmp/x.wpr", "--workload", "ipc-stream", NULL };

	bad(unknown_mode, "burst-queue has no mode 'nope'");
	bad(mode_of_paced, "--mode is for one throughput workload");
	bad(json_after, "--json after -- is set by wakeprobe");
	bad(mode_after, "--mode after -- is set by wakeprobe");
	bad(samples, "--samples is for the paced paths");
	bad(csv, "--csv is for the paced paths");
	bad(perfetto, "--perfetto is for the paced paths");
	bad(record, "record is for the paced paths");

	/* --json is taken now: a file it cannot make is the one line, exit 1, nothing run */
	wakeprobe_run(&ran, json_nowhere);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x; stderr: %s", ran.status,
		  ran.err);
	cr_assert_eq(text_count_lines(ran.err), 1, "%s", ran.err);
	cr_assert(strstr(ran.err, "--json /nonexistent-dir/x.json: cannot create it"), "%s", ran.err);
	cr_assert_str_empty(ran.out);
}

/* the workload's own refusal reaches the user, and wakeprobe says which run failed */
Test(designs, a_workload_that_refuses_its_arguments_fails_the_run)
{
	char *args[] = { "--workload", "burst-queue", "--mode", "cond", "--no-trace", "--", "--tasks", "0", NULL };

	wakeprobe_run(&ran, args);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x; stderr: %s", ran.status,
		  ran.err);
	cr_assert(strstr(ran.err, "burst-queue: --tasks"), "%s", ran.err);
	cr_assert(strstr(ran.err, "wakeprobe: the untraced run exited with status 2"), "%s", ran.err);
}

Test(designs, workload_all_adds_a_line_per_design)
{
	char *args[] = { "--workload", "all", "--samples", "50", "--interval-us", "200", NULL };

	skip_unless_traceable();
	wakeprobe_run(&ran, args);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 0, "status 0x%x; stderr: %s\n%s", ran.status,
		  ran.err, ran.out);
	cr_assert(strstr(ran.out, "Throughput designs, one mode each"), "%s", ran.out);
	cr_assert(strstr(ran.out, "\nburst-queue  pipe-notify "), "%s", ran.out);
	cr_assert(strstr(ran.out, "\nspawn        thread-32k "), "%s", ran.out);
	cr_assert(strstr(ran.out, "\nexecutor     pool "), "%s", ran.out);
	cr_assert(strstr(ran.out, "\nipc-stream   shm-bounded "), "%s", ran.out);
	cr_assert(!strstr(ran.out, "FAILED"), "%s", ran.out);
}

/* census_wakeups_of - N of the text's "Wakeups of the traced run: N of its threads" */
static long long census_wakeups_of(const char *text)
{
	const char *p = strstr(text, "Wakeups of the traced run: ");
	long long n = -1;

	cr_assert(p, "no census in:\n%s", text);
	cr_assert_eq(sscanf(p, "Wakeups of the traced run: %lld of its threads", &n), 1, "%s", text);
	return n;
}

/* --json: the document appears whole, the text report still goes to stdout, and the two agree */
Test(designs, json_document_holds_the_counts_the_text_shows)
{
	char path[64], err[160];
	FILE *f = temp_output("design-json", path);
	char *args[] = { "--workload", "burst-queue", "--mode", "cond", "--json", path, "--", "--tasks", "100",
			 "--repeat", "2", NULL };
	const struct json_node *root, *run, *fig, *counts;
	struct json_doc *doc;
	uint64_t sent, received, wakeups, units;
	size_t len;
	char *text;

	cr_assert_eq(fclose(f), 0);
	skip_unless_traceable();
	run_ok(args);
	cr_assert(strstr(ran.out, "burst-queue, mode cond\n"), "the text report is still printed:\n%s", ran.out);
	text = read_file(path, &len);
	unlink(path);
	doc = json_reader__parse(text, len, err, sizeof(err));
	cr_assert_not_null(doc, "%s in:\n%s", err, text);
	root = json_reader__root(doc);
	cr_assert_str_eq(json_reader__get_string(root, "schema"), "wakeprobe-design-report");
	cr_assert_str_eq(json_reader__get_string(root, "workload"), "burst-queue");
	cr_assert_eq(json_reader__len(json_reader__get(root, "runs")), 1);
	run = json_reader__at(json_reader__get(root, "runs"), 0);
	cr_assert_str_eq(json_reader__get_string(run, "mode"), "cond");

	/* the seed start point's counts: sent = received, and the numbers the text shows */
	fig = json_reader__at(json_reader__get(run, "figures"), 0);
	cr_assert_str_eq(json_reader__get_string(fig, "label"), "tasks=100 start=seed");
	counts = json_reader__get(fig, "counts");
	cr_assert(json_reader__get_u64(counts, "sent", &sent) && json_reader__get_u64(counts, "received", &received));
	cr_assert_eq(sent, received);
	cr_assert_eq((long long)sent, count_of(ran.out, "tasks=100 start=seed", "sent"), "%s", ran.out);
	cr_assert_eq((long long)received, count_of(ran.out, "tasks=100 start=seed", "received"), "%s", ran.out);
	/* ... as the workload's own traced document has them */
	cr_assert(json_reader__get_u64(json_reader__get(json_reader__at(json_reader__get(json_reader__get(
		json_reader__get(run, "documents"), "traced"), "results"), 0), "counts"), "sent", &sent));
	cr_assert_eq(sent, received);

	/* the census's wakeups and units are the text's line */
	cr_assert(json_reader__get_u64(json_reader__get(run, "census"), "wakeups", &wakeups));
	cr_assert_eq((long long)wakeups, census_wakeups_of(ran.out), "%s", ran.out);
	cr_assert(json_reader__get_u64(json_reader__get(run, "handed_over"), "count", &units));
	cr_assert_eq((long long)units, units_of(ran.out, "task"), "%s", ran.out);
	cr_assert(json_reader__get_u64(json_reader__get(json_reader__get(run, "attach"), "wakeups"), "total",
				       &wakeups));
	cr_assert_eq((long long)wakeups, census_wakeups_of(ran.out), "%s", ran.out);
	cr_assert(json_reader__get_u64(json_reader__get(json_reader__get(run, "attach"), "events"), "dropped",
				       &wakeups));
	cr_assert_eq(wakeups, 0);
	json_reader__free(doc);
	free(text);
}

/*
 * --engine lean on a throughput workload: the same hand-offs, one record each,
 * named from both ends from registers (the futex words too, their waits
 * untimed), and the document says what it could not trace with nulls (no
 * CPU time by thread)
 */
Test(designs, a_lean_run_counts_the_same_hand_offs_and_leaves_out_what_it_did_not_trace)
{
	char path[64], err[160];
	FILE *f = temp_output("design-lean", path);
	char *args[] = { "--workload", "spawn", "--mode", "switch-thread", "--engine", "lean", "--json", path,
			 "--",
			 "--switches", "200", "--repeat", "2", NULL };
	const struct json_node *run, *attach;
	struct json_doc *doc;
	long long woken, traced;
	uint64_t dropped, waits;
	size_t len;
	char *text;

	cr_assert_eq(fclose(f), 0);
	skip_unless_traceable();
	run_ok(args);
	cr_assert(strstr(ran.out, "\n  tracing    the lean engine"), "no lean line:\n%s", ran.out);
	cr_assert(strstr(ran.out, "their lengths not timed (no program on syscalls)\n"), "%s", ran.out);
	cr_assert_null(strstr(ran.out, "\nWhere the time of "), "a cause table in a lean run:\n%s", ran.out);
	woken = count_of(ran.out, "switches=200", "futex_woken");
	cr_assert(woken > 0, "%s", ran.out);
	/* each thread's wakes of the other: a thread waking itself is its gate or its join */
	traced = kind_count(ran.out, "thread sp-creator", "sp-partner", "futex wake -> wait") +
		 kind_count(ran.out, "thread sp-partner", "sp-creator", "futex wake -> wait");
	/* as with the full engine, less the wakes that found the thread still on its CPU, which the lean one leaves out */
	cr_assert(traced >= woken * 9 / 10 && traced <= woken, "%lld wakes traced, %lld counted:\n%s", traced, woken,
		  ran.out);

	text = read_file(path, &len);
	unlink(path);
	doc = json_reader__parse(text, len, err, sizeof(err));
	cr_assert_not_null(doc, "%s in:\n%s", err, text);
	run = json_reader__at(json_reader__get(json_reader__root(doc), "runs"), 0);
	attach = json_reader__get(run, "attach");
	cr_assert(json_reader__get(run, "futex_waits") && json_reader__get(run, "cpu") && json_reader__get(attach, "causes"),
		  "a member missing, not null");
	cr_assert(json_reader__get_u64(json_reader__get(run, "futex_waits"), "waits", &waits));
	cr_assert(waits >= (uint64_t)woken * 9 / 10, "%" PRIu64 " futex waits, %lld counted", waits, woken);
	cr_assert_eq(json_reader__type(json_reader__get(json_reader__get(run, "futex_waits"), "wait_total_ns")), JSON_NULL);
	cr_assert_eq(json_reader__type(json_reader__get(run, "cpu")), JSON_NULL);
	cr_assert_eq(json_reader__type(json_reader__get(attach, "causes")), JSON_NULL);
	cr_assert(json_reader__get_u64(json_reader__get(attach, "events"), "dropped", &dropped));
	cr_assert_eq(dropped, 0);
	json_reader__free(doc);
	free(text);
}

/* a mode that fails leaves no document: the file appears whole or not at all (no root needed) */
Test(designs, json_is_not_made_when_a_mode_fails)
{
	char path[64];
	FILE *f = temp_output("design-json", path);
	char *args[] = { "--workload", "burst-queue", "--mode", "cond", "--no-trace", "--json", path, "--", "--tasks",
			 "0", NULL };

	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(unlink(path), 0);
	wakeprobe_run(&ran, args);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == 1, "status 0x%x; stderr: %s", ran.status,
		  ran.err);
	cr_assert(strstr(ran.err, "wakeprobe: the untraced run exited with status 2"), "%s", ran.err);
	cr_assert_neq(access(path, F_OK), 0, "%s was left behind", path);
}

/*
 * --chains on a throughput workload: its traced run is the full engine's,
 * which builds each wakeup's chain from its stream. Every complete wakeup
 * comes with one; an executor's completion (a pool thread's exit that the
 * joining executor waits for) is followed back to the pool thread's run,
 * and its submit (the executor's futex wake of a pool thread) to the
 * executor's.
 */
static const char executor_chains_check[] =
	"import json, sys\n"
	"a = json.load(open(sys.argv[1]))['runs'][0]['attach']\n"
	"assert a['chains']['totals']['chained'] == a['wakeups']['complete'] > 0, (a['chains']['totals'], a['wakeups'])\n"
	"def pairs(waker, wakee):\n"
	"    return [p for p in a['pairs'] if p['waker']['name'].startswith('thread ' + waker)\n"
	"            and p['wakee']['comm'].startswith(wakee) and p['chains']]\n"
	"def on_path(ps, comm):\n"
	"    return sum(t['ns'] for p in ps for t in p['chains']['on_path']['tasks'] if (t['comm'] or '').startswith(comm))\n"
	"done, submit = pairs('ex-pool', 'executor'), pairs('executor', 'ex-pool')\n"
	"assert done and on_path(done, 'ex-pool') > 0, [p['chains'] for p in done]\n"
	"assert submit and on_path(submit, 'executor') > 0, [p['chains'] for p in submit]\n";

Test(designs, an_executors_chains_lead_from_its_completion_back_to_the_pool_thread_and_its_submit)
{
	char path[64];
	FILE *f = temp_output("design-chains", path);
	char *args[] = { "--workload", "executor", "--mode", "pool", "--chains", "--json", path, "--", "--handlers",
			 "20000", "--loops", "100", "--threads", "2", "--repeat", "2", NULL };

	cr_assert_eq(fclose(f), 0);
	skip_unless_traceable();
	run_ok(args);
	cr_assert(strstr(ran.out, "Where the waits went, back through the wakers hop by hop"), "%s", ran.out);
	cr_assert_eq(run_python(executor_chains_check, (const char *const[]){ path, NULL }), 0, "%s", ran.out);
	unlink(path);
}
