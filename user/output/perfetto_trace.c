// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_trace.c - the trace events every kind of track is made of: the
 * names of processes and threads, slices, instants, and the ids of a run's
 * synthetic processes
 */
#include <stdint.h>
#include "perfetto_trace.h"

/* ---------------------------------------------------------------- trace events */

/* put_us - @ns as microseconds with three decimals, in integers: no float rounds a nanosecond away */
static void put_us(struct json_writer *w, const char *key, uint64_t ns)
{
	json_writer__key(w, key);
	json_writer__fixed_point(w, ns, 3);
}

/* event_begin - a trace event on a line of its own, its object open */
static struct json_writer *event_begin(struct perfetto_timeline *t)
{
	json_writer__line_break(&t->w);
	json_writer__begin_object(&t->w);
	return &t->w;
}

void perfetto_trace__event_end(struct json_writer *w)
{
	json_writer__end_object(w);
	json_writer__end_object(w);
}

/* metadata - an "M" event, @what of process @pid or its thread @tid, up to its args */
static struct json_writer *metadata(struct perfetto_timeline *t, const char *what, uint32_t pid, uint32_t tid)
{
	struct json_writer *w = event_begin(t);

	json_writer__put_str(w, "name", what);
	json_writer__put_str(w, "ph", "M");
	json_writer__put_uint(w, "pid", pid);
	json_writer__put_uint(w, "tid", tid);
	json_writer__key(w, "args");
	json_writer__begin_object(w);
	return w;
}

/* name_track - the name of a process or thread, then its place among the others */
static void name_track(struct perfetto_timeline *t, const char *name_event, const char *sort_event, uint32_t pid,
		       uint32_t tid, const char *name, uint32_t sort_index)
{
	struct json_writer *w;

	w = metadata(t, name_event, pid, tid);
	json_writer__put_str(w, "name", name);
	perfetto_trace__event_end(w);
	w = metadata(t, sort_event, pid, tid);
	json_writer__put_uint(w, "sort_index", sort_index);
	perfetto_trace__event_end(w);
}

void perfetto_trace__name_process(struct perfetto_timeline *t, uint32_t pid, const char *name, uint32_t sort_index)
{
	name_track(t, "process_name", "process_sort_index", pid, pid, name, sort_index);
}

void perfetto_trace__name_thread(struct perfetto_timeline *t, uint32_t pid, uint32_t tid, const char *name,
				 uint32_t sort_index)
{
	name_track(t, "thread_name", "thread_sort_index", pid, tid, name, sort_index);
}

struct json_writer *perfetto_trace__slice_begin(struct perfetto_timeline *t, const struct tl_slice *s)
{
	struct json_writer *w = event_begin(t);

	json_writer__put_str(w, "name", s->name);
	json_writer__put_str(w, "cat", s->cat);
	json_writer__put_str(w, "ph", "X");
	put_us(w, "ts", s->start_ns);
	put_us(w, "dur", s->end_ns - s->start_ns);
	json_writer__put_uint(w, "pid", s->pid);
	json_writer__put_uint(w, "tid", s->tid);
	if (s->flow != TL_FLOW_NONE) {
		json_writer__put_uint(w, "bind_id", s->flow_id);
		json_writer__put_bool(w, s->flow == TL_FLOW_OUT ? "flow_out" : "flow_in", true);
	}
	json_writer__key(w, "args");
	json_writer__begin_object(w);
	return w;
}

struct json_writer *perfetto_trace__instant_begin(struct perfetto_timeline *t, const char *name, uint32_t pid,
						  uint32_t tid, uint64_t ts_ns)
{
	struct json_writer *w = event_begin(t);

	json_writer__put_str(w, "name", name);
	json_writer__put_str(w, "cat", "sched");
	json_writer__put_str(w, "ph", "i");
	json_writer__put_str(w, "s", "t");
	put_us(w, "ts", ts_ns);
	json_writer__put_uint(w, "pid", pid);
	json_writer__put_uint(w, "tid", tid);
	json_writer__key(w, "args");
	json_writer__begin_object(w);
	return w;
}

/* ---------------------------------------------------------------- runs */

uint32_t perfetto_trace__pid_of_run(uint32_t run)
{
	return TL_ID_BASE + run * TL_RUN_STRIDE;
}

uint32_t perfetto_trace__run_pid(const struct perfetto_timeline *t)
{
	return perfetto_trace__pid_of_run(t->run.id);
}

uint32_t perfetto_trace__cpus_pid(const struct perfetto_timeline *t)
{
	return perfetto_trace__pid_of_run(t->run.id) + TL_CPUS_OFFSET;
}
