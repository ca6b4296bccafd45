/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_workload.h - a workload run as an SVG picture (--plot): where the time of a
 * wakeup goes, phase by phase, and each phase's distribution in log scale
 * with its tail; for --workload all, the paths side by side. Drawn from the
 * run's aggregate alone, once the runs are over. plot_attach.h draws an
 * attach run; docs/outputs.md describes both.
 */
#ifndef WAKEPROBE_PLOT_WORKLOAD_H
#define WAKEPROBE_PLOT_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>
#include "run_config.h"
#include "run_result.h"

/*
 * plot_workload__runs - the picture of @n runs on @out: run 0 of @wl[0] in full when
 * @n is 1, else the comparison of the paths @wl[i], run with the settings
 * @cfg shared (its workload is not used). 0, or -EIO if the stream failed.
 */
int plot_workload__runs(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
			const struct run_result *const *res, size_t n);

#endif /* WAKEPROBE_PLOT_WORKLOAD_H */
