/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_workload.h - the report a program reads: the text report's facts, and a
 * few more, as one JSON document (docs/json.md is its schema).
 */
#ifndef WAKEPROBE_JSON_WORKLOAD_H
#define WAKEPROBE_JSON_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>
#include "catalog.h"
#include "run_config.h"
#include "run_result.h"

#define REPORT_JSON_SCHEMA		"wakeprobe-report"
/* adding keys keeps it; renaming or removing one, or changing what it means, bumps it */
#define REPORT_JSON_SCHEMA_VERSION	2

/*
 * json_workload__print - one document for @n runs made with the settings @cfg:
 * run i measured the path @wl[i] into @res[i] (with `--workload all`,
 * cfg->workload is not meaningful: @wl names each run's path). Returns 0, or
 * -EIO if the stream had a write error.
 */
int json_workload__print(FILE *out, const struct run_config *cfg, const struct workload_desc *const *wl,
			 const struct run_result *const *res, size_t n);

#endif /* WAKEPROBE_JSON_WORKLOAD_H */
