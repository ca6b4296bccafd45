// SPDX-License-Identifier: GPL-2.0
/* prometheus_live.c - --prometheus-every: the metrics file rewritten during an attach run */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "outfile.h"
#include "prometheus_attach.h"
#include "prometheus_live.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void prometheus_live__init(struct prometheus_live *l, const char *path, uint64_t every_s, const char *target)
{
	memset(l, 0, sizeof(*l));
	l->path = path && strcmp(path, "-") ? path : NULL;
	l->every_ns = every_s * 1000000000ull;
	snprintf(l->target, sizeof(l->target), "%s", target);
}

void prometheus_live__begin(struct prometheus_live *l, const struct attach_session_result *res)
{
	l->trace_start_ns = res->trace_start_ns;
	l->started_unix_ns = res->meta.started_unix_ns;
	snprintf(l->host, sizeof(l->host), "%.*s", (int)sizeof(res->meta.hostname), res->meta.hostname);
	l->next_ns = now_ns() + l->every_ns;
}

struct prometheus_attach prometheus_live__attach(const struct prometheus_live *l, const struct attach_analysis *a,
						 uint64_t complete_ns, uint64_t drops)
{
	return (struct prometheus_attach){
		.host = l->host,
		.target = l->target,
		.started_unix_ns = l->started_unix_ns,
		.traced_ns = complete_ns > l->trace_start_ns ? complete_ns - l->trace_start_ns : 0,
		.agg = a->agg,
		.counters = attach_analysis__counters(a),
		.drops = drops,
		.cgroups = a->cgroups,
	};
}

/* rewrite - the file, whole, of the run so far */
static void rewrite(struct prometheus_live *l, const struct attach_analysis *a, uint64_t complete_ns, uint64_t drops)
{
	struct prometheus_attach pa = prometheus_live__attach(l, a, complete_ns, drops);
	char msg[PATH_MAX + 128];
	struct outfile f;
	int err;

	err = outfile__open(&f, "--prometheus", l->path, msg, sizeof(msg));
	if (!err) {
		prometheus_attach__print(f.f, &pa);
		err = outfile__commit(&f, msg, sizeof(msg));
	}
	if (!err) {
		l->writes++;
		l->warned = false;
	} else if (!l->warned) {
		if (l->every_ns)
			fprintf(stderr, "wakeprobe: %s (the run goes on; tried again in %llu s)\n", msg,
				(unsigned long long)(l->every_ns / 1000000000ull));
		else
			fprintf(stderr, "wakeprobe: %s (the run goes on)\n", msg);
		l->warned = true;
	}
}

void prometheus_live__advance(struct prometheus_live *l, const struct attach_analysis *a, uint64_t complete_ns,
			      uint64_t drops)
{
	uint64_t now = now_ns();

	if (!l->path || !l->every_ns || !l->next_ns || now < l->next_ns)
		return;
	/* the next one a period after this one: a slow rewrite does not make them come back to back */
	l->next_ns = now + l->every_ns;
	rewrite(l, a, complete_ns, drops);
}

void prometheus_live__now(struct prometheus_live *l, const struct attach_analysis *a, uint64_t complete_ns,
			  uint64_t drops)
{
	if (l->path && l->next_ns)
		rewrite(l, a, complete_ns, drops);
}
