// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis.c - a run's inputs into its result, the same live and
 * replayed: clock pairs, kernel events, samples, fds and watermarks fed
 * in, the tap seeing every one in order before the analysis takes it, and
 * the result (each merged sample, the aggregate, the merge counters) the
 * very one a merger fed the same inputs gives. An untraced run hands each
 * sample over with its totals only.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "events.h"

/* the synthetic eventfd path of test_merger.c: WAKER writes EFD, WAKEE waits in read(EFD) */
#define WAKER		1001u
#define WAKEE		1002u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define EFD		5
#define NR_READ		0
#define NR_WRITE	1
#define TASK_INTERRUPTIBLE 1u

#define T0		1000000000ull
#define SAMPLE_GAP	100000ull
#define NR_SAMPLES	5
#define TRACE_START	(T0 - 50000)
/* tracing stops before the last sample's notify: that one is out of the window */
#define TRACE_END	(T0 + (NR_SAMPLES - 1) * SAMPLE_GAP - 1)
#define FINAL_DROPS	2
#define STEAL_NS	700

/* offsets from t_notify of every stamp on the path */
#define OFF_ENTER	300
#define OFF_WAKING	1100
#define OFF_WAKER_EXIT	1500
#define OFF_WAKEUP	1900
#define OFF_SWITCH_IN	5900
#define OFF_WAIT_EXIT	6600
#define OFF_WOKEN	6850
#define OFF_REARM	7150

enum input_kind { IN_BEGIN, IN_CLOCK_PAIR, IN_EVENT, IN_SAMPLE, IN_FDS, IN_ADVANCE, IN_END };

/* one input of a run, as the analysis and the tap take it */
struct input {
	enum input_kind kind;
	struct tsc_pair pair;
	struct wp_event e;
	struct wp_sample s;
	uint64_t t_notify, t_woken, t_wait_start;
	int notify_fd, wait_fd;
	uint64_t complete_ns, drops;
};

#define MAX_INPUTS	128
#define MAX_RESULTS	16

/* what the tap saw: each input, and how far the analysis had got when it did */
struct tap_log {
	struct input in[MAX_INPUTS];
	uint64_t merged_events[MAX_INPUTS];	/* the merger's events when the tap saw the input */
	uint64_t results[MAX_INPUTS];		/* the samples handed over by then */
	size_t n;
	const struct run_config *cfg;
	const struct run_result *begin_res, *end_res;
	uint64_t begin_trace_start, end_trace_end, end_drops;
	bool begin_traced;
};

/* the samples handed over */
struct results {
	struct sample_result r[MAX_RESULTS];
	size_t n;
};

static struct input script[MAX_INPUTS];
static size_t nr_script;
static struct analysis an;
static struct run_result *res;
static struct tap_log *tapped;
static struct results got, want;
static struct wp_event seen[MAX_INPUTS];
static size_t nr_seen;

static void setup(void)
{
	res = calloc(1, sizeof(*res));
	tapped = calloc(1, sizeof(*tapped));
	cr_assert(res && tapped);
	memset(&an, 0, sizeof(an));
	memset(&got, 0, sizeof(got));
	memset(&want, 0, sizeof(want));
	nr_script = 0;
	nr_seen = 0;
}

static void teardown(void)
{
	analysis__free(&an);
	free(res);
	free(tapped);
}

TestSuite(analysis, .init = setup, .fini = teardown);

/* ---------------------------------------------------------------- the tap */

static struct input *logged(enum input_kind kind)
{
	struct input *in;

	cr_assert_lt(tapped->n, MAX_INPUTS);
	in = &tapped->in[tapped->n];
	memset(in, 0, sizeof(*in));
	in->kind = kind;
	tapped->merged_events[tapped->n] = an.merger ? merger__stats(an.merger)->events : 0;
	tapped->results[tapped->n] = got.n;
	tapped->n++;
	return in;
}

static void tap_begin(void *ctx, const struct run_config *cfg, const struct run_result *r)
{
	cr_assert_eq(ctx, tapped);
	logged(IN_BEGIN);
	tapped->cfg = cfg;
	tapped->begin_res = r;
	tapped->begin_trace_start = r->trace_start_ns;
	tapped->begin_traced = r->traced;
}

