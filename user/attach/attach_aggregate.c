// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"
#include "hash.h"

#define PAIR_INDEX_SLOTS	(2 * ATTACH_AGG_MAX_PAIRS)
#define FUTEX_INDEX_SLOTS	(2 * ATTACH_AGG_MAX_FUTEXES)

struct attach_aggregate *attach_aggregate__new(void)
{
	struct attach_aggregate *g;
	int k;

	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	for (k = 0; k < NR_PHASES; k++)
		histogram__init(&g->phase[k]);
	histogram__init(&g->wake_to_run);
	histogram__init(&g->notify_to_return);
	histogram__init(&g->idle_exit);
	histogram__init(&g->total);
	return g;
}

void attach_aggregate__free(struct attach_aggregate *g)
{
	uint32_t i;

	if (!g)
		return;
	for (i = 0; i < g->nr_pairs; i++) {
		free(g->pairs[i]->stacks);
		free(g->pairs[i]->chains);
		free(g->pairs[i]);
	}
	free(g->chain_paths);
	free(g);
}

/* mix - @h with the word @w: a multiply and a rotate, for what is hashed at every wakeup */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return (h << 31) | (h >> 33);
}

/* pair_hash - of a pair's key, its mechanism a word at a time: every complete wakeup hashes one */
static uint64_t pair_hash(uint8_t cls, uint32_t waker_id, uint32_t wakee_tid, const char *mechanism)
{
	uint64_t h = mix(HASH_FNV_BASIS, (uint64_t)cls << 32 | waker_id), w;
	size_t n = strnlen(mechanism, MECHANISM_NAME_LEN), i;

	h = mix(h, wakee_tid);
	for (i = 0; i + sizeof(w) <= n; i += sizeof(w)) {
		memcpy(&w, mechanism + i, sizeof(w));
		h = mix(h, w);
	}
	w = 0;
	memcpy(&w, mechanism + i, n - i);
	return mix(h, w ^ n);
}

/* index_home_fn - the slot where the probe for the key of @row (1 + its index) begins */
typedef size_t (*index_home_fn)(const struct attach_aggregate *g, uint16_t row);

/* index_free_slot - the first free slot of @index (@slots of them) from @hash's: where a new key goes */
static size_t index_free_slot(const uint16_t *index, size_t slots, uint64_t hash)
{
	size_t i;

	for (i = hash & (slots - 1); index[i]; i = (i + 1) & (slots - 1))
		;
	return i;
}

/*
 * index_unlink - take @row out of @index (@slots, a power of two), its key
 * hashing to @hash, by backward-shift deletion: each later entry of the
 * probe run that may stand in the freed slot (its own probe begins at or
 * before it) moves back into it, and the slot it left is freed in turn.
 * Lookups stop at the first free slot, so a hole left inside a run would
 * hide the keys past it; a tombstone would not, but would lengthen every
 * probe through it for the rest of the run, where rows change hands all
 * the time.
 */
static void index_unlink(const struct attach_aggregate *g, uint16_t *index, size_t slots, uint64_t hash,
			 uint16_t row, index_home_fn home)
{
	size_t mask = slots - 1, i, j;

	for (i = hash & mask; index[i] != row; i = (i + 1) & mask)
		if (!index[i])
			return;		/* not there: no slot to free */
	for (j = (i + 1) & mask; index[j]; j = (j + 1) & mask) {
		/* as far from its home as the hole is from j, or farther: the hole is on its way */
		if (((j - home(g, index[j])) & mask) >= ((j - i) & mask)) {
			index[i] = index[j];
			i = j;
		}
	}
	index[i] = 0;
}

static size_t pair_home(const struct attach_aggregate *g, uint16_t row)
{
	return g->pairs[row - 1]->hash & (PAIR_INDEX_SLOTS - 1);
}

typedef uint64_t (*row_count_fn)(const struct attach_aggregate *g, uint32_t row);

