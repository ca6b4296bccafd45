/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_chains.h - --chains in the text reports: a wakeup's chain of wakers,
 * hop by hop with each hop's share of the wait (chain.h)
 */
#ifndef WAKEPROBE_TEXT_CHAINS_H
#define WAKEPROBE_TEXT_CHAINS_H

#include <stdio.h>
#include "attach_analysis.h"
#include "attach_result.h"

struct run_stacks;

/* text_chains__print_chain - @r's chain, under the lines that name the wakeup; nothing when it has none */
void text_chains__print_chain(FILE *out, struct run_stacks *rs, const struct attach_result *r);

/*
 * text_chains__print - --chains: where the waits of the busiest pairs went
 * over their chains, and the wakeups whose chains held the most of their
 * wait, each with its chain; nothing in a run without chains
 */
void text_chains__print(FILE *out, const struct attach_report *r);

#endif /* WAKEPROBE_TEXT_CHAINS_H */
