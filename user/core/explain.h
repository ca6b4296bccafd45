/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why a wakeup took as long as it did.
 *
 * Each phase of a complete sample is bound to one CPU: the notify phases to
 * the waker's, the rest to the CPU the wakee was woken onto. Replaying the
 * kernel events of that CPU over the phase (tasks switched in and out,
 * interrupt handlers, idle) splits the phase into intervals, and each
 * interval gets the one cause that held the CPU then. Where several apply,
 * the innermost wins: an interrupt over the task it interrupted, a task over
 * the idle state. What no event covers is unexplained, never spread over
 * the others, so the causes and the unexplained rest of a phase add up to it.
 *
 * Pure code: it sees the events the merger hands it and nothing else.
 */
#ifndef WAKEPROBE_EXPLAIN_H
#define WAKEPROBE_EXPLAIN_H

#include <stddef.h>
#include "wakeup.h"

/*
 * explain__sample - attribute a complete, phased sample's time to causes,
 * from @evs: the events between its t_notify and t_woken in time order
 * (earlier ones are ignored).
 */
void explain__sample(struct explanation *x, const struct sample_result *r, const struct wp_event *evs, size_t n);

/* which of a lean wakeup's phases its flight records reach (bpf/flight.bpf.h) */
#define EXPLAIN_REACH_WAKE	(1u << 0)	/* @cpu's from the waking to the switch-in: wake_enqueue, runq_wait */
#define EXPLAIN_REACH_NOTIFY	(1u << 1)	/* the waker's CPU's from the notify on: notify_user, notify_kernel */
#define EXPLAIN_REACH_RESUME	(1u << 2)	/* @cpu's from the switch-in to the wait's exit: resume_kernel */
/* the waker's CPU's steal over a wake_enqueue it did itself: the rest was its own work */
#define EXPLAIN_REACH_ENQUEUE	(1u << 3)

/*
 * explain__sample_lean - the same from the lean engine's flight records of @cpu,
 * the CPU that switched the wakee in, and of the waker's CPU, which reach
 * the phases @reach says (EXPLAIN_REACH_*), and a wake_enqueue the waker
 * did on its own CPU, another, when its STEAL record stamped at the wakeup
 * came (enqueue_steal_of()): those before t_notify only set
 * what the wakee's CPU ran and whether it idled. As no interrupt is
 * traced, none is assumed (no ipi_in_flight). Only the phases reached, on
 * the CPU the records are of, are split by cause; every other, which no
 * flight record reaches, is all unexplained.
 */
void explain__sample_lean(struct explanation *x, const struct sample_result *r, const struct wp_event *evs,
			  size_t n, uint32_t cpu, unsigned int reach);

/*
 * explain__describe_interval - one cause interval as a person reads it, named
 * from its events, into @buf: "'wp-hog' pid 12 prio 120 ran on CPU 1 (then preempted)"
 */
void explain__describe_interval(const struct interval *iv, char *buf, size_t len);
/*
 * explain__phase_parts - the named causes of phase @k into @parts (room for
 * EXPLAIN_MAX_INTERVALS), longest first, as the reports list them; how many.
 * explain__sample() already summed a cause from one source into one entry.
 */
size_t explain__phase_parts(const struct explanation *x, int k, const struct interval **parts);
/* explain__phase_cpu - the CPU phase @k of @r is bound to: the waker's for the notify, else the target */
uint32_t explain__phase_cpu(const struct sample_result *r, int k);

#endif /* WAKEPROBE_EXPLAIN_H */
