// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_common.c - what both kinds of run draw alike on the timeline:
 * a wakeup's phase slices, where each begins and ends, and their args,
 * each interval worded as the text and JSON reports word it
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "explain.h"
#include "perfetto_common.h"

/*
 * perfetto_common__interval_text - one interval of a phase, worded as the
 * text and JSON reports word it, and its time: "CPU 1 idle: 650 ns"
 */
void perfetto_common__interval_text(const struct interval *iv, char *buf, size_t len)
{
	size_t n;

	explain__describe_interval(iv, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, ": %" PRIu64 " ns", iv->dur_ns);
}

/* a phase slice's args: its time by cause, and each named interval of it */
void perfetto_common__phase_args(struct json_writer *w, const struct sample_result *r, int k)
{
	const struct explanation *x = &r->why;
	char desc[160];
	uint32_t i;
	int c;

	json_writer__put_uint(w, "seq", r->sample.seq);
	json_writer__put_int(w, "ns", r->phase_ns[k]);
	json_writer__key(w, "causes");
	json_writer__begin_object(w);
	for (c = 0; c < NR_CAUSES; c++)
		if (x->by_phase_cause[k][c])
			json_writer__put_int(w, wakeup__cause_name(c), x->by_phase_cause[k][c]);
	json_writer__end_object(w);
	json_writer__key(w, "intervals");
	json_writer__begin_array(w);
	for (i = 0; i < x->nr_iv && i < EXPLAIN_MAX_INTERVALS; i++) {
		if (x->iv[i].phase != k)
			continue;
		perfetto_common__interval_text(&x->iv[i], desc, sizeof(desc));
		json_writer__string(w, desc);
	}
	json_writer__end_array(w);
}

bool perfetto_common__phase_bounds(const struct sample_result *r, uint64_t b[NR_PHASES + 1])
{
	int k;

	b[0] = r->t_notify_ns;
	for (k = 0; k < NR_MARKS; k++)
		b[k + 1] = r->mark_ns[k];
	b[NR_PHASES] = r->t_woken_ns;
	for (k = 0; k < NR_PHASES; k++)
		if (b[k + 1] < b[k])
			return false;
	return true;
}
