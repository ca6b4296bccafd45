// SPDX-License-Identifier: GPL-2.0
/* run_recording.c - a workload run to and from RUN_BEGIN and RUN_END: its description, its end, its steal and cost */
#include <stdio.h>
#include <string.h>
#include "run_recording.h"

_Static_assert(sizeof(((struct rec_run_end *)0)->dropped) >= sizeof(((struct wp_counters *)0)->dropped),
	       "RUN_END carries struct wp_counters' drop counters");
_Static_assert(sizeof(((struct rec_run_end *)0)->workload_exit) >= sizeof(((struct run_result *)0)->workload_exit),
	       "RUN_END holds the exit text");
_Static_assert(sizeof(((struct rec_run_end *)0)->workload_error) >=
	       sizeof(((struct run_result *)0)->workload_error), "RUN_END holds the error text");
_Static_assert(sizeof(((struct rec_steal *)0)->why_off) >= HOST_STEAL_WHY_LEN, "the record holds the reason");
_Static_assert(sizeof(((struct rec_cost *)0)->bpf_stats_why_off) >= TRACE_COST_WHY_LEN, "the record holds the reason");

static void copy_string(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

void run_recording__encode_begin(const struct run_config *cfg, const struct run_meta *meta, uint64_t trace_start_ns,
				 struct rec_run_begin *b)
{
	const struct workload_desc *wl = cfg->workload;

	/* every byte is written: padding and the ends of the strings too */
	memset(b, 0, sizeof(*b));
	copy_string(b->workload, sizeof(b->workload), wl->name);
	copy_string(b->summary, sizeof(b->summary), wl->summary);
	b->notify_syscalls = wl->notify_syscalls;
	b->wait_syscalls = wl->wait_syscalls;
	b->wait_end = wl->wait_end;
	b->match_fd = !!wl->match_fd;
	b->user_only = wl->user_only;
	b->notify_optional = wl->notify_optional;
	b->new_task = wl->new_task;
	b->traced = cfg->traced;
	b->flags = cfg->lean ? REC_RUN_LEAN : 0;
	b->samples = cfg->samples;
	b->interval_us = cfg->interval_us;
	b->waker_cpu = cfg->waker_cpu;
	b->wakee_cpu = cfg->wakee_cpu;
	b->ringbuf_bytes = cfg->ringbuf_bytes;
	b->nr_cpus = meta->nr_cpus;
	copy_string(b->version, sizeof(b->version), meta->version);
	copy_string(b->kernel, sizeof(b->kernel), meta->kernel);
	copy_string(b->machine, sizeof(b->machine), meta->machine);
	copy_string(b->hostname, sizeof(b->hostname), meta->hostname);
	b->started_unix_ns = meta->started_unix_ns;
	b->trace_start_ns = trace_start_ns;
}

void run_recording__decode_begin(const struct rec_run_begin *b, struct run_config *cfg, struct recorded_workload *wl,
				 struct run_meta *meta, uint64_t *trace_start_ns)
{
	memset(wl, 0, sizeof(*wl));
	copy_string(wl->name, sizeof(wl->name), b->workload);
	copy_string(wl->summary, sizeof(wl->summary), b->summary);
	wl->desc.name = wl->name;
	wl->desc.summary = wl->summary;
	wl->desc.notify_syscalls = b->notify_syscalls;
	wl->desc.wait_syscalls = b->wait_syscalls;
	wl->desc.match_fd = b->match_fd;
	wl->desc.wait_end = b->wait_end;
	wl->desc.user_only = b->user_only;
	wl->desc.notify_optional = b->notify_optional;
	wl->desc.new_task = b->new_task;

	*cfg = (struct run_config){
		.workload = &wl->desc,
		.samples = b->samples,
		.interval_us = b->interval_us,
		.waker_cpu = b->waker_cpu,
		.wakee_cpu = b->wakee_cpu,
		.traced = b->traced,
		.lean = b->flags & REC_RUN_LEAN,
		.ringbuf_bytes = b->ringbuf_bytes,
	};

	memset(meta, 0, sizeof(*meta));
	copy_string(meta->version, sizeof(meta->version), b->version);
	copy_string(meta->kernel, sizeof(meta->kernel), b->kernel);
	copy_string(meta->machine, sizeof(meta->machine), b->machine);
	copy_string(meta->hostname, sizeof(meta->hostname), b->hostname);
	meta->nr_cpus = b->nr_cpus;
	meta->started_unix_ns = b->started_unix_ns;
	*trace_start_ns = b->trace_start_ns;
}

void run_recording__encode_end(const struct run_result *res, struct rec_run_end *e)
{
	/* every byte is written: padding and the ends of the strings too */
	memset(e, 0, sizeof(*e));
	e->trace_end_ns = res->trace_end_ns;
	e->drops_total = res->drops_total;
	e->missed_runs = res->missed_runs;
	e->bpf_runs = res->cost.bpf_runs;
	e->bpf_run_ns = res->cost.bpf_run_ns;
	e->samples_sent = res->samples_sent;
	e->seq_errors = res->seq_errors;
	memcpy(e->dropped, res->counters.dropped, sizeof(res->counters.dropped));
	e->tracked_full = res->counters.tracked_full;
	e->waker_tid = res->waker_tid;
	e->wakee_tid = res->wakee_tid;
	e->interrupted = res->interrupted;
	e->stop_signal = res->interrupted ? (uint8_t)res->stop_signal : 0;
	e->workload_failed = res->workload_failed;
	copy_string(e->workload_exit, sizeof(e->workload_exit), res->workload_exit);
	copy_string(e->workload_error, sizeof(e->workload_error), res->workload_error);
	run_recording__encode_steal(&res->steal, &e->steal);
	run_recording__encode_cost(&res->cost, &e->cost);
	e->lean_adaptive = res->lean_flight_adaptive;
	run_recording__encode_lean(&res->lean, res->lean_flight_ns, &e->lean);
}

void run_recording__decode_end(const struct rec_run_end *e, struct run_result *res)
{
	res->trace_end_ns = e->trace_end_ns;
	res->drops_total = e->drops_total;
	res->missed_runs = e->missed_runs;
	res->samples_sent = e->samples_sent;
	res->seq_errors = e->seq_errors;
	memcpy(res->counters.dropped, e->dropped, sizeof(res->counters.dropped));
	res->counters.tracked_full = e->tracked_full;
	res->interrupted = e->interrupted;
	res->stop_signal = e->stop_signal;
	res->workload_failed = e->workload_failed;
	copy_string(res->workload_exit, sizeof(res->workload_exit), e->workload_exit);
	copy_string(res->workload_error, sizeof(res->workload_error), e->workload_error);
	run_recording__decode_steal(&e->steal, &res->steal);
	run_recording__decode_cost(&e->cost, &res->cost);
	res->lean_flight_adaptive = e->lean_adaptive;
	run_recording__decode_lean(&e->lean, &res->lean, res->lean_flight_ns);
	/* versions 1-3 kept the programs' figures (the benchmark's) only up there */
	if (!res->cost.known) {
		res->cost.bpf_runs = e->bpf_runs;
		res->cost.bpf_run_ns = e->bpf_run_ns;
		res->cost.bpf_stats_on = e->bpf_runs != 0;
	}
	/* the tids the samples carried; RUN_END's say the same unless no sample came */
	if (!res->waker_tid) {
		res->waker_tid = e->waker_tid;
		res->wakee_tid = e->wakee_tid;
	}
}

void run_recording__encode_steal(const struct host_steal *h, struct rec_steal *s)
{
	memset(s, 0, sizeof(*s));
	s->known = 1;
	s->measured = h->measured;
	s->proc_ticks = h->proc_ticks;
	s->clk_tck = h->clk_tck;
	s->nr_cpus = h->nr_cpus;
	snprintf(s->why_off, sizeof(s->why_off), "%s", h->why_off);
}

void run_recording__decode_steal(const struct rec_steal *s, struct host_steal *h)
{
	h->measured = s->measured;
	h->proc_ticks = s->proc_ticks;
	h->clk_tck = s->clk_tck;
	h->nr_cpus = s->nr_cpus;
	if (s->known)
		snprintf(h->why_off, sizeof(h->why_off), "%s", s->why_off);
	else
		snprintf(h->why_off, sizeof(h->why_off), "recorded by a wakeprobe that did not read it");
}

void run_recording__encode_lean(const struct wp_lean_counters *c, const uint64_t *flight_ns, struct rec_lean *l)
{
	memset(l, 0, sizeof(*l));
	l->woke_running = c->woke_running;
	l->wakeup_unpaired = c->wakeup_unpaired;
	l->no_storage = c->no_storage;
	memcpy(l->flight_ns, flight_ns, sizeof(l->flight_ns));
}

void run_recording__decode_lean(const struct rec_lean *l, struct wp_lean_counters *c, uint64_t *flight_ns)
{
	c->woke_running = l->woke_running;
	c->wakeup_unpaired = l->wakeup_unpaired;
	c->no_storage = l->no_storage;
	memcpy(flight_ns, l->flight_ns, sizeof(l->flight_ns));
}

void run_recording__encode_cost(const struct trace_cost *c, struct rec_cost *r)
{
	memset(r, 0, sizeof(*r));
	r->known = c->known;
	r->bpf_stats_on = c->bpf_stats_on;
	r->bpf_runs = c->bpf_runs;
	r->bpf_run_ns = c->bpf_run_ns;
	r->bpf_timed_permille = c->bpf_timed_permille;
	r->self_cpu_ns = c->self_cpu_ns;
	snprintf(r->bpf_stats_why_off, sizeof(r->bpf_stats_why_off), "%s", c->bpf_stats_why_off);
}

void run_recording__decode_cost(const struct rec_cost *r, struct trace_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->known = r->known;
	c->bpf_stats_on = r->bpf_stats_on;
	c->bpf_runs = r->bpf_runs;
	c->bpf_run_ns = r->bpf_run_ns;
	c->bpf_timed_permille = r->bpf_timed_permille;
	c->self_cpu_ns = r->self_cpu_ns;
	snprintf(c->bpf_stats_why_off, sizeof(c->bpf_stats_why_off), "%s", r->bpf_stats_why_off);
}

/* the tap: each input of a workload run's analysis, written down as the record that replays it */

static void tap_begin(void *w, const struct run_config *cfg, const struct run_result *res)
{
	struct rec_run_begin b;

	run_recording__encode_begin(cfg, &res->meta, res->trace_start_ns, &b);
	recorder__write(w, REC_RUN_BEGIN, &b, sizeof(b));
}

static void tap_clock_pair(void *w, const struct tsc_pair *p)
{
	struct rec_clock_pair cp = { .tsc = p->tsc, .mono_ns = p->mono_ns, .width = p->width };

	recorder__write(w, REC_CLOCK_PAIR, &cp, sizeof(cp));
}

static void tap_event(void *w, const struct wp_event *e)
{
	recorder__write(w, REC_EVENT, e, sizeof(*e));
}

static void tap_sample(void *w, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		       uint64_t t_wait_start_ns)
{
	struct rec_sample rs = { .sample = *s, .t_notify_ns = t_notify_ns, .t_woken_ns = t_woken_ns,
				 .t_wait_start_ns = t_wait_start_ns };

	recorder__write(w, REC_SAMPLE, &rs, sizeof(rs));
}

static void tap_fds(void *w, int notify_fd, int wait_fd)
{
	struct rec_fds f = { .notify_fd = notify_fd, .wait_fd = wait_fd };

	recorder__write(w, REC_FDS, &f, sizeof(f));
}

static void tap_advance(void *w, uint64_t complete_ns, uint64_t drops)
{
	struct rec_advance adv = { .complete_ns = complete_ns, .drops = drops };

	recorder__write(w, REC_ADVANCE, &adv, sizeof(adv));
}

static void tap_end(void *w, const struct run_result *res)
{
	struct rec_run_end e;

	run_recording__encode_end(res, &e);
	recorder__write(w, REC_RUN_END, &e, sizeof(e));
}

const struct analysis_tap run_recording_tap = {
	.begin = tap_begin,
	.clock_pair = tap_clock_pair,
	.event = tap_event,
	.sample = tap_sample,
	.fds = tap_fds,
	.advance = tap_advance,
	.end = tap_end,
};