/*
 * sketch_least - the row Space-Saving hands over next: one of the @n rows
 * with the smallest count, @count_of(g, row) counting each.
 *
 * Counts only grow, and the row handed over counts one more than it did,
 * so the smallest count never shrinks: a row at *@least, below which no row
 * counts, is one to hand over. The search for one goes round from *@cursor,
 * the row after the last one handed over; the round that finds none finds
 * the smallest count on its way, and *@least grows by one at least. While
 * it stays, the cursor passes each row once, and the counts add up to the
 * N items, so *@least never passes N / @n: at most 2N + 2@n rows read over
 * the stream, where scanning every row for each new key reads @n each time
 * (128 pairs, a cache miss apiece as the rows are 117 KiB apart: about
 * 700 ns a new key, measured, against 200 ns).
 */
static uint32_t sketch_least(const struct attach_aggregate *g, uint32_t n, uint64_t *least, uint32_t *cursor,
			     row_count_fn count_of)
{
	uint32_t i, row = 0, best = 0;
	uint64_t c, min = UINT64_MAX;

	for (i = 0; i < n; i++) {
		row = (*cursor + i) % n;
		c = count_of(g, row);
		if (c <= *least)
			goto found;
		if (c < min) {
			min = c;
			best = row;
		}
	}
	*least = min;
	row = best;
found:
	*cursor = (row + 1) % n;
	return row;
}

static uint64_t pair_count(const struct attach_aggregate *g, uint32_t row)
{
	return g->pairs[row]->count;
}

/* pair_key - give @p the key of @r (hashing to @h) and the names its first wakeup in the row has */
static void pair_key(struct attach_pair *p, const struct attach_result *r, uint64_t h)
{
	p->hash = h;
	p->waker_class = r->waker.cls;
	p->waker_id = mechanism__waker_id(&r->waker);
	p->wakee_tid = r->sr.sample.wakee_tid;
	memcpy(p->mechanism, r->mechanism, sizeof(p->mechanism));
	mechanism__waker_name(&r->waker, p->waker, sizeof(p->waker));
	p->waker_raised = r->waker.raised;
	p->waker_tid = r->waker.tid;
	p->waker_tgid = r->waker.tgid;
	p->wakee_tgid = r->wakee_tgid;
	memcpy(p->wakee_comm, r->wakee_comm, sizeof(p->wakee_comm));
	p->family = r->family;
}

/*
 * pair_take_least - Space-Saving: the row with the smallest count, emptied
 * for another pair. Its count stays, and becomes its error: the new pair's
 * first wakeup makes it one more. What the old pair saw itself goes to
 * pairs_evicted; its histograms are cleared over the buckets they used, so
 * a stream of pairs that come once costs a few stores per wakeup, not the
 * 117 KiB of the row.
 */
static struct attach_pair *pair_take_least(struct attach_aggregate *g, uint16_t *row)
{
	struct attach_pair *p;

	*row = (uint16_t)(sketch_least(g, g->nr_pairs, &g->pairs_least, &g->pairs_cursor, pair_count) + 1);
	p = g->pairs[*row - 1];
	index_unlink(g, g->pair_index, PAIR_INDEX_SLOTS, p->hash, *row, pair_home);
	g->pairs_replaced++;
	g->pairs_evicted += p->count - p->error;
	p->error = p->count;
	histogram__clear(&p->wake_to_run);
	histogram__clear(&p->notify_to_return);
	if (p->stacks)
		stack_combos__clear(p->stacks);
	if (p->chains)
		memset(p->chains, 0, sizeof(*p->chains));
	return p;
}

/* pair_get - the row of @r's pair: its own, a new one while there is room, else the least counted one's */
static struct attach_pair *pair_get(struct attach_aggregate *g, const struct attach_result *r)
{
	uint32_t waker_id = mechanism__waker_id(&r->waker);
	uint64_t h = pair_hash(r->waker.cls, waker_id, r->sr.sample.wakee_tid, r->mechanism);
	size_t i = h & (PAIR_INDEX_SLOTS - 1);
	struct attach_pair *p = NULL;
	uint16_t row;

