// SPDX-License-Identifier: GPL-2.0
/* analysis.c - a run's inputs into its result, the same live and replayed */
#include <errno.h>
#include <string.h>
#include "analysis.h"

static void on_merged(const struct sample_result *r, void *ctx)
{
	struct analysis *a = ctx;

	aggregate__add(&a->res->agg, r);
	/* --stacks: a complete wakeup's stacks, weighed by its waking to its switch-in */
	if (r->stacked && a->res->stack_combos && r->label == LABEL_COMPLETE)
		stack_combos__add(a->res->stack_combos, &r->stacks, r->stacks.wakee_tgid,
				  r->mark_ns[MARK_SWITCH_IN] - r->mark_ns[MARK_WAKING]);
	if (a->opts.on_sample)
		a->opts.on_sample(r, a->opts.on_sample_ctx);
}

/* tap - the tap's hook @hook with @args, if the run has a tap that has it */
#define tap(a, hook, ...)							\
	do {									\
		if ((a)->opts.tap && (a)->opts.tap->hook)			\
			(a)->opts.tap->hook((a)->opts.tap_ctx, __VA_ARGS__);	\
	} while (0)

int analysis__begin(struct analysis *a, const struct run_config *cfg, const struct analysis_opts *o,
		    struct run_result *res)
{
	const struct workload_desc *wl = cfg->workload;
	struct merger_config mcfg = {
		.notify_syscalls = wl->notify_syscalls,
		.wait_syscalls = wl->wait_syscalls,
		.wait_end = wl->wait_end,
		.user_only = wl->user_only,
		.notify_optional = wl->notify_optional,
		.new_task = wl->new_task,
		.lean = cfg->lean,
		.clock_slack_ns = ANALYSIS_CLOCK_SLACK_NS,
		/* the fds are only known once the workload runs: analysis__fds() */
		.notify_fd = -1,
		.wait_fd = -1,
	};

	memset(a, 0, sizeof(*a));
	a->opts = *o;
	a->res = res;
	aggregate__init(&res->agg);
	aggregate__want_outliers(&res->agg, o->outliers, o->outlier_threshold_ns);
	tsc_clock__init(&res->clock);
	res->traced = cfg->traced;
	res->agg.lean = cfg->traced && cfg->lean;
	host_steal__init(&res->steal, cfg->waker_cpu, cfg->wakee_cpu);
	if (cfg->traced) {
		a->merger = merger__new(&mcfg, on_merged, a);
		if (!a->merger)
			return -ENOMEM;
		merger__set_window(a->merger, res->trace_start_ns, UINT64_MAX);
	}
	tap(a, begin, cfg, res);
	return 0;
}

void analysis__clock_pair(struct analysis *a, const struct tsc_pair *p)
{
	tap(a, clock_pair, p);
	tsc_clock__add_pair(&a->res->clock, p);
}

void analysis__event(struct analysis *a, const struct wp_event *e)
{
	tap(a, event, e);
	if (a->opts.on_event)
		a->opts.on_event(e, a->opts.on_event_ctx);
	host_steal__add_event(&a->res->steal, e);
	if (a->merger)
		merger__add_event(a->merger, e);
}

/* untraced_result - what an untraced sample is: its totals, and nothing in between */
static void untraced_result(struct sample_result *r, const struct wp_sample *s, uint64_t t_notify_ns,
			    uint64_t t_woken_ns, uint64_t t_wait_start_ns)
{
	memset(r, 0, sizeof(*r));
	r->sample = *s;
	r->t_notify_ns = t_notify_ns;
	r->t_woken_ns = t_woken_ns;
	r->t_wait_start_ns = t_wait_start_ns;
	r->total_ns = (int64_t)(t_woken_ns - t_notify_ns);
	r->label = LABEL_COMPLETE;
}

void analysis__sample(struct analysis *a, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		      uint64_t t_wait_start_ns)
{
	tap(a, sample, s, t_notify_ns, t_woken_ns, t_wait_start_ns);
	if (!a->res->waker_tid) {
		a->res->waker_tid = s->waker_tid;
		a->res->wakee_tid = s->wakee_tid;
	}
	if (a->merger) {
		merger__add_sample(a->merger, s, t_notify_ns, t_woken_ns, t_wait_start_ns);
		return;
	}
	aggregate__add_untraced(&a->res->agg, t_notify_ns, t_woken_ns, t_wait_start_ns);
	if (a->opts.on_sample) {
		struct sample_result r;

		untraced_result(&r, s, t_notify_ns, t_woken_ns, t_wait_start_ns);
		a->opts.on_sample(&r, a->opts.on_sample_ctx);
	}
}

void analysis__fds(struct analysis *a, int notify_fd, int wait_fd)
{
	tap(a, fds, notify_fd, wait_fd);
	if (a->merger)
		merger__set_fds(a->merger, notify_fd, wait_fd);
}

void analysis__advance(struct analysis *a, uint64_t complete_ns, uint64_t drops)
{
	tap(a, advance, complete_ns, drops);
	if (!a->merger)
		return;
	merger__note_drops(a->merger, drops);
	merger__advance(a->merger, complete_ns);
}

void analysis__end(struct analysis *a)
{
	struct run_result *res = a->res;

	tap(a, end, res);
	if (!a->merger)
		return;
	merger__set_window(a->merger, res->trace_start_ns, res->trace_end_ns);
	merger__finish(a->merger, res->drops_total);
	res->merge = *merger__stats(a->merger);
	cause_totals__sort_tasks(&res->agg.causes);
}

void analysis__free(struct analysis *a)
{
	merger__free(a->merger);
	a->merger = NULL;
}
