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
#include "attach_run.h"
#include "capability.h"
#include "cgroups.h"
#include "collector.h"
#include "launch.h"
#include "mode.h"
#include "parse.h"
#include "service.h"
#include "tls_server.h"
#include "web_config.h"

struct attach_state {
	struct attach_session_opts so;
	struct attach_analysis_opts ao;
	char path[PATH_MAX];		/* the command's executable, as the check found it */
	struct attach_run run;
	/* --all, --cgroup, --listen, --prometheus-every: what the run does between two takes of the ring */
	struct service *service;
	/* --all, --cgroup, --listen: the cgroup2 hierarchy, the cgroups to trace, and their names */
	char cgroup_mount[PATH_MAX];
	uint64_t cgroup_ids[OPT_MAX_CGROUPS];
	struct cgroup_names *cgroup_names;
	struct web_config web;		/* --web-config, read and checked */
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
	/*
	 * open_by_handle_at(2) takes CAP_DAC_READ_SEARCH: without it a cgroup is
	 * named by a walk of the hierarchy instead (cgroups.h), and one made
	 * since the last walk is unknown until the next. Said once, at the start,
	 * since a fleet's short-lived containers may lose most of their names.
	 */
	if (s->cgroup_mount[0] && !capability__has(CAPABILITY_DAC_READ_SEARCH))
		fprintf(stderr, "wakeprobe: this process lacks CAP_DAC_READ_SEARCH, so cgroups are named by walking %s "
			"every %llu s: wakeups of a cgroup made since the last walk are labelled unknown; give it "
			"CAP_DAC_READ_SEARCH to name each at once\n", s->cgroup_mount,
			CGROUPS_WALK_EVERY_NS / 1000000000ull);
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
	/* a service sums in the kernel what it does not explain: a record a wakeup is what a machine cannot pay */
	s->so.sums = o->listen != NULL;
	s->so.drain_every_ms = COLLECTOR_DRAIN_MACHINE_MS;
	return 0;
}

/*
 * check_web_config - --web-config read and checked whole, its certificate
 * and key loaded as the server will: a bad file is usage, said before
 * anything loads, and not a service that starts and refuses every scrape
 */
static int check_web_config(const char *path, struct web_config *web)
{
	char msg[PATH_MAX * 2 + 256];
	struct tls_server *tls = NULL;

	if (web_config__load(path, web, msg, sizeof(msg)) ||
	    (web->tls && tls_server__new(web, path, &tls, msg, sizeof(msg)))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	tls_server__free(tls);
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
		.lean_softirqs = o->softirqs,
		.stacks = o->stacks,
		.unwind = o->stacks && !o->unwind_off,
		.unwind_per_s = o->unwind_per_s,
		.debuginfod = o->debuginfod,
		.chains = o->chains,
		.pids = o->pids,
		.nr_pids = o->nr_pids,
		.argv = o->target_argv,
		.duration_ms = o->duration_s * 1000,
		.timeout_ms = o->timeout_s * 1000,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.verbose = o->verbose,
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
	if (o->web_config && (err = check_web_config(o->web_config, &s->web)))
		return err;
	if (collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return options__by_cgroup(o) ? check_cgroups(o, s) : 0;
}

void mode_attach__label(const struct attach_session_opts *t, const char *given, char *buf, size_t len)
{
	/* a command's arguments may hold what is not to be published (a password, a path): its name alone */
	if (given)
		snprintf(buf, len, "%s", given);
	else if (t->argv && t->argv[0])
		snprintf(buf, len, "%s", t->argv[0]);
	else
		mode_attach__target(t, buf, len);
}

/* open_service - what a long run does between two takes of the ring, when the options ask for any of it */
static int open_service(struct mode_run *m, struct attach_run_hooks *hooks, char *msg, size_t len)
{
	const struct wp_options *o = m->o;
	struct attach_state *s = m->state;
	const struct service_opts so = {
		.listen = o->listen,
		.allow_hosts = o->allow_hosts,
		.web_config_path = o->web_config,
		.web_config = o->web_config ? &s->web : NULL,
		.prometheus_every_ns = o->prometheus_every_s * 1000000000ull,
		.between_takes = options__by_cgroup(o),
		.view = mode__attach_view(o),
	};
	int err;

	if (!so.listen && !so.prometheus_every_ns && !so.between_takes)
		return 0;
	err = service__open(&s->service, &so, m->out, msg, len);
	if (!err)
		service__hooks(s->service, hooks);
	return err;
}

static int attach_open(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct attach_state *s = m->state;
	struct attach_run_hooks hooks = { 0 };
	char msg[PATH_MAX + 128], target[256];

	s->ao = (struct attach_analysis_opts){
		.outliers = o->outliers,
		.outlier_threshold_ns = o->threshold_us * 1000,
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.lean = o->lean,
		.chains = o->chains,
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
	if (open_service(m, &hooks, msg, sizeof(msg)))
		return mode__fail(m, 1, msg);
	if (outputs__open(m->out, &m->paths, RUN_ATTACH, msg, sizeof(msg)) ||
	    outputs__begin_attach(m->out, target, &s->ao, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	mode_attach__label(&s->so, o->target_label, target, sizeof(target));
	outputs__label_target(m->out, target);
	if (attach_run__init(&s->run, &s->so, &s->ao, &hooks))
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
	err = attach_run__trace(&s->run, msg, sizeof(msg));
	if (err == -EINTR) {
		snprintf(line, sizeof(line), "%s: nothing traced, nothing written", msg);
		return mode__fail(m, 128 + launch_stop_requested, line);
	}
	if (err)
		return mode__fail(m, 1, msg);
	/* the report's tables: ranked as the run ended */
	if (s->run.analysis->cgroups)
		cgroup_stats__settle(s->run.analysis->cgroups, s->run.res.trace_end_ns);
	m->status = exit_status(&s->run.res);
	return 0;
}

static int attach_report(struct mode_run *m)
{
	struct attach_state *s = m->state;
	const struct attach_view view = mode__attach_view(m->o);
	struct attach_report report;
	struct results r = { .kind = RUN_ATTACH, .attach.report = &report };

	attach_run__report(&s->run, &view, &report);
	return mode__report(m, &r) ? 1 : m->status;
}

static void attach_close(struct mode_run *m)
{
	struct attach_state *s = m->state;

	attach_run__free(&s->run);
	service__close(s->service);
	s->service = NULL;
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
