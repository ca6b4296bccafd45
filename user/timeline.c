// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - the trace-event JSON timeline: each sample's phases as slices
 * on its waker and wakee threads, the watched CPUs' history on a thread per
 * CPU. A slice is written once its end is known; until then it is kept in
 * the state of its CPU, which is all this module holds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "json_writer.h"
#include "timeline.h"

/*
 * Process and thread ids of the synthetic tracks sit above PID_MAX_LIMIT
 * (2^22), where no real tid can meet them. Run n is process
 * TL_ID_BASE + n * TL_RUN_STRIDE; its CPU process is TL_CPUS_OFFSET further,
 * and CPU c is that process's thread + 1 + c. The viewers read ids as 32-bit
 * numbers, which bounds the runs one file can number.
 */
#define TL_ID_BASE	1000000000u
#define TL_RUN_STRIDE	10000u
#define TL_CPUS_OFFSET	5000u
#define TL_MAX_RUNS	((UINT32_MAX - TL_ID_BASE) / TL_RUN_STRIDE - 1)
_Static_assert(TL_CPUS_OFFSET + 1 + WP_MAX_CPUS < TL_RUN_STRIDE, "CPU threads would overflow their run's ids");
_Static_assert(NR_MARKS + 1 == NR_PHASES, "phases are the gaps between t_notify, the marks and t_woken");

/* open slices per CPU: a task, cpu_idle in it, a softirq, an interrupt over that, and room to spare */
#define TL_DEPTH	6
/* sample threads per run: a run has one waker and one wakee */
#define TL_THREADS	8
/* runs described one by one in otherData; later ones are only counted */
#define TL_LISTED_RUNS	64
#define TL_NAME_MAX	64

enum tl_kind {
	TL_TASK,	/* a task, from the switch that brought it in */
	TL_IDLE,	/* power:cpu_idle, entry to exit */
	TL_IRQ,		/* an interrupt handler or a softirq, entry to exit */
};

/* a CPU-track slice whose end has not been seen yet */
struct tl_open {
	uint64_t start_ns;
	uint8_t kind;		/* enum tl_kind */
	uint8_t irq_kind;	/* enum wp_irq_kind */
	uint16_t prio;
	int32_t nr;		/* irq number, softirq vector, or cpuidle state (-1: not known) */
	uint32_t tid;
	uint32_t tgid;
	char name[WP_TASK_COMM_LEN];	/* the task's comm, or the irq handler's name */
};

/*
 * One CPU's open slices, outermost first. A slice is drawn only when it is
 * the innermost one open and its end arrives; inner ones still open then
 * never saw their end and are dropped. Nothing starts or ends before
 * last_ns, so whatever is drawn on a CPU nests: the JSON stays valid for
 * any event stream, however broken.
 */
struct tl_cpu {
	uint64_t last_ns;
	uint32_t depth;
	struct tl_open open[TL_DEPTH];
};

/* a waker or wakee thread: its samples are drawn one after the other */
struct tl_thread {
	uint32_t tid;
	uint64_t busy_until_ns;	/* where the last slice drawn on it ends */
};

/* what otherData says about one run */
struct tl_run {
	uint32_t id;		/* 1-based */
	bool traced;
	char workload[TL_NAME_MAX];
	uint64_t samples;
	uint64_t samples_not_drawn;	/* would overlap the previous sample on a thread */
	uint64_t events;
	uint64_t cpu_slices;
	uint64_t unwatched;	/* task slices dropped: the next switch named another task */
	uint64_t unmatched;	/* exits with no entry */
	uint64_t unclosed;	/* entries whose exit never came */
	uint64_t late;		/* events older than what their CPU had shown: skipped */
	uint64_t too_deep;	/* entries past TL_DEPTH open slices */
	uint64_t bad_cpu;	/* a CPU number past WP_MAX_CPUS */
};

struct timeline {
	struct json_writer w;	/* compact, one trace event a line */
	bool in_run;
	uint32_t nr_runs;
	uint64_t last_flow;
	struct tl_run run;
	bool cpus_named;	/* the run's CPU process has its name */
	uint64_t cpu_named[WP_MAX_CPUS / 64];
	uint32_t nr_threads;
	struct tl_thread threads[TL_THREADS];
	struct tl_cpu cpus[WP_MAX_CPUS];
	uint32_t nr_listed;
	struct tl_run listed[TL_LISTED_RUNS];
};

