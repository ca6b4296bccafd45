/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_hops.h - what a chain's hops are told of each waker's own wakeup:
 * where that wakeup's waking to its switch-in went, by cause (explain.h),
 * and the task that held the waker's CPU the longest then. Both engines
 * remember each wakeup they explain, by the waking that began it; a chain's
 * links lead back from the wakee's waking to each waker's own waking, the
 * very stamp its wakeup had, and a hop whose waking is remembered gets
 * that explanation.
 *
 * One wakeup is kept a thread, the last, in a table of CHAIN_HOPS_KEPT by
 * tid: a thread whose place another took is not explained in a chain, and
 * says nothing wrong.
 *
 * Pure code: memory.
 */
#ifndef WAKEPROBE_CHAIN_HOPS_H
#define WAKEPROBE_CHAIN_HOPS_H

#include <stdint.h>
#include "chain.h"
#include "wakeup.h"

#define CHAIN_HOPS_KEPT	8192

struct chain_hops;

struct chain_hops *chain_hops__new(void);
void chain_hops__free(struct chain_hops *h);

/* chain_hops__remember - wakeup @sr of @tid, woken at @waking_ns, was explained */
void chain_hops__remember(struct chain_hops *h, uint32_t tid, uint64_t waking_ns, const struct sample_result *sr);

/*
 * chain_hops__explain - each hop of @c, assembled from @links of a wakeup
 * woken at @waking_ns, whose waker's own wakeup was remembered, with its
 * explanation
 */
void chain_hops__explain(const struct chain_hops *h, const struct wp_lean_link *links, uint64_t waking_ns,
			 struct chain *c);

#endif /* WAKEPROBE_CHAIN_HOPS_H */