	for (; g->pair_index[i]; i = (i + 1) & (PAIR_INDEX_SLOTS - 1)) {
		p = g->pairs[g->pair_index[i] - 1];
		if (p->hash == h && p->waker_class == r->waker.cls && p->waker_id == waker_id &&
		    p->wakee_tid == r->sr.sample.wakee_tid && !strcmp(p->mechanism, r->mechanism))
			return p;
	}
	/* a new row while there is room; with no memory for one, the table is as full as it gets */
	p = g->nr_pairs < ATTACH_AGG_MAX_PAIRS ? calloc(1, sizeof(*p)) : NULL;
	if (p) {
		histogram__init(&p->wake_to_run);
		histogram__init(&p->notify_to_return);
		g->pairs[g->nr_pairs++] = p;
		row = (uint16_t)g->nr_pairs;
	} else if (g->nr_pairs) {
		p = pair_take_least(g, &row);
		i = index_free_slot(g->pair_index, PAIR_INDEX_SLOTS, h);
	} else {
		return NULL;
	}
	pair_key(p, r, h);
	g->pair_index[i] = row;
	return p;
}

static void add_pair(struct attach_aggregate *g, const struct attach_result *r)
{
	struct attach_pair *p = pair_get(g, r);

	/* no row and no memory for one: in no row, as a replaced pair's wakeups are */
	if (!p) {
		g->pairs_evicted++;
		return;
	}
	p->count++;
	histogram__add(&p->wake_to_run, (uint64_t)r->wake_to_run_ns);
	if (r->notify_to_return_ns >= 0)
		histogram__add(&p->notify_to_return, (uint64_t)r->notify_to_return_ns);
	/* a row kept without its stacks for want of memory has none to show: its count says so */
	if (r->sr.stacked && (p->stacks || (p->stacks = calloc(1, sizeof(*p->stacks)))))
		stack_combos__add(p->stacks, &r->sr.stacks, r->wakee_tgid, (uint64_t)r->wake_to_run_ns);
	/* ... and its chains', likewise */
	if (r->chained && (p->chains || (p->chains = calloc(1, sizeof(*p->chains)))))
		chain_totals__add(p->chains, &r->chain);
}

/* futex_hash - of a word's key: a shared word's file and offset, else its process and address */
static uint64_t futex_hash(uint32_t tgid, uint64_t addr, const struct futex_key *key)
{
	uint64_t h = HASH_FNV_BASIS;

	if (key->shared) {
		h = hash__fnv1a(h, &key->dev, sizeof(key->dev));
		h = hash__fnv1a(h, &key->ino, sizeof(key->ino));
		return hash__fnv1a(h, &key->offset, sizeof(key->offset));
	}
	h = hash__fnv1a(h, &tgid, sizeof(tgid));
	return hash__fnv1a(h, &addr, sizeof(addr));
}

/* futex_is - is @f the row of that word? */
static bool futex_is(const struct attach_futex *f, uint32_t tgid, uint64_t addr, const struct futex_key *key)
{
	if (f->key.shared != key->shared)
		return false;
	if (key->shared)
		return f->key.dev == key->dev && f->key.ino == key->ino && f->key.offset == key->offset;
	return f->tgid == tgid && f->addr == addr;
}

static size_t futex_home(const struct attach_aggregate *g, uint16_t row)
{
	const struct attach_futex *f = &g->futexes[row - 1];

	return futex_hash(f->tgid, f->addr, &f->key) & (FUTEX_INDEX_SLOTS - 1);
}

static uint64_t futex_count(const struct attach_aggregate *g, uint32_t row)
{
	return g->futexes[row].count;
}

/*
 * futex_get - the row of futex @addr in process @tgid, or of the shared
 * word @key: its own, a new one while there is room, else (Space-Saving, as
 * pair_take_least()) the least counted one's, emptied but for its count,
 * which becomes its error
 */
