/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach.h - every wakeup of a tracked thread, from kernel records alone.
 *
 * In attach mode wakeprobe traces a program it did not start: there are no
 * stamps inside the program, so a wakeup is bounded by kernel events only.
 * The engine is fed the BPF side's records (struct wp_event) one by one, in
 * ring-buffer order, which is nearly but not exactly time order; they wait
 * in an event window (event_window.h) until attach__advance() says the
 * stream is complete up to a time, and are then replayed in time order
 * through one state machine per thread. Every wakeup of a tracked thread
 * comes out as one struct attach_result (attach_result.h): who woke it
 * (waker class, thread, process, irq), the wait it ended (the syscall the
 * wakee slept in), the marks seen, the kernel phases with, for each,
 * whether it is present and why not, a label, and the mechanism named
 * from both ends (mechanism.h).
 *
 *	waker syscall entry -> sched_waking -> sched_wakeup -> switch-in -> wait syscall exit
 *	   notify_kernel      wake_enqueue       runq_wait      resume_kernel
 *
 * What each record means, and what the rules below rest on, is the input
 * contract of bpf/wakeprobe.h (struct wp_waker, struct wp_block).
 *
 * Bounds: the threads known at once (ATTACH_MAX_THREADS; past it the one
 * seen least recently is forgotten, counted), the event window's (pruned at
 * every attach__advance()), and a fixed per-CPU table. Nothing grows with
 * the length of the run.
 *
 * Pure code: no BPF, no /proc. What an fd is the records say (the kernel
 * side's wp_waker.fd_kind, wp_block.fd_kind); for records that do not (a
 * recording older than format 11), the caller's fd_kind callback.
 */
#ifndef WAKEPROBE_ATTACH_H
#define WAKEPROBE_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "attach_result.h"
#include "wakeprobe.h"

/*
 * threads whose state is kept at once: about 500 bytes each, in a table kept
 * at most half full that grows as they come (15 MiB at the bound)
 */
#define ATTACH_MAX_THREADS	16384

/*
 * How far back the event window keeps the records of a wakeup still open,
 * for its explanation: a wakeup longer than this has the part before it
 * unexplained (counted in explained_cut).
 */
#define ATTACH_EXPLAIN_KEEP_NS	(250ull * 1000 * 1000)

struct attach;

struct attach *attach__new(const struct attach_config *cfg, attach_result_fn fn, void *ctx);
void attach__free(struct attach *a);

void attach__add_event(struct attach *a, const struct wp_event *e);
/*
 * attach__note_drops - the BPF side's drop counter, read once the ring
 * buffer was drained (event_window__note_drops()). Call it before
 * attach__advance(), as merger__note_drops().
 */
void attach__note_drops(struct attach *a, uint64_t drops);
/* every record stamped before @complete_ns has been added: replay them, hand over the wakeups they end */
void attach__advance(struct attach *a, uint64_t complete_ns);
/*
 * attach__finish - the stream is over; @final_drops is the BPF side's drop
 * counter at the end. Every wakeup still open is handed over: lost_events
 * when drops reach it, out_of_window otherwise (tracing stopped first).
 */
void attach__finish(struct attach *a, uint64_t final_drops);

const struct attach_counters *attach__counters(const struct attach *a);

#endif /* WAKEPROBE_ATTACH_H */
