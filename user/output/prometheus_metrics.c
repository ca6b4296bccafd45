// SPDX-License-Identifier: GPL-2.0
/* prometheus_metrics.c - a run's numbers as wakeprobe_* Prometheus metrics */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mechanism.h"
#include "prom.h"
#include "prometheus_metrics.h"

enum family {
	F_START,
	F_TRACED,
	F_PHASE,
	F_WAKEUP,
	F_PAIR_WAKE_TO_RUN,
	F_PAIR_NOTIFY_TO_RETURN,
	F_WAKEUPS,
	F_WAKER_CLASS,
	F_PAIRS_UNTABLED,
	F_PAIRS_REPLACED,
	F_CAUSE,
	F_EXPLAINED,
	F_DROPPED,
	F_RECORDS,
	F_RECORDS_PER_WAKEUP,
	F_MISSED_RUNS,
	F_BPF_RUNS,
	F_BPF_RUN_SECONDS,
	F_SELF_CPU,
	F_SELF_RSS,
	F_SCRAPES,
	F_STEAL,
	F_CGROUP_WAKE_TO_RUN,
	F_CGROUP_RUNQ_WAIT,
	F_CGROUP_NEIGHBOUR,
	F_CGROUP_PAIR_WAKEUPS,
	F_CGROUP_PAIR_SECONDS,
	F_MECH_WAKEUPS,
	F_MECH_SECONDS,
	F_SERIES_LIMIT,
	F_SERIES_KEYS,
	NR_FAMILIES,
};

