// SPDX-License-Identifier: GPL-2.0
/*
 * test_cgroup_stats.c - complete wakeups by cgroup: each under its
 * wakee's label, its run-queue wait put down to the holder (idle, its own
 * cgroup, a neighbour), its waker's cgroup and mechanism paired with it;
 * a wakeup that is not complete or came without cgroups counted nowhere;
 * two cgroups of one label (a service made anew, a container under either
 * driver's path) going on in one series; a cgroup named with the keys'
 * separator forging no label, in the keys or in the metrics' text; and
 * past --top, the rest in "other" with nothing lost.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup_run.h"
#include "cgroup_stats.h"
#include "prom.h"

TestSuite(cgroup_stats, .init = cgroup_run__setup, .fini = cgroup_run__teardown);

static void add(struct attach_result r, int times)
{
	for (int i = 0; i < times; i++)
		cgroup_stats__add(cg_stats, &r);
}

/* find - the data of the series of @cap whose key is @key; NULL: none */
static const void *find(const struct series_cap *cap, const char *key)
{
	for (size_t i = 0; i < series_cap__count(cap); i++)
		if (!strcmp(series_cap__key(cap, i), key))
			return series_cap__data(cap, i);
	return NULL;
}

static const struct cgroup_series *cgroup(const char *label)
{
	return find(cg_stats->cgroups, label);
}

Test(cgroup_stats, the_run_queue_wait_is_put_down_to_the_cgroup_that_held_the_cpu)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	uint64_t batch = cgroup_run__dir("system.slice/batch.service");
	const struct holder_series *h;
	char key[SERIES_KEY_LEN];

	cg_stats = cgroup_stats__new(cg_names, 20);
	add(cgroup_run__wakeup(web, web, 0, 10000, 4000), 2);		/* the CPU was idle */
	add(cgroup_run__wakeup(web, web, web, 20000, 15000), 1);	/* its own cgroup held it */
	add(cgroup_run__wakeup(web, 0, batch, 90000, 80000), 1);	/* a neighbour held it; an interrupt woke it */
	cr_assert_eq(cg_stats->wakeups, 4);
	cr_assert_eq(cgroup("web.service")->wake_to_run.count, 4);
	cr_assert_eq(cgroup("web.service")->runq_wait_ns, 103000);
	cr_assert_eq(cgroup("web.service")->idle_ns, 8000);
	cr_assert_eq(cgroup("web.service")->neighbour_ns, 80000);
	cr_assert_eq(cg_stats->neighbour_ns, 80000);
	snprintf(key, sizeof(key), "web.service%cbatch.service", CGROUP_STATS_SEP);
	h = find(cg_stats->holders, key);
	cr_assert_not_null(h);
	cr_assert_eq(h->runq_wait_ns, 80000);
	snprintf(key, sizeof(key), "web.service%c" CGROUP_IDLE_LABEL, CGROUP_STATS_SEP);
	cr_assert_eq(((const struct holder_series *)find(cg_stats->holders, key))->wakeups, 2);
	snprintf(key, sizeof(key), CGROUP_IRQ_LABEL "%cweb.service%cfutex", CGROUP_STATS_SEP, CGROUP_STATS_SEP);
	cr_assert_eq(((const struct pair_series *)find(cg_stats->pairs, key))->wake_to_run_ns, 90000);
	cr_assert_eq(cg_stats->by_family[MECH_FUTEX].wakeups, 4);
}

Test(cgroup_stats, a_wakeup_not_complete_or_without_its_cgroups_counts_nowhere)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	struct attach_result r = cgroup_run__wakeup(web, web, web, 1000, 500);

	cg_stats = cgroup_stats__new(cg_names, 20);
	r.sr.label = LABEL_MISSING_EVENT;
	add(r, 1);
	r = cgroup_run__wakeup(web, web, web, 1000, 500);
	r.cgrouped = false;
	add(r, 1);
	cr_assert_eq(cg_stats->wakeups, 0);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 0);
}

Test(cgroup_stats, two_cgroups_of_one_label_go_on_in_one_series)
{
	/* one container, under either driver's path: the series is the label's, whatever the id */
	uint64_t scope = cgroup_run__dir("system.slice/"
					 "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope");
	uint64_t bare;

	cgroup_run__dir("docker");
	bare = cgroup_run__dir("docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	cr_assert_neq(scope, bare);
	cg_stats = cgroup_stats__new(cg_names, 20);
	add(cgroup_run__wakeup(scope, scope, scope, 1000, 100), 3);
	add(cgroup_run__wakeup(bare, bare, bare, 1000, 100), 2);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 1);
	cr_assert_eq(cgroup("docker:0123456789ab")->wake_to_run.count, 5);
}

