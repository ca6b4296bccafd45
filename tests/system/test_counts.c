// SPDX-License-Identifier: GPL-2.0
/*
 * test_counts.c - attach mode's wakeup counts on a many-task messaging
 * benchmark (perf bench sched messaging: groups of processes writing to
 * each other over sockets), held against an independent tp_btf counter
 * (bench/wake-count) attached beside it to the same process tree: every
 * sched_wakeup and sched_wakeup_new is counted, and no record is dropped,
 * by the full engine and by the lean one.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

/*
 * 4 groups of 40 processes, 50 messages each way: some thousands of
 * wakeups in a fraction of a second. Under emulation, one group: the full
 * engine's 190,000 records of four overran its 8 MiB ring there, its
 * reader some 50 times slower (the drops counted, as they must be).
 */
static char *messaging[] = { "perf", "bench", "sched", "messaging", "-g", "4", "-l", "50", NULL };

/* copied into the test's own process: no pointer into this one */
struct count_case {
	char engine[8];		/* --engine's value; "": attach mode's default, lean */
	bool lean;
};

static struct count_case count_cases[] = {
	{ "full", false },
	{ "", true },
};

ParameterizedTestParameters(counts, every_wakeup_of_a_messaging_benchmark_is_counted_as_a_witness_counts_it)
{
	return cr_make_param_array(struct count_case, count_cases, sizeof(count_cases) / sizeof(count_cases[0]));
}

ParameterizedTest(struct count_case *c, counts, every_wakeup_of_a_messaging_benchmark_is_counted_as_a_witness_counts_it)
{
	const char *wake_count = getenv("WAKE_COUNT");
	char pid_arg[16], json[64], line[256], witness_out[4096];
	char *witness_args[] = { (char *)wake_count, "0", pid_arg, NULL };
	char *tracer_args[] = { (char *)wakeprobe_path(), "--pid", pid_arg, "--json", json, "--outliers", "0",
				c->engine[0] ? "--engine" : NULL, c->engine, NULL };
	int go, w_out, w_err, t_out, t_err, status;
	pid_t bench, witness, tracer;
	unsigned long long counted;
	FILE *f;

	skip_unless_traceable();
	if (!wake_count)
		cr_skip_test("set WAKE_COUNT to the witness, build/bench/wake-count (make test does)");
	if (system("command -v perf >/dev/null 2>&1"))
		cr_skip_test("no perf to run the messaging benchmark (make test installs linux-perf)");
	f = temp_output("counts", json);
	fclose(f);
	messaging[5] = machine_emulated() ? "1" : "4";

	bench = spawn_held(messaging, NULL, -1, &go);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)bench);
	witness = spawn_piped(witness_args, NULL, &w_out, &w_err);
	read_line(w_err, line, sizeof(line));
	cr_assert(strstr(line, "counting"), "the witness did not start: '%s'", line);
	tracer = spawn_piped(tracer_args, NULL, &t_out, &t_err);
	wait_attached(tracer, "wakeprobe");

	cr_assert_eq(write(go, "g", 1), 1);
	close(go);
	status = wait_exit(bench, "the benchmark", 120);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "perf bench: status 0x%x", status);
	/* the traced processes are gone: wakeprobe ends by itself, the witness on SIGINT */
	status = wait_exit(tracer, "wakeprobe", 60);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wakeprobe: status 0x%x", status);
	kill(witness, SIGINT);
	status = wait_exit(witness, "the witness", 30);
	read_to_end(w_out, witness_out, sizeof(witness_out));
	cr_assert_eq(sscanf(strstr(witness_out, "wakeups ") ? strstr(witness_out, "wakeups ") : "", "wakeups %llu",
			    &counted), 1, "the witness said '%s'", witness_out);
	close(w_out);
	close(w_err);
	close(t_out);
	close(t_err);
	/*
	 * the sockets' buffers let a sender write many messages per wakeup of its
	 * receiver: the count varies run to run (under 1,000 to 14,000 seen), and
	 * what is held here is only that the witness counted the run at all
	 */
	cr_assert_gt(counted, machine_emulated() ? 40 : 160, "a benchmark of %s groups of 40 processes woke them "
		     "at least once each", messaging[5]);

	/*
	 * the full engine pairs every WAKEUP record into a wakeup; the lean one writes
	 * one record per wake that ended a sleep and counts the others
	 */
	cr_assert(json_check(json,
			     "e = d['events']\n"
			     "assert e['dropped'] == 0 and e['missed_runs'] == 0, e\n"
			     "n = d['wakeups']['total']\n"
			     "if %d:\n"
			     "    n += e['lean_woke_running'] + e['lean_wakeup_unpaired'] + e['lean_no_storage']\n"
			     "assert n == %llu, (n, %llu, e, d['wakeups'])\n",
			     c->lean, counted, counted),
		  "--engine %s: the counts differ (witness %llu)", c->lean ? "lean" : "full", counted);
	printf("counts: --engine %s: the witness and wakeprobe counted %llu wakeups alike\n", c->lean ? "lean" : "full",
	       counted);
	unlink(json);
}
