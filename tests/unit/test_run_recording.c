// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_recording.c - a workload run to and from its records: RUN_BEGIN,
 * RUN_END, the steal and the cost each encoded and decoded back, every
 * field, every byte of a record written whatever was there before, names
 * cut to their room; what a run's end takes from the samples and from an
 * older file; and the tap, which writes each input of the analysis as the
 * record that replays it.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "events.h"
#include "rec_reader.h"
#include "recfile.h"
#include "recorder.h"
#include "recording.h"
#include "run_recording.h"

TestSuite(run_recording);

/* a path with every field of its description set, none to its default */
static const struct workload_desc futex_wl = {
	.name = "futex-new-thread",
	.summary = "a thread made and woken through a futex",
	.notify_syscalls = { { SYS_futex, SYS_futex_wake, SYS_futex_waitv, -1 } },
	.wait_syscalls = { { SYS_futex, SYS_futex_wait, -1, -1 } },
	.match_fd = 5,		/* any nonzero: the record says 1 */
	.wait_end = WAIT_END_SIGNAL_DELIVER,
	.user_only = true,
	.notify_optional = true,
	.new_task = true,
};

static const struct run_config futex_cfg = {
	.workload = &futex_wl,
	.samples = 123456789012ull,
	.interval_us = 250,
	.waker_cpu = 3,
	.wakee_cpu = WP_MAX_CPUS - 1,
	.traced = true,
	.lean = true,
	.ringbuf_bytes = 1u << 22,
	.ringbuf_fixed = true,
};

static const struct run_meta futex_meta = {
	.version = "1.2.3-test",
	.kernel = "6.18.0-rc1",
	.machine = "aarch64",
	.hostname = "a-host-name-of-64-characters-is-the-most-uname-gives-0123456789",
	.nr_cpus = 96,
	.started_unix_ns = 1234567890123456789ull,
};

/* ---------------------------------------------------------------- RUN_BEGIN */

Test(run_recording, a_run_begin_decodes_into_the_run_it_encodes)
{
	struct rec_run_begin b;
	struct run_config cfg;
	struct recorded_workload wl;
	struct run_meta meta;
	uint64_t start = 0;

	run_recording__encode_begin(&futex_cfg, &futex_meta, 987654321, &b);
	cr_assert_eq(b.match_fd, 1);
	memset(&cfg, 0xa5, sizeof(cfg));
	memset(&wl, 0xa5, sizeof(wl));
	memset(&meta, 0xa5, sizeof(meta));
	run_recording__decode_begin(&b, &cfg, &wl, &meta, &start);

	cr_assert_eq(cfg.workload, &wl.desc, "the run's workload is the recorded one");
	cr_assert_eq(wl.desc.name, wl.name);
	cr_assert_eq(wl.desc.summary, wl.summary);
	cr_assert_str_eq(wl.name, futex_wl.name);
	cr_assert_str_eq(wl.summary, futex_wl.summary);
	cr_assert_arr_eq(wl.desc.notify_syscalls.nr, futex_wl.notify_syscalls.nr, sizeof(futex_wl.notify_syscalls.nr));
	cr_assert_arr_eq(wl.desc.wait_syscalls.nr, futex_wl.wait_syscalls.nr, sizeof(futex_wl.wait_syscalls.nr));
	cr_assert_eq(wl.desc.match_fd, 1);
	cr_assert_eq(wl.desc.wait_end, WAIT_END_SIGNAL_DELIVER);
	cr_assert(wl.desc.user_only);
	cr_assert(wl.desc.notify_optional);
	cr_assert(wl.desc.new_task);

	cr_assert_eq(cfg.samples, 123456789012ull);
	cr_assert_eq(cfg.interval_us, 250);
	cr_assert_eq(cfg.waker_cpu, 3);
	cr_assert_eq(cfg.wakee_cpu, WP_MAX_CPUS - 1);
	cr_assert(cfg.traced);
	cr_assert_eq(cfg.ringbuf_bytes, 1u << 22);
	cr_assert(cfg.lean, "version 9 records whether the run was lean");
	cr_assert_not(cfg.ringbuf_fixed, "never recorded");

	cr_assert_str_eq(meta.version, futex_meta.version);
	cr_assert_str_eq(meta.kernel, futex_meta.kernel);
	cr_assert_str_eq(meta.machine, futex_meta.machine);
	cr_assert_str_eq(meta.hostname, futex_meta.hostname);
	cr_assert_eq(meta.nr_cpus, 96);
	cr_assert_eq(meta.started_unix_ns, futex_meta.started_unix_ns);
	cr_assert_eq(start, 987654321);
}

