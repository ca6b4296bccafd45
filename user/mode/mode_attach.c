// SPDX-License-Identifier: GPL-2.0
/*
 * mode_attach.c - a program of the user's (--pid, -- COMMAND): every
 * wakeup its threads take, traced until it ends, --duration runs out or a
 * signal comes, and explained (docs/attach.md)
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "attach_analysis.h"
#include "attach_session.h"
#include "collector.h"
#include "launch.h"
#include "mode.h"
#include "parse.h"
#include "prom_live.h"

struct attach_state {
	struct attach_session_opts so;
	struct attach_analysis_opts ao;
	char path[PATH_MAX];		/* the command's executable, as the check found it */
	struct attach_analysis *analysis;
	struct prom_live prom;		/* --prometheus-every */
	struct attach_session_result res;
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
	for (i = 0; t->argv && t->argv[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", t->argv[i]);
	for (i = 0; !t->argv && i < t->nr_pids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? "," : "pid ", t->pids[i]);
}

static void on_begin(const struct attach_session_result *res, void *ctx)
{
	struct attach_state *s = ctx;

	attach_analysis__begin(s->analysis, &s->so, res);
	prom_live__begin(&s->prom, res);
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
	prom_live__advance(&s->prom, s->analysis, complete_ns, drops);
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
	return 0;
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
	if (outputs__open(m->out, &m->paths, RUN_ATTACH, msg, sizeof(msg)) ||
	    outputs__begin_attach(m->out, target, &s->ao, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	prom_live__init(&s->prom, o->prometheus_path, o->prometheus_every_s, m->out->target);
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
