/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_check.h - one run's chains built twice, and held one against the
 * other. With --chains the full engine builds each wakeup's chain from its
 * stream (chain_stream.h) while the lean engine's programs, loaded beside
 * it, carry the kernel's links of the same wakeups in their records. The
 * kernel's come first (a lean record is whole at its wakee's switch-in, the
 * full engine hands a wakeup over once the stream is complete past it),
 * and wait in their wakee's ring, in the order of their wakings; each chain
 * the stream gives is matched with the first of its wakee's whose waking is
 * within CHAIN_CHECK_WINDOW_NS of its own (each engine stamps the waking
 * with a clock read of its own), those before it let go. The two are the
 * same when they are hop for hop: as many hops, each of the
 * same kind, by the same waker, its run seen or not in both, from the same
 * holder on the same CPU, and the same end. Their times differ by the
 * clock reads; the most a hop's run or wait for a CPU differed is kept.
 *
 * Pure code: memory.
 */
#ifndef WAKEPROBE_CHAIN_CHECK_H
#define WAKEPROBE_CHAIN_CHECK_H

#include <stdint.h>
#include "chain.h"

/*
 * the tasks whose kernel's chains wait at once, a place each by tid (one
 * whose place another holds is not checked), and how many chains each
 * keeps at most: the full engine hands its wakeups over up to a quarter
 * of a second behind (ATTACH_EXPLAIN_KEEP_NS), thousands of a busy task's
 */
#define CHAIN_CHECK_TASKS	1024
#define CHAIN_CHECK_PER_TASK	16384
/* the two stamps of one waking are a few microseconds apart; two wakings of one task are further */
#define CHAIN_CHECK_WINDOW_NS	(50ull * 1000)

enum chain_verdict {
	CHAIN_UNCHECKED,	/* not checked: no kernel's chains in this run */
	CHAIN_SAME,		/* the kernel's chain of this wakeup is the same, hop for hop */
	CHAIN_DIFFERS,		/* ... is not */
	CHAIN_NO_KERNEL,	/* no kernel's chain was found for this waking */
	NR_CHAIN_VERDICTS,
};

struct chain_check_counters {
	uint64_t kernel;		/* the kernel's chains taken */
	uint64_t kernel_not_kept;	/* ... not kept: their task's place was another's, or its ring full */
	uint64_t kernel_unmatched;	/* ... that no chain of the stream's matched */
	uint64_t compared;		/* the stream's chains checked against one */
	uint64_t same;
	uint64_t differ;
	uint64_t no_kernel;		/* the stream's chains no kernel's chain was found for */
	uint64_t max_time_diff_ns;	/* over the same: the most a hop's run or wait for a CPU differed */
	uint64_t time_diff_ns;		/* ... summed over their hops, and the hops */
	uint64_t hops;
	char first_difference[192];	/* the first that differed, in words; "" when none did */
};

struct chain_check;

struct chain_check *chain_check__new(void);
void chain_check__free(struct chain_check *cc);

/* chain_check__kernel - the kernel's chain @c of @tid's wakeup woken at @waking_ns */
void chain_check__kernel(struct chain_check *cc, uint32_t tid, uint64_t waking_ns, const struct chain *c);

/*
 * chain_check__stream - the stream's chain @c of @tid's wakeup woken at
 * @waking_ns, held against the kernel's: the verdict, and into @diff_ns
 * (CHAIN_SAME) the most a hop's time differed
 */
enum chain_verdict chain_check__stream(struct chain_check *cc, uint32_t tid, uint64_t waking_ns, const struct chain *c,
				       uint64_t *diff_ns);

const struct chain_check_counters *chain_check__counters(const struct chain_check *cc);

/* chain_check__verdict_name - "same", "differs", "no_kernel_chain"; NULL for CHAIN_UNCHECKED */
const char *chain_check__verdict_name(enum chain_verdict v);

#endif /* WAKEPROBE_CHAIN_CHECK_H */