/* ---------------------------------------------------------------- JSON */

/* put_us - @ns as microseconds with three decimals, in integers: no float rounds a nanosecond away */
static void put_us(struct json_writer *w, const char *key, uint64_t ns)
{
	json_writer__key(w, key);
	json_writer__fixed_point(w, ns, 3);
}

/* event_begin - a trace event on a line of its own, its object open */
static struct json_writer *event_begin(struct timeline *t)
{
	json_writer__line_break(&t->w);
	json_writer__begin_object(&t->w);
	return &t->w;
}

static void meta_begin(struct json_writer *w, const char *what, uint32_t pid, uint32_t tid)
{
	json_writer__key(w, "name");
	json_writer__string(w, what);
	json_writer__key(w, "ph");
	json_writer__string(w, "M");
	json_writer__key(w, "pid");
	json_writer__uint(w, pid);
	json_writer__key(w, "tid");
	json_writer__uint(w, tid);
	json_writer__key(w, "args");
	json_writer__begin_object(w);
}

static void meta_name(struct timeline *t, const char *what, uint32_t pid, uint32_t tid, const char *name)
{
	struct json_writer *w = event_begin(t);

	meta_begin(w, what, pid, tid);
	json_writer__key(w, "name");
	json_writer__string(w, name);
	json_writer__end_object(w);
	json_writer__end_object(w);
}

static void meta_sort(struct timeline *t, const char *what, uint32_t pid, uint32_t tid, uint32_t index)
{
	struct json_writer *w = event_begin(t);

	meta_begin(w, what, pid, tid);
	json_writer__key(w, "sort_index");
	json_writer__uint(w, index);
	json_writer__end_object(w);
	json_writer__end_object(w);
}

static void arg_u64(struct json_writer *w, const char *key, uint64_t v)
{
	json_writer__key(w, key);
	json_writer__uint(w, v);
}

static void arg_i64(struct json_writer *w, const char *key, int64_t v)
{
	json_writer__key(w, key);
	json_writer__int(w, v);
}

static void arg_bool(struct json_writer *w, const char *key, bool v)
{
	json_writer__key(w, key);
	json_writer__bool(w, v);
}

static void arg_str(struct json_writer *w, const char *key, const char *s)
{
	json_writer__key(w, key);
	json_writer__string(w, s);
}

/* arg_strn - at most @max bytes of @s: a comm need not end in a NUL */
static void arg_strn(struct json_writer *w, const char *key, const char *s, size_t max)
{
	json_writer__key(w, key);
	json_writer__string_n(w, s, max);
}

/* args_end - close the args of an event and the event */
static void args_end(struct json_writer *w)
{
	json_writer__end_object(w);
	json_writer__end_object(w);
}

/*
 * Flow arrows are bound to slices by id (bind_id with flow_out on the
 * producer, flow_in on the consumer), not by timestamps. Both viewers still
 * meet the two in time order and need the producer first: the consumer
 * always starts strictly later.
 */
enum tl_flow {
	TL_FLOW_NONE,
	TL_FLOW_OUT,
	TL_FLOW_IN,
};

struct tl_slice {
	const char *cat;
	const char *name;
	uint32_t pid;
	uint32_t tid;
	uint64_t start_ns;
	uint64_t end_ns;
	enum tl_flow flow;
	uint64_t flow_id;
};

/* slice_start - a complete ("X") event up to its args, which the caller fills and ends */
static struct json_writer *slice_start(struct timeline *t, const struct tl_slice *s)
{
	struct json_writer *w = event_begin(t);

	arg_str(w, "name", s->name);
	arg_str(w, "cat", s->cat);
	arg_str(w, "ph", "X");
	put_us(w, "ts", s->start_ns);
	put_us(w, "dur", s->end_ns - s->start_ns);
	arg_u64(w, "pid", s->pid);
	arg_u64(w, "tid", s->tid);
	if (s->flow != TL_FLOW_NONE) {
		arg_u64(w, "bind_id", s->flow_id);
		arg_bool(w, s->flow == TL_FLOW_OUT ? "flow_out" : "flow_in", true);
	}
	json_writer__key(w, "args");
	json_writer__begin_object(w);
	return w;
}

