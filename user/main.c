// SPDX-License-Identifier: GPL-2.0
/*
 * wakeprobe - where does the time of a wakeup go?
 *
 * Runs a workload that hands wakeups from one thread to another, traces the
 * scheduler and syscalls with BPF while it runs, and reports each phase of
 * the wakeup as a latency distribution.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "attach_analysis.h"
#include "attach_recorder.h"
#include "attach_replay.h"
#include "attach_session.h"
#include "catalog.h"
#include "collector.h"
#include "cpus.h"
#include "design_run.h"
#include "designs.h"
#include "launch.h"
#include "options.h"
#include "outputs.h"
#include "parse.h"
#include "prom_live.h"
#include "replay.h"
#include "runner.h"
#include "session.h"
#include "text_attach.h"
#include "text_design.h"
#include "text_workload.h"

/* a record file holds at most this many runs; --workload all makes CATALOG_MAX_WORKLOADS */
#define MAX_RUNS 64

static void on_signal(int sig)
{
	/*
	 * The first signal ends the run, which still reports and writes its
	 * files whole; a second one ends wakeprobe at once, its files unmade.
	 */
	if (launch_stop_requested) {
		outfile__abandon_all_now();
		runner__kill_all_now();
		_exit(128 + sig);
	}
	launch_stop_requested = sig;
}

/*
 * on_sigpipe - a reader of standard output that went away (| head, | true)
 * must not cost the files: writes to it fail with EPIPE instead, and
 * close_stdout() says so. A handler, not SIG_IGN, which the workload and
 * the traced command would inherit through exec.
 */
static void on_sigpipe(int sig)
{
	(void)sig;
}

static void install_signal_handlers(void)
{
	struct sigaction pipe_sa = { .sa_handler = on_sigpipe, .sa_flags = SA_RESTART };

	/*
	 * SA_RESTART: a first signal while the report is written must not cut
	 * it short (the run is over, there is nothing left to stop); the
	 * session's waits time out every few ms and see the flag anyway.
	 */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&pipe_sa.sa_mask);
	sigaction(SIGPIPE, &pipe_sa, NULL);
}

/*
 * close_stdout - what went to standard output (the text report, an output
 * given as -) must have reached it: a full disk or a reader gone away is
 * one line and exit 1, whatever the run's status was. The files are in
 * place by then.
 */
static int close_stdout(int status)
{
	int err = fflush(stdout) ? -errno : ferror(stdout) ? -EIO : 0;

	/* the first write that failed says why, when the stream kept it */
	if (err && outfile__stdout_error())
		err = outfile__stdout_error();
	if (fclose(stdout) && !err)
		err = -errno;
	if (!err)
		return status;
	fprintf(stderr, "wakeprobe: writing to standard output failed: %s\n", strerror(-err));
	return 1;
}

static void list_workloads(void)
{
	size_t i;

	for (i = 0; i < catalog__count(); i++)
		printf("%-16s %s\n", catalog__at(i)->name, catalog__at(i)->summary);
	printf("\nThroughput workloads (whole designs; --mode M, their own options after --):\n");
	for (i = 0; i < designs__count(); i++) {
		const struct design_desc *d = designs__at(i);

		printf("%-16s %s\n%-16s modes:", d->name, d->summary, "");
		for (size_t m = 0; m < DESIGN_MAX_MODES && d->modes[m]; m++)
			printf(" %s", d->modes[m]);
		printf("\n");
	}
}

/* pick_cpus - check the CPUs asked for, or choose the first two allowed */
static int pick_cpus(struct wp_options *o, char *err, size_t len)
{
	cpu_set_t allowed;
	int i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, len, "cannot read this process's CPU affinity: %s", strerror(errno));
		return -errno;
	}
	if (o->waker_cpu >= 0) {
		for (i = 0; i < 2; i++) {
			int c = i ? o->wakee_cpu : o->waker_cpu;

			if (c >= CPU_SETSIZE || !CPU_ISSET(c, &allowed)) {
				snprintf(err, len, "CPU %d is offline or not allowed for this process: "
					 "pick two CPUs this process may run on", c);
				return -EINVAL;
			}
		}
		return 0;
	}
	if (cpus__first_two(&allowed, &o->waker_cpu, &o->wakee_cpu)) {
		snprintf(err, len, "the waker and the wakee need two CPUs, and this process may use only one");
		return -EINVAL;
	}
	return 0;
}