static struct attach_futex *futex_get(struct attach_aggregate *g, uint32_t tgid, uint64_t addr,
				      const struct futex_key *key)
{
	uint64_t h = futex_hash(tgid, addr, key), error;
	struct attach_futex *f;
	uint16_t row;
	size_t i;

	for (i = h & (FUTEX_INDEX_SLOTS - 1); g->futex_index[i]; i = (i + 1) & (FUTEX_INDEX_SLOTS - 1)) {
		f = &g->futexes[g->futex_index[i] - 1];
		if (futex_is(f, tgid, addr, key))
			return f;
	}
	if (g->nr_futexes < ATTACH_AGG_MAX_FUTEXES) {
		f = &g->futexes[g->nr_futexes++];
		row = (uint16_t)g->nr_futexes;
	} else {
		row = (uint16_t)(sketch_least(g, g->nr_futexes, &g->futexes_least, &g->futexes_cursor,
					      futex_count) + 1);
		f = &g->futexes[row - 1];
		index_unlink(g, g->futex_index, FUTEX_INDEX_SLOTS, futex_hash(f->tgid, f->addr, &f->key), row,
			     futex_home);
		g->futexes_replaced++;
		g->futexes_evicted += f->count - f->error;
		error = f->count;
		memset(f, 0, sizeof(*f));
		f->count = f->error = error;
		i = index_free_slot(g->futex_index, FUTEX_INDEX_SLOTS, h);
	}
	f->tgid = tgid;
	f->addr = addr;
	f->key = *key;
	g->futex_index[i] = row;
	return f;
}

/* futex_user - thread @tid of process @tgid waited or woke on @f */
static void futex_user(struct attach_futex *f, uint32_t tid, uint32_t tgid)
{
	uint32_t i;

	for (i = 0; i < f->nr_tgids && f->tgids[i] != tgid; i++)
		;
	if (i == f->nr_tgids) {
		if (f->nr_tgids < ATTACH_AGG_FUTEX_TIDS)
			f->tgids[f->nr_tgids++] = tgid;
		else
			f->tgids_untabled = true;
	}
	for (i = 0; i < f->nr_tids; i++)
		if (f->tids[i] == tid)
			return;
	if (f->nr_tids < ATTACH_AGG_FUTEX_TIDS)
		f->tids[f->nr_tids++] = tid;
	else
		f->tids_untabled++;
}

/*
 * wait_ended - did @r end its wait? Timed, once its syscall returned: one
 * that slept again is still the same wait. Untimed (no program on syscalls,
 * the lean engine too), the switch-in is taken for its end: a wait that
 * sleeps twice in one syscall counts twice.
 */
static bool wait_ended(const struct attach_result *r)
{
	switch (r->absent[PHASE_RESUME_KERNEL]) {
	case ATTACH_PRESENT:
		return true;
	case ATTACH_ABSENT_UNTIMED:
		return r->sr.label == LABEL_COMPLETE;
	default:
		return false;
	}
}

static void add_futexes(struct attach_aggregate *g, const struct attach_result *r)
{
	struct attach_futex *f;
	uint64_t addr;

	if (mechanism__futex_wait_addr(&r->wait, &addr) && wait_ended(r)) {
		g->futex_waits++;
		if (r->waited_ns >= 0) {
			g->futex_waits_timed++;
			g->futex_wait_total_ns += (uint64_t)r->waited_ns;
		}
		f = futex_get(g, r->wakee_tgid, addr, &r->wait.futex);
		f->count++;
		f->waits++;
		if (r->waited_ns >= 0) {
			f->waits_timed++;
			f->wait_total_ns += (uint64_t)r->waited_ns;
			if ((uint64_t)r->waited_ns > f->wait_max_ns)
				f->wait_max_ns = (uint64_t)r->waited_ns;
		}
		futex_user(f, r->sr.sample.wakee_tid, r->wakee_tgid);
	}
	if (mechanism__futex_wake_addr(&r->waker, &addr)) {
		g->futex_wakes++;
		f = futex_get(g, r->waker.tgid, addr, &r->waker.futex);
		f->count++;
		f->wakes++;
		futex_user(f, r->waker.tid, r->waker.tgid);
	}
}

