// SPDX-License-Identifier: GPL-2.0
/* json_chains.c - attach mode's chains in its JSON (json_chains.h) */
#include "attach_aggregate.h"
#include "attach_session.h"
#include "chain.h"
#include "chain_check.h"
#include "chain_totals.h"
#include "json_chains.h"
#include "json_stacks.h"
#include "mechanism.h"

static const char *const link_kinds[WP_LINK_KINDS] = {
	[WP_LINK_NONE] = "none",
	[WP_LINK_THREAD] = "thread",
	[WP_LINK_RAISED] = "softirq_raised",
	[WP_LINK_NEW] = "thread_start",
	[WP_LINK_UNTRACED] = "untraced",
	[WP_LINK_IRQ] = "interrupt",
	[WP_LINK_SOFTIRQ] = "softirq",
	[WP_LINK_UNSURE] = "unsure",
};

/* put_task - @key: {tid, comm} (comm null where the run never named it) */
static void put_task(struct json_writer *w, const char *key, uint32_t tid, const char *comm)
{
	json_writer__key(w, key);
	json_writer__begin_object(w);
	json_writer__put_uint(w, "tid", tid);
	if (comm[0])
		json_writer__put_strn(w, "comm", comm, WP_TASK_COMM_LEN);
	else
		json_writer__put_null(w, "comm");
	json_writer__end_object(w);
}

/* stacks_of - @r's stacks (--stacks), or NULL */
static struct run_stacks *stacks_of(const struct attach_report *r)
{
	return r->run ? r->run->stacks : NULL;
}

static void write_hop(struct json_writer *w, struct run_stacks *rs, const struct chain_hop *h)
{
	const char *syscall = h->nr >= 0 ? mechanism__syscall_name(h->nr) : NULL;

	json_writer__begin_object(w);
	json_writer__put_str(w, "kind", h->kind < WP_LINK_KINDS ? link_kinds[h->kind] : "?");
	put_task(w, "waker", h->waker_tid, h->waker_comm);
	json_writer__put_uint(w, "wakee_tid", h->wakee_tid);
	if (syscall)
		json_writer__put_str(w, "syscall", syscall);
	else
		json_writer__put_null(w, "syscall");
	json_writer__put_uint_if(w, "wakee_blocked_ns", h->blocked_ns, h->blocked_ns);
	json_writer__put_bool(w, "run_seen", h->run_seen);
	json_writer__put_bool(w, "clipped", h->clipped);
	json_writer__put_uint_if(w, "ran_ns", h->run_seen, h->ran_ns);
	json_writer__put_uint_if(w, "preempted_ns", h->run_seen && !h->clipped, h->preempted_ns);
	json_writer__put_uint_if(w, "runnable_ns", h->run_seen, h->runnable_ns);
	json_writer__put_uint_if(w, "cpu", h->run_seen, h->cpu);
	if (h->run_seen)
		put_task(w, "holder", h->holder_tid, h->holder_tid ? h->holder_comm : "");
	else
		json_writer__put_null(w, "holder");
	json_writer__key(w, "runnable_by_cause");
	if (h->runnable_explained) {
		json_writer__begin_object(w);
		for (int k = 0; k < NR_CAUSES; k++)
			json_writer__put_int(w, wakeup__cause_name(k), h->runnable_by_cause[k]);
		json_writer__end_object(w);
	} else {
		json_writer__null(w);
	}
	if (h->runnable_explained && h->runnable_task_tid) {
		put_task(w, "runnable_longest_task", h->runnable_task_tid, h->runnable_task_comm);
		json_writer__put_uint(w, "runnable_longest_task_ns", h->runnable_task_ns);
	} else {
		json_writer__put_null(w, "runnable_longest_task");
		json_writer__put_null(w, "runnable_longest_task_ns");
	}
	/* --stacks: where the waker was when it made this hop's waking */
	if (rs) {
		json_writer__key(w, "waker_stacks");
		if (h->stacked) {
			json_writer__begin_object(w);
			json_writer__put_uint(w, "tgid", h->waker_tgid);
			json_stacks__stack(w, rs, "user", h->waker_user, (pid_t)h->waker_tgid);
			json_stacks__stack(w, rs, "kernel", h->waker_kernel, 0);
			json_writer__end_object(w);
		} else {
			json_writer__null(w);
		}
	}
	json_writer__end_object(w);
}

static void write_chain(struct json_writer *w, struct run_stacks *rs, const struct chain *c)
{
	json_writer__begin_object(w);
	json_writer__put_bool(w, "wait_seen", c->wait_seen);
	json_writer__put_uint_if(w, "wait_ns", c->wait_seen, c->wait_ns);
	json_writer__put_uint(w, "on_path_ns", chain__on_path_ns(c));
	json_writer__put_str(w, "end", chain__end_name(c->end));
	json_writer__put_uint_if(w, "rest_ns", c->wait_seen, c->rest_ns);
	json_writer__key(w, "hops");
	json_writer__begin_array(w);
	for (uint32_t i = 0; i < c->nr_hops; i++)
		write_hop(w, rs, &c->hops[i]);
	json_writer__end_array(w);
	json_writer__end_object(w);
}

