// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_workload.c - the samples on the timeline: a waker and a wakee
 * thread per run, each wakeup a slice on the wakee split into its phases,
 * each phase with its time by cause and the intervals that make it up, and
 * an arrow from the notify to the wake. A sample is drawn whole as it
 * arrives; only where each thread's last slice ends is kept.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "explain.h"
#include "perfetto_common.h"
#include "perfetto_trace.h"
#include "perfetto_workload.h"

_Static_assert(NR_MARKS + 1 == NR_PHASES, "phases are the gaps between t_notify, the marks and t_woken");

/* sample_thread - the run's state of thread @tid, named after @role the first time; NULL when the table is full */
static struct tl_thread *sample_thread(struct perfetto_timeline *t, uint32_t tid, const char *role, uint32_t sort)
{
	struct perfetto_workload *s = &t->samples;
	struct tl_thread *th;
	uint32_t i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == tid)
			return &s->threads[i];
	if (s->nr_threads == TL_THREADS)
		return NULL;
	th = &s->threads[s->nr_threads++];
	th->tid = tid;
	th->busy_until_ns = 0;
	perfetto_trace__name_thread(t, perfetto_trace__run_pid(t), tid, role, sort);
	return th;
}

/* the sample's sched_waking was found: from there on the merger knows the wake's CPUs */
static bool waking_seen(const struct sample_result *r)
{
	if (r->label == LABEL_MISSING_EVENT && r->missing <= MARK_WAKING)
		return false;
	return r->mark_ns[MARK_WAKING] != 0;
}

/* what the whole wakeup slice says: its total and label, and what the merger found on the way */
static void wakeup_args(struct json_writer *w, const struct sample_result *r, bool traced)
{
	json_writer__put_uint(w, "seq", r->sample.seq);
	json_writer__put_int(w, "total_ns", r->total_ns);
	json_writer__put_str(w, "label", traced ? wakeup__label_name(r->label) : "untraced");
	json_writer__put_uint(w, "waker_cpu", r->sample.waker_cpu);
	json_writer__put_uint(w, "wakee_cpu", r->sample.wakee_cpu);
	if (!traced)
		return;
	if (r->label == LABEL_MISSING_EVENT)
		json_writer__put_str(w, "missing", wakeup__mark_name(r->missing));
	if (waking_seen(r)) {
		json_writer__put_uint(w, "waking_cpu", r->waking_cpu);
		json_writer__put_uint(w, "target_cpu", r->target_cpu);
		json_writer__put_bool(w, "target_was_idle", r->target_was_idle);
		if (r->waker_preempted)
			json_writer__put_int(w, "waker_preempted_ns", r->waker_preempted_ns);
	}
	if (r->idle_exit_seen)
		json_writer__put_int(w, "idle_exit_ns", r->idle_exit_ns);
	if (r->label != LABEL_COMPLETE || !r->phased)
		return;
	if (r->rewait_seen)
		json_writer__put_int(w, "mutex_reacquire_ns", r->rewait_ns);
	if (r->why.migrations) {
		json_writer__put_uint(w, "migrations", r->why.migrations);
		if (r->why.migrated_from != EXPLAIN_CPU_UNKNOWN)
			json_writer__put_uint(w, "migrated_from_cpu", r->why.migrated_from);
		json_writer__put_uint(w, "migrated_to_cpu", r->why.migrated_to);
	}
	if (r->why.more_iv)
		json_writer__put_uint(w, "intervals_not_listed", r->why.more_iv);
}

/*
 * draw_phased - the wakeup slice on the wakee, then the six phases, which
 * tile it exactly: the notify phases on the waker, the rest on the wakee.
 * The arrow leaves the notify_kernel slice, which ends at sched_waking, for
 * the wake_enqueue slice that starts there; should a phase be empty, the
 * nearest slices that keep the consumer strictly later are taken.
 */
static void draw_phased(struct perfetto_timeline *t, const struct sample_result *r, const uint64_t *b,
			struct tl_thread *waker, struct tl_thread *wakee)
{
	int producer = b[PHASE_NOTIFY_KERNEL] < b[PHASE_WAKE_ENQUEUE] ? PHASE_NOTIFY_KERNEL : PHASE_NOTIFY_USER;
	int consumer = PHASE_WAKE_ENQUEUE, k;
	struct tl_slice s = { .cat = "wakeup", .pid = perfetto_trace__run_pid(t), .tid = wakee->tid };
	struct json_writer *w;
	uint64_t flow = 0;
	char name[40];

	while (consumer < NR_PHASES && b[consumer] <= b[producer])
		consumer++;
	if (consumer < NR_PHASES)
		flow = ++t->samples.last_flow;

