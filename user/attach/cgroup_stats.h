/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup_stats.h - the complete wakeups of a machine by cgroup (--all,
 * --cgroup, --listen): which container waits, for how long, and for whom.
 *
 * Each wakeup's record names three cgroups (struct wp_lean_cgroups): the
 * wakee's, its waker's, and that of the task the wakee's switch-in took
 * the CPU from, the holder. The run-queue wait (sched_wakeup to the
 * switch-in) is put down to the holder: the CPU was idle (holder "idle"),
 * the wakee's own cgroup held it, or another's did, a neighbour. Only the
 * last task before the switch-in is named: a wait through several is that
 * one's. The outliers' explanations name them all.
 *
 * Kept by label (cgroup_label.h), so that a cgroup made anew under the
 * same name (a service restarted, a container's new incarnation) goes on
 * in the same series; capped by series_cap.h, --top of each:
 *
 *   cgroups	the wakee's: its wake-to-run (struct slow_hist), run-queue wait
 *		by whether a neighbour held the CPU or it was idle
 *   holders	(wakee cgroup, holder): the run-queue wait each held
 *   pairs	(waker cgroup, wakee cgroup, mechanism family): wakeups and time
 *   chain_held	--chains: (wakee cgroup, another cgroup): the time the other's
 *		tasks held on the wakee's critical path, its hops' runs by
 *		wakers of that cgroup and their waits for a CPU behind its tasks
 *
 * A hop names its waker and holder by tid; their cgroups are those the
 * wakeups' records last gave those tids (as wakee, waker or holder), kept
 * by tid, CGROUP_TIDS of them: a task no record named has "unknown".
 *
 * and by mechanism family, whose number is fixed. Nothing grows with the
 * run: a service's memory stays the same for days.
 */
#ifndef WAKEPROBE_CGROUP_STATS_H
#define WAKEPROBE_CGROUP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "attach_result.h"
#include "cgroups.h"
#include "lean_sums.h"
#include "mechanism.h"
#include "series_cap.h"
#include "slow_hist.h"

#define CGROUP_STATS_TOP	20		/* --top's default */
#define CGROUP_STATS_MAX_TOP	1000
/* between the labels of a key of two or three; never in a label (cgroup_label.h), so a key splits back */
#define CGROUP_STATS_SEP	'\x1f'
#define CGROUP_IDLE_LABEL	"idle"		/* a holder: the CPU was idle until the wakee ran */
#define CGROUP_IRQ_LABEL	"interrupt"	/* a waker: interrupt work, no task's doing */

/* the wakeups of one wakee cgroup */
struct cgroup_series {
	struct slow_hist wake_to_run;
	uint64_t runq_wait_ns;			/* of it: sched_wakeup -> the switch-in */
	uint64_t neighbour_ns;			/* ... while a task of another cgroup held the CPU */
	uint64_t idle_ns;			/* ... while the CPU was idle */
};

/* the run-queue wait of one wakee cgroup that one holder held */
struct holder_series {
	uint64_t wakeups;
	uint64_t runq_wait_ns;
};

/* --chains: the time one other cgroup held on one wakee cgroup's critical paths */
struct chain_held_series {
	uint64_t ran_ns;			/* its tasks' runs as hops, up to the wakings they made */
	uint64_t runnable_ns;			/* the hops' waits for a CPU its tasks held */
};

/* a task's cgroup as the last record that named the task gave it */
#define CGROUP_TIDS		8192

struct tid_cgroup {
	uint32_t tid;				/* 0: none */
	uint64_t id;
};

/* the wakeups of one waker cgroup's of one wakee cgroup through one mechanism family */
struct pair_series {
	uint64_t wakeups;
	uint64_t wake_to_run_ns;
};

/*
 * The keys of the two-cgroup families made lately, by the ids they were
 * made of: a machine's wakeups repeat a few (wakee, holder) and (waker,
 * wakee, mechanism) over and over, and a key is a copy of the labels and a
 * hash of them. Forgotten at each settle, when the names may be.
 */
#define CGROUP_KEY_MEMO		512

struct cgroup_key_memo {
	uint64_t ids[3];			/* the cgroups, and the family: ids[2] of a pair's */
	uint64_t hash;
	uint32_t epoch;				/* 0: never made */
	char key[SERIES_KEY_LEN];
};

struct cgroup_stats {
	struct cgroup_names *names;		/* not owned */
	struct series_cap *cgroups;
	struct series_cap *holders;
	struct series_cap *pairs;
	struct series_cap *chain_held;		/* --chains (cgroup_stats__want_chains()); else NULL */
	struct tid_cgroup *tids;		/* ... CGROUP_TIDS, by tid */
	struct pair_series by_family[NR_MECH_FAMILIES];
	struct cgroup_key_memo holder_keys[CGROUP_KEY_MEMO];
	struct cgroup_key_memo pair_keys[CGROUP_KEY_MEMO];
	struct cgroup_key_memo chain_keys[CGROUP_KEY_MEMO];
	uint32_t epoch;				/* the memo's now: those of another are stale */
	uint64_t wakeups;			/* complete ones with their cgroups */
	uint64_t neighbour_ns;			/* every cgroup's */
	uint64_t runq_wait_ns;
};

/* cgroup_stats__new - @top series of each kind, named by @names; NULL: out of memory */
struct cgroup_stats *cgroup_stats__new(struct cgroup_names *names, uint32_t top);
void cgroup_stats__free(struct cgroup_stats *s);
/* cgroup_stats__want_chains - --chains: keep the chain_held series too; 0, or -ENOMEM */
int cgroup_stats__want_chains(struct cgroup_stats *s);
/* cgroup_stats__add - @r: a complete wakeup with its cgroups counts, any other not */
void cgroup_stats__add(struct cgroup_stats *s, const struct attach_result *r);
/*
 * cgroup_stats__add_sums - a service's wakeups summed in the kernel
 * (lean_sums.h): what grew in each cgroup and each (wakee, holder, waker,
 * family) since the last take, as cgroup_stats__add() would have added
 * those wakeups one by one; a cgroup's max is the run's where it grew in
 * this take
 */
void cgroup_stats__add_sums(struct cgroup_stats *s, const struct lean_sums_delta *d);
/* cgroup_stats__settle - hand the series to the keys with the most time as they stand at @now_ns (series_cap.h) */
void cgroup_stats__settle(struct cgroup_stats *s, uint64_t now_ns);
/*
 * cgroup_stats__split - a key of two or three labels into @parts (at most
 * @max, each pointing into @buf, a copy of @key); how many
 */
size_t cgroup_stats__split(const char *key, char *buf, size_t len, const char **parts, size_t max);
/*
 * cgroup_stats__series - row @i of @cap for the outputs: its series in the
 * order of their keys, then at @i == series_cap__count(@cap) "other". Its
 * data back, and its key's @max labels into @parts (pointing into @buf, a
 * copy of the key), "other" each for other and for a part the key lacks.
 */
const void *cgroup_stats__series(const struct series_cap *cap, size_t i, char *buf, size_t len, const char **parts,
				 size_t max);

#endif /* WAKEPROBE_CGROUP_STATS_H */
