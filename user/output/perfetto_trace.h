/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_trace.h - what the files of the timeline share, and no other
 * module includes: the document's state, and the trace events every kind
 * of track is made of (perfetto_trace.c). perfetto_timeline.c writes the
 * document and its runs and hands each input to its tracks:
 * perfetto_workload.c draws the samples on their waker and wakee threads,
 * perfetto_cpus.c the watched CPUs' history on a thread per CPU,
 * perfetto_attach.c attach mode's wakeups on the traced threads. A track
 * calls down into this file, and into perfetto_common.c for the phase
 * slices both kinds of wakeup have; attach mode's arrows may leave a CPU's
 * thread (perfetto_cpus.c).
 *
 * The state of workload runs lives in struct perfetto_timeline, one block
 * allocated at open; an attach run adds one more block of fixed size,
 * allocated at its first run (perfetto_attach.c). Memory does not grow
 * with the run.
 */
#ifndef WAKEPROBE_PERFETTO_TRACE_H
#define WAKEPROBE_PERFETTO_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "json_writer.h"
#include "wakeprobe.h"
#include "wakeup.h"

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

/* open slices per CPU: a task, cpu_idle in it, a softirq, an interrupt over that, and room to spare */
#define TL_DEPTH	6
/* sample threads per run: a run has one waker and one wakee */
#define TL_THREADS	8
/* runs described one by one in otherData; later ones are only counted */
#define TL_LISTED_RUNS	64
#define TL_NAME_MAX	256

/* what otherData says about one run; both kinds of track count into it */
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
	/* an attach run: workload[] holds what was traced, and these count its wakeups */
	bool attach;
	uint64_t labelled;		/* drawn as one slice named by their label */
	uint64_t no_process;		/* no record named the wakee's process: not drawn */
	uint64_t flows;
	uint64_t flows_from_cpus;	/* the waker was no traced thread: the arrow leaves its CPU */
	uint64_t thread_tracks;		/* thread tracks named, renames and tracks made again included */
	uint64_t threads_renamed;	/* a thread track named again: the records gave it another comm */
	uint64_t tracks_forgotten;	/* the track table was full: the least recently used was dropped */
	/* --chains: the slices of the hops drawn, their arrows, and the hops that could not be */
	uint64_t chain_slices;
	uint64_t chain_flows;
	uint64_t chain_hops_not_drawn;
};

/* ---------------------------------------------------------------- the sample tracks' state */

/* a waker or wakee thread: its samples are drawn one after the other */
struct tl_thread {
	uint32_t tid;
	uint64_t busy_until_ns;	/* where the last slice drawn on it ends */
};

struct perfetto_workload {
	uint64_t last_flow;	/* arrow ids are unique in the file, across runs */
	uint32_t nr_threads;
	struct tl_thread threads[TL_THREADS];
};

/* ---------------------------------------------------------------- the CPU tracks' state */

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

struct perfetto_cpus {
	bool process_named;	/* the run's CPU process has its name */
	uint64_t cpu_named[WP_MAX_CPUS / 64];
	struct tl_cpu cpu[WP_MAX_CPUS];
};

/* ---------------------------------------------------------------- the document */

struct perfetto_attach;

struct perfetto_timeline {
	struct json_writer w;	/* compact, one trace event a line */
	bool in_run;
	uint32_t nr_runs;
	uint32_t nr_attach_runs;
	struct perfetto_attach *attach;	/* NULL until the first attach run */
	struct tl_run run;
	struct perfetto_workload samples;
	struct perfetto_cpus cpus;
	uint32_t nr_listed;
	struct tl_run listed[TL_LISTED_RUNS];
};

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

/* perfetto_trace.c: the run's two processes, and the trace events of every kind of track */

/* perfetto_trace__pid_of_run - the process of run @run's waker and wakee threads (1-based) */
uint32_t perfetto_trace__pid_of_run(uint32_t run);
/* perfetto_trace__run_pid - the process of the current run's waker and wakee threads */
uint32_t perfetto_trace__run_pid(const struct perfetto_timeline *t);
/* perfetto_trace__cpus_pid - the process of the current run's CPU threads */
uint32_t perfetto_trace__cpus_pid(const struct perfetto_timeline *t);
/* perfetto_trace__name_process - name process @pid and place it among the others by @sort_index */
void perfetto_trace__name_process(struct perfetto_timeline *t, uint32_t pid, const char *name, uint32_t sort_index);
/* perfetto_trace__name_thread - name thread @tid of process @pid and place it among its threads */
void perfetto_trace__name_thread(struct perfetto_timeline *t, uint32_t pid, uint32_t tid, const char *name,
				 uint32_t sort_index);
/*
 * perfetto_trace__slice_begin - a complete ("X") event up to its args object,
 * left open: the caller writes the args with json_writer__put_*() and ends
 * the event with perfetto_trace__event_end()
 */
struct json_writer *perfetto_trace__slice_begin(struct perfetto_timeline *t, const struct tl_slice *s);
/* perfetto_trace__instant_begin - a thread-scoped instant ("i") event up to its args, as above */
struct json_writer *perfetto_trace__instant_begin(struct perfetto_timeline *t, const char *name, uint32_t pid,
						  uint32_t tid, uint64_t ts_ns);
/* perfetto_trace__event_end - close an event's args and the event */
void perfetto_trace__event_end(struct json_writer *w);

#endif /* WAKEPROBE_PERFETTO_TRACE_H */