static void tap_clock_pair(void *ctx, const struct tsc_pair *p)
{
	(void)ctx;
	logged(IN_CLOCK_PAIR)->pair = *p;
}

static void tap_event(void *ctx, const struct wp_event *e)
{
	(void)ctx;
	logged(IN_EVENT)->e = *e;
}

static void tap_sample(void *ctx, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		       uint64_t t_wait_start_ns)
{
	struct input *in = logged(IN_SAMPLE);

	(void)ctx;
	in->s = *s;
	in->t_notify = t_notify_ns;
	in->t_woken = t_woken_ns;
	in->t_wait_start = t_wait_start_ns;
}

static void tap_fds(void *ctx, int notify_fd, int wait_fd)
{
	struct input *in = logged(IN_FDS);

	(void)ctx;
	in->notify_fd = notify_fd;
	in->wait_fd = wait_fd;
}

static void tap_advance(void *ctx, uint64_t complete_ns, uint64_t drops)
{
	struct input *in = logged(IN_ADVANCE);

	(void)ctx;
	in->complete_ns = complete_ns;
	in->drops = drops;
}

static void tap_end(void *ctx, const struct run_result *r)
{
	(void)ctx;
	logged(IN_END);
	tapped->end_res = r;
	tapped->end_trace_end = r->trace_end_ns;
	tapped->end_drops = r->drops_total;
}

static const struct analysis_tap full_tap = {
	.begin = tap_begin,
	.clock_pair = tap_clock_pair,
	.event = tap_event,
	.sample = tap_sample,
	.fds = tap_fds,
	.advance = tap_advance,
	.end = tap_end,
};

static void keep(const struct sample_result *r, void *ctx)
{
	struct results *rs = ctx;

	cr_assert_lt(rs->n, MAX_RESULTS);
	rs->r[rs->n++] = *r;
}

static void on_event(const struct wp_event *e, void *ctx)
{
	cr_assert_eq(ctx, seen);
	cr_assert_lt(nr_seen, MAX_INPUTS);
	seen[nr_seen++] = *e;
}

/* ---------------------------------------------------------------- the run */

static struct input *scripted(enum input_kind kind)
{
	struct input *in;

	cr_assert_lt(nr_script, MAX_INPUTS);
	in = &script[nr_script++];
	memset(in, 0, sizeof(*in));
	in->kind = kind;
	return in;
}

static void event(struct wp_event e)
{
	scripted(IN_EVENT)->e = e;
}

/* the wakee enters read(EFD) at @ts and blocks in it */
static void block(uint64_t ts)
{
	event(ev_sys_enter(ts, WAKEE_CPU, WAKEE, NR_READ, EFD));
	event(ev_switch(ts + 600, WAKEE_CPU, WAKEE, 0, TASK_INTERRUPTIBLE, 0));
}

/* path - the events of the wakeup notified at @t */
static void path(uint64_t t)
{
	event(ev_sys_enter(t + OFF_ENTER, WAKER_CPU, WAKER, NR_WRITE, EFD));
	event(ev_waking(t + OFF_WAKING, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0));
	event(ev_sys_exit(t + OFF_WAKER_EXIT, WAKER_CPU, WAKER, NR_WRITE, 8));
	event(ev_wakeup(t + OFF_WAKEUP, WAKEE_CPU, 0, WAKEE, WAKEE_CPU));
	event(ev_switch(t + OFF_SWITCH_IN, WAKEE_CPU, 0, WAKEE, 0, 0));
	event(ev_sys_exit(t + OFF_WAIT_EXIT, WAKEE_CPU, WAKEE, NR_READ, 8));
}

/*
 * wakeup - sample @seq, after the events of its path unless it was taken
 * once tracing stopped (@traced false); then, if @rearm, the wakee blocks again
 */
