// SPDX-License-Identifier: GPL-2.0
/*
 * mode_attach.c - a program of the user's (--pid, -- COMMAND), or the
 * machine's tasks (--all, --cgroup): every wakeup its threads take, traced
 * until it ends, --duration runs out or a signal comes, and explained
 * (docs/attach.md); with --listen, a service that Prometheus scrapes while
 * it traces (docs/fleet.md)
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "attach_analysis.h"
#include "attach_session.h"
#include "cgroups.h"
#include "collector.h"
#include "http_server.h"
#include "json_attach.h"
#include "outfile.h"
#include "launch.h"
#include "mode.h"
#include "parse.h"
#include "prom.h"
#include "prometheus_attach.h"
#include "prometheus_live.h"
#include "self_cost.h"

/* how often a service hands the cgroups' series to the busiest (series_cap.h) */
#define SETTLE_EVERY_NS		(10ull * 1000000000)

struct attach_state {
	struct attach_session_opts so;
	struct attach_analysis_opts ao;
	char path[PATH_MAX];		/* the command's executable, as the check found it */
	struct attach_analysis *analysis;
	struct prometheus_live prom;	/* --prometheus-every */
	struct attach_session_result res;
	/* --all, --cgroup, --listen: the cgroup2 hierarchy, the cgroups to trace, and their names */
	char cgroup_mount[PATH_MAX];
	uint64_t cgroup_ids[OPT_MAX_CGROUPS];
	struct cgroup_names *cgroup_names;
	/* --listen */
	struct http_server *server;
	struct collector *collector;	/* while tracing: what the programs cost so far */
	struct self_cost self;
	uint64_t complete_ns;		/* the last advance's */
	uint64_t drops;
	uint64_t next_settle_ns;
	const struct wp_options *o;	/* for a SIGHUP's report */
};

static bool attach_wants(const struct wp_options *o)
{
	return options__attach(o);
}

