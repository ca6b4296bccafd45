/* SPDX-License-Identifier: GPL-2.0 */
/*
 * design_run.h - one mode of a throughput workload (designs.h), run twice
 * in a row with the same arguments: untraced, for its own figures, then
 * under attach mode's engine, for the census of what it did in the kernel
 * (census.h) and the same figures traced. Tracing slows what it watches;
 * the two documents side by side say by how much.
 *
 * Each run's standard output (its JSON document) goes into a memfd and is
 * read back whole once the run has ended; its standard error stays
 * wakeprobe's, so the workload's own complaints reach the user.
 */
#ifndef WAKEPROBE_DESIGN_RUN_H
#define WAKEPROBE_DESIGN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "attach_run.h"
#include "census.h"
#include "designs.h"
#include "json_reader.h"

#define DESIGN_MAX_ARGV		64
#define DESIGN_MAX_FIGURES	64

struct design_run_opts {
	const struct design_desc *design;
	const char *mode;
	char *const *user_args;		/* NULL-terminated, after the design's own sizes; NULL: none */
	bool all;			/* --workload all: the design's all_args, not its args */
	int cpus[2];			/* --cpus A,B; -1: the workload's default */
	bool traced;			/* false (--no-trace): the untraced run only */
	bool lean;			/* the traced run with the lean engine (attach_lean.h) */
	bool chains;			/* --chains: each wakeup's chain of wakers (chain.h) */
	uint64_t timeout_ms;		/* per run; 0: none */
	uint32_t ringbuf_bytes;
	bool verbose;
	bool drop_privileges;
	uid_t uid;
	gid_t gid;
};

/* one run of the workload */
struct design_side {
	bool ran;
	int status;			/* waitpid() status */
	char exit[96];			/* "exited with status 0" */
	bool timed_out;
	uint64_t wall_ns;		/* start to exit */
	struct json_doc *doc;		/* its document; NULL if it printed none that parses */
	char doc_error[160];		/* ... and why */
};

/* one result of the document (mode, size, start point, parameters), untraced and traced */
struct design_figure {
	char label[160];		/* its identity but the mode: "tasks=1000 start=seed" */
	char unit[24];			/* "task", from its "ns_per_task" */
	uint64_t runs;
	double untraced_ns;		/* the median ns per unit over its runs */
	double traced_ns;		/* -1: no traced run */
	char counts[320];		/* the traced run's counts (else the untraced one's): "sent=400 received=400" */
};

struct design_run {
	const char *design_name;
	const char *mode;
	struct run_meta meta;		/* this machine, and when the untraced run began */
	char command[512];		/* the untraced run's command line, to repeat it by hand */
	char *argv[DESIGN_MAX_ARGV];	/* its words, the first the workload's path */
	char path[4096];
	char cpus_arg[32];
	struct design_side untraced;
	struct design_side traced;
	struct attach_run run;		/* the traced run: its wakeups, and how it went */
	struct census *census;
	uint64_t units;			/* what the traced run handed over, in @unit */
	char unit[24];
	struct design_figure figures[DESIGN_MAX_FIGURES];
	size_t nr_figures;
	bool interrupted;		/* Ctrl-C during either run */
};

/*
 * design_run__run - run @o's mode untraced, then (with @o->traced) traced.
 * 0 when both ran to the end with their documents read and matched;
 * otherwise a negative errno and one line in @msg (@r still says what ran,
 * design_run__free() cleans up either way). Nothing is left running.
 */
int design_run__run(const struct design_run_opts *o, struct design_run *r, char *msg, size_t len);
void design_run__free(struct design_run *r);

#endif /* WAKEPROBE_DESIGN_RUN_H */
