/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series_cap.h - the labelled series of one metric family, capped: a
 * service that labels its wakeups by cgroup (or by a pair of cgroups)
 * meets as many keys as the machine makes containers, and a Prometheus
 * that scrapes it pays for every label value for as long as it keeps
 * data. The keys with the most time get a series of their own, at most
 * limit of them; every other key's wakeups go into one series, "other".
 * While a series is free, the next key met takes it at its first wakeup.
 *
 * Ranking. Each key seen recently has a score: the time of its wakeups
 * (weight, nanoseconds), halved every half_life, kept in a table of
 * candidates rows; the weight added since the last settle counts whole, the
 * score before it fades. series_cap__settle() re-ranks: a free series goes to the
 * best key without one; a key whose score is more than twice that of the
 * worst labelled series, labelled for tenure at least (or on a free series
 * since the last settle), takes its place.
 * The doubling and the tenure keep two keys of about the same weight from
 * trading places at every scrape. A key that finds the table full waits,
 * counted in unranked, until a settle frees rows (the worst half of the
 * keys without a series).
 *
 * Counters never go backwards. A series' data (data_size bytes, zeroed
 * when first made, the caller's to fill) only grows while it has its
 * label; "other" only grows, and takes a key's wakeups whenever the key
 * has no series. A key that loses its series has its data kept among the
 * retired, and given back if it wins one again, so its counters go on
 * from where they stood; the series is absent between (its samples go
 * stale in Prometheus), and what it did then is in "other". Only a key
 * retired longer ago than the candidates last retired after it comes back
 * from zero, as a new series: Prometheus takes that as a counter reset.
 *
 * So at any time the rows and "other" hold every wakeup but those of the
 * keys retired and not given their series back: with @count, the options'
 * way to read a data's wakeups, series_cap_stats.retired says how many
 * those are, for the rows and "other" to add up to the whole.
 *
 * Bounded: candidates rows, limit series and candidates retired ones,
 * each with its data, whatever the number of keys met.
 */
#ifndef WAKEPROBE_SERIES_CAP_H
#define WAKEPROBE_SERIES_CAP_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_KEY_LEN	288	/* a key with its NUL: two cgroup labels and a mechanism fit */

struct series_cap_opts {
	uint32_t limit;			/* series with a label of their own, at most; 1 or more */
	uint32_t candidates;		/* keys ranked at once; 0: 8 x limit, at least 64 */
	size_t data_size;		/* each series' data */
	uint64_t half_life_ns;		/* of a key's score; 0: five minutes */
	uint64_t tenure_ns;		/* a series keeps its label this long at least; 0: one minute */
	/* the wakeups a series' data holds, for series_cap_stats.retired; NULL: not counted */
	uint64_t (*count)(const void *data);
};

struct series_cap_stats {
	uint64_t keys;			/* keys ranked now */
	uint64_t promoted;		/* series given a label */
	uint64_t demoted;		/* series that lost theirs to a better key */
	uint64_t restored;		/* ... of the promoted, a retired key's data given back */
	uint64_t unranked;		/* wakeups of keys that found the table full */
	/* with the options' count: the wakeups of retired keys, in no row and not in "other" */
	uint64_t retired;
};

struct series_cap;

struct series_cap *series_cap__new(const struct series_cap_opts *o);
void series_cap__free(struct series_cap *c);

/* series_cap__hash - @key's hash, for the caller to compute once per key and pass to series_cap__add() */
uint64_t series_cap__hash(const char *key);
/*
 * series_cap__add - a wakeup of @key (its hash @hash), weighing @weight
 * (its time): the data it goes into, @key's own series' or "other"'s. A
 * key longer than SERIES_KEY_LEN - 1 is ranked cut there.
 */
void *series_cap__add(struct series_cap *c, const char *key, uint64_t hash, uint64_t weight);
/* series_cap__settle - rank the keys as they stand at @now_ns, and hand the series over (above) */
void series_cap__settle(struct series_cap *c, uint64_t now_ns);

/* the labelled series, in the order of their keys: how many, and the key and data of the @i-th */
size_t series_cap__count(const struct series_cap *c);
const char *series_cap__key(const struct series_cap *c, size_t i);
const void *series_cap__data(const struct series_cap *c, size_t i);
/* series_cap__other - the data of "other": every wakeup of a key while it had no series */
const void *series_cap__other(const struct series_cap *c);
uint32_t series_cap__limit(const struct series_cap *c);
void series_cap__stats(const struct series_cap *c, struct series_cap_stats *out);

#endif /* WAKEPROBE_SERIES_CAP_H */
