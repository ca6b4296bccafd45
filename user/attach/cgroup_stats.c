// SPDX-License-Identifier: GPL-2.0
/* cgroup_stats.c - complete wakeups by wakee cgroup, by holder, by waker cgroup (cgroup_stats.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup_stats.h"

static struct series_cap *cap_of(uint32_t top, size_t data_size)
{
	struct series_cap_opts o = { .limit = top, .data_size = data_size };

	return series_cap__new(&o);
}

struct cgroup_stats *cgroup_stats__new(struct cgroup_names *names, uint32_t top)
{
	struct cgroup_stats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->names = names;
	s->cgroups = cap_of(top, sizeof(struct cgroup_series));
	s->holders = cap_of(top, sizeof(struct holder_series));
	s->pairs = cap_of(top, sizeof(struct pair_series));
	if (!s->cgroups || !s->holders || !s->pairs) {
		cgroup_stats__free(s);
		return NULL;
	}
	return s;
}

void cgroup_stats__free(struct cgroup_stats *s)
{
	if (!s)
		return;
	series_cap__free(s->cgroups);
	series_cap__free(s->holders);
	series_cap__free(s->pairs);
	free(s);
}

/*
 * label_of - the label of cgroup @id, or @none for id 0, copied into @buf
 * (the names' table may start afresh at the next look-up); its hash into
 * @hash when asked
 */
static const char *label_of(struct cgroup_stats *s, uint64_t id, const char *none, char *buf, uint64_t *hash)
{
	const struct cgroup_name *c = id ? cgroup_names__get(s->names, id) : NULL;

	snprintf(buf, CGROUP_LABEL_LEN, "%s", c ? c->label : id ? "unknown" : none);
	if (hash)
		*hash = c ? c->hash : series_cap__hash(buf);
	return buf;
}

/* joined - @a, @b and @c (NULL: two) into one key @buf, CGROUP_STATS_SEP between */
static const char *joined(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	if (c)
		snprintf(buf, len, "%s%c%s%c%s", a, CGROUP_STATS_SEP, b, CGROUP_STATS_SEP, c);
	else
		snprintf(buf, len, "%s%c%s", a, CGROUP_STATS_SEP, b);
	return buf;
}

void cgroup_stats__add(struct cgroup_stats *s, const struct attach_result *r)
{
	const struct wp_lean_cgroups *cg = &r->cgroups;
	uint64_t took, runq, hash;
	const char *wakee, *holder, *waker, *family;
	char key[SERIES_KEY_LEN], wakee_buf[CGROUP_LABEL_LEN], holder_buf[CGROUP_LABEL_LEN];
	char waker_buf[CGROUP_LABEL_LEN];
	struct cgroup_series *c;
	struct holder_series *h;
	struct pair_series *p;

	if (!r->cgrouped || r->sr.label != LABEL_COMPLETE || r->wake_to_run_ns < 0)
		return;
	took = (uint64_t)r->wake_to_run_ns;
	runq = r->sr.phase_ns[PHASE_RUNQ_WAIT] > 0 ? (uint64_t)r->sr.phase_ns[PHASE_RUNQ_WAIT] : 0;
	wakee = label_of(s, cg->wakee, "unknown", wakee_buf, &hash);
	holder = label_of(s, cg->holder, CGROUP_IDLE_LABEL, holder_buf, NULL);
	waker = label_of(s, cg->waker, CGROUP_IRQ_LABEL, waker_buf, NULL);
	family = mechanism__family_name(r->family < NR_MECH_FAMILIES ? r->family : MECH_UNKNOWN);

	s->wakeups++;
	s->runq_wait_ns += runq;
	c = series_cap__add(s->cgroups, wakee, hash, took);
	slow_hist__add(&c->wake_to_run, took);
	c->runq_wait_ns += runq;
	if (!cg->holder) {
		c->idle_ns += runq;
	} else if (cg->holder != cg->wakee) {
		c->neighbour_ns += runq;
		s->neighbour_ns += runq;
	}
	joined(key, sizeof(key), wakee, holder, NULL);
	h = series_cap__add(s->holders, key, series_cap__hash(key), runq);
	h->wakeups++;
	h->runq_wait_ns += runq;
	joined(key, sizeof(key), waker, wakee, family);
	p = series_cap__add(s->pairs, key, series_cap__hash(key), took);
	p->wakeups++;
	p->wake_to_run_ns += took;
	if (r->family < NR_MECH_FAMILIES) {
		s->by_family[r->family].wakeups++;
		s->by_family[r->family].wake_to_run_ns += took;
	}
}

void cgroup_stats__settle(struct cgroup_stats *s, uint64_t now_ns)
{
	series_cap__settle(s->cgroups, now_ns);
	series_cap__settle(s->holders, now_ns);
	series_cap__settle(s->pairs, now_ns);
}

size_t cgroup_stats__split(const char *key, char *buf, size_t len, const char **parts, size_t max)
{
	size_t n = 0;
	char *at;

	snprintf(buf, len, "%s", key);
	for (at = buf; n < max; n++) {
		char *sep = strchr(at, CGROUP_STATS_SEP);

		parts[n] = at;
		if (!sep) {
			n++;
			break;
		}
		*sep = '\0';
		at = sep + 1;
	}
	return n;
}
