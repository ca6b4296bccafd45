// SPDX-License-Identifier: GPL-2.0
/* csv_attach.c - one RFC 4180 row per attach-mode wakeup, streamed */
#include <stdlib.h>
#include <string.h>
#include "csv_cells.h"
#include "csv_attach.h"
#include "mechanism.h"

/* the phases attach mode measures: there are no stamps inside the program for the user ones */
#define FIRST_KERNEL_PHASE	PHASE_NOTIFY_KERNEL
#define LAST_KERNEL_PHASE	PHASE_RESUME_KERNEL

struct csv_attach {
	FILE *out;
};

struct csv_attach *csv_attach__open(FILE *out)
{
	struct csv_attach *c = calloc(1, sizeof(*c));
	int k;

	if (!c)
		return NULL;
	c->out = out;
	fputs("seq,t_ns,total_ns,label,missing_mark,waker_class,waker,waker_tid,waker_tgid,wakee_tid,wakee_tgid,"
	      "wakee_comm,mechanism,family,notify_nr,wait_nr", out);
	for (k = FIRST_KERNEL_PHASE; k <= LAST_KERNEL_PHASE; k++)
		fprintf(out, ",%s_ns,%s_absent", wakeup__phase_name(k), wakeup__phase_name(k));
	fputs(",wake_to_run_ns,notify_to_return_ns,waited_ns,waking_cpu,wakeup_cpu,target_cpu,target_was_idle,"
	      "idle_exit_ns,migrations", out);
	for (k = 0; k < NR_CAUSES; k++)
		fprintf(out, ",cause_%s_ns", wakeup__cause_name(k));
	fputs(",chain_wait_ns,chain_on_path_ns,chain_end,chain_rest_ns", out);
	for (k = 1; k <= CHAIN_HOPS; k++)
		fprintf(out, ",hop%d_waker_tid,hop%d_waker_comm,hop%d_ran_ns,hop%d_runnable_ns,hop%d_holder_tid,"
			"hop%d_holder_comm", k, k, k, k, k, k);
	fputs(CSV_EOL, out);
	return c;
}

/* comm_cell - @comm as a cell, or an empty one (@has false): it fills its 16 bytes without a NUL when it is that long */
static void comm_cell(struct csv_row *row, bool has, const char comm[WP_TASK_COMM_LEN])
{
	char s[WP_TASK_COMM_LEN + 1] = "";

	if (has)
		memcpy(s, comm, WP_TASK_COMM_LEN);
	s[WP_TASK_COMM_LEN] = '\0';
	csv_row__str(row, s);
}

/* add_chain - --chains: @r's chain (chain.h), its hops in order; every cell empty without one */
static void add_chain(struct csv_row *row, const struct attach_result *r)
{
	const struct chain *c = &r->chain;

	csv_row__u64(row, r->chained && c->wait_seen, c->wait_ns);
	csv_row__u64(row, r->chained, chain__on_path_ns(c));
	csv_row__str(row, r->chained ? chain__end_name(c->end) : "");
	csv_row__u64(row, r->chained && c->wait_seen, c->rest_ns);
	for (uint32_t i = 0; i < CHAIN_HOPS; i++) {
		const struct chain_hop *h = &c->hops[i];
		bool hop = r->chained && i < c->nr_hops, ran = hop && h->run_seen;

		csv_row__u64(row, hop, h->waker_tid);
		comm_cell(row, hop, h->waker_comm);
		csv_row__u64(row, ran, h->ran_ns);
		csv_row__u64(row, ran, h->runnable_ns);
		/* the task that held its CPU the longest, where flight records tell; else the one it took it from */
		if (ran && h->runnable_explained && h->runnable_task_tid) {
			csv_row__u64(row, true, h->runnable_task_tid);
			comm_cell(row, true, h->runnable_task_comm);
		} else {
			csv_row__u64(row, ran, h->holder_tid);
			comm_cell(row, ran, h->holder_comm);
		}
	}
}

void csv_attach__add(struct csv_attach *c, const struct attach_result *r)
{
	const struct sample_result *sr = &r->sr;
	bool complete = sr->label == LABEL_COMPLETE;
	bool thread = mechanism__waker_has_task(&r->waker);
	bool waking = r->mark_seen[MARK_WAKING];
	char waker[MECHANISM_NAME_LEN];
	struct csv_row row;
	int k;

	csv_row__begin(&row, c->out);
	csv_row__u64(&row, true, sr->sample.seq);
	csv_row__u64(&row, true, sr->t_notify_ns);
	csv_row__i64(&row, true, sr->total_ns);
	csv_row__str(&row, wakeup__label_name(sr->label));
	csv_row__str(&row, sr->label == LABEL_MISSING_EVENT ? wakeup__mark_name(sr->missing) : "");
	csv_row__str(&row, mechanism__waker_class_name(r->waker.cls));
	mechanism__waker_name(&r->waker, waker, sizeof(waker));
	csv_row__str(&row, waker);
	csv_row__u64(&row, thread, r->waker.tid);
	csv_row__u64(&row, thread && r->waker.tgid, r->waker.tgid);
	csv_row__u64(&row, true, sr->sample.wakee_tid);
	csv_row__u64(&row, r->wakee_tgid, r->wakee_tgid);
	comm_cell(&row, true, r->wakee_comm);
	csv_row__str(&row, r->mechanism);
	csv_row__str(&row, mechanism__family_name(r->family));
	csv_row__i64(&row, r->waker.cls == WP_WAKER_SYSCALL, r->waker.nr);
	csv_row__i64(&row, r->wait.known && r->wait.nr >= 0, r->wait.nr);
	for (k = FIRST_KERNEL_PHASE; k <= LAST_KERNEL_PHASE; k++) {
		bool present = complete && r->absent[k] == ATTACH_PRESENT;

		csv_row__i64(&row, present, sr->phase_ns[k]);
		csv_row__str(&row, present ? "" : attach__absence_name(r->absent[k]));
	}
	csv_row__i64(&row, r->wake_to_run_ns >= 0, r->wake_to_run_ns);
	csv_row__i64(&row, r->notify_to_return_ns >= 0, r->notify_to_return_ns);
	csv_row__i64(&row, r->waited_ns >= 0, r->waited_ns);
	csv_row__u64(&row, waking, sr->waking_cpu);
	csv_row__u64(&row, r->mark_seen[MARK_WAKEUP], sr->wakeup_cpu);
	csv_row__u64(&row, waking, sr->target_cpu);
	/*
	 * the lean engine sees idle CPUs only with its flight recorder, and causes only
	 * in the flight records a slow wakeup brought: empty, not 0
	 */
	csv_row__u64(&row, waking && (!sr->lean || r->idle_seen), sr->target_was_idle);
	csv_row__i64(&row, sr->idle_exit_seen, sr->idle_exit_ns);
	csv_row__u64(&row, true, r->migrations);
	for (k = 0; k < NR_CAUSES; k++)
		csv_row__i64(&row, complete && (!sr->lean || sr->lean_flight), sr->why.by_cause[k]);
	add_chain(&row, r);
	csv_row__end(&row);
}

int csv_attach__close(struct csv_attach *c)
{
	int err;

	if (!c)
		return 0;
	err = csv_cells__flush(c->out);
	free(c);
	return err;
}
