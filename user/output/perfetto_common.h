/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_common.h - the phase slices of a wakeup, which the workload's
 * tracks (perfetto_workload.c) and attach mode's (perfetto_attach.c) both
 * draw
 */
#ifndef WAKEPROBE_PERFETTO_COMMON_H
#define WAKEPROBE_PERFETTO_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "json_writer.h"
#include "wakeup.h"

/* perfetto_common__phase_bounds - t_notify, the marks and t_woken; false unless they run in time order */
bool perfetto_common__phase_bounds(const struct sample_result *r, uint64_t b[NR_PHASES + 1]);
/* perfetto_common__phase_args - a phase slice's args: seq, ns, its time by cause, its named intervals */
void perfetto_common__phase_args(struct json_writer *w, const struct sample_result *r, int k);
/* perfetto_common__interval_text - an interval as the reports word it, then its time: "CPU 1 idle: 650 ns" */
void perfetto_common__interval_text(const struct interval *iv, char *buf, size_t len);

#endif /* WAKEPROBE_PERFETTO_COMMON_H */
