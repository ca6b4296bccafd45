// SPDX-License-Identifier: GPL-2.0
/* service.c - a long attach run's work between two takes of the ring: scrapes, rewrites, the series settled */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collector.h"
#include "file_limit.h"
#include "http_server.h"
#include "launch.h"
#include "prom.h"
#include "prometheus_attach.h"
#include "service.h"
#include "web_config.h"

/*
 * so_far - @s's run as it stands, for a file or a scrape: traced up to its
 * last advance, with the drops then; with @c, the BPF side's counters now
 * (what the JSON's tables of drops and lean counters say). @snap holds the
 * run the report in @rep points to; @r is the results a sink takes.
 */
static void so_far(const struct service *s, struct collector *c, struct attach_session_result *snap,
		   struct attach_report *rep, struct results *r)
{
	struct attach_run *run = s->run;

	struct collector_prog_totals totals;

	/* the sums of the wakeups until now: a scrape, a file, is not a second behind the kernel's */
	attach_run__take_sums(run, c);

	*snap = run->res;
	snap->trace_end_ns = run->complete_ns > snap->trace_start_ns ? run->complete_ns : snap->trace_start_ns;
	snap->drops_total = run->drops;
	if (c) {
		collector__counters(c, &snap->counters, &snap->drops_total);
		collector__lean_counters(c, &snap->lean);
		collector__prog_totals(c, &totals);
		snap->missed_runs = totals.missed_runs;
	}
	snap->cost.known = false;
	attach_run__report(run, &s->opts.view, rep);
	rep->run = snap;
	*r = (struct results){ .kind = RUN_ATTACH, .attach = { .report = rep, .so_far = true,
							       .missed_runs_read = c != NULL } };
}

/* rewrite_prometheus - the --prometheus file of the run so far; a failure said once, and the run goes on */
static void rewrite_prometheus(struct service *s)
{
	struct attach_session_result snap;
	struct attach_report rep;
	char msg[PATH_MAX + 128];
	struct results r;

	so_far(s, s->collector, &snap, &rep, &r);
	if (!outputs__rewrite(s->out, &prometheus_sink, &r, msg, sizeof(msg))) {
		s->prometheus_writes++;
		s->prometheus_warned = false;
	} else if (!s->prometheus_warned) {
		if (s->opts.prometheus_every_ns)
			fprintf(stderr, "wakeprobe: %s (the run goes on; tried again in %llu s)\n", msg,
				(unsigned long long)(s->opts.prometheus_every_ns / 1000000000ull));
		else
			fprintf(stderr, "wakeprobe: %s (the run goes on)\n", msg);
		s->prometheus_warned = true;
	}
}

/*
 * rewrite_json - a SIGHUP's --json file of the run so far, as the end would
 * write it but for what only the end knows (the programs' time, the runs
 * the kernel skipped); said on stderr if it cannot be
 */
static void rewrite_json(struct service *s, struct collector *c)
{
	struct attach_session_result snap;
	struct attach_report rep;
	char msg[PATH_MAX + 128];
	struct results r;

	so_far(s, c, &snap, &rep, &r);
	if (outputs__rewrite(s->out, &json_sink, &r, msg, sizeof(msg)))
		fprintf(stderr, "wakeprobe: %s (the run goes on)\n", msg);
}

/*
 * render - the metrics of the run so far and what the service costs, as
 * the prometheus sink writes them, into s->rendered: a scrape's, made
 * anew at most every SERVICE_RENDER_EVERY_NS
 */