Test(cgroup_stats, past_the_top_the_rest_go_to_other_and_no_wakeup_is_lost)
{
	uint64_t total = 0, ids[10];
	char rel[64];

	cg_stats = cgroup_stats__new(cg_names, 3);
	/* all made before the first is named: a tree that is not kernfs is walked once in a while */
	for (int i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "system.slice/app%d.service", i);
		ids[i] = cgroup_run__dir(rel);
	}
	for (int i = 0; i < 10; i++)
		add(cgroup_run__wakeup(ids[i], ids[i], ids[i], 1000 * (uint64_t)(i + 1), 10), i + 1);
	cr_assert_eq(series_cap__count(cg_stats->cgroups), 3);
	for (size_t i = 0; i < series_cap__count(cg_stats->cgroups); i++)
		total += ((const struct cgroup_series *)series_cap__data(cg_stats->cgroups, i))->wake_to_run.count;
	total += ((const struct cgroup_series *)series_cap__other(cg_stats->cgroups))->wake_to_run.count;
	cr_assert_eq(total, 55);
}

Test(cgroup_stats, a_key_of_three_labels_splits_back_into_them)
{
	char key[64], buf[64];
	const char *parts[3];

	snprintf(key, sizeof(key), "a%cb%cc", CGROUP_STATS_SEP, CGROUP_STATS_SEP);
	cr_assert_eq(cgroup_stats__split(key, buf, sizeof(buf), parts, 3), 3);
	cr_assert_str_eq(parts[0], "a");
	cr_assert_str_eq(parts[1], "b");
	cr_assert_str_eq(parts[2], "c");
	cr_assert_eq(cgroup_stats__split("solo", buf, sizeof(buf), parts, 3), 1);
	cr_assert_str_eq(parts[0], "solo");
}

/* prom_value - the label value from @v (past its opening quote) read back, into @out; past its closing quote */
static const char *prom_value(const char *v, char *out)
{
	for (; *v && *v != '"'; v++) {
		if (*v == '\\') {
			v++;
			*out++ = *v == 'n' ? '\n' : *v;
		} else {
			*out++ = *v;
		}
	}
	*out = '\0';
	return *v ? v + 1 : v;
}

/*
 * A cgroup's name is its maker's (anyone with a delegated subtree): one
 * named "evil<0x1f>nginx.service" would make the key of its wakeups held
 * by an idle CPU "evil", "nginx.service", "idle", and the series read as
 * nginx.service holding the CPU. Its label escapes the byte, so that every
 * key splits back into the labels it was made of, and the metrics' text
 * that names them stays one valid line a sample.
 */
Test(cgroup_stats, a_cgroup_named_with_the_separator_forges_no_label)
{
	uint64_t evil = cgroup_run__dir("evil\x1fnginx.service"), web = cgroup_run__dir("system.slice/web.service");
	char evil_label[CGROUP_LABEL_LEN], buf[SERIES_KEY_LEN], *text = NULL, value[SERIES_KEY_LEN];
	const char *parts[4], *line;
	size_t len, samples = 0;
	FILE *f;

	cg_stats = cgroup_stats__new(cg_names, 20);
	add(cgroup_run__wakeup(evil, evil, 0, 10000, 4000), 1);	/* woken by itself, on an idle CPU */
	add(cgroup_run__wakeup(web, evil, evil, 20000, 9000), 1);	/* web, woken by it, and its CPU held by it */
	snprintf(evil_label, sizeof(evil_label), "%s", cgroup_names__get(cg_names, evil)->label);
	cr_assert_str_eq(evil_label, "evil\\x1fnginx.service");

	cr_assert_eq(series_cap__count(cg_stats->holders), 2);
	for (size_t i = 0; i < series_cap__count(cg_stats->holders); i++) {
		const char *key = series_cap__key(cg_stats->holders, i);

		cr_assert_eq(cgroup_stats__split(key, buf, sizeof(buf), parts, 4), 2, "the key %s", key);
		cr_expect(!strcmp(parts[0], evil_label) || !strcmp(parts[0], "web.service"), "wakee %s", parts[0]);
		cr_expect(!strcmp(parts[1], evil_label) || !strcmp(parts[1], CGROUP_IDLE_LABEL), "holder %s", parts[1]);
	}
	cr_assert_eq(series_cap__count(cg_stats->pairs), 2);
	for (size_t i = 0; i < series_cap__count(cg_stats->pairs); i++) {
		const char *key = series_cap__key(cg_stats->pairs, i);

		cr_assert_eq(cgroup_stats__split(key, buf, sizeof(buf), parts, 4), 3, "the key %s", key);
		cr_expect_str_eq(parts[0], evil_label);
		cr_expect(!strcmp(parts[1], evil_label) || !strcmp(parts[1], "web.service"), "wakee %s", parts[1]);
		cr_expect_str_eq(parts[2], "futex");
	}

	/* the holders as the metrics write them: a line a series, whose labels read back as the key's */
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	for (size_t i = 0; i < series_cap__count(cg_stats->holders); i++) {
		struct prom_labels ls = { .n = 0 };

		cgroup_stats__series(cg_stats->holders, i, buf, sizeof(buf), parts, 2);
		prom__label(&ls, "cgroup", parts[0]);
		prom__label(&ls, "holder", parts[1]);
		prom__uint(f, "wakeprobe_cgroup_runq_wait_held_total", &ls, 1);
	}
	cr_assert_eq(fclose(f), 0);
	for (line = text; line && *line; samples++) {
		const char *nl = strchr(line, '\n');

		cr_assert_not_null(nl);
		for (const char *b = line; b < nl; b++)
			cr_assert((unsigned char)*b >= 0x20 && *b != 0x7f, "a control byte in: %.*s", (int)(nl - line),
				  line);
		cgroup_stats__series(cg_stats->holders, samples, buf, sizeof(buf), parts, 2);
		cr_assert_not_null(strstr(line, "cgroup=\""));
		line = prom_value(strstr(line, "cgroup=\"") + strlen("cgroup=\""), value);
		cr_expect_str_eq(value, parts[0]);
		line = prom_value(strstr(line, "holder=\"") + strlen("holder=\""), value);
		cr_expect_str_eq(value, parts[1]);
		line = nl + 1;
	}
	cr_expect_eq(samples, series_cap__count(cg_stats->holders));
	/* and OpenMetrics, made from the text as a scrape that asks for it gets it, takes every line */
	f = fopen("/dev/null", "w");
	cr_assert_not_null(f);
	cr_expect_eq(prom__to_openmetrics(text, len, f), 0);
	fclose(f);
	free(text);
}