void attach_aggregate__want_outliers(struct attach_aggregate *g, uint32_t k, uint64_t threshold_ns)
{
	g->outliers_wanted = k < AGG_MAX_OUTLIERS ? k : AGG_MAX_OUTLIERS;
	g->outlier_threshold_ns = threshold_ns;
}

/* keep_if_outlier - insert @r among the slowest kept, slowest first */
static void keep_if_outlier(struct attach_aggregate *g, const struct attach_result *r)
{
	int64_t total = r->sr.total_ns;
	uint32_t i;

	if (!g->outliers_wanted || (uint64_t)total < g->outlier_threshold_ns)
		return;
	g->outlier_candidates++;
	if (g->nr_outliers == g->outliers_wanted && total <= g->outliers[g->nr_outliers - 1].sr.total_ns)
		return;
	i = g->nr_outliers < g->outliers_wanted ? g->nr_outliers++ : g->nr_outliers - 1;
	for (; i > 0 && g->outliers[i - 1].sr.total_ns < total; i--)
		g->outliers[i] = g->outliers[i - 1];
	g->outliers[i] = *r;
}

/* keep_if_long_chain - @r among the chains kept, when its hops held more of its wait than the least kept */
static void keep_if_long_chain(struct attach_aggregate *g, const struct attach_result *r)
{
	uint64_t held = chain__on_path_ns(&r->chain);
	uint32_t i;

	if (!held || (g->nr_chains_kept == ATTACH_AGG_CHAINS &&
		      held <= chain__on_path_ns(&g->chains_kept[ATTACH_AGG_CHAINS - 1].chain)))
		return;
	i = g->nr_chains_kept < ATTACH_AGG_CHAINS ? g->nr_chains_kept++ : ATTACH_AGG_CHAINS - 1;
	for (; i > 0 && chain__on_path_ns(&g->chains_kept[i - 1].chain) < held; i--)
		g->chains_kept[i] = g->chains_kept[i - 1];
	g->chains_kept[i] = *r;
}

void attach_aggregate__end(struct attach_aggregate *g)
{
	cause_totals__sort_tasks(&g->causes);
}

void attach_aggregate__add(struct attach_aggregate *g, const struct attach_result *r)
{
	const struct sample_result *sr = &r->sr;
	int k;

	g->wakeups++;
	if (sr->label < NR_LABELS)
		g->by_label[sr->label]++;
	if (sr->label == LABEL_MISSING_EVENT && sr->missing < NR_MARKS)
		g->missing_by_mark[sr->missing]++;
	g->by_class[r->waker.cls < WP_WAKER_CLASS_MAX ? r->waker.cls : 0]++;
	if (r->waker.cls == WP_WAKER_SOFTIRQ && r->waker.raised)
		g->softirq_raised++;
	if (sr->label != LABEL_COMPLETE)
		return;

	g->complete++;
	if (r->family < NR_MECH_FAMILIES)
		g->by_family[r->family]++;
	for (k = 0; k < NR_PHASES; k++) {
		if (r->absent[k] < NR_ATTACH_ABSENCES)
			g->absent[k][r->absent[k]]++;
		if (r->absent[k] == ATTACH_PRESENT)
			histogram__add(&g->phase[k], (uint64_t)sr->phase_ns[k]);
	}
	histogram__add(&g->total, (uint64_t)sr->total_ns);
	histogram__add(&g->wake_to_run, (uint64_t)r->wake_to_run_ns);
	if (r->notify_to_return_ns >= 0)
		histogram__add(&g->notify_to_return, (uint64_t)r->notify_to_return_ns);
	if (sr->target_was_idle) {
		g->target_idle++;
		if (sr->idle_exit_seen && sr->idle_exit_ns >= 0)
			histogram__add(&g->idle_exit, (uint64_t)sr->idle_exit_ns);
	}
	if (sr->wakeup_cpu != sr->waking_cpu)
		g->remote_wakeups++;
	/* the lean engine explains the slow ones alone, from their flight records */
	if (!sr->lean || sr->lean_flight)
		cause_totals__add(&g->causes, sr);
	keep_if_outlier(g, r);
	if (r->chained) {
		chain_totals__add(&g->chains, &r->chain);
		keep_if_long_chain(g, r);
		/* --stacks: where the critical paths' time went, for --folded */
		if (sr->stacked && (g->chain_paths || (g->chain_paths = calloc(1, sizeof(*g->chain_paths)))))
			chain_paths__add(g->chain_paths, r->wakee_comm, &r->chain);
	}
	add_pair(g, r);
	add_futexes(g, r);
}

