/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recording.h - the wakeprobe record file, its format: everything the analysis of a run
 * takes in, in the order it took it in, so that `wakeprobe report` can run
 * the same merge, attribution and report offline.
 *
 * docs/recording.md describes the format. In short: a 16-byte file header
 * (magic, version, header size), then records of an 8-byte header (type,
 * flags, payload length) and a payload of a fixed size per type. One file
 * holds one run or several (--workload all), each from RUN_BEGIN to RUN_END,
 * or (version 3) one run of attach mode, from ATTACH_BEGIN to ATTACH_END.
 * Version 4 gave meaning to two bytes that were padding: wp_wake.flags
 * (WP_WAKE_NEW) in an EVENT and new_task in RUN_BEGIN; the reader clears
 * the first in older files, where the BPF side left it unset. It also
 * brought the WP_EV_STEAL event. Version 7 did the same for wp_waker.flags,
 * wp_block.flags and syscalls_untimed in ATTACH_BEGIN: an attach run that
 * named its syscalls from the registers, without timing them. Version 11
 * made the kernel say what an fd is: wp_waker.fd_kind (irq_kind's byte for
 * a syscall waker), wp_block.fd_kind (padding before) and the fd kinds of
 * wp_lean_names, whose syscall numbers became 16 bits; an older run's
 * answers from /proc are still its FD_KIND records.
 * Integers are little-endian (x86, arm64): a big-endian reader sees a
 * version it does not know. The magic's CR LF and ^Z catch a copy that
 * mangled line ends.
 */
#ifndef WAKEPROBE_RECORDING_H
#define WAKEPROBE_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "sample_ring.h"
#include "syscall_list.h"
#include "tsc_clock.h"
#include "wakeprobe.h"

#define REC_MAGIC		"WPREC\r\n\032"	/* 8 bytes, no terminating NUL in the file */
#define REC_VERSION		12		/* what this wakeprobe writes */
#define REC_OLDEST_VERSION	1		/* the oldest it still reads */
#define REC_FILE_HEADER_SIZE	16
#define REC_MAX_PAYLOAD		4096		/* larger than any record, so a bad length is caught */

enum rec_type {
	REC_RUN_BEGIN = 1,	/* the workload, its options, the machine */
	REC_CLOCK_PAIR,		/* a (TSC, CLOCK_MONOTONIC) pair added to the clock fit */
	REC_EVENT,		/* a kernel event, as the BPF side wrote it */
	REC_SAMPLE,		/* a workload sample, with its TSC stamps mapped to CLOCK_MONOTONIC */
	REC_FDS,		/* the fds the path's syscalls use, once the workload told them */
	REC_ADVANCE,		/* the event stream was complete up to this time, the drop count then */
	REC_RUN_END,		/* how the run ended, and the BPF side's counters */
	/* version 3: attach mode */
	REC_ATTACH_BEGIN,	/* what was traced (--pid or -- COMMAND), the machine */
	REC_FD_KIND,		/* what an fd was, as the live lookup answered */
	REC_ATTACH_END,		/* how the attach run ended, and the BPF side's counters */
	REC_TYPE_MAX,
};

struct rec_file_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
};

struct rec_header {
	uint16_t type;		/* enum rec_type */
	uint16_t flags;		/* 0: none defined in version 1 */
	uint32_t length;	/* payload bytes that follow */
};

#define REC_NAME_LEN		32
#define REC_SUMMARY_LEN		96
#define REC_UTS_LEN		65

struct rec_run_begin {
	/* the path, as the catalog that measured it described it */
	char workload[REC_NAME_LEN];
	char summary[REC_SUMMARY_LEN];
	struct syscall_list notify_syscalls;		/* -1 ends a shorter list */
	struct syscall_list wait_syscalls;
	uint32_t wait_end;				/* enum wait_end */
	uint8_t match_fd;
	uint8_t user_only;
	uint8_t notify_optional;
	uint8_t traced;
	/* the options of the run */
	uint64_t samples;
	uint64_t interval_us;
	int32_t waker_cpu;
	int32_t wakee_cpu;
	uint32_t ringbuf_bytes;
	uint32_t nr_cpus;
	/* the machine */
	char version[16];
	char kernel[REC_UTS_LEN];
	char machine[REC_UTS_LEN];
	char hostname[REC_UTS_LEN];
	uint8_t new_task;				/* version 4: the notify makes the wakee */
	uint8_t flags;					/* version 9: REC_RUN_*; before, 0 */
	char __pad[3];
	uint64_t started_unix_ns;
	uint64_t trace_start_ns;			/* CLOCK_MONOTONIC: the window opens */
};