	snprintf(name, sizeof(name), "wakeup #%" PRIu64, r->sample.seq);
	s.name = name;
	s.start_ns = b[0];
	s.end_ns = b[NR_PHASES];
	w = perfetto_trace__slice_begin(t, &s);
	wakeup_args(w, r, true);
	perfetto_trace__event_end(w);

	for (k = 0; k < NR_PHASES; k++) {
		s = (struct tl_slice){
			.cat = "phase",
			.name = wakeup__phase_name(k),
			.pid = perfetto_trace__run_pid(t),
			.tid = k <= PHASE_NOTIFY_KERNEL ? waker->tid : wakee->tid,
			.start_ns = b[k],
			.end_ns = b[k + 1],
			.flow_id = flow,
		};
		if (flow && k == producer)
			s.flow = TL_FLOW_OUT;
		else if (flow && k == consumer)
			s.flow = TL_FLOW_IN;
		w = perfetto_trace__slice_begin(t, &s);
		perfetto_common__phase_args(w, r, k);
		perfetto_trace__event_end(w);
	}
	waker->busy_until_ns = b[PHASE_WAKE_ENQUEUE];
	wakee->busy_until_ns = b[NR_PHASES];
}

/*
 * draw_whole - a sample without phases (untraced, not complete, or a path
 * with no kernel in it): one slice on the wakee named by its label, and the
 * arrow from a zero-length notify mark on the waker at t_notify to a
 * zero-length woken mark on the wakee at t_woken
 */
static void draw_whole(struct perfetto_timeline *t, const struct sample_result *r, struct tl_thread *waker,
		       struct tl_thread *wakee)
{
	bool traced = t->run.traced;
	uint64_t end = r->t_woken_ns > r->t_notify_ns ? r->t_woken_ns : r->t_notify_ns;
	struct tl_slice s = { .cat = "wakeup", .pid = perfetto_trace__run_pid(t), .tid = wakee->tid };
	struct json_writer *w;
	char name[40];

	snprintf(name, sizeof(name), "%s #%" PRIu64,
		 !traced || r->label == LABEL_COMPLETE ? "wakeup" : wakeup__label_name(r->label), r->sample.seq);
	s.name = name;
	s.start_ns = r->t_notify_ns;
	s.end_ns = end;
	w = perfetto_trace__slice_begin(t, &s);
	wakeup_args(w, r, traced);
	perfetto_trace__event_end(w);
	waker->busy_until_ns = r->t_notify_ns;
	wakee->busy_until_ns = end;
	if (end == r->t_notify_ns)
		return;

	s.flow_id = ++t->samples.last_flow;
	snprintf(name, sizeof(name), "notify #%" PRIu64, r->sample.seq);
	s.tid = waker->tid;
	s.end_ns = s.start_ns;
	s.flow = TL_FLOW_OUT;
	w = perfetto_trace__slice_begin(t, &s);
	json_writer__put_uint(w, "seq", r->sample.seq);
	perfetto_trace__event_end(w);

	snprintf(name, sizeof(name), "woken #%" PRIu64, r->sample.seq);
	s.tid = wakee->tid;
	s.start_ns = end;
	s.end_ns = end;
	s.flow = TL_FLOW_IN;
	w = perfetto_trace__slice_begin(t, &s);
	json_writer__put_uint(w, "seq", r->sample.seq);
	perfetto_trace__event_end(w);
}

void perfetto_workload__begin_run(struct perfetto_workload *s)
{
	s->nr_threads = 0;
}

void perfetto_workload__draw(struct perfetto_timeline *t, const struct sample_result *r)
{
	struct tl_thread *waker, *wakee;
	uint64_t b[NR_PHASES + 1];
	bool phased;

	t->run.samples++;
	waker = sample_thread(t, r->sample.waker_tid, "waker", 0);
	wakee = sample_thread(t, r->sample.wakee_tid, "wakee", 1);
	/*
	 * The samples of a run follow one another on its two threads. One
	 * that would start before the last one drawn there ended (clock error,
	 * or a stream out of order) cannot nest with it: it is counted, not drawn.
	 */
	if (!waker || !wakee || r->t_notify_ns < waker->busy_until_ns || r->t_notify_ns < wakee->busy_until_ns) {
		t->run.samples_not_drawn++;
		return;
	}
	phased = t->run.traced && r->label == LABEL_COMPLETE && r->phased && perfetto_common__phase_bounds(r, b);
	if (phased)
		draw_phased(t, r, b, waker, wakee);
	else
		draw_whole(t, r, waker, wakee);
}
