/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census.h - what a traced run of a throughput workload did in the kernel,
 * counted so that it can be put per task, per message or per handler: its
 * wakeups by kind, and the CPU time its threads got, by thread name.
 *
 * A kind of wakeup is (waker, wakee's name, mechanism) with every id left
 * out: "thread bq-producer -> bq-consumer via futex wake -> wait_bitset".
 * The 100,000 threads of thread-per-event, each with its tid, and the
 * futex words each run allocates anew are then one row, as they are one
 * design decision. The wakeups come from the attach engine (attach.h), the
 * CPU time from the sched_switch records of the same run: a traced thread's
 * time on a CPU runs from the switch that put it there to the one that
 * took it off.
 *
 * Bounded: CENSUS_MAX_KINDS kinds (a histogram each, allocated when the
 * kind first comes), CENSUS_MAX_NAMES thread names, CENSUS_MAX_PROCS
 * processes; what does not fit is counted, not dropped unseen.
 */
#ifndef WAKEPROBE_CENSUS_H
#define WAKEPROBE_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "attach_result.h"
#include "histogram.h"
#include "mechanism.h"
#include "wakeprobe.h"

#define CENSUS_MAX_KINDS	64
#define CENSUS_MAX_NAMES	32
#define CENSUS_MAX_PROCS	1024

struct census_kind {
	char waker[MECHANISM_NAME_LEN];		/* mechanism__waker_kind() */
	char wakee[WP_TASK_COMM_LEN];		/* the wakee's name at its switch-in; "" if not seen */
	char mechanism[MECHANISM_NAME_LEN];	/* mechanism__kind() */
	uint8_t family;				/* enum mech_family */
	uint64_t wakeups;			/* every wakeup of the kind */
	uint64_t complete;			/* ... of them complete: in the histogram */
	struct histogram wake_to_run;
};

/* the threads of one name: what a design's role (producer, consumer, worker) cost in CPU */
struct census_name {
	char comm[WP_TASK_COMM_LEN];
	uint64_t cpu_ns;			/* on a CPU, summed over its threads */
	uint64_t slices;			/* times one of its threads was switched in */
	uint64_t ended;				/* its threads that ended while traced */
};

struct census_cpu {
	uint32_t tid;				/* the traced thread on this CPU; 0: none */
	int32_t name;				/* its index in names[], -1: past the table */
	uint64_t since_ns;
};

struct census {
	uint64_t wakeups;			/* every wakeup of a traced thread */
	struct census_kind *kinds[CENSUS_MAX_KINDS];
	uint32_t nr_kinds;
	uint64_t kinds_untabled;		/* wakeups whose kind did not fit, or found no memory */
	struct census_name names[CENSUS_MAX_NAMES];
	uint32_t nr_names;
	uint64_t names_untabled_ns;		/* CPU time of threads whose name did not fit */
	uint32_t procs[CENSUS_MAX_PROCS];	/* the traced processes: the command and what it forked */
	uint32_t nr_procs;
	uint64_t procs_untabled;		/* forks past the table: their threads' CPU time is not counted */
	/*
	 * A CPU's switch-out named another thread than the traced one last
	 * switched in there: a switch record was lost. That thread's time on
	 * the CPU is not counted, and this says how often.
	 */
	uint64_t unseen_slices;
	struct census_cpu cpu[WP_MAX_CPUS];
};

struct census *census__new(void);
void census__free(struct census *c);
/* census__process - @tgid is traced (the command); what it forks is then found in the records */
void census__process(struct census *c, uint32_t tgid);
/* census__event - one kernel record, in ring-buffer order (each CPU's records in their order) */
void census__event(struct census *c, const struct wp_event *e);
/* census__result - one wakeup of a traced thread, from the attach engine */
void census__result(struct census *c, const struct attach_result *r);
/* census__end - the trace ended at @end_ns: a thread still on a CPU is counted up to then */
void census__end(struct census *c, uint64_t end_ns);
/* census__kinds - up to @max kinds into @out, the most wakeups first (ties: the names); how many */
size_t census__kinds(const struct census *c, const struct census_kind **out, size_t max);
/* census__names - up to @max thread names into @out, the most CPU time first (ties: the name); how many */
size_t census__names(const struct census *c, const struct census_name **out, size_t max);
/* census__cpu_ns - the CPU time of every traced thread, the names past the table included */
uint64_t census__cpu_ns(const struct census *c);

#endif /* WAKEPROBE_CENSUS_H */