void json_chains__wakeup(struct json_writer *w, const struct attach_report *r, const struct attach_result *o)
{
	if (!r->targets->chains)
		return;
	json_writer__key(w, "chain");
	if (o->chained)
		write_chain(w, stacks_of(r), &o->chain);
	else
		json_writer__null(w);
	if (!r->chain_check)
		return;
	if (chain_check__verdict_name(o->chain_verdict))
		json_writer__put_str(w, "chain_check", chain_check__verdict_name(o->chain_verdict));
	else
		json_writer__put_null(w, "chain_check");
}

/* write_check - the stream's chains held against the kernel's (chain_check.h) */
static void write_check(struct json_writer *w, const struct chain_check_counters *n)
{
	json_writer__key(w, "check");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "kernel", n->kernel);
	json_writer__put_uint(w, "kernel_unmatched", n->kernel_unmatched);
	json_writer__put_uint(w, "kernel_not_kept", n->kernel_not_kept);
	json_writer__put_uint(w, "compared", n->compared);
	json_writer__put_uint(w, "same", n->same);
	json_writer__put_uint(w, "differ", n->differ);
	json_writer__put_uint(w, "no_kernel", n->no_kernel);
	json_writer__put_uint(w, "max_time_diff_ns", n->max_time_diff_ns);
	json_writer__put_uint_if(w, "mean_time_diff_ns", n->hops, n->hops ? n->time_diff_ns / n->hops : 0);
	if (n->differ)
		json_writer__put_str(w, "first_difference", n->first_difference);
	else
		json_writer__put_null(w, "first_difference");
	json_writer__end_object(w);
}

static void write_tasks(struct json_writer *w, const char *key, const struct chain_task_times *tt)
{
	const struct chain_task_time *rows[CHAIN_TOTALS_TASKS];
	size_t n = chain_totals__tasks(tt, rows, CHAIN_TOTALS_TASKS);

	json_writer__key(w, key);
	json_writer__begin_object(w);
	json_writer__key(w, "tasks");
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_writer__begin_object(w);
		json_writer__put_uint(w, "tid", rows[i]->tid);
		if (rows[i]->comm[0])
			json_writer__put_strn(w, "comm", rows[i]->comm, WP_TASK_COMM_LEN);
		else
			json_writer__put_null(w, "comm");
		json_writer__put_uint(w, "ns", rows[i]->ns);
		json_writer__put_uint(w, "error_ns", rows[i]->error);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__put_uint(w, "other_ns", tt->other_ns);
	json_writer__end_object(w);
}

static void write_totals(struct json_writer *w, const struct chain_totals *t)
{
	json_writer__begin_object(w);
	json_writer__put_uint(w, "chained", t->chained);
	json_writer__key(w, "ends");
	json_writer__begin_object(w);
	for (int e = 0; e < NR_CHAIN_ENDS; e++)
		json_writer__put_uint(w, chain__end_name(e), t->ends[e]);
	json_writer__end_object(w);
	json_writer__put_uint(w, "waits", t->waits);
	json_writer__put_uint(w, "wait_ns", t->wait_ns);
	json_writer__put_uint(w, "ran_ns", t->ran_ns);
	json_writer__put_uint(w, "preempted_ns", t->preempted_ns);
	json_writer__put_uint(w, "runnable_ns", t->runnable_ns);
	json_writer__key(w, "rest_ns");
	json_writer__begin_object(w);
	for (int e = 0; e < NR_CHAIN_ENDS; e++)
		json_writer__put_uint(w, chain__end_name(e), t->rest_ns[e]);
	json_writer__end_object(w);
	write_tasks(w, "runnable_behind", &t->holders);
	write_tasks(w, "on_path", &t->wakers);
	json_writer__end_object(w);
}

void json_chains__pair(struct json_writer *w, const struct attach_report *r, const struct attach_pair *p)
{
	if (!r->targets->chains)
		return;
	json_writer__key(w, "chains");
	if (p->chains && p->chains->chained)
		write_totals(w, p->chains);
	else
		json_writer__null(w);
}

void json_chains__run(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;

	if (!r->targets->chains)
		return;
	json_writer__key(w, "chains");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "links", WP_CHAIN_LINKS);
	if (r->chain_check)
		write_check(w, r->chain_check);
	json_writer__key(w, "totals");
	write_totals(w, &g->chains);
	json_writer__key(w, "most_on_path");
	json_writer__begin_array(w);
	for (uint32_t i = 0; i < g->nr_chains_kept; i++) {
		const struct attach_result *o = &g->chains_kept[i];

		json_writer__begin_object(w);
		json_writer__put_uint(w, "seq", o->sr.sample.seq);
		json_writer__put_uint(w, "t_ns", o->sr.t_notify_ns);
		json_writer__put_uint(w, "wakee_tid", o->sr.sample.wakee_tid);
		json_writer__put_strn(w, "wakee_comm", o->wakee_comm, WP_TASK_COMM_LEN);
		json_writer__put_str(w, "mechanism", o->mechanism);
		json_writer__put_uint(w, "wake_to_run_ns", (uint64_t)o->wake_to_run_ns);
		json_writer__key(w, "chain");
		write_chain(w, stacks_of(r), &o->chain);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__end_object(w);
}