static int render(struct service *s)
{
	struct attach_session_result snap;
	struct attach_report rep;
	struct http_server_stats hs;
	struct prometheus_self self;
	struct results r;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	self_cost__read(&s->self, s->collector);
	http_server__stats(s->server, &hs);
	self = (struct prometheus_self){
		.cpu_ns = s->self.cpu_ns,
		.rss_bytes = s->self.rss_bytes,
		.scrapes = hs.scrapes + 1,
		.conns_timed_out = hs.timed_out,
		.conns_evicted = hs.evicted,
		.conns_refused = hs.refused,
		.bpf_known = s->self.bpf_known,
		.bpf_runs = s->self.bpf_runs,
		.bpf_run_ns = s->self.bpf_run_ns,
		.steal_known = s->self.steal_known,
		.steal_ns = s->self.steal_ns,
	};
	so_far(s, s->collector, &snap, &rep, &r);
	r.attach.self = &self;
	mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	err = outputs__render(s->out, &prometheus_sink, mem, &r);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (err) {
		free(text);
		return err;
	}
	free(s->rendered);
	free(s->rendered_om);
	s->rendered = text;
	s->rendered_len = len;
	s->rendered_om = NULL;
	s->rendered_ns = collector__now_ns();
	s->renderings++;
	return 0;
}

/* render_om - the last rendering as OpenMetrics, converted once */
static int render_om(struct service *s)
{
	FILE *mem = open_memstream(&s->rendered_om, &s->rendered_om_len);
	int err;

	if (!mem)
		return -ENOMEM;
	err = prom__to_openmetrics(s->rendered, s->rendered_len, mem);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (err) {
		free(s->rendered_om);
		s->rendered_om = NULL;
	}
	return err;
}

int service__scrape(FILE *out, bool openmetrics, void *ctx)
{
	struct service *s = ctx;
	int err = 0;

	if (!s->rendered || collector__now_ns() - s->rendered_ns >= SERVICE_RENDER_EVERY_NS)
		err = render(s);
	if (!err && openmetrics && !s->rendered_om)
		err = render_om(s);
	if (err)
		return err;
	if (openmetrics)
		fwrite(s->rendered_om, 1, s->rendered_om_len, out);
	else
		fwrite(s->rendered, 1, s->rendered_len, out);
	return ferror(out) ? -EIO : 0;
}

/* allow_hosts - --allow-host's names, each taken in a scrape's Host as the machine's own are */
static int allow_hosts(struct http_server *server, const char *names, char *msg, size_t len)
{
	char *list = strdup(names), *save = NULL, *name;
	int err = list ? 0 : -ENOMEM;

	if (err)
		snprintf(msg, len, "out of memory");
	for (name = list ? strtok_r(list, ",", &save) : NULL; name && !err; name = strtok_r(NULL, ",", &save)) {
		err = http_server__allow_name(server, name);
		if (err)
			snprintf(msg, len, "--allow-host %s: %s", name, err == -ENOSPC ? "at most eight names" :
				 "not a host name");
	}
	free(list);
	return err;
}

/*
 * open_server - --listen's server, with as many connections at once as the
 * file limit allows: raised to the hard limit first (systemd gives a
 * service 1024, and 524288 as its hard limit), and said on stderr only
 * when that leaves fewer than SERVICE_CONNS_FEW, too few to outlast a
 * flood of idle connections
 */
static int open_server(struct service *s, char *msg, size_t len)
{
	rlim_t files = 0;
	int err, conns;

	file_limit__raise(&files);
	err = http_server__open(&s->server, s->opts.listen, service__scrape, s, msg, len);
	if (err)
		return err;
	conns = http_server__max_conns(s->server);
	if (conns < SERVICE_CONNS_FEW)
		fprintf(stderr, "wakeprobe: --listen serves %d connections at once, as open files are limited to %llu "
			"(RLIMIT_NOFILE): raise the hard limit to %d (LimitNOFILE= in the unit, ulimit -Hn) (the run "
			"goes on)\n", conns, (unsigned long long)files, HTTP_CONNS_MAX + HTTP_FDS_KEPT);
	return 0;
}

