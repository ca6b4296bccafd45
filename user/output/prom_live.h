/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_live.h - --prometheus-every: a long attach run rewrites its
 * --prometheus file every few seconds while it traces, each time whole (a
 * temporary file renamed over it, as node_exporter's textfile collector
 * needs), with the counters and histogram buckets of the run so far. They
 * only grow, so Prometheus can take rate() of them; the file the run
 * leaves at its end (outputs.h) is the last of the series.
 */
#ifndef WAKEPROBE_PROM_LIVE_H
#define WAKEPROBE_PROM_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include "attach_analysis.h"
#include "attach_session.h"
#include "prom_metrics.h"

struct prom_live {
	const char *path;		/* NULL: nothing to rewrite */
	uint64_t every_ns;		/* 0: only when asked */
	uint64_t next_ns;		/* CLOCK_MONOTONIC: when the next rewrite is due; 0: not begun */
	uint64_t trace_start_ns;
	uint64_t started_unix_ns;
	char host[66];
	char target[256];
	uint64_t writes;		/* files put in place */
	bool warned;			/* a rewrite failed and said so: the next failures are quiet */
};

/*
 * prom_live__init - rewrite @path (NULL or "-": never) every @every_s
 * seconds (0: only when prom_live__now() asks), labelled with @target
 */
void prom_live__init(struct prom_live *l, const char *path, uint64_t every_s, const char *target);
/* prom_live__begin - tracing began as @res says: the host, and when */
void prom_live__begin(struct prom_live *l, const struct attach_session_result *res);
/*
 * prom_live__advance - the analysis @a has taken in every record stamped
 * before @complete_ns, with @drops dropped: rewrite the file if it is due.
 * The traced time is up to @complete_ns, which the last call of a run gives
 * as the end of tracing, as the final file does: the counter never falls.
 * A failure is said once on stderr, and the run goes on.
 */
void prom_live__advance(struct prom_live *l, const struct attach_analysis *a, uint64_t complete_ns,
			uint64_t drops);
/*
 * prom_live__attach - the metrics of the run so far, as a rewrite writes
 * them: the analysis @a has taken in every record before @complete_ns
 */
struct prom_attach prom_live__attach(const struct prom_live *l, const struct attach_analysis *a,
				     uint64_t complete_ns, uint64_t drops);
/* prom_live__now - the same, due or not: a service's SIGHUP; with no --prometheus file, nothing */
void prom_live__now(struct prom_live *l, const struct attach_analysis *a, uint64_t complete_ns, uint64_t drops);

#endif /* WAKEPROBE_PROM_LIVE_H */
