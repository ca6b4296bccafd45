// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_timeline.c - the trace-event JSON document: its runs, each a
 * pair of processes (an attach run: the traced processes and one of CPUs),
 * otherData, and the trace events that every kind of track is made of.
 * What goes on the tracks is drawn by perfetto_workload.c (the waker and
 * wakee threads), perfetto_cpus.c (a thread per CPU) and perfetto_attach.c
 * (the traced threads of an attach run).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfetto_attach.h"
#include "perfetto_cpus.h"
#include "perfetto_timeline.h"
#include "perfetto_trace.h"
#include "perfetto_workload.h"

struct perfetto_timeline *perfetto_timeline__open(FILE *out)
{
	struct perfetto_timeline *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	json_writer__init_compact(&t->w, out);
	json_writer__begin_object(&t->w);
	json_writer__key(&t->w, "traceEvents");
	json_writer__begin_array(&t->w);
	return t;
}

void perfetto_timeline__begin_run(struct perfetto_timeline *t, const char *workload, bool traced)
{
	char name[TL_NAME_MAX + 16];

	if (t->in_run)
		perfetto_timeline__end_run(t);
	memset(&t->run, 0, sizeof(t->run));
	t->run.id = ++t->nr_runs;
	t->run.traced = traced;
	snprintf(t->run.workload, sizeof(t->run.workload), "%s", workload ? workload : "");
	perfetto_workload__begin_run(&t->samples);
	perfetto_cpus__begin_run(&t->cpus);
	t->in_run = true;
	if (t->run.id > TL_MAX_RUNS)
		return;
	snprintf(name, sizeof(name), "wakeprobe: %s", t->run.workload);
	perfetto_trace__name_process(t, perfetto_trace__run_pid(t), name, 2 * t->run.id);
}

/* drawn_run - the current run, begun here if the caller did not; false past the runs one file can number */
static bool drawn_run(struct perfetto_timeline *t)
{
	if (!t->in_run)
		perfetto_timeline__begin_run(t, "", true);
	return t->run.id <= TL_MAX_RUNS;
}

int perfetto_timeline__begin_attach(struct perfetto_timeline *t, const char *target)
{
	if (t->in_run)
		perfetto_timeline__end_run(t);
	if (!t->attach && !(t->attach = perfetto_attach__new()))
		return -ENOMEM;
	memset(&t->run, 0, sizeof(t->run));
	t->run.id = ++t->nr_runs;
	t->run.traced = true;
	t->run.attach = true;
	snprintf(t->run.workload, sizeof(t->run.workload), "%s", target ? target : "");
	perfetto_cpus__begin_run(&t->cpus);
	perfetto_attach__begin_run(t->attach);
	t->nr_attach_runs++;
	t->in_run = true;
	return 0;
}

/* attach_run - the current attach run, begun here if the caller did not; false when none can be drawn */
static bool attach_run(struct perfetto_timeline *t)
{
	if ((!t->in_run || !t->run.attach) && perfetto_timeline__begin_attach(t, ""))
		return false;
	return t->run.id <= TL_MAX_RUNS;
}

void perfetto_timeline__attach_event(struct perfetto_timeline *t, const struct wp_event *e)
{
	if (!attach_run(t))
		return;
	perfetto_attach__note(t, e);
	perfetto_cpus__event(t, e);
}

void perfetto_timeline__attach_result(struct perfetto_timeline *t, const struct attach_result *r)
{
	if (attach_run(t))
		perfetto_attach__draw(t, r);
}

void perfetto_timeline__event(struct perfetto_timeline *t, const struct wp_event *e)
{
	if (drawn_run(t))
		perfetto_cpus__event(t, e);
}

void perfetto_timeline__sample(struct perfetto_timeline *t, const struct sample_result *r)
{
	if (drawn_run(t))
		perfetto_workload__draw(t, r);
}

void perfetto_timeline__end_run(struct perfetto_timeline *t)
{
	if (!t->in_run)
		return;
	/* slices still open have no end to draw: the tasks running when the run stopped are not shown */
	if (t->nr_listed < TL_LISTED_RUNS)
		t->listed[t->nr_listed++] = t->run;
	t->in_run = false;
}

/* put_cpu_counts - what the CPU tracks of run @r drew and left out */
static void put_cpu_counts(struct json_writer *w, const struct tl_run *r)
{
	json_writer__put_uint(w, "events", r->events);
	json_writer__put_uint(w, "cpu_slices", r->cpu_slices);
	json_writer__put_uint(w, "cpu_slices_dropped_unwatched", r->unwatched);
	json_writer__put_uint(w, "exits_without_entry", r->unmatched);
	json_writer__put_uint(w, "entries_without_exit", r->unclosed);
	json_writer__put_uint(w, "late_events", r->late);
	json_writer__put_uint(w, "entries_too_deep", r->too_deep);
	json_writer__put_uint(w, "events_bad_cpu", r->bad_cpu);
}