/*
 * --chains: a client of web.service waits on a worker of web.service
 * (tid 30) that waited for its CPU behind a task of batch.service (tid
 * 99), after a dispatcher of app.service (tid 20) woke it: batch held the
 * client's critical path for the worker's wait, app for the dispatcher's
 * run; web's own worker and a holder no record named are not another
 * cgroup's
 */
Test(cgroup_stats, the_time_other_cgroups_held_on_a_wakees_critical_path_is_put_down_to_them)
{
	uint64_t web = cgroup_run__dir("system.slice/web.service");
	uint64_t batch = cgroup_run__dir("system.slice/batch.service");
	uint64_t app = cgroup_run__dir("system.slice/app.service");
	struct attach_result seen, r = cgroup_run__wakeup(web, web, 0, 10000, 4000);
	const struct chain_held_series *h;
	char key[SERIES_KEY_LEN];

	cg_stats = cgroup_stats__new(cg_names, 20);
	cr_assert_eq(cgroup_stats__want_chains(cg_stats), 0);
	/* the records name the tasks: the worker woken by the dispatcher, taking its CPU from the batch task */
	seen = cgroup_run__wakeup(web, app, batch, 4000000, 3900000);
	seen.sr.sample.wakee_tid = 30;
	seen.sr.sample.waker_tid = 20;
	seen.cgroups.holder_tid = 99;
	add(seen, 1);
	r.sr.sample.wakee_tid = 10;
	r.sr.sample.waker_tid = 30;
	r.chained = true;
	r.chain.nr_hops = 3;
	r.chain.hops[0] = (struct chain_hop){ .waker_tid = 30, .kind = WP_LINK_THREAD, .run_seen = true,
					      .ran_ns = 50000, .runnable_ns = 3900000, .holder_tid = 99 };
	r.chain.hops[1] = (struct chain_hop){ .waker_tid = 20, .kind = WP_LINK_THREAD, .run_seen = true,
					      .ran_ns = 15000, .runnable_ns = 5000, .holder_tid = 77 };
	r.chain.hops[2] = (struct chain_hop){ .waker_tid = 10, .kind = WP_LINK_THREAD };
	add(r, 2);
	snprintf(key, sizeof(key), "web.service%cbatch.service", CGROUP_STATS_SEP);
	h = find(cg_stats->chain_held, key);
	cr_assert_not_null(h);
	cr_assert_eq(h->runnable_ns, 2 * 3900000);
	cr_assert_eq(h->ran_ns, 0);
	snprintf(key, sizeof(key), "web.service%capp.service", CGROUP_STATS_SEP);
	h = find(cg_stats->chain_held, key);
	cr_assert_not_null(h);
	cr_assert_eq(h->ran_ns, 2 * 15000);
	/* tid 77 was named by no record: its wait is put down to "unknown", never to web itself */
	snprintf(key, sizeof(key), "web.service%cunknown", CGROUP_STATS_SEP);
	cr_assert_eq(((const struct chain_held_series *)find(cg_stats->chain_held, key))->runnable_ns, 2 * 5000);
	snprintf(key, sizeof(key), "web.service%cweb.service", CGROUP_STATS_SEP);
	cr_assert_null(find(cg_stats->chain_held, key));
	/* without --chains the family is not kept */
	cgroup_stats__free(cg_stats);
	cg_stats = cgroup_stats__new(cg_names, 20);
	add(r, 1);
	cr_assert_null(cg_stats->chain_held);
}