/* one table, so that a family has the same name, type and HELP in every file */
static const struct {
	const char *name;
	const char *type;
	const char *help;
} families[NR_FAMILIES] = {
	[F_START] = { "wakeprobe_run_start_timestamp_seconds", "gauge",
		      "When the run began, Unix time: a new value means the counters started over." },
	[F_TRACED] = { "wakeprobe_traced_seconds_total", "counter", "How long the run has traced." },
	[F_PHASE] = { "wakeprobe_phase_seconds", "histogram",
		      "Each phase of the complete wakeups (docs/phases.md; attach mode: the kernel phases)." },
	[F_WAKEUP] = { "wakeprobe_wakeup_seconds", "histogram",
		       "The whole wakeup: complete ones when traced, every sample when not." },
	[F_PAIR_WAKE_TO_RUN] = { "wakeprobe_pair_wake_to_run_seconds", "histogram",
				 "Attach mode: sched_waking to the wakee's switch-in, per waker -> wakee pair and "
				 "mechanism, of the busiest 128 pairs; a pair's series starts afresh when it takes "
				 "a row." },
	[F_PAIR_NOTIFY_TO_RETURN] = { "wakeprobe_pair_notify_to_return_seconds", "histogram",
				      "Attach mode: the waker's syscall entry to the wait's exit, per pair, where "
				      "both are known." },
	[F_WAKEUPS] = { "wakeprobe_wakeups_total", "counter",
			"Wakeups seen, by label: complete, or why not in the tables (untraced: not traced)." },
	[F_WAKER_CLASS] = { "wakeprobe_wakeups_by_waker_class_total", "counter",
			    "Attach mode: wakeups by what woke them (syscall, process, irq, timer, ...; none: no "
			    "waker record)." },
	[F_PAIRS_UNTABLED] = { "wakeprobe_pairs_untabled_wakeups_total", "counter",
			       "Attach mode: complete wakeups in no pair's series, those of pairs whose row a new "
			       "pair took." },
	[F_PAIRS_REPLACED] = { "wakeprobe_pairs_replaced_total", "counter",
			       "Attach mode: times a new pair took the row of the pair with the fewest wakeups, "
			       "once more pairs came than the 128 rows." },
	[F_CAUSE] = { "wakeprobe_cause_seconds_total", "counter",
		      "The explained wakeups' time by what held the CPU (docs/outliers.md): every complete one, "
		      "or with --explain slow the slow ones (wakeprobe_explained_wakeups_total)." },
	[F_EXPLAINED] = { "wakeprobe_explained_wakeups_total", "counter",
			  "The wakeups wakeprobe_cause_seconds_total covers: every complete one, or with "
			  "--explain slow the slow ones its flight recorder explained." },
	[F_DROPPED] = { "wakeprobe_dropped_events_total", "counter",
			"Kernel events the BPF side could not hand over (ring buffer full)." },
	[F_RECORDS] = { "wakeprobe_trace_records_total", "counter", "Kernel records taken in." },
	[F_RECORDS_PER_WAKEUP] = { "wakeprobe_trace_records_per_wakeup", "gauge",
				   "Kernel records taken in per wakeup seen: what tracing a wakeup costs." },
	[F_MISSED_RUNS] = { "wakeprobe_bpf_missed_runs_total", "counter",
			    "BPF program runs the kernel skipped (recursion, or another program on the CPU)." },
	[F_BPF_RUNS] = { "wakeprobe_bpf_program_runs_total", "counter",
			 "BPF program runs, as the programs counted them (the run's tracing cost)." },
	[F_SELF_RSS] = { "wakeprobe_self_resident_bytes", "gauge", "wakeprobe's own resident memory now." },
	[F_SCRAPES] = { "wakeprobe_scrapes_total", "counter", "Scrapes of /metrics answered, this one included." },
	[F_STEAL] = { "wakeprobe_steal_seconds_total", "counter",
		      "The machine's steal time over all its CPUs since it booted (/proc/stat): the time the "
		      "hypervisor ran something else while a vCPU had work." },
	[F_CGROUP_WAKE_TO_RUN] = { "wakeprobe_cgroup_wake_to_run_seconds", "histogram",
				   "Complete wakeups by the wakee's cgroup: sched_waking to its switch-in. The "
				   "cgroups with the most time have a series each (wakeprobe_series_limit), the "
				   "rest are cgroup=\"other\"." },
	[F_CGROUP_RUNQ_WAIT] = { "wakeprobe_cgroup_runq_wait_seconds_total", "counter",
				 "Run-queue wait (sched_wakeup to the switch-in) by the wakee's cgroup and the "
				 "holder's: the cgroup of the task the wakee took the CPU from (idle: none ran)." },
	[F_CGROUP_NEIGHBOUR] = { "wakeprobe_cgroup_neighbour_wait_seconds_total", "counter",
				 "Of the run-queue wait, the part a task of another cgroup held the CPU: the "
				 "noisy neighbours' share." },
	[F_CGROUP_PAIR_WAKEUPS] = { "wakeprobe_cgroup_pair_wakeups_total", "counter",
				    "Complete wakeups by the waker's cgroup (interrupt: none's doing), the wakee's "
				    "and the mechanism's family." },
	[F_CGROUP_PAIR_SECONDS] = { "wakeprobe_cgroup_pair_wake_to_run_seconds_total", "counter",
				    "Their sched_waking to switch-in, summed." },
	[F_MECH_WAKEUPS] = { "wakeprobe_mechanism_wakeups_total", "counter",
			     "Complete wakeups with their cgroups, by the mechanism's family." },
	[F_MECH_SECONDS] = { "wakeprobe_mechanism_wake_to_run_seconds_total", "counter",
			     "Their sched_waking to switch-in, summed, by the mechanism's family." },
	[F_SERIES_LIMIT] = { "wakeprobe_series_limit", "gauge",
			     "Series of their own of each kind (cgroup, holder, pair), at most (--top): the rest "
			     "are \"other\"." },
	[F_SERIES_KEYS] = { "wakeprobe_series_keys", "gauge",
			    "Keys of each kind ranked for a series now, labelled or not." },
	[F_BPF_RUN_SECONDS] = { "wakeprobe_bpf_program_run_seconds_total", "counter",
				"Time in the BPF programs: the kernel's time per run where it timed them, times all runs." },
	[F_SELF_CPU] = { "wakeprobe_self_cpu_seconds_total", "counter",
			 "wakeprobe's own CPU time, user and system, while it traced (not the traced program's)." },
};

/* begin - the HELP and TYPE lines of @f, before its first sample */
static void begin(FILE *out, enum family f)
{
	prom__family(out, families[f].name, families[f].type, families[f].help);
}

/* only_uint - the family @f, of one sample: @v */
static void only_uint(FILE *out, enum family f, const struct prom_labels *ls, uint64_t v)
{
	begin(out, f);
	prom__uint(out, families[f].name, ls, v);
}

/* a time summed over wakeups: a counter, which cannot go below 0 */
static uint64_t counted_ns(int64_t ns)
{
	return ns > 0 ? (uint64_t)ns : 0;
}

