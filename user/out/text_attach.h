/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_attach.h - attach mode's report a person reads: the run, its
 * wakeups by waker and by label, the busiest waker -> wakee pairs, the
 * kernel phases of the complete wakeups, the futex words, the histograms.
 */
#ifndef WAKEPROBE_TEXT_ATTACH_H
#define WAKEPROBE_TEXT_ATTACH_H

#include <stdio.h>
#include "attach.h"
#include "attach_aggregate.h"
#include "attach_session.h"

struct attach_report {
	const struct attach_session_opts *targets;	/* what was traced */
	const struct attach_session_result *run;
	const struct attach_counters *counters;
	const struct attach_aggregate *agg;
	const int32_t *tids;			/* --tid: only these wakees are in the tables; none: all */
	uint32_t nr_tids;
	uint64_t tids_left_out;			/* wakeups of other threads */
	uint32_t pairs;				/* --pairs: rows of the pairs table */
	enum attach_order order;		/* --order: of the pairs and the futex words */
};

void text_attach__print_text(FILE *out, const struct attach_report *r);

#endif /* WAKEPROBE_TEXT_ATTACH_H */