/* instant_start - a thread-scoped instant event up to its args */
static struct json_writer *instant_start(struct timeline *t, const char *name, uint32_t pid, uint32_t tid,
					 uint64_t ts)
{
	struct json_writer *w = event_begin(t);

	arg_str(w, "name", name);
	arg_str(w, "cat", "sched");
	arg_str(w, "ph", "i");
	arg_str(w, "s", "t");
	put_us(w, "ts", ts);
	arg_u64(w, "pid", pid);
	arg_u64(w, "tid", tid);
	json_writer__key(w, "args");
	json_writer__begin_object(w);
	return w;
}

/* ---------------------------------------------------------------- runs */

static uint32_t run_pid(const struct timeline *t)
{
	return TL_ID_BASE + t->run.id * TL_RUN_STRIDE;
}

static uint32_t cpus_pid(const struct timeline *t)
{
	return run_pid(t) + TL_CPUS_OFFSET;
}

struct timeline *timeline__open(FILE *out)
{
	struct timeline *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	json_writer__init_compact(&t->w, out);
	json_writer__begin_object(&t->w);
	json_writer__key(&t->w, "traceEvents");
	json_writer__begin_array(&t->w);
	return t;
}

void timeline__begin_run(struct timeline *t, const char *workload, bool traced)
{
	char name[TL_NAME_MAX + 16];

	if (t->in_run)
		timeline__end_run(t);
	memset(&t->run, 0, sizeof(t->run));
	t->run.id = ++t->nr_runs;
	t->run.traced = traced;
	snprintf(t->run.workload, sizeof(t->run.workload), "%s", workload ? workload : "");
	t->cpus_named = false;
	memset(t->cpu_named, 0, sizeof(t->cpu_named));
	t->nr_threads = 0;
	memset(t->cpus, 0, sizeof(t->cpus));
	t->in_run = true;
	if (t->run.id > TL_MAX_RUNS)
		return;
	snprintf(name, sizeof(name), "wakeprobe: %s", t->run.workload);
	meta_name(t, "process_name", run_pid(t), run_pid(t), name);
	meta_sort(t, "process_sort_index", run_pid(t), run_pid(t), 2 * t->run.id);
}

/* drawn_run - the current run, begun here if the caller did not; false past the runs one file can number */
static bool drawn_run(struct timeline *t)
{
	if (!t->in_run)
		timeline__begin_run(t, "", true);
	return t->run.id <= TL_MAX_RUNS;
}

void timeline__end_run(struct timeline *t)
{
	if (!t->in_run)
		return;
	/* slices still open have no end to draw: the tasks running when the run stopped are not shown */
	if (t->nr_listed < TL_LISTED_RUNS)
		t->listed[t->nr_listed++] = t->run;
	t->in_run = false;
}

static void put_run(struct json_writer *w, const struct tl_run *r)
{
	json_writer__begin_object(w);
	arg_u64(w, "run", r->id);
	arg_str(w, "workload", r->workload);
	arg_bool(w, "traced", r->traced);
	if (r->id <= TL_MAX_RUNS) {
		arg_u64(w, "pid", TL_ID_BASE + r->id * TL_RUN_STRIDE);
		arg_u64(w, "cpus_pid", TL_ID_BASE + r->id * TL_RUN_STRIDE + TL_CPUS_OFFSET);
	} else {
		arg_str(w, "not_drawn", "past the runs one file can number");
	}
	arg_u64(w, "samples", r->samples);
	arg_u64(w, "samples_not_drawn", r->samples_not_drawn);
	arg_u64(w, "events", r->events);
	arg_u64(w, "cpu_slices", r->cpu_slices);
	arg_u64(w, "cpu_slices_dropped_unwatched", r->unwatched);
	arg_u64(w, "exits_without_entry", r->unmatched);
	arg_u64(w, "entries_without_exit", r->unclosed);
	arg_u64(w, "late_events", r->late);
	arg_u64(w, "entries_too_deep", r->too_deep);
	arg_u64(w, "events_bad_cpu", r->bad_cpu);
	json_writer__end_object(w);
}

