/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_hops.h - what a chain's hops are told of each waker's own wakeup:
 * where that wakeup's waking to its switch-in went, by cause (explain.h),
 * and the task that held the waker's CPU the longest then; and, with
 * --stacks, where its own waker was when it woke it, which are the next
 * hop's stacks. The engines remember each wakeup by the waking that began
 * it; a chain's links lead back from the wakee's waking to each waker's
 * own waking, the very stamp its wakeup had, and a hop whose waking is
 * remembered gets what was remembered of it.
 *
 * Two wakeups are kept a thread, its last, in a table of CHAIN_HOPS_KEPT
 * places by tid: a hop whose wakeup is gone from it (another thread took
 * the place, or its waker was woken twice more before the chain was read)
 * is told nothing, and nothing wrong.
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

/*
 * chain_hops__remember - wakeup @sr of @tid, woken at @waking_ns: its
 * explanation where it has one (@explained), its stacks where it has them
 */
void chain_hops__remember(struct chain_hops *h, uint32_t tid, uint64_t waking_ns, const struct sample_result *sr,
			  bool explained);

/*
 * chain_hops__explain - each hop of @c, assembled from @links of a wakeup
 * woken at @waking_ns, whose waker's own wakeup was remembered, with its
 * explanation; and the hop after it with that wakeup's waker's stacks
 */
void chain_hops__explain(const struct chain_hops *h, const struct wp_lean_link *links, uint64_t waking_ns,
			 struct chain *c);

#endif /* WAKEPROBE_CHAIN_HOPS_H */
