// SPDX-License-Identifier: GPL-2.0
/* folded_attach.c - --folded of an attach run: the combinations of stacks of every pair it keeps */
#include <errno.h>
#include <inttypes.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "chain.h"
#include "folded_attach.h"
#include "folded_common.h"

/*
 * print_paths - --chains: the critical paths, under their own root,
 * "[chains]": each wakee's waits split, a hop's run up to its waking by
 * its waker and the waker's stacks there (root first), a hop's wait for a
 * CPU by its waker and the task that held it, and the rest by the chain's
 * end; each weighing its ns summed. A wakee's tower is its chains' waits.
 */
static void print_paths(FILE *f, struct run_stacks *rs, const struct chain_paths *p)
{
	char end[48];

	for (uint32_t i = 0; i < p->n; i++) {
		const struct chain_path *r = &p->rows[i];
		const char *names[5] = { "[chains]", r->wakee, r->who };
		size_t n = 3;

		switch (r->part) {
		case CHAIN_PATH_RAN:
			names[n++] = "[ran]";
			break;
		case CHAIN_PATH_WAITED:
			names[n++] = "[waited for a CPU]";
			names[n++] = r->behind[0] ? r->behind : "[idle CPU]";
			break;
		default:
			snprintf(end, sizeof(end), "[end: %s]", chain__end_name(r->end));
			names[2] = end;
			n = 3;
			break;
		}
		folded_common__line(f, rs, names, n, r->part == CHAIN_PATH_RAN && r->stacked, r->waker_user,
				    r->waker_kernel, r->waker_tgid, r->ns);
	}
	if (p->other_ns)
		fprintf(f, "[chains];[paths not kept: the %u kept were taken] %" PRIu64 "\n", CHAIN_PATHS_MAX,
			p->other_ns);
}

int folded_attach__print(FILE *f, const struct attach_report *rep)
{
	const struct attach_aggregate *g = rep->agg;
	struct run_stacks *rs = rep->run ? rep->run->stacks : NULL;

	for (uint32_t i = 0; g && i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];

		folded_common__combos(f, rs, p->wakee_comm[0] ? p->wakee_comm : "?", p->waker, p->stacks);
	}
	if (g && g->chain_paths)
		print_paths(f, rs, g->chain_paths);
	return ferror(f) ? -EIO : 0;
}
