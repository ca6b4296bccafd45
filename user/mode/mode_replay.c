// SPDX-License-Identifier: GPL-2.0
/*
 * mode_replay.c - wakeprobe report FILE: a recording analysed again, each
 * run through the analysis the live run used, and reported as it was
 * (docs/recording.md). The recording says which kind of run it holds.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "attach_replay.h"
#include "mode.h"
#include "parse.h"
#include "replay.h"

/* a record file holds at most this many runs; --workload all makes CATALOG_MAX_WORKLOADS */
#define MAX_RUNS 64

struct replay_state {
	struct mode_run *m;
	char outputs_failed[PATH_MAX + 128];	/* why an attach run's outputs could not be made */
	struct replay_run *runs[MAX_RUNS];
	size_t n;
	struct attach_replay_run *attach_run;	/* an attach recording's one run */
};

static bool replay_wants(const struct wp_options *o)
{
	return o->command == CMD_REPORT;
}

/* replay_open - the outputs, as a workload's: an attach recording makes them again as its own */
static int replay_open(struct mode_run *m)
{
	struct replay_state *s = m->state;
	char msg[PATH_MAX + 128];

	s->m = m;
	if (outputs__open(m->out, &m->paths, RUN_WORKLOAD, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

static void run_begin(const struct replay_run *run, struct analysis_opts *ao, void *ctx)
{
	struct replay_state *s = ctx;

	outputs__begin_run(s->m->out, &run->cfg, ao, s->outputs_failed, sizeof(s->outputs_failed));
}

static int run_done(struct replay_run *run, void *ctx)
{
	struct replay_state *s = ctx;

	outputs__end_run(s->m->out);
	if (s->n == MAX_RUNS) {
		free(run);
		return -E2BIG;
	}
	s->runs[s->n++] = run;
	return 0;
}

/*
 * attach_begin - an attach recording's run begins: the files the options
 * ask for are made by attach mode's writers, not the workload's that
 * replay_open() made before the recording said what it holds
 */
static void attach_begin(const struct attach_replay_run *run, struct attach_analysis_opts *ao, void *ctx)
{
	struct replay_state *s = ctx;
	struct outputs *out = s->m->out;
	char target[256];

	outputs__abandon(out);
	mode_attach__target(&run->targets.opts, target, sizeof(target));
	if ((outputs__open(out, &s->m->paths, RUN_ATTACH, s->outputs_failed, sizeof(s->outputs_failed)) ||
	     outputs__begin_attach(out, target, ao, s->outputs_failed, sizeof(s->outputs_failed))) &&
	    !s->outputs_failed[0])
		snprintf(s->outputs_failed, sizeof(s->outputs_failed), "the outputs could not be made");
	mode_attach__label(&run->targets.opts, s->m->o->target_label, target, sizeof(target));
	outputs__label_target(out, target);
}

static int attach_done(struct attach_replay_run *run, void *ctx)
{
	struct replay_state *s = ctx;

	/* the reader lets an attach recording hold one run and nothing else */
	attach_replay_run__free(s->attach_run);
	s->attach_run = run;
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

static int replay_measure(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct replay_state *s = m->state;
	struct attach_replay_opts aro = {
		.analysis = {
			.outliers = o->outliers,
			.outlier_threshold_ns = o->threshold_us * 1000,
			.tids = o->tids,
			.nr_tids = o->nr_tids,
		},
		.run_begin = attach_begin,
		.run_done = attach_done,
		.ctx = s,
	};
	struct replay_opts ro = {
		.analysis = {
			.outliers = o->outliers,
			.outlier_threshold_ns = o->threshold_us * 1000,
		},
		.run_begin = run_begin,
		.run_done = run_done,
		.ctx = s,
		.attach = &aro,
	};
	bool from_stdin = !strcmp(o->report_path, "-");
	char msg[PATH_MAX + 256];
	FILE *in;
	int err;

	in = from_stdin ? stdin : open_recording(o->report_path);
	if (!in) {
		outputs__abandon(m->out);
		return 1;
	}
	err = replay__file(in, o->report_path, &ro, msg, sizeof(msg));
	if (!from_stdin)
		fclose(in);
	if (err == -E2BIG)
		snprintf(msg, sizeof(msg), "%s: more than %d runs in one recording", parse__shown(o->report_path),
			 MAX_RUNS);
	if (err)
		return mode__fail(m, 1, msg);
	if (s->outputs_failed[0])
		return mode__fail(m, 1, s->outputs_failed);
	if (!s->attach_run && o->attach_option) {
		snprintf(msg, sizeof(msg), "--%s is for an attach recording; %s holds wakeprobe's own workload",
			 o->attach_option, parse__shown(o->report_path));
		return mode__fail(m, 2, msg);
	}
	return 0;
}

/* replay_report - the reports of the recording's runs, as the live run made them */
static int replay_report(struct mode_run *m)
{
	struct replay_state *s = m->state;
	const struct workload_desc *wl[MAX_RUNS];
	const struct run_result *res[MAX_RUNS];
	struct attach_report report;
	struct results r = { .kind = RUN_WORKLOAD };

	if (s->attach_run) {
		const struct attach_view view = mode__attach_view(m->o);

		attach_run__report(&s->attach_run->run, &view, &report);
		r = (struct results){ .kind = RUN_ATTACH, .attach.report = &report };
		return mode__report(m, &r);
	}
	for (size_t i = 0; i < s->n; i++) {
		wl[i] = s->runs[i]->cfg.workload;
		res[i] = &s->runs[i]->res;
	}
	r.workload.cfg = &s->runs[0]->cfg;
	r.workload.wl = wl;
	r.workload.res = res;
	r.workload.n = s->n;
	r.workload.compare = s->n > 1;
	return mode__report(m, &r);
}

static void replay_close(struct mode_run *m)
{
	struct replay_state *s = m->state;

	for (size_t i = 0; i < s->n; i++)
		free(s->runs[i]);
	attach_replay_run__free(s->attach_run);
}

const struct mode replay_mode = {
	.name = "replay",
	.state_size = sizeof(struct replay_state),
	.wants = replay_wants,
	.open = replay_open,
	.measure = replay_measure,
	.report = replay_report,
	.close = replay_close,
};