void mode_attach__target(const struct attach_session_opts *t, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t i;

	buf[0] = '\0';
	if (t->all || t->cgroups_given) {
		snprintf(buf, len, t->all ? "all" : "cgroup %s", t->cgroups_given);
		return;
	}
	for (i = 0; t->argv && t->argv[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", t->argv[i]);
	for (i = 0; !t->argv && i < t->nr_pids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? "," : "pid ", t->pids[i]);
}

static void on_begin(const struct attach_session_result *res, void *ctx)
{
	struct attach_state *s = ctx;

	attach_analysis__begin(s->analysis, &s->so, res);
	prometheus_live__begin(&s->prom, res);
}

static void on_event(const struct wp_event *e, void *ctx)
{
	struct attach_state *s = ctx;

	attach_analysis__event(s->analysis, e);
}

static void on_advance(uint64_t complete_ns, uint64_t drops, void *ctx)
{
	struct attach_state *s = ctx;

	attach_analysis__advance(s->analysis, complete_ns, drops);
	prometheus_live__advance(&s->prom, s->analysis, complete_ns, drops);
	s->complete_ns = complete_ns;
	s->drops = drops;
}

/* render_metrics - a scrape of --listen: the run so far, as --prometheus-every writes it, and what it costs */
static int render_metrics(FILE *out, bool openmetrics, void *ctx)
{
	struct attach_state *s = ctx;
	struct prometheus_attach pa = prometheus_live__attach(&s->prom, s->analysis, s->complete_ns, s->drops);
	struct http_server_stats hs;
	struct prometheus_self self;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int err = 0;

	self_cost__read(&s->self, s->collector);
	http_server__stats(s->server, &hs);
	self = (struct prometheus_self){
		.cpu_ns = s->self.cpu_ns,
		.rss_bytes = s->self.rss_bytes,
		.scrapes = hs.scrapes + 1,
		.bpf_known = s->self.bpf_known,
		.bpf_runs = s->self.bpf_runs,
		.bpf_run_ns = s->self.bpf_run_ns,
		.steal_known = s->self.steal_known,
		.steal_ns = s->self.steal_ns,
	};
	pa.self = &self;
	if (!openmetrics) {
		prometheus_attach__print(out, &pa);
		return 0;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	prometheus_attach__print(mem, &pa);
	if (fclose(mem))
		err = -ENOMEM;
	if (!err)
		err = prom__to_openmetrics(text, len, out);
	free(text);
	return err;
}

/*
 * json_now - a service's SIGHUP: the --json file of the run so far, as the
 * end would write it but for what only the end knows (the programs' time,
 * the runs the kernel skipped); said once on stderr if it cannot be
 */
static void json_now(struct attach_state *s, struct collector *c)
{
	const char *path = s->o->json_path;
	struct attach_session_result snap;
	struct attach_report report;
	char msg[PATH_MAX + 128];
	struct outfile f;
	int err;

	if (!path || !strcmp(path, "-"))
		return;
	snap = s->res;
	snap.trace_end_ns = s->complete_ns > snap.trace_start_ns ? s->complete_ns : snap.trace_start_ns;
	collector__counters(c, &snap.counters, &snap.drops_total);
	collector__lean_counters(c, &snap.lean);
	snap.cost.known = false;
	mode__attach_report(s->o, &s->so, &snap, s->analysis, &report);
	err = outfile__open(&f, "--json", path, msg, sizeof(msg));
	if (!err) {
		err = json_attach__print(f.f, &report);
		if (err) {
			snprintf(msg, sizeof(msg), "--json %s: %s", parse__shown(path), strerror(-err));
			outfile__abandon(&f);
		} else {
			err = outfile__commit(&f, msg, sizeof(msg));
		}
	}
	if (err)
		fprintf(stderr, "wakeprobe: %s (the run goes on)\n", msg);
}

/*
 * on_tick - between two takes of the ring, a service's other work: the
 * scrapes that came, the series handed to the busiest cgroups every
 * SETTLE_EVERY_NS, and a SIGHUP's rewrite of --prometheus and --json
 */
static void on_tick(struct collector *c, void *ctx)
{
	struct attach_state *s = ctx;
	uint64_t now = collector__now_ns();

	s->collector = c;
	if (s->analysis->cgroups && now >= s->next_settle_ns) {
		cgroup_stats__settle(s->analysis->cgroups, now);
		s->next_settle_ns = now + SETTLE_EVERY_NS;
	}
	if (launch_reopen_requested) {
		launch_reopen_requested = 0;
		prometheus_live__now(&s->prom, s->analysis, s->complete_ns, s->drops);
		json_now(s, c);
	}
	if (s->server)
		http_server__serve(s->server, 0);
}

/*
 * check_cgroups - --all, --cgroup, --listen: the cgroup2 hierarchy, and the
 * id of each cgroup --cgroup names; one line and exit 2 for one that is not
 */
static int check_cgroups(const struct wp_options *o, struct attach_state *s)
{
	char msg[PATH_MAX + 256], path[CGROUP_PATH_LEN];
	char list[OPT_MAX_CGROUPS * 64 + 64], *save = NULL, *name;
	uint32_t n = 0;

	if (cgroups__mount(s->cgroup_mount, sizeof(s->cgroup_mount)))
		s->cgroup_mount[0] = '\0';
	if (o->cgroups) {
		if (strlen(o->cgroups) >= sizeof(list)) {
			fprintf(stderr, "wakeprobe: --cgroup names too much: at most %d cgroups\n", OPT_MAX_CGROUPS);
			return 2;
		}
		snprintf(list, sizeof(list), "%s", o->cgroups);
		for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			if (n == OPT_MAX_CGROUPS) {
				fprintf(stderr, "wakeprobe: --cgroup takes at most %d cgroups\n", OPT_MAX_CGROUPS);
				return 2;
			}
			if (cgroups__find(s->cgroup_mount, name, &s->cgroup_ids[n], path, sizeof(path), msg,
					  sizeof(msg))) {
				fprintf(stderr, "wakeprobe: %s\n", msg);
				return 2;
			}
			n++;
		}
	}
	s->so.all = o->all;
	s->so.cgroup_ids = s->cgroup_ids;
	s->so.nr_cgroup_ids = n;
	s->so.cgroups_given = o->cgroups;
	s->so.cgroups = true;
	s->so.on_tick = on_tick;
	s->so.drain_every_ms = COLLECTOR_DRAIN_MACHINE_MS;
	s->o = o;
	return 0;
}

/* attach_check - what is wrong with the targets is found before anything is loaded: one line, exit 2 */
static int attach_check(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct attach_state *s = m->state;
	char msg[PATH_MAX + 128];
	int err;

	s->so = (struct attach_session_opts){
		.lean = o->lean,
		.syscall_phases = o->syscall_phases,
		/* the outliers a lean run explains: as in workload mode (analysis__lean_flight_ns()) */
		.lean_flight_ns = o->lean ? o->threshold_us * 1000 : 0,
		.lean_flight_adaptive = analysis__lean_flight_adaptive(o->lean, o->outliers, o->threshold_us * 1000),
		.lean_softirqs = o->lean && o->softirqs,
		.stacks = o->stacks,
		.pids = o->pids,
		.nr_pids = o->nr_pids,
		.argv = o->target_argv,
		.duration_ms = o->duration_s * 1000,
		.timeout_ms = o->timeout_s * 1000,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.verbose = o->verbose,
		.on_begin = on_begin,
		.on_event = on_event,
		.on_advance = on_advance,
		.ctx = s,
	};
	if (o->user && !o->target_argv) {
		fprintf(stderr, "wakeprobe: --user is for the command wakeprobe starts; --pid starts nothing\n");
		return 2;
	}
	/* the command inherits wakeprobe's stdout: its output would go into the recording */
	if (o->command == CMD_RECORD && o->target_argv && !strcmp(o->record_path, "-")) {
		fprintf(stderr, "wakeprobe: record -o - shares standard output with the command: give -o a file\n");
		return 2;
	}
	err = attach_session__check(&s->so, s->path, sizeof(s->path), msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		/* another user's process wants privileges, as every privilege error does; the rest is usage */
		return err == -EPERM ? 1 : 2;
	}
	s->so.command_path = s->path;
	if (o->user && (err = mode__resolve_user(o->user, &s->so.uid, &s->so.gid)))
		return err;
	s->so.drop_privileges = o->user != NULL;
	if (collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return options__by_cgroup(o) ? check_cgroups(o, s) : 0;
}

static int attach_open(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct attach_state *s = m->state;
	char msg[PATH_MAX + 128], target[256];

	s->ao = (struct attach_analysis_opts){
		.outliers = o->outliers,
		.outlier_threshold_ns = o->threshold_us * 1000,
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.lean = o->lean,
	};
	mode_attach__target(&s->so, target, sizeof(target));
	if (options__by_cgroup(o)) {
		s->cgroup_names = cgroup_names__new(s->cgroup_mount);
		if (!s->cgroup_names)
			return mode__fail(m, 1, "out of memory");
		s->ao.cgroup_names = s->cgroup_names;
		s->ao.cgroup_top = o->top;
	}
	/* before anything is loaded: a port taken is one line, and nothing to undo */
	if (o->listen && http_server__open(&s->server, o->listen, render_metrics, s, msg, sizeof(msg)))
		return mode__fail(m, 1, msg);
	if (outputs__open(m->out, &m->paths, RUN_ATTACH, msg, sizeof(msg)) ||
	    outputs__begin_attach(m->out, target, &s->ao, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	prometheus_live__init(&s->prom, o->prometheus_path, o->prometheus_every_s, m->out->target);
	s->analysis = attach_analysis__new(&s->ao);
	if (!s->analysis)
		return mode__fail(m, 1, "out of memory");
	return 0;
}

/*
 * exit_status - wakeprobe's own: the command's when it ended by itself; 1
 * when --timeout had to end it, as for a workload; 0 when the run ended as
 * asked (--duration, a first signal) or had no command
 */
static int exit_status(const struct attach_session_result *res)
{
	if (res->timed_out)
		return 1;
	if (!res->command_pid || res->interrupted || !res->command_exited)
		return 0;
	if (WIFEXITED(res->command_status))
		return WEXITSTATUS(res->command_status);
	if (WIFSIGNALED(res->command_status))
		return 128 + WTERMSIG(res->command_status);
	return 1;
}

static int attach_measure(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct attach_state *s = m->state;
	char msg[PATH_MAX + 128], line[PATH_MAX + 160 + 32];
	int err;

	if (o->target_argv)
		fprintf(stderr, "wakeprobe: tracing %s and what it starts, until it ends ...\n",
			parse__shown(o->target_argv[0]));
	else if (o->all || o->cgroups)
		fprintf(stderr, "wakeprobe: tracing %s%s%s, until %s ...\n",
			o->all ? "every task of the machine" : "the tasks of cgroup ", o->all ? "" : o->cgroups,
			o->listen ? ", serving /metrics" : "", o->duration_s ? "--duration runs out" :
			o->listen ? "SIGTERM" : "Ctrl-C");
	else
		fprintf(stderr, "wakeprobe: tracing %" PRIu32 " process%s, until %s ...\n", o->nr_pids,
			o->nr_pids > 1 ? "es" : "", o->duration_s ? "--duration runs out" : "Ctrl-C or their exit");
	err = attach_session__run(&s->so, &s->res, msg, sizeof(msg));
	if (err == -EINTR) {
		snprintf(line, sizeof(line), "%s: nothing traced, nothing written", msg);
		return mode__fail(m, 128 + launch_stop_requested, line);
	}
	if (err)
		return mode__fail(m, 1, msg);
	attach_analysis__end(s->analysis, &s->res);
	/* the report's tables: ranked as the run ended */
	if (s->analysis->cgroups)
		cgroup_stats__settle(s->analysis->cgroups, s->res.trace_end_ns);
	m->status = exit_status(&s->res);
	return 0;
}

static int attach_report(struct mode_run *m)
{
	struct attach_state *s = m->state;
	struct attach_report report;
	struct results r = { .kind = RUN_ATTACH, .attach.report = &report };

	mode__attach_report(m->o, &s->so, &s->res, s->analysis, &report);
	return mode__report(m, &r) ? 1 : m->status;
}

static void attach_close(struct mode_run *m)
{
	struct attach_state *s = m->state;

	attach_analysis__free(s->analysis);
	s->analysis = NULL;
	attach_session__release(&s->res);
	http_server__close(s->server);
	s->server = NULL;
	cgroup_names__free(s->cgroup_names);
	s->cgroup_names = NULL;
}

const struct mode attach_mode = {
	.name = "attach",
	.state_size = sizeof(struct attach_state),
	.wants = attach_wants,
	.check = attach_check,
	.open = attach_open,
	.measure = attach_measure,
	.report = attach_report,
	.close = attach_close,
};
