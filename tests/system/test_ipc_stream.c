// SPDX-License-Identifier: GPL-2.0
/*
 * ipc-stream run by itself (no root, no BPF): every mode and receiver's
 * JSON document read back by python3, the counts of both ends matching what
 * the run sent and its figures in order; a consumer that dies is one line
 * and exit 1, a producer that dies takes its consumer with it; bad options
 * one line and exit 2.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"

/*
 * What every result must hold, with ROUNDS rounds, R repeats, mode M and
 * receiver V: both ends' counts are the run's (155 messages and 12090 bytes
 * a round), every figure positive and in order, the rates each run's
 * amount over its time, and seconds and ns per message the same thing.
 */
static const char is_common_checks[] =
	"MSGS, BYTES = 155 * ROUNDS, 12090 * ROUNDS\n"
	"has(d, 'schema schema_version workload clock machine options results handed_over handed_over_bytes "
	"threads')\n"
	"assert d['schema'] == 'wakeprobe-throughput' and d['schema_version'] == 1, d['schema']\n"
	"assert d['workload'] == 'ipc-stream' and d['clock'] == 'CLOCK_MONOTONIC'\n"
	"o = d['options']\n"
	"has(o, 'repeat cpus modes receivers rounds messages_per_run bytes_per_run mib_per_run ring_size "
	"growable_reserve read_size socket_sndbuf socket_rcvbuf receiver_sleep_ns timer_slack_ns')\n"
	"assert o['repeat'] == R and o['rounds'] == ROUNDS and o['modes'] == [M] and o['receivers'] == [V], o\n"
	"assert o['messages_per_run'] == MSGS and o['bytes_per_run'] == BYTES, o\n"
	"assert abs(o['mib_per_run'] - BYTES / 1048576) < 1e-9, o\n"
	"assert o['cpus']['producer'] != o['cpus']['consumer'], o['cpus']\n"
	"assert o['growable_reserve'] >= BYTES + 4 * MSGS, o\n"
	"assert d['threads'] == {'producer': 'is-producer', 'consumer': 'is-consumer'}, d['threads']\n"
	"stops = [r['stop'] for r in d['results']]\n"
	"assert stops == ['producer', 'end-to-end'], stops\n"
	"for r in d['results']:\n"
	"    has(r, 'mode messages start receiver stop runs seconds ns_per_message mib_per_s messages_per_s "
	"counts')\n"
	"    assert r['mode'] == M and r['receiver'] == V and r['messages'] == MSGS and r['runs'] == R, r\n"
	"    assert r['start'] == 'ready', r\n"
	"    c = r['counts']\n"
	"    assert c['sent'] == c['received'] == MSGS * R, c\n"
	"    assert c['bytes_sent'] == c['bytes_received'] == BYTES * R, c\n"
	"    assert c['wire_bytes'] >= (BYTES + 4 * MSGS) * R, c\n"
	"    assert R <= c['batches'] <= MSGS * R, c\n"
	"    assert c['producer_cpu_ns'] > 0 and c['consumer_cpu_ns'] >= 0, c\n"
	"    if V == 'sleep':\n"
	"        assert c['receiver_sleeps'] == c['batches'], c\n"
	"        assert c['receiver_sleep_ns'] >= 1000 * c['receiver_sleeps'], c\n"
	"    else:\n"
	"        assert c['receiver_sleeps'] == c['receiver_sleep_ns'] == 0, c\n"
	"    for key in ('seconds', 'ns_per_message', 'mib_per_s', 'messages_per_s'):\n"
	"        s = r[key]\n"
	"        has(s, 'mean sd min median max')\n"
	"        assert s['min'] > 0 and s['sd'] >= 0, (key, s)\n"
	"        assert s['min'] <= s['median'] <= s['max'], (key, s)\n"
	"        assert s['min'] <= s['mean'] <= s['max'], (key, s)\n"
	"    ratio = r['ns_per_message']['mean'] * MSGS / (r['seconds']['mean'] * 1e9)\n"
	"    assert abs(ratio - 1) < 1e-9, ratio\n"
	"    # the fastest run has the highest rate; with an odd R the median is one run's\n"
	"    s, mib, mps = r['seconds'], r['mib_per_s'], r['messages_per_s']\n"
	"    assert abs(mib['max'] * s['min'] / (BYTES / 1048576) - 1) < 1e-9, (mib, s)\n"
	"    assert abs(mib['min'] * s['max'] / (BYTES / 1048576) - 1) < 1e-9, (mib, s)\n"
	"    assert abs(mps['median'] * s['median'] / MSGS - 1) < 1e-9, (mps, s)\n"
	"a, b = d['results']\n"
	"assert a['counts'] == b['counts'], 'both stop points come from the same runs'\n"
	"assert d['handed_over'] == {M: MSGS * R} and d['handed_over_bytes'] == {M: BYTES * R}, d\n";