/* put_attach_run - an attach run: its traced processes have their own pids, only its CPUs are synthetic */
static void put_attach_run(struct json_writer *w, const struct tl_run *r)
{
	json_writer__begin_object(w);
	json_writer__put_uint(w, "run", r->id);
	json_writer__put_str(w, "mode", "attach");
	json_writer__put_str(w, "target", r->workload);
	if (r->id <= TL_MAX_RUNS)
		json_writer__put_uint(w, "cpus_pid", perfetto_trace__pid_of_run(r->id) + TL_CPUS_OFFSET);
	else
		json_writer__put_str(w, "not_drawn", "past the runs one file can number");
	json_writer__put_uint(w, "wakeups", r->samples);
	json_writer__put_uint(w, "wakeups_labelled", r->labelled);
	json_writer__put_uint(w, "wakeups_not_drawn", r->samples_not_drawn);
	json_writer__put_uint(w, "wakeups_without_process", r->no_process);
	json_writer__put_uint(w, "flows", r->flows);
	json_writer__put_uint(w, "flows_from_cpus", r->flows_from_cpus);
	json_writer__put_uint(w, "thread_tracks", r->thread_tracks);
	json_writer__put_uint(w, "threads_renamed", r->threads_renamed);
	json_writer__put_uint(w, "thread_tracks_forgotten", r->tracks_forgotten);
	/* --chains: only a run that drew a chain says so, the others' entries stay as they were */
	if (r->chain_slices || r->chain_hops_not_drawn) {
		json_writer__put_uint(w, "chain_slices", r->chain_slices);
		json_writer__put_uint(w, "chain_flows", r->chain_flows);
		json_writer__put_uint(w, "chain_hops_not_drawn", r->chain_hops_not_drawn);
	}
	put_cpu_counts(w, r);
	json_writer__end_object(w);
}

static void put_run(struct json_writer *w, const struct tl_run *r)
{
	if (r->attach) {
		put_attach_run(w, r);
		return;
	}
	json_writer__begin_object(w);
	json_writer__put_uint(w, "run", r->id);
	json_writer__put_str(w, "workload", r->workload);
	json_writer__put_bool(w, "traced", r->traced);
	if (r->id <= TL_MAX_RUNS) {
		json_writer__put_uint(w, "pid", perfetto_trace__pid_of_run(r->id));
		json_writer__put_uint(w, "cpus_pid", perfetto_trace__pid_of_run(r->id) + TL_CPUS_OFFSET);
	} else {
		json_writer__put_str(w, "not_drawn", "past the runs one file can number");
	}
	json_writer__put_uint(w, "samples", r->samples);
	json_writer__put_uint(w, "samples_not_drawn", r->samples_not_drawn);
	put_cpu_counts(w, r);
	json_writer__end_object(w);
}

int perfetto_timeline__close(struct perfetto_timeline *t)
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
	static const char attach_tracks[] =
		"Attach mode: each traced process is a process of its own pid, each traced thread a thread named "
		"by its comm and tid. Each complete wakeup is a 'wakeup #<seq>' slice on the wakee from its first "
		"kernel mark to its last, split into the kernel phases it has (notify_kernel, wake_enqueue, "
		"runq_wait, resume_kernel; an absent one is not drawn, its reason in the wakeup's args), with an "
		"arrow from a zero-length '... wakes <comm> <tid>' slice at sched_waking: on the waker's thread "
		"when a traced thread woke it, else on the waking CPU's track. A wakeup that is not complete is "
		"one slice named by its label. Process 'CPUs (run N)' has a thread per CPU, as in workload mode: "
		"a gap on a CPU track is time wakeprobe did not see. docs/outputs.md describes every track.";
	struct json_writer *w;
	uint32_t i;
	int err;

	if (!t)
		return 0;
	w = &t->w;
	perfetto_timeline__end_run(t);
	json_writer__line_break(w);
	json_writer__end_array(w);
	json_writer__line_break(w);
	json_writer__put_str(w, "displayTimeUnit", "ns");
	json_writer__line_break(w);
	json_writer__key(w, "otherData");
	json_writer__begin_object(w);
	json_writer__put_str(w, "tool", "wakeprobe " WAKEPROBE_VERSION);
	json_writer__put_str(w, "clock", "CLOCK_MONOTONIC; ts and dur in microseconds, exact to the nanosecond");
	json_writer__put_str(w, "tracks", t->nr_attach_runs ? attach_tracks : tracks);
	json_writer__key(w, "runs");
	json_writer__begin_array(w);
	for (i = 0; i < t->nr_listed; i++)
		put_run(w, &t->listed[i]);
	json_writer__end_array(w);
	json_writer__put_uint(w, "runs_not_listed", t->nr_runs - t->nr_listed);
	json_writer__end_object(w);
	json_writer__end_object(w);
	err = json_writer__finish(w);
	perfetto_attach__free(t->attach);
	free(t);
	return err;
}