static void print_causes(FILE *out, const struct prom_labels *ls, const struct cause_totals *ct)
{
	for (int c = 0; c < NR_CAUSES; c++) {
		struct prom_labels l = prom__with(ls, "cause", wakeup__cause_name(c));

		prom__seconds(out, families[F_CAUSE].name, &l, counted_ns(ct->cause_ns[c]));
	}
}

static void print_labels(FILE *out, const struct prom_labels *ls, const uint64_t by_label[NR_LABELS])
{
	for (int k = 0; k < NR_LABELS; k++) {
		struct prom_labels l = prom__with(ls, "label", wakeup__label_name(k));

		prom__uint(out, families[F_WAKEUPS].name, &l, by_label[k]);
	}
}

/* ---------------------------------------------------------------- wakeprobe's workloads */

/* a run of a workload, with what its metrics need to know of it */
struct run_view {
	const struct workload_desc *wl;
	const struct run_result *r;
	struct prom_labels ls;
	char host[sizeof(((struct run_meta *)0)->hostname) + 1];
	bool phased;
};

/* run_applies - does the family @f have a sample for @v? */
static bool run_applies(enum family f, const struct run_view *v)
{
	switch (f) {
	case F_START:
		return v->r->meta.started_unix_ns;
	case F_PHASE:
	case F_CAUSE:
	case F_EXPLAINED:
		return v->phased;
	case F_WAKEUP:
	case F_WAKEUPS:
		return true;
	case F_TRACED:
	case F_DROPPED:
	case F_RECORDS:
	case F_MISSED_RUNS:
		return v->r->traced;
	case F_RECORDS_PER_WAKEUP:
		return v->r->traced && v->r->agg.samples;
	case F_BPF_RUNS:
	case F_BPF_RUN_SECONDS:
		return v->r->traced && v->r->cost.bpf_stats_on;
	case F_SELF_CPU:
		return v->r->traced && v->r->cost.known;
	default:
		return false;	/* attach mode's own */
	}
}

static void print_run(FILE *out, enum family f, const struct run_view *v)
{
	const struct run_result *r = v->r;
	const char *name = families[f].name;
	const struct prom_labels *ls = &v->ls;

	switch (f) {
	case F_START:
		prom__seconds(out, name, ls, r->meta.started_unix_ns);
		break;
	case F_TRACED:
		prom__seconds(out, name, ls, r->trace_end_ns > r->trace_start_ns ? r->trace_end_ns - r->trace_start_ns : 0);
		break;
	case F_PHASE:
		for (int p = 0; p < NR_PHASES; p++) {
			struct prom_labels l = prom__with(ls, "phase", wakeup__phase_name(p));

			prom__histogram(out, name, &l, &r->agg.phase[p]);
		}
		break;
	case F_WAKEUP:
		prom__histogram(out, name, ls, r->traced ? &r->agg.total : &r->agg.all_total);
		break;
	case F_WAKEUPS:
		if (r->traced) {
			print_labels(out, ls, r->agg.by_label);
		} else {
			struct prom_labels l = prom__with(ls, "label", "untraced");

			prom__uint(out, name, &l, r->agg.samples);
		}
		break;
	case F_CAUSE:
		print_causes(out, ls, &r->agg.causes);
		break;
	case F_EXPLAINED:
		prom__uint(out, name, ls, r->agg.causes.wakeups);
		break;
	case F_DROPPED:
		prom__uint(out, name, ls, r->drops_total);
		break;
	case F_RECORDS:
		prom__uint(out, name, ls, r->merge.events);
		break;
	case F_RECORDS_PER_WAKEUP:
		prom__double(out, name, ls, (double)r->merge.events / (double)r->agg.samples);
		break;
	case F_MISSED_RUNS:
		prom__uint(out, name, ls, r->missed_runs);
		break;
	case F_BPF_RUNS:
		prom__uint(out, name, ls, r->cost.bpf_runs);
		break;
	case F_BPF_RUN_SECONDS:
		prom__seconds(out, name, ls, r->cost.bpf_run_ns);
		break;
	case F_SELF_CPU:
		prom__seconds(out, name, ls, r->cost.self_cpu_ns);
		break;
	default:
		break;
	}
}

