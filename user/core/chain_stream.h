/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_stream.h - the links of each wakeup's chain, built again in user
 * space from the full engine's stream of records, by the rules the lean
 * engine's kernel side follows (bpf/chain.bpf.h): a second implementation
 * of the same links, from other evidence.
 *
 * Each task seen keeps how it last came to run, as the kernel's storage
 * does: its last sleep, its switch-in after its last wakeup (the waking
 * to that switch-in, the CPU and the task it took the CPU from), the time
 * it has sat preempted since, and the links that brought it. A WAKER
 * record names who runs the WAKING after it on the same CPU; at the
 * WAKING the wakee takes a link of its own and its waker's links after
 * it, WP_CHAIN_LINKS at most; at its switch-in they are its own. The
 * links come out in struct wp_lean_link, the kernel's own form, so that
 * core/chain.c assembles both alike and the two can be compared link by
 * link.
 *
 * Where the stream cannot say what the kernel reads for itself:
 * - a task is traced when a record of the stream says so: a wakee, a
 *   waker the WAKER record calls a tracked process's thread, a task that
 *   left its CPU asleep with a BLOCK; a task that raised the softirq that
 *   wakes and is none of these is taken as not traced;
 * - a task of unknown state (nothing seen of it but its waking) is taken
 *   as asleep, off its CPU, as most are when tracing begins;
 * - a WAKING with no WAKER before it (lost, or a recording from before
 *   attach mode wrote them) makes an UNSURE link.
 *
 * Pure code: memory and records.
 */
#ifndef WAKEPROBE_CHAIN_STREAM_H
#define WAKEPROBE_CHAIN_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

/* the tasks a stream follows at once, at most: one more makes a link that cannot be told (counted) */
#define CHAIN_STREAM_MAX_TASKS	(1u << 16)

struct chain_stream;

struct chain_stream_counters {
	uint64_t wakeups;	/* wakeups whose links were put together at their switch-in */
	uint64_t no_waker;	/* wakings with no WAKER record before them: UNSURE links */
	uint64_t full;		/* tasks not followed: the table was full */
};

struct chain_stream *chain_stream__new(void);
void chain_stream__free(struct chain_stream *cs);

/* chain_stream__add - the stream's next record, in time order (the full engine's replay) */
void chain_stream__add(struct chain_stream *cs, const struct wp_event *e);

/*
 * chain_stream__links - the links of @tid's wakeup whose waking was
 * stamped @waking_ns, the last one to have come to run, into @links;
 * returns how many (link 0 first), 0 when that wakeup's are not known
 */
uint32_t chain_stream__links(const struct chain_stream *cs, uint32_t tid, uint64_t waking_ns,
			     struct wp_lean_link links[WP_CHAIN_LINKS]);

const struct chain_stream_counters *chain_stream__counters(const struct chain_stream *cs);

#endif /* WAKEPROBE_CHAIN_STREAM_H */
