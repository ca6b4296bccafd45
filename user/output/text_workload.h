/* SPDX-License-Identifier: GPL-2.0 */
/* text_workload.h - the report a person reads of wakeprobe's own workloads */
#ifndef WAKEPROBE_TEXT_WORKLOAD_H
#define WAKEPROBE_TEXT_WORKLOAD_H

#include <stdio.h>
#include "run_config.h"
#include "run_result.h"

/* text_workload__print_text - the report of run @r of cfg->workload, made with the settings @cfg */
void text_workload__print_text(FILE *out, const struct run_config *cfg, const struct run_result *r);
/*
 * text_workload__print_comparison - `--workload all`: a row per path, @n of them,
 * run i of @wl[i] with the settings @cfg shared (its workload is not used)
 */
void text_workload__print_comparison(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
				     const struct run_result *const *res, size_t n);

#endif /* WAKEPROBE_TEXT_WORKLOAD_H */
