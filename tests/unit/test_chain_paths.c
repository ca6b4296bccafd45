// SPDX-License-Identifier: GPL-2.0
/*
 * test_chain_paths.c - the critical paths' time by who held it: a chain's
 * wait split into its hops' runs (by their stacks), their waits for a CPU
 * (by their holders) and the rest (by the end), adding up to the wait;
 * the same paths summed; a chain whose wait was not seen left out; past
 * the rows kept, the time in other.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chain_paths.h"

static struct chain_paths *p;

static void setup(void)
{
	p = calloc(1, sizeof(*p));
	cr_assert_not_null(p);
}

static void teardown(void)
{
	free(p);
}

TestSuite(chain_paths, .init = setup, .fini = teardown);

/* relay - the client's 5000 us wait: the worker ran 50 us, behind the hog 4000; the dispatcher 15, idle 5; rest */
static struct chain relay(int32_t worker_user)
{
	struct chain c = { .wait_seen = true, .wait_ns = 5000000, .nr_hops = 2, .end = CHAIN_END_INTERRUPT,
			   .rest_ns = 930000 };

	c.hops[0] = (struct chain_hop){ .waker_tid = 30, .kind = WP_LINK_THREAD, .run_seen = true, .ran_ns = 50000,
					.runnable_ns = 4000000, .holder_tid = 99, .stacked = true, .waker_user = worker_user,
					.waker_kernel = 7, .waker_tgid = 10 };
	c.hops[1] = (struct chain_hop){ .waker_tid = 20, .kind = WP_LINK_THREAD, .run_seen = true, .ran_ns = 15000,
					.runnable_ns = 5000 };
	strcpy(c.hops[0].waker_comm, "relay-work");
	strcpy(c.hops[0].holder_comm, "wphog");
	strcpy(c.hops[1].waker_comm, "relay-disp");
	return c;
}

static const struct chain_path *row(enum chain_path_part part, const char *who, const char *behind)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->rows[i].part == part && !strcmp(p->rows[i].who, who) && !strcmp(p->rows[i].behind, behind))
			return &p->rows[i];
	return NULL;
}

Test(chain_paths, a_wait_is_split_into_its_hops_runs_and_waits_and_the_rest_adding_up_to_it)
{
	struct chain c = relay(5);
	uint64_t sum = 0;

	chain_paths__add(p, "relay-client", &c);
	chain_paths__add(p, "relay-client", &c);
	for (uint32_t i = 0; i < p->n; i++)
		sum += p->rows[i].ns;
	cr_assert_eq(sum, 2 * c.wait_ns, "the paths hold the waits whole");
	cr_assert_eq(row(CHAIN_PATH_RAN, "relay-work", "")->ns, 2 * 50000);
	cr_assert(row(CHAIN_PATH_RAN, "relay-work", "")->stacked);
	cr_assert_eq(row(CHAIN_PATH_RAN, "relay-work", "")->waker_user, 5);
	cr_assert_eq(row(CHAIN_PATH_WAITED, "relay-work", "wphog")->ns, 2 * 4000000);
	cr_assert_eq(row(CHAIN_PATH_WAITED, "relay-disp", "")->ns, 2 * 5000, "an idle CPU: no holder");
	cr_assert_not(row(CHAIN_PATH_RAN, "relay-disp", "")->stacked);
	cr_assert_eq(row(CHAIN_PATH_REST, "", "")->ns, 2 * 930000);
	cr_assert_eq(row(CHAIN_PATH_REST, "", "")->end, CHAIN_END_INTERRUPT);
	cr_assert_eq(row(CHAIN_PATH_RAN, "relay-work", "")->count, 2);
	cr_assert_eq(p->n, 5);
}

Test(chain_paths, other_stacks_are_other_paths_and_a_wait_not_seen_is_left_out)
{
	struct chain c = relay(5), d = relay(6), e = relay(5);

	e.wait_seen = false;
	chain_paths__add(p, "relay-client", &c);
	chain_paths__add(p, "relay-client", &d);
	chain_paths__add(p, "relay-client", &e);
	cr_assert_eq(p->n, 6);
	cr_assert_eq(row(CHAIN_PATH_WAITED, "relay-work", "wphog")->ns, 2 * 4000000);
}

Test(chain_paths, past_the_rows_kept_the_time_goes_to_other_and_none_is_lost)
{
	struct chain c = relay(5);
	uint64_t sum = 0;
	char wakee[16];

	for (int i = 0; i < CHAIN_PATHS_MAX; i++) {
		snprintf(wakee, sizeof(wakee), "w%d", i);
		chain_paths__add(p, wakee, &c);
	}
	cr_assert_eq(p->n, CHAIN_PATHS_MAX);
	for (uint32_t i = 0; i < p->n; i++)
		sum += p->rows[i].ns;
	cr_assert_eq(sum + p->other_ns, (uint64_t)CHAIN_PATHS_MAX * c.wait_ns);
	cr_assert_gt(p->other_ns, 0);
}
