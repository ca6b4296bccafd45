// SPDX-License-Identifier: GPL-2.0
/* attach_run.c - one attach run: the session's records into the analysis, live or replayed */
#include <errno.h>
#include <string.h>
#include "attach_run.h"
#include "collector.h"

int attach_run__init(struct attach_run *r, const struct attach_session_opts *targets,
		     const struct attach_analysis_opts *ao, const struct attach_run_hooks *hooks)
{
	memset(r, 0, sizeof(*r));
	r->targets = *targets;
	if (hooks)
		r->hooks = *hooks;
	r->analysis = attach_analysis__new(ao);
	return r->analysis ? 0 : -ENOMEM;
}

void attach_run__begin(struct attach_run *r)
{
	attach_analysis__begin(r->analysis, &r->targets, &r->res);
	if (r->hooks.begun)
		r->hooks.begun(r, r->hooks.ctx);
}

void attach_run__event(struct attach_run *r, const struct wp_event *e)
{
	attach_analysis__event(r->analysis, e);
}

void attach_run__advance(struct attach_run *r, uint64_t complete_ns, uint64_t drops)
{
	/* when the losses were found, for the report to say: a burst, a stall, or all along */
	if (drops > r->drops) {
		if (!r->res.drops_first_ns)
			r->res.drops_first_ns = complete_ns;
		r->res.drops_last_ns = complete_ns;
	}
	attach_analysis__advance(r->analysis, complete_ns, drops);
	r->complete_ns = complete_ns;
	r->drops = drops;
	if (r->hooks.advanced)
		r->hooks.advanced(r, r->hooks.ctx);
}

void attach_run__end(struct attach_run *r)
{
	attach_analysis__end(r->analysis, &r->res);
}

/* the session's hooks: what it traces goes straight into the run */
static void on_command(pid_t pid, void *ctx)
{
	struct attach_run *r = ctx;

	if (r->hooks.command)
		r->hooks.command(pid, r->hooks.ctx);
}

static void on_begin(const struct attach_session_result *res, void *ctx)
{
	(void)res;	/* the run's own: the session writes into r->res */
	attach_run__begin(ctx);
}

static void on_event(const struct wp_event *e, void *ctx)
{
	attach_run__event(ctx, e);
}

static void on_advance(uint64_t complete_ns, uint64_t drops, void *ctx)
{
	attach_run__advance(ctx, complete_ns, drops);
}

static void on_sums(const struct lean_sums_delta *d, void *ctx)
{
	struct attach_run *r = ctx;

	attach_analysis__add_sums(r->analysis, d);
}

static bool cgroup_gone(uint64_t id, void *ctx)
{
	struct attach_run *r = ctx;

	return attach_analysis__cgroup_gone(r->analysis, id);
}

void attach_run__take_sums(struct attach_run *r, struct collector *c)
{
	const struct lean_sums_delta *d;

	if (r->targets.sums && c && !collector__take_sums(c, cgroup_gone, r, &d))
		attach_analysis__add_sums(r->analysis, d);
}

static void on_tick(struct collector *c, void *ctx)
{
	struct attach_run *r = ctx;

	r->hooks.tick(r, c, r->hooks.ctx);
}

int attach_run__trace(struct attach_run *r, char *msg, size_t len)
{
	const struct attach_session_hooks hooks = {
		.on_command = on_command,
		.on_begin = on_begin,
		.on_event = on_event,
		.on_advance = on_advance,
		.on_tick = r->hooks.tick ? on_tick : NULL,
		.on_sums = on_sums,
		.cgroup_gone = cgroup_gone,
		.ctx = r,
	};
	int err = attach_session__run(&r->targets, &hooks, &r->res, msg, len);

	if (!err)
		attach_run__end(r);
	return err;
}

void attach_run__report(const struct attach_run *r, const struct attach_view *view, struct attach_report *out)
{
	const struct attach_analysis *a = r->analysis;

	*out = (struct attach_report){
		.targets = &r->targets,
		.run = &r->res,
		.counters = attach_analysis__counters(a),
		.agg = a->agg,
		.tids = view->tids,
		.nr_tids = view->nr_tids,
		.tids_left_out = a->tids_left_out,
		.target_wakeups = a->target_wakeups,
		.pairs = view->pairs,
		.cgroups = a->cgroups,
		.order = view->order,
		.chain_check = a->check ? chain_check__counters(a->check) : NULL,
	};
}

void attach_run__free(struct attach_run *r)
{
	attach_analysis__free(r->analysis);
	r->analysis = NULL;
	attach_session__release(&r->res);
}