int timeline__close(struct timeline *t)
{
	static const char tracks[] =
		"Per run, process 'wakeprobe: <workload>' holds the waker and wakee threads: each sample is a "
		"'wakeup #<seq>' slice on the wakee from t_notify to t_woken, split into its phases (notify_user "
		"and notify_kernel on the waker, wake_enqueue to resume_user on the wakee), with an arrow from the "
		"notify to the wake; a sample that is not complete is one slice named by its label. Process "
		"'CPUs (run N)' has a thread per CPU: tasks between their sched_switch records, interrupts, softirqs, "
		"IPIs and cpu_idle, with instants for the wakes and migrations of the tracked tasks. CPUs are "
		"recorded only while a tracked task waits to run there or a waker is in its notify there: a gap "
		"on a CPU track is time wakeprobe did not see. docs/outputs.md describes every track.";
	struct json_writer *w;
	uint32_t i;
	int err;

	if (!t)
		return 0;
	w = &t->w;
	timeline__end_run(t);
	json_writer__line_break(w);
	json_writer__end_array(w);
	json_writer__line_break(w);
	arg_str(w, "displayTimeUnit", "ns");
	json_writer__line_break(w);
	json_writer__key(w, "otherData");
	json_writer__begin_object(w);
	arg_str(w, "tool", "wakeprobe " WAKEPROBE_VERSION);
	arg_str(w, "clock", "CLOCK_MONOTONIC; ts and dur in microseconds, exact to the nanosecond");
	arg_str(w, "tracks", tracks);
	json_writer__key(w, "runs");
	json_writer__begin_array(w);
	for (i = 0; i < t->nr_listed; i++)
		put_run(w, &t->listed[i]);
	json_writer__end_array(w);
	arg_u64(w, "runs_not_listed", t->nr_runs - t->nr_listed);
	json_writer__end_object(w);
	json_writer__end_object(w);
	err = json_writer__finish(w);
	free(t);
	return err;
}

/* ---------------------------------------------------------------- samples */

/* sample_thread - the run's state of thread @tid, named after @role the first time; NULL when the table is full */
static struct tl_thread *sample_thread(struct timeline *t, uint32_t tid, const char *role, uint32_t sort)
{
	struct tl_thread *th;
	uint32_t i;

	for (i = 0; i < t->nr_threads; i++)
		if (t->threads[i].tid == tid)
			return &t->threads[i];
	if (t->nr_threads == TL_THREADS)
		return NULL;
	th = &t->threads[t->nr_threads++];
	th->tid = tid;
	th->busy_until_ns = 0;
	meta_name(t, "thread_name", run_pid(t), tid, role);
	meta_sort(t, "thread_sort_index", run_pid(t), tid, sort);
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
	arg_u64(w, "seq", r->sample.seq);
	arg_i64(w, "total_ns", r->total_ns);
	arg_str(w, "label", traced ? label__name(r->label) : "untraced");
	arg_u64(w, "waker_cpu", r->sample.waker_cpu);
	arg_u64(w, "wakee_cpu", r->sample.wakee_cpu);
	if (!traced)
		return;
	if (r->label == LABEL_MISSING_EVENT)
		arg_str(w, "missing", mark__name(r->missing));
	if (waking_seen(r)) {
		arg_u64(w, "waking_cpu", r->waking_cpu);
		arg_u64(w, "target_cpu", r->target_cpu);
		arg_bool(w, "target_was_idle", r->target_was_idle);
		if (r->waker_preempted)
			arg_i64(w, "waker_preempted_ns", r->waker_preempted_ns);
	}
	if (r->idle_exit_seen)
		arg_i64(w, "idle_exit_ns", r->idle_exit_ns);
	if (r->label != LABEL_COMPLETE || !r->phased)
		return;
	if (r->rewait_seen)
		arg_i64(w, "mutex_reacquire_ns", r->rewait_ns);
	if (r->why.migrations) {
		arg_u64(w, "migrations", r->why.migrations);
		arg_u64(w, "migrated_from_cpu", r->why.migrated_from);
		arg_u64(w, "migrated_to_cpu", r->why.migrated_to);
	}
	if (r->why.more_iv)
		arg_u64(w, "intervals_not_listed", r->why.more_iv);
}

/*
 * interval_text - one interval of a phase, worded as the text and JSON
 * reports word it, and its time: "CPU 1 idle: 650 ns"
 */
static void interval_text(const struct interval *iv, char *buf, size_t len)
{
	size_t n;

	explain__describe_interval(iv, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, ": %" PRIu64 " ns", iv->dur_ns);
}

