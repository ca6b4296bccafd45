/* SPDX-License-Identifier: GPL-2.0 */
/*
 * designs.h - the throughput workloads wakeprobe runs: whole designs for
 * handing work between threads or processes (the seeds' burst queues,
 * thread per event, spawn, executors, socket vs shared-memory IPC), each a
 * program of workloads/ built on workloads/throughput.h.
 *
 * Where the paced paths of catalog.h measure one wakeup at a time, these
 * time a whole batch, many times over, and print their figures as a
 * "wakeprobe-throughput" JSON document. wakeprobe runs one mode at a time
 * untraced and traced, and counts what the traced run did in the kernel
 * per unit it handed over (design_run.h).
 */
#ifndef WAKEPROBE_DESIGNS_H
#define WAKEPROBE_DESIGNS_H

#include <stdbool.h>
#include <stddef.h>

#define DESIGN_MAX_MODES	8
#define DESIGN_MAX_ARGS		12

struct design_desc {
	const char *name;		/* the workload binary, and --workload NAME */
	const char *summary;
	const char *seed;		/* the seed article it reproduces: "000" */
	const char *modes[DESIGN_MAX_MODES];	/* NULL-terminated; one run each */
	/*
	 * What the document counts per mode under units_key: a number of
	 * @unit, or (unit NULL) an object {"unit", "count"} of its own.
	 */
	const char *units_key;
	const char *unit;
	/*
	 * The sizes wakeprobe gives it, before the user's own arguments (the
	 * later of two takes effect): small enough that the traced run's
	 * records fit, large enough for its figures to mean something.
	 */
	const char *args[DESIGN_MAX_ARGS];
	/* --workload all: one mode and sizes for a single line */
	const char *all_mode;
	const char *all_args[DESIGN_MAX_ARGS];
};

const struct design_desc *designs__find(const char *name);
const struct design_desc *designs__at(size_t index);
size_t designs__count(void);
/* designs__has_mode - is @mode one of @d's modes? */
bool designs__has_mode(const struct design_desc *d, const char *mode);

/*
 * designs__mode_listed - does the --mode list @modes ("a,b", "all") name
 * @mode? NULL (no --mode) names every mode.
 */
bool designs__mode_listed(const char *modes, const char *mode);
/*
 * designs__check_modes - every word of the --mode list @modes is one of
 * @d's modes or "all": 0, or -EINVAL with one line in @msg naming them
 */
int designs__check_modes(const struct design_desc *d, const char *modes, char *msg, size_t len);
/*
 * designs__check_args - what the user put after -- for a throughput
 * workload: none of the options wakeprobe sets itself (--mode, --cpus,
 * --json, --help). 0, or -EINVAL with one line in @msg naming the fix.
 */
int designs__check_args(char *const *args, char *msg, size_t len);

#endif /* WAKEPROBE_DESIGNS_H */