int prometheus_metrics__print_runs(FILE *out, const struct workload_desc *const *wl,
				   const struct run_result *const *res, size_t n)
{
	struct run_view *views = calloc(n ? n : 1, sizeof(*views));

	if (!views)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct run_view *v = &views[i];

		v->wl = wl[i];
		v->r = res[i];
		v->phased = res[i]->traced && !wl[i]->user_only;
		snprintf(v->host, sizeof(v->host), "%.*s", (int)sizeof(res[i]->meta.hostname),
			 res[i]->meta.hostname);
		prom__label(&v->ls, "host", v->host);
		prom__label(&v->ls, "workload", wl[i]->name);
	}
	/* a family's samples go together, run after run */
	for (int f = 0; f < NR_FAMILIES; f++) {
		bool begun = false;

		for (size_t i = 0; i < n; i++) {
			if (!run_applies(f, &views[i]))
				continue;
			if (!begun)
				begin(out, f);
			begun = true;
			print_run(out, f, &views[i]);
		}
	}
	free(views);
	return 0;
}

/* ---------------------------------------------------------------- attach mode */

/* the attach run's kernel phases: attach mode has no stamps inside the program for the two user ones */
static bool attach_phase(int p)
{
	return p != PHASE_NOTIFY_USER && p != PHASE_RESUME_USER;
}

static void print_pairs(FILE *out, const struct prom_labels *ls, const struct attach_aggregate *g, bool notify)
{
	enum family f = notify ? F_PAIR_NOTIFY_TO_RETURN : F_PAIR_WAKE_TO_RUN;

	if (!g->nr_pairs)
		return;
	begin(out, f);
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
		prom__histogram(out, families[f].name, &l, notify ? &p->notify_to_return : &p->wake_to_run);
	}
}