/* a phase slice's args: its time by cause, and each named interval of it */
static void phase_args(struct json_writer *w, const struct sample_result *r, int k)
{
	const struct explanation *x = &r->why;
	char desc[160];
	uint32_t i;
	int c;

	arg_u64(w, "seq", r->sample.seq);
	arg_i64(w, "ns", r->phase_ns[k]);
	json_writer__key(w, "causes");
	json_writer__begin_object(w);
	for (c = 0; c < NR_CAUSES; c++)
		if (x->by_phase_cause[k][c])
			arg_i64(w, cause__name(c), x->by_phase_cause[k][c]);
	json_writer__end_object(w);
	json_writer__key(w, "intervals");
	json_writer__begin_array(w);
	for (i = 0; i < x->nr_iv && i < EXPLAIN_MAX_INTERVALS; i++) {
		if (x->iv[i].phase != k)
			continue;
		interval_text(&x->iv[i], desc, sizeof(desc));
		json_writer__string(w, desc);
	}
	json_writer__end_array(w);
}

/* phase_bounds - t_notify, the marks and t_woken; false unless they run in time order */
static bool phase_bounds(const struct sample_result *r, uint64_t b[NR_PHASES + 1])
{
	int k;

	b[0] = r->t_notify_ns;
	for (k = 0; k < NR_MARKS; k++)
		b[k + 1] = r->mark_ns[k];
	b[NR_PHASES] = r->t_woken_ns;
	for (k = 0; k < NR_PHASES; k++)
		if (b[k + 1] < b[k])
			return false;
	return true;
}

/*
 * draw_phased - the wakeup slice on the wakee, then the six phases, which
 * tile it exactly: the notify phases on the waker, the rest on the wakee.
 * The arrow leaves the notify_kernel slice, which ends at sched_waking, for
 * the wake_enqueue slice that starts there; should a phase be empty, the
 * nearest slices that keep the consumer strictly later are taken.
 */
static void draw_phased(struct timeline *t, const struct sample_result *r, const uint64_t *b,
			struct tl_thread *waker, struct tl_thread *wakee)
{
	int producer = b[PHASE_NOTIFY_KERNEL] < b[PHASE_WAKE_ENQUEUE] ? PHASE_NOTIFY_KERNEL : PHASE_NOTIFY_USER;
	int consumer = PHASE_WAKE_ENQUEUE, k;
	struct tl_slice s = { .cat = "wakeup", .pid = run_pid(t), .tid = wakee->tid };
	struct json_writer *w;
	uint64_t flow = 0;
	char name[40];

	while (consumer < NR_PHASES && b[consumer] <= b[producer])
		consumer++;
	if (consumer < NR_PHASES)
		flow = ++t->last_flow;

	snprintf(name, sizeof(name), "wakeup #%" PRIu64, r->sample.seq);
	s.name = name;
	s.start_ns = b[0];
	s.end_ns = b[NR_PHASES];
	w = slice_start(t, &s);
	wakeup_args(w, r, true);
	args_end(w);

