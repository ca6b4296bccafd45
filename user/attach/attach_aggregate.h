/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_aggregate.h - streaming statistics over attach mode's wakeups
 * (attach.h): every wakeup by label and by waker class; for the complete
 * ones, a histogram per kernel phase with why it was absent when it was,
 * wake-to-run and notify-to-return over all, one row per (waker -> wakee,
 * mechanism) pair, and one per futex address.
 *
 * Only complete wakeups go into the histograms and the tables; the others
 * are counted by label and nowhere else, as in the workload reports.
 *
 * The complete wakeups' time is summed by cause, and the slowest are kept
 * whole with their explanation (--outliers, --threshold-us).
 *
 * Bounded whatever the run's length: the pairs and the futex words are each
 * kept by a Space-Saving sketch (Metwally, Agrawal and El Abbadi, 2005) of
 * k rows, ATTACH_AGG_MAX_PAIRS pairs (two histograms each, about 117 KiB a
 * pair, allocated when its row is first filled: 15 MiB at most) and
 * ATTACH_AGG_MAX_FUTEXES futex words of a few hundred bytes in the struct.
 * While there is room every key gets a row and the counts are exact. Once
 * the k rows are taken, a key without a row takes the row with the smallest
 * count c: its count starts at c + 1 and its error at c, the most of that
 * count that can be the wakeups of the keys the row held before. Then, over
 * a stream of N:
 *
 *   - a row's true count lies between count - error and count;
 *   - every key whose true count is more than N / k holds a row;
 *
 * and the counts add up to N. Whatever else a row measures (its histograms;
 * a futex word's waits, wakes, times and threads) starts afresh when a key
 * takes it, so it covers the count - error wakeups the row saw. What the
 * replaced keys saw themselves is summed in pairs_evicted (futexes_evicted),
 * never dropped unseen:
 *
 *   sum over the rows of (count - error) + pairs_evicted = complete
 *   sum over the rows of (count - error) + futexes_evicted = futex_waits + futex_wakes
 */
#ifndef WAKEPROBE_ATTACH_AGGREGATE_H
#define WAKEPROBE_ATTACH_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>
#include "attach_result.h"
#include "cause_totals.h"
#include "chain_paths.h"
#include "chain_totals.h"
#include "histogram.h"
#include "lean_sums.h"
#include "mechanism.h"
#include "stack_combos.h"
#include "wakeup.h"

#define ATTACH_AGG_MAX_PAIRS	128
#define ATTACH_AGG_MAX_FUTEXES	256
#define ATTACH_AGG_FUTEX_TIDS	8	/* threads listed per futex */
#define ATTACH_AGG_CHAINS	10	/* --chains: the wakeups kept whose chains held the most time */

/* the order of a table: the most wakeups first, or the most time */
enum attach_order {
	ATTACH_ORDER_COUNT,	/* the rows' counts: pairs: wakeups; futexes: waits + wakes */
	ATTACH_ORDER_COST,	/* pairs: wake-to-run summed; futexes: time waited summed */
};

/* the complete wakeups of one waker, of one wakee, through one mechanism */
struct attach_pair {
	/* the key */
	uint8_t waker_class;			/* enum wp_waker_class */
	uint32_t waker_id;			/* mechanism__waker_id() */
	uint32_t wakee_tid;
	char mechanism[MECHANISM_NAME_LEN];
	/* as the first wakeup of the pair named them */
	char waker[MECHANISM_NAME_LEN];		/* mechanism__waker_name() */
	bool waker_raised;			/* a softirq its task raised (waker_info.raised) */
	uint32_t waker_tid;
	uint32_t waker_tgid;
	uint32_t wakee_tgid;
	char wakee_comm[WP_TASK_COMM_LEN];
	uint8_t family;				/* enum mech_family */

	uint64_t count;				/* its wakeups, overestimated by error at most */
	uint64_t error;				/* count when the pair took the row: 0 for a first row */
	/* of the count - error wakeups since it took the row */
	struct histogram wake_to_run;		/* every one */
	struct histogram notify_to_return;	/* those whose both ends are known */
	/* --stacks: the waker's and the wakee's stacks, by combination; NULL until its first wakeup with them */
	struct stack_combos *stacks;
	/* --chains: where its waits went, over their chains; NULL until its first wakeup with one */
	struct chain_totals *chains;
	uint64_t hash;
};

/*
 * One futex word: in one process, or one lock of several, a shared word
 * keyed as the kernel keys it (its file and offset: key.shared), whatever
 * address each process has it at
 */
struct attach_futex {
	uint32_t tgid;				/* the process, or the first that used a shared word */
	uint64_t addr;				/* its address there */
	struct futex_key key;			/* shared: the file and offset, the row's key */
	uint64_t count;				/* its waits and wakes, overestimated by error at most */
	uint64_t error;				/* count when the word took the row: 0 for a first row */
	/* the rest counts the count - error waits and wakes since it took the row */
	uint64_t waits;				/* futex waits on it that a wakeup ended (the syscall returned) */
	uint64_t wakes;				/* wakeups a futex wake on it made */
	uint64_t waits_timed;			/* waits whose syscall entry was seen: in the two below */
	uint64_t wait_total_ns;			/* the wait syscall's entry -> its exit */
	uint64_t wait_max_ns;
	uint32_t tids[ATTACH_AGG_FUTEX_TIDS];	/* the threads that waited or woke on it, first come */
	uint32_t nr_tids;
	uint64_t tids_untabled;			/* waits and wakes by threads past the list */
	uint32_t tgids[ATTACH_AGG_FUTEX_TIDS];	/* their processes, first come: several for a shared word */
	uint32_t nr_tgids;
	bool tgids_untabled;			/* processes past the list waited or woke on it */
};

struct attach_aggregate {
	uint64_t wakeups;			/* every result */
	/*
	 * ... of them, a service's summed in the kernel (attach_aggregate__add_sums()):
	 * in the counts, the phases and the cgroups, but in no table of threads,
	 * pairs or futex words, which only the wakeups sent as records fill
	 */
	uint64_t summed;
	uint64_t summed_complete;
	uint64_t sums_refused;			/* sent as records instead: a map by cgroup was full */
	uint64_t by_label[NR_LABELS];
	uint64_t missing_by_mark[NR_MARKS];
	uint64_t by_class[WP_WAKER_CLASS_MAX];	/* index 0: no waker record */
	uint64_t softirq_raised;		/* of by_class[SOFTIRQ]: raised by the task they ran in */

	/* complete wakeups */
	uint64_t complete;
	uint64_t by_family[NR_MECH_FAMILIES];
	uint64_t absent[NR_PHASES][NR_ATTACH_ABSENCES];	/* per phase: present, or why not */
	struct histogram phase[NR_PHASES];	/* where the phase is present */
	struct histogram wake_to_run;
	struct histogram notify_to_return;
	struct histogram idle_exit;		/* target CPU idle at the waking, its exit seen */
	struct histogram total;			/* first mark -> last mark: the span explained */
	uint64_t target_idle;
	uint64_t remote_wakeups;		/* sched_wakeup ran on another CPU than sched_waking */
	struct cause_totals causes;		/* their time by cause (explain.h) */

	/* the slowest by total at or over the threshold, slowest first, with their explanation */
	uint32_t outliers_wanted;
	uint64_t outlier_threshold_ns;
	uint32_t nr_outliers;
	uint64_t outlier_candidates;		/* complete wakeups at or over the threshold */
	struct attach_result outliers[AGG_MAX_OUTLIERS];

	/*
	 * --chains: every complete wakeup's chain, summed; and those whose
	 * hops held the most of their wait (chain__on_path_ns()), the most
	 * first, whether their own wakeup was slow or not
	 */
	struct chain_totals chains;
	uint32_t nr_chains_kept;
	struct attach_result chains_kept[ATTACH_AGG_CHAINS];
	/* --chains with --stacks: the critical paths' time by who held it, and where (chain_paths.h); else NULL */
	struct chain_paths *chain_paths;

	/* the Space-Saving sketches (above) */
	struct attach_pair *pairs[ATTACH_AGG_MAX_PAIRS];
	uint32_t nr_pairs;			/* rows filled */
	uint64_t pairs_replaced;		/* times a pair took the row with the smallest count */
	uint64_t pairs_evicted;			/* complete wakeups in no row: replaced pairs' count - error */
	uint16_t pair_index[2 * ATTACH_AGG_MAX_PAIRS];		/* open addressing: 1 + index, 0 free */
	uint64_t pairs_least;			/* no row counts less: the next to hand over counts this */
	uint32_t pairs_cursor;			/* the row after the last one handed over */

	struct attach_futex futexes[ATTACH_AGG_MAX_FUTEXES];
	uint32_t nr_futexes;
	uint64_t futexes_replaced;
	uint64_t futexes_evicted;		/* waits and wakes in no row: the replaced words' count - error */
	uint16_t futex_index[2 * ATTACH_AGG_MAX_FUTEXES];
	uint64_t futexes_least;
	uint32_t futexes_cursor;
	/* every word's, in a row or not */
	uint64_t futex_waits;
	uint64_t futex_wakes;
	uint64_t futex_waits_timed;
	uint64_t futex_wait_total_ns;
};

struct attach_aggregate *attach_aggregate__new(void);
void attach_aggregate__free(struct attach_aggregate *g);
/* keep the @k slowest complete wakeups whose total is at least @threshold_ns (k <= AGG_MAX_OUTLIERS) */
void attach_aggregate__want_outliers(struct attach_aggregate *g, uint32_t k, uint64_t threshold_ns);
void attach_aggregate__add(struct attach_aggregate *g, const struct attach_result *r);
/*
 * attach_aggregate__add_sums - a service's wakeups summed in the kernel
 * (lean_sums.h): what grew since the last take, counted as
 * attach_aggregate__add() counts complete lean wakeups one by one
 */
void attach_aggregate__add_sums(struct attach_aggregate *g, const struct lean_sums_delta *d);
/* attach_aggregate__end - the run is over: order what is ordered once */
void attach_aggregate__end(struct attach_aggregate *g);
/*
 * attach_aggregate__pairs - up to @max pairs into @out in @order (ties: the
 * other measure, then the key: waker class and id, wakee, mechanism); how many
 */
size_t attach_aggregate__pairs(const struct attach_aggregate *g, enum attach_order order,
			       const struct attach_pair **out, size_t max);
/* attach_aggregate__futexes - up to @max futexes into @out in @order (ties: tgid, address); how many */
size_t attach_aggregate__futexes(const struct attach_aggregate *g, enum attach_order order,
				 const struct attach_futex **out, size_t max);

#endif /* WAKEPROBE_ATTACH_AGGREGATE_H */