/* resolve_user - --user NAME (or a number) into the ids the workload or command will run with */
static int resolve_user(const char *name, uid_t *uid, gid_t *gid, char *err, size_t len)
{
	struct passwd *pw = getpwnam(name);
	char *end;

	if (!pw) {
		unsigned long uid = strtoul(name, &end, 10);

		if (*name && !*end)
			pw = getpwuid((uid_t)uid);
	}
	if (!pw) {
		snprintf(err, len, "--user: no user '%s' on this machine (see getent passwd)", parse__shown(name));
		return -ENOENT;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

static void announce(const struct run_config *cfg)
{
	fprintf(stderr, "wakeprobe: %s%s: %llu wakeups, waker on CPU %d, wakee on CPU %d ...\n",
		cfg->traced ? "tracing " : "timing ", cfg->workload->name, (unsigned long long)cfg->samples,
		cfg->waker_cpu, cfg->wakee_cpu);
}

/* finish - print the text report unless an output took stdout, then put the files in place */
static int finish(struct outputs *out, const struct run_config *cfg, const struct workload_desc *const *wl,
		  const struct run_result *const *res, size_t n, bool compare)
{
	char msg[PATH_MAX + 128];

	if (out->text && compare) {
		fprintf(stdout, "\n");
		text_workload__print_comparison(stdout, cfg, wl, res, n);
	} else if (out->text && n) {
		text_workload__print_text(stdout, cfg, res[0]);
	}
	if (outputs__finish(out, cfg, wl, res, n, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

/*
 * run_workloads - @cfg's workload, or with @all every path in turn with the
 * same settings, then one table. A path that cannot run at all stops the
 * whole run (the same cause would stop the others) and leaves no output;
 * one whose workload fails keeps its row, marked FAILED.
 */
static int run_workloads(struct run_config *cfg, struct session_opts *so, bool all, struct outputs *out)
{
	const struct workload_desc *wl[CATALOG_MAX_WORKLOADS];
	struct run_result *res[CATALOG_MAX_WORKLOADS];
	size_t done = 0, n = all ? catalog__count() : 1, i;
	bool could_not_run = false;
	char msg[256];
	int err = 0, run_err;

	while (done < n && !launch_stop_requested) {
		wl[done] = all ? catalog__at(done) : cfg->workload;
		res[done] = malloc(sizeof(*res[done]));
		if (!res[done]) {
			fprintf(stderr, "wakeprobe: out of memory\n");
			could_not_run = true;
			break;
		}
		cfg->workload = wl[done];
		announce(cfg);
		outputs__begin_run(out, cfg, &so->analysis);
		run_err = session__run(cfg, so, res[done], msg, sizeof(msg));
		/* a signal before this path began: the ones before it are the run, reported as it ended */
		if (run_err == -EINTR) {
			free(res[done]);
			break;
		}
		if (run_err) {
			fprintf(stderr, "wakeprobe: %s%s%s\n", all ? wl[done]->name : "", all ? ": " : "", msg);
			free(res[done]);
			could_not_run = true;
			break;
		}
		outputs__end_run(out);
		if (res[done]->workload_failed)
			err = 1;
		done++;
	}
	if (!done && !could_not_run && launch_stop_requested) {
		fprintf(stderr, "wakeprobe: interrupted before the run began: nothing measured, nothing written\n");
		outputs__abandon(out);
		return 128 + launch_stop_requested;
	}
	if (could_not_run) {
		/* the files would miss a run: none is made, and the table shows what ran */
		outputs__abandon(out);
		if (all && done && out->text) {
			fprintf(stdout, "\n");
			text_workload__print_comparison(stdout, cfg, wl, (const struct run_result *const *)res, done);
		}
		err = 1;
	} else if (finish(out, cfg, wl, (const struct run_result *const *)res, done, all)) {
		err = 1;
	}
	for (i = 0; i < done; i++)
		free(res[i]);
	return err;
}

/* attach_target - what an attach run traces, as its outputs name it: "pid 1234,1250", "./server --port 80" */
static void attach_target(const struct attach_session_opts *t, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; t->argv && t->argv[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", t->argv[i]);
	for (i = 0; !t->argv && i < t->nr_pids && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? "," : "pid ", t->pids[i]);
}

/*
 * open_attach_outputs - the files an attach run of @t writes, @out routed
 * through @ao; false with one line in @msg if not (none is left then)
 */
static bool open_attach_outputs(const struct wp_options *o, const struct attach_session_opts *t, struct outputs *out,
				struct attach_analysis_opts *ao, char *msg, size_t len)
{
	char target[256];
	struct output_paths paths = options__outputs(o);

	attach_target(t, target, sizeof(target));
	return !outputs__open_attach(out, &paths, msg, len) && !outputs__begin_attach(out, target, ao, msg, len);
}

struct report_ctx {
	const struct wp_options *o;
	struct outputs *out;
	char outputs_failed[PATH_MAX + 128];	/* why an attach run's outputs could not be made */
	struct replay_run *runs[MAX_RUNS];
	size_t n;
	struct attach_replay_run *attach_run;	/* an attach recording's one run */
};

static void replay_run_begin(const struct replay_run *run, struct analysis_opts *ao, void *ctx)
{
	struct report_ctx *rc = ctx;

	outputs__begin_run(rc->out, &run->cfg, ao);
}

static int replay_run_done(struct replay_run *run, void *ctx)
{
	struct report_ctx *rc = ctx;

	outputs__end_run(rc->out);
	if (rc->n == MAX_RUNS) {
		free(run);
		return -E2BIG;
	}
	rc->runs[rc->n++] = run;
	return 0;
}

/*
 * replay_attach_begin - an attach recording's run begins: the files the
 * options ask for are made by attach mode's writers, not the workload's
 * that main() opened before the recording said what it holds
 */
static void replay_attach_begin(const struct attach_replay_run *run, struct attach_analysis_opts *ao, void *ctx)
{
	struct report_ctx *rc = ctx;

	outputs__abandon(rc->out);
	if (!open_attach_outputs(rc->o, &run->targets.opts, rc->out, ao, rc->outputs_failed,
				 sizeof(rc->outputs_failed)) && !rc->outputs_failed[0])
		snprintf(rc->outputs_failed, sizeof(rc->outputs_failed), "the outputs could not be made");
}

static int replay_attach_done(struct attach_replay_run *run, void *ctx)
{
	struct report_ctx *rc = ctx;

	/* the reader lets an attach recording hold one run and nothing else */
	attach_replay_run__free(rc->attach_run);
	rc->attach_run = run;
	return 0;
}

/* report_attach_run - the reports of an attach recording's run, as the live run made them */
static int report_attach_run(const struct wp_options *o, struct outputs *out, const struct attach_replay_run *run)
{
	char msg[PATH_MAX + 128];
	struct attach_report report = {
		.targets = &run->targets.opts,
		.run = &run->res,
		.counters = attach_analysis__counters(run->analysis),
		.agg = run->analysis->agg,
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.tids_left_out = run->analysis->tids_left_out,
		.pairs = o->pairs,
		.order = o->order_by_cost ? ATTACH_ORDER_COST : ATTACH_ORDER_COUNT,
	};

	if (out->text)
		text_attach__print_text(stdout, &report);
	if (outputs__finish_attach(out, &report, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

/* open_recording - the recording at @path to read, or NULL with one line on stderr saying why not */
static FILE *open_recording(const char *path)
{
	FILE *in = fopen(path, "rb");
	struct stat st;

	if (!in) {
		fprintf(stderr, "wakeprobe: cannot open %s: %s\n", parse__shown(path), strerror(errno));
		return NULL;
	}
	/* a directory opens, then reads as nothing: it would pass for an empty recording */
	if (!fstat(fileno(in), &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "wakeprobe: report %s: a directory, not a recording: name a recording file "
			"(wakeprobe record -o FILE makes one)\n", parse__shown(path));
		fclose(in);
		return NULL;
	}
	return in;
}

/* report_recording - analyse a record file again and report it as the run did */
static int report_recording(const struct wp_options *o, struct outputs *out)
{
	const struct workload_desc *wl[MAX_RUNS];
	const struct run_result *res[MAX_RUNS];
	struct report_ctx rc = { .o = o, .out = out };
	struct attach_replay_opts aro = {
		.analysis = {
			.outliers = o->outliers,
			.outlier_threshold_ns = o->threshold_us * 1000,
			.tids = o->tids,
			.nr_tids = o->nr_tids,
		},
		.run_begin = replay_attach_begin,
		.run_done = replay_attach_done,
		.ctx = &rc,
	};
	struct replay_opts ro = {
		.analysis = {
			.outliers = o->outliers,
			.outlier_threshold_ns = o->threshold_us * 1000,
		},
		.run_begin = replay_run_begin,
		.run_done = replay_run_done,
		.ctx = &rc,
		.attach = &aro,
	};
	bool from_stdin = !strcmp(o->report_path, "-");
	char msg[PATH_MAX + 256];
	FILE *in;
	size_t i;
	int err;

	in = from_stdin ? stdin : open_recording(o->report_path);
	if (!in) {
		outputs__abandon(out);
		return 1;
	}
	err = replay__file(in, o->report_path, &ro, msg, sizeof(msg));
	if (!from_stdin)
		fclose(in);
	if (err == -E2BIG)
		snprintf(msg, sizeof(msg), "%s: more than %d runs in one recording", parse__shown(o->report_path),
			 MAX_RUNS);
	if (err) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		outputs__abandon(out);
	} else if (rc.outputs_failed[0]) {
		fprintf(stderr, "wakeprobe: %s\n", rc.outputs_failed);
		outputs__abandon(out);
		err = 1;
	} else if (rc.attach_run) {
		err = report_attach_run(o, out, rc.attach_run);
		attach_replay_run__free(rc.attach_run);
		return err;
	} else if (o->attach_option) {
		fprintf(stderr, "wakeprobe: --%s is for an attach recording; %s holds wakeprobe's own workload\n",
			o->attach_option, parse__shown(o->report_path));
		outputs__abandon(out);
		err = 2;
	} else {
		for (i = 0; i < rc.n; i++) {
			wl[i] = rc.runs[i]->cfg.workload;
			res[i] = &rc.runs[i]->res;
		}
		err = finish(out, &rc.runs[0]->cfg, wl, res, rc.n, rc.n > 1);
	}
	for (i = 0; i < rc.n; i++)
		free(rc.runs[i]);
	attach_replay_run__free(rc.attach_run);
	return err == 2 ? 2 : err ? 1 : 0;
}

/* what a live attach run feeds: the analysis (and the recording), the metrics --prometheus-every rewrites */
struct attach_live {
	struct attach_recorder w;
	struct prom_live prom;
};

static void attach_begin(const struct attach_session_result *res, void *ctx)
{
	struct attach_live *live = ctx;

	attach_recorder__begin(&live->w, res);
	prom_live__begin(&live->prom, res);
}

static void attach_event(const struct wp_event *e, void *ctx)
{
	struct attach_live *live = ctx;

	attach_recorder__event(&live->w, e);
}

static void attach_advance(uint64_t complete_ns, uint64_t drops, void *ctx)
{
	struct attach_live *live = ctx;

	attach_recorder__advance(&live->w, complete_ns, drops);
	prom_live__advance(&live->prom, live->w.analysis, complete_ns, drops);
}

/*
 * attach_exit_status - wakeprobe's own: the command's when it ended by
 * itself; 1 when --timeout had to end it, as for a workload; 0 when the
 * run ended as asked (--duration, a first signal) or had no command
 */
static int attach_exit_status(const struct attach_session_result *res)
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

/*
 * run_attach - trace the --pid processes or the command, and report every
 * wakeup their threads took; for record, write every input of the analysis
 * to @out's recording as well. What is wrong with the targets is found
 * before anything is loaded: one line, exit 2.
 */
static int run_attach(const struct wp_options *o, struct outputs *out)
{
	struct attach_analysis_opts ao = {
		.outliers = o->outliers,
		.outlier_threshold_ns = o->threshold_us * 1000,
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.lean = o->lean,
	};
	struct attach_session_opts so = {
		.lean = o->lean,
		/* the outliers a lean run explains: as in workload mode (analysis__lean_flight_ns()) */
		.lean_flight_ns = o->lean ? o->threshold_us * 1000 : 0,
		.pids = o->pids,
		.nr_pids = o->nr_pids,
		.argv = o->target_argv,
		.duration_ms = o->duration_s * 1000,
		.timeout_ms = o->timeout_s * 1000,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.verbose = o->verbose,
		.on_begin = attach_begin,
		.on_event = attach_event,
		.on_advance = attach_advance,
	};
	static struct attach_live live;	/* the recorder's fd cache is large for a stack */
	struct attach_recorder *w = &live.w;
	struct attach_session_result res;
	struct attach_report report;
	char msg[PATH_MAX + 128], path[PATH_MAX];
	int err;

	if (o->user && !o->target_argv) {
		fprintf(stderr, "wakeprobe: --user is for the command wakeprobe starts; --pid starts nothing\n");
		return 2;
	}
	/* the command inherits wakeprobe's stdout: its output would go into the recording */
	if (o->command == CMD_RECORD && o->target_argv && !strcmp(o->record_path, "-")) {
		fprintf(stderr, "wakeprobe: record -o - shares standard output with the command: give -o a file\n");
		return 2;
	}
	err = attach_session__check(&so, path, sizeof(path), msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		/* another user's process wants privileges, as every privilege error does; the rest is usage */
		return err == -EPERM ? 1 : 2;
	}
	so.command_path = path;
	if (o->user && resolve_user(o->user, &so.uid, &so.gid, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	so.drop_privileges = o->user != NULL;
	if (collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	if (!open_attach_outputs(o, &so, out, &ao, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	attach_recorder__init(w, out->recorder, &so, &ao);
	prom_live__init(&live.prom, o->prometheus_path, o->prometheus_every_s, out->target);
	w->analysis = attach_analysis__new(&ao);
	if (!w->analysis) {
		fprintf(stderr, "wakeprobe: out of memory\n");
		outputs__abandon(out);
		return 1;
	}
	so.ctx = &live;
	if (o->target_argv)
		fprintf(stderr, "wakeprobe: tracing %s and what it starts, until it ends ...\n",
			parse__shown(o->target_argv[0]));
	else
		fprintf(stderr, "wakeprobe: tracing %" PRIu32 " process%s, until %s ...\n", o->nr_pids,
			o->nr_pids > 1 ? "es" : "", o->duration_s ? "--duration runs out" : "Ctrl-C or their exit");
	err = attach_session__run(&so, &res, msg, sizeof(msg));
	if (err == -EINTR) {
		fprintf(stderr, "wakeprobe: %s: nothing traced, nothing written\n", msg);
		outputs__abandon(out);
		err = 128 + launch_stop_requested;
		goto out;
	}
	if (err) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		outputs__abandon(out);
		err = 1;
		goto out;
	}
	attach_recorder__end(w, &res);
	report = (struct attach_report){
		.targets = &so,
		.run = &res,
		.counters = attach_analysis__counters(w->analysis),
		.agg = w->analysis->agg,
		.tids = o->tids,
		.nr_tids = o->nr_tids,
		.tids_left_out = w->analysis->tids_left_out,
		.pairs = o->pairs,
		.order = o->order_by_cost ? ATTACH_ORDER_COST : ATTACH_ORDER_COUNT,
	};
	err = attach_exit_status(&res);
	if (out->text)
		text_attach__print_text(stdout, &report);
	if (outputs__finish_attach(out, &report, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		err = 1;
	}
out:
	attach_analysis__free(w->analysis);
	w->analysis = NULL;
	return err;
}

/* design_opts - how a throughput workload runs, as the options ask */
static void design_opts(const struct wp_options *o, const struct session_opts *so, const struct design_desc *d,
			struct design_run_opts *ro)
{
	*ro = (struct design_run_opts){
		.design = d,
		.user_args = o->workload_args,
		.cpus = { o->waker_cpu, o->wakee_cpu },
		.traced = !o->no_trace,
		.lean = o->lean,
		.timeout_ms = o->timeout_s * 1000,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.verbose = o->verbose,
		.drop_privileges = so->drop_privileges,
		.uid = so->uid,
		.gid = so->gid,
	};
}

/* free_design_runs - the @n runs kept for the document */
static void free_design_runs(struct design_run **runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (runs[i])
			design_run__free(runs[i]);
		free(runs[i]);
		runs[i] = NULL;
	}
}

/*
 * run_design - a throughput workload: each mode asked for, untraced then
 * traced, and its report. A mode that fails ends the run with its reason:
 * the next would most likely fail the same way. The runs are kept for
 * --json, whose document is written once every mode has run, or not at
 * all: a mode missing would leave it short, as for the paced paths.
 */
static int run_design(const struct wp_options *o, const struct session_opts *so, struct outputs *out)
{
	const struct design_desc *d = designs__find(o->workload);
	struct design_run *runs[DESIGN_MAX_MODES] = { NULL };
	struct design_run_opts ro;
	char msg[PATH_MAX + 256];
	size_t kept = 0, shown = 0;
	int err = 0;

	struct output_paths paths = options__outputs(o);

	if (outputs__open(out, &paths, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	design_opts(o, so, d, &ro);
	for (size_t m = 0; m < DESIGN_MAX_MODES && d->modes[m] && !err; m++) {
		struct design_run *r;

		if (!designs__mode_listed(o->modes, d->modes[m]))
			continue;
		r = runs[kept] = calloc(1, sizeof(*r));
		if (!r) {
			fprintf(stderr, "wakeprobe: out of memory\n");
			err = 1;
			break;
		}
		ro.mode = d->modes[m];
		fprintf(stderr, "wakeprobe: %s, mode %s: %s ...\n", d->name, ro.mode,
			ro.traced ? "untraced, then traced" : "untraced");
		if (design_run__run(&ro, r, msg, sizeof(msg))) {
			fprintf(stderr, "wakeprobe: %s\n", msg);
			err = r->interrupted ? 128 + launch_stop_requested : 1;
			free_design_runs(&runs[kept], 1);
			break;
		}
		if (out->text) {
			if (shown++)
				fprintf(stdout, "\n");
			text_design__print_text(stdout, r);
			fflush(stdout);
		}
		/* without a document to write, a mode's run is done with once it is shown */
		if (out->json.f)
			kept++;
		else
			free_design_runs(&runs[kept], 1);
	}
	if (err) {
		outputs__abandon(out);
	} else if (outputs__finish_design(out, d->name, (const struct design_run *const *)runs, kept, msg,
					  sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		err = 1;
	}
	free_design_runs(runs, kept);
	return err;
}

/* run_design_lines - --workload all: one mode of each throughput workload, one line each */
static int run_design_lines(const struct wp_options *o, const struct session_opts *so)
{
	struct design_run *runs[DESIGN_MAX_MODES] = { NULL };
	char why[DESIGN_MAX_MODES][PATH_MAX + 256];
	const char *whys[DESIGN_MAX_MODES];
	size_t n = designs__count() < DESIGN_MAX_MODES ? designs__count() : DESIGN_MAX_MODES;
	struct design_run_opts ro;
	int err = 0;

	for (size_t i = 0; i < n && !launch_stop_requested; i++) {
		const struct design_desc *d = designs__at(i);
		char msg[PATH_MAX + 128];

		design_opts(o, so, d, &ro);
		ro.user_args = NULL;
		ro.all = true;
		ro.mode = d->all_mode;
		whys[i] = why[i];
		runs[i] = calloc(1, sizeof(*runs[i]));
		fprintf(stderr, "wakeprobe: %s, mode %s ...\n", d->name, ro.mode);
		if (!runs[i]) {
			snprintf(why[i], sizeof(why[i]), "%-12s out of memory", d->name);
			err = 1;
		} else if (design_run__run(&ro, runs[i], msg, sizeof(msg))) {
			snprintf(why[i], sizeof(why[i]), "%-12s %-17s FAILED: %s", d->name, ro.mode, msg);
			design_run__free(runs[i]);
			free(runs[i]);
			runs[i] = NULL;
			err = 1;
		}
	}
	if (!launch_stop_requested) {
		text_design__print_lines(stdout, (const struct design_run *const *)runs, whys, n);
	}
	for (size_t i = 0; i < n; i++) {
		if (runs[i])
			design_run__free(runs[i]);
		free(runs[i]);
	}
	return launch_stop_requested ? 128 + launch_stop_requested : err;
}

static int run(int argc, char **argv)
{
	static struct outputs outputs;	/* the signal handler may reach its files */
	struct run_config cfg = {};
	struct session_opts so = {};
	struct wp_options o;
	struct output_paths paths;
	char msg[PATH_MAX + 128];
	bool all, cpus_given;
	int err, nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	/* first of all: from here on a Ctrl-C is wakeprobe's to handle, and it cleans up */
	install_signal_handlers();
	switch (options__parse(&o, argc, argv, nr_cpus, stdout, msg, sizeof(msg))) {
	case OPTIONS_DONE:
		return 0;
	case OPTIONS_BAD:
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	case OPTIONS_RUN:
		break;
	}
	paths = options__outputs(&o);
	if (outputs__check_files(&paths, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (o.list_workloads) {
		list_workloads();
		return 0;
	}
	if (o.command == CMD_REPORT) {
		if (outputs__open(&outputs, &paths, msg, sizeof(msg))) {
			fprintf(stderr, "wakeprobe: %s\n", msg);
			return 1;
		}
		return report_recording(&o, &outputs);
	}
	if (options__attach(&o))
		return run_attach(&o, &outputs);
	cpus_given = o.waker_cpu >= 0;
	if (pick_cpus(&o, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	/* the workload's pids must be in wakeprobe's pid namespace, as the BPF side gives them */
	if (!o.no_trace && collector__check_pid_namespace(true, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (!o.no_trace && collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}

	if (o.user && resolve_user(o.user, &so.uid, &so.gid, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	so.drop_privileges = o.user != NULL;
	if (o.user && geteuid()) {
		fprintf(stderr, "wakeprobe: --user needs root to switch users: run wakeprobe with sudo\n");
		return 1;
	}
	if (o.design) {
		/* a workload of several threads picks its own CPUs unless told */
		if (!cpus_given)
			o.waker_cpu = o.wakee_cpu = -1;
		return run_design(&o, &so, &outputs);
	}
	all = !strcmp(o.workload, "all");
	cfg.workload = all ? NULL : catalog__find(o.workload);
	cfg.samples = o.samples;
	cfg.interval_us = o.interval_us;
	cfg.waker_cpu = o.waker_cpu;
	cfg.wakee_cpu = o.wakee_cpu;
	cfg.traced = !o.no_trace;
	cfg.lean = o.lean;
	cfg.ringbuf_bytes = o.ringbuf_kb * 1024;
	cfg.ringbuf_fixed = o.ringbuf_given;
	so.timeout_ms = o.timeout_s * 1000;
	so.verbose = o.verbose;
	so.analysis.outliers = o.outliers;
	so.analysis.outlier_threshold_ns = o.threshold_us * 1000;

	if (outputs__open(&outputs, &paths, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	err = run_workloads(&cfg, &so, all, &outputs);
	/* the throughput workloads' lines go with the text table, not into the files */
	if (all && outputs.text && !launch_stop_requested) {
		int design_err = run_design_lines(&o, &so);

		err = err ? err : design_err;
	}
	return err;
}

int main(int argc, char **argv)
{
	/* a stdout that keeps why a write failed: glibc forgets once a later flush has nothing to write */
	outfile__wrap_stdout();
	return close_stdout(run(argc, argv));
}
