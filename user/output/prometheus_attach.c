// SPDX-License-Identifier: GPL-2.0
/*
 * prometheus_attach.c - attach mode's run as wakeprobe_* metrics, so far
 * or whole, labelled with the host and the target: the kernel phases, each
 * waker -> wakee pair through its mechanism or the wakeups by cgroup, the
 * wakers, the causes, the drops and what tracing cost
 */
#include <string.h>
#include "mechanism.h"
#include "prometheus_attach.h"
#include "prometheus_common.h"

/* the attach run's kernel phases: attach mode has no stamps inside the program for the two user ones */
static bool attach_phase(int p)
{
	return p != PHASE_NOTIFY_USER && p != PHASE_RESUME_USER;
}

static void print_pairs(FILE *out, const struct prom_labels *ls, const struct attach_aggregate *g, bool notify)
{
	enum prometheus_family f = notify ? FAMILY_PAIR_NOTIFY_TO_RETURN : FAMILY_PAIR_WAKE_TO_RUN;

	if (!g->nr_pairs)
		return;
	prometheus_common__begin(out, f);
	/* in the order of the rows, which a rewrite during the run keeps while no row changes hands */
	for (uint32_t i = 0; i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];
		struct prom_labels l = *ls;
		char wakee[WP_TASK_COMM_LEN + 16];

		snprintf(wakee, sizeof(wakee), "%.*s %u", (int)strnlen(p->wakee_comm, sizeof(p->wakee_comm)),
			 p->wakee_comm, p->wakee_tid);
		/* the class too: two keys of one pair table never make one series */
		prom__label(&l, "waker_class", mechanism__waker_class_name(p->waker_class));
		prom__label(&l, "waker", p->waker);
		prom__label(&l, "wakee", wakee);
		prom__label(&l, "mechanism", p->mechanism);
		prom__histogram(out, prometheus_common__name(f), &l, notify ? &p->notify_to_return : &p->wake_to_run);
	}
}

/* print_keyed - the family @f of @cap's series and other's: @labels name a key's parts, @sample one's numbers */
static void print_keyed(FILE *out, enum prometheus_family f, const struct prom_labels *ls, const struct series_cap *cap,
			const char *const *labels, size_t nr_labels,
			void (*sample)(FILE *out, const char *name, const struct prom_labels *ls, const void *data))
{
	char buf[SERIES_KEY_LEN];
	const char *parts[3];

	prometheus_common__begin(out, f);
	for (size_t i = 0; i <= series_cap__count(cap); i++) {
		const void *data = cgroup_stats__series(cap, i, buf, sizeof(buf), parts, nr_labels);
		struct prom_labels l = *ls;

		for (size_t k = 0; k < nr_labels; k++)
			prom__label(&l, labels[k], parts[k]);
		sample(out, prometheus_common__name(f), &l, data);
	}
}

static void cgroup_histogram(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	const struct cgroup_series *c = data;
	uint64_t rows[HIST_LOG2_ROWS];

	slow_hist__log2_rows(&c->wake_to_run, rows);
	prom__log2_histogram(out, name, ls, rows, c->wake_to_run.count, c->wake_to_run.sum_ns);
}

static void cgroup_neighbour(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	prom__seconds(out, name, ls, ((const struct cgroup_series *)data)->neighbour_ns);
}

static void holder_wait(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	prom__seconds(out, name, ls, ((const struct holder_series *)data)->runq_wait_ns);
}

static void pair_wakeups(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	prom__uint(out, name, ls, ((const struct pair_series *)data)->wakeups);
}

static void pair_seconds(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	prom__seconds(out, name, ls, ((const struct pair_series *)data)->wake_to_run_ns);
}

static void chain_held(FILE *out, const char *name, const struct prom_labels *ls, const void *data)
{
	const struct chain_held_series *h = data;
	struct prom_labels l = prom__with(ls, "as", "run");

	prom__seconds(out, name, &l, h->ran_ns);
	l = prom__with(ls, "as", "wait");
	prom__seconds(out, name, &l, h->runnable_ns);
}

