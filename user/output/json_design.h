/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_design.h - a throughput workload's runs (design_run.h) for
 * programs: what the text report (text_design.h) says, as numbers, in
 * one JSON document, with each run's own document as the workload printed
 * it and the traced run's analysis as attach mode's document has it.
 * docs/json.md is its schema ("The design document").
 */
#ifndef WAKEPROBE_JSON_DESIGN_H
#define WAKEPROBE_JSON_DESIGN_H

#include <stddef.h>
#include <stdio.h>
#include "design_run.h"

#define DESIGN_JSON_SCHEMA		"wakeprobe-design-report"
/* adding keys keeps it; renaming or removing one, or changing what it means, bumps it */
#define DESIGN_JSON_SCHEMA_VERSION	2

/*
 * json_design__print - the document of @n mode runs of the workload
 * @workload, in the order they ran, on @out; 0, or -EIO if the stream had
 * a write error
 */
int json_design__print(FILE *out, const char *workload, const struct design_run *const *runs, size_t n);

#endif /* WAKEPROBE_JSON_DESIGN_H */
