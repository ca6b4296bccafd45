// SPDX-License-Identifier: GPL-2.0
/* csv_workload.c - one RFC 4180 row per merged sample, streamed */
#include <stdlib.h>
#include "csv_cells.h"
#include "csv_workload.h"

/* longer workload names are cut: the catalog's are a few characters */
#define CSV_WORKLOAD_MAX	64

struct csv_workload {
	FILE *out;
	bool traced;
	char workload[CSV_WORKLOAD_MAX];
};

struct csv_workload *csv_workload__open(FILE *out)
{
	struct csv_workload *c = calloc(1, sizeof(*c));
	int k;

	if (!c)
		return NULL;
	c->out = out;
	c->traced = true;
	fputs("workload,seq,waker_tid,wakee_tid,waker_cpu,wakee_cpu,waking_cpu,target_cpu,t_notify_ns,total_ns", out);
	for (k = 0; k < NR_PHASES; k++)
		fprintf(out, ",%s_ns", wakeup__phase_name(k));
	fputs(",label,missing_mark,target_was_idle,idle_exit_ns,mutex_reacquire_ns,waker_preempted_ns", out);
	for (k = 0; k < NR_CAUSES; k++)
		fprintf(out, ",cause_%s_ns", wakeup__cause_name(k));
	/* the notify and the resume whole */
	fputs(",notify_ns,resume_ns", out);
	fputs(CSV_EOL, out);
	return c;
}

void csv_workload__begin_run(struct csv_workload *c, const char *workload, bool traced)
{
	snprintf(c->workload, sizeof(c->workload), "%s", workload ? workload : "");
	c->traced = traced;
}

/*
 * waking_seen - the sample's sched_waking was found: from there on the
 * merger knows the CPUs of the wake and whether the waker lost its CPU
 */
static bool waking_seen(const struct sample_result *r)
{
	if (r->label == LABEL_MISSING_EVENT && r->missing <= MARK_WAKING)
		return false;
	return r->mark_ns[MARK_WAKING] != 0;
}

void csv_workload__add(struct csv_workload *c, const struct sample_result *r)
{
	bool traced = c->traced;
	bool phased = traced && r->label == LABEL_COMPLETE && r->phased;
	bool waking = traced && waking_seen(r);
	struct csv_row row;
	int k;

	csv_row__begin(&row, c->out);
	csv_row__str(&row, c->workload);
	csv_row__u64(&row, true, r->sample.seq);
	csv_row__u64(&row, true, r->sample.waker_tid);
	csv_row__u64(&row, true, r->sample.wakee_tid);
	csv_row__u64(&row, true, r->sample.waker_cpu);
	csv_row__u64(&row, true, r->sample.wakee_cpu);
	csv_row__u64(&row, waking, r->waking_cpu);
	csv_row__u64(&row, waking, r->target_cpu);
	csv_row__u64(&row, true, r->t_notify_ns);
	csv_row__i64(&row, true, r->total_ns);
	for (k = 0; k < NR_PHASES; k++)
		csv_row__i64(&row, phased, r->phase_ns[k]);
	csv_row__str(&row, traced ? wakeup__label_name(r->label) : "untraced");
	csv_row__str(&row, traced && r->label == LABEL_MISSING_EVENT ? wakeup__mark_name(r->missing) : "");
	csv_row__u64(&row, waking && !r->lean, r->target_was_idle);
	csv_row__i64(&row, traced && r->idle_exit_seen, r->idle_exit_ns);
	/* measured on every phased sample: 0 when the wakee did not block again */
	csv_row__i64(&row, phased && !r->lean, r->rewait_seen ? r->rewait_ns : 0);
	csv_row__i64(&row, waking && !r->lean, r->waker_preempted ? r->waker_preempted_ns : 0);
	/* where its time went (explain.h), on the phased samples; a lean one's if its flight records came */
	for (k = 0; k < NR_CAUSES; k++)
		csv_row__i64(&row, phased && (!r->lean || r->lean_flight), r->why.by_cause[k]);
	csv_row__i64(&row, phased, r->phase_ns[PHASE_NOTIFY_USER] + r->phase_ns[PHASE_NOTIFY_KERNEL]);
	csv_row__i64(&row, phased, r->phase_ns[PHASE_RESUME_KERNEL] + r->phase_ns[PHASE_RESUME_USER]);
	csv_row__end(&row);
}

int csv_workload__close(struct csv_workload *c)
{
	int err;

	if (!c)
		return 0;
	err = csv_cells__flush(c->out);
	free(c);
	return err;
}