/* print_cgroups - the wakeups by cgroup, every series capped (cgroup_stats.h) */
static void print_cgroups(FILE *out, const struct prom_labels *ls, const struct cgroup_stats *s)
{
	static const char *const cgroup[] = { "cgroup" };
	static const char *const holder[] = { "cgroup", "holder" };
	static const char *const pair[] = { "waker_cgroup", "cgroup", "mechanism" };
	const struct series_cap *caps[] = { s->cgroups, s->holders, s->pairs, s->chain_held };
	static const char *const kinds[] = { "cgroup", "holder", "pair", "chain_held" };
	/* chain_held with --chains alone */
	size_t nr_caps = s->chain_held ? 4 : 3;
	struct series_cap_stats st;

	print_keyed(out, FAMILY_CGROUP_WAKE_TO_RUN, ls, s->cgroups, cgroup, 1, cgroup_histogram);
	print_keyed(out, FAMILY_CGROUP_NEIGHBOUR, ls, s->cgroups, cgroup, 1, cgroup_neighbour);
	print_keyed(out, FAMILY_CGROUP_RUNQ_WAIT, ls, s->holders, holder, 2, holder_wait);
	print_keyed(out, FAMILY_CGROUP_PAIR_WAKEUPS, ls, s->pairs, pair, 3, pair_wakeups);
	print_keyed(out, FAMILY_CGROUP_PAIR_SECONDS, ls, s->pairs, pair, 3, pair_seconds);
	if (s->chain_held)
		print_keyed(out, FAMILY_CGROUP_CHAIN_HELD, ls, s->chain_held, holder, 2, chain_held);
	for (int f = FAMILY_MECH_WAKEUPS; f <= FAMILY_MECH_SECONDS; f++) {
		prometheus_common__begin(out, f);
		for (unsigned int m = 0; m < NR_MECH_FAMILIES; m++) {
			struct prom_labels l = prom__with(ls, "mechanism", mechanism__family_name(m));

			if (f == FAMILY_MECH_WAKEUPS)
				prom__uint(out, prometheus_common__name(f), &l, s->by_family[m].wakeups);
			else
				prom__seconds(out, prometheus_common__name(f), &l, s->by_family[m].wake_to_run_ns);
		}
	}
	for (int f = FAMILY_SERIES_LIMIT; f <= FAMILY_SERIES_KEYS; f++) {
		prometheus_common__begin(out, f);
		for (size_t k = 0; k < nr_caps; k++) {
			struct prom_labels l = prom__with(ls, "kind", kinds[k]);

			series_cap__stats(caps[k], &st);
			prom__uint(out, prometheus_common__name(f), &l,
				   f == FAMILY_SERIES_LIMIT ? series_cap__limit(caps[k]) : st.keys);
		}
	}
}

/* print_self - what a service costs as it runs */
static void print_self(FILE *out, const struct prom_labels *ls, const struct prometheus_self *self)
{
	const struct {
		const char *reason;
		uint64_t n;
	} closed[] = {
		{ "timed_out", self->conns_timed_out },
		{ "evicted", self->conns_evicted },
		{ "refused", self->conns_refused },
	};

	prometheus_common__begin(out, FAMILY_SELF_CPU);
	prom__seconds(out, prometheus_common__name(FAMILY_SELF_CPU), ls, self->cpu_ns);
	prometheus_common__only_uint(out, FAMILY_SELF_RSS, ls, self->rss_bytes);
	prometheus_common__only_uint(out, FAMILY_SCRAPES, ls, self->scrapes);
	prometheus_common__begin(out, FAMILY_CONNECTIONS_CLOSED);
	for (size_t i = 0; i < sizeof(closed) / sizeof(closed[0]); i++) {
		struct prom_labels l = prom__with(ls, "reason", closed[i].reason);

		prom__uint(out, prometheus_common__name(FAMILY_CONNECTIONS_CLOSED), &l, closed[i].n);
	}
	if (self->bpf_known) {
		prometheus_common__only_uint(out, FAMILY_BPF_RUNS, ls, self->bpf_runs);
		prometheus_common__begin(out, FAMILY_BPF_RUN_SECONDS);
		prom__seconds(out, prometheus_common__name(FAMILY_BPF_RUN_SECONDS), ls, self->bpf_run_ns);
	}
	if (self->steal_known) {
		prometheus_common__begin(out, FAMILY_STEAL);
		prom__seconds(out, prometheus_common__name(FAMILY_STEAL), ls, self->steal_ns);
	}
}

/* print_losses - wakeprobe_lost_total: every loss by what it was, the same samples whatever the engine */
static void print_losses(FILE *out, const struct prom_labels *ls, const struct prometheus_attach *a)
{
	uint64_t wakeups = a->lean ? (uint64_t)a->bpf->dropped[WP_EV_LEAN] : 0;
	const struct {
		const char *what;
		uint64_t n;
	} losses[] = {
		{ "wakeup_records_dropped", wakeups },
		{ "other_records_dropped", a->drops > wakeups ? a->drops - wakeups : 0 },
		{ "processes_untracked", (uint64_t)a->bpf->tracked_full },
		{ "task_storage_refused", a->lean_counters ? (uint64_t)a->lean_counters->no_storage : 0 },
		{ "flight_records_lost", a->counters->flight_lost },
	};

	prometheus_common__begin(out, FAMILY_LOST);
	for (size_t i = 0; i < sizeof(losses) / sizeof(losses[0]); i++) {
		struct prom_labels l = prom__with(ls, "what", losses[i].what);

		prom__uint(out, prometheus_common__name(FAMILY_LOST), &l, losses[i].n);
	}
}