/* rec_run_begin.flags */
#define REC_RUN_LEAN		(1 << 0)	/* version 9: the lean engine's records */
#define REC_RUN_FLAGS_V9	REC_RUN_LEAN

struct rec_clock_pair {
	uint64_t tsc;
	uint64_t mono_ns;
	uint32_t width;
	uint32_t __pad;
};

struct rec_sample {
	struct wp_sample sample;
	uint64_t t_notify_ns;
	uint64_t t_woken_ns;
	uint64_t t_wait_start_ns;
};

struct rec_fds {
	int32_t notify_fd;
	int32_t wait_fd;
};

struct rec_advance {
	uint64_t complete_ns;
	uint64_t drops;		/* the BPF side's drop counter, read after the drain */
};

#define REC_EXIT_LEN	96
#define REC_ERROR_LEN	192

/*
 * Version 4: the host's steal over a run (host_steal.h), at the end of
 * RUN_END and ATTACH_END; zero in older files, which the reader says.
 */
#define REC_STEAL_WHY_LEN	128

struct rec_steal {
	uint64_t proc_ticks;		/* /proc/stat's steal on the run's CPUs over the run */
	uint32_t clk_tck;		/* its unit, USER_HZ; 0: not read */
	uint8_t measured;		/* the steal clock was read */
	uint8_t known;			/* 0: recorded before wakeprobe looked at steal */
	char __pad[2];
	uint32_t nr_cpus;		/* how many CPUs proc_ticks sums */
	uint32_t __pad2;
	char why_off[REC_STEAL_WHY_LEN];
};

/* Version 4: what tracing cost (trace_cost.h), likewise at the end of RUN_END and ATTACH_END */
struct rec_cost {
	uint64_t bpf_runs;		/* the kernel's count, with bpf_stats_on */
	uint64_t bpf_run_ns;
	uint64_t self_cpu_ns;		/* wakeprobe's own CPU time while it traced */
	uint8_t known;			/* 0: recorded before wakeprobe kept it */
	uint8_t bpf_stats_on;
	uint16_t bpf_timed_permille;	/* version 5; before it the kernel timed every run: 1000 on reading */
	char __pad[4];
	char bpf_stats_why_off[96];
};

/* the lean engine: the wakes that wrote no record, and the flight thresholds at the end (0: no recorder) */
struct rec_lean {
	uint64_t woke_running;
	uint64_t wakeup_unpaired;
	uint64_t no_storage;
	uint64_t flight_ns[WP_SLOW_KINDS];
};

struct rec_run_end {
	uint64_t trace_end_ns;
	uint64_t drops_total;
	uint64_t missed_runs;
	uint64_t bpf_runs;
	uint64_t bpf_run_ns;
	uint64_t samples_sent;
	uint64_t seq_errors;
	/*
	 * struct wp_counters, by event type, with room for types to come.
	 * Version 1 had WP_EV_TYPE_MAX (then 12) counters; the reader widens
	 * its RUN_END to this layout.
	 */
	uint64_t dropped[WP_EV_TYPE_ROOM];
	uint64_t tracked_full;
	uint32_t waker_tid;
	uint32_t wakee_tid;
	uint8_t interrupted;
	uint8_t workload_failed;
	uint8_t stop_signal;		/* version 6: the signal that interrupted the run; before, 0 */
	uint8_t lean_adaptive;		/* version 9: lean, its flight threshold the running p99; before, 0 */
	char __pad[4];
	char workload_exit[REC_EXIT_LEN];
	char workload_error[REC_ERROR_LEN];
	/* version 4; its cost repeats bpf_runs and bpf_run_ns above, where versions 1-3 kept them */
	struct rec_steal steal;
	struct rec_cost cost;
	struct rec_lean lean;			/* version 9; before, 0 */
};

/* --pid names at most this many processes (OPT_MAX_TARGETS) */
#define REC_MAX_PIDS		64
#define REC_ARGS_LEN		3072

