// SPDX-License-Identifier: GPL-2.0
/* folded_attach.c - --folded of an attach run: the combinations of stacks of every pair it keeps */
#include <errno.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "folded_attach.h"
#include "folded_common.h"

int folded_attach__print(FILE *f, const struct attach_report *rep)
{
	const struct attach_aggregate *g = rep->agg;
	struct run_stacks *rs = rep->run ? rep->run->stacks : NULL;

	for (uint32_t i = 0; g && i < g->nr_pairs; i++) {
		const struct attach_pair *p = g->pairs[i];

		folded_common__combos(f, rs, p->wakee_comm[0] ? p->wakee_comm : "?", p->waker, p->stacks);
	}
	return ferror(f) ? -EIO : 0;
}
