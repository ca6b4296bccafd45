/* SPDX-License-Identifier: GPL-2.0 */
/*
 * design_run_fixture.h - a traced mode run of burst-queue whose every
 * figure is known, for the tests of what a design's outputs say: the
 * workload's fixture document (tests/fixtures/throughput-burst-queue.json)
 * as both runs', a census fed DESIGN_KIND_WAKEUPS futex wakeups and a
 * producer's 4000 ns of CPU, and attach_fixture.h's small attach run as the
 * traced kernel side. The untraced run took 1.5 s, the traced 2.5 s and
 * ended by SIGKILL.
 */
#ifndef WAKEPROBE_TEST_DESIGN_RUN_FIXTURE_H
#define WAKEPROBE_TEST_DESIGN_RUN_FIXTURE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_fixture.h"
#include "census.h"
#include "design_run.h"
#include "json_reader.h"
#include "readback.h"

#define DESIGN_UNITS		60	/* the fixture's handed_over.cond */
#define DESIGN_KIND_WAKEUPS	30

struct design_run_fixture {
	struct attach_fixture run;
	struct attach_analysis *analysis;
	struct design_run *dr;
	char *doc;		/* the fixture document's text */
	size_t doc_len;
};

/* design_run_fixture__doc - the fixture's document, parsed anew */
static inline struct json_doc *design_run_fixture__doc(const struct design_run_fixture *f)
{
	char err[128];
	struct json_doc *d = json_reader__parse(f->doc, f->doc_len, err, sizeof(err));

	cr_assert_not_null(d, "%s", err);
	return d;
}

/* design_run_fixture__census - DESIGN_KIND_WAKEUPS futex wakeups of one kind, 2000 to 2029 ns each, and 4000 ns of "bq-producer" */
static inline struct census *design_run_fixture__census(void)
{
	struct census *c = census__new();
	struct wp_event e;

	cr_assert_not_null(c);
	census__process(c, RUN_PROC);
	for (uint32_t i = 0; i < DESIGN_KIND_WAKEUPS; i++) {
		struct attach_result r;

		memset(&r, 0, sizeof(r));
		r.sr.label = LABEL_COMPLETE;
		r.waker.cls = WP_WAKER_SYSCALL;
		r.waker.nr = SYS_futex;
		r.waker.arg = 0x1000 + 64 * i;
		r.waker.arg2 = FUTEX_WAKE_PRIVATE;
		r.waker.tid = 501;
		snprintf(r.waker.comm, sizeof(r.waker.comm), "bq-producer");
		r.wait.known = true;
		r.wait.nr = SYS_futex;
		r.wait.arg = r.waker.arg;
		r.wait.arg2 = FUTEX_WAIT_PRIVATE;
		snprintf(r.wakee_comm, sizeof(r.wakee_comm), "bq-consumer");
		r.family = MECH_FUTEX;
		r.wake_to_run_ns = 2000 + i;
		census__result(c, &r);
	}
	e = with_next_comm(with_next_tgid(ev_switch(1000, 0, 0, 501, 0, 0), RUN_PROC), "bq-producer");
	census__event(c, &e);
	e = ev_switch(5000, 0, 501, 0, 1, 0);
	census__event(c, &e);
	census__end(c, 10000);
	return c;
}

static inline void design_run_fixture__make(struct design_run_fixture *f)
{
	static char *argv0 = "/x/burst-queue", *argv1 = "--json";
	char path[PATH_MAX];
	struct design_run *dr;

	memset(f, 0, sizeof(*f));
	attach_fixture__make(&f->run);
	snprintf(path, sizeof(path), "%s/throughput-burst-queue.json", fixtures_dir());
	f->doc = read_file(path, &f->doc_len);
	f->analysis = calloc(1, sizeof(*f->analysis));
	f->dr = dr = calloc(1, sizeof(*dr));
	cr_assert(f->analysis && dr);
	f->analysis->engine = f->run.engine;
	f->analysis->agg = f->run.agg;

	dr->design_name = "burst-queue";
	dr->mode = "cond";
	dr->meta = f->run.run.meta;
	snprintf(dr->command, sizeof(dr->command), "%s %s", argv0, argv1);
	dr->argv[0] = argv0;
	dr->argv[1] = argv1;
	dr->untraced = (struct design_side){ .ran = true, .wall_ns = 1500000000 };
	snprintf(dr->untraced.exit, sizeof(dr->untraced.exit), "exited with status 0");
	dr->untraced.doc = design_run_fixture__doc(f);
	dr->traced = (struct design_side){ .ran = true, .wall_ns = 2500000000, .status = 9 /* killed by SIGKILL */ };
	snprintf(dr->traced.exit, sizeof(dr->traced.exit), "killed by signal 9 (Killed)");
	dr->traced.doc = design_run_fixture__doc(f);
	dr->run.targets = f->run.targets;
	dr->run.res = f->run.run;
	dr->run.analysis = f->analysis;
	dr->census = design_run_fixture__census();
	dr->units = DESIGN_UNITS;
	snprintf(dr->unit, sizeof(dr->unit), "task");
	dr->nr_figures = 2;
	dr->figures[0] = (struct design_figure){ .label = "tasks=10 start=seed", .unit = "task", .runs = 3,
						 .untraced_ns = 800, .traced_ns = 1000,
						 .counts = "sent=30 received=30" };
	dr->figures[1] = (struct design_figure){ .label = "tasks=10 start=ready", .unit = "task", .runs = 3,
						 .untraced_ns = 0, .traced_ns = 2000, .counts = "cond_waits=3" };
}

static inline void design_run_fixture__free(struct design_run_fixture *f)
{
	json_reader__free(f->dr->untraced.doc);
	json_reader__free(f->dr->traced.doc);
	census__free(f->dr->census);
	free(f->dr);
	free(f->analysis);
	free(f->doc);
	attach_fixture__free(&f->run);
}

#endif /* WAKEPROBE_TEST_DESIGN_RUN_FIXTURE_H */