struct rec_attach_begin {
	/* what was traced: the --pid processes, or the command */
	uint32_t nr_pids;
	int32_t pids[REC_MAX_PIDS];
	uint32_t nr_args;		/* the command's argument count, its name too; 0 with --pid */
	uint32_t nr_args_kept;		/* ... of them in args[], whole and in order */
	/* the options of the run */
	uint32_t ringbuf_bytes;
	uint64_t duration_ms;		/* 0: none */
	uint64_t timeout_ms;
	/* the machine */
	uint64_t started_unix_ns;
	uint64_t trace_start_ns;	/* CLOCK_MONOTONIC: the BPF side is attached */
	uint32_t nr_cpus;
	char version[16];
	char kernel[REC_UTS_LEN];
	char machine[REC_UTS_LEN];
	char hostname[REC_UTS_LEN];
	uint8_t flags;			/* REC_ATTACH_*; before version 7, 0 */
	char args[REC_ARGS_LEN];	/* nr_args_kept strings, each NUL-terminated; zeros after */
};

/* rec_attach_begin.flags */
#define REC_ATTACH_UNTIMED	(1 << 0)	/* version 7: run without --syscall-phases */
#define REC_ATTACH_LEAN		(1 << 1)	/* version 8: the lean engine's records */
#define REC_ATTACH_ADAPTIVE	(1 << 2)	/* version 8: lean, its flight threshold the running p99 */
#define REC_ATTACH_FLAGS_V7	REC_ATTACH_UNTIMED
#define REC_ATTACH_SOFTIRQS	(1 << 3)	/* version 10: lean, its flight recorder keeping softirqs */
#define REC_ATTACH_FLAGS_V8	(REC_ATTACH_UNTIMED | REC_ATTACH_LEAN | REC_ATTACH_ADAPTIVE)
#define REC_ATTACH_FLAGS_V10	(REC_ATTACH_FLAGS_V8 | REC_ATTACH_SOFTIRQS)
#define REC_ATTACH_CHAINS	(1 << 4)	/* version 12: --chains: lean, each wakeup's links in its EVENTs; full, from the stream */
#define REC_ATTACH_FLAGS_V12	(REC_ATTACH_FLAGS_V10 | REC_ATTACH_CHAINS)

/*
 * What the fd lookup answered, written when it was asked: before the
 * EVENT, ADVANCE or ATTACH_END whose analysis asked it, which is written
 * once the analysis took it in.
 */
struct rec_fd_kind {
	uint32_t tgid;
	int32_t fd;
	uint32_t kind;			/* enum fd_kind */
};

struct rec_attach_end {
	uint64_t trace_end_ns;
	uint64_t drops_total;
	uint64_t missed_runs;
	uint64_t dropped[WP_EV_TYPE_ROOM];	/* struct wp_counters, as in RUN_END */
	uint64_t tracked_full;
	int32_t command_pid;		/* 0: --pid, no command */
	int32_t command_status;		/* its waitpid() status */
	uint32_t targets_exited;	/* --pid targets gone by the end */
	uint8_t command_exited;		/* on its own, before the run ended */
	uint8_t interrupted;		/* Ctrl-C */
	uint8_t timed_out;		/* --timeout */
	uint8_t duration_reached;	/* --duration */
	char command_exit[REC_EXIT_LEN];	/* "exited with status 0", "killed by SIGTERM" */
	struct rec_steal steal;			/* version 4 */
	struct rec_cost cost;			/* version 4 */
	uint8_t stop_signal;			/* version 6: the signal that interrupted the run */
	uint8_t __pad[3];
	uint32_t others_stopped;		/* version 6: the command's processes stopped with it */
	struct rec_lean lean;			/* version 8; before, 0 */
	uint32_t descendants;			/* version 9: --pid, the processes descending from the targets */
	uint32_t __pad4;
};

/* one record as read back: its place in the file and its payload */
struct rec_record {
	uint64_t offset;		/* of the record header, from the start of the file */
	enum rec_type type;
	union {
		struct rec_run_begin run_begin;
		struct rec_clock_pair clock_pair;
		struct wp_event event;
		struct rec_sample sample;
		struct rec_fds fds;
		struct rec_advance advance;
		struct rec_run_end run_end;
		struct rec_attach_begin attach_begin;
		struct rec_fd_kind fd_kind;
		struct rec_attach_end attach_end;
	};
};

/* recording__type_name - "RUN_BEGIN", ...: a record type as messages name it */
const char *recording__type_name(enum rec_type t);
/*
 * recording__payload_size - the one payload size a record of type @t has in
 * a file of format @version; 0 for no such type, in that version or at all
 */
uint32_t recording__payload_size(uint32_t version, enum rec_type t);

#endif /* WAKEPROBE_RECORDING_H */