/* a record goes to a file whole: its padding and the bytes after its strings are zeros, not what was there */
Test(run_recording, every_byte_of_a_record_is_written_whatever_was_there)
{
	static struct run_result res;
	struct host_steal h = { .measured = true, .clk_tck = 100, .seen_ns = 77 };
	struct trace_cost c = { .known = true, .bpf_runs = 5 };
	struct rec_run_begin b[2];
	struct rec_run_end e[2];
	struct rec_steal s[2];
	struct rec_cost r[2];

	memset(&res, 0, sizeof(res));
	snprintf(res.workload_exit, sizeof(res.workload_exit), "exited with status 0");
	for (int i = 0; i < 2; i++) {
		int fill = i ? 0xff : 0x00;

		memset(&b[i], fill, sizeof(b[i]));
		memset(&e[i], fill, sizeof(e[i]));
		memset(&s[i], fill, sizeof(s[i]));
		memset(&r[i], fill, sizeof(r[i]));
		run_recording__encode_begin(&futex_cfg, &futex_meta, 1, &b[i]);
		run_recording__encode_end(&res, &e[i]);
		run_recording__encode_steal(&h, &s[i]);
		run_recording__encode_cost(&c, &r[i]);
	}
	cr_assert_eq(memcmp(&b[0], &b[1], sizeof(b[0])), 0, "RUN_BEGIN");
	cr_assert_eq(memcmp(&e[0], &e[1], sizeof(e[0])), 0, "RUN_END");
	cr_assert_eq(memcmp(&s[0], &s[1], sizeof(s[0])), 0, "the steal");
	cr_assert_eq(memcmp(&r[0], &r[1], sizeof(r[0])), 0, "the cost");
}

Test(run_recording, a_name_longer_than_its_room_is_cut_and_terminated)
{
	struct workload_desc long_wl = futex_wl;
	struct run_config cfg = futex_cfg;
	char name[64], summary[200];
	struct rec_run_begin b;
	struct recorded_workload wl;
	struct run_meta meta;
	uint64_t start;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(summary, 's', sizeof(summary) - 1);
	summary[sizeof(summary) - 1] = '\0';
	long_wl.name = name;
	long_wl.summary = summary;
	cfg.workload = &long_wl;
	run_recording__encode_begin(&cfg, &futex_meta, 1, &b);
	cr_assert_eq(strnlen(b.workload, sizeof(b.workload)), REC_NAME_LEN - 1);
	cr_assert_eq(strnlen(b.summary, sizeof(b.summary)), REC_SUMMARY_LEN - 1);
	cr_assert_eq(strncmp(b.workload, name, REC_NAME_LEN - 1), 0, "its beginning is kept");
	run_recording__decode_begin(&b, &cfg, &wl, &meta, &start);
	cr_assert_eq(strlen(wl.desc.name), REC_NAME_LEN - 1);
	cr_assert_eq(strlen(wl.desc.summary), REC_SUMMARY_LEN - 1);
}

/* ---------------------------------------------------------------- RUN_END, the steal and the cost */

/* a run's end with every field set */
static void full_end(struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->trace_end_ns = 5000000000ull;
	res->drops_total = 17;
	res->missed_runs = 4;
	res->samples_sent = 1000;
	res->seq_errors = 2;
	for (int t = 0; t < WP_EV_TYPE_MAX; t++)
		res->counters.dropped[t] = 100 + (uint64_t)t;
	res->counters.tracked_full = 3;
	res->waker_tid = 11;
	res->wakee_tid = 12;
	res->interrupted = true;
	res->stop_signal = SIGINT;
	res->workload_failed = true;
	snprintf(res->workload_exit, sizeof(res->workload_exit), "killed by SIGINT");
	snprintf(res->workload_error, sizeof(res->workload_error), "the workload gave up: no CPU 1023");
	res->steal = (struct host_steal){ .measured = true, .cpus = { 0, 1 }, .clk_tck = 100, .proc_ticks = 9,
					  .proc_start_ticks = 1000, .nr_cpus = 2, .seen_ns = 555 };
	snprintf(res->steal.why_off, sizeof(res->steal.why_off), "%s", "");
	res->cost = (struct trace_cost){ .known = true, .bpf_stats_on = true, .bpf_runs = 4000, .bpf_run_ns = 80000,
					 .bpf_timed_permille = 250, .self_cpu_ns = 123000, .self_cpu_start_ns = 999 };
}

