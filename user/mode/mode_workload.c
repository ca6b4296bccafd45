// SPDX-License-Identifier: GPL-2.0
/*
 * mode_workload.c - wakeprobe's own workloads: one wakeup path measured
 * and traced (--workload NAME), or every path in turn with the same
 * settings and one table (--workload all), then the throughput workloads'
 * lines under it
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"
#include "launch.h"
#include "mode.h"
#include "session.h"

struct workload_state {
	struct run_config cfg;
	struct session_opts so;
	bool all;			/* --workload all: every path, then the comparison */
	const struct workload_desc *wl[CATALOG_MAX_WORKLOADS];
	struct run_result *res[CATALOG_MAX_WORKLOADS];
	size_t done;			/* the paths that ran, in res[] */
	bool could_not_run;		/* a path could not run at all: no file is made */
};

static bool workload_wants(const struct wp_options *o)
{
	(void)o;
	return true;
}

static int workload_check(struct mode_run *m)
{
	struct workload_state *s = m->state;
	bool cpus_given;
	int err = mode__check_local(m, &cpus_given, &s->so.uid, &s->so.gid);

	s->so.drop_privileges = m->o->user != NULL;
	return err;
}

static int workload_open(struct mode_run *m)
{
	const struct wp_options *o = m->o;
	struct workload_state *s = m->state;
	char msg[PATH_MAX + 128];

	s->all = !strcmp(o->workload, "all");
	s->cfg = (struct run_config){
		.workload = s->all ? NULL : catalog__find(o->workload),
		.samples = o->samples,
		.interval_us = o->interval_us,
		.waker_cpu = o->waker_cpu,
		.wakee_cpu = o->wakee_cpu,
		.traced = !o->no_trace,
		.lean = o->lean,
		.stacks = o->stacks,
		.unwind = o->stacks && !o->unwind_off,
		.unwind_per_s = o->unwind_per_s,
		.debuginfod = o->debuginfod,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.ringbuf_fixed = o->ringbuf_given,
	};
	s->so.timeout_ms = o->timeout_s * 1000;
	s->so.verbose = o->verbose;
	s->so.analysis.outliers = o->outliers;
	s->so.analysis.outlier_threshold_ns = o->threshold_us * 1000;
	if (outputs__open(m->out, &m->paths, RUN_WORKLOAD, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

static void announce(const struct run_config *cfg)
{
	fprintf(stderr, "wakeprobe: %s%s: %llu wakeups, waker on CPU %d, wakee on CPU %d ...\n",
		cfg->traced ? "tracing " : "timing ", cfg->workload->name, (unsigned long long)cfg->samples,
		cfg->waker_cpu, cfg->wakee_cpu);
}

/*
 * workload_measure - the path asked for, or with --workload all each in
 * turn. A path that cannot run at all stops the whole run (the same cause
 * would stop the others) and leaves no output; one whose workload fails
 * keeps its row, marked FAILED, and the run's status is 1.
 */
static int workload_measure(struct mode_run *m)
{
	struct workload_state *s = m->state;
	struct run_config *cfg = &s->cfg;
	size_t n = s->all ? catalog__count() : 1;
	char msg[PATH_MAX + 128];
	int err;

	while (s->done < n && !launch_stop_requested) {
		struct run_result *res = malloc(sizeof(*res));

		if (!res) {
			fprintf(stderr, "wakeprobe: out of memory\n");
			s->could_not_run = true;
			break;
		}
		cfg->workload = s->wl[s->done] = s->all ? catalog__at(s->done) : cfg->workload;
		announce(cfg);
		err = outputs__begin_run(m->out, cfg, &s->so.analysis, msg, sizeof(msg));
		if (!err)
			err = session__run(cfg, &s->so, res, msg, sizeof(msg));
		/* a signal before this path began: the ones before it are the run, reported as it ended */
		if (err == -EINTR) {
			session__release(res);
			free(res);
			break;
		}
		if (err) {
			fprintf(stderr, "wakeprobe: %s%s%s\n", s->all ? cfg->workload->name : "", s->all ? ": " : "", msg);
			session__release(res);
			free(res);
			s->could_not_run = true;
			break;
		}
		outputs__end_run(m->out);
		if (res->workload_failed)
			m->status = 1;
		s->res[s->done++] = res;
	}
	if (!s->done && !s->could_not_run && launch_stop_requested)
		return mode__fail(m, 128 + launch_stop_requested,
				  "interrupted before the run began: nothing measured, nothing written");
	return 0;
}

static int workload_report(struct mode_run *m)
{
	struct workload_state *s = m->state;
	struct results r = {
		.kind = RUN_WORKLOAD,
		.workload = {
			.cfg = &s->cfg,
			.wl = s->wl,
			.res = (const struct run_result *const *)s->res,
			.n = s->done,
			.compare = s->all,
		},
	};
	int err;

	if (s->could_not_run) {
		/* the files would miss a run: none is made, and the table shows what ran */
		outputs__abandon(m->out);
		if (s->all && s->done && m->out->text)
			text_sink.write(stdout, &r);
		err = 1;
	} else {
		err = mode__report(m, &r) ? 1 : m->status;
	}
	/* the throughput workloads' lines go with the text table, not into the files */
	if (s->all && m->out->text && !launch_stop_requested) {
		int design_err = mode_design__lines(m, &s->so);

		err = err ? err : design_err;
	}
	return err;
}

static void workload_close(struct mode_run *m)
{
	struct workload_state *s = m->state;

	for (size_t i = 0; i < s->done; i++) {
		session__release(s->res[i]);
		free(s->res[i]);
	}
}

const struct mode workload_mode = {
	.name = "workload",
	.state_size = sizeof(struct workload_state),
	.wants = workload_wants,
	.check = workload_check,
	.open = workload_open,
	.measure = workload_measure,
	.report = workload_report,
	.close = workload_close,
};
