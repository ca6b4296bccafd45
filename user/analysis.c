// SPDX-License-Identifier: GPL-2.0
/* analysis.c - a run's inputs into its result, the same live and replayed */
#include <errno.h>
#include <string.h>
#include "analysis.h"

static void on_merged(const struct sample_result *r, void *ctx)
{
	struct analysis *a = ctx;

	aggregate__add(&a->res->agg, r);
	if (a->opts.on_sample)
		a->opts.on_sample(r, a->opts.on_sample_ctx);
}

static void write_run_begin(struct analysis *a, const struct run_config *cfg)
{
	struct rec_run_begin b;

	run_config__encode(cfg, &a->res->meta, a->res->trace_start_ns, &b);
	recorder__write(a->opts.recorder, REC_RUN_BEGIN, &b, sizeof(b));
}

static void write_run_end(struct analysis *a)
{
	struct rec_run_end e;

	run_result__encode_end(a->res, &e);
	recorder__write(a->opts.recorder, REC_RUN_END, &e, sizeof(e));
}

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
	if (a->opts.recorder)
		write_run_begin(a, cfg);
	return 0;
}

void analysis__clock_pair(struct analysis *a, const struct tsc_pair *p)
{
	if (a->opts.recorder) {
		struct rec_clock_pair cp = { .tsc = p->tsc, .mono_ns = p->mono_ns, .width = p->width };

		recorder__write(a->opts.recorder, REC_CLOCK_PAIR, &cp, sizeof(cp));
	}
	tsc_clock__add_pair(&a->res->clock, p);
}

void analysis__event(struct analysis *a, const struct wp_event *e)
{
	if (a->opts.recorder)
		recorder__write(a->opts.recorder, REC_EVENT, e, sizeof(*e));
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
	if (a->opts.recorder) {
		struct rec_sample rs = { .sample = *s, .t_notify_ns = t_notify_ns, .t_woken_ns = t_woken_ns,
					 .t_wait_start_ns = t_wait_start_ns };

		recorder__write(a->opts.recorder, REC_SAMPLE, &rs, sizeof(rs));
	}
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
	if (a->opts.recorder) {
		struct rec_fds f = { .notify_fd = notify_fd, .wait_fd = wait_fd };

		recorder__write(a->opts.recorder, REC_FDS, &f, sizeof(f));
	}
	if (a->merger)
		merger__set_fds(a->merger, notify_fd, wait_fd);
}

void analysis__advance(struct analysis *a, uint64_t complete_ns, uint64_t drops)
{
	if (a->opts.recorder) {
		struct rec_advance adv = { .complete_ns = complete_ns, .drops = drops };

		recorder__write(a->opts.recorder, REC_ADVANCE, &adv, sizeof(adv));
	}
	if (!a->merger)
		return;
	merger__note_drops(a->merger, drops);
	merger__advance(a->merger, complete_ns);
}

void analysis__end(struct analysis *a)
{
	struct run_result *res = a->res;

	if (a->opts.recorder)
		write_run_end(a);
	if (!a->merger)
		return;
	merger__set_window(a->merger, res->trace_start_ns, res->trace_end_ns);
	merger__finish(a->merger, res->drops_total);
	res->merge = *merger__stats(a->merger);
	aggregate__sort_tasks(&res->agg.causes);
}

void analysis__free(struct analysis *a)
{
	merger__free(a->merger);
	a->merger = NULL;
}
