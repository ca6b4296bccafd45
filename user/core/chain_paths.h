/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain_paths.h - --chains with --stacks: where the critical paths' time
 * went, by the stacks of the tasks that held them, for --folded. Each
 * complete wakeup's chain gives its wait, split: each hop's run up to the
 * waking it made, by the waker's name and its stacks where it made it;
 * each hop's wait for a CPU, by the waker's name and the holder's; and the
 * rest, by the chain's end. A path is those and the wakee's name; its time
 * is summed over the run.
 *
 * The first CHAIN_PATHS_MAX paths each have a row; the time of the others
 * is summed apart (other_ns), never dropped unseen.
 *
 * Pure code: memory.
 */
#ifndef WAKEPROBE_CHAIN_PATHS_H
#define WAKEPROBE_CHAIN_PATHS_H

#include <stdint.h>
#include "chain.h"

#define CHAIN_PATHS_MAX		2048

/* what of a wait a path's time is */
enum chain_path_part {
	CHAIN_PATH_RAN,		/* a hop's run: who, and its stacks where it woke the next */
	CHAIN_PATH_WAITED,	/* a hop's wait for a CPU: who, and behind whom */
	CHAIN_PATH_REST,	/* what the hops leave: the chain's end */
};

struct chain_path {
	char wakee[WP_TASK_COMM_LEN];
	char who[WP_TASK_COMM_LEN];	/* RAN, WAITED: the hop's waker; REST: "" */
	char behind[WP_TASK_COMM_LEN];	/* WAITED: the holder ("" the CPU was idle) */
	uint8_t part;			/* enum chain_path_part */
	uint8_t end;			/* REST: enum chain_end */
	bool stacked;			/* RAN: its stacks were taken */
	int32_t waker_kernel, waker_user;
	uint32_t waker_tgid;
	uint64_t ns;
	uint64_t count;
};

struct chain_paths {
	struct chain_path rows[CHAIN_PATHS_MAX];
	uint32_t n;
	uint16_t index[2 * CHAIN_PATHS_MAX];	/* a row + 1 by the hash of its path; 0: none */
	uint64_t other_ns;
};

/* chain_paths__add - the wait of @c, a chain of a wakeup of @wakee, split along its paths */
void chain_paths__add(struct chain_paths *p, const char *wakee, const struct chain *c);

#endif /* WAKEPROBE_CHAIN_PATHS_H */
