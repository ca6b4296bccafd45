// SPDX-License-Identifier: GPL-2.0
/*
 * mode_design.c - a throughput workload (designs.h): each of its modes
 * asked for, untraced then traced, shown as it ends, and --json's document
 * of them all at the end
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "design_run.h"
#include "designs.h"
#include "launch.h"
#include "mode.h"
#include "session.h"
#include "text_design.h"

struct design_state {
	const struct design_desc *design;
	struct design_run_opts ro;
	bool drop_privileges;
	uid_t uid;
	gid_t gid;
	struct design_run *runs[DESIGN_MAX_MODES];	/* kept for the document */
	size_t kept;
};

static bool design_wants(const struct wp_options *o)
{
	return o->design;
}

static int design_check(struct mode_run *m)
{
	struct design_state *s = m->state;
	bool cpus_given;
	int err = mode__check_local(m, &cpus_given, &s->uid, &s->gid);

	/* a workload of several threads picks its own CPUs unless told */
	if (!err && !cpus_given)
		m->o->waker_cpu = m->o->wakee_cpu = -1;
	s->drop_privileges = m->o->user != NULL;
	return err;
}

/* design_opts - how a throughput workload runs, as the options ask */
static void design_opts(const struct wp_options *o, bool drop_privileges, uid_t uid, gid_t gid,
			const struct design_desc *d, struct design_run_opts *ro)
{
	*ro = (struct design_run_opts){
		.design = d,
		.user_args = o->workload_args,
		.cpus = { o->waker_cpu, o->wakee_cpu },
		.traced = !o->no_trace,
		.lean = o->lean,
		.chains = o->chains,
		.timeout_ms = o->timeout_s * 1000,
		.ringbuf_bytes = o->ringbuf_kb * 1024,
		.verbose = o->verbose,
		.drop_privileges = drop_privileges,
		.uid = uid,
		.gid = gid,
	};
}

static int design_open(struct mode_run *m)
{
	struct design_state *s = m->state;
	char msg[PATH_MAX + 256];

	s->design = designs__find(m->o->workload);
	if (outputs__open(m->out, &m->paths, RUN_DESIGN, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	design_opts(m->o, s->drop_privileges, s->uid, s->gid, s->design, &s->ro);
	return 0;
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
 * design_measure - each mode asked for, untraced then traced, and its text
 * as soon as it ends. A mode that fails ends the run with its reason: the
 * next would most likely fail the same way. The runs are kept for a file
 * that needs them all (--json), written once every mode has run, or not at
 * all: a mode missing would leave it short, as for the paced paths.
 */
static int design_measure(struct mode_run *m)
{
	struct design_state *s = m->state;
	const struct design_desc *d = s->design;
	char msg[PATH_MAX + 256];
	size_t shown = 0;

	for (size_t i = 0; i < DESIGN_MAX_MODES && d->modes[i]; i++) {
		struct design_run *r;

		if (!designs__mode_listed(m->o->modes, d->modes[i]))
			continue;
		r = s->runs[s->kept] = calloc(1, sizeof(*r));
		if (!r)
			return mode__fail(m, 1, "out of memory");
		s->ro.mode = d->modes[i];
		fprintf(stderr, "wakeprobe: %s, mode %s: %s ...\n", d->name, s->ro.mode,
			s->ro.traced ? "untraced, then traced" : "untraced");
		if (design_run__run(&s->ro, r, msg, sizeof(msg))) {
			int status = r->interrupted ? 128 + launch_stop_requested : 1;

			free_design_runs(&s->runs[s->kept], 1);
			return mode__fail(m, status, msg);
		}
		if (m->out->text) {
			struct results one = {
				.kind = RUN_DESIGN,
				.design = { .workload = d->name, .runs = (const struct design_run *const *)&r, .n = 1 },
			};

			if (shown++)
				fprintf(stdout, "\n");
			text_sink.write(stdout, &one);
			fflush(stdout);
		}
		/* without a file to write, a mode's run is done with once it is shown */
		if (outputs__wants_results(m->out))
			s->kept++;
		else
			free_design_runs(&s->runs[s->kept], 1);
	}
	return 0;
}

static int design_report(struct mode_run *m)
{
	struct design_state *s = m->state;
	struct results r = {
		.kind = RUN_DESIGN,
		.design = {
			.workload = s->design->name,
			.runs = (const struct design_run *const *)s->runs,
			.n = s->kept,
		},
	};
	char msg[PATH_MAX + 256];

	/* the text was shown mode by mode */
	if (outputs__finish(m->out, &r, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}
	return 0;
}

static void design_close(struct mode_run *m)
{
	struct design_state *s = m->state;

	free_design_runs(s->runs, s->kept);
}

int mode_design__lines(struct mode_run *m, const struct session_opts *so)
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

		design_opts(m->o, so->drop_privileges, so->uid, so->gid, d, &ro);
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
	if (!launch_stop_requested)
		text_design__print_lines(stdout, (const struct design_run *const *)runs, whys, n);
	for (size_t i = 0; i < n; i++) {
		if (runs[i])
			design_run__free(runs[i]);
		free(runs[i]);
	}
	return launch_stop_requested ? 128 + launch_stop_requested : err;
}

const struct mode design_mode = {
	.name = "design",
	.state_size = sizeof(struct design_state),
	.wants = design_wants,
	.check = design_check,
	.open = design_open,
	.measure = design_measure,
	.report = design_report,
	.close = design_close,
};