	for (k = 0; k < NR_PHASES; k++) {
		s = (struct tl_slice){
			.cat = "phase",
			.name = phase__name(k),
			.pid = run_pid(t),
			.tid = k <= PHASE_NOTIFY_KERNEL ? waker->tid : wakee->tid,
			.start_ns = b[k],
			.end_ns = b[k + 1],
			.flow_id = flow,
		};
		if (flow && k == producer)
			s.flow = TL_FLOW_OUT;
		else if (flow && k == consumer)
			s.flow = TL_FLOW_IN;
		w = slice_start(t, &s);
		phase_args(w, r, k);
		args_end(w);
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
static void draw_whole(struct timeline *t, const struct sample_result *r, struct tl_thread *waker,
		       struct tl_thread *wakee)
{
	bool traced = t->run.traced;
	uint64_t end = r->t_woken_ns > r->t_notify_ns ? r->t_woken_ns : r->t_notify_ns;
	struct tl_slice s = { .cat = "wakeup", .pid = run_pid(t), .tid = wakee->tid };
	struct json_writer *w;
	char name[40];

	snprintf(name, sizeof(name), "%s #%" PRIu64,
		 !traced || r->label == LABEL_COMPLETE ? "wakeup" : label__name(r->label), r->sample.seq);
	s.name = name;
	s.start_ns = r->t_notify_ns;
	s.end_ns = end;
	w = slice_start(t, &s);
	wakeup_args(w, r, traced);
	args_end(w);
	waker->busy_until_ns = r->t_notify_ns;
	wakee->busy_until_ns = end;
	if (end == r->t_notify_ns)
		return;

	s.flow_id = ++t->last_flow;
	snprintf(name, sizeof(name), "notify #%" PRIu64, r->sample.seq);
	s.tid = waker->tid;
	s.end_ns = s.start_ns;
	s.flow = TL_FLOW_OUT;
	w = slice_start(t, &s);
	arg_u64(w, "seq", r->sample.seq);
	args_end(w);

	snprintf(name, sizeof(name), "woken #%" PRIu64, r->sample.seq);
	s.tid = wakee->tid;
	s.start_ns = end;
	s.end_ns = end;
	s.flow = TL_FLOW_IN;
	w = slice_start(t, &s);
	arg_u64(w, "seq", r->sample.seq);
	args_end(w);
}

void timeline__sample(struct timeline *t, const struct sample_result *r)
{
	struct tl_thread *waker, *wakee;
	uint64_t b[NR_PHASES + 1];
	bool phased;

	if (!drawn_run(t))
		return;
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
	phased = t->run.traced && r->label == LABEL_COMPLETE && r->phased && phase_bounds(r, b);
	if (phased)
		draw_phased(t, r, b, waker, wakee);
	else
		draw_whole(t, r, waker, wakee);
}

/* ---------------------------------------------------------------- CPUs */

/* cpu_thread - CPU @cpu's thread in the run's CPU process, both named the first time */
static uint32_t cpu_thread(struct timeline *t, uint32_t cpu)
{
	uint32_t tid = cpus_pid(t) + 1 + cpu;
	char name[32];

	if (!t->cpus_named) {
		snprintf(name, sizeof(name), "CPUs (run %u)", t->run.id);
		meta_name(t, "process_name", cpus_pid(t), cpus_pid(t), name);
		meta_sort(t, "process_sort_index", cpus_pid(t), cpus_pid(t), 2 * t->run.id + 1);
		t->cpus_named = true;
	}
	if (!(t->cpu_named[cpu / 64] & (1ull << (cpu % 64)))) {
		t->cpu_named[cpu / 64] |= 1ull << (cpu % 64);
		snprintf(name, sizeof(name), "CPU %u", cpu);
		meta_name(t, "thread_name", cpus_pid(t), tid, name);
		meta_sort(t, "thread_sort_index", cpus_pid(t), tid, cpu);
	}
	return tid;
}

/* draw - open slice @o of CPU @cpu ends at @end; @closing is the switch that ended a task */
static void draw(struct timeline *t, uint32_t cpu, const struct tl_open *o, uint64_t end,
		 const struct wp_event *closing)
{
	struct tl_slice s = { .pid = cpus_pid(t), .tid = cpu_thread(t, cpu), .start_ns = o->start_ns, .end_ns = end };
	struct json_writer *w;
	char name[48];

	s.name = name;
	switch (o->kind) {
	case TL_TASK:
		if (o->tid)
			snprintf(name, sizeof(name), "%.16s %u", o->name, o->tid);
		else
			snprintf(name, sizeof(name), "idle");
		s.cat = "sched";
		w = slice_start(t, &s);
		arg_u64(w, "tid", o->tid);
		arg_u64(w, "tgid", o->tgid);
		arg_u64(w, "prio", o->prio);
		if (o->tid && closing) {
			/* a task still runnable when switched out was preempted */
			arg_str(w, "left",
				wp_switch_slept(closing->sw.prev_state, closing->sw.preempt) ? "slept" : "preempted");
			arg_u64(w, "prev_state", closing->sw.prev_state);
		}
		break;
	case TL_IDLE:
		snprintf(name, sizeof(name), "cpu_idle");
		s.cat = "idle";
		w = slice_start(t, &s);
		if (o->nr >= 0)
			arg_i64(w, "state", o->nr);
		break;
	default:
		if (o->irq_kind == WP_IRQ_HARD && o->name[0])
			snprintf(name, sizeof(name), "irq %d %.16s", o->nr, o->name);
		else if (o->irq_kind == WP_IRQ_HARD)
			snprintf(name, sizeof(name), "irq %d", o->nr);
		else if (o->irq_kind == WP_IRQ_SOFT)
			snprintf(name, sizeof(name), "softirq %s", softirq__name(o->nr));
		else
			snprintf(name, sizeof(name), "%s", irq_kind__name(o->irq_kind));
		s.cat = "irq";
		w = slice_start(t, &s);
		arg_str(w, "kind", irq_kind__name(o->irq_kind));
		arg_i64(w, "nr", o->nr);
		break;
	}
	args_end(w);
	t->run.cpu_slices++;
}

/* advance - move CPU @c to @ts_ns; an event older than what the CPU has shown is late and skipped */
static bool advance(struct timeline *t, struct tl_cpu *c, uint64_t ts_ns)
{
	if (ts_ns < c->last_ns) {
		t->run.late++;
		return false;
	}
	c->last_ns = ts_ns;
	return true;
}

static struct tl_open *push(struct timeline *t, struct tl_cpu *c, enum tl_kind kind, uint64_t start_ns)
{
	struct tl_open *o;

	if (c->depth == TL_DEPTH) {
		t->run.too_deep++;
		return NULL;
	}
	o = &c->open[c->depth++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->start_ns = start_ns;
	return o;
}

/* drop_from - the open slices from @depth up never saw their end: forget them */
static void drop_from(struct timeline *t, struct tl_cpu *c, uint32_t depth)
{
	if (c->depth > depth) {
		t->run.unclosed += c->depth - depth;
		c->depth = depth;
	}
}

/* innermost - depth + 1 of the innermost open slice of @kind, 0 if none */
static uint32_t innermost(const struct tl_cpu *c, enum tl_kind kind)
{
	uint32_t i;

	for (i = c->depth; i > 0; i--)
		if (c->open[i - 1].kind == kind)
			return i;
	return 0;
}

static void on_switch(struct timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	struct tl_open *o;

	if (!advance(t, c, e->ts_ns))
		return;
	if (c->depth && c->open[0].kind == TL_TASK) {
		drop_from(t, c, 1);
		/*
		 * The switch names the task leaving. If that is not the one seen
		 * coming in, the CPU was not watched in between and what ran
		 * there is unknown: no slice is drawn across that gap.
		 */
		if (c->open[0].tid == e->sw.prev_tid)
			draw(t, cpu, &c->open[0], e->ts_ns, e);
		else
			t->run.unwatched++;
		c->depth = 0;
	} else {
		drop_from(t, c, 0);
	}
	o = push(t, c, TL_TASK, e->ts_ns);
	o->tid = e->sw.next_tid;
	o->tgid = e->sw.next_tgid;
	o->prio = e->sw.next_prio;
	memcpy(o->name, e->sw.next_comm, sizeof(o->name));
}

static void on_irq(struct timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	struct tl_open *o;
	uint32_t i;

	if (!advance(t, c, e->ts_ns))
		return;
	if (!e->irq.exit) {
		o = push(t, c, TL_IRQ, e->ts_ns);
		if (o) {
			o->irq_kind = (uint8_t)e->irq.kind;
			o->nr = e->irq.nr;
			memcpy(o->name, e->irq.name, sizeof(o->name));
		}
		return;
	}
	/* the innermost entry of this interrupt; handlers nest in handlers only, never in a task or idle above */
	for (i = c->depth; i > 0 && c->open[i - 1].kind == TL_IRQ; i--) {
		o = &c->open[i - 1];
		if (o->irq_kind == e->irq.kind && o->nr == e->irq.nr) {
			drop_from(t, c, i);
			draw(t, cpu, o, e->ts_ns, NULL);
			c->depth = i - 1;
			return;
		}
	}
	t->run.unmatched++;
}

static void on_idle_enter(struct timeline *t, struct tl_cpu *c, const struct wp_event *e)
{
	uint32_t i;
	struct tl_open *o;

	if (!advance(t, c, e->ts_ns))
		return;
	/* an idle period still open lost its exit */
	i = innermost(c, TL_IDLE);
	if (i)
		drop_from(t, c, i - 1);
	o = push(t, c, TL_IDLE, e->ts_ns);
	if (o)
		o->nr = (int32_t)e->idle.state;
}

static void on_idle_exit(struct timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	uint64_t since = e->idle.idle_since_ns, seen_until = c->last_ns;
	struct tl_open *o;
	uint32_t i;

	if (!advance(t, c, e->ts_ns))
		return;
	i = innermost(c, TL_IDLE);
	if (i) {
		drop_from(t, c, i);
		draw(t, cpu, &c->open[i - 1], e->ts_ns, NULL);
		c->depth = i - 1;
		return;
	}
	/*
	 * The entry was not seen (the CPU was not watched yet), but the exit
	 * says since when the CPU was idle. That start may be drawn if nothing
	 * on this CPU was seen after it.
	 */
	if (since && since >= seen_until && since <= e->ts_ns) {
		o = push(t, c, TL_IDLE, since);
		if (o) {
			o->nr = -1;
			draw(t, cpu, o, e->ts_ns, NULL);
			c->depth--;
		}
		return;
	}
	t->run.unmatched++;
}

/*
 * on_waking - an instant on the waker's CPU; and when the wake targets an
 * idle CPU, that CPU's idle period opens where the record says it began.
 * The target becomes watched only now, so its entry into idle was not
 * recorded; its exit will be, after the IPIs that the wake sends it, which
 * then nest inside.
 */
static void on_waking(struct timeline *t, uint32_t cpu, const struct wp_event *e)
{
	uint64_t since = e->wake.target_idle_since_ns;
	uint32_t target = e->wake.target_cpu;
	struct json_writer *w;
	struct tl_cpu *c;
	struct tl_open *o;
	char name[32];

	snprintf(name, sizeof(name), "sched_waking %u", e->wake.pid);
	w = instant_start(t, name, cpus_pid(t), cpu_thread(t, cpu), e->ts_ns);
	arg_u64(w, "pid", e->wake.pid);
	arg_u64(w, "target_cpu", target);
	if (since && since <= e->ts_ns)
		arg_u64(w, "target_idle_for_ns", e->ts_ns - since);
	else if (e->wake.target_curr_pid)
		arg_strn(w, "target_running", e->wake.target_curr_comm, sizeof(e->wake.target_curr_comm));
	args_end(w);

	if (!since || since > e->ts_ns || target >= WP_MAX_CPUS || target == cpu)
		return;
	c = &t->cpus[target];
	if (innermost(c, TL_IDLE) || since < c->last_ns)
		return;
	o = push(t, c, TL_IDLE, since);
	if (o) {
		o->nr = -1;
		c->last_ns = since;
	}
}

static void on_wakeup(struct timeline *t, uint32_t cpu, const struct wp_event *e)
{
	struct json_writer *w;
	char name[32];

	snprintf(name, sizeof(name), "sched_wakeup %u", e->wake.pid);
	w = instant_start(t, name, cpus_pid(t), cpu_thread(t, cpu), e->ts_ns);
	arg_u64(w, "pid", e->wake.pid);
	arg_u64(w, "target_cpu", e->wake.target_cpu);
	args_end(w);
}

static void on_migrate(struct timeline *t, uint32_t cpu, const struct wp_event *e)
{
	struct json_writer *w;
	char name[32];

	snprintf(name, sizeof(name), "migrate %u", e->migrate.pid);
	w = instant_start(t, name, cpus_pid(t), cpu_thread(t, cpu), e->ts_ns);
	arg_u64(w, "pid", e->migrate.pid);
	arg_u64(w, "from_cpu", e->migrate.orig_cpu);
	arg_u64(w, "to_cpu", e->migrate.dest_cpu);
	args_end(w);
}

void timeline__event(struct timeline *t, const struct wp_event *e)
{
	struct tl_cpu *c;

	if (!drawn_run(t))
		return;
	t->run.events++;
	if (e->cpu >= WP_MAX_CPUS) {
		t->run.bad_cpu++;
		return;
	}
	c = &t->cpus[e->cpu];
	switch (e->type) {
	case WP_EV_SWITCH:
		on_switch(t, c, e->cpu, e);
		break;
	case WP_EV_IRQ:
		on_irq(t, c, e->cpu, e);
		break;
	case WP_EV_IDLE_ENTER:
		on_idle_enter(t, c, e);
		break;
	case WP_EV_IDLE_EXIT:
		on_idle_exit(t, c, e->cpu, e);
		break;
	case WP_EV_WAKING:
		on_waking(t, e->cpu, e);
		break;
	case WP_EV_WAKEUP:
		on_wakeup(t, e->cpu, e);
		break;
	case WP_EV_MIGRATE:
		on_migrate(t, e->cpu, e);
		break;
	default:
		/* syscalls and signals bound the phases, drawn with the samples; forks show nothing */
		break;
	}
}
