/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_lean.h - attach mode's wakeups from the lean engine's records.
 *
 * The BPF side pairs each wakeup of a tracked thread in the kernel and
 * writes one WP_EV_LEAN record when the thread is switched in (or, when
 * that switch-in went untraced, at its next switch-out), right after a
 * WP_LEAN_NAMES record in the same ring record (the waker's syscall and
 * the wait, read from registers), and a WP_LEAN_NAME record for each task
 * it names (bpf/wakeprobe.h). Each record is a whole
 * wakeup, so there is no state machine and no window: a record becomes one
 * struct attach_result as it arrives, in the words of the full engine
 * (attach.h), for the same aggregate and reports. What the lean engine does not
 * trace is said there: no syscall, so notify_kernel and resume_kernel are
 * absent as the full engine has them untimed (ATTACH_ABSENT_UNTIMED, or why
 * there is no syscall), the mechanism named from both ends,
 * and no explanation but for a slow wakeup (--threshold-us): its record
 * comes right after the flight records of its CPU it brought, and those
 * split its wake_enqueue and runq_wait there (explain__sample_lean()). A
 * record lost to a full ring is a wakeup not seen: the drop counter says
 * how many.
 */
#ifndef WAKEPROBE_ATTACH_LEAN_H
#define WAKEPROBE_ATTACH_LEAN_H

#include "attach_result.h"

struct attach_lean;

/* @cfg: what an fd is (attach.h), asked as each wakeup comes; NULL: every fd is FD_KIND_UNKNOWN */
struct attach_lean *attach_lean__new(const struct attach_config *cfg, attach_result_fn fn, void *ctx);
void attach_lean__free(struct attach_lean *l);
/* a kernel record, in ring-buffer order */
void attach_lean__add_event(struct attach_lean *l, const struct wp_event *e);
/* the BPF side's drop counter, read after a drain */
void attach_lean__note_drops(struct attach_lean *l, uint64_t drops);
/* attach_lean__add_summed - @wakeups summed in the kernel, @new_threads of them starts, counted as results */
void attach_lean__add_summed(struct attach_lean *l, uint64_t wakeups, uint64_t new_threads);
/* attach mode's counters, as many as the lean engine keeps (events, drops, results, threads named) */
const struct attach_counters *attach_lean__counters(const struct attach_lean *l);

#endif /* WAKEPROBE_ATTACH_LEAN_H */