Test(run_recording, a_run_end_decodes_into_the_result_it_encodes)
{
	static struct run_result res, back;
	struct rec_run_end e;

	full_end(&res);
	/* a lean run's: the wakes it wrote no record of, and its flight thresholds at the end */
	res.lean_flight_adaptive = true;
	res.lean = (struct wp_lean_counters){ .woke_running = 21, .wakeup_unpaired = 22, .no_storage = 23 };
	res.lean_flight_ns[WP_SLOW_THREAD] = 60000;
	res.lean_flight_ns[WP_SLOW_SOFTIRQ] = 40000;
	run_recording__encode_end(&res, &e);
	cr_assert_eq(e.bpf_runs, 4000, "versions 1 to 3 kept the programs' figures here: still written");
	cr_assert_eq(e.bpf_run_ns, 80000);
	for (int t = WP_EV_TYPE_MAX; t < WP_EV_TYPE_ROOM; t++)
		cr_assert_eq(e.dropped[t], 0, "room for type %d", t);

	memset(&back, 0, sizeof(back));
	back.meta.nr_cpus = 7;
	back.timed_out = true;
	back.steal.cpus[1] = 5;
	run_recording__decode_end(&e, &back);
	cr_assert_eq(back.trace_end_ns, 5000000000ull);
	cr_assert_eq(back.drops_total, 17);
	cr_assert_eq(back.missed_runs, 4);
	cr_assert_eq(back.samples_sent, 1000);
	cr_assert_eq(back.seq_errors, 2);
	cr_assert_arr_eq(back.counters.dropped, res.counters.dropped, sizeof(res.counters.dropped));
	cr_assert_eq(back.counters.tracked_full, 3);
	cr_assert_eq(back.waker_tid, 11);
	cr_assert_eq(back.wakee_tid, 12);
	cr_assert(back.interrupted);
	cr_assert_eq(back.stop_signal, SIGINT);
	cr_assert(back.workload_failed);
	cr_assert_str_eq(back.workload_exit, "killed by SIGINT");
	cr_assert_str_eq(back.workload_error, "the workload gave up: no CPU 1023");
	cr_assert(back.steal.measured);
	cr_assert_eq(back.steal.clk_tck, 100);
	cr_assert_eq(back.steal.proc_ticks, 9);
	cr_assert_eq(back.steal.nr_cpus, 2);
	cr_assert_str_eq(back.steal.why_off, "");
	cr_assert(back.cost.known);
	cr_assert(back.cost.bpf_stats_on);
	cr_assert_eq(back.cost.bpf_runs, 4000);
	cr_assert_eq(back.cost.bpf_run_ns, 80000);
	cr_assert_eq(back.cost.bpf_timed_permille, 250);
	cr_assert_eq(back.cost.self_cpu_ns, 123000);
	cr_assert(back.lean_flight_adaptive);
	cr_assert_eq(back.lean.woke_running, 21);
	cr_assert_eq(back.lean.wakeup_unpaired, 22);
	cr_assert_eq(back.lean.no_storage, 23);
	cr_assert_eq(back.lean_flight_ns[WP_SLOW_THREAD], 60000);
	cr_assert_eq(back.lean_flight_ns[WP_SLOW_SOFTIRQ], 40000);
	/* what the record does not hold is left as it was */
	cr_assert_eq(back.meta.nr_cpus, 7);
	cr_assert(back.timed_out);
	cr_assert_eq(back.steal.cpus[1], 5);
	cr_assert_eq(back.steal.seen_ns, 0, "the replay counts the steal records itself");
}

Test(run_recording, a_signal_is_written_only_for_a_run_it_interrupted)
{
	static struct run_result res;
	struct rec_run_end e;

	full_end(&res);
	res.stop_signal = SIGTERM;
	run_recording__encode_end(&res, &e);
	cr_assert_eq(e.interrupted, 1);
	cr_assert_eq(e.stop_signal, SIGTERM);
	res.interrupted = false;
	run_recording__encode_end(&res, &e);
	cr_assert_eq(e.interrupted, 0);
	cr_assert_eq(e.stop_signal, 0, "the reader refuses a signal on a run not interrupted");
}