static void wakeup(uint64_t seq, bool traced, bool rearm)
{
	uint64_t t = T0 + (seq - 1) * SAMPLE_GAP;
	struct input *in;

	if (traced)
		path(t);
	in = scripted(IN_SAMPLE);
	in->s.seq = seq;
	in->s.tsc_notify = 3000 * seq;
	in->s.tsc_woken = 3000 * seq + 1000;
	in->s.waker_tid = WAKER;
	in->s.wakee_tid = WAKEE;
	in->s.waker_cpu = WAKER_CPU;
	in->s.wakee_cpu = WAKEE_CPU;
	in->s.value = 1;
	in->t_notify = t;
	in->t_woken = t + OFF_WOKEN;
	in->t_wait_start = t - SAMPLE_GAP + OFF_REARM;
	if (rearm)
		block(t + OFF_REARM);
}

/*
 * make_script - a run as a live session feeds it: the clock fit, the fds,
 * the wakee asleep, two wakeups, a watermark past them, two more wakeups
 * (the last still open at the end, when the drops counted after the last
 * event reach it), a sample taken once tracing stopped, the end
 */
static void make_script(void)
{
	struct input *in;

	scripted(IN_BEGIN);
	for (int i = 0; i < 3; i++) {
		in = scripted(IN_CLOCK_PAIR);
		in->pair = (struct tsc_pair){ .tsc = 1000000 + 3000000ull * i, .mono_ns = T0 - 90000 + 1000000ull * i,
					      .width = 40 + i };
	}
	in = scripted(IN_FDS);
	in->notify_fd = EFD;
	in->wait_fd = EFD;
	/* the host stole 700 ns of the waker's CPU, and more of a CPU the run does not use */
	event(ev_steal(T0 - 30000, WAKER_CPU, 0, STEAL_NS, T0 - 40000));
	event(ev_steal(T0 - 30000, 5, 0, 9000, T0 - 40000));
	block(T0 - 20000);
	wakeup(1, true, true);
	wakeup(2, true, true);
	in = scripted(IN_ADVANCE);
	in->complete_ns = T0 + SAMPLE_GAP + OFF_REARM + 1000 + ANALYSIS_CLOCK_SLACK_NS;
	in->drops = 0;
	wakeup(3, true, true);
	wakeup(4, true, false);
	wakeup(5, false, false);
	scripted(IN_END);
}

/* script_events - how many events the script holds */
static size_t script_events(void)
{
	size_t n = 0;

	for (size_t i = 0; i < nr_script; i++)
		n += script[i].kind == IN_EVENT;
	return n;
}

static struct run_config config(bool traced)
{
	return (struct run_config){
		.workload = catalog__find("eventfd"),
		.samples = NR_SAMPLES,
		.interval_us = 100,
		.waker_cpu = WAKER_CPU,
		.wakee_cpu = WAKEE_CPU,
		.traced = traced,
	};
}

/* run_analysis - the script through the analysis of a run @cfg, as @o asks */
static void run_analysis(const struct run_config *cfg, struct analysis_opts o)
{
	snprintf(res->meta.hostname, sizeof(res->meta.hostname), "testhost");
	res->trace_start_ns = TRACE_START;
	for (size_t i = 0; i < nr_script; i++) {
		const struct input *in = &script[i];

		switch (in->kind) {
		case IN_BEGIN:
			cr_assert_eq(analysis__begin(&an, cfg, &o, res), 0);
			break;
		case IN_CLOCK_PAIR:
			analysis__clock_pair(&an, &in->pair);
			break;
		case IN_EVENT:
			analysis__event(&an, &in->e);
			break;
		case IN_SAMPLE:
			analysis__sample(&an, &in->s, in->t_notify, in->t_woken, in->t_wait_start);
			break;
		case IN_FDS:
			analysis__fds(&an, in->notify_fd, in->wait_fd);
			break;
		case IN_ADVANCE:
			analysis__advance(&an, in->complete_ns, in->drops);
			break;
		case IN_END:
			/* the session sets the end-of-run fields, then ends the analysis */
			res->trace_end_ns = TRACE_END;
			res->drops_total = FINAL_DROPS;
			analysis__end(&an);
			break;
		}
	}
}

/* run_merger - the same script through a merger configured as the catalog says, into @agg: its stats */
static struct merger_stats run_merger(struct aggregate *agg, const struct analysis_opts *o)
{
	const struct workload_desc *wl = catalog__find("eventfd");
	struct merger_config mcfg = {
		.notify_syscalls = wl->notify_syscalls,
		.wait_syscalls = wl->wait_syscalls,
		.wait_end = wl->wait_end,
		.clock_slack_ns = ANALYSIS_CLOCK_SLACK_NS,
		.notify_fd = -1,
		.wait_fd = -1,
	};
	struct merger *m = merger__new(&mcfg, keep, &want);
	struct merger_stats st;

