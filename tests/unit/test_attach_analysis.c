// SPDX-License-Identifier: GPL-2.0
/*
 * test_attach_analysis.c - attach mode's inputs into its result: every
 * record is seen as it arrives and goes to the engine (or, lean, to lean
 * mode); an fd a record names is looked up right away, through the caller's
 * callback or /proc, once the process it belongs to is known; --tid keeps
 * the wakeups of the threads it names and counts the others; the drops
 * reach the engine with each watermark and at the end.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include "attach_analysis.h"
#include "events.h"

#define PROC		7000u
#define WAKER		7001u
#define WAKEE		7002u
#define OTHER		7003u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		1000000000ull
#define SPAN		20000ull

/* what the callbacks saw */
struct seen {
	uint64_t event_ts[64];
	uint32_t event_types[64];
	size_t nr_events;
	struct {
		uint32_t tgid;
		int fd;
		size_t after_events;	/* how many records had come when it was asked */
	} lookups[64];
	size_t nr_lookups;
	struct attach_result results[16];
	size_t nr_results;
};

static struct seen seen;

static void setup(void)
{
	memset(&seen, 0, sizeof(seen));
}

TestSuite(attach_analysis, .init = setup);

static void on_event(const struct wp_event *e, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_events, 64);
	s->event_ts[s->nr_events] = e->ts_ns;
	s->event_types[s->nr_events++] = e->type;
}

/* every fd of PROC is an eventfd, of any other process a pipe */
static enum fd_kind fd_kind(uint32_t tgid, int fd, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_lookups, 64);
	s->lookups[s->nr_lookups].tgid = tgid;
	s->lookups[s->nr_lookups].fd = fd;
	s->lookups[s->nr_lookups++].after_events = s->nr_events;
	return tgid == PROC ? FD_KIND_EVENTFD : FD_KIND_PIPE;
}

static void on_result(const struct attach_result *r, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->nr_results, 16);
	s->results[s->nr_results++] = *r;
}

/* an analysis that tells @seen everything */
static struct attach_analysis *analysis(struct attach_analysis_opts *o)
{
	struct attach_analysis *a;

	o->on_event = on_event;
	o->on_event_ctx = &seen;
	o->on_result = on_result;
	o->on_result_ctx = &seen;
	a = attach_analysis__new(o);
	cr_assert_not_null(a);
	return a;
}

static void put(struct attach_analysis *a, struct wp_event e)
{
	attach_analysis__event(a, &e);
}

/* name - @tid of @tgid is switched in on @cpu: the record that names a thread's process */
static void name(struct attach_analysis *a, uint64_t t, uint32_t cpu, uint32_t tid, uint32_t tgid, const char *comm)
{
	put(a, with_next_tgid(with_next_comm(ev_switch(t, cpu, 0, tid, 0, 0), comm), tgid));
}

/*
 * wakeup_of_kind - @wakee sleeps in read(@fd) at @t, WAKER's write(@fd)
 * wakes it, it runs and its read returns; the records say the fd is of
 * @kind, as the kernel side finds it (FD_KIND_UNKNOWN: they do not say)
 */
static void wakeup_of_kind(struct attach_analysis *a, uint64_t t, uint32_t tgid, uint32_t wakee, int fd,
			   enum fd_kind kind)
{
	struct wp_event blk = ev_block(t, WAKEE_CPU, wakee, SYS_read, (uint64_t)fd, 0, t - 500);
	struct wp_event waker = ev_waker_syscall(t + 10000, WAKER_CPU, WAKER, tgid, wakee, SYS_write, (uint64_t)fd,
						 0, t + 9700);

	blk.block.fd_kind = kind;
	waker.waker.fd_kind = kind;
	put(a, ev_switch(t, WAKEE_CPU, wakee, 0, 1, 0));
	put(a, blk);
	put(a, waker);
	put(a, ev_waking(t + 10000, WAKER_CPU, WAKER, wakee, WAKEE_CPU, t + 100));
	put(a, ev_wakeup(t + 10800, WAKEE_CPU, 0, wakee, WAKEE_CPU));
	name(a, t + 14000, WAKEE_CPU, wakee, tgid, "consumer");
	put(a, ev_sys_exit(t + 14700, WAKEE_CPU, wakee, SYS_read, 8));
}

/* wakeup - wakeup_of_kind() with records that do not say what the fd is (a recording of format 10) */
static void wakeup(struct attach_analysis *a, uint64_t t, uint32_t tgid, uint32_t wakee, int fd)
{
	wakeup_of_kind(a, t, tgid, wakee, fd, FD_KIND_UNKNOWN);
}

/* ---------------------------------------------------------------- records in */