Test(run_recording, the_tids_the_samples_brought_stand_and_the_run_ends_fill_in_for_none)
{
	static struct run_result res, back;
	struct rec_run_end e;

	full_end(&res);
	run_recording__encode_end(&res, &e);
	memset(&back, 0, sizeof(back));
	back.waker_tid = 21;
	back.wakee_tid = 22;
	run_recording__decode_end(&e, &back);
	cr_assert_eq(back.waker_tid, 21);
	cr_assert_eq(back.wakee_tid, 22);
	memset(&back, 0, sizeof(back));
	run_recording__decode_end(&e, &back);
	cr_assert_eq(back.waker_tid, 11);
	cr_assert_eq(back.wakee_tid, 12);
}

/* versions 1 to 3 kept the programs' figures, the benchmark's, in RUN_END itself */
Test(run_recording, a_run_end_without_the_cost_takes_the_programs_figures_from_before_it)
{
	static struct run_result res, back;
	struct rec_run_end e;

	full_end(&res);
	run_recording__encode_end(&res, &e);
	e.bpf_runs = 77;
	e.bpf_run_ns = 7700;
	memset(&back, 0, sizeof(back));
	run_recording__decode_end(&e, &back);
	cr_assert_eq(back.cost.bpf_runs, 4000, "a cost kept is the cost");
	cr_assert_eq(back.cost.bpf_run_ns, 80000);

	memset(&e.cost, 0, sizeof(e.cost));
	run_recording__decode_end(&e, &back);
	cr_assert_not(back.cost.known);
	cr_assert_eq(back.cost.bpf_runs, 77);
	cr_assert_eq(back.cost.bpf_run_ns, 7700);
	cr_assert(back.cost.bpf_stats_on, "runs were counted: the kernel timed them");
	e.bpf_runs = 0;
	e.bpf_run_ns = 0;
	run_recording__decode_end(&e, &back);
	cr_assert_not(back.cost.bpf_stats_on, "no run counted: the kernel did not time them");
}

Test(run_recording, the_steal_keeps_what_was_measured_and_the_replay_keeps_its_cpus_and_its_sum)
{
	struct host_steal h = { .measured = false, .cpus = { 2, 3 }, .clk_tck = 250, .proc_ticks = 31,
				.proc_start_ticks = 4000, .nr_cpus = 2, .seen_ns = 8000 };
	struct host_steal back = { .cpus = { HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS }, .seen_ns = 12345 };
	struct rec_steal s;

	snprintf(h.why_off, sizeof(h.why_off), "the steal clock failed its check on CPU 3");
	run_recording__encode_steal(&h, &s);
	cr_assert_eq(s.known, 1);
	cr_assert_eq(s.measured, 0);
	cr_assert_eq(s.proc_ticks, 31);
	cr_assert_eq(s.clk_tck, 250);
	cr_assert_eq(s.nr_cpus, 2);
	cr_assert_str_eq(s.why_off, h.why_off);
	run_recording__decode_steal(&s, &back);
	cr_assert_not(back.measured);
	cr_assert_eq(back.proc_ticks, 31);
	cr_assert_eq(back.clk_tck, 250);
	cr_assert_eq(back.nr_cpus, 2);
	cr_assert_str_eq(back.why_off, "the steal clock failed its check on CPU 3");
	cr_assert_eq(back.cpus[0], HOST_STEAL_ALL_CPUS, "the replay's CPUs are its own");
	cr_assert_eq(back.seen_ns, 12345, "and so is what the records add up to");
	cr_assert_eq(back.proc_start_ticks, 0);

	s.known = 0;
	run_recording__decode_steal(&s, &back);
	cr_assert_str_eq(back.why_off, "recorded by a wakeprobe that did not read it");
}

Test(run_recording, the_cost_decodes_into_the_cost_it_encodes)
{
	struct trace_cost c = { .known = true, .bpf_stats_on = false, .bpf_runs = 0xfedcba9876543210ull,
				.bpf_run_ns = 1ull << 40, .bpf_timed_permille = 1000, .self_cpu_ns = 42,
				.self_cpu_start_ns = 99 };
	struct trace_cost back;
	struct rec_cost r;

	snprintf(c.bpf_stats_why_off, sizeof(c.bpf_stats_why_off), "kernel.bpf_stats_enabled: Operation not permitted");
	run_recording__encode_cost(&c, &r);
	memset(&back, 0xa5, sizeof(back));
	run_recording__decode_cost(&r, &back);
	cr_assert(back.known);
	cr_assert_not(back.bpf_stats_on);
	cr_assert_eq(back.bpf_runs, 0xfedcba9876543210ull);
	cr_assert_eq(back.bpf_run_ns, 1ull << 40);
	cr_assert_eq(back.bpf_timed_permille, 1000);
	cr_assert_eq(back.self_cpu_ns, 42);
	cr_assert_eq(back.self_cpu_start_ns, 0, "a live run's own: not recorded");
	cr_assert_str_eq(back.bpf_stats_why_off, c.bpf_stats_why_off);
}

