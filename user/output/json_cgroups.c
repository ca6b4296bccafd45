// SPDX-License-Identifier: GPL-2.0
/* json_cgroups.c - the wakeups by cgroup, holder and waker cgroup, as JSON (json_cgroups.h) */
#include "json_cgroups.h"
#include "mechanism.h"

/* write_keyed - @key: the series of @cap, each with its key's parts named @names, then @write's, other last */
static void write_keyed(struct json_writer *w, const char *key, const struct series_cap *cap,
			const char *const *names, size_t nr_names,
			void (*write)(struct json_writer *w, const void *data))
{
	char buf[SERIES_KEY_LEN];
	const char *parts[3];

	json_writer__key(w, key);
	json_writer__begin_array(w);
	for (size_t i = 0; i <= series_cap__count(cap); i++) {
		const void *data = cgroup_stats__series(cap, i, buf, sizeof(buf), parts, nr_names);

		json_writer__begin_object(w);
		for (size_t k = 0; k < nr_names; k++)
			json_writer__put_str(w, names[k], parts[k]);
		write(w, data);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}

static void write_cgroup(struct json_writer *w, const void *data)
{
	const struct cgroup_series *c = data;
	const struct slow_hist *h = &c->wake_to_run;

	json_writer__put_uint(w, "wakeups", h->count);
	json_writer__key(w, "wake_to_run");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "p50_ns", slow_hist__percentile(h, 50));
	json_writer__put_uint(w, "p90_ns", slow_hist__percentile(h, 90));
	json_writer__put_uint(w, "p99_ns", slow_hist__percentile(h, 99));
	json_writer__put_uint(w, "max_ns", h->max_ns);
	json_writer__put_uint(w, "total_ns", h->sum_ns);
	json_writer__end_object(w);
	json_writer__put_uint(w, "runq_wait_ns", c->runq_wait_ns);
	json_writer__put_uint(w, "neighbour_ns", c->neighbour_ns);
	json_writer__put_uint(w, "idle_ns", c->idle_ns);
}

static void write_holder(struct json_writer *w, const void *data)
{
	const struct holder_series *h = data;

	json_writer__put_uint(w, "wakeups", h->wakeups);
	json_writer__put_uint(w, "runq_wait_ns", h->runq_wait_ns);
}

static void write_chain_held(struct json_writer *w, const void *data)
{
	const struct chain_held_series *h = data;

	json_writer__put_uint(w, "ran_ns", h->ran_ns);
	json_writer__put_uint(w, "runnable_ns", h->runnable_ns);
}

static void write_pair(struct json_writer *w, const void *data)
{
	const struct pair_series *p = data;

	json_writer__put_uint(w, "wakeups", p->wakeups);
	json_writer__put_uint(w, "wake_to_run_ns", p->wake_to_run_ns);
}

/* write_retired - the wakeups of keys that lost their row to a key with more time: in none of the rows below */
static void write_retired(struct json_writer *w, const struct cgroup_stats *s)
{
	const struct series_cap *caps[] = { s->cgroups, s->holders, s->pairs };
	static const char *const names[] = { "by_cgroup", "holders", "pairs" };
	struct series_cap_stats st;

	json_writer__key(w, "retired");
	json_writer__begin_object(w);
	for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
		series_cap__stats(caps[k], &st);
		json_writer__put_uint(w, names[k], st.retired);
	}
	json_writer__end_object(w);
}

void json_cgroups__write(struct json_writer *w, const struct cgroup_stats *s)
{
	static const char *const cgroup[] = { "cgroup" };
	static const char *const holder[] = { "cgroup", "holder" };
	static const char *const pair[] = { "waker_cgroup", "cgroup", "mechanism" };
	struct cgroup_names_stats ns;

	if (!s)
		return;
	cgroup_names__stats(s->names, &ns);
	json_writer__key(w, "cgroups");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "series_limit", series_cap__limit(s->cgroups));
	json_writer__put_uint(w, "wakeups", s->wakeups);
	json_writer__put_uint(w, "runq_wait_ns", s->runq_wait_ns);
	json_writer__put_uint(w, "neighbour_ns", s->neighbour_ns);
	json_writer__put_uint(w, "unnamed", ns.unknown);
	write_retired(w, s);
	write_keyed(w, "by_cgroup", s->cgroups, cgroup, 1, write_cgroup);
	write_keyed(w, "holders", s->holders, holder, 2, write_holder);
	write_keyed(w, "pairs", s->pairs, pair, 3, write_pair);
	if (s->chain_held)
		write_keyed(w, "chain_held", s->chain_held, holder, 2, write_chain_held);
	json_writer__key(w, "mechanisms");
	json_writer__begin_array(w);
	for (unsigned int m = 0; m < NR_MECH_FAMILIES; m++) {
		if (!s->by_family[m].wakeups)
			continue;
		json_writer__begin_object(w);
		json_writer__put_str(w, "mechanism", mechanism__family_name(m));
		write_pair(w, &s->by_family[m]);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__end_object(w);
}