int service__open(struct service **out, const struct service_opts *o, const struct outputs *outputs, char *msg,
		  size_t len)
{
	struct service *s = calloc(1, sizeof(*s));
	int err;

	*out = NULL;
	if (!s) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	s->opts = *o;
	s->out = outputs;
	if (o->listen && (err = open_server(s, msg, len))) {
		free(s);
		return err;
	}
	if (s->server && o->allow_hosts && (err = allow_hosts(s->server, o->allow_hosts, msg, len))) {
		service__close(s);
		return err;
	}
	if (s->server && o->web_config &&
	    (err = http_server__set_web_config(s->server, o->web_config, o->web_config_path, msg, len))) {
		service__close(s);
		return err;
	}
	*out = s;
	return 0;
}

static void on_begun(const struct attach_run *run, void *ctx)
{
	struct service *s = ctx;

	s->run = (struct attach_run *)run;
	s->next_prometheus_ns = collector__now_ns() + s->opts.prometheus_every_ns;
}

/* on_advanced - --prometheus-every: the file rewritten when it is due */
static void on_advanced(const struct attach_run *run, void *ctx)
{
	struct service *s = ctx;
	uint64_t now = collector__now_ns();

	(void)run;
	if (!s->opts.prometheus_every_ns || !s->next_prometheus_ns || now < s->next_prometheus_ns ||
	    !outputs__keeps_file(s->out, &prometheus_sink))
		return;
	/* the next one a period after this one: a slow rewrite does not make them come back to back */
	s->next_prometheus_ns = now + s->opts.prometheus_every_ns;
	rewrite_prometheus(s);
}

/*
 * reload_web_config - a SIGHUP's --web-config read again: a good file in
 * force for the connections to come, a bad one said in one line and the
 * one before kept, so that a typo does not open the metrics or close them
 */
static void reload_web_config(struct service *s)
{
	struct web_config *web = malloc(sizeof(*web));
	char msg[PATH_MAX * 2 + 256];

	if (!web) {
		fprintf(stderr, "wakeprobe: --web-config %s: out of memory; the configuration before stays in force\n",
			s->opts.web_config_path);
		return;
	}
	if (web_config__load(s->opts.web_config_path, web, msg, sizeof(msg)) ||
	    http_server__set_web_config(s->server, web, s->opts.web_config_path, msg, sizeof(msg)))
		fprintf(stderr, "wakeprobe: %s; the configuration before stays in force\n", msg);
	else
		fprintf(stderr, "wakeprobe: --web-config %s read again: in force for new connections\n",
			s->opts.web_config_path);
	/* the users' hashes are not secrets, but no copy of them need linger */
	explicit_bzero(web, sizeof(*web));
	free(web);
}

/*
 * on_tick - between two takes of the ring: the series handed to the
 * busiest cgroups every SERVICE_SETTLE_EVERY_NS, a SIGHUP's rewrite of
 * --prometheus and --json, and the scrapes that came
 */
static void on_tick(struct attach_run *run, struct collector *c, void *ctx)
{
	struct service *s = ctx;
	uint64_t now = collector__now_ns();

	s->collector = c;
	if (run->analysis->cgroups && now >= s->next_settle_ns) {
		cgroup_stats__settle(run->analysis->cgroups, now);
		s->next_settle_ns = now + SERVICE_SETTLE_EVERY_NS;
	}
	if (launch_reopen_requested) {
		launch_reopen_requested = 0;
		if (s->next_prometheus_ns && outputs__keeps_file(s->out, &prometheus_sink))
			rewrite_prometheus(s);
		rewrite_json(s, c);
		if (s->server && s->opts.web_config_path)
			reload_web_config(s);
	}
	if (s->server)
		http_server__serve(s->server, 0);
}

void service__hooks(struct service *s, struct attach_run_hooks *h)
{
	h->begun = on_begun;
	h->advanced = on_advanced;
	h->tick = s->opts.between_takes ? on_tick : NULL;
	h->ctx = s;
}

void service__close(struct service *s)
{
	if (!s)
		return;
	http_server__close(s->server);
	free(s->rendered);
	free(s->rendered_om);
	free(s);
}