void prometheus_attach__print(FILE *out, const struct prometheus_attach *a)
{
	const struct attach_aggregate *g = a->agg;
	struct prom_labels ls = { .n = 0 };

	prom__label(&ls, "host", a->host);
	prom__label(&ls, "target", a->target);
	if (a->started_unix_ns) {
		prometheus_common__begin(out, FAMILY_START);
		prom__seconds(out, prometheus_common__name(FAMILY_START), &ls, a->started_unix_ns);
	}
	prometheus_common__begin(out, FAMILY_TRACED);
	prom__seconds(out, prometheus_common__name(FAMILY_TRACED), &ls, a->traced_ns);

	prometheus_common__begin(out, FAMILY_PHASE);
	for (int p = 0; p < NR_PHASES; p++) {
		struct prom_labels l = prom__with(&ls, "phase", wakeup__phase_name(p));

		if (attach_phase(p))
			prom__histogram(out, prometheus_common__name(FAMILY_PHASE), &l, &g->phase[p]);
	}
	prometheus_common__begin(out, FAMILY_WAKEUP);
	prom__histogram(out, prometheus_common__name(FAMILY_WAKEUP), &ls, &g->total);
	/* a thread's pair is labelled by its tid: by cgroup, the pairs are the cgroups' instead */
	if (a->cgroups) {
		print_cgroups(out, &ls, a->cgroups);
	} else {
		print_pairs(out, &ls, g, false);
		print_pairs(out, &ls, g, true);
	}

	prometheus_common__begin(out, FAMILY_WAKEUPS);
	prometheus_common__labels(out, &ls, g->by_label);
	prometheus_common__begin(out, FAMILY_WAKER_CLASS);
	for (unsigned int c = 0; c < WP_WAKER_CLASS_MAX; c++) {
		struct prom_labels l = prom__with(&ls, "waker_class", mechanism__waker_class_name(c));

		prom__uint(out, prometheus_common__name(FAMILY_WAKER_CLASS), &l, g->by_class[c]);
	}
	prometheus_common__only_uint(out, FAMILY_PAIRS_UNTABLED, &ls, g->pairs_evicted);
	prometheus_common__only_uint(out, FAMILY_PAIRS_REPLACED, &ls, g->pairs_replaced);
	prometheus_common__begin(out, FAMILY_CAUSE);
	prometheus_common__causes(out, &ls, &g->causes);
	prometheus_common__only_uint(out, FAMILY_EXPLAINED, &ls, g->causes.wakeups);

	prometheus_common__only_uint(out, FAMILY_DROPPED, &ls, a->drops);
	prometheus_common__only_uint(out, FAMILY_RECORDS, &ls, a->counters->events);
	if (g->wakeups) {
		prometheus_common__begin(out, FAMILY_RECORDS_PER_WAKEUP);
		prom__double(out, prometheus_common__name(FAMILY_RECORDS_PER_WAKEUP), &ls,
			     (double)a->counters->events / (double)g->wakeups);
	}
	if (a->missed_runs_known)
		prometheus_common__only_uint(out, FAMILY_MISSED_RUNS, &ls, a->missed_runs);
	if (a->bpf)
		print_losses(out, &ls, a);
	/* the end's figures: a rewrite during the run has none yet */
	if (a->cost && a->cost->known && a->cost->bpf_stats_on) {
		prometheus_common__only_uint(out, FAMILY_BPF_RUNS, &ls, a->cost->bpf_runs);
		prometheus_common__begin(out, FAMILY_BPF_RUN_SECONDS);
		prom__seconds(out, prometheus_common__name(FAMILY_BPF_RUN_SECONDS), &ls, a->cost->bpf_run_ns);
	}
	if (a->self) {
		print_self(out, &ls, a->self);
	} else if (a->cost && a->cost->known) {
		prometheus_common__begin(out, FAMILY_SELF_CPU);
		prom__seconds(out, prometheus_common__name(FAMILY_SELF_CPU), &ls, a->cost->self_cpu_ns);
	}
}
