// SPDX-License-Identifier: GPL-2.0
/* attach_analysis.c - attach mode's records in, its wakeups and tables out */
#include <stdlib.h>
#include <string.h>
#include "attach_analysis.h"
#include "mechanism.h"

/* tap - the tap's hook @hook with @args, if the run has a tap that has it */
#define tap(a, hook, ...)							\
	do {									\
		if ((a)->opts.tap && (a)->opts.tap->hook)			\
			(a)->opts.tap->hook((a)->opts.tap_ctx, __VA_ARGS__);	\
	} while (0)

static enum fd_kind engine_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	struct attach_analysis *a = ctx;
	enum fd_kind kind = a->opts.fd_kind(tgid, fd, a->opts.fd_kind_ctx);

	tap(a, fd_kind, tgid, fd, kind);
	return kind;
}

static void on_result(const struct attach_result *r, void *ctx)
{
	struct attach_analysis *a = ctx;
	const struct attach_analysis_opts *o = &a->opts;
	uint32_t i;

	for (i = 0; i < o->nr_tids && (uint32_t)o->tids[i] != r->sr.sample.wakee_tid; i++)
		;
	if (o->nr_tids && i == o->nr_tids) {
		a->tids_left_out++;
		return;
	}
	attach_aggregate__add(a->agg, r);
	if (a->cgroups)
		cgroup_stats__add(a->cgroups, r);
	for (i = 0; i < a->nr_targets; i++)
		if ((uint32_t)a->targets[i] == r->wakee_tgid)
			a->target_wakeups++;
	if (o->on_result && r->sr.stacked && a->stacks) {
		/* the outputs that stream name its stacks as they write it */
		struct attach_result named = *r;

		named.stack_names = a->stacks;
		o->on_result(&named, o->on_result_ctx);
	} else if (o->on_result) {
		o->on_result(r, o->on_result_ctx);
	}
}

/* kernel_chain - a wakeup the lean engine's records beside the full engine's stream gave: its chain, for the check */
static void kernel_chain(const struct attach_result *r, void *ctx)
{
	struct attach_analysis *a = ctx;

	if (r->chained && r->mark_seen[MARK_WAKING])
		chain_check__kernel(a->check, r->sr.sample.wakee_tid, r->sr.mark_ns[MARK_WAKING], &r->chain);
}

/* stream_chain - a chain the full engine built from its stream, held against the kernel's */
static void stream_chain(struct attach_result *r, uint64_t waking_ns, void *ctx)
{
	struct attach_analysis *a = ctx;

	r->chain_verdict = (uint8_t)chain_check__stream(a->check, r->sr.sample.wakee_tid, waking_ns, &r->chain,
							&r->chain_diff_ns);
}

/* check_chains - --chains with the full engine: the kernel's links beside the stream's, to check them by */
static int check_chains(struct attach_analysis *a, struct attach_config *cfg)
{
	a->check = chain_check__new();
	a->kernel_chains = attach_lean__new(NULL, kernel_chain, a);
	if (!a->check || !a->kernel_chains)
		return -1;
	cfg->chained = stream_chain;
	cfg->chained_ctx = a;
	return 0;
}

struct attach_analysis *attach_analysis__new(const struct attach_analysis_opts *o)
{
	struct attach_analysis *a = calloc(1, sizeof(*a));
	struct attach_config cfg = { 0 };

	if (!a)
		return NULL;
	a->opts = *o;
	if (o->fd_kind) {
		cfg.fd_kind = engine_fd_kind;
		cfg.fd_kind_ctx = a;
	}
	cfg.chains = o->chains && !o->lean;
	if (cfg.chains && check_chains(a, &cfg)) {
		attach_analysis__free(a);
		return NULL;
	}
	a->agg = attach_aggregate__new();
	if (o->cgroup_names && (!(a->cgroups = cgroup_stats__new(o->cgroup_names, o->cgroup_top)) ||
				(o->chains && cgroup_stats__want_chains(a->cgroups)))) {
		attach_analysis__free(a);
		return NULL;
	}
	if (o->lean)
		a->lean = attach_lean__new(&cfg, on_result, a);
	else
		a->engine = attach__new(&cfg, on_result, a);
	if (!a->agg || (!a->engine && !a->lean)) {
		attach_analysis__free(a);
		return NULL;
	}
	attach_aggregate__want_outliers(a->agg, o->outliers, o->outlier_threshold_ns);
	return a;
}

void attach_analysis__free(struct attach_analysis *a)
{
	if (!a)
		return;
	attach__free(a->engine);
	attach_lean__free(a->lean);
	attach_lean__free(a->kernel_chains);
	chain_check__free(a->check);
	attach_aggregate__free(a->agg);
	cgroup_stats__free(a->cgroups);
	free(a);
}

void attach_analysis__begin(struct attach_analysis *a, const struct attach_session_opts *targets,
			    const struct attach_session_result *res)
{
	a->nr_targets = targets->nr_pids < ATTACH_ANALYSIS_MAX_TARGETS ? targets->nr_pids :
									   ATTACH_ANALYSIS_MAX_TARGETS;
	if (a->nr_targets)
		memcpy(a->targets, targets->pids, a->nr_targets * sizeof(a->targets[0]));
	a->stacks = res->stacks;
	tap(a, begin, targets, res);
}

/* take_event - @e into the engine, or the lean engine's pairing */
static void take_event(struct attach_analysis *a, const struct wp_event *e)
{
	if (a->lean)
		attach_lean__add_event(a->lean, e);
	else if (e->type == WP_EV_LEAN && a->kernel_chains)
		attach_lean__add_event(a->kernel_chains, e);
	else
		attach__add_event(a->engine, e);
}

void attach_analysis__event(struct attach_analysis *a, const struct wp_event *e)
{
	if (a->opts.on_event)
		a->opts.on_event(e, a->opts.on_event_ctx);
	take_event(a, e);
	tap(a, event, e);
}

void attach_analysis__advance(struct attach_analysis *a, uint64_t complete_ns, uint64_t drops)
{
	/* a lean record is a whole wakeup, handed over as it arrives */
	if (a->lean) {
		attach_lean__note_drops(a->lean, drops);
	} else {
		attach__note_drops(a->engine, drops);
		attach__advance(a->engine, complete_ns);
	}
	tap(a, advance, complete_ns, drops);
}

void attach_analysis__end(struct attach_analysis *a, const struct attach_session_result *res)
{
	if (a->lean)
		attach_lean__note_drops(a->lean, res->drops_total);
	else
		attach__finish(a->engine, res->drops_total);
	attach_aggregate__end(a->agg);
	tap(a, end, res);
}

void attach_analysis__add_sums(struct attach_analysis *a, const struct lean_sums_delta *d)
{
	uint64_t wakeups = 0;

	for (int cls = 0; cls < WP_WAKER_CLASS_MAX; cls++)
		wakeups += d->counts.by_class[cls];
	attach_aggregate__add_sums(a->agg, d);
	if (a->lean)
		attach_lean__add_summed(a->lean, wakeups, d->counts.new_threads);
	if (a->cgroups)
		cgroup_stats__add_sums(a->cgroups, d);
}

bool attach_analysis__cgroup_gone(struct attach_analysis *a, uint64_t id)
{
	return a->opts.cgroup_names && cgroup_names__gone(a->opts.cgroup_names, id);
}

const struct attach_counters *attach_analysis__counters(const struct attach_analysis *a)
{
	return a->lean ? attach_lean__counters(a->lean) : attach__counters(a->engine);
}