/* add_hist - kernel histogram @h into @dst: the same buckets, up to the kernel's last */
static void add_hist(struct histogram *dst, const struct wp_sum_hist *h)
{
	histogram__add_buckets(dst, (const uint64_t *)h->buckets, WP_SUM_HIST_BUCKETS, h->count, h->sum, h->min, h->max);
}

void attach_aggregate__add_sums(struct attach_aggregate *g, const struct lean_sums_delta *d)
{
	const struct wp_sum_counts *c = &d->counts;
	const struct wp_sum_hist *hists = d->hists;
	uint64_t wakeups = 0, complete = 0;

	for (int cls = 0; cls < WP_WAKER_CLASS_MAX; cls++) {
		/* a lean wakeup's notify is named, not timed: absent as its waker's class says */
		struct waker_info w = { .cls = (uint8_t)cls, .untimed = true };

		wakeups += c->by_class[cls];
		complete += c->complete_by_class[cls];
		g->by_class[cls] += c->by_class[cls];
		g->absent[PHASE_NOTIFY_KERNEL][attach__notify_absence(&w)] += c->complete_by_class[cls];
	}
	g->wakeups += wakeups;
	g->summed += wakeups;
	g->summed_complete += complete;
	g->sums_refused += c->refused;
	g->by_label[LABEL_COMPLETE] += complete;
	g->by_label[LABEL_MISSING_EVENT] += wakeups - complete;
	g->missing_by_mark[MARK_SWITCH_IN] += wakeups - complete;
	g->softirq_raised += c->softirq_raised;
	g->complete += complete;
	for (size_t i = 0; i < d->nr_keyed; i++)
		if (d->keyed[i].k.family < NR_MECH_FAMILIES)
			g->by_family[d->keyed[i].k.family] += d->keyed[i].d.wakeups;
	g->absent[PHASE_NOTIFY_USER][ATTACH_ABSENT_NO_USER_STAMP] += complete;
	g->absent[PHASE_RESUME_USER][ATTACH_ABSENT_NO_USER_STAMP] += complete;
	g->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_NO_WAIT_SYSCALL] += c->no_wait_syscall;
	g->absent[PHASE_RESUME_KERNEL][ATTACH_ABSENT_UNTIMED] += complete - c->no_wait_syscall;
	g->absent[PHASE_WAKE_ENQUEUE][ATTACH_PRESENT] += complete;
	g->absent[PHASE_RUNQ_WAIT][ATTACH_PRESENT] += complete;
	add_hist(&g->phase[PHASE_WAKE_ENQUEUE], &hists[WP_SUM_WAKE_ENQUEUE]);
	add_hist(&g->phase[PHASE_RUNQ_WAIT], &hists[WP_SUM_RUNQ_WAIT]);
	add_hist(&g->total, &hists[WP_SUM_WAKE_TO_RUN]);
	add_hist(&g->wake_to_run, &hists[WP_SUM_WAKE_TO_RUN]);
	add_hist(&g->idle_exit, &hists[WP_SUM_IDLE_EXIT]);
	g->target_idle += c->target_idle;
	g->remote_wakeups += c->remote;
	/*
	 * none was slow enough for the flight recorder, so none is kept as an
	 * outlier; with no threshold each complete one was a candidate
	 */
	if (g->outliers_wanted && !g->outlier_threshold_ns)
		g->outlier_candidates += complete;
}

