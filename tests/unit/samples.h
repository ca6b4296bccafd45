/* SPDX-License-Identifier: GPL-2.0 */
/* samples.h - synthetic merged samples, as the merger hands them to the aggregates */
#ifndef WAKEPROBE_TEST_SAMPLES_H
#define WAKEPROBE_TEST_SAMPLES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "wakeup.h"

/* task_sample - a complete, phased sample of @total_ns, all of it one task's time when @pid is set */
static inline struct sample_result task_sample(uint64_t seq, int64_t total_ns, uint32_t pid, const char *comm)
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = seq;
	r.t_notify_ns = 1000000 * seq;
	r.t_woken_ns = r.t_notify_ns + (uint64_t)total_ns;
	r.total_ns = total_ns;
	r.phase_ns[PHASE_RUNQ_WAIT] = total_ns;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	if (pid) {
		r.why.nr_iv = 1;
		r.why.iv[0].cause = CAUSE_OTHER_TASK;
		r.why.iv[0].phase = PHASE_RUNQ_WAIT;
		r.why.iv[0].pid = pid;
		r.why.iv[0].dur_ns = (uint64_t)total_ns;
		snprintf(r.why.iv[0].name, sizeof(r.why.iv[0].name), "%s", comm);
		r.why.by_cause[CAUSE_OTHER_TASK] = total_ns;
	} else {
		r.why.by_cause[CAUSE_UNEXPLAINED] = total_ns;
	}
	return r;
}

#endif /* WAKEPROBE_TEST_SAMPLES_H */