/* ---------------------------------------------------------------- the tap */

Test(run_recording, the_tap_writes_each_input_as_the_record_that_replays_it)
{
	static struct run_result res;
	struct buf file = { 0 };
	FILE *f = open_memstream(&file.data, &file.len);
	struct recorder *w;
	const struct analysis_tap *tap = &run_recording_tap;
	struct tsc_pair pair = { .tsc = 7777777, .mono_ns = 3333, .width = 24 };
	struct wp_event e = ev_waker_syscall(4000, 0, 11, 10, 12, SYS_futex, 0x7f00, 1, 3900);
	struct wp_sample s = { .seq = 1, .tsc_notify = 10, .tsc_woken = 20, .waker_tid = 11, .wakee_tid = 12,
			       .waker_cpu = 3, .wakee_cpu = 1, .value = 1, .tsc_wait_start = 5 };
	struct rec_run_begin want_b;
	struct rec_run_end want_e;
	struct rec_reader *r = NULL;
	struct rec_record rec;
	char msg[256] = "";
	static const enum rec_type want[] = { REC_RUN_BEGIN, REC_CLOCK_PAIR, REC_EVENT, REC_SAMPLE, REC_FDS,
					      REC_ADVANCE, REC_RUN_END };
	size_t i = 0;
	int err;

	cr_assert_not_null(f);
	full_end(&res);
	res.meta = futex_meta;
	res.trace_start_ns = 1000;
	w = recorder__new(f);
	tap->begin(w, &futex_cfg, &res);
	tap->clock_pair(w, &pair);
	tap->event(w, &e);
	tap->sample(w, &s, 4100, 4500, 3950);
	tap->fds(w, -1, 9);
	tap->advance(w, 6000, 3);
	tap->end(w, &res);
	cr_assert_eq(recorder__finish(w), 0);
	fclose(f);
	run_recording__encode_begin(&futex_cfg, &futex_meta, 1000, &want_b);
	run_recording__encode_end(&res, &want_e);

	f = fmemopen(file.data, file.len, "rb");
	cr_assert_eq(rec_reader__open(&r, f, msg, sizeof(msg)), 0, "%s", msg);
	while ((err = rec_reader__next(r, &rec, msg, sizeof(msg))) > 0) {
		cr_assert_lt(i, sizeof(want) / sizeof(want[0]));
		cr_assert_eq(rec.type, want[i], "record %zu is %s", i, recording__type_name(rec.type));
		switch (rec.type) {
		case REC_RUN_BEGIN:
			cr_assert_eq(memcmp(&rec.run_begin, &want_b, sizeof(want_b)), 0);
			break;
		case REC_CLOCK_PAIR:
			cr_assert_eq(rec.clock_pair.tsc, 7777777);
			cr_assert_eq(rec.clock_pair.mono_ns, 3333);
			cr_assert_eq(rec.clock_pair.width, 24);
			break;
		case REC_EVENT:
			cr_assert_eq(memcmp(&rec.event, &e, sizeof(e)), 0);
			break;
		case REC_SAMPLE:
			cr_assert_eq(memcmp(&rec.sample.sample, &s, sizeof(s)), 0);
			cr_assert_eq(rec.sample.t_notify_ns, 4100);
			cr_assert_eq(rec.sample.t_woken_ns, 4500);
			cr_assert_eq(rec.sample.t_wait_start_ns, 3950);
			break;
		case REC_FDS:
			cr_assert_eq(rec.fds.notify_fd, -1);
			cr_assert_eq(rec.fds.wait_fd, 9);
			break;
		case REC_ADVANCE:
			cr_assert_eq(rec.advance.complete_ns, 6000);
			cr_assert_eq(rec.advance.drops, 3);
			break;
		case REC_RUN_END:
			cr_assert_eq(memcmp(&rec.run_end, &want_e, sizeof(want_e)), 0);
			break;
		default:
			break;
		}
		i++;
	}
	cr_assert_eq(err, 0, "%s", msg);
	cr_assert_eq(i, sizeof(want) / sizeof(want[0]));
	rec_reader__free(r);
	fclose(f);
	free(file.data);
}