Test(attach_analysis, every_record_is_seen_as_it_arrives_and_taken_by_the_engine)
{
	struct attach_analysis_opts o = { .fd_kind = fd_kind, .fd_kind_ctx = &seen };
	struct attach_analysis *a = analysis(&o);

	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	wakeup(a, T0, PROC, WAKEE, 7);
	cr_assert_eq(seen.nr_events, 8);
	cr_assert_eq(seen.event_ts[0], T0 - 1000);
	cr_assert_eq(seen.event_types[2], WP_EV_BLOCK);
	cr_assert_eq(seen.event_ts[7], T0 + 14700);
	cr_assert_eq(attach_analysis__counters(a)->events, 8);
	cr_assert_eq(seen.nr_results, 0, "nothing is paired before a watermark");
	attach_analysis__advance(a, T0 + SPAN, 0);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.results[0].sr.label, LABEL_COMPLETE);
	cr_assert_eq(seen.results[0].sr.sample.wakee_tid, WAKEE);
	cr_assert_eq(seen.results[0].waker.fd_kind, FD_KIND_EVENTFD, "the callback's answer");
	cr_assert_eq(seen.results[0].wait.fd_kind, FD_KIND_EVENTFD);
	cr_assert_str_eq(seen.results[0].mechanism, "eventfd write -> read");
	cr_assert_eq(a->agg->wakeups, 1);
	cr_assert_eq(attach_analysis__counters(a)->results, 1);
	attach_analysis__free(a);
}

/* the kernel's records say what the fd was: the callback, an older recording's answers, is not asked */
Test(attach_analysis, a_kind_the_records_carry_names_the_fd_and_nothing_is_asked)
{
	struct attach_analysis_opts o = { .fd_kind = fd_kind, .fd_kind_ctx = &seen };
	struct attach_analysis *a = analysis(&o);

	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	wakeup_of_kind(a, T0, PROC, WAKEE, 7, FD_KIND_UNIX_SEQPACKET);
	attach_analysis__advance(a, T0 + SPAN, 0);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_eq(seen.nr_lookups, 0);
	cr_assert_str_eq(seen.results[0].mechanism, "unix seqpacket socket write -> read");
	attach_analysis__free(a);
}

/* records that do not say, with nothing to ask: each fd goes by its number */
Test(attach_analysis, without_a_callback_an_fd_the_records_do_not_name_goes_by_its_number)
{
	struct attach_analysis_opts o = { .fd_kind = NULL };
	struct attach_analysis *a = analysis(&o);

	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	wakeup(a, T0, PROC, WAKEE, 7);
	attach_analysis__advance(a, T0 + SPAN, 0);
	cr_assert_eq(seen.nr_results, 1);
	cr_assert_str_eq(seen.results[0].mechanism, "fd 7 write -> read", "one fd at both ends, named once");
	attach_analysis__free(a);
}

/* --pid: the targets' own wakeups are counted apart from their descendants' */
Test(attach_analysis, the_wakeups_of_the_targets_own_threads_are_counted_apart)
{
	static const int32_t pids[] = { 6000, PROC };
	struct attach_session_opts targets = { .pids = pids, .nr_pids = 2 };
	struct attach_session_result res = { 0 };
	struct attach_analysis_opts o = { .fd_kind = fd_kind, .fd_kind_ctx = &seen };
	struct attach_analysis *a = analysis(&o);

	attach_analysis__begin(a, &targets, &res);
	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	wakeup(a, T0, PROC, WAKEE, 7);
	wakeup(a, T0 + SPAN, 8000, OTHER, 7);
	attach_analysis__advance(a, T0 + 2 * SPAN, 0);
	cr_assert_eq(a->agg->wakeups, 2);
	cr_assert_eq(a->target_wakeups, 1, "the one of PROC's thread, not the descendant's");
	attach_analysis__free(a);
}

/* ---------------------------------------------------------------- results out */

Test(attach_analysis, tid_keeps_the_wakeups_of_the_threads_it_names_and_counts_the_others)
{
	static const int32_t tids[] = { OTHER };
	struct attach_analysis_opts o = { .fd_kind = fd_kind, .fd_kind_ctx = &seen, .tids = tids, .nr_tids = 1 };
	struct attach_analysis *a = analysis(&o);

	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	for (int i = 0; i < 6; i++)
		wakeup(a, T0 + (uint64_t)i * SPAN, PROC, i % 3 ? WAKEE : OTHER, 7);
	attach_analysis__advance(a, T0 + 6 * SPAN, 0);
	attach_analysis__end(a, &(struct attach_session_result){ .drops_total = 0 });
	cr_assert_eq(seen.nr_results, 2, "the callback sees what --tid lets through");
	cr_assert_eq(seen.results[0].sr.sample.wakee_tid, OTHER);
	cr_assert_eq(seen.results[1].sr.sample.wakee_tid, OTHER);
	cr_assert_eq(a->agg->wakeups, 2);
	cr_assert_eq(a->tids_left_out, 4);
	cr_assert_eq(attach_analysis__counters(a)->results, 6, "the engine paired them all");
	attach_analysis__free(a);
}