	cr_assert_not_null(m);
	aggregate__init(agg);
	aggregate__want_outliers(agg, o->outliers, o->outlier_threshold_ns);
	merger__set_window(m, TRACE_START, UINT64_MAX);
	for (size_t i = 0; i < nr_script; i++) {
		const struct input *in = &script[i];

		switch (in->kind) {
		case IN_EVENT:
			merger__add_event(m, &in->e);
			break;
		case IN_SAMPLE:
			cr_assert_eq(merger__add_sample(m, &in->s, in->t_notify, in->t_woken, in->t_wait_start), 0);
			break;
		case IN_FDS:
			merger__set_fds(m, in->notify_fd, in->wait_fd);
			break;
		case IN_ADVANCE:
			merger__note_drops(m, in->drops);
			merger__advance(m, in->complete_ns);
			break;
		case IN_END:
			merger__set_window(m, TRACE_START, TRACE_END);
			merger__finish(m, FINAL_DROPS);
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < want.n; i++)
		aggregate__add(agg, &want.r[i]);
	cause_totals__sort_tasks(&agg->causes);
	st = *merger__stats(m);
	merger__free(m);
	return st;
}

/* expect_tap_saw_the_script - every input, in order, as it was given */
static void expect_tap_saw_the_script(void)
{
	cr_assert_eq(tapped->n, nr_script, "the tap saw %zu inputs of %zu", tapped->n, nr_script);
	for (size_t i = 0; i < nr_script; i++) {
		const struct input *a = &tapped->in[i], *b = &script[i];

		cr_assert_eq(a->kind, b->kind, "input %zu: kind %d, want %d", i, a->kind, b->kind);
		switch (a->kind) {
		case IN_CLOCK_PAIR:
			cr_assert(a->pair.tsc == b->pair.tsc && a->pair.mono_ns == b->pair.mono_ns &&
				  a->pair.width == b->pair.width, "input %zu: another clock pair", i);
			break;
		case IN_EVENT:
			cr_assert_eq(memcmp(&a->e, &b->e, sizeof(a->e)), 0, "input %zu: event at %" PRIu64 " type %u",
				     i, b->e.ts_ns, b->e.type);
			break;
		case IN_SAMPLE:
			cr_assert_eq(memcmp(&a->s, &b->s, sizeof(a->s)), 0, "input %zu: sample %" PRIu64, i, b->s.seq);
			cr_assert(a->t_notify == b->t_notify && a->t_woken == b->t_woken &&
				  a->t_wait_start == b->t_wait_start, "input %zu: sample stamps", i);
			break;
		case IN_FDS:
			cr_assert(a->notify_fd == b->notify_fd && a->wait_fd == b->wait_fd, "input %zu: fds", i);
			break;
		case IN_ADVANCE:
			cr_assert(a->complete_ns == b->complete_ns && a->drops == b->drops, "input %zu: watermark", i);
			break;
		default:
			break;
		}
	}
}

/* ---------------------------------------------------------------- tests */

Test(analysis, the_tap_sees_every_input_in_order_before_the_analysis_takes_it)
{
	struct run_config cfg = config(true);
	uint64_t events = 0;

	make_script();
	run_analysis(&cfg, (struct analysis_opts){ .on_sample = keep, .on_sample_ctx = &got, .tap = &full_tap,
						   .tap_ctx = tapped });
	expect_tap_saw_the_script();

	/* begin: the run's config, into the result, its start already set */
	cr_assert_eq(tapped->cfg, &cfg);
	cr_assert_eq(tapped->begin_res, res);
	cr_assert_eq(tapped->begin_trace_start, TRACE_START);
	cr_assert(tapped->begin_traced);
	/* each event reached the tap before the merger */
	for (size_t i = 0; i < nr_script; i++) {
		cr_assert_eq(tapped->merged_events[i], events, "input %zu: the merger had %" PRIu64 " events, want %" PRIu64,
			     i, tapped->merged_events[i], events);
		if (script[i].kind == IN_EVENT)
			events++;
	}
	/* end: after the end-of-run fields were set, before the merge finished the open samples */
	cr_assert_eq(tapped->end_res, res);
	cr_assert_eq(tapped->end_trace_end, TRACE_END);
	cr_assert_eq(tapped->end_drops, FINAL_DROPS);
	cr_assert_eq(tapped->results[nr_script - 1], 2, "only the two the watermark passed were finished before the end");
	cr_assert_eq(got.n, NR_SAMPLES);
}

Test(analysis, the_result_is_what_the_merger_gives_for_the_same_inputs)
{
	struct run_config cfg = config(true);
	struct analysis_opts o = { .outliers = 2, .outlier_threshold_ns = 1000, .on_sample = keep,
				   .on_sample_ctx = &got, .on_event = on_event, .on_event_ctx = seen };
	struct aggregate *agg = malloc(sizeof(*agg));
	struct merger_stats st;
	size_t events = 0;

	cr_assert_not_null(agg);
	make_script();
	run_analysis(&cfg, o);
	st = run_merger(agg, &o);

	cr_assert_eq(got.n, want.n);
	cr_assert_eq(got.n, NR_SAMPLES);
	for (size_t i = 0; i < got.n; i++) {
		const struct sample_result *a = &got.r[i], *b = &want.r[i];

		cr_assert_eq(a->sample.seq, i + 1);
		cr_assert_eq(a->label, b->label, "seq %zu: %s, the merger says %s", i + 1, wakeup__label_name(a->label),
			     wakeup__label_name(b->label));
		cr_assert_eq(memcmp(a, b, sizeof(*a)), 0, "seq %zu differs from the merger's", i + 1);
	}
	/* what the run shows: complete wakeups, one the drops at the end reach, one after tracing stopped */
	cr_assert_eq(got.r[0].label, LABEL_COMPLETE);
	cr_assert_eq(got.r[0].total_ns, OFF_WOKEN);
	cr_assert_eq(got.r[0].phase_ns[PHASE_RUNQ_WAIT], OFF_SWITCH_IN - OFF_WAKEUP);
	cr_assert_eq(got.r[1].label, LABEL_COMPLETE);
	cr_assert_eq(got.r[2].label, LABEL_COMPLETE);
	cr_assert_eq(got.r[3].label, LABEL_LOST_EVENTS);
	cr_assert_eq(got.r[4].label, LABEL_OUT_OF_WINDOW);

	cr_assert_eq(memcmp(&res->agg, agg, sizeof(*agg)), 0, "the aggregate is not the merger's results summed");
	cr_assert_eq(res->agg.by_label[LABEL_COMPLETE], 3);
	cr_assert_eq(res->agg.nr_outliers, 2);
	cr_assert_eq(memcmp(&res->merge, &st, sizeof(st)), 0, "the merge counters are not the merger's");
	cr_assert_eq(res->merge.samples, NR_SAMPLES);

	/* the rest of the result: who ran, the clock fit, the host's steal on the run's CPUs */
	cr_assert(res->traced);
	cr_assert_eq(res->waker_tid, WAKER);
	cr_assert_eq(res->wakee_tid, WAKEE);
	cr_assert_eq(res->clock.nr_pairs, 3);
	cr_assert_eq(res->steal.seen_ns, STEAL_NS);
	cr_assert_str_eq(res->meta.hostname, "testhost", "the meta set before the run is kept");
	/* on_event saw every event, in order */
	for (size_t i = 0; i < nr_script; i++)
		if (script[i].kind == IN_EVENT) {
			cr_assert_lt(events, nr_seen);
			cr_assert_eq(memcmp(&seen[events], &script[i].e, sizeof(seen[0])), 0, "event %zu", events);
			events++;
		}
	cr_assert_eq(nr_seen, events);
	free(agg);
}

Test(analysis, an_untraced_run_hands_each_sample_over_with_its_totals_only)
{
	struct run_config cfg = config(false);

	make_script();
	run_analysis(&cfg, (struct analysis_opts){ .on_sample = keep, .on_sample_ctx = &got, .on_event = on_event,
						   .on_event_ctx = seen, .tap = &full_tap, .tap_ctx = tapped });
	cr_assert_null(an.merger);
	expect_tap_saw_the_script();
	cr_assert_not(tapped->begin_traced);

	cr_assert_eq(got.n, NR_SAMPLES, "every sample, tracing window or not");
	for (size_t i = 0; i < got.n; i++) {
		const struct sample_result *r = &got.r[i];
		uint64_t t = T0 + i * SAMPLE_GAP;

		cr_assert_eq(r->sample.seq, i + 1);
		cr_assert_eq(r->sample.waker_tid, WAKER);
		cr_assert_eq(r->label, LABEL_COMPLETE);
		cr_assert_not(r->phased);
		cr_assert_eq(r->t_notify_ns, t);
		cr_assert_eq(r->t_woken_ns, t + OFF_WOKEN);
		cr_assert_eq(r->t_wait_start_ns, t - SAMPLE_GAP + OFF_REARM);
		cr_assert_eq(r->total_ns, OFF_WOKEN);
		for (int k = 0; k < NR_PHASES; k++)
			cr_assert_eq(r->phase_ns[k], 0);
		cr_assert_eq(r->mark_ns[MARK_WAKING], 0, "nothing in between");
	}
	cr_assert_eq(res->agg.samples, NR_SAMPLES);
	cr_assert_eq(res->agg.all_total.count, NR_SAMPLES);
	cr_assert_eq(res->agg.all_total.max, OFF_WOKEN);
	cr_assert_eq(res->agg.wait_cpu.count, NR_SAMPLES);
	cr_assert_eq(res->agg.total.count, 0, "no phases: not in the traced tables");
	cr_assert_eq(res->agg.first_notify_ns, T0);
	cr_assert_eq(res->agg.last_woken_ns, T0 + (NR_SAMPLES - 1) * SAMPLE_GAP + OFF_WOKEN);
	cr_assert_eq(res->merge.samples, 0, "no merge");
	/* the events still count for what they tell without a merge */
	cr_assert_eq(nr_seen, script_events());
	cr_assert_eq(res->steal.seen_ns, STEAL_NS);
	cr_assert_eq(res->waker_tid, WAKER);
}

static size_t partial_events;

static void count_event(void *ctx, const struct wp_event *e)
{
	(void)e;
	cr_assert_eq(ctx, &partial_events);
	partial_events++;
}

Test(analysis, a_tap_may_have_only_the_hooks_it_wants)
{
	static const struct analysis_tap events_only = { .event = count_event };
	struct run_config cfg = config(true);

	make_script();
	run_analysis(&cfg, (struct analysis_opts){ .on_sample = keep, .on_sample_ctx = &got, .tap = &events_only,
						   .tap_ctx = &partial_events });
	cr_assert_eq(partial_events, script_events());
	cr_assert_eq(got.n, NR_SAMPLES);
	/* and no tap, no on_sample: the aggregate alone */
	analysis__free(&an);
	memset(&got, 0, sizeof(got));
	run_analysis(&cfg, (struct analysis_opts){ 0 });
	cr_assert_eq(got.n, 0);
	cr_assert_eq(res->agg.by_label[LABEL_COMPLETE], 3);
	cr_assert_eq(res->merge.samples, NR_SAMPLES);
}

Test(analysis, a_lean_run_asks_flight_records_past_the_outlier_threshold)
{
	struct run_config cfg = config(true);
	struct analysis_opts o = { .outlier_threshold_ns = 50000 };

	cr_assert_eq(analysis__lean_flight_ns(&cfg, &o), 0, "not lean: off");
	cfg.lean = true;
	cr_assert_eq(analysis__lean_flight_ns(&cfg, &o), 50000);
	cfg.traced = false;
	cr_assert_eq(analysis__lean_flight_ns(&cfg, &o), 0, "untraced: nothing to bring");

	/* a lean traced run's aggregate knows it; an untraced one, lean asked or not, does not */
	cfg.traced = true;
	cr_assert_eq(analysis__begin(&an, &cfg, &o, res), 0);
	cr_assert(res->agg.lean);
	analysis__free(&an);
	cfg.traced = false;
	cr_assert_eq(analysis__begin(&an, &cfg, &o, res), 0);
	cr_assert_not(res->agg.lean);
}