struct mode_case {
	char mode[16];
	char receiver[8];
	/* python: what this mode's counts say besides the common ones */
	char checks[600];
};

#define IS_UNIX_CHECKS                                                                      \
	"c = d['results'][0]['counts']\n"                                                   \
	"assert c['wire_bytes'] == (BYTES + 4 * MSGS) * R, c\n"                             \
	"assert c['writes'] == MSGS * R and c['partial_writes'] <= c['writes'], c\n"        \
	"assert c['full_writes'] >= 0 and c['reads'] == c['batches'], c\n"                  \
	"assert c['carries'] <= c['reads'], c\n"                                            \
	"assert 'producer_waits' not in c and 'grows' not in c, c\n"
#define IS_SHM_CHECKS                                                                       \
	"c = d['results'][0]['counts']\n"                                                   \
	"assert 'writes' not in c and 'reads' not in c, c\n"                                \
	"assert c['consumer_waits'] >= R, c\n"
#define IS_BOUNDED_CHECKS                                                                   \
	IS_SHM_CHECKS                                                                       \
	"assert 0 < c['peak_used_max'] <= o['ring_size'], c\n"                              \
	"assert 'grows' not in c and 'resets' not in c, c\n"
#define IS_GROWABLE_CHECKS                                                                  \
	IS_SHM_CHECKS                                                                       \
	"assert c['producer_waits'] == 0, c\n"                                              \
	"assert c['wire_bytes'] == sum(4 + (n + 3) // 4 * 4 for n in range(1, 156)) * ROUNDS * R, c\n" \
	"assert 0 < c['peak_used_max'] <= c['peak_size_max'] <= o['growable_reserve'], c\n" \
	"assert c['peak_size_max'] >= o['ring_size'] and c['resets'] <= c['batches'], c\n"

static struct mode_case mode_cases[] = {
	{ "unix", "busy", IS_UNIX_CHECKS },
	{ "unix", "sleep", IS_UNIX_CHECKS },
	{ "shm-bounded", "busy", IS_BOUNDED_CHECKS },
	{ "shm-bounded", "sleep", IS_BOUNDED_CHECKS },
	{ "shm-growable", "busy", IS_GROWABLE_CHECKS },
	{ "shm-growable", "sleep", IS_GROWABLE_CHECKS },
};

ParameterizedTestParameters(ipc_stream, each_mode_and_receiver_delivers_every_message_intact_and_says_so_in_json)
{
	return cr_make_param_array(struct mode_case, mode_cases, sizeof(mode_cases) / sizeof(mode_cases[0]));
}

ParameterizedTest(struct mode_case *c, ipc_stream, each_mode_and_receiver_delivers_every_message_intact_and_says_so_in_json)
{
	const char *args[] = { "--mode", c->mode, "--receiver", c->receiver, "--rounds", "40", "--repeat", "3",
			       "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("ipc-stream", &o, args), 0, "%s %s: stderr: %s", c->mode, c->receiver, o.err);
	cr_assert_eq(o.err[0], '\0', "%s %s: stderr: %s", c->mode, c->receiver, o.err);
	cr_assert(workload_json_check(&o, "ROUNDS, R, M, V = 40, 3, '%s', '%s'\n%s%s", c->mode, c->receiver,
				      is_common_checks, c->checks),
		  "%s %s:\n%s", c->mode, c->receiver, o.out);
}

Test(ipc_stream, a_small_bounded_ring_makes_the_producer_wait_and_never_holds_more_than_its_size)
{
	/* a sleeping receiver takes at least 1 us per batch: 4 KiB fill in far less */
	const char *args[] = { "--mode", "shm-bounded", "--receiver", "sleep", "--ring-size", "4096", "--rounds",
			       "200", "--repeat", "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("ipc-stream", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "ROUNDS, R, M, V = 200, 3, 'shm-bounded', 'sleep'\n%s%s"
				      "assert o['ring_size'] == 4096, o\n"
				      "assert c['producer_waits'] > 0 and c['peak_used_max'] <= 4096, c\n",
				      is_common_checks, IS_BOUNDED_CHECKS), "%s", o.out);
}