/* ------------------------------------------------------------------ order */

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int pair_key_cmp(const struct attach_pair *a, const struct attach_pair *b)
{
	if (a->waker_class != b->waker_class)
		return a->waker_class < b->waker_class ? -1 : 1;
	if (a->waker_id != b->waker_id)
		return a->waker_id < b->waker_id ? -1 : 1;
	if (a->wakee_tid != b->wakee_tid)
		return a->wakee_tid < b->wakee_tid ? -1 : 1;
	return strcmp(a->mechanism, b->mechanism);
}

/*
 * pair_by_count - the most wakeups first: those the row is sure of (its
 * count less what it may hold of the pairs it replaced), then its count.
 * On a stream spread evenly over more pairs than rows, a row's count is
 * mostly its error, and the rows that are sure of the most come first.
 */
static int pair_by_count(const void *pa, const void *pb)
{
	const struct attach_pair *a = *(const struct attach_pair *const *)pa;
	const struct attach_pair *b = *(const struct attach_pair *const *)pb;

	int c = cmp_u64_desc(a->count - a->error, b->count - b->error);

	if (!c)
		c = cmp_u64_desc(a->count, b->count);

	if (!c)
		c = cmp_u64_desc(a->wake_to_run.sum, b->wake_to_run.sum);
	return c ? c : pair_key_cmp(a, b);
}

static int pair_by_cost(const void *pa, const void *pb)
{
	const struct attach_pair *a = *(const struct attach_pair *const *)pa;
	const struct attach_pair *b = *(const struct attach_pair *const *)pb;

	int c = cmp_u64_desc(a->wake_to_run.sum, b->wake_to_run.sum);

	if (!c)
		c = cmp_u64_desc(a->count, b->count);
	return c ? c : pair_key_cmp(a, b);
}

size_t attach_aggregate__pairs(const struct attach_aggregate *g, enum attach_order order,
			       const struct attach_pair **out, size_t max)
{
	const struct attach_pair *all[ATTACH_AGG_MAX_PAIRS];
	size_t n = g->nr_pairs, i;

	for (i = 0; i < n; i++)
		all[i] = g->pairs[i];
	qsort(all, n, sizeof(all[0]), order == ATTACH_ORDER_COST ? pair_by_cost : pair_by_count);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = all[i];
	return n;
}

static int futex_key_cmp(const struct attach_futex *a, const struct attach_futex *b)
{
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* futex_by_count - pair_by_count()'s order for futex words */
static int futex_by_count(const void *pa, const void *pb)
{
	const struct attach_futex *a = *(const struct attach_futex *const *)pa;
	const struct attach_futex *b = *(const struct attach_futex *const *)pb;

	int c = cmp_u64_desc(a->count - a->error, b->count - b->error);

	if (!c)
		c = cmp_u64_desc(a->count, b->count);

	if (!c)
		c = cmp_u64_desc(a->wait_total_ns, b->wait_total_ns);
	return c ? c : futex_key_cmp(a, b);
}

static int futex_by_cost(const void *pa, const void *pb)
{
	const struct attach_futex *a = *(const struct attach_futex *const *)pa;
	const struct attach_futex *b = *(const struct attach_futex *const *)pb;

	int c = cmp_u64_desc(a->wait_total_ns, b->wait_total_ns);

	if (!c)
		c = cmp_u64_desc(a->count, b->count);
	return c ? c : futex_key_cmp(a, b);
}

size_t attach_aggregate__futexes(const struct attach_aggregate *g, enum attach_order order,
				 const struct attach_futex **out, size_t max)
{
	const struct attach_futex *all[ATTACH_AGG_MAX_FUTEXES];
	size_t n = g->nr_futexes, i;

	for (i = 0; i < n; i++)
		all[i] = &g->futexes[i];
	qsort(all, n, sizeof(all[0]), order == ATTACH_ORDER_COST ? futex_by_cost : futex_by_count);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = all[i];
	return n;
}
