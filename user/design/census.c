// SPDX-License-Identifier: GPL-2.0
/* census.c - a throughput workload's wakeups by kind, and its threads' CPU time by name */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "census.h"

struct census *census__new(void)
{
	struct census *c = calloc(1, sizeof(*c));

	return c;
}

void census__free(struct census *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nr_kinds; i++)
		free(c->kinds[i]);
	free(c);
}

static bool traced_process(const struct census *c, uint32_t tgid)
{
	for (uint32_t i = 0; i < c->nr_procs; i++)
		if (c->procs[i] == tgid)
			return true;
	return false;
}

void census__process(struct census *c, uint32_t tgid)
{
	if (!tgid || traced_process(c, tgid))
		return;
	if (c->nr_procs == CENSUS_MAX_PROCS) {
		c->procs_untabled++;
		return;
	}
	c->procs[c->nr_procs++] = tgid;
}

/* name_index - the row of thread name @comm, made if new; -1 when the table is full */
static int32_t name_index(struct census *c, const char *comm)
{
	for (uint32_t i = 0; i < c->nr_names; i++)
		if (!strncmp(c->names[i].comm, comm, WP_TASK_COMM_LEN))
			return (int32_t)i;
	if (c->nr_names == CENSUS_MAX_NAMES)
		return -1;
	memcpy(c->names[c->nr_names].comm, comm, WP_TASK_COMM_LEN);
	c->names[c->nr_names].comm[WP_TASK_COMM_LEN - 1] = '\0';
	return (int32_t)c->nr_names++;
}

/* leave - the traced thread on @slot left its CPU at @ts: its time there is counted */
static void leave(struct census *c, struct census_cpu *slot, uint64_t ts)
{
	uint64_t ns = ts > slot->since_ns ? ts - slot->since_ns : 0;

	if (slot->name >= 0)
		c->names[slot->name].cpu_ns += ns;
	else
		c->names_untabled_ns += ns;
	slot->tid = 0;
}

static void on_switch(struct census *c, const struct wp_event *e)
{
	struct census_cpu *slot = &c->cpu[e->cpu];
	const struct wp_switch *sw = &e->sw;

	if (slot->tid && slot->tid == sw->prev_tid) {
		if ((sw->prev_state & WP_TASK_DEAD) && slot->name >= 0)
			c->names[slot->name].ended++;
		leave(c, slot, e->ts_ns);
	} else if (slot->tid) {
		/* another thread left: the switch-out of the one here was lost */
		c->unseen_slices++;
		slot->tid = 0;
	}
	if (!sw->next_tid || !traced_process(c, sw->next_tgid))
		return;
	slot->tid = sw->next_tid;
	slot->since_ns = e->ts_ns;
	slot->name = name_index(c, sw->next_comm);
	if (slot->name >= 0)
		c->names[slot->name].slices++;
}

void census__event(struct census *c, const struct wp_event *e)
{
	if (e->cpu >= WP_MAX_CPUS)
		return;
	switch (e->type) {
	case WP_EV_SWITCH:
		on_switch(c, e);
		break;
	case WP_EV_FORK:
		if (traced_process(c, e->fork.parent_tgid))
			census__process(c, e->fork.child_tgid);
		break;
	default:
		break;
	}
}

static bool same_kind(const struct census_kind *k, const char *waker, const char *wakee, const char *mechanism)
{
	return !strcmp(k->waker, waker) && !strncmp(k->wakee, wakee, WP_TASK_COMM_LEN) &&
	       !strcmp(k->mechanism, mechanism);
}

void census__result(struct census *c, const struct attach_result *r)
{
	char waker[MECHANISM_NAME_LEN], mechanism[MECHANISM_NAME_LEN], wakee[WP_TASK_COMM_LEN];
	struct census_kind *k = NULL;

	c->wakeups++;
	mechanism__waker_kind(&r->waker, waker, sizeof(waker));
	/* a lean wakeup without its names has no wait: its mechanism is the waker's kind alone (attach_lean.c) */
	if (r->sr.lean && !r->named)
		snprintf(mechanism, sizeof(mechanism), "%s", r->mechanism);
	else
		mechanism__kind(&r->waker, &r->wait, mechanism, sizeof(mechanism));
	memcpy(wakee, r->wakee_comm, sizeof(wakee));
	wakee[sizeof(wakee) - 1] = '\0';
	for (uint32_t i = 0; i < c->nr_kinds && !k; i++)
		if (same_kind(c->kinds[i], waker, wakee, mechanism))
			k = c->kinds[i];
	if (!k && c->nr_kinds < CENSUS_MAX_KINDS && (k = calloc(1, sizeof(*k)))) {
		snprintf(k->waker, sizeof(k->waker), "%s", waker);
		memcpy(k->wakee, wakee, sizeof(k->wakee));
		snprintf(k->mechanism, sizeof(k->mechanism), "%s", mechanism);
		k->family = r->family;
		histogram__init(&k->wake_to_run);
		c->kinds[c->nr_kinds++] = k;
	}
	if (!k) {
		c->kinds_untabled++;
		return;
	}
	k->wakeups++;
	if (r->sr.label == LABEL_COMPLETE && r->wake_to_run_ns >= 0) {
		k->complete++;
		histogram__add(&k->wake_to_run, (uint64_t)r->wake_to_run_ns);
	}
}

void census__end(struct census *c, uint64_t end_ns)
{
	for (uint32_t cpu = 0; cpu < WP_MAX_CPUS; cpu++)
		if (c->cpu[cpu].tid)
			leave(c, &c->cpu[cpu], end_ns);
}

static int by_wakeups(const void *a, const void *b)
{
	const struct census_kind *x = *(const struct census_kind *const *)a;
	const struct census_kind *y = *(const struct census_kind *const *)b;
	int d;

	if (x->wakeups != y->wakeups)
		return x->wakeups > y->wakeups ? -1 : 1;
	if ((d = strcmp(x->waker, y->waker)))
		return d;
	if ((d = strcmp(x->wakee, y->wakee)))
		return d;
	return strcmp(x->mechanism, y->mechanism);
}

size_t census__kinds(const struct census *c, const struct census_kind **out, size_t max)
{
	const struct census_kind *all[CENSUS_MAX_KINDS];
	size_t n = c->nr_kinds;

	memcpy(all, c->kinds, n * sizeof(all[0]));
	qsort(all, n, sizeof(all[0]), by_wakeups);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(all[0]));
	return n;
}

static int by_cpu(const void *a, const void *b)
{
	const struct census_name *x = *(const struct census_name *const *)a;
	const struct census_name *y = *(const struct census_name *const *)b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns > y->cpu_ns ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

size_t census__names(const struct census *c, const struct census_name **out, size_t max)
{
	const struct census_name *all[CENSUS_MAX_NAMES];
	size_t n = c->nr_names;

	for (size_t i = 0; i < n; i++)
		all[i] = &c->names[i];
	qsort(all, n, sizeof(all[0]), by_cpu);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(all[0]));
	return n;
}

uint64_t census__cpu_ns(const struct census *c)
{
	uint64_t ns = c->names_untabled_ns;

	for (uint32_t i = 0; i < c->nr_names; i++)
		ns += c->names[i].cpu_ns;
	return ns;
}