Test(ipc_stream, a_growable_buffer_grows_past_its_first_size_when_the_receiver_sleeps)
{
	const char *args[] = { "--mode", "shm-growable", "--receiver", "sleep", "--ring-size", "4096", "--rounds",
			       "200", "--repeat", "3", "--json", NULL };
	struct workload_outcome o;

	cr_assert_eq(workload_run("ipc-stream", &o, args), 0, "stderr: %s", o.err);
	cr_assert(workload_json_check(&o, "ROUNDS, R, M, V = 200, 3, 'shm-growable', 'sleep'\n%s%s"
				      "assert c['grows'] > 0 and c['peak_size_max'] > 4096, c\n"
				      "assert c['peak_size_max'] & (c['peak_size_max'] - 1) == 0 or "
				      "c['peak_size_max'] == o['growable_reserve'], c\n",
				      is_common_checks, IS_GROWABLE_CHECKS), "%s", o.out);
}

Test(ipc_stream, the_table_has_both_stop_points_for_each_mode_and_receiver)
{
	const char *args[] = { "--mode", "unix,shm", "--receiver", "busy", "--rounds", "10", "--repeat", "2", NULL };
	static const char *const rows[] = { "unix         busy     producer ", "unix         busy     end-to-end ",
					    "shm-bounded  busy     producer ", "shm-bounded  busy     end-to-end ",
					    "shm-growable busy     producer ", "shm-growable busy     end-to-end " };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("ipc-stream", &o, args), 0, "stderr: %s", o.err);
	cr_assert(strstr(o.out, "1550 messages, 120900 bytes (0.12 MiB)"), "%s", o.out);
	cr_assert(strstr(o.out, "mode         receiver stop         median s      MiB/s      msg/s     ns/msg"), "%s",
		  o.out);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		cr_assert(strstr(o.out, rows[i]), "no row '%s' in:\n%s", rows[i], o.out);
	cr_assert_null(strstr(o.out, " sleep "), "%s", o.out);
	/* three lines of heading, a blank one, the column names, then the rows */
	cr_assert_eq(text_count_lines(o.out), 5 + (int)(sizeof(rows) / sizeof(rows[0])), "%s", o.out);
}

Test(ipc_stream, help_names_every_mode_and_receiver_and_shows_examples)
{
	const char *args[] = { "--help", NULL };
	static const char *const words[] = { "unix", "shm-bounded", "shm-growable", "busy", "sleep", "--rounds",
					     "--ring-size", "--repeat", "--cpus", "--json", "115.30 MiB",
					     "Examples:", "take minutes" };
	struct workload_outcome o;
	size_t i;

	cr_assert_eq(workload_run("ipc-stream", &o, args), 0, "stderr: %s", o.err);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		cr_assert(strstr(o.out, words[i]), "no '%s' in --help:\n%s", words[i], o.out);
}

static char proc_state(pid_t pid, char comm[32]);

/*
 * consumer_of - the pid of @parent's child once it named itself is-consumer
 * (a fork of is-producer until then), within a few seconds; 0 if none came
 */