Test(attach_analysis, the_aggregate_keeps_the_outliers_asked_for)
{
	/* each wakeup takes 5000 ns from the waker's syscall entry to the end of the read */
	struct attach_analysis_opts o = { .outliers = 3, .outlier_threshold_ns = 5000, .fd_kind = fd_kind,
					  .fd_kind_ctx = &seen };
	struct attach_analysis *a = analysis(&o);

	cr_assert_eq(a->agg->outliers_wanted, 3);
	cr_assert_eq(a->agg->outlier_threshold_ns, 5000);
	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	for (int i = 0; i < 5; i++)
		wakeup(a, T0 + (uint64_t)i * SPAN, PROC, WAKEE, 7);
	attach_analysis__advance(a, T0 + 5 * SPAN, 0);
	attach_analysis__end(a, &(struct attach_session_result){ .drops_total = 0 });
	cr_assert_eq(a->agg->complete, 5);
	cr_assert_eq(a->agg->outlier_candidates, 5, "at the threshold is over it");
	cr_assert_eq(a->agg->nr_outliers, 3);
	attach_analysis__free(a);
}

/*
 * drops_run - a complete wakeup, a watermark with @drops, then a wakeup
 * still open when the stream ends with @final_drops; the label it gets
 */
static enum sample_label drops_run(uint64_t drops, uint64_t final_drops)
{
	struct attach_analysis_opts o = { .fd_kind = fd_kind, .fd_kind_ctx = &seen };
	struct attach_analysis *a;
	enum sample_label label;

	setup();
	a = analysis(&o);
	name(a, T0 - 1000, WAKER_CPU, WAKER, PROC, "producer");
	wakeup(a, T0, PROC, WAKEE, 7);
	attach_analysis__advance(a, T0 + SPAN, 0);
	attach_analysis__advance(a, T0 + SPAN + 10, drops);
	cr_assert_eq(attach_analysis__counters(a)->drops_seen, drops);
	/* the records after it carry the count: what was lost lies before them */
	put(a, with_drops(ev_idle_exit(T0 + SPAN + 15, WAKER_CPU, T0), (uint32_t)drops));
	put(a, with_drops(ev_switch(T0 + SPAN + 20, WAKEE_CPU, WAKEE, 0, 1, 0), (uint32_t)drops));
	put(a, with_drops(ev_waking(T0 + SPAN + 100, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU, 0), (uint32_t)drops));
	cr_assert_eq(seen.nr_results, 1);
	attach_analysis__end(a, &(struct attach_session_result){ .drops_total = final_drops });
	cr_assert_eq(attach_analysis__counters(a)->drops_seen, final_drops);
	cr_assert_eq(seen.nr_results, 2, "the end hands over the wakeup left open");
	cr_assert_eq(seen.results[0].sr.label, LABEL_COMPLETE);
	label = seen.results[1].sr.label;
	cr_assert_eq(a->agg->by_label[label], 1);
	attach_analysis__free(a);
	return label;
}

Test(attach_analysis, the_drops_go_to_the_engine_with_each_watermark_and_at_the_end)
{
	cr_assert_eq(drops_run(3, 3), LABEL_OUT_OF_WINDOW, "no drop after its records: tracing ended first");
	cr_assert_eq(drops_run(3, 8), LABEL_LOST_EVENTS, "drops after its records: they may have been its own");
	cr_assert_eq(drops_run(0, 1), LABEL_LOST_EVENTS);
}

/* ---------------------------------------------------------------- the lean engine */

Test(attach_analysis, lean_records_go_to_lean_mode_with_no_lookup_and_its_counters_are_the_analysis)
{
	struct attach_analysis_opts o = { .lean = true, .fd_kind = fd_kind, .fd_kind_ctx = &seen };
	struct attach_analysis *a = analysis(&o);

	cr_assert_null(a->engine);
	cr_assert_not_null(a->lean);
	put(a, ev_lean_name(T0 - 100, WAKEE_CPU, WAKEE, PROC, "consumer", WP_LEAN_TRACKED));
	put(a, ev_lean(T0 + 5000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0, T0 + 1500, 0));
	cr_assert_eq(seen.nr_results, 1, "a lean record is a whole wakeup, handed over as it comes");
	cr_assert_eq(seen.nr_events, 2);
	/* a record naming an fd asks nothing: the lean engine traces no syscall */
	put(a, ev_waker_syscall(T0 + 6000, WAKER_CPU, WAKER, PROC, WAKEE, SYS_write, 9, 0, T0 + 5900));
	cr_assert_eq(seen.nr_lookups, 0);
	attach_analysis__advance(a, T0 + SPAN, 4);
	cr_assert_eq(attach_analysis__counters(a)->drops_seen, 4);
	attach_analysis__end(a, &(struct attach_session_result){ .drops_total = 6 });
	cr_assert_eq(attach_analysis__counters(a)->drops_seen, 6);
	cr_assert_eq(attach_analysis__counters(a)->results, 1);
	cr_assert_eq(a->agg->wakeups, 1);
	attach_analysis__free(a);
}
