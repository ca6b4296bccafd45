/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_combos.h - the stacks of one waker -> wakee pair's wakeups
 * (--stacks): each combination of the waker's stacks where it woke and the
 * wakee's where it went to sleep, with its count and its wake-to-run.
 *
 * A pair keeps its first STACK_COMBOS_MAX combinations, each with a
 * histogram of its wake-to-run in the buckets the BPF side's flight
 * recorder counts in (wp_slow_bucket(): four to a power of two, so a
 * percentile is the floor of the bucket it falls in, within 25% below the
 * true value); the wakeups of a combination past them are counted in
 * other, never dropped unseen. Stacks the kernel could not keep
 * (wp_lean_stacks' negative ids) are a combination like any: "not taken".
 */
#ifndef WAKEPROBE_STACK_COMBOS_H
#define WAKEPROBE_STACK_COMBOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "wakeprobe.h"

#define STACK_COMBOS_MAX	64
/*
 * the ids from here on are user stacks wakeprobe unwound from copies of
 * them (--unwind, run_stacks.h), past any the kernel's stacks map gives
 */
#define STACK_ID_UNWOUND	(1 << 30)

struct stack_combo {
	/* the key: the stacks' ids (wp_lean_stacks), and whose mappings name the user ones */
	int32_t waker_kernel, waker_user, wait_kernel, wait_user;
	uint32_t waker_tgid, wakee_tgid;
	uint64_t count;
	uint64_t total_ns;		/* wake-to-run, summed */
	uint64_t max_ns;
	uint32_t buckets[WP_SLOW_BUCKETS];
};

struct stack_combos {
	struct stack_combo rows[STACK_COMBOS_MAX];
	uint32_t n;
	uint64_t other;			/* wakeups of a combination that found no row */
	uint64_t other_ns;
};

/* stack_combos__add - a wakeup with stacks @st of @wakee_tgid, @wake_to_run_ns from waking to switch-in */
void stack_combos__add(struct stack_combos *c, const struct wp_lean_stacks *st, uint32_t wakee_tgid,
		       uint64_t wake_to_run_ns);
/* stack_combos__clear - empty, for a row another pair takes */
void stack_combos__clear(struct stack_combos *c);

/* the order of stack_combos__top(): the most wakeups first, or the most wake-to-run */
enum stack_order {
	STACK_BY_COUNT,
	STACK_BY_COST,
};

/* stack_combos__top - up to @max rows of @c into @out in @order (ties: the other measure, then the ids); how many */
size_t stack_combos__top(const struct stack_combos *c, enum stack_order order, const struct stack_combo **out,
			 size_t max);
/* stack_combos__top_unwound - the same, of the rows with a user stack unwound from a copy (stack_combo__unwound()) */
size_t stack_combos__top_unwound(const struct stack_combos *c, enum stack_order order, const struct stack_combo **out,
				 size_t max);
/* stack_combo__unwound - was a user stack of @s's unwound from a copy, not walked by frame pointers? */
bool stack_combo__unwound(const struct stack_combo *s);
/* stack_combos__count_unwound - the wakeups of @c's rows with a user stack unwound */
uint64_t stack_combos__count_unwound(const struct stack_combos *c);
/* stack_combo__percentile - @pct of its wake-to-run: the floor of the bucket it falls in, 0 when empty */
uint64_t stack_combo__percentile(const struct stack_combo *s, double pct);

#endif /* WAKEPROBE_STACK_COMBOS_H */