static pid_t consumer_of(pid_t parent)
{
	char comm[32];
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	char path[96], buf[64];
	struct dirent *de;
	int i, fd;
	ssize_t n;
	long pid;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)parent);
	for (i = 0; i < 500; i++) {
		dir = opendir(path);
		cr_assert_not_null(dir, "%s: %s", path, strerror(errno));
		while ((de = readdir(dir))) {
			char file[400];

			if (de->d_name[0] == '.')
				continue;
			snprintf(file, sizeof(file), "%s/%s/children", path, de->d_name);
			fd = open(file, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n > 0) {
				buf[n] = '\0';
				pid = strtol(buf, NULL, 10);
				if (pid > 0 && proc_state((pid_t)pid, comm) && !strcmp(comm, "is-consumer")) {
					closedir(dir);
					return (pid_t)pid;
				}
			}
		}
		closedir(dir);
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* proc_state - @pid's state letter in /proc/PID/stat, and its comm into @comm; 0 when it is gone */
static char proc_state(pid_t pid, char comm[32])
{
	char path[64], buf[512], *open_paren, *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	open_paren = strchr(buf, '(');
	paren = strrchr(buf, ')');
	if (!open_paren || !paren || paren[1] != ' ')
		return 0;
	snprintf(comm, 32, "%.*s", (int)(paren - open_paren - 1), open_paren + 1);
	return paren[2];
}

static const char *const long_modes[] = { "unix", "shm-bounded", "shm-growable" };

Test(ipc_stream, a_consumer_that_dies_is_one_line_and_exit_1_in_every_mode)
{
	size_t i;

	for (i = 0; i < sizeof(long_modes) / sizeof(long_modes[0]); i++) {
		/* minutes of work if nothing stopped it */
		const char *args[] = { "--mode", long_modes[i], "--receiver", "busy", "--rounds", "100000",
				       "--repeat", "5", NULL };
		struct workload_outcome o;
		int out, err;
		pid_t pid = workload_spawn("ipc-stream", args, &out, &err), child;

		child = consumer_of(pid);
		cr_assert_gt(child, 0, "%s: no consumer named is-consumer appeared", long_modes[i]);
		cr_assert_eq(kill(child, SIGKILL), 0);
		cr_assert_eq(workload_collect(pid, out, err, &o), 1, "%s: status 0x%x, stderr: %s", long_modes[i],
			     o.status, o.err);
		cr_assert_eq(text_count_lines(o.err), 1, "%s: stderr: %s", long_modes[i], o.err);
		cr_assert(strstr(o.err, "ipc-stream: run 1 of "), "%s: %s", long_modes[i], o.err);
		cr_assert(strstr(o.err, "the consumer was killed by signal 9"), "%s: %s", long_modes[i], o.err);
		cr_assert_eq(o.out[0], '\0', "%s: stdout: %s", long_modes[i], o.out);
	}
}

Test(ipc_stream, a_producer_that_dies_takes_its_consumer_with_it)
{
	size_t i;

	for (i = 0; i < sizeof(long_modes) / sizeof(long_modes[0]); i++) {
		const char *args[] = { "--mode", long_modes[i], "--receiver", "sleep", "--rounds", "100000",
				       "--repeat", "5", NULL };
		struct timespec nap = { 0, 10 * 1000 * 1000 };
		char comm[32] = "", state = 0;
		struct workload_outcome o;
		int out, err, tries;
		pid_t pid = workload_spawn("ipc-stream", args, &out, &err), child;

		child = consumer_of(pid);
		cr_assert_gt(child, 0, "%s: no consumer named is-consumer appeared", long_modes[i]);
		cr_assert_eq(kill(pid, SIGKILL), 0);
		cr_assert_eq(workload_collect(pid, out, err, &o), -1);
		cr_assert(WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGKILL, "0x%x", o.status);
		/*
		 * PR_SET_PDEATHSIG: gone, or a zombie waiting for a reaper that may
		 * never come (a container's init), or its pid already another's
		 */
		for (tries = 0; tries < 300; tries++) {
			state = proc_state(child, comm);
			if (!state || state == 'Z' || strcmp(comm, "is-consumer"))
				break;
			nanosleep(&nap, NULL);
		}
		cr_assert(!state || state == 'Z' || strcmp(comm, "is-consumer"),
			  "%s: the consumer %d outlived its producer (state %c)", long_modes[i], (int)child, state);
	}
}

struct bad_case {
	int nr_args;
	char args[3][24];
	char message[56];	/* what the one line must say */
};

static struct bad_case bad_cases[] = {
	{ 2, { "--mode", "bogus" }, "--mode wants unix, shm-bounded, shm-growable" },
	{ 2, { "--mode", "unix," }, "--mode wants" },
	{ 2, { "--mode", "" }, "--mode wants" },
	{ 2, { "--receiver", "lazy" }, "--receiver wants busy, sleep or all" },
	{ 2, { "--receiver", "busy,,sleep" }, "not 'busy,,sleep'" },
	{ 2, { "--rounds", "0" }, "--rounds wants a whole number from 1 to 100000" },
	{ 2, { "--rounds", "100001" }, "--rounds wants" },
	{ 2, { "--ring-size", "5000" }, "--ring-size wants a power of two" },
	{ 2, { "--ring-size", "1024" }, "--ring-size wants a power of two from 4096" },
	{ 2, { "--repeat", "0" }, "--repeat wants a whole number from 1" },
	{ 2, { "--cpus", "0,0" }, "--cpus wants two different CPUs" },
	{ 1, { "--bogus" }, "unknown option '--bogus'" },
	{ 1, { "--rounds" }, "--rounds needs a value" },
	{ 1, { "stray" }, "unexpected argument 'stray'" },
};

ParameterizedTestParameters(ipc_stream, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	return cr_make_param_array(struct bad_case, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, ipc_stream, a_bad_option_is_one_line_naming_the_fix_and_exit_2)
{
	const char *args[4] = { NULL };
	struct workload_outcome o;
	int i;

	for (i = 0; i < c->nr_args; i++)
		args[i] = c->args[i];
	cr_assert_eq(workload_run("ipc-stream", &o, args), 2, "%s: stderr: %s", c->args[0], o.err);
	cr_assert_eq(text_count_lines(o.err), 1, "%s: stderr: %s", c->args[0], o.err);
	cr_assert(strstr(o.err, c->message), "%s: '%s' lacks '%s'", c->args[0], o.err, c->message);
	cr_assert(strstr(o.err, "(see --help)"), "%s: %s", c->args[0], o.err);
	cr_assert_eq(o.out[0], '\0', "%s: stdout: %s", c->args[0], o.out);
}