/* print_keyed - the family @f of @cap's series and other's: @labels name a key's parts, @sample one's numbers */
static void print_keyed(FILE *out, enum family f, const struct prom_labels *ls, const struct series_cap *cap,
			const char *const *labels, size_t nr_labels,
			void (*sample)(FILE *out, const char *name, const struct prom_labels *ls, const void *data))
{
	char buf[SERIES_KEY_LEN];
	const char *parts[3];

	begin(out, f);
	for (size_t i = 0; i <= series_cap__count(cap); i++) {
		const void *data = cgroup_stats__series(cap, i, buf, sizeof(buf), parts, nr_labels);
		struct prom_labels l = *ls;

		for (size_t k = 0; k < nr_labels; k++)
			prom__label(&l, labels[k], parts[k]);
		sample(out, families[f].name, &l, data);
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

/* print_cgroups - the wakeups by cgroup, every series capped (cgroup_stats.h) */
static void print_cgroups(FILE *out, const struct prom_labels *ls, const struct cgroup_stats *s)
{
	static const char *const cgroup[] = { "cgroup" };
	static const char *const holder[] = { "cgroup", "holder" };
	static const char *const pair[] = { "waker_cgroup", "cgroup", "mechanism" };
	const struct series_cap *caps[] = { s->cgroups, s->holders, s->pairs };
	static const char *const kinds[] = { "cgroup", "holder", "pair" };
	struct series_cap_stats st;

	print_keyed(out, F_CGROUP_WAKE_TO_RUN, ls, s->cgroups, cgroup, 1, cgroup_histogram);
	print_keyed(out, F_CGROUP_NEIGHBOUR, ls, s->cgroups, cgroup, 1, cgroup_neighbour);
	print_keyed(out, F_CGROUP_RUNQ_WAIT, ls, s->holders, holder, 2, holder_wait);
	print_keyed(out, F_CGROUP_PAIR_WAKEUPS, ls, s->pairs, pair, 3, pair_wakeups);
	print_keyed(out, F_CGROUP_PAIR_SECONDS, ls, s->pairs, pair, 3, pair_seconds);
	for (int f = F_MECH_WAKEUPS; f <= F_MECH_SECONDS; f++) {
		begin(out, f);
		for (unsigned int m = 0; m < NR_MECH_FAMILIES; m++) {
			struct prom_labels l = prom__with(ls, "mechanism", mechanism__family_name(m));

			if (f == F_MECH_WAKEUPS)
				prom__uint(out, families[f].name, &l, s->by_family[m].wakeups);
			else
				prom__seconds(out, families[f].name, &l, s->by_family[m].wake_to_run_ns);
		}
	}
	for (int f = F_SERIES_LIMIT; f <= F_SERIES_KEYS; f++) {
		begin(out, f);
		for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
			struct prom_labels l = prom__with(ls, "kind", kinds[k]);

			series_cap__stats(caps[k], &st);
			prom__uint(out, families[f].name, &l, f == F_SERIES_LIMIT ? series_cap__limit(caps[k]) : st.keys);
		}
	}
}

/* print_self - what a service costs as it runs */
static void print_self(FILE *out, const struct prom_labels *ls, const struct prometheus_self *self)
{
	begin(out, F_SELF_CPU);
	prom__seconds(out, families[F_SELF_CPU].name, ls, self->cpu_ns);
	only_uint(out, F_SELF_RSS, ls, self->rss_bytes);
	only_uint(out, F_SCRAPES, ls, self->scrapes);
	if (self->bpf_known) {
		only_uint(out, F_BPF_RUNS, ls, self->bpf_runs);
		begin(out, F_BPF_RUN_SECONDS);
		prom__seconds(out, families[F_BPF_RUN_SECONDS].name, ls, self->bpf_run_ns);
	}
	if (self->steal_known) {
		begin(out, F_STEAL);
		prom__seconds(out, families[F_STEAL].name, ls, self->steal_ns);
	}
}

void prometheus_metrics__print_attach(FILE *out, const struct prometheus_attach *a)
{
	const struct attach_aggregate *g = a->agg;
	struct prom_labels ls = { .n = 0 };

	prom__label(&ls, "host", a->host);
	prom__label(&ls, "target", a->target);
	if (a->started_unix_ns) {
		begin(out, F_START);
		prom__seconds(out, families[F_START].name, &ls, a->started_unix_ns);
	}
	begin(out, F_TRACED);
	prom__seconds(out, families[F_TRACED].name, &ls, a->traced_ns);

	begin(out, F_PHASE);
	for (int p = 0; p < NR_PHASES; p++) {
		struct prom_labels l = prom__with(&ls, "phase", wakeup__phase_name(p));

		if (attach_phase(p))
			prom__histogram(out, families[F_PHASE].name, &l, &g->phase[p]);
	}
	begin(out, F_WAKEUP);
	prom__histogram(out, families[F_WAKEUP].name, &ls, &g->total);
	/* a thread's pair is labelled by its tid: by cgroup, the pairs are the cgroups' instead */
	if (a->cgroups) {
		print_cgroups(out, &ls, a->cgroups);
	} else {
		print_pairs(out, &ls, g, false);
		print_pairs(out, &ls, g, true);
	}

	begin(out, F_WAKEUPS);
	print_labels(out, &ls, g->by_label);
	begin(out, F_WAKER_CLASS);
	for (unsigned int c = 0; c < WP_WAKER_CLASS_MAX; c++) {
		struct prom_labels l = prom__with(&ls, "waker_class", mechanism__waker_class_name(c));

		prom__uint(out, families[F_WAKER_CLASS].name, &l, g->by_class[c]);
	}
	only_uint(out, F_PAIRS_UNTABLED, &ls, g->pairs_evicted);
	only_uint(out, F_PAIRS_REPLACED, &ls, g->pairs_replaced);
	begin(out, F_CAUSE);
	print_causes(out, &ls, &g->causes);
	only_uint(out, F_EXPLAINED, &ls, g->causes.wakeups);

	only_uint(out, F_DROPPED, &ls, a->drops);
	only_uint(out, F_RECORDS, &ls, a->counters->events);
	if (g->wakeups) {
		begin(out, F_RECORDS_PER_WAKEUP);
		prom__double(out, families[F_RECORDS_PER_WAKEUP].name, &ls,
			     (double)a->counters->events / (double)g->wakeups);
	}
	if (a->missed_runs_known)
		only_uint(out, F_MISSED_RUNS, &ls, a->missed_runs);
	/* the end's figures: a rewrite during the run has none yet */
	if (a->cost && a->cost->known && a->cost->bpf_stats_on) {
		only_uint(out, F_BPF_RUNS, &ls, a->cost->bpf_runs);
		begin(out, F_BPF_RUN_SECONDS);
		prom__seconds(out, families[F_BPF_RUN_SECONDS].name, &ls, a->cost->bpf_run_ns);
	}
	if (a->self) {
		print_self(out, &ls, a->self);
	} else if (a->cost && a->cost->known) {
		begin(out, F_SELF_CPU);
		prom__seconds(out, families[F_SELF_CPU].name, &ls, a->cost->self_cpu_ns);
	}
}
