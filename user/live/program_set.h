/* SPDX-License-Identifier: GPL-2.0 */
/*
 * program_set.h - which of the BPF side's programs a run loads, set on
 * its skeleton before the load, and what they record once loaded.
 *
 * A mode is a set of programs (the workload's or attach mode's, the full
 * engine's or the lean engine's) and the read-only settings that go with it,
 * fixed at load so that the verifier prunes every branch the run never
 * takes; a program not loaded costs nothing. After the load, the tables in
 * the programs' data say which syscalls' entries and exits they record.
 * collector.c opens the skeleton and calls these; the benchmark mirrors
 * the workload mode's programs through them.
 */
#ifndef WAKEPROBE_PROGRAM_SET_H
#define WAKEPROBE_PROGRAM_SET_H

#include <stdbool.h>
#include <linux/types.h>
#include "syscall_list.h"
#include "wakeprobe.h"

struct wakeprobe_bpf;

/*
 * program_set__mode - attach mode or not, in @skel's rodata, and so which
 * programs load (attach mode's own, the hrtimer expiry, only with
 * @attach; with @lean, the lean programs and the fork tracker alone)
 */
void program_set__mode(struct wakeprobe_bpf *skel, bool attach, bool lean);
/* program_set__lean_chains - attach mode's full engine with --chains: the lean engine's links beside it */
void program_set__lean_chains(struct wakeprobe_bpf *skel);
/* program_set__syscall_phases - attach mode's full engine: programs on syscalls, or none (@on false) */
void program_set__syscall_phases(struct wakeprobe_bpf *skel, bool on);
/* program_set__flight_evidence - the lean engine: the flight recorder's interrupt and idle programs (@on), softirqs' too */
void program_set__flight_evidence(struct wakeprobe_bpf *skel, bool on, bool softirqs);
/* program_set__lean_syscalls - the lean engine: a workload's syscall programs (@on), its wait ending at a signal */
void program_set__lean_syscalls(struct wakeprobe_bpf *skel, bool on, bool at_signal);

/*
 * program_set__want_syscalls - set @end (WP_SYSCALL_*) in @wanted, a BPF
 * side's table by syscall number, for each syscall of @list
 */
void program_set__want_syscalls(__u8 wanted[WP_MAX_SYSCALLS], const struct syscall_list *list, __u8 end);

#endif /* WAKEPROBE_PROGRAM_SET_H */
