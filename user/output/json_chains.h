/* SPDX-License-Identifier: GPL-2.0 */
/* json_chains.h - attach mode's JSON, --chains: a wakeup's chain, a pair's, the run's (docs/json.md) */
#ifndef WAKEPROBE_JSON_CHAINS_H
#define WAKEPROBE_JSON_CHAINS_H

#include "attach_analysis.h"
#include "json_writer.h"

struct attach_pair;
struct attach_result;

/* json_chains__wakeup - with --chains, a wakeup's "chain" member: its hops and end, or null without one */
void json_chains__wakeup(struct json_writer *w, const struct attach_report *r, const struct attach_result *o);
/* json_chains__pair - with --chains, @p's "chains": where its waits went, or null when none had a chain */
void json_chains__pair(struct json_writer *w, const struct attach_report *r, const struct attach_pair *p);
/* json_chains__run - with --chains, the run's "chains": every wakeup's, and those that held the most */
void json_chains__run(struct json_writer *w, const struct attach_report *r);

#endif /* WAKEPROBE_JSON_CHAINS_H */
