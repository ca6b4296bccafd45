/* SPDX-License-Identifier: GPL-2.0 */
/*
 * service.h - what a long attach run does between two takes of the ring
 * (docs/fleet.md): --listen's /metrics answered, the --prometheus file
 * rewritten every --prometheus-every seconds, the cgroups' series handed to
 * the busiest every SERVICE_SETTLE_EVERY_NS, and on SIGHUP the --prometheus
 * and --json files rewritten and --web-config read again. Each file and each scrape is the run so far
 * in its format's sink (sink.h), as the end will write the run whole but
 * for what only the end knows.
 */
#ifndef WAKEPROBE_SERVICE_H
#define WAKEPROBE_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "attach_run.h"
#include "outputs.h"
#include "self_cost.h"

/* how often a service hands the cgroups' series to the busiest (series_cap.h) */
#define SERVICE_SETTLE_EVERY_NS		(10ull * 1000000000)
/*
 * how old a rendering of the metrics a scrape may be served: at most one
 * rendering a second is made in the tracing loop, however many scrapers
 * come (eight scraping back to back made it drop 1.5 million events)
 */
#define SERVICE_RENDER_EVERY_NS		1000000000ull

/*
 * the fewest connections at once --listen serves without a word: a
 * thousand clients that dribble their requests fill a table smaller, and
 * scrapers then wait on the oldest of them to give way (docs/fleet.md)
 */
#define SERVICE_CONNS_FEW		1024

struct service_opts {
	const char *listen;		/* --listen ADDR:PORT: /metrics served there; NULL: none */
	const char *allow_hosts;	/* --allow-host NAME[,NAME...]: more names a scrape's Host may give */
	/* --web-config FILE, and what it said at start: read again on SIGHUP; NULL: plain HTTP, no password */
	const char *web_config_path;
	const struct web_config *web_config;
	uint64_t prometheus_every_ns;	/* --prometheus-every: the --prometheus file rewritten; 0: not */
	/*
	 * between two takes of the ring: the cgroups' series settled, the
	 * scrapes answered, a SIGHUP's files written (--all, --cgroup, --listen)
	 */
	bool between_takes;
	struct attach_view view;	/* how the --json file shows the run */
};

struct service {
	struct service_opts opts;
	const struct outputs *out;
	struct http_server *server;	/* --listen; NULL: none */
	struct attach_run *run;		/* the run served, from its beginning */
	struct collector *collector;	/* the last tick's: what the programs cost so far */
	struct self_cost self;
	uint64_t next_settle_ns;
	uint64_t next_prometheus_ns;	/* CLOCK_MONOTONIC: when the next rewrite is due; 0: not begun */
	uint64_t prometheus_writes;	/* --prometheus files put in place during the run */
	bool prometheus_warned;		/* a rewrite failed and said so: the next failures are quiet */
	/* the last rendering of the metrics a scrape was served, in either format; NULL: none yet */
	char *rendered, *rendered_om;
	size_t rendered_len, rendered_om_len;
	uint64_t rendered_ns;		/* CLOCK_MONOTONIC, when it was made */
	uint64_t renderings;		/* how many were made: at most one a second */
};

/*
 * service__open - a service as @o asks, writing the files of @out (which
 * outlives it). --listen's port is taken here, before anything is loaded:
 * 0, or a negative errno and one line in @msg
 */
int service__open(struct service **s, const struct service_opts *o, const struct outputs *out, char *msg,
		  size_t len);
/* service__hooks - what the service sees of the attach run it serves: into @h (attach_run.h) */
void service__hooks(struct service *s, struct attach_run_hooks *h);
/*
 * service__scrape - what a scrape of --listen is answered (an
 * http_metrics_fn, with the service as @ctx): the run so far, as the
 * prometheus sink writes it (or OpenMetrics), from a rendering at most
 * SERVICE_RENDER_EVERY_NS old. 0, or a negative errno
 */
int service__scrape(FILE *out, bool openmetrics, void *ctx);
/* service__close - stop listening; NULL is fine */
void service__close(struct service *s);

#endif /* WAKEPROBE_SERVICE_H */
