/* SPDX-License-Identifier: GPL-2.0 */
/* json_stacks.h - attach mode's JSON, --stacks: a pair's stacks, and the run's (docs/json.md) */
#ifndef WAKEPROBE_JSON_STACKS_H
#define WAKEPROBE_JSON_STACKS_H

#include "attach_analysis.h"
#include "json_writer.h"
#include "wakeprobe.h"

/* the combinations of stacks a pair lists, the most frequent first */
#define JSON_STACKS_PER_PAIR	8

struct attach_pair;

struct run_stacks;
struct stack_combos;

/* json_stacks__combos - "stacks": @c's most frequent combinations with their frames; "stacks_other": of @of, the rest */
/* json_stacks__stack - @key: stack @id of @tgid (0: the kernel) as frames, innermost first, or null and why */
void json_stacks__stack(struct json_writer *w, struct run_stacks *rs, const char *key, int32_t id, pid_t tgid);
void json_stacks__combos(struct json_writer *w, struct run_stacks *rs, const struct stack_combos *c, uint64_t of);
/* json_stacks__pair - @p's "stacks" member and "stacks_other", when the run took stacks */
void json_stacks__pair(struct json_writer *w, const struct attach_report *r, const struct attach_pair *p);
/*
 * json_stacks__futex - with --stacks, a futex word's "name": what the word
 * at @addr of process @tgid is (symbolizer__data()), and the object and
 * offset it lies at; nothing when it cannot be said
 */
void json_stacks__futex(struct json_writer *w, const struct attach_report *r, uint32_t tgid, uint64_t addr);
/* json_stacks__run - with --stacks, the run's "stacks" member: what was kept, what it cost, where frame pointers cut */
void json_stacks__run(struct json_writer *w, const struct attach_report *r);
/*
 * json_stacks__workload - a workload's run with --stacks: "stacks" as
 * json_stacks__run() writes it, and "stacks_of_wakeups" with @c's
 * combinations over its @of complete wakeups; nothing without stacks
 */
void json_stacks__workload(struct json_writer *w, struct run_stacks *rs, const struct stack_combos *c, uint64_t of);

#endif /* WAKEPROBE_JSON_STACKS_H */
