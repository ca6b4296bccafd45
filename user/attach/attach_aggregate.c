// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "attach_aggregate.h"

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
	for (i = 0; i < g->nr_pairs; i++)
		free(g->pairs[i]);
	free(g);
}

/* FNV-1a, 64 bits */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t pair_hash(uint8_t cls, uint32_t waker_id, uint32_t wakee_tid, const char *mechanism)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = hash_bytes(h, &cls, sizeof(cls));
	h = hash_bytes(h, &waker_id, sizeof(waker_id));
	h = hash_bytes(h, &wakee_tid, sizeof(wakee_tid));
	return hash_bytes(h, mechanism, strlen(mechanism));
}

/* pair_get - the pair of @r, a new one if there is room; NULL when the table is full */
static struct attach_pair *pair_get(struct attach_aggregate *g, const struct attach_result *r)
{
	uint32_t waker_id = mechanism__waker_id(&r->waker);
	uint64_t h = pair_hash(r->waker.cls, waker_id, r->sr.sample.wakee_tid, r->mechanism);
	size_t i = h & (PAIR_INDEX_SLOTS - 1);
	struct attach_pair *p;

	for (; g->pair_index[i]; i = (i + 1) & (PAIR_INDEX_SLOTS - 1)) {
		p = g->pairs[g->pair_index[i] - 1];
		if (p->hash == h && p->waker_class == r->waker.cls && p->waker_id == waker_id &&
		    p->wakee_tid == r->sr.sample.wakee_tid && !strcmp(p->mechanism, r->mechanism))
			return p;
	}
	if (g->nr_pairs == ATTACH_AGG_MAX_PAIRS)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->hash = h;
	p->waker_class = r->waker.cls;
	p->waker_id = waker_id;
	p->wakee_tid = r->sr.sample.wakee_tid;
	memcpy(p->mechanism, r->mechanism, sizeof(p->mechanism));
	mechanism__waker_name(&r->waker, p->waker, sizeof(p->waker));
	p->waker_raised = r->waker.raised;
	p->waker_tid = r->waker.tid;
	p->waker_tgid = r->waker.tgid;
	p->wakee_tgid = r->wakee_tgid;
	memcpy(p->wakee_comm, r->wakee_comm, sizeof(p->wakee_comm));
	p->family = r->family;
	histogram__init(&p->wake_to_run);
	histogram__init(&p->notify_to_return);
	g->pairs[g->nr_pairs++] = p;
	g->pair_index[i] = (uint16_t)g->nr_pairs;
	return p;
}

static void add_pair(struct attach_aggregate *g, const struct attach_result *r)
{
	struct attach_pair *p = pair_get(g, r);

	if (!p) {
		g->pairs_untabled++;
		return;
	}
	p->count++;
	histogram__add(&p->wake_to_run, (uint64_t)r->wake_to_run_ns);
	if (r->notify_to_return_ns >= 0)
		histogram__add(&p->notify_to_return, (uint64_t)r->notify_to_return_ns);
}

/* futex_get - the row of futex @addr in process @tgid, a new one if there is room */
static struct attach_futex *futex_get(struct attach_aggregate *g, uint32_t tgid, uint64_t addr)
{
	uint64_t h = 0xcbf29ce484222325ull;
	struct attach_futex *f;
	size_t i;

	h = hash_bytes(h, &tgid, sizeof(tgid));
	h = hash_bytes(h, &addr, sizeof(addr));
	for (i = h & (FUTEX_INDEX_SLOTS - 1); g->futex_index[i]; i = (i + 1) & (FUTEX_INDEX_SLOTS - 1)) {
		f = &g->futexes[g->futex_index[i] - 1];
		if (f->tgid == tgid && f->addr == addr)
			return f;
	}
	if (g->nr_futexes == ATTACH_AGG_MAX_FUTEXES)
		return NULL;
	f = &g->futexes[g->nr_futexes++];
	f->tgid = tgid;
	f->addr = addr;
	g->futex_index[i] = (uint16_t)g->nr_futexes;
	return f;
}

static void futex_tid(struct attach_futex *f, uint32_t tid)
{
	uint32_t i;

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
 * --explain slow too), the switch-in is taken for its end: a wait that
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
		f = futex_get(g, r->wakee_tgid, addr);
		if (!f) {
			g->futexes_untabled++;
		} else {
			f->waits++;
			if (r->waited_ns >= 0) {
				f->waits_timed++;
				f->wait_total_ns += (uint64_t)r->waited_ns;
				if ((uint64_t)r->waited_ns > f->wait_max_ns)
					f->wait_max_ns = (uint64_t)r->waited_ns;
			}
			futex_tid(f, r->sr.sample.wakee_tid);
		}
	}
	if (mechanism__futex_wake_addr(&r->waker, &addr)) {
		f = futex_get(g, r->waker.tgid, addr);
		if (!f) {
			g->futexes_untabled++;
		} else {
			f->wakes++;
			futex_tid(f, r->waker.tid);
		}
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
	/* lean mode explains the slow ones alone, from their flight records */
	if (!sr->lean || sr->lean_flight)
		cause_totals__add(&g->causes, sr);
	keep_if_outlier(g, r);
	add_pair(g, r);
	add_futexes(g, r);
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

static int pair_by_count(const void *pa, const void *pb)
{
	const struct attach_pair *a = *(const struct attach_pair *const *)pa;
	const struct attach_pair *b = *(const struct attach_pair *const *)pb;

	int c = cmp_u64_desc(a->count, b->count);

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

static int futex_by_count(const void *pa, const void *pb)
{
	const struct attach_futex *a = *(const struct attach_futex *const *)pa;
	const struct attach_futex *b = *(const struct attach_futex *const *)pb;

	int c = cmp_u64_desc(a->waits + a->wakes, b->waits + b->wakes);

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
		c = cmp_u64_desc(a->waits + a->wakes, b->waits + b->wakes);
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
