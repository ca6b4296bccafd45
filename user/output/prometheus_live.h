/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus_live.h - --prometheus-every: a long attach run rewrites its
 * --prometheus file every few seconds while it traces, each time whole (a
 * temporary file renamed over it, as node_exporter's textfile collector
 * needs), with the counters and histogram buckets of the run so far. They
 * only grow, so Prometheus can take rate() of them; the file the run
 * leaves at its end (outputs.h) is the last of the series.
 */
#ifndef WAKEPROBE_PROMETHEUS_LIVE_H
#define WAKEPROBE_PROMETHEUS_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include "attach_analysis.h"
#include "attach_session.h"
#include "prometheus_attach.h"

struct prometheus_live {
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
 * prometheus_live__init - rewrite @path (NULL or "-": never) every @every_s
 * seconds (0: only when prometheus_live__now() asks), labelled with @target
 */
void prometheus_live__init(struct prometheus_live *l, const char *path, uint64_t every_s, const char *target);
/* prometheus_live__begin - tracing began as @res says: the host, and when */
void prometheus_live__begin(struct prometheus_live *l, const struct attach_session_result *res);
/*
 * prometheus_live__advance - the analysis @a has taken in every record stamped
 * before @complete_ns, with @drops dropped: rewrite the file if it is due.
 * The traced time is up to @complete_ns, which the last call of a run gives
 * as the end of tracing, as the final file does: the counter never falls.
 * A failure is said once on stderr, and the run goes on.
 */
void prometheus_live__advance(struct prometheus_live *l, const struct attach_analysis *a, uint64_t complete_ns,
			      uint64_t drops);
/*
 * prometheus_live__attach - the metrics of the run so far, as a rewrite writes
 * them: the analysis @a has taken in every record before @complete_ns
 */
struct prometheus_attach prometheus_live__attach(const struct prometheus_live *l, const struct attach_analysis *a,
						 uint64_t complete_ns, uint64_t drops);
/* prometheus_live__now - the same, due or not: a service's SIGHUP; with no --prometheus file, nothing */
void prometheus_live__now(struct prometheus_live *l, const struct attach_analysis *a, uint64_t complete_ns,
			  uint64_t drops);

#endif /* WAKEPROBE_PROMETHEUS_LIVE_H */
